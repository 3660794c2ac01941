//! Tests of the beam search: the selection order, expansion, search
//! results and the evaluators the other modules' tests share.

use super::*;
use crate::line::keys_for_line;

fn candidate(value: f32, score: u32, well_hash: u64) -> Candidate {
    Candidate { value, score, parent: 0, mv: 0, well_hash, memory: 0 }
}

proptest::proptest! {
    /// The integer keys order candidates as comparing their fields does:
    /// value (as `total_cmp`) and score highest first, then tie-break.
    #[test]
    fn sort_keys_order_as_the_fields_do(
        a in (proptest::num::f32::ANY, 0u32..4, 0u64..4),
        b in (proptest::num::f32::ANY, 0u32..4, 0u64..4),
        seed in 0u64..3,
    ) {
        let (ca, cb) = (candidate(a.0, a.1, a.2), candidate(b.0, b.1, b.2));
        let by_fields = cb.value.total_cmp(&ca.value)
            .then(cb.score.cmp(&ca.score))
            .then(tiebreak(seed, ca.well_hash).cmp(&tiebreak(seed, cb.well_hash)));
        proptest::prop_assert_eq!(sort_key(&ca, seed).cmp(&sort_key(&cb, seed)), by_fields);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]
    #[test]
    fn the_smallest_come_to_the_front(
        set in proptest::collection::hash_set(proptest::prelude::any::<u32>(), 0..70_000),
        k in 0usize..20_000,
    ) {
        let mut v: Vec<u32> = set.into_iter().collect();
        let mut sorted = v.clone();
        sorted.sort_unstable();
        let m = smallest_to_front(&mut v, k);
        proptest::prop_assert!(m >= k.min(v.len()) && m <= v.len());
        let k = m;
        let mut front = v[..k].to_vec();
        front.sort_unstable();
        proptest::prop_assert_eq!(front, &sorted[..k]);
    }
}

/// A sample that holds only the smallest items puts the pivot too low:
/// the exact fallback still brings the `k` smallest.
#[test]
fn an_unlucky_sample_falls_back_to_the_exact_cut() {
    let n = 1 << 15;
    let step = n / 2048;
    // The sampled positions hold 0..2048, the rest hold larger values.
    let mut v: Vec<u32> =
        (0..n as u32).map(|i| if (i as usize).is_multiple_of(step) { i / step as u32 } else { 4096 + i }).collect();
    let k = 4000;
    let m = smallest_to_front(&mut v, k);
    assert_eq!(m, k);
    let mut front = v[..k].to_vec();
    front.sort_unstable();
    let mut all = v.clone();
    all.sort_unstable();
    assert_eq!(front, &all[..k]);
}

/// Lower stacks are better: values that differ between wells.
struct Lowness;
impl Evaluator for Lowness {
    fn evaluate(&self, rows: &[u16]) -> f32 {
        -(rows.iter().map(|r| r.count_ones()).sum::<u32>() as f32) / 100.0
    }
    fn name(&self) -> String {
        "lowness".into()
    }
}

#[test]
fn a_search_from_several_wells_is_each_ones_search_and_knows_where_entries_come_from() {
    let config = SearchConfig { width: 40, max_depth: 6, quiescence: 0, ..SearchConfig::default() };
    let first = search(&SearchConfig { max_depth: 3, ..config.clone() }, &Lowness, &mut |_| {}).moves;
    let mut wells = Vec::new();
    replay_line(config.rules, config.enemy, &first, |_, w, _| wells.push(*w)).unwrap();
    // One well: the same beam as a search from it alone.
    let mut alone = BeamState::from_well(wells[0]);
    let mut one = BeamState::from_wells(&wells[..1]);
    run(&mut alone, &config, &Lowness, &mut |_| true);
    run(&mut one, &config, &Lowness, &mut |_| true);
    let key = |s: &BeamState| s.beam.iter().map(|e| (e.well, e.score, e.value.to_bits())).collect::<Vec<_>>();
    assert_eq!(key(&one), key(&alone));
    // Several: every entry descends from one of them, and one that
    // came from a given well is reachable from it.
    let mut many = BeamState::from_wells(&wells);
    run(&mut many, &config, &Lowness, &mut |_| true);
    let hashes: Vec<u64> = wells.iter().map(|w| w.hash64()).collect();
    assert!(!many.beam.is_empty());
    for e in &many.beam {
        let from = many.first_well_of(e);
        assert!(hashes.contains(&from));
        let start = wells[hashes.iter().position(|&h| h == from).unwrap()];
        let moves: Vec<Move> = many.tree.moves_to(e.node).into_iter().skip(1).map(Move::unpack).collect();
        let mut end = start;
        for mv in &moves {
            // Each move is a landing of the piece the enemy gives there.
            let (piece, landings) =
                hatetris_game::choose_piece_and_landings(&end, config.rules, None::<&hatetris_game::SeenWells>);
            assert_eq!(mv.piece, piece);
            end = landings.iter().find(|l| (l.x, l.y, l.o) == (mv.x, mv.y, mv.o)).unwrap().well;
        }
        assert_eq!(end, e.well);
    }
}

#[test]
fn sort_keys_put_higher_values_first_across_signs() {
    let values = [f32::INFINITY, 1.0, 0.5, 0.0, -0.0, -0.5, -1.0, f32::NEG_INFINITY];
    let keys: Vec<u128> = values.iter().map(|&v| sort_key(&candidate(v, 0, 0), 0)).collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:?}");
}

/// A tiny evaluator for tests: lower and flatter is better.
pub(crate) struct LowAndFlat;
impl Evaluator for LowAndFlat {
    fn evaluate(&self, rows: &[u16]) -> f32 {
        let filled: u32 = rows.iter().enumerate().map(|(i, r)| r.count_ones() * (rows.len() - i) as u32).sum();
        let holes: u32 = rows.windows(2).map(|w| (w[0] & !w[1]).count_ones()).sum();
        -(filled as f32) * 0.01 - holes as f32 * 0.05
    }
    fn name(&self) -> String {
        "low-and-flat".into()
    }
}

fn small_config(height: usize, width: usize, seed: u64, enemy: Enemy) -> SearchConfig {
    SearchConfig {
        width,
        rules: Rules::with_height(height).unwrap(),
        enemy,
        quiescence: 2,
        chain_rule: ChainRule::Record,
        chain_band: 0,
        chain_blend: Blend::FULL,
        chain_follow: 0,
        seed,
        twins: 1,
        max_depth: 300,
    }
}

#[test]
fn winning_lines_replay_with_the_enemy_choices_the_search_assumed() {
    // Small wells loop often, so the memory is exercised.
    for (height, width, seed) in [(4, 8, 1), (5, 16, 2), (6, 32, 3), (8, 50, 4), (16, 20, 5)] {
        let config = small_config(height, width, seed, Enemy::Hatetris);
        let result = search(&config, &LowAndFlat, &mut |_| {});
        let keys = keys_for_line(config.rules, config.enemy, &result.moves)
            .unwrap_or_else(|e| panic!("height {height} width {width} seed {seed}: {e}"));
        let out = hatetris_game::play(config.rules, config.enemy, &keys, |_, _| {});
        assert_eq!(out.score, result.score, "height {height}");
    }
}

#[test]
fn mild_lines_replay_too() {
    let config = small_config(6, 16, 7, Enemy::Mild);
    let result = search(&config, &LowAndFlat, &mut |_| {});
    let keys = keys_for_line(config.rules, config.enemy, &result.moves).unwrap();
    assert_eq!(hatetris_game::play(config.rules, Enemy::Mild, &keys, |_, _| {}).score, result.score);
}

#[test]
fn a_line_checked_against_the_wrong_enemy_is_caught() {
    // The check is real: pretend the first piece was another one.
    let config = small_config(16, 10, 0, Enemy::Hatetris);
    let mut result = search(&config, &LowAndFlat, &mut |_| {});
    assert!(!result.moves.is_empty());
    result.moves[0].piece = hatetris_game::Piece::T;
    assert!(matches!(
        keys_for_line(config.rules, config.enemy, &result.moves),
        Err(crate::line::LineError::EnemyMismatch { index: 0, .. })
    ));
}

#[test]
fn same_seed_and_width_give_the_same_line_on_any_thread_count() {
    let config = SearchConfig { width: 64, max_depth: 80, seed: 9, ..SearchConfig::default() };
    let runs: Vec<SearchResult> = [1, 2, 3]
        .iter()
        .map(|&t| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap();
            pool.install(|| search(&config, &LowAndFlat, &mut |_| {}))
        })
        .collect();
    for r in &runs[1..] {
        assert_eq!(r.moves, runs[0].moves);
        assert_eq!(r.expanded, runs[0].expanded);
    }
}

/// Chained searches, every rule, banded or not, following every clear
/// or one: the same line on any thread count (the chain memo is per
/// thread, and must not show).
#[test]
fn chained_searches_give_the_same_line_on_any_thread_count() {
    for rule in ChainRule::ALL {
        for (band, follow) in [(0, 0), (2, 0), (0, 1), (2, 1)] {
            let config = SearchConfig {
                width: 48,
                max_depth: 60,
                seed: 4,
                quiescence: 3,
                chain_rule: rule,
                chain_band: band,
                chain_follow: follow,
                ..SearchConfig::default()
            };
            let runs: Vec<SearchResult> = [1, 2]
                .iter()
                .map(|&t| {
                    let pool = rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap();
                    pool.install(|| search(&config, &LowAndFlat, &mut |_| {}))
                })
                .collect();
            assert_eq!(runs[1].moves, runs[0].moves, "{rule} band {band} follow {follow}");
            assert!(runs[0].score > 0, "{rule} band {band} follow {follow}: the game must clear lines");
        }
    }
}

/// A band wider than the candidates chains them all: the exact search.
/// A narrow band chains fewer, and so plays another game here.
#[test]
fn a_band_past_every_candidate_is_the_exact_chained_search() {
    let exact = SearchConfig { width: 30, max_depth: 70, seed: 2, quiescence: 2, ..SearchConfig::default() };
    let wide = SearchConfig { chain_band: 1000, ..exact.clone() };
    let plain = SearchConfig { quiescence: 0, ..exact.clone() };
    let line = |c: &SearchConfig| search(c, &LowAndFlat, &mut |_| {}).moves;
    assert_eq!(line(&wide), line(&exact));
    assert_ne!(line(&exact), line(&plain), "the chains must change the game");
}

#[test]
fn seeds_change_tie_breaks() {
    let with_seed = |seed| {
        let config = SearchConfig { width: 8, max_depth: 40, seed, ..SearchConfig::default() };
        search(&config, &LowAndFlat, &mut |_| {}).moves
    };
    assert_ne!(with_seed(1), with_seed(2));
}

/// Same well and memory: merged (the best kept); same well, other
/// memories: up to `twins` kept.
#[test]
fn selection_merges_identical_futures_and_prunes_twins() {
    let c = |value: f32, well_hash: u64, memory: u64| Candidate { memory, ..candidate(value, 0, well_hash) };
    let cands = vec![
        c(0.9, 1, 10),
        c(0.8, 1, 10), // merged into the first
        c(0.7, 1, 11), // a twin
        c(0.6, 1, 12), // a third entry for well 1
        c(0.5, 2, 10),
    ];
    let kept = |twins: usize| -> Vec<(u64, u64)> {
        let config = SearchConfig { width: 10, twins, ..SearchConfig::default() };
        select(cands.clone(), &config).iter().map(|c| (c.well_hash, c.memory)).collect()
    };
    assert_eq!(kept(1), [(1, 10), (2, 10)]);
    assert_eq!(kept(2), [(1, 10), (1, 11), (2, 10)]);
    assert_eq!(kept(3), [(1, 10), (1, 11), (1, 12), (2, 10)]);
}

/// The 289-line game's moves (knewjade's, from the fixtures).
fn moves_of_289() -> Vec<Move> {
    let r = hatetris_game::fixtures::known_replays()
        .into_iter()
        .find(|r| r.name == "knewjade (5)" && r.encoding == "Base2048")
        .expect("the 289-line replay is a fixture");
    let keys = hatetris_game::replay::decode(&r.replay).unwrap();
    crate::line::moves_for_keys(Rules::STANDARD, Enemy::Hatetris, &keys)
}

/// A search from a position of a real game keeps the game's line in
/// front of its own, and the whole line replays in the engine to the
/// score the search reports, the enemy giving every piece the search
/// assumed (`keys_for_line` checks each against the game's memory).
#[test]
fn a_search_from_a_games_position_replays_from_the_empty_well() {
    let all = moves_of_289();
    for prefix in [300, 520] {
        let start = &all[..prefix];
        let state = BeamState::from_moves(start, Rules::STANDARD, Enemy::Hatetris).unwrap();
        let end = crate::line::replay_line(Rules::STANDARD, Enemy::Hatetris, start, |_, _, _| {}).unwrap();
        assert_eq!((state.beam[0].well, state.beam[0].score), (end.well, end.score));
        assert_eq!(state.result().moves, start, "the start's line alone, before any step");
        let config = SearchConfig { width: 50, max_depth: 20, ..SearchConfig::default() };
        let mut state = state;
        run(&mut state, &config, &hatetris_eval::Baseline, &mut |_| true);
        let result = state.result();
        assert_eq!(result.depth_reached, 20, "prefix {prefix}");
        assert_eq!(&result.moves[..prefix], start);
        assert!(result.moves.len() > prefix);
        assert!(result.score >= end.score);
        let keys = keys_for_line(Rules::STANDARD, Enemy::Hatetris, &result.moves)
            .unwrap_or_else(|e| panic!("prefix {prefix}: {e}"));
        let out = hatetris_game::play(Rules::STANDARD, Enemy::Hatetris, &keys, |_, _| {});
        assert_eq!(out.score, result.score, "prefix {prefix}");
        assert_eq!(out.pieces as usize, result.moves.len());
    }
}

/// The position a search reached, rebuilt from its line, is the entry
/// the search held: same well, score and memory hash, and its path in
/// the tree shows the enemy the same wells (small wells loop often, so
/// the memory decides pieces here).
#[test]
fn from_moves_rebuilds_the_entry_a_search_held() {
    let config = small_config(6, 32, 3, Enemy::Hatetris);
    let mut state = BeamState::new();
    let mut held = Vec::new();
    run(&mut state, &SearchConfig { max_depth: 40, ..config.clone() }, &LowAndFlat, &mut |s| {
        held.extend(s.beam.iter().step_by(3).map(|e| (*e, s.tree.moves_to(e.node))));
        true
    });
    assert!(held.len() > 50, "{} entries", held.len());
    for (entry, packed) in held {
        let moves: Vec<Move> = packed.into_iter().map(Move::unpack).collect();
        let rebuilt = BeamState::from_moves(&moves, config.rules, config.enemy).unwrap();
        let e = rebuilt.beam[0];
        assert_eq!((e.well, e.score, e.memory), (entry.well, entry.score, entry.memory));
        // The enemy asks the same counts of both trees.
        for &h in &[entry.well.hash64(), Well::EMPTY.hash64()] {
            assert_eq!(rebuilt.tree.count_on_path(e.node, h), state_count(&moves, h));
        }
    }
}

/// How often the line `moves` from the empty well shows a well with hash `h`.
fn state_count(moves: &[Move], h: u64) -> u32 {
    let mut well = Well::EMPTY;
    let mut count = (well.hash64() == h) as u32;
    for mv in moves {
        well.lock(mv.piece.shape(mv.o), mv.x as i32, mv.y as i32);
        count += (well.hash64() == h) as u32;
    }
    count
}

#[test]
fn from_moves_refuses_a_wrong_line_or_a_finished_game() {
    let all = moves_of_289();
    let mut wrong = all[..30].to_vec();
    wrong[3].piece =
        if wrong[3].piece == hatetris_game::Piece::I { hatetris_game::Piece::O } else { hatetris_game::Piece::I };
    assert!(matches!(
        BeamState::from_moves(&wrong, Rules::STANDARD, Enemy::Hatetris),
        Err(LineError::EnemyMismatch { index: 3, .. })
    ));
    assert_eq!(
        BeamState::from_moves(&all, Rules::STANDARD, Enemy::Hatetris).unwrap_err(),
        LineError::EndsInGameOver { pieces: all.len() }
    );
    let empty = BeamState::from_moves(&[], Rules::STANDARD, Enemy::Hatetris).unwrap();
    let new = BeamState::new();
    assert_eq!(empty.beam, new.beam);
    assert_eq!(empty.tree.len(), 1);
}

#[test]
fn merged_and_pruned_candidates_never_exceed_the_width_or_repeat_a_well() {
    let config = SearchConfig { width: 50, max_depth: 30, ..SearchConfig::default() };
    let mut state = BeamState::new();
    run(&mut state, &config, &LowAndFlat, &mut |s| {
        let mut wells: Vec<Well> = s.beam.iter().map(|e| e.well).collect();
        assert!(wells.len() <= 50);
        wells.sort();
        wells.dedup();
        assert_eq!(wells.len(), s.beam.len(), "twins=1 keeps one entry per well");
        true
    });
}
