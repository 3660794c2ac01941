//! Refine: a small lookahead beam from each sampled well.

use hatetris_eval::Evaluator;
use hatetris_game::{Enemy, Rules, Well};
use hatetris_search::{run, BeamState, SearchConfig};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RefineConfig {
    /// Width of the lookahead beam.
    pub width: usize,
    /// Pieces looked ahead.
    pub depth: usize,
    /// Share of the way from x toward the lookahead's value.
    pub step: f32,
}

impl Default for RefineConfig {
    fn default() -> Self {
        RefineConfig { width: 200, depth: 10, step: 0.5 }
    }
}

/// The best plain network value at the lookahead's last depth, or -1 if no
/// line survives that long.
fn lookahead(well: &Well, rules: Rules, config: &RefineConfig, eval: &dyn Evaluator, seed: u64) -> f32 {
    let search = SearchConfig {
        width: config.width,
        rules,
        enemy: Enemy::Hatetris,
        quiescence: 0,
        seed,
        twins: 1,
        max_depth: config.depth,
    };
    let mut state = BeamState::from_well(*well);
    run(&mut state, &search, eval, &mut |_| true);
    if state.depth < config.depth || state.beam.is_empty() {
        return -1.0;
    }
    state.beam.iter().map(|e| e.value).fold(f32::NEG_INFINITY, f32::max)
}

/// Wells refined between two progress reports: enough to keep both cores
/// busy, few enough that a report comes every few seconds.
const REPORT_EVERY: usize = 256;

/// For each well: x = its network value, y = the lookahead's, t = x + step
/// (y - x); then all targets scaled so their minimum and maximum become -1
/// and 1. Parallel over wells; `progress(done)` is called from the calling
/// thread after each block of wells, so it needs no locking.
pub fn refine_targets(
    wells: &[Well],
    rules: Rules,
    config: &RefineConfig,
    eval: &dyn Evaluator,
    seed: u64,
    progress: &mut dyn FnMut(usize),
) -> Vec<f32> {
    let mut raw = Vec::with_capacity(wells.len());
    for block in wells.chunks(REPORT_EVERY) {
        raw.par_extend(block.par_iter().map(|w| {
            let x = eval.evaluate(w.playable(rules));
            let y = lookahead(w, rules, config, eval, seed);
            x + config.step * (y - x)
        }));
        progress(raw.len());
    }
    scale_to_unit(raw)
}

/// Scales values linearly so that min -> -1 and max -> 1 (all 0 if equal).
pub fn scale_to_unit(mut v: Vec<f32>) -> Vec<f32> {
    let (lo, hi) = v.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &t| (lo.min(t), hi.max(t)));
    let span = hi - lo;
    for t in v.iter_mut() {
        *t = if span > 0.0 { 2.0 * (*t - lo) / span - 1.0 } else { 0.0 };
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaling_maps_the_extremes_to_minus_one_and_one() {
        let s = scale_to_unit(vec![-0.5, 0.0, 0.25]);
        assert_eq!(s[0], -1.0);
        assert_eq!(s[2], 1.0);
        assert!((s[1] - (2.0 * 0.5 / 0.75 - 1.0)).abs() < 1e-6);
        assert_eq!(scale_to_unit(vec![0.3, 0.3]), vec![0.0, 0.0]);
    }

    #[test]
    fn a_dead_end_well_looks_ahead_to_minus_one() {
        // A well stacked to just below the bar with no line to clear: every
        // line dies within a few pieces.
        let rules = Rules::STANDARD;
        let mut w = Well::EMPTY;
        for r in 4..20 {
            w.rows[r] = 0b0111111110 ^ (1 << (r % 8 + 1));
        }
        struct Zero;
        impl Evaluator for Zero {
            fn evaluate(&self, _: &[u16]) -> f32 {
                0.0
            }
            fn name(&self) -> String {
                "zero".into()
            }
        }
        let config = RefineConfig { width: 10, depth: 10, step: 0.5 };
        assert_eq!(lookahead(&w, rules, &config, &Zero, 0), -1.0);
        assert_eq!(lookahead(&Well::EMPTY, rules, &config, &Zero, 0), 0.0);
    }
}
