//! A strength yardstick: how far an evaluator's beam search gets from a
//! fixed set of positions of real games.
//!
//! A [`Suite`] holds start positions, each with the line that reached it
//! (the enemy's memory). [`measure`] searches on from each start for at
//! most a given number of pieces and reports how many pieces the beam
//! survived and how many lines it added; [`stats`] compares two evaluators
//! start by start (paired differences with a Student's t interval) and
//! relates an evaluator's value of a start to how far its search got
//! (Spearman's rank correlation).
//!
//! Every start is searched from the same position with the same memory,
//! so two evaluators meet the same positions, and the paired interval
//! measures their difference without the variation between starts.

pub mod compare;
pub mod games;
pub mod stats;
pub mod suite;

pub use suite::{Start, Suite, SuiteError};

use hatetris_eval::Evaluator;
use hatetris_game::frozen::{freezing_rate, HOLD};
use hatetris_search::{replay_line, run, BeamState, Chains, Move, SearchConfig};
use suite::{ENEMY, RULES};

/// What one start's search gave.
#[derive(Clone, Debug, PartialEq)]
pub struct StartResult {
    /// Pieces placed before the beam died, or the pieces asked for.
    pub pieces_survived: u32,
    /// Best score reached minus the start's score.
    pub lines_added: u32,
    /// The evaluator's value of the start's well.
    pub value: f32,
    /// The best line found, from the empty well (the start's line first).
    pub line: Vec<Move>,
    /// Rows frozen per 100 pieces over the line from the start on
    /// (`hatetris_game::frozen`, as `games` reports it for whole games):
    /// how fast the search buries the well there. `None` when the line
    /// goes on too few pieces to measure (fewer than `HOLD` + 2).
    pub frozen_per_100: Option<f64>,
}

/// Searches on from every start of `suite` for at most `pieces` pieces
/// (beam of `width`, clear chains `chains`, tie-break `seed`), one
/// start after another (each search runs on every thread), calling
/// `progress(done, total)` after each start.
///
/// Panics if a start's line is not the official game's (a suite read from
/// a file or built from a replay always is) or if the line found does not
/// replay to the score the search reports (a search bug).
pub fn measure(
    suite: &Suite,
    eval: &dyn Evaluator,
    width: usize,
    pieces: usize,
    chains: Chains,
    seed: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<StartResult> {
    let config = SearchConfig {
        width,
        rules: RULES,
        enemy: ENEMY,
        quiescence: chains.depth,
        chain_rule: chains.rule,
        chain_band: chains.band,
        chain_blend: chains.blend,
        chain_follow: chains.follow,
        seed,
        twins: 1,
        max_depth: pieces,
    };
    let total = suite.starts.len();
    let mut out = Vec::with_capacity(total);
    for (i, start) in suite.starts.iter().enumerate() {
        out.push(measure_start(start, eval, &config));
        progress(i + 1, total);
    }
    out
}

fn measure_start(start: &Start, eval: &dyn Evaluator, config: &SearchConfig) -> StartResult {
    let value = eval.evaluate(start.well.playable(RULES));
    let mut state = BeamState::from_moves(&start.moves, config.rules, config.enemy)
        .unwrap_or_else(|e| panic!("start {} piece {}: {e}", start.source, start.piece));
    // max_depth 0 would mean "to the end of the game".
    if config.max_depth > 0 {
        run(&mut state, config, eval, &mut |_| true);
    }
    let pieces_survived = state.pieces_survived();
    let result = state.result();
    // The line is checked against the game's own memory, not the tree's.
    let mut wells = Vec::with_capacity(result.moves.len());
    let end =
        replay_line(config.rules, config.enemy, &result.moves, |_, well, _| wells.push(*well)).unwrap_or_else(|e| {
            panic!("start {} piece {}: the line found does not replay: {e}", start.source, start.piece)
        });
    assert_eq!(
        end.score, result.score,
        "start {} piece {}: the line found replays to another score",
        start.source, start.piece
    );
    StartResult {
        pieces_survived: pieces_survived as u32,
        lines_added: result.score - start.score,
        value,
        line: result.moves,
        // From the start's own well on (`wells[t]` is the well after lock
        // t + 1), so that rows frozen before the start count as they hold.
        frozen_per_100: freezing_rate(&wells[(start.piece as usize).saturating_sub(1)..], HOLD),
    }
}

/// Means over the starts of one evaluator's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub mean_pieces: f64,
    pub mean_lines: f64,
    /// All lines added over all pieces survived.
    pub lines_per_piece: f64,
    /// Spearman's correlation of the start's value with pieces survived.
    pub rank_correlation: f64,
    /// The mean of the starts' rows frozen per 100 pieces, over the
    /// `frozen_starts` starts whose line was long enough to measure.
    pub mean_frozen_per_100: f64,
    pub frozen_starts: usize,
}

pub fn summarize(results: &[StartResult]) -> Summary {
    let pieces: Vec<f64> = results.iter().map(|r| r.pieces_survived as f64).collect();
    let lines: Vec<f64> = results.iter().map(|r| r.lines_added as f64).collect();
    let values: Vec<f64> = results.iter().map(|r| r.value as f64).collect();
    let (total_pieces, total_lines) = (pieces.iter().sum::<f64>(), lines.iter().sum::<f64>());
    let n = results.len() as f64;
    let frozen: Vec<f64> = results.iter().filter_map(|r| r.frozen_per_100).collect();
    Summary {
        mean_frozen_per_100: stats::mean(&frozen),
        frozen_starts: frozen.len(),
        mean_pieces: total_pieces / n,
        mean_lines: total_lines / n,
        lines_per_piece: total_lines / total_pieces,
        rank_correlation: stats::spearman(&values, &pieces),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hatetris_eval::Baseline;
    use hatetris_search::keys_for_line;

    fn two_starts() -> Suite {
        let keys = suite::tests::replay_keys("knewjade (5)");
        let mut suite = Suite::from_replay("kj-289", &keys, 250, 150);
        suite.starts.truncate(2);
        assert_eq!(suite.starts.iter().map(|s| s.piece).collect::<Vec<_>>(), [150, 400]);
        suite
    }

    /// Two runs give the same results; each line starts with the start's
    /// own and replays in the engine to the start's score plus the lines
    /// reported.
    #[test]
    fn measuring_is_deterministic_and_its_lines_replay() {
        let suite = two_starts();
        let mut calls = Vec::new();
        let first =
            measure(&suite, &Baseline, 20, 10, Chains { depth: 1, ..Chains::default() }, 0, &mut |done, total| {
                calls.push((done, total))
            });
        assert_eq!(calls, [(1, 2), (2, 2)]);
        let again = measure(&suite, &Baseline, 20, 10, Chains { depth: 1, ..Chains::default() }, 0, &mut |_, _| {});
        assert_eq!(first, again);
        for (start, r) in suite.starts.iter().zip(&first) {
            assert!(r.pieces_survived <= 10);
            assert_eq!(&r.line[..start.moves.len()], &start.moves[..]);
            assert!(r.line.len() <= start.moves.len() + r.pieces_survived as usize);
            let keys = keys_for_line(RULES, ENEMY, &r.line).unwrap();
            let out = hatetris_game::play(RULES, ENEMY, &keys, |_, _| {});
            assert_eq!(out.score, start.score + r.lines_added);
            assert_eq!(r.value, Baseline.evaluate(start.well.playable(RULES)));
        }
        let s = summarize(&first);
        let pieces: u32 = first.iter().map(|r| r.pieces_survived).sum();
        let lines: u32 = first.iter().map(|r| r.lines_added).sum();
        assert_eq!(s.mean_pieces, pieces as f64 / 2.0);
        assert_eq!(s.lines_per_piece, lines as f64 / pieces as f64);
    }

    /// The freezing rate is `frozen`'s over the well after each lock from
    /// the start's own well on; a line too short to measure has none.
    #[test]
    fn the_freezing_rate_is_measured_from_the_start_on() {
        let suite = two_starts();
        let short = measure(&suite, &Baseline, 20, 10, Chains::default(), 0, &mut |_, _| {});
        assert!(short.iter().all(|r| r.frozen_per_100.is_none()));
        assert!(summarize(&short).mean_frozen_per_100.is_nan() && summarize(&short).frozen_starts == 0);
        let long = measure(&suite, &Baseline, 200, 80, Chains::default(), 0, &mut |_, _| {});
        let (start, r) = (&suite.starts[0], &long[0]);
        assert!(r.pieces_survived as usize >= HOLD + 2, "{}", r.pieces_survived);
        let keys = keys_for_line(RULES, ENEMY, &r.line).unwrap();
        let mut wells = Vec::new();
        hatetris_game::play(RULES, ENEMY, &keys, |g, _| wells.push(*g.well()));
        assert_eq!(wells[start.piece as usize - 1], start.well);
        assert_eq!(r.frozen_per_100, freezing_rate(&wells[start.piece as usize - 1..], HOLD));
        assert!(r.frozen_per_100.is_some());
    }

    /// A beam that dies counts the pieces it placed before dying: at width
    /// 1 from a high stack the game ends within the pieces asked for.
    #[test]
    fn a_dead_beam_counts_the_pieces_it_placed() {
        let suite = two_starts();
        let r = &measure(&suite, &Baseline, 1, 200, Chains::default(), 0, &mut |_, _| {})[1];
        assert!(r.pieces_survived < 200, "{}", r.pieces_survived);
        assert_eq!(r.line.len(), suite.starts[1].moves.len() + r.pieces_survived as usize);
    }
}
