//! The network's strength on the embedded suites, measured after each
//! learn step (suite.json): the default suite (public games) and the
//! steady suite (the lineage's own late positions, with rows frozen).

use super::config::CycleConfig;
use super::error::CycleError;
use super::events::CycleEvent;
use super::files::{read_json, write_json};
use super::metrics::SuiteRecord;
use hatetris_eval::{Network, QuantizedNetwork};
use hatetris_search::Chains;
use hatetris_strength::{measure, summarize, Suite};
use std::path::Path;
use std::time::Instant;

/// Measures the network at `net_path` on the embedded suites unless
/// `record` already holds the result; None when the run does not measure.
pub(super) fn suite_step(
    config: &CycleConfig,
    record: &Path,
    net_path: &Path,
    on_event: &mut dyn FnMut(CycleEvent),
) -> Result<Option<SuiteRecord>, CycleError> {
    if config.suite_width == 0 {
        return Ok(None);
    }
    if record.exists() {
        return Ok(Some(read_json(record)?));
    }
    let t = Instant::now();
    let net = QuantizedNetwork::new(&Network::load(net_path)?);
    // The network alone, whatever the search step chains: the suites
    // compare networks, across runs too.
    let on = |suite: &Suite, on_event: &mut dyn FnMut(CycleEvent)| {
        let results = measure(
            suite,
            &net,
            config.suite_width,
            config.suite_pieces.max(1),
            Chains { depth: 0, ..Chains::default() },
            config.seed,
            &mut |done, total| on_event(CycleEvent::SuiteProgress { done, total }),
        );
        summarize(&results)
    };
    let summary = on(&Suite::embedded_default(), on_event);
    let steady = on(&Suite::embedded("steady").expect("the steady suite is embedded"), on_event);
    let r = SuiteRecord {
        // Its place in the run folder, not where the folder is (a run
        // moves): `cycle-001/net.hnet`, `net-000.hnet`.
        network: run_relative(net_path),
        width: config.suite_width,
        pieces: config.suite_pieces,
        mean_pieces: summary.mean_pieces,
        mean_lines: summary.mean_lines,
        secs: t.elapsed().as_secs_f64(),
        steady_pieces: Some(steady.mean_pieces),
        steady_frozen_per_100: steady.mean_frozen_per_100.is_finite().then_some(steady.mean_frozen_per_100),
    };
    write_json(record, &r)?;
    Ok(Some(r))
}

/// `path`'s name inside its run folder: the cycle folder and the file.
fn run_relative(path: &Path) -> String {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    match path.parent().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned()) {
        Some(parent) if parent.starts_with("cycle-") => format!("{parent}/{name}"),
        _ => name,
    }
}
