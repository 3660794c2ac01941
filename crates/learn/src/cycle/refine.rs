//! Refine: a small lookahead beam from each sampled well.
//!
//! Kinds of target (docs/experiments.md has what each did to strength;
//! only `lookahead` has helped so far):
//! - `lookahead` (knewjade's): the best network value 10 pieces on, -1 if
//!   the lookahead dies; moved part of the way from the well's own value,
//!   then all targets scaled to [-1, 1]. Its information is mostly the
//!   network's own opinion, which is why cycles of it wander.
//! - `survival`: an outcome. A narrow beam plays on from the well until it
//!   dies or `depth` pieces pass. The value is a discounted survival,
//!   `1 - 2 gamma^T` for a well the beam survives T pieces from (so -1 is
//!   dead now, 1 is never dying); a beam still alive after `depth` pieces
//!   bootstraps from the best network value v there,
//!   `1 - gamma^depth (1 - v)`, the same quantity read from the network
//!   once the rollout has run out. Targets are already on the value's
//!   scale, so none is rescaled.
//! - `relative`: knewjade's lookahead, applied within each family (the
//!   children of one sampled beam entry, the wells a search chooses
//!   among). Each child's value moves so that its difference from the
//!   family's mean value moves toward its lookahead's difference from the
//!   family's mean lookahead; the family's mean stays where the network
//!   puts it. The network orders wells across depths and games much as its
//!   lookahead does (Spearman 0.95 on a width-1,000 game) but its own
//!   choices only half as well (0.49 within families); absolute targets
//!   spend the fit on the first.
//! - `family`: as `relative`, but one lookahead beam compares a family's
//!   children: it starts from all of them at once, and a child's lookahead
//!   value is the best value at the last depth among the entries that
//!   descend from it, or the beam's lowest value there if none does (it
//!   fell below the cut); -1 for all if the beam dies. The children
//!   compete for the beam's width as a search's do, and a family costs one
//!   lookahead instead of one per child (about twenty times less).
//! - `joint`: knewjade's target, each child's lookahead value read from
//!   `family`'s one beam per family instead of a beam of its own.

use hatetris_eval::Evaluator;
use hatetris_game::{Enemy, Rules, Well};
use hatetris_search::{run, BeamState, Blend, ChainRule, SearchConfig};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// What a refined value is moved toward.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum TargetKind {
    /// The best network value `depth` pieces on (-1 if none survives).
    #[default]
    Lookahead,
    /// Discounted pieces survived by the lookahead beam (see the module).
    Survival,
    /// The lookahead, within each family of children (see the module).
    Relative,
    /// One lookahead per family of children (see the module).
    Family,
    /// `lookahead`'s target (absolute, scaled) from `family`'s lookaheads.
    Joint,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RefineConfig {
    /// Width of the lookahead beam.
    pub width: usize,
    /// Pieces looked ahead.
    pub depth: usize,
    /// Share of the way from x toward the lookahead's value.
    pub step: f32,
    #[serde(default)]
    pub target: TargetKind,
    /// Discount per piece of the survival target.
    #[serde(default = "default_gamma")]
    pub gamma: f32,
    /// Refine only every `every`-th sampled well (1: all of them). A
    /// lookahead costs about its width, so a run can refine fewer wells
    /// more widely for the same time (the record engine's lookahead is
    /// 512 wide).
    #[serde(default = "default_every")]
    pub every: usize,
    /// Depth of the lookahead beam's clear chains (0: none, as knewjade
    /// and the record engine refine). Above 0 the lookahead ranks and
    /// values its wells as a chained master search does, so that the
    /// targets say what that search will find rather than what a plain
    /// one would.
    #[serde(default)]
    pub quiescence: u32,
    /// The lookahead's chain rule (with `quiescence` above 0).
    #[serde(default)]
    pub chain_rule: ChainRule,
    /// The lookahead's chain blend (with `quiescence` above 0).
    #[serde(default)]
    pub chain_blend: Blend,
    /// The lookahead's chain follow (with `quiescence` above 0; stored
    /// only when not 0).
    #[serde(default, skip_serializing_if = "crate::cycle::config::is_zero")]
    pub chain_follow: u32,
}

fn default_gamma() -> f32 {
    0.98
}

fn default_every() -> usize {
    1
}

impl Default for RefineConfig {
    fn default() -> Self {
        RefineConfig {
            width: 200,
            depth: 10,
            step: 0.5,
            target: TargetKind::Lookahead,
            gamma: default_gamma(),
            every: default_every(),
            quiescence: 0,
            chain_rule: ChainRule::default(),
            chain_blend: Blend::default(),
            chain_follow: 0,
        }
    }
}

impl RefineConfig {
    /// The lookahead beam's settings: the real enemy with no memory but the
    /// lookahead's own, every candidate chained as `quiescence`,
    /// `chain_rule` and `chain_blend` say (none by default: knewjade's
    /// refine).
    pub fn search(&self, rules: Rules, seed: u64) -> SearchConfig {
        SearchConfig {
            width: self.width,
            rules,
            enemy: Enemy::Hatetris,
            quiescence: self.quiescence,
            chain_rule: self.chain_rule,
            chain_band: 0,
            chain_blend: self.chain_blend,
            chain_follow: self.chain_follow,
            seed,
            twins: 1,
            max_depth: self.depth,
        }
    }
}

/// The lookahead beam from `well`: the pieces it survived (`depth` if it
/// is still alive) and the best value at its last depth (chained if its search chains).
fn lookahead_run(
    well: &Well,
    rules: Rules,
    config: &RefineConfig,
    eval: &dyn Evaluator,
    seed: u64,
) -> (usize, Option<f32>) {
    let mut state = BeamState::from_well(*well);
    run(&mut state, &config.search(rules, seed), eval, &mut |_| true);
    let best = state.beam.iter().map(|e| e.value).reduce(f32::max);
    (state.pieces_survived(), best)
}

/// One lookahead beam from all of `children` (distinct wells): for each,
/// the best value (chained if the search chains) at the last depth among the entries that
/// descend from it, or the lowest value there if none does; all -1 if the
/// beam dies before the last depth.
fn family_lookahead(
    children: &[Well],
    rules: Rules,
    config: &RefineConfig,
    eval: &dyn Evaluator,
    seed: u64,
) -> Vec<f32> {
    let mut state = BeamState::from_wells(children);
    run(&mut state, &config.search(rules, seed), eval, &mut |_| true);
    if state.pieces_survived() < config.depth {
        return vec![-1.0; children.len()];
    }
    let mut best: FxHashMap<u64, f32> = FxHashMap::default();
    for e in &state.beam {
        let v = best.entry(state.first_well_of(e)).or_insert(f32::NEG_INFINITY);
        *v = v.max(e.value);
    }
    let cut = state.beam.iter().map(|e| e.value).fold(f32::INFINITY, f32::min);
    children.iter().map(|w| best.get(&w.hash64()).copied().unwrap_or(cut)).collect()
}

/// The best value (chained if the search chains) at the lookahead's last depth, or -1 if no
/// line survives that long.
fn lookahead(well: &Well, rules: Rules, config: &RefineConfig, eval: &dyn Evaluator, seed: u64) -> f32 {
    match lookahead_run(well, rules, config, eval, seed) {
        (d, Some(v)) if d >= config.depth => v,
        _ => -1.0,
    }
}

/// The survival target of `well` (see the module comment).
fn survival(well: &Well, rules: Rules, config: &RefineConfig, eval: &dyn Evaluator, seed: u64) -> f32 {
    let (survived, end_value) = lookahead_run(well, rules, config, eval, seed);
    survival_value(survived, end_value, config.gamma)
}

/// `1 - 2 gamma^T` for a beam that died after T pieces; for one alive at
/// the end (T pieces), `1 - gamma^T (1 - v)` with v its best value there.
pub fn survival_value(survived: usize, end_value: Option<f32>, gamma: f32) -> f32 {
    let g = gamma.powi(survived as i32);
    match end_value {
        None => 1.0 - 2.0 * g,
        Some(v) => 1.0 - g * (1.0 - v.clamp(-1.0, 1.0)),
    }
}

/// Wells refined between two progress reports: enough to keep both cores
/// busy, few enough that a report comes every few seconds.
const REPORT_EVERY: usize = 256;

/// For each well: x = its network value, y = the lookahead's, t = x + step
/// (y - x); lookahead targets are then scaled so their minimum and maximum
/// become -1 and 1 (survival targets are on the value's scale already).
/// `relative` targets need `families` (one number per well, the same for
/// the children of one entry, which are consecutive) and are `relative`'s
/// (module comment), clamped to [-1, 1].
/// Parallel over wells; `progress(done)` is called from the calling thread
/// after each block of wells, so it needs no locking.
///
/// It is [`targets_from_pairs`] of [`lookahead_pairs`]; the pairs of the
/// [`blocks`] of the wells, each found on its own (elsewhere), are the
/// pairs of the whole.
pub fn refine_targets(
    wells: &[Well],
    families: Option<&[u32]>,
    rules: Rules,
    config: &RefineConfig,
    eval: &dyn Evaluator,
    seed: u64,
    progress: &mut dyn FnMut(usize),
) -> Vec<f32> {
    let pairs = lookahead_pairs(wells, families, rules, config, eval, seed, progress);
    targets_from_pairs(pairs, families, config)
}

/// The (value, lookahead) pair of each well, before any step or scaling:
/// [`refine_pairs`] for the targets of one well, one lookahead beam per
/// family for `family` and `joint`. Nothing depends on a well's place but
/// its family (the seed is the same for every well), so the pairs of wells
/// `a..b`, refined alone, are those of the whole at `a..b` when `a` and
/// `b` are family boundaries (as [`blocks`] ends them).
pub fn lookahead_pairs(
    wells: &[Well],
    families: Option<&[u32]>,
    rules: Rules,
    config: &RefineConfig,
    eval: &dyn Evaluator,
    seed: u64,
    progress: &mut dyn FnMut(usize),
) -> Vec<(f32, f32)> {
    match config.target {
        TargetKind::Family | TargetKind::Joint => {
            let families = families.expect("family and joint targets need the wells' families");
            assert_eq!(families.len(), wells.len(), "one family number per well");
            family_pairs(wells, families, rules, config, eval, seed, progress)
        }
        _ => refine_pairs(wells, rules, config, eval, seed, progress),
    }
}

/// The targets of all the wells from all their pairs (in the wells'
/// order): each moved `step` of the way, then scaled over all of them
/// (`lookahead`, `joint`) or compared within families (`relative`,
/// `family`).
pub fn targets_from_pairs(pairs: Vec<(f32, f32)>, families: Option<&[u32]>, config: &RefineConfig) -> Vec<f32> {
    let moved = |(x, y): (f32, f32)| x + config.step * (y - x);
    match config.target {
        TargetKind::Lookahead | TargetKind::Joint => scale_to_unit(pairs.into_iter().map(moved).collect()),
        TargetKind::Survival => pairs.into_iter().map(moved).collect(),
        TargetKind::Relative | TargetKind::Family => {
            let families = families.expect("relative and family targets need the wells' families");
            assert_eq!(families.len(), pairs.len(), "one family number per well");
            within_families(&pairs, families, config.step)
        }
    }
}

/// `parts` contiguous blocks of `n` wells, in order, covering them all, of
/// about `n / parts` wells each; with `families`, each block ends where a
/// family does (a run of equal numbers is never cut), so a block may be
/// empty when a family is longer than a share.
pub fn blocks(n: usize, families: Option<&[u32]>, parts: usize) -> Vec<std::ops::Range<usize>> {
    assert!(parts > 0, "at least one block");
    if let Some(f) = families {
        assert_eq!(f.len(), n, "one family number per well");
    }
    let boundary = |i: usize| i == 0 || i >= n || families.is_none_or(|f| f[i] != f[i - 1]);
    let mut out = Vec::with_capacity(parts);
    let mut start = 0;
    for p in 1..=parts {
        let mut end = (n * p / parts).max(start);
        while !boundary(end) {
            end += 1;
        }
        let end = end.min(n);
        out.push(start..end);
        start = end;
    }
    out
}

/// (x, y) of each well, its value and its lookahead's (`lookahead` and
/// `relative`: the best value `depth` pieces on; `survival`: the survival
/// value), before any step or scaling. Parallel, with `refine_targets`'s
/// progress.
pub fn refine_pairs(
    wells: &[Well],
    rules: Rules,
    config: &RefineConfig,
    eval: &dyn Evaluator,
    seed: u64,
    progress: &mut dyn FnMut(usize),
) -> Vec<(f32, f32)> {
    let mut pairs = Vec::with_capacity(wells.len());
    for block in wells.chunks(REPORT_EVERY) {
        pairs.par_extend(block.par_iter().map(|w| {
            let x = eval.evaluate(w.playable(rules));
            let y = match config.target {
                TargetKind::Lookahead | TargetKind::Relative => lookahead(w, rules, config, eval, seed),
                TargetKind::Survival => survival(w, rules, config, eval, seed),
                TargetKind::Family | TargetKind::Joint => panic!("family targets need the wells' families"),
            };
            (x, y)
        }));
        progress(pairs.len());
    }
    pairs
}

/// (value, lookahead) of each well, with one `family_lookahead` per run of
/// equal family numbers (in parallel over families).
fn family_pairs(
    wells: &[Well],
    families: &[u32],
    rules: Rules,
    config: &RefineConfig,
    eval: &dyn Evaluator,
    seed: u64,
    progress: &mut dyn FnMut(usize),
) -> Vec<(f32, f32)> {
    let mut runs = Vec::new();
    let mut start = 0;
    while start < wells.len() {
        let end = start + families[start..].iter().take_while(|&&f| f == families[start]).count();
        runs.push(start..end);
        start = end;
    }
    let mut pairs: Vec<(f32, f32)> = Vec::with_capacity(wells.len());
    // Blocks of families, so that progress comes every few seconds.
    for block in runs.chunks(REPORT_EVERY / 16) {
        let done: Vec<Vec<(f32, f32)>> = block
            .par_iter()
            .map(|r| {
                let children = &wells[r.clone()];
                let ys = family_lookahead(children, rules, config, eval, seed);
                children.iter().zip(ys).map(|(w, y)| (eval.evaluate(w.playable(rules)), y)).collect()
            })
            .collect();
        pairs.extend(done.into_iter().flatten());
        progress(pairs.len());
    }
    pairs
}

/// `relative`'s targets from (value, lookahead) pairs: within each run of
/// equal family numbers, t = x + step ((y - mean y) - (x - mean x)),
/// clamped to [-1, 1]. A family of one keeps its value.
pub fn within_families(pairs: &[(f32, f32)], families: &[u32], step: f32) -> Vec<f32> {
    let mut out = Vec::with_capacity(pairs.len());
    let mut start = 0;
    while start < pairs.len() {
        let end = start + families[start..].iter().take_while(|&&f| f == families[start]).count();
        let family = &pairs[start..end];
        let n = family.len() as f32;
        let mean_x = family.iter().map(|p| p.0).sum::<f32>() / n;
        let mean_y = family.iter().map(|p| p.1).sum::<f32>() / n;
        out.extend(family.iter().map(|&(x, y)| (x + step * ((y - mean_y) - (x - mean_x))).clamp(-1.0, 1.0)));
        start = end;
    }
    out
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
    fn relative_targets_move_differences_within_a_family_and_keep_its_mean() {
        // Family 1: values 0.2, 0.4 with lookaheads -0.5, 0.5; family 2 alone.
        let pairs = [(0.2, -0.5), (0.4, 0.5), (0.7, -1.0)];
        let t = within_families(&pairs, &[1, 1, 2], 0.5);
        // Mean value 0.3; value differences -0.1, 0.1; lookahead's -0.5, 0.5.
        assert!((t[0] - (0.2 + 0.5 * (-0.5 + 0.1))).abs() < 1e-6, "{t:?}");
        assert!((t[1] - (0.4 + 0.5 * (0.5 - 0.1))).abs() < 1e-6, "{t:?}");
        assert!(((t[0] + t[1]) / 2.0 - 0.3).abs() < 1e-6, "the family's mean stays");
        assert_eq!(t[2], 0.7, "a family of one keeps its value");
        // Step 1 gives the lookahead's differences around the value's mean,
        // clamped to the value's range.
        let t = within_families(&[(0.9, -1.0), (0.9, 1.0)], &[4, 4], 1.0);
        assert!((t[0] + 0.1).abs() < 1e-6 && t[1] == 1.0, "{t:?}");
    }

    /// A well stacked to just below the bar with no line to clear: every
    /// line dies within a few pieces.
    fn dead_end() -> Well {
        let mut w = Well::EMPTY;
        for r in 4..20 {
            w.rows[r] = 0b0111111110 ^ (1 << (r % 8 + 1));
        }
        w
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

    /// Lower is better: stack height, then cells, so a beam's values spread.
    struct Lowness;
    impl Evaluator for Lowness {
        fn evaluate(&self, rows: &[u16]) -> f32 {
            let height = rows.iter().filter(|&&r| r != 0).count() as f32;
            -(height / 40.0 + rows.iter().map(|r| r.count_ones()).sum::<u32>() as f32 / 800.0)
        }
        fn name(&self) -> String {
            "lowness".into()
        }
    }

    #[test]
    fn a_family_lookahead_compares_the_children_in_one_beam() {
        let rules = Rules::STANDARD;
        let dead = dead_end();
        let config = RefineConfig { width: 10, depth: 10, target: TargetKind::Family, ..RefineConfig::default() };
        let ys = family_lookahead(&[Well::EMPTY, dead], rules, &config, &Lowness, 0);
        assert!(ys[0] > ys[1] && ys[1] > -1.0, "the dead end gets the cut's value: {ys:?}");
        assert_eq!(family_lookahead(&[dead], rules, &config, &Lowness, 0), vec![-1.0], "a beam that dies");
        // As targets: each family keeps its mean value, and the difference
        // moves half way toward the lookahead's (here smaller: the dead end
        // is worth the cut, not much below the best line).
        let wells = [Well::EMPTY, dead, dead];
        let t = refine_targets(&wells, Some(&[1, 1, 2]), rules, &config, &Lowness, 0, &mut |_| {});
        let x: Vec<f32> = wells.iter().map(|w| Lowness.evaluate(w.playable(rules))).collect();
        let dy = ys[0] - ys[1];
        assert!(((t[0] + t[1]) - (x[0] + x[1])).abs() < 1e-6, "{t:?} {x:?}");
        assert!(((t[0] - t[1]) - (x[0] - x[1] + 0.5 * (dy - (x[0] - x[1])))).abs() < 1e-6, "{t:?} {x:?}");
        assert_eq!(t[2], x[2], "a family of one keeps its value");
        // Joint: knewjade's target from the same lookaheads, scaled.
        let joint = RefineConfig { target: TargetKind::Joint, ..config };
        let t = refine_targets(&wells, Some(&[1, 1, 2]), rules, &joint, &Lowness, 0, &mut |_| {});
        let y2 = family_lookahead(&wells[2..], rules, &joint, &Lowness, 0)[0];
        let raw: Vec<f32> = [ys[0], ys[1], y2].iter().zip(&x).map(|(y, x)| x + 0.5 * (y - x)).collect();
        assert_eq!(t, scale_to_unit(raw));
    }

    #[test]
    fn a_dead_end_well_looks_ahead_to_minus_one() {
        let rules = Rules::STANDARD;
        let w = dead_end();
        let config = RefineConfig { width: 10, depth: 10, ..RefineConfig::default() };
        assert_eq!(lookahead(&w, rules, &config, &Zero, 0), -1.0);
        assert_eq!(lookahead(&Well::EMPTY, rules, &config, &Zero, 0), 0.0);
        // Survival: the dead end scores below -1 + 2 (1 - gamma^10), the
        // empty well survives the 10 pieces and bootstraps from value 0.
        let config = RefineConfig { target: TargetKind::Survival, ..config };
        let dead = survival(&w, rules, &config, &Zero, 0);
        assert!(dead < 1.0 - 2.0 * config.gamma.powi(10), "{dead}");
        let alive = survival(&Well::EMPTY, rules, &config, &Zero, 0);
        assert!((alive - (1.0 - config.gamma.powi(10))).abs() < 1e-6, "{alive}");
    }

    #[test]
    fn blocks_cover_the_wells_in_order_and_end_on_family_boundaries() {
        let families: Vec<u32> = [1, 1, 1, 2, 3, 3, 3, 3, 3, 4, 4, 5].to_vec();
        for parts in 1..=14 {
            let bs = blocks(families.len(), Some(&families), parts);
            assert_eq!(bs.len(), parts);
            assert_eq!(bs.iter().map(|b| b.len()).sum::<usize>(), families.len());
            for w in bs.windows(2) {
                assert_eq!(w[0].end, w[1].start);
            }
            for b in &bs {
                let cut = b.end;
                assert!(cut == 0 || cut == families.len() || families[cut] != families[cut - 1], "{bs:?}");
            }
        }
        assert_eq!(blocks(12, None, 3), [0..4, 4..8, 8..12]);
        assert_eq!(blocks(12, Some(&families), 3), [0..4, 4..9, 9..12]);
        assert_eq!(blocks(2, None, 3), [0..0, 0..1, 1..2]);
        assert_eq!(blocks(0, None, 2), [0..0, 0..0]);
    }

    /// Distinct wells of a short search, in families of 1 to 4.
    fn wells_and_families() -> (Vec<Well>, Vec<u32>) {
        let mut state = BeamState::new();
        let config = SearchConfig { width: 30, max_depth: 4, ..SearchConfig::default() };
        run(&mut state, &config, &Lowness, &mut |_| true);
        let wells: Vec<Well> = state.beam.iter().map(|e| e.well).collect();
        let mut families = Vec::new();
        let mut f = 0u32;
        while families.len() < wells.len() {
            f += 1;
            families.extend(std::iter::repeat_n(f, 1 + f as usize % 4));
        }
        families.truncate(wells.len());
        (wells, families)
    }

    #[test]
    fn the_pairs_of_blocks_refined_alone_give_the_targets_of_the_whole() {
        let rules = Rules::STANDARD;
        let (wells, families) = wells_and_families();
        assert!(wells.len() >= 20);
        for target in
            [TargetKind::Lookahead, TargetKind::Survival, TargetKind::Relative, TargetKind::Family, TargetKind::Joint]
        {
            let config = RefineConfig { width: 6, depth: 4, target, ..RefineConfig::default() };
            let whole = refine_targets(&wells, Some(&families), rules, &config, &Lowness, 7, &mut |_| {});
            for parts in [2, 3, 7] {
                let mut pairs = Vec::new();
                for b in blocks(wells.len(), Some(&families), parts) {
                    let part = lookahead_pairs(
                        &wells[b.clone()],
                        Some(&families[b]),
                        rules,
                        &config,
                        &Lowness,
                        7,
                        &mut |_| {},
                    );
                    pairs.extend(part);
                }
                let t = targets_from_pairs(pairs, Some(&families), &config);
                assert_eq!(
                    t.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    whole.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    "{target:?} in {parts} blocks"
                );
            }
        }
    }

    #[test]
    fn a_chained_lookahead_values_its_beam_as_a_chained_search_does() {
        let rules = Rules::STANDARD;
        // Low, flat stacks a dozen pieces in: rows near full, S clears.
        let mut state = BeamState::new();
        run(&mut state, &SearchConfig { width: 30, max_depth: 12, ..SearchConfig::default() }, &Lowness, &mut |_| true);
        let wells: Vec<Well> = state.beam.iter().map(|e| e.well).collect();
        let plain = RefineConfig { width: 6, depth: 4, ..RefineConfig::default() };
        let blend = Blend::from_thousandths(500).expect("in range");
        let chained =
            RefineConfig { quiescence: 4, chain_rule: ChainRule::Record, chain_blend: blend, ..plain.clone() };
        let search = chained.search(rules, 7);
        assert_eq!(
            (search.quiescence, search.chain_rule, search.chain_band, search.chain_blend),
            (4, ChainRule::Record, 0, blend)
        );
        let mut differ = 0;
        for w in &wells {
            let mut s = BeamState::from_well(*w);
            run(&mut s, &search, &Lowness, &mut |_| true);
            let best = s.beam.iter().map(|e| e.value).reduce(f32::max);
            let direct = best.filter(|_| s.pieces_survived() >= 4).unwrap_or(-1.0);
            assert_eq!(lookahead(w, rules, &chained, &Lowness, 7).to_bits(), direct.to_bits());
            differ += (lookahead(w, rules, &plain, &Lowness, 7) != direct) as usize;
        }
        assert!(differ > 0, "the chains changed none of {} lookaheads", wells.len());
        // A config stored before the lookahead could chain reads as plain.
        let mut json = serde_json::to_value(&plain).expect("serialisable");
        for k in ["quiescence", "chain_rule", "chain_blend"] {
            json.as_object_mut().expect("an object").remove(k);
        }
        assert_eq!(serde_json::from_value::<RefineConfig>(json).expect("old form"), plain);
    }

    #[test]
    fn survival_values_grow_with_the_pieces_survived_and_bootstrap_at_the_end() {
        let g = 0.9f32;
        assert_eq!(survival_value(0, None, g), -1.0);
        assert!((survival_value(1, None, g) - (1.0 - 1.8)).abs() < 1e-6);
        assert!(survival_value(5, None, g) < survival_value(6, None, g));
        // Alive at the end with the best value v: as if T were extended by
        // what v says, so v = -1 equals dying right there and v = 1 is 1.
        assert!((survival_value(5, Some(-1.0), g) - survival_value(5, None, g)).abs() < 1e-6);
        assert_eq!(survival_value(5, Some(1.0), g), 1.0);
    }
}
