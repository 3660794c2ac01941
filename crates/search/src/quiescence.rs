//! Quiescence: the one hand-made idea of the method, now a setting (off by
//! default, see `DEFAULT_CHAIN`). A well from which the enemy's S or Z could
//! clear lines is worth at least the best well at the end of such a chain of
//! clears, since clearing is what the enemy offers last and the network sees
//! only the well in front of it.

use hatetris_eval::Evaluator;
use hatetris_game::{for_each_completing_sz_lock, sz_completable_rows, Rules, Well};
#[cfg(test)]
use hatetris_game::{for_each_lock_position, Piece};
use rustc_hash::FxHashSet;

/// How many clears deep a chain is followed by default: none. The chains
/// made a search 2.2 times slower and, with the networks learned here,
/// weaker on the suites: at width 1,000 over 283 starts, without them ens-a
/// survives +2.3 [+0.6, +4.0] pieces longer and ens-b +3.7 [+1.8, +5.5]
/// (`docs/experiments.md`, "Search settings"). Depth 1 (the immediate
/// clears; 49 µs an entry on a width-200 baseline search, 111 at 2, 175 at
/// 4) stays a setting.
pub const DEFAULT_CHAIN: u32 = 0;

/// The value of `well`: its own, or with `chain > 0` the best along the
/// chains of line clears (at most `chain` long) that S or Z can give from it.
pub fn quiescent_value(eval: &dyn Evaluator, rules: Rules, well: &Well, chain: u32) -> f32 {
    let mut value = [0.0];
    quiescent_values(eval, rules, std::slice::from_ref(well), chain, &mut value);
    value[0]
}

/// `quiescent_value` of each of `wells` into `values`. Batched because a
/// beam entry values all its children at once: four wells share one sweep
/// for their S and Z clears, and the evaluator gets the wells in batches.
///
/// Wells prepared for clearing offer many clearing placements, and different
/// orders of clears reach the same wells, so a plain recursion is
/// exponential (milliseconds per well on real games). Beyond the first
/// clear, each distinct well is expanded once, breadth-first, so the cost
/// is the number of distinct wells in the chains.
pub fn quiescent_values(eval: &dyn Evaluator, rules: Rules, wells: &[Well], chain: u32, values: &mut [f32]) {
    quiescent_children(eval, rules, None, wells, chain, values)
}

/// `quiescent_values` of `wells`, the children of `parent` (each one
/// placement from it): the evaluator gets the family in one
/// `evaluate_family`, so that it may derive each child's evaluation from
/// the parent's and each clear's from its child's.
pub fn quiescent_children(
    eval: &dyn Evaluator,
    rules: Rules,
    parent: Option<&Well>,
    wells: &[Well],
    chain: u32,
    values: &mut [f32],
) {
    debug_assert_eq!(wells.len(), values.len());
    let parent = parent.map(|p| p.playable(rules));
    let rows: Vec<&[u16]> = wells.iter().map(|w| w.playable(rules)).collect();
    if chain == 0 {
        eval.evaluate_family(parent, &rows, &[], &[], values, &mut []);
        return;
    }
    // The wells one clear reaches, with the well each came from, valued in
    // one batch.
    let mut swept = Vec::with_capacity(wells.len());
    let mut owners = Vec::with_capacity(wells.len());
    for (i, well) in wells.iter().enumerate() {
        if sz_might_clear(well, rules) {
            swept.push(*well);
            owners.push(i);
        }
    }
    // Wells ready to clear offer a dozen clears or more.
    let mut cleared: Vec<(usize, Well)> = Vec::with_capacity(16 * swept.len());
    for_each_clear(&swept, rules, |k, next| cleared.push((owners[k], next)));
    let cleared_rows: Vec<&[u16]> = cleared.iter().map(|(_, w)| w.playable(rules)).collect();
    let from: Vec<u32> = cleared.iter().map(|&(owner, _)| owner as u32).collect();
    let mut cleared_values = vec![0.0; cleared.len()];
    eval.evaluate_family(parent, &rows, &cleared_rows, &from, values, &mut cleared_values);
    for (&(owner, _), &value) in cleared.iter().zip(&cleared_values) {
        values[owner] = values[owner].max(value);
    }
    if chain > 1 {
        cleared.sort_by_key(|&(owner, _)| owner);
        for group in cleared.chunk_by(|a, b| a.0 == b.0) {
            let layer = group.iter().map(|&(_, w)| w).collect();
            let value = &mut values[group[0].0];
            *value = value.max(best_deeper(eval, rules, layer, chain - 1));
        }
    }
}

/// The best value along the chains (at most `chain` more clears) that
/// continue from `layer`, the wells one clear reached; the wells of
/// `layer` themselves are already valued.
fn best_deeper(eval: &dyn Evaluator, rules: Rules, mut layer: Vec<Well>, chain: u32) -> f32 {
    let mut best = f32::NEG_INFINITY;
    let mut seen: FxHashSet<Well> = layer.iter().copied().collect();
    for depth in 1..=chain {
        let last = depth == chain;
        let froms: Vec<Well> = layer.into_iter().filter(|w| sz_might_clear(w, rules)).collect();
        let mut next_layer = Vec::new();
        for_each_clear(&froms, rules, |_, next| {
            // Nothing is expanded from the last layer, and the best of a
            // well counted twice is the same: no set needed there.
            if last || seen.insert(next) {
                best = best.max(eval.evaluate(next.playable(rules)));
                if !last {
                    next_layer.push(next);
                }
            }
        });
        if next_layer.is_empty() {
            break;
        }
        layer = next_layer;
    }
    best
}

/// Calls `reached(k, next)` for each well `next` that an S or Z clearing
/// lines in `wells[k]` leaves, once per set of cells placed, unless the
/// game ends.
fn for_each_clear(wells: &[Well], rules: Rules, mut reached: impl FnMut(usize, Well)) {
    for_each_completing_sz_lock(wells, rules, |k, piece, x, y, o| {
        let mut next = wells[k];
        if next.lock(piece.shape(o), x, y) > 0 && !next.is_game_over() {
            reached(k, next);
        }
    });
}

/// Can some S or Z placement possibly complete a row? Exact as a
/// necessary condition (see `sz_completable_rows`), and a few bit
/// operations against the sweep it saves.
#[inline]
fn sz_might_clear(well: &Well, rules: Rules) -> bool {
    sz_completable_rows(well, rules) != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use hatetris_game::Well;

    /// The plain definition: recursion over every clearing S/Z placement.
    fn naive(eval: &dyn Evaluator, rules: Rules, well: &Well, chain: u32) -> f32 {
        let mut best = eval.evaluate(well.playable(rules));
        if chain == 0 {
            return best;
        }
        for piece in [Piece::S, Piece::Z] {
            for_each_lock_position(well, rules, piece, |x, y, o| {
                let mut next = *well;
                if next.lock(piece.shape(o), x, y) > 0 && !next.is_game_over() {
                    best = best.max(naive(eval, rules, &next, chain - 1));
                }
            });
        }
        best
    }

    struct Lowness;
    impl Evaluator for Lowness {
        fn evaluate(&self, rows: &[u16]) -> f32 {
            -(rows.iter().enumerate().map(|(i, r)| r.count_ones() * (rows.len() - i) as u32).sum::<u32>() as f32)
        }
        fn name(&self) -> String {
            "lowness".into()
        }
    }

    #[test]
    fn breadth_first_chains_agree_with_the_plain_recursion() {
        let rules = Rules::STANDARD;
        let wells = chain_wells(300);
        let mut chains = 0;
        for w in &wells {
            for chain in 0..=3 {
                let fast = quiescent_value(&Lowness, rules, w, chain);
                assert_eq!(fast, naive(&Lowness, rules, w, chain), "{w:?} chain {chain}");
                chains += (fast > Lowness.evaluate(w.playable(rules))) as u32;
            }
        }
        assert!(chains > 50, "the wells must exercise real chains ({chains})");
    }

    /// Wells valued together (four to a sweep, with wells that cannot
    /// clear in between) get the values they get one by one.
    #[test]
    fn batched_values_are_the_single_ones() {
        let rules = Rules::STANDARD;
        let mut wells = chain_wells(60);
        // Wells where nothing can clear, among the others.
        for i in (0..wells.len()).step_by(5) {
            wells[i] = Well::EMPTY;
        }
        for chain in 0..=2 {
            for len in [1, 3, 4, 5, 9, 60] {
                let group = &wells[..len];
                let mut values = vec![0.0; len];
                quiescent_values(&Lowness, rules, group, chain, &mut values);
                let single: Vec<f32> = group.iter().map(|w| naive(&Lowness, rules, w, chain)).collect();
                assert_eq!(values, single, "chain {chain}, {len} wells");
            }
        }
    }

    /// A beam entry's family (a well's landings, valued with the parent
    /// known) gets the values of the plain recursion, with the network
    /// as search runs it and with its incremental path: bit for bit.
    #[test]
    fn children_valued_with_their_parent_are_the_plain_values() {
        let rules = Rules::STANDARD;
        let net = hatetris_eval::Network::embedded_default();
        let default = hatetris_eval::QuantizedNetwork::new(&net);
        let incremental = default.clone().with_incremental(true);
        let evals: [&dyn Evaluator; 3] = [&Lowness, &default, &incremental];
        let mut clears = 0;
        for parent in chain_wells(40) {
            let mut children = Vec::new();
            for piece in [Piece::I, Piece::T, Piece::S, Piece::L] {
                for_each_lock_position(&parent, rules, piece, |x, y, o| {
                    let mut next = parent;
                    next.lock(piece.shape(o), x, y);
                    if !next.is_game_over() {
                        children.push(next);
                    }
                });
            }
            for eval in evals {
                for chain in 0..=2 {
                    let mut values = vec![0.0; children.len()];
                    quiescent_children(eval, rules, Some(&parent), &children, chain, &mut values);
                    for (c, v) in children.iter().zip(&values) {
                        let plain = naive(eval, rules, c, chain);
                        assert_eq!(v.to_bits(), plain.to_bits(), "{c:?} chain {chain}");
                        clears += (*v > eval.evaluate(c.playable(rules))) as u32;
                    }
                }
            }
        }
        assert!(clears > 100, "the families must exercise clears ({clears})");
    }

    /// Wells of rows mostly one or two cells short of full: chains are common.
    fn chain_wells(n: usize) -> Vec<Well> {
        let mut rng = 0x1234_5678_9abc_def0u64;
        (0..n)
            .map(|_| {
                let mut w = Well::EMPTY;
                let stack = 4 + (rng % 8) as usize;
                for i in 0..stack {
                    rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let gap = (rng >> 33) % 9;
                    let row =
                        hatetris_game::FULL_ROW & !(0b11 << gap) & !(((rng >> 40) & 1) as u16) << ((rng >> 44) % 10);
                    w.rows[19 - i] = row;
                }
                w
            })
            .collect()
    }

    #[test]
    fn the_filter_never_hides_a_clear() {
        let rules = Rules::STANDARD;
        for gap_mask in 0..1024u16 {
            let mut w = Well::EMPTY;
            w.rows[19] = hatetris_game::FULL_ROW & !gap_mask;
            w.rows[18] = hatetris_game::FULL_ROW & !(gap_mask.rotate_left(3) & hatetris_game::FULL_ROW);
            let mut clears = false;
            for piece in [Piece::S, Piece::Z] {
                for_each_lock_position(&w, rules, piece, |x, y, o| clears |= w.clone().lock(piece.shape(o), x, y) > 0);
            }
            assert!(!clears || sz_might_clear(&w, rules), "{w:?}");
        }
    }
}
