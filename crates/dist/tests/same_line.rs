//! The line of a beam spread over processes is the single-process line.

use hatetris_dist::net::{free_local_addresses, Cluster};
use hatetris_dist::Outcome;
use hatetris_eval::{Baseline, Evaluator};
use hatetris_search::{BeamState, SearchConfig, SearchResult};
use std::sync::Arc;
use std::time::Duration;

/// Runs the search on `n` processes of a cluster on 127.0.0.1 (threads of
/// this test, talking over TCP as processes do).
fn on_cluster(n: usize, config: &SearchConfig, start: BeamState) -> Vec<Outcome> {
    let addresses = free_local_addresses(n).unwrap();
    let handles: Vec<_> = (0..n)
        .map(|process| {
            let cluster = Cluster { addresses: addresses.clone(), process, connect_timeout: Duration::from_secs(20) };
            let config = config.clone();
            let start = start.clone();
            std::thread::spawn(move || {
                let eval: Arc<dyn Evaluator> = Arc::new(Baseline);
                hatetris_dist::search(&cluster, &config, eval, "baseline", start, &mut |_, _| {}).unwrap()
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
fn a_chain_band_is_refused_with_a_reason() {
    let config = SearchConfig { chain_band: 2, quiescence: 2, ..SearchConfig::default() };
    let err = hatetris_dist::search(
        &Cluster::single(),
        &config,
        Arc::new(Baseline),
        "baseline",
        BeamState::new(),
        &mut |_, _| {},
    )
    .unwrap_err();
    assert!(err.to_string().contains("chain band"), "{err}");
}
