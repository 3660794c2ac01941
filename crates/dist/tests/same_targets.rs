//! The refine step spread over processes gives the single-process targets,
//! bit for bit.

use hatetris_dist::net::{free_local_addresses, Cluster};
use hatetris_eval::{Evaluator, Network, QuantizedNetwork};
use hatetris_game::{Rules, Well};
use hatetris_learn::cycle::{refine_targets, targets_from_pairs, RefineConfig, TargetKind};
use hatetris_search::{run, BeamState, SearchConfig};
use std::sync::Arc;
use std::time::Duration;

fn network() -> Arc<dyn Evaluator> {
    Arc::new(QuantizedNetwork::new(&Network::embedded_bootstrap()))
}

/// About 300 wells of a short search's beams (50 from every fifth depth),
/// in families of 1 to 5 consecutive wells of one depth.
fn wells_and_families() -> (Vec<Well>, Vec<u32>) {
    let eval = network();
    let mut state = BeamState::new();
    let config = SearchConfig { width: 200, max_depth: 30, seed: 1, ..SearchConfig::default() };
    let mut wells = Vec::new();
    let mut families = Vec::new();
    let mut family = 0u32;
    run(&mut state, &config, eval.as_ref(), &mut |s| {
        if s.depth % 5 == 0 {
            let depth: Vec<Well> = s.beam.iter().take(50).map(|e| e.well).collect();
            let mut k = 0;
            while k < depth.len() {
                family += 1;
                let n = (1 + family as usize % 5).min(depth.len() - k);
                families.extend(std::iter::repeat_n(family, n));
                k += n;
            }
            wells.extend(depth);
        }
        true
    });
    (wells, families)
}

/// The targets each of `n` processes (threads of this test on 127.0.0.1,
/// talking over TCP) gets, process `p` given `wells[p]`.
fn on_cluster(
    wells: Vec<Vec<Well>>,
    families: Option<Vec<u32>>,
    config: &RefineConfig,
    timeout: Duration,
) -> Vec<anyhow::Result<Vec<f32>>> {
    let n = wells.len();
    let addresses = free_local_addresses(n).unwrap();
    let handles: Vec<_> = wells
        .into_iter()
        .enumerate()
        .map(|(process, wells)| {
            let cluster = Cluster::new(addresses.clone(), process, timeout);
            let config = config.clone();
            let families = families.clone();
            std::thread::spawn(move || {
                let mut last = 0;
                let pairs = hatetris_dist::refine::refine_pairs(
                    &cluster,
                    &wells,
                    families.as_deref(),
                    Rules::STANDARD,
                    &config,
                    network(),
                    "bootstrap",
                    9,
                    &mut |done, share| {
                        assert!(done <= share && done >= last, "progress goes up to the share");
                        last = done;
                    },
                );
                pairs.map(|p| targets_from_pairs(p, families.as_deref(), &config))
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|t| t.to_bits()).collect()
}

fn assert_spread_is_single(target: TargetKind, processes: &[usize]) {
    let (wells, families) = wells_and_families();
    assert!(wells.len() >= 250, "{} wells", wells.len());
    let config = RefineConfig { width: 8, depth: 4, target, ..RefineConfig::default() };
    let family_target = matches!(target, TargetKind::Family | TargetKind::Joint | TargetKind::Relative);
    let families = family_target.then_some(families);
    let eval = network();
    let one = refine_targets(&wells, families.as_deref(), Rules::STANDARD, &config, eval.as_ref(), 9, &mut |_| {});
    assert!(one.iter().any(|&t| t != one[0]), "targets that differ");
    for &n in processes {
        let many = on_cluster(vec![wells.clone(); n], families.clone(), &config, Duration::from_secs(20));
        for (p, targets) in many.into_iter().enumerate() {
            assert_eq!(bits(&targets.unwrap()), bits(&one), "{target:?}, {n} processes: process {p} differs");
        }
    }
}

#[test]
fn lookahead_targets_over_two_and_three_processes_are_the_single_process_targets() {
    assert_spread_is_single(TargetKind::Lookahead, &[1, 2, 3]);
}

#[test]
fn joint_targets_over_two_processes_are_the_single_process_targets() {
    assert_spread_is_single(TargetKind::Joint, &[2]);
}

#[test]
fn family_targets_over_two_processes_are_the_single_process_targets() {
    assert_spread_is_single(TargetKind::Family, &[2]);
}

#[test]
fn processes_given_other_wells_refuse_each_other() {
    let (wells, _) = wells_and_families();
    let config = RefineConfig { width: 8, depth: 4, ..RefineConfig::default() };
    let other = wells[1..].to_vec();
    let results = on_cluster(vec![wells, other], None, &config, Duration::from_secs(5));
    for (p, r) in results.into_iter().enumerate() {
        let err = r.expect_err("refused").to_string();
        assert!(err.contains("other settings"), "process {p}: {err}");
    }
}
