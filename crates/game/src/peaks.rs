//! The enemy's first question, for all seven pieces at once: how low can
//! each piece lock, as the official "height rating" of the well after the
//! lock (larger is a lower stack)? That is the piece's *peak*.
//!
//! The scalar path sweeps each piece on its own. With AVX2 the seven are
//! swept together (`sweep::avx2`), and no lock needs to be played to find a peak:
//! without a clear a lock's rating is `min(rating, y + shape top)`, largest
//! at the lane's deepest lock row, so only locks that complete a row (which
//! the sweep finds with bit masks) are played out.

use crate::piece::{Piece, Shape};
use crate::sweep::for_each_lock_position;
use crate::well::{Rules, Well, BAR, FULL_ROW};

/// The peak of every piece, by piece index (S, Z, O, I, L, J, T). A piece
/// with no landing at all has peak 0.
#[inline]
pub fn peaks(well: &Well, rules: Rules) -> [u8; 7] {
    PeakSweep::with(well, rules, |sweep| sweep.peaks)
}

/// The peaks of the seven pieces, and their lock positions kept for a
/// second look (the enemy's memory pass): with AVX2 the sweep that found
/// the peaks holds every lock, so that pass need not sweep again.
pub(crate) struct PeakSweep<'a> {
    pub peaks: [u8; 7],
    /// The vector sweep's output; None on the scalar path.
    #[cfg(target_arch = "x86_64")]
    swept: Option<&'a crate::sweep::avx2::SweepOut>,
    #[cfg(not(target_arch = "x86_64"))]
    swept: std::marker::PhantomData<&'a ()>,
}

impl PeakSweep<'_> {
    /// Sweeps `well` and hands the result to `f` (lent, not returned: the
    /// vector sweep's output is kilobytes, and stays where it was written).
    #[inline]
    pub(crate) fn with<R>(well: &Well, rules: Rules, f: impl FnOnce(&PeakSweep) -> R) -> R {
        #[cfg(target_arch = "x86_64")]
        {
            if crate::sweep::has_avx2() {
                let mut slot = std::mem::MaybeUninit::uninit();
                let out = crate::sweep::avx2::SweepOut::init(&mut slot);
                // SAFETY: the CPU has AVX2, just checked.
                let peaks = unsafe { peaks_avx2(well, rules, out) };
                return f(&PeakSweep { peaks, swept: Some(out) });
            }
            f(&PeakSweep { peaks: peaks_scalar(well, rules), swept: None })
        }
        #[cfg(not(target_arch = "x86_64"))]
        f(&PeakSweep { peaks: peaks_scalar(well, rules), swept: std::marker::PhantomData })
    }

    /// `for_each_lock_position` for the same well and rules, in its order,
    /// from the stored sweep when there is one.
    #[inline]
    pub(crate) fn for_each_lock(&self, well: &Well, rules: Rules, piece: Piece, visit: impl FnMut(i32, i32, u8)) {
        #[cfg(target_arch = "x86_64")]
        if let Some(out) = self.swept {
            return out.for_each_lock(piece, visit);
        }
        for_each_lock_position(well, rules, piece, visit)
    }

    /// `for_each_completing_lock` of `piece` alone, for the same well and
    /// rules and in its order, from the stored sweep when there is one (it
    /// kept every piece's locks that complete a row).
    #[inline]
    pub(crate) fn for_each_completing_lock(
        &self,
        well: &Well,
        rules: Rules,
        piece: Piece,
        mut visit: impl FnMut(i32, i32, u8),
    ) {
        #[cfg(target_arch = "x86_64")]
        if let Some(out) = self.swept {
            return out.for_each_clearing_lock(|lane, x, y| {
                if lane / 4 == piece.index() {
                    visit(x, y as i32, (lane % 4) as u8)
                }
            });
        }
        crate::sweep::for_each_completing_lock(well, rules, &[piece], |_, x, y, o| visit(x, y, o))
    }

    /// `for_each_lock_position` for the same well and rules, from the
    /// stored sweep when there is one, which skips most locks that make the
    /// same well as another (see `TWINS`).
    #[inline]
    pub(crate) fn for_each_landing(
        &self,
        well: &Well,
        rules: Rules,
        piece: Piece,
        mut visit: impl FnMut(i32, i32, u8),
    ) {
        #[cfg(target_arch = "x86_64")]
        if let Some(out) = self.swept {
            return out.for_each_distinct_lock(piece, visit);
        }
        // Called through a pointer here, `visit` has one call site to be
        // inlined into: the stored sweep's loop.
        let visit: &mut dyn FnMut(i32, i32, u8) = &mut visit;
        for_each_lock_position(well, rules, piece, visit)
    }
}

/// One sweep per piece, every lock rated: the plain path and the yardstick
/// for the vector one.
pub fn peaks_scalar(well: &Well, rules: Rules) -> [u8; 7] {
    let rating = well.rating(rules);
    let mut peaks = [0u8; 7];
    for (slot, piece) in peaks.iter_mut().zip(Piece::ALL) {
        for_each_lock_position(well, rules, piece, |x, y, o| {
            *slot = (*slot).max(rating_after_lock(well, rules, rating, piece.shape(o), x, y));
        });
    }
    peaks
}

/// The height rating of the well after locking `shape` at (x, y), given the
/// well's own `rating`, with no copy of the well. Without a clear the top
/// is `t = min(rating, piece top)`. With `k` rows cleared, every row above
/// the first surviving row at or below `t` falls by the cleared rows below
/// it, so that row lands at `t + k`, provided it is not empty (always so in
/// a played well; an arbitrary one is played out in full).
#[inline]
pub(crate) fn rating_after_lock(well: &Well, rules: Rules, rating: u8, shape: &Shape, x: i32, y: i32) -> u8 {
    let piece_top = y + shape.top as i32;
    let t = rating.min(piece_top as u8);
    if piece_top < BAR as i32 {
        return t; // locked above the bar: the game is over, nothing clears
    }
    let mut cleared = 0u8;
    let mut first_kept = None;
    for r in shape.top..=shape.bottom {
        let row = (y + r as i32) as usize;
        let cells = (((shape.rows[r as usize] as u32) << (x + 3) as u32) >> 3) as u16;
        if well.rows[row] | cells == FULL_ROW {
            cleared += 1;
        } else if first_kept.is_none() {
            first_kept = Some(row);
        }
    }
    if cleared == 0 {
        return t;
    }
    // The old top row stands above the piece, or a piece row survives:
    // either is non-empty. Otherwise it is the row under the piece.
    let below = (y + shape.bottom as i32 + 1) as usize;
    if (t as i32) < piece_top || first_kept.is_some() || below >= rules.depth() || well.rows[below] != 0 {
        return t + cleared;
    }
    let mut w = *well;
    w.lock(shape, x, y);
    w.rating(rules)
}

/// The vector path: one 28-lane sweep (see `sweep::avx2`), then each lane's
/// deepest lock rated by formula and the locks that clear rated exactly.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn peaks_avx2(well: &Well, rules: Rules, out: &mut crate::sweep::avx2::SweepOut) -> [u8; 7] {
    use crate::sweep::avx2::{lane_shape, near_full_rows, sweep, ALL_PIECES};
    sweep::<true, 3>(well, rules, ALL_PIECES, near_full_rows(well, rules), out);
    let rating = well.rating(rules);
    let mut peaks = [0u8; 7];
    for (p, peak) in peaks.iter_mut().enumerate() {
        *peak = out.plain_peaks[4 * p] as u8;
    }
    out.for_each_clearing_lock(|lane, x, y| {
        let r = rating_after_lock(well, rules, rating, lane_shape(lane), x, y as i32);
        peaks[lane / 4] = peaks[lane / 4].max(r);
    });
    peaks
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn random_well(seed: u64, rules: Rules, fill_percent: u64) -> Well {
        let mut rng = seed;
        let mut w = Well::EMPTY;
        let stack = (seed % (rules.height() as u64 + 1)) as usize;
        for i in 0..stack {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let mut row = 0u16;
            for c in 0..10 {
                if (rng >> (c * 6 + 3)) % 100 < fill_percent {
                    row |= 1 << c;
                }
            }
            if row == FULL_ROW {
                row &= !(1 << (rng % 10));
            }
            w.rows[rules.depth() - 1 - i] = row;
        }
        w
    }

    #[test]
    fn empty_well_peaks_are_the_bottom() {
        // Every piece can reach the floor of an empty well: its top row is
        // then above the floor by its height minus one.
        assert_eq!(peaks(&Well::EMPTY, Rules::STANDARD), peaks_scalar(&Well::EMPTY, Rules::STANDARD));
        assert_eq!(peaks(&Well::EMPTY, Rules::STANDARD)[Piece::I.index()], 19);
    }

    #[test]
    fn the_peak_sweep_visits_each_well_of_the_empty_well_once() {
        let (well, rules) = (Well::EMPTY, Rules::STANDARD);
        PeakSweep::with(&well, rules, |sweep| {
            for piece in Piece::ALL {
                let mut visits = 0;
                sweep.for_each_landing(&well, rules, piece, |_, _, _| visits += 1);
                let distinct = crate::sweep::distinct_landings(&well, rules, piece).len();
                assert_eq!(visits, distinct, "{piece}");
            }
        });
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        /// The copy-free rating of every lock agrees with locking for real.
        #[test]
        fn rating_after_lock_matches_a_real_lock(seed in any::<u64>(), h in 1usize..=16, fill in 40u64..100) {
            let rules = Rules::with_height(h).unwrap();
            let well = random_well(seed, rules, fill);
            let rating = well.rating(rules);
            for piece in Piece::ALL {
                for_each_lock_position(&well, rules, piece, |x, y, o| {
                    let mut w = well;
                    w.lock(piece.shape(o), x, y);
                    assert_eq!(rating_after_lock(&well, rules, rating, piece.shape(o), x, y), w.rating(rules));
                });
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Dense, ragged and near-full wells (many possible clears), at every height.
        #[test]
        fn vector_peaks_match_scalar(seed in any::<u64>(), h in 1usize..=16, fill in 40u64..100) {
            let rules = Rules::with_height(h).unwrap();
            let well = random_well(seed, rules, fill);
            prop_assert_eq!(peaks(&well, rules), peaks_scalar(&well, rules), "{:?}", well);
        }

        /// The peaks' sweep visits a lock for every well a piece can make
        /// (skipping only locks whose well another visited lock makes).
        #[test]
        fn the_peak_sweep_keeps_every_landing(seed in any::<u64>(), h in 1usize..=16, fill in 40u64..100) {
            let rules = Rules::with_height(h).unwrap();
            let well = random_well(seed, rules, fill);
            PeakSweep::with(&well, rules, |sweep| {
                for piece in Piece::ALL {
                    let locked = |x, y, o| {
                        let mut w = well;
                        w.lock(piece.shape(o), x, y);
                        w
                    };
                    let (mut kept, mut all) = (BTreeSet::new(), BTreeSet::new());
                    sweep.for_each_landing(&well, rules, piece, |x, y, o| {
                        kept.insert(locked(x, y, o));
                    });
                    for_each_lock_position(&well, rules, piece, |x, y, o| {
                        all.insert(locked(x, y, o));
                    });
                    assert_eq!(kept, all, "{piece} in {well:?}");
                }
            });
        }
    }
}
