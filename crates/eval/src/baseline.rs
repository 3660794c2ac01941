//! The baseline: a hand-made evaluator in the Dellacherie / El-Tetris
//! tradition (holes, heights, row and column transitions, wells), the
//! reference point the network has to beat. Every feature is computed with
//! bit operations on whole rows, so an evaluation costs a few dozen ns.

use crate::evaluator::Evaluator;

#[cfg(target_arch = "x86_64")]
mod avx2;

/// The hand-made baseline evaluator. Its value is
/// `tanh(-penalty / SCALE)` (fast tanh, within 3e-7), where `penalty` is the weighted sum of
/// [`BaselineFeatures`] (see [`Baseline::penalty`]): 0 for the empty well,
/// towards -1 as the well gets worse.
#[derive(Clone, Copy, Debug, Default)]
pub struct Baseline;

/// The hand-made features of a well (rows below the bar, top first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BaselineFeatures {
    /// Empty cells with a filled cell somewhere above them.
    pub holes: u32,
    /// Rows containing at least one hole.
    pub hole_rows: u32,
    /// Sum of the column heights.
    pub aggregate_height: u32,
    /// Height of the highest column.
    pub max_height: u32,
    /// Filled/empty changes along each row, walls counted as filled (an
    /// empty row counts 0: the constant 2 per row is removed).
    pub row_transitions: u32,
    /// Filled/empty changes down each column, from the empty space above the
    /// stack to the floor (counted as filled).
    pub column_transitions: u32,
    /// Sum of the height differences of neighbouring columns.
    pub bumpiness: u32,
    /// Filled cells (at a given number of pieces, fewer means more lines).
    pub cells: u32,
    /// Open well cells (empty, both side neighbours filled, nothing above)
    /// weighted by depth: 1 + 2 + 3 for the first three cells of a well,
    /// then 3 per further cell.
    pub well_depth: u32,
}

/// Feature weights (penalties). Dellacherie / El-Tetris features plus the
/// height, bumpiness and cell terms HATETRIS needs (the enemy makes every
/// stack grow, and at a fixed number of pieces fewer cells means more lines),
/// tuned by random search on the lines a plain beam search (ranking by this
/// value alone) clears against the real enemy at widths 60-400; with this
/// set it cleared 21 / 36 / 31 lines at widths 500 / 1500 / 4000.
const W_HOLES: f32 = 0.764;
const W_HOLE_ROWS: f32 = 50.6;
const W_AGGREGATE_HEIGHT: f32 = 2.137;
const W_MAX_HEIGHT: f32 = 14.332;
const W_ROW_TRANSITIONS: f32 = 6.837;
const W_COLUMN_TRANSITIONS: f32 = 0.946;
const W_WELL_DEPTH: f32 = 23.191;
const W_BUMPINESS: f32 = 0.986;
const W_CELLS: f32 = 2.386;
/// Penalty giving tanh(-1): a typical mid-game well scores a few hundred,
/// and tanh keeps distinct values up to ~8 * SCALE.
const SCALE: f32 = 600.0;

const FULL: u16 = (1 << 10) - 1;

/// Runs `$f(rows, features)` on the fastest path the CPU has: the AVX2
/// features for a standard well, else the scalar loop compiled with the
/// popcnt instruction (without it, `count_ones` is a long bit-twiddling
/// sequence), else the plain scalar loop.
macro_rules! on_fastest_path {
    ($f:ident($rows:expr) -> $ret:ty) => {{
        let rows: &[u16] = $rows;
        #[cfg(target_arch = "x86_64")]
        {
            if rows.len() == avx2::ROWS && avx2_available() {
                // SAFETY: the CPU has AVX2 and POPCNT, just checked.
                return $f(rows, |r| unsafe { avx2::features(r) });
            }
            if std::arch::is_x86_feature_detected!("popcnt") {
                #[target_feature(enable = "popcnt")]
                fn fast(rows: &[u16]) -> $ret {
                    $f(rows, features_impl)
                }
                // SAFETY: the CPU has popcnt, just checked.
                return unsafe { fast(rows) };
            }
        }
        $f(rows, features_impl)
    }};
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn avx2_available() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt")
}

impl Baseline {
    /// The hand-made features of a well.
    pub fn features(rows: &[u16]) -> BaselineFeatures {
        on_fastest_path!(features_with(rows) -> BaselineFeatures)
    }

    /// The weighted sum of the features (>= 0, 0 for the empty well).
    pub fn penalty(rows: &[u16]) -> f32 {
        on_fastest_path!(penalty_with(rows) -> f32)
    }
}

#[inline(always)]
fn features_with(rows: &[u16], features: impl FnOnce(&[u16]) -> BaselineFeatures) -> BaselineFeatures {
    features(rows)
}

#[inline(always)]
fn penalty_with(rows: &[u16], features: impl FnOnce(&[u16]) -> BaselineFeatures) -> f32 {
    let f = features(rows);
    // Summed as a tree: a chain of nine dependent adds is slow.
    let holes = W_HOLES * f.holes as f32 + W_HOLE_ROWS * f.hole_rows as f32;
    let heights = W_AGGREGATE_HEIGHT * f.aggregate_height as f32 + W_MAX_HEIGHT * f.max_height as f32;
    let transitions = W_ROW_TRANSITIONS * f.row_transitions as f32 + W_COLUMN_TRANSITIONS * f.column_transitions as f32;
    let surface = W_WELL_DEPTH * f.well_depth as f32 + W_BUMPINESS * f.bumpiness as f32;
    ((holes + heights) + (transitions + surface)) + W_CELLS * f.cells as f32
}

#[inline(always)]
fn value_with(rows: &[u16], features: impl FnOnce(&[u16]) -> BaselineFeatures) -> f32 {
    crate::simd::tanh_fast(penalty_with(rows, features) * (-1.0 / SCALE))
}

/// The values of standard wells on the AVX2 path: the CPU is asked once,
/// and with the weighting compiled into the same function as the features
/// they never leave registers (search values some forty wells per entry).
///
/// # Safety
/// The CPU must have AVX2 and POPCNT; every well has `avx2::ROWS` rows.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn values_avx2(wells: &[&[u16]], out: &mut [f32]) {
    for (w, o) in wells.iter().zip(out) {
        *o = value_with(w, |r| avx2::features(r));
    }
}

#[inline(always)]
fn features_impl(rows: &[u16]) -> BaselineFeatures {
    let h = rows.len();
    let mut f = BaselineFeatures::default();
    // Skip the empty top: it contributes nothing (bits above the 10
    // columns are ignored, as everywhere below).
    let k = rows.iter().position(|&r| r & FULL != 0).unwrap_or(h);
    f.max_height = (h - k) as u32;
    let mut cover = 0u16; // columns filled at or above the current row
    let mut above = 0u16; // the row above
    let (mut well1, mut well2) = (0u16, 0u16); // open well cells one and two rows up
    for &r in &rows[k..] {
        let r = r & FULL;
        let hole = cover & !r;
        f.holes += hole.count_ones();
        f.hole_rows += (hole != 0) as u32;
        f.column_transitions += (r ^ above).count_ones();
        // Walls as filled bits 0 and 11; transitions between the 11 pairs.
        // Every row but a full one has at least 2 (a full row, left by a
        // lock above the bar, has none and counts 0 like an empty one).
        let p = 1 | (r << 1) | (1 << 11);
        f.row_transitions += ((p ^ (p >> 1)) & 0x7FF).count_ones().saturating_sub(2);
        // Open well cells: empty, uncovered, both neighbours filled.
        let well = !p & (p << 1) & (p >> 1) & (FULL << 1) & !(cover << 1);
        f.well_depth += well.count_ones() + (well & well1).count_ones() + (well & well1 & well2).count_ones();
        well2 = well1;
        well1 = well;
        cover |= r;
        f.aggregate_height += cover.count_ones();
        // Neighbouring columns of which exactly one reaches this row: summed
        // over the rows, that is the sum of height differences.
        f.bumpiness += ((cover ^ (cover >> 1)) & (FULL >> 1)).count_ones();
        f.cells += r.count_ones();
        above = r;
    }
    // The floor is filled.
    if k < h {
        f.column_transitions += (above ^ FULL).count_ones();
    }
    f
}

impl Evaluator for Baseline {
    fn evaluate(&self, rows: &[u16]) -> f32 {
        on_fastest_path!(value_with(rows) -> f32)
    }

    fn evaluate_batch(&self, wells: &[&[u16]], out: &mut [f32]) {
        #[cfg(target_arch = "x86_64")]
        if avx2_available() && wells.iter().all(|w| w.len() == avx2::ROWS) {
            // SAFETY: the CPU has AVX2 and POPCNT, just checked.
            return unsafe { values_avx2(wells, out) };
        }
        for (w, o) in wells.iter().zip(out) {
            *o = self.evaluate(w);
        }
    }

    fn name(&self) -> String {
        "baseline".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows drawn as text, '#' filled, top first, bottom-aligned in 16 rows.
    fn well(drawing: &[&str]) -> Vec<u16> {
        let mut rows = vec![0u16; 16 - drawing.len()];
        rows.extend(
            drawing
                .iter()
                .map(|s| s.bytes().enumerate().filter(|&(_, c)| c == b'#').map(|(i, _)| 1u16 << i).sum::<u16>()),
        );
        rows
    }

    #[test]
    fn features_by_hand() {
        assert_eq!(Baseline::features(&[0; 16]), BaselineFeatures::default());
        assert_eq!(Baseline::evaluate(&Baseline, &[0; 16]), 0.0);
        let w = well(&[
            "#.........", //
            "#..#......",
            "###.######",
        ]);
        let f = Baseline::features(&w);
        // One hole (under the column-3 cell).
        assert_eq!((f.holes, f.hole_rows), (1, 1));
        // Column heights 3,1,1,2,1,1,1,1,1,1.
        assert_eq!((f.aggregate_height, f.max_height), (13, 3));
        // Row transitions (walls filled, minus 2 per row): 0 + 2 + 0.
        assert_eq!(f.row_transitions, 2);
        // Empty space above the stack, then down to the floor: column 3
        // changes three times (surface, hole, floor), every other column once.
        assert_eq!(f.column_transitions, 12);
        // No open wells: column 1 and 2 are empty above filled cells but
        // have an empty neighbour.
        assert_eq!(f.well_depth, 0);
        let w = well(&["#.##......", "#.##......", "#.##......", "#.##.#####"]);
        // A 4-deep open well in column 1: 1 + 2 + 3 + 3 = 9; column 4's
        // single-cell gap at the bottom row is open with both sides filled: 1.
        assert_eq!(Baseline::features(&w).well_depth, 10);
    }

    proptest::proptest! {
        /// The fast path (AVX2 on standard wells where the CPU has it)
        /// counts exactly what the scalar loop counts, stray high bits,
        /// empty wells and full rows included.
        #[test]
        fn fast_features_match_the_scalar_loop(
            rows in proptest::collection::vec(proptest::prelude::any::<u16>(), 16),
            stack in 0usize..=16,
            thin in proptest::prelude::any::<u16>(),
        ) {
            // A stack of `stack` rows, thinned above to look like a game's.
            let mut w = rows.clone();
            for (i, r) in w.iter_mut().enumerate() {
                if i < 16 - stack {
                    *r &= !FULL;
                } else if i < 16 - stack / 2 {
                    *r &= thin | !FULL;
                }
            }
            // Full rows (a game-over well can keep one) count no row changes.
            let mut full = w.clone();
            full[15] = FULL;
            full[16 - stack.max(1)] |= FULL;
            for well in [rows, w, full] {
                proptest::prop_assert_eq!(Baseline::features(&well), features_impl(&well));
            }
        }
    }

    /// A batch is valued as each well alone: standard wells (the AVX2 batch
    /// where the CPU has it) and, in a mixed batch, smaller ones.
    #[test]
    fn a_batch_is_valued_well_by_well() {
        let mut wells = crate::testing::fixture_wells();
        let alone: Vec<f32> = wells.iter().map(|w| Baseline.evaluate(w)).collect();
        let rows: Vec<&[u16]> = wells.iter().map(|w| w.as_slice()).collect();
        let mut batch = vec![0.0; rows.len()];
        Baseline.evaluate_batch(&rows, &mut batch);
        assert!(batch.len() > 1000 && batch == alone);
        wells[1].truncate(7);
        let rows: Vec<&[u16]> = wells.iter().map(|w| w.as_slice()).collect();
        Baseline.evaluate_batch(&rows, &mut batch);
        assert_eq!(batch[1], Baseline.evaluate(&wells[1]));
        assert_eq!(batch[2..], alone[2..]);
    }

    #[test]
    fn worse_wells_score_lower() {
        let flat = well(&["######.###"]);
        let holes = well(&["#.#.#.....", "######.###"]);
        let tall = well(&["#.........", "#.........", "#.........", "#.........", "######.###"]);
        let b = Baseline;
        assert!(b.evaluate(&[0; 16]) > b.evaluate(&flat));
        assert!(b.evaluate(&flat) > b.evaluate(&holes));
        assert!(b.evaluate(&flat) > b.evaluate(&tall));
        let full = vec![0b11_1111_1110; 16];
        assert!((-1.0..=1.0).contains(&b.evaluate(&full)));
    }
}
