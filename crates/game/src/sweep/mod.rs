//! Every landing of a piece, found with bit operations: the sweep.
//!
//! One public API over two back ends, [`scalar`] and [`avx2`] (all 28
//! orientations of the seven pieces in the lanes of two 256-bit registers),
//! chosen by one CPU check ([`has_avx2`]); [`rows`] holds the row helpers
//! both use.
//!
//! A position is (x, y, o) with the 4x4 box's top-left at (x, y); x runs over
//! -3..=9, stored as bit `x + 3` of a 13-bit mask. For one orientation and
//! one row y, a single mask says which x are free, so all x move at once.
//! Moves never go up, and U/L/R keep y, so the official breadth-first search
//! is equivalent to a sweep down the rows: a row's reachable set is the
//! closure under L, R and U of what D brought from the row above. A
//! reachable position whose D is blocked locks: that is a landing.

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
mod rows;
mod scalar;

use crate::piece::Piece;
use crate::well::{Rules, Well};
pub(crate) use rows::{completes_a_row, with_cells};
pub use rows::{start_row, sz_completable_rows};
pub use scalar::for_each_lock_position_scalar;

/// Whether the vector sweeps can run: the one CPU check of the sweep
/// (the standard library caches the answer).
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// Whether the vector sweeps can run (never, off x86_64).
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub fn has_avx2() -> bool {
    false
}

/// One landing: where the piece locked and what the well became.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Landing {
    pub x: i8,
    pub y: i8,
    pub o: u8,
    /// Lines this lock cleared.
    pub lines: u8,
    pub well: Well,
}

/// Calls `visit(x, y, o)` once for every distinct lock position of `piece`,
/// in no particular order. Positions, not wells: two positions may give the
/// same well (O in its four orientations, say).
///
/// With AVX2 the sweep runs in the vector lanes of [`avx2`] (about 2.5
/// times fewer instructions), else in [`scalar`]; both visit rows top
/// down and, in a row, orientations then x ascending.
#[inline]
pub fn for_each_lock_position(well: &Well, rules: Rules, piece: Piece, visit: impl FnMut(i32, i32, u8)) {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2() {
            let mut slot = std::mem::MaybeUninit::uninit();
            let out = avx2::SweepOut::init(&mut slot);
            // SAFETY: the CPU has AVX2, just checked.
            unsafe { avx2::sweep_set::<false>(well, rules, 1 << piece.index(), 0, out) };
            out.for_each_lock(piece, visit);
            return;
        }
    }
    for_each_lock_position_scalar(well, rules, piece, visit)
}

/// Calls `visit(piece, x, y, o)` for every lock position of `pieces` whose
/// cells complete a row of `well`: the locks that clear lines (unless the
/// piece sticks out above the bar, when the game ends instead). With AVX2
/// the pieces share one vector sweep and the completing positions come from
/// bit masks, so no other lock is played.
pub fn for_each_completing_lock(
    well: &Well,
    rules: Rules,
    pieces: &[Piece],
    mut visit: impl FnMut(Piece, i32, i32, u8),
) {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2() {
            use avx2::{near_full_rows, sweep_set, SweepOut};
            let set = pieces.iter().fold(0u8, |m, p| m | 1 << p.index());
            let mut slot = std::mem::MaybeUninit::uninit();
            let out = SweepOut::init(&mut slot);
            // SAFETY: the CPU has AVX2, just checked.
            unsafe { sweep_set::<true>(well, rules, set, near_full_rows(well, rules), out) };
            out.for_each_clearing_lock(|lane, x, y| visit(Piece::from_index(lane / 4), x, y as i32, (lane % 4) as u8));
            return;
        }
    }
    for &piece in pieces {
        for_each_lock_position_scalar(well, rules, piece, |x, y, o| {
            if completes_a_row(well, piece.shape(o), x, y) {
                visit(piece, x, y, o);
            }
        });
    }
}

/// `for_each_completing_lock` with S and Z in several wells at once, each
/// set of cells once: calls `visit(k, piece, x, y, o)` for one lock of
/// each set of cells an S or Z can lock in `wells[k]` completing a row (S
/// and Z reach the same cells in two orientations). With AVX2 four wells
/// share one sweep.
pub fn for_each_completing_sz_lock(wells: &[Well], rules: Rules, visit: impl FnMut(usize, Piece, i32, i32, u8)) {
    completing_locks_of_wells::<false>(wells, rules, visit)
}

/// `for_each_completing_sz_lock` for S alone: with AVX2 eight wells share
/// one sweep (the record chain rule asks S first, and Z only where an S
/// clears two lines).
pub fn for_each_completing_s_lock(wells: &[Well], rules: Rules, mut visit: impl FnMut(usize, i32, i32, u8)) {
    completing_locks_of_wells::<true>(wells, rules, |k, _, x, y, o| visit(k, x, y, o))
}

fn completing_locks_of_wells<const S_ONLY: bool>(
    wells: &[Well],
    rules: Rules,
    mut visit: impl FnMut(usize, Piece, i32, i32, u8),
) {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2() {
            use avx2::{sweep_wells, SweepOut, LANES, SZ_WELLS, S_WELLS};
            let per_sweep = if S_ONLY { S_WELLS } else { SZ_WELLS };
            let lanes_per_well = LANES / per_sweep;
            for (chunk, group) in wells.chunks(per_sweep).enumerate() {
                let mut slot = std::mem::MaybeUninit::uninit();
                let out = SweepOut::init(&mut slot);
                // SAFETY: the CPU has AVX2, just checked.
                unsafe { sweep_wells::<S_ONLY>(group, rules, out) };
                out.for_each_distinct_wells_clearing_lock::<S_ONLY>(|lane, x, y| {
                    let piece = if S_ONLY || lane % 8 < 4 { Piece::S } else { Piece::Z };
                    let k = chunk * per_sweep + lane / lanes_per_well;
                    visit(k, piece, x, y as i32, (lane % 4) as u8)
                });
            }
            return;
        }
    }
    let pieces: &[Piece] = if S_ONLY { &[Piece::S] } else { &[Piece::S, Piece::Z] };
    for (k, well) in wells.iter().enumerate() {
        let mut placed: Vec<Well> = Vec::new();
        for_each_completing_lock(well, rules, pieces, |piece, x, y, o| {
            let cells = with_cells(&Well::EMPTY, piece.shape(o), x, y);
            if !placed.contains(&cells) {
                placed.push(cells);
                visit(k, piece, x, y, o)
            }
        });
    }
}

impl Landing {
    /// `piece` locked in `well` at (x, y) in orientation `o`.
    #[inline]
    pub fn new(well: &Well, piece: Piece, x: i32, y: i32, o: u8) -> Landing {
        let mut w = *well;
        let lines = w.lock(piece.shape(o), x, y) as u8;
        Landing { x: x as i8, y: y as i8, o, lines, well: w }
    }
}

/// All landings of `piece` in `well`, with the wells they make.
pub fn landings(well: &Well, rules: Rules, piece: Piece) -> Vec<Landing> {
    let mut out = Vec::with_capacity(40);
    for_each_lock_position(well, rules, piece, |x, y, o| out.push(Landing::new(well, piece, x, y, o)));
    out
}

/// The landings with duplicate wells removed (first kept): the set a player
/// chooses from.
pub fn distinct_landings(well: &Well, rules: Rules, piece: Piece) -> Vec<Landing> {
    let mut all = landings(well, rules, piece);
    keep_distinct_wells(&mut all);
    all
}

/// Keeps the first landing of each well, in order.
pub(crate) fn keep_distinct_wells(all: &mut Vec<Landing>) {
    // A small open-addressing table of the kept wells' hashes on the stack:
    // a hash set costs an allocation and hashes every well's 40 bytes, and
    // search asks this for every entry. A piece rarely has more than 40
    // landings; past half the table the set is used instead.
    const SLOTS: usize = 128;
    if all.len() > SLOTS / 2 {
        let mut seen = rustc_hash::FxHashSet::default();
        all.retain(|l| seen.insert(l.well));
        return;
    }
    let mut slots = [u8::MAX; SLOTS];
    let mut hashes = [0u64; SLOTS];
    let mut kept = 0;
    for i in 0..all.len() {
        let h = all[i].well.hash64();
        let mut slot = h as usize % SLOTS;
        let duplicate = loop {
            match slots[slot] {
                u8::MAX => break false,
                k if hashes[slot] == h && all[k as usize].well == all[i].well => break true,
                _ => slot = (slot + 1) % SLOTS,
            }
        };
        if !duplicate {
            slots[slot] = kept as u8;
            hashes[slot] = h;
            all[kept] = all[i];
            kept += 1;
        }
    }
    all.truncate(kept);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::rows::sz_completable_rows_scalar;
    use super::*;
    use crate::reference::{reference_landing_wells, reference_lock_positions};
    use crate::well::MAX_DEPTH;
    use proptest::prelude::*;

    /// A random well shaped like a game's: a ragged stack with holes, with
    /// no full rows, and nothing above the bar.
    pub(crate) fn arb_well(rules: Rules) -> impl Strategy<Value = Well> {
        let h = rules.height();
        (0..=h, proptest::collection::vec(0u16..1023, h), 0u16..1023).prop_map(move |(stack, rows, mask)| {
            let mut w = Well::EMPTY;
            for (i, &r) in rows.iter().enumerate().take(stack) {
                let row = rules.depth() - 1 - i;
                // Thin the rows toward the top so that tall stacks leave room to move.
                let keep = if i * 3 > stack * 2 { r & mask } else { r };
                w.rows[row] = if keep == crate::well::FULL_ROW { keep & !1 } else { keep };
            }
            w
        })
    }

    /// A standard well of nearly full rows (one or two gaps, often side by
    /// side) under a thinner top: clears, tucks and closed gaps are common.
    pub(crate) fn near_full_well() -> impl Strategy<Value = Well> {
        (2usize..=16, proptest::collection::vec((0u16..10, 0u16..10, 0u8..4), 16)).prop_map(|(stack, gaps)| {
            let mut w = Well::EMPTY;
            for (i, &(a, b, kind)) in gaps.iter().enumerate().take(stack) {
                let holes = match kind {
                    0 => 1 << a,
                    1 => 0b11 << a.min(8),
                    2 => (1 << a) | (1 << b),
                    _ => crate::well::FULL_ROW & !((1 << a) | (1 << b)) & 0x3F,
                };
                let row = crate::well::FULL_ROW & !holes;
                w.rows[MAX_DEPTH - 1 - i] = if row == crate::well::FULL_ROW { row & !1 } else { row };
            }
            w
        })
    }

    /// Placed cells (as a well holding only them), tagged by well index.
    type TaggedCells = Vec<(usize, Well)>;

    /// The cells of the clearing S/Z locks of `wells` (with `s_only`, S
    /// locks), as `for_each_completing_sz_lock` (`_s_lock`) visits them
    /// (checked to visit each once), and from each well's own sweep of
    /// every lock, sorted.
    fn clears_together_and_apart(wells: &[Well], rules: Rules, s_only: bool) -> (TaggedCells, TaggedCells) {
        let mut together = Vec::new();
        if s_only {
            for_each_completing_s_lock(wells, rules, |k, x, y, o| {
                together.push((k, with_cells(&Well::EMPTY, Piece::S.shape(o), x, y)))
            });
        } else {
            for_each_completing_sz_lock(wells, rules, |k, p, x, y, o| {
                together.push((k, with_cells(&Well::EMPTY, p.shape(o), x, y)))
            });
        }
        let visited = together.len();
        together.sort_unstable();
        together.dedup();
        assert_eq!(together.len(), visited, "a set of cells visited twice");
        let mut apart = Vec::new();
        for (k, w) in wells.iter().enumerate() {
            let pieces: &[Piece] = if s_only { &[Piece::S] } else { &[Piece::S, Piece::Z] };
            for_each_completing_lock(w, rules, pieces, |p, x, y, o| {
                apart.push((k, with_cells(&Well::EMPTY, p.shape(o), x, y)))
            });
        }
        apart.sort_unstable();
        apart.dedup();
        (together, apart)
    }

    /// The clearing S/Z placements of each well of the recorded games, one
    /// by one and four by four, and S's eight by eight.
    #[test]
    fn clearing_locks_of_recorded_wells_swept_together() {
        let rules = Rules::STANDARD;
        let wells = crate::fixtures::recorded_hatetris_wells(rules);
        let (together, apart) = clears_together_and_apart(&wells, rules, false);
        assert!(apart.len() > 1000, "{} clearing placements", apart.len());
        assert_eq!(together, apart);
        let (together, apart) = clears_together_and_apart(&wells, rules, true);
        assert!(apart.len() > 500, "{} clearing placements of S", apart.len());
        assert_eq!(together, apart);
    }

    fn sorted(mut v: Vec<(i32, i32, u8)>) -> Vec<(i32, i32, u8)> {
        v.sort_unstable();
        v
    }

    fn check_against_reference(well: &Well, rules: Rules) {
        for piece in Piece::ALL {
            let mut fast = Vec::new();
            for_each_lock_position(well, rules, piece, |x, y, o| fast.push((x, y, o)));
            let mut scalar = Vec::new();
            for_each_lock_position_scalar(well, rules, piece, |x, y, o| scalar.push((x, y, o)));
            assert_eq!(fast, scalar, "vector and scalar sweeps visit alike: {piece} in {well:?}");
            let slow: Vec<_> = reference_lock_positions(well, rules, piece).iter().map(|p| (p.x, p.y, p.o)).collect();
            assert_eq!(sorted(fast.clone()), sorted(slow), "{piece} in {well:?}");
            let mut completing = Vec::new();
            for_each_completing_lock(well, rules, &[piece], |p, x, y, o| {
                assert_eq!(p, piece);
                completing.push((x, y, o));
            });
            let expected: Vec<_> =
                fast.iter().copied().filter(|&(x, y, o)| completes_a_row(well, piece.shape(o), x, y)).collect();
            assert_eq!(sorted(completing), sorted(expected), "completing locks of {piece} in {well:?}");
            let mut fast_wells: Vec<Well> = landings(well, rules, piece).iter().map(|l| l.well).collect();
            let mut slow_wells = reference_landing_wells(well, rules, piece);
            fast_wells.sort();
            slow_wells.sort();
            assert_eq!(fast_wells, slow_wells);
        }
    }

    #[test]
    fn empty_well_landings_match_reference() {
        check_against_reference(&Well::EMPTY, Rules::STANDARD);
        // Seven flat placements... the count of distinct O wells is 9 columns.
        assert_eq!(distinct_landings(&Well::EMPTY, Rules::STANDARD, Piece::O).len(), 9);
    }

    #[test]
    fn tuck_under_an_overhang_is_found() {
        let rules = Rules::STANDARD;
        let mut w = Well::EMPTY;
        w.rows[17] = 0b1111111000; // an overhang over columns 3..9
        w.rows[19] = 0b0000000001;
        check_against_reference(&w, rules);
        // An I lying flat can slide under the overhang onto row 18 to the right.
        let under = landings(&w, rules, Piece::I).iter().any(|l| l.y == 17 && l.x >= 3);
        assert!(under);
    }

    #[test]
    fn sz_completable_rows_are_one_cell_or_two_neighbours_short() {
        for empty in 0..1024u16 {
            let mut w = Well::EMPTY;
            w.rows[19] = crate::well::FULL_ROW & !empty;
            let n = empty.count_ones();
            let expected = n == 1 || (n == 2 && empty & (empty >> 1) != 0);
            assert_eq!(sz_completable_rows(&w, Rules::STANDARD), (expected as u32) << 19, "{empty:#b}");
            assert_eq!(sz_completable_rows_scalar(&w, Rules::STANDARD), (expected as u32) << 19, "{empty:#b}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn sweep_agrees_with_breadth_first_search(well in arb_well(Rules::STANDARD)) {
            check_against_reference(&well, Rules::STANDARD);
        }

        /// Several wells swept together give each well's own clearing locks.
        #[test]
        fn clearing_locks_of_several_wells_are_each_wells_own(
            wells in proptest::collection::vec(near_full_well(), 1..20),
            height in 3usize..=16,
        ) {
            let rules = Rules::with_height(height).unwrap();
            // The bottom rows of each, standing on this game's floor.
            let d = rules.depth();
            let wells: Vec<Well> = wells
                .iter()
                .map(|w| {
                    let mut cut = Well::EMPTY;
                    cut.rows[crate::well::BAR..d].copy_from_slice(&w.rows[MAX_DEPTH + crate::well::BAR - d..]);
                    cut
                })
                .collect();
            let (together, apart) = clears_together_and_apart(&wells, rules, false);
            prop_assert_eq!(together, apart);
            let (together, apart) = clears_together_and_apart(&wells, rules, true);
            prop_assert_eq!(together, apart);
        }

            #[test]
        fn completable_rows_by_register_and_by_row_agree(well in near_full_well(), height in 1usize..=16) {
            let rules = Rules::with_height(height).unwrap();
            // The bottom rows, on this game's floor; the rest stay empty.
            let mut w = Well::EMPTY;
            let d = rules.depth();
            w.rows[crate::well::BAR..d].copy_from_slice(&well.rows[MAX_DEPTH + crate::well::BAR - d..]);
            prop_assert_eq!(sz_completable_rows(&w, rules), sz_completable_rows_scalar(&w, rules));
        }

        /// The first landing of each well, in order, as a hash set keeps them.
        #[test]
        fn distinct_landings_keep_the_first_of_each_well(well in arb_well(Rules::STANDARD)) {
            for piece in Piece::ALL {
                let mut expected = landings(&well, Rules::STANDARD, piece);
                let mut seen = std::collections::HashSet::new();
                expected.retain(|l| seen.insert(l.well));
                prop_assert_eq!(distinct_landings(&well, Rules::STANDARD, piece), expected);
            }
        }

        #[test]
        fn sweep_agrees_on_small_heights(h in 2usize..8, seed in any::<u64>()) {
            let rules = Rules::with_height(h).unwrap();
            let mut rng = seed;
            let mut w = Well::EMPTY;
            for row in 4..rules.depth() {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                if (rng >> 60) < 9 {
                    w.rows[row] = ((rng >> 20) as u16 & 1023) & !(1 << ((rng >> 40) % 10));
                }
            }
            check_against_reference(&w, rules);
        }
    }
}
