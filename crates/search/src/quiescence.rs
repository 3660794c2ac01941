//! Quiescence: the one hand-made idea the method keeps. A well from which
//! the enemy's S or Z could clear lines is worth at least the best well at
//! the end of such a chain of clears, since clearing is what the enemy
//! offers last and the network sees only the well in front of it.

use hatetris_eval::Evaluator;
#[cfg(test)]
use hatetris_game::for_each_lock_position;
use hatetris_game::piece::Shape;
use hatetris_game::{for_each_completing_lock, Piece, Rules, Well};
use rustc_hash::FxHashSet;

/// How many clears deep a chain is followed by default. Measured on a
/// width-200 baseline search: 49 µs per entry at depth 1, 111 at 2, 175 at 4
/// (wells ready to clear offer dozens of clearing placements per level), so
/// the default takes the immediate clears and deeper chains are a setting.
pub const DEFAULT_CHAIN: u32 = 1;

/// The value of `well`: its own, or with `chain > 0` the best along the
/// chains of line clears (at most `chain` long) that S or Z can give from it.
///
/// Wells prepared for clearing offer many clearing placements, and different
/// orders of clears reach the same wells, so a plain recursion is
/// exponential (milliseconds per well on real games). Each distinct well is
/// expanded once, breadth-first, so the cost is the number of distinct wells
/// in the chains.
pub fn quiescent_value(eval: &dyn Evaluator, rules: Rules, well: &Well, chain: u32) -> f32 {
    let mut best = eval.evaluate(well.playable(rules));
    if chain == 0 {
        return best;
    }
    // The clears reachable from `from`, each passed to `reached` once per
    // set of cells placed (S and Z reach the same cells in two orientations).
    let for_each_clear = |from: &Well, reached: &mut dyn FnMut(Well)| {
        let mut placed = PlacementSet::default();
        for_each_completing_lock(from, rules, &[Piece::S, Piece::Z], |piece, x, y, o| {
            let mut next = *from;
            let shape = piece.shape(o);
            if placed.insert(shape, x, y) && next.lock(shape, x, y) > 0 && !next.is_game_over() {
                reached(next);
            }
        });
    };
    let mut seen: FxHashSet<Well> = FxHashSet::default();
    let mut layer: Vec<Well> = Vec::new();
    for depth in 1..=chain {
        let last = depth == chain;
        let froms = if depth == 1 {
            std::slice::from_ref(well)
        } else {
            &layer[..]
        };
        let mut next_layer = Vec::new();
        for from in froms.iter().filter(|w| sz_might_clear(w, rules)) {
            for_each_clear(from, &mut |next| {
                if last {
                    // Nothing is expanded from the last layer, and the best
                    // of a well counted twice is the same: no set needed
                    // (the default chain of 1 allocates nothing).
                    best = best.max(eval.evaluate(next.playable(rules)));
                } else if seen.insert(next) {
                    best = best.max(eval.evaluate(next.playable(rules)));
                    next_layer.push(next);
                }
            });
        }
        if next_layer.is_empty() {
            break;
        }
        layer = next_layer;
    }
    best
}

/// The cell sets of the placements seen from one well: a few dozen at most,
/// so a linear scan of packed keys on the stack beats hashing the wells.
struct PlacementSet {
    keys: [u64; PlacementSet::CAPACITY],
    len: usize,
}

impl Default for PlacementSet {
    fn default() -> Self {
        PlacementSet {
            keys: [0; PlacementSet::CAPACITY],
            len: 0,
        }
    }
}

impl PlacementSet {
    const CAPACITY: usize = 64;

    /// Adds the cells of `shape` at (x, y); false if they were there. Once
    /// full it answers true: a well counted twice changes no maximum.
    fn insert(&mut self, shape: &Shape, x: i32, y: i32) -> bool {
        // The top cell row, then each box row's cells (10 bits each).
        let mut key = (y + shape.top as i32) as u64;
        for r in shape.top..=shape.bottom {
            let cells = (((shape.rows[r as usize] as u32) << (x + 3) as u32) >> 3) as u64;
            key |= cells << (5 + 10 * (r - shape.top) as u64);
        }
        if self.keys[..self.len].contains(&key) {
            return false;
        }
        if self.len < Self::CAPACITY {
            self.keys[self.len] = key;
            self.len += 1;
        }
        true
    }
}

/// Can some S or Z placement possibly complete a row? Each covers at most
/// two cells of a row, and those adjacent, so a row must lack exactly one
/// cell or two neighbouring cells. Exact as a necessary condition, and a few
/// bit operations against the two sweeps it saves.
#[inline]
pub fn sz_might_clear(well: &Well, rules: Rules) -> bool {
    well.playable(rules).iter().any(|&row| {
        let empty = !row & hatetris_game::FULL_ROW;
        empty != 0
            && (empty.count_ones() == 1 || (empty.count_ones() == 2 && empty & (empty >> 1) != 0))
    })
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
            -(rows
                .iter()
                .enumerate()
                .map(|(i, r)| r.count_ones() * (rows.len() - i) as u32)
                .sum::<u32>() as f32)
        }
        fn name(&self) -> String {
            "lowness".into()
        }
    }

    #[test]
    fn breadth_first_chains_agree_with_the_plain_recursion() {
        let rules = Rules::STANDARD;
        let mut rng = 0x1234_5678_9abc_def0u64;
        let mut chains = 0;
        for _ in 0..300 {
            let mut w = Well::EMPTY;
            let stack = 4 + (rng % 8) as usize;
            for i in 0..stack {
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                // Mostly rows one or two cells short of full: chains are common.
                let gap = (rng >> 33) % 9;
                let row = hatetris_game::FULL_ROW
                    & !(0b11 << gap)
                    & !(((rng >> 40) & 1) as u16) << ((rng >> 44) % 10);
                w.rows[19 - i] = row;
            }
            for chain in 0..=3 {
                let fast = quiescent_value(&Lowness, rules, &w, chain);
                assert_eq!(
                    fast,
                    naive(&Lowness, rules, &w, chain),
                    "{w:?} chain {chain}"
                );
                chains += (fast > Lowness.evaluate(w.playable(rules))) as u32;
            }
        }
        assert!(
            chains > 50,
            "the wells must exercise real chains ({chains})"
        );
    }

    #[test]
    fn the_filter_never_hides_a_clear() {
        let rules = Rules::STANDARD;
        for gap_mask in 0..1024u16 {
            let mut w = Well::EMPTY;
            w.rows[19] = hatetris_game::FULL_ROW & !gap_mask;
            w.rows[18] =
                hatetris_game::FULL_ROW & !(gap_mask.rotate_left(3) & hatetris_game::FULL_ROW);
            let mut clears = false;
            for piece in [Piece::S, Piece::Z] {
                for_each_lock_position(&w, rules, piece, |x, y, o| {
                    clears |= w.clone().lock(piece.shape(o), x, y) > 0
                });
            }
            assert!(!clears || sz_might_clear(&w, rules), "{w:?}");
        }
    }
}
