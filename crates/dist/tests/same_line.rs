//! The line of a beam spread over processes is the single-process line.

use hatetris_dist::net::{free_local_addresses, Cluster};
use hatetris_dist::{Event, Outcome};
use hatetris_eval::{Baseline, Evaluator};
use hatetris_search::{BeamState, SearchConfig, SearchResult};
use std::sync::Arc;
use std::time::Duration;

/// Runs the search on `n` processes of a cluster on 127.0.0.1 (threads of
/// this test, talking over TCP as processes do).
fn on_cluster(n: usize, config: &SearchConfig, start: BeamState) -> Vec<Outcome> {
    on_cluster_from(config, vec![vec![start]; n], 0).into_iter().map(|(o, _)| o).collect()
}

/// As [`on_cluster`], process `p` holding the starts `starts[p]`, with the
/// states it would checkpoint every `every` depths.
fn on_cluster_from(config: &SearchConfig, starts: Vec<Vec<BeamState>>, every: usize) -> Vec<(Outcome, Vec<BeamState>)> {
    let n = starts.len();
    let addresses = free_local_addresses(n).unwrap();
    let handles: Vec<_> = starts
        .into_iter()
        .enumerate()
        .map(|(process, starts)| {
            let cluster = Cluster::new(addresses.clone(), process, Duration::from_secs(20));
            let config = config.clone();
            std::thread::spawn(move || {
                let eval: Arc<dyn Evaluator> = Arc::new(Baseline);
                let mut saved = Vec::new();
                let outcome = hatetris_dist::search(&cluster, &config, eval, "baseline", starts, every, &mut |e| {
                    if let Event::Checkpoint(s) = e {
                        saved.push(*s);
                    }
                })
                .unwrap();
                (outcome, saved)
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

fn single(config: &SearchConfig, start: BeamState) -> SearchResult {
    let mut state = start;
    hatetris_search::run(&mut state, config, &Baseline, &mut |_| true);
    state.result()
}

fn assert_same(one: &SearchResult, many: &[Outcome]) {
    for o in many {
        let r = &o.result;
        assert_eq!(r.moves, one.moves, "process {}: the line differs", o.process);
        assert_eq!((r.score, r.depth_reached, r.expanded), (one.score, one.depth_reached, one.expanded));
        assert_eq!(r.peak_tree_nodes, one.peak_tree_nodes, "process {}", o.process);
    }
}

#[test]
fn width_2000_over_two_processes_is_the_single_process_line() {
    // 60 depths: the tree is collected (past 73,536 nodes) on the way.
    let config = SearchConfig { width: 2000, max_depth: 60, seed: 3, ..SearchConfig::default() };
    let one = single(&config, BeamState::new());
    let two = on_cluster(2, &config, BeamState::new());
    assert_same(&one, &two);
    assert!(two[0].costs.iter().all(|c| c.bytes_sent > 0));
}

#[test]
fn twins_merges_and_three_processes_keep_the_line() {
    let config = SearchConfig { width: 200, max_depth: 40, seed: 11, twins: 2, ..SearchConfig::default() };
    let one = single(&config, BeamState::new());
    assert_same(&one, &on_cluster(3, &config, BeamState::new()));
    assert_same(&one, &on_cluster(1, &config, BeamState::new()));
}

#[test]
fn a_small_well_that_loops_keeps_the_line_to_the_end_of_the_game() {
    // A short well: games end and loops decide the enemy's pieces.
    let config = SearchConfig {
        width: 64,
        rules: hatetris_game::Rules::with_height(6).unwrap(),
        seed: 5,
        max_depth: 150,
        ..SearchConfig::default()
    };
    let one = single(&config, BeamState::new());
    assert_same(&one, &on_cluster(2, &config, BeamState::new()));
}

#[test]
fn a_chain_band_over_processes_keeps_the_line() {
    // The band is a global cut of the raw candidates: record chains of
    // depth 2 over the best 2 x width, and S/Z chains over 1 x width.
    for (rule, band, n) in [(hatetris_search::ChainRule::Record, 2, 2), (hatetris_search::ChainRule::Sz, 1, 3)] {
        let config = SearchConfig {
            width: 150,
            max_depth: 50,
            seed: 4,
            quiescence: 2,
            chain_rule: rule,
            chain_band: band,
            ..SearchConfig::default()
        };
        let one = single(&config, BeamState::new());
        assert_same(&one, &on_cluster(n, &config, BeamState::new()));
    }
}

#[test]
fn chains_that_follow_one_clear_keep_the_line_over_processes() {
    // Every candidate chained (record rule, depth 3, one well followed a
    // clear), and a band of them.
    for band in [0, 2] {
        let config = SearchConfig {
            width: 150,
            max_depth: 50,
            seed: 6,
            quiescence: 3,
            chain_band: band,
            chain_follow: 1,
            ..SearchConfig::default()
        };
        let one = single(&config, BeamState::new());
        assert_same(&one, &on_cluster(2, &config, BeamState::new()));
    }
}

fn same_state(a: &BeamState, b: &BeamState) -> bool {
    hatetris_dist::beam::state_fingerprint(a) == hatetris_dist::beam::state_fingerprint(b)
        && (a.peak_tree_nodes, a.tree.len()) == (b.peak_tree_nodes, b.tree.len())
}

#[test]
fn checkpoints_are_the_single_process_state_and_resume_from_the_depth_all_hold() {
    let config = SearchConfig { width: 300, max_depth: 70, seed: 9, ..SearchConfig::default() };
    let one = single(&config, BeamState::new());
    // Every 10 depths, each process is handed the whole single-process state.
    let runs = on_cluster_from(&config, vec![vec![BeamState::new()]; 2], 10);
    let mut alone = BeamState::new();
    let mut expected = Vec::new();
    hatetris_search::run(&mut alone, &config, &Baseline, &mut |s| {
        if s.depth % 10 == 0 {
            expected.push(s.clone());
        }
        true
    });
    for (outcome, saved) in &runs {
        assert_eq!(saved.len(), expected.len(), "one state every 10 depths, the last at the end");
        for (a, b) in saved.iter().zip(&expected) {
            assert!(same_state(a, b), "process {}: depth {} differs", outcome.process, a.depth);
        }
    }
    // Killed when process 0 had saved depth 40 and process 1 only 30: both
    // resume from 30 and end on the line never interrupted.
    let at = |d: usize| runs[0].1.iter().find(|s| s.depth == d).unwrap().clone();
    let resumed = on_cluster_from(&config, vec![vec![at(40), at(30)], vec![at(30), at(20)]], 10);
    let outcomes: Vec<Outcome> = resumed.into_iter().map(|(o, _)| o).collect();
    assert_same(&one, &outcomes);
}
