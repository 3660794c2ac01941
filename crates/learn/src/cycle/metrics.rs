//! What a run records of each cycle: its line of metrics.jsonl, the
//! record of the network's strength on the embedded suite (suite.json,
//! measured by `suite`), and the plots of both across the cycles.

use super::error::{io, CycleError};
use hatetris_fileio::write_atomically;
use hatetris_search::{Blend, ChainRule};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// What a cycle reports, one line of metrics.jsonl.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CycleMetrics {
    pub cycle: usize,
    pub lines: u32,
    pub pieces: usize,
    pub replay: String,
    pub wells_sampled: usize,
    pub search_secs: f64,
    pub refine_secs: f64,
    pub refine_ms_per_well: f64,
    pub train_loss: f64,
    pub validation_loss: f64,
    pub epochs: usize,
    /// The cycle's wall seconds, across resumes: this process's, plus what
    /// earlier ones spent in the search and refine steps (kept in their
    /// saves and parts).
    pub wall_secs: f64,
    /// The learned network on the suite: mean pieces survived and lines
    /// added per start (absent when the run does not measure).
    #[serde(default)]
    pub suite_pieces: Option<f64>,
    #[serde(default)]
    pub suite_lines: Option<f64>,
    /// The learned network on the steady suite: mean pieces survived and
    /// rows frozen per 100 pieces (`SuiteRecord`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steady_pieces: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steady_frozen_per_100: Option<f64>,
    /// Mean pieces survived from the --starts positions in the search step
    /// (the cycle's network; absent without starts).
    #[serde(default)]
    pub starts_pieces: Option<f64>,
    /// Lines of the search step's opening games (empty without openings).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opening_lines: Vec<u32>,
    /// Lines of the game the network before searched again when this
    /// cycle's game fell short (`retry_below`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_lines: Option<u32>,
    /// The piece the cycle's master search went on from (`master_from_end`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_piece: Option<usize>,
    /// How fast the cycle's game buried its well: rows frozen per 100
    /// pieces (`hatetris_game::frozen`; the long public games 0.75-1).
    #[serde(default)]
    pub frozen_per_100: Option<f64>,
    /// The beam width the cycle's game was searched at (a run retuned
    /// on resume searches its later cycles at another; absent in records
    /// written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<usize>,
    /// The chains' depth and band of that search (`quiescence`,
    /// `chain_band`), kept with the width.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chains: Option<(u32, u32)>,
    /// The chains' rule of that search (absent in records written before
    /// a run could be retuned to another rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_rule: Option<ChainRule>,
    /// The chains' blend of that search (absent in records written before
    /// the setting existed, which counted the whole rise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_blend: Option<Blend>,
    /// The chains' follow of that search, when not 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_follow: Option<u32>,
    /// Core-seconds the cycle took here: its wall seconds times the threads
    /// and processes it ran on (absent in records written before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_secs: Option<f64>,
}

/// A network's strength on the embedded suite (suite.json).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct SuiteRecord {
    pub(super) network: String,
    pub(super) width: usize,
    pub(super) pieces: usize,
    pub(super) mean_pieces: f64,
    pub(super) mean_lines: f64,
    pub(super) secs: f64,
    /// The same network on the steady suite (`Suite::embedded("steady")`:
    /// late positions of the lineage's longest master games), at the same
    /// width and pieces: mean pieces survived and rows frozen per 100
    /// pieces (absent in records written before it was measured).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) steady_pieces: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) steady_frozen_per_100: Option<f64>,
}

pub(super) fn read_metrics(path: &Path) -> Result<Vec<CycleMetrics>, CycleError> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(path).map_err(io(path))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| CycleError::Malformed { path: path.into(), what: e.to_string() }))
        .collect()
}

pub(super) fn write_metrics(path: &Path, metrics: &[CycleMetrics]) -> Result<(), CycleError> {
    let mut text = String::new();
    for m in metrics {
        text.push_str(&serde_json::to_string(m).expect("serialisable"));
        text.push('\n');
    }
    write_atomically(path, text.as_bytes()).map_err(io(path))
}

pub(super) fn plot_progress(
    dir: &Path,
    metrics: &[CycleMetrics],
    initial: Option<&SuiteRecord>,
) -> Result<(), CycleError> {
    if let Some(first) = initial {
        // Cycle 0 is the starting network; cycle c is what cycle c learned.
        let pieces: Vec<(f64, f64)> = std::iter::once((0.0, first.mean_pieces))
            .chain(metrics.iter().filter_map(|m| Some((m.cycle as f64, m.suite_pieces?))))
            .collect();
        let lines: Vec<(f64, f64)> = std::iter::once((0.0, first.mean_lines))
            .chain(metrics.iter().filter_map(|m| Some((m.cycle as f64, m.suite_lines?))))
            .collect();
        hatetris_plot::plot_losses(
            &dir.join("progress-suite.png"),
            "suite: mean pieces survived / lines added per start, by cycle",
            &[("pieces survived", pieces), ("lines added", lines)],
        )
        .map_err(|e| CycleError::Plot(e.to_string()))?;
    }
    let lines: Vec<(f64, f64)> = metrics.iter().map(|m| (m.cycle as f64, m.lines as f64)).collect();
    let loss: Vec<(f64, f64)> = metrics.iter().map(|m| (m.cycle as f64, m.validation_loss)).collect();
    hatetris_plot::plot_losses(&dir.join("progress-lines.png"), "lines per cycle", &[("lines", lines)])
        .map_err(|e| CycleError::Plot(e.to_string()))?;
    hatetris_plot::plot_losses(
        &dir.join("progress-loss.png"),
        "validation loss per cycle",
        &[("validation loss", loss)],
    )
    .map_err(|e| CycleError::Plot(e.to_string()))
}
