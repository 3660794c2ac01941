//! Quantised inference: the first layer of a [`Network`] in 16-bit integers.
//!
//! [`QuantizedNetwork`] keeps w1 as i16 (491 KB at H = 48 instead of 983 KB
//! of f32, so it fits the L2 cache), sums the rows of a well's active
//! features in i16 lanes (16 per AVX2 register, 3 registers at H = 48), and
//! goes back to f32 for the tanhExp units and the tanh output (with a
//! leaner tanhExp than the f32 network's, `simd::tanh_exp_lean_v`, within
//! about 1e-6 of it). Hidden sizes are padded to a multiple of 16 with zero
//! weights; up to 128 units run in AVX2 (with FMA and BMI2), others and
//! other CPUs in a portable integer kernel with the same sums.
//!
//! * Scale: one per hidden unit, `s_j`, chosen from that unit's largest
//!   |weight| so that no sum of a *group* can leave i16 (below); the
//!   weights are `round_ties_even(w * s_j)`, rounding to nearest with ties
//!   to even, so the rounding errors stay symmetric around zero.
//! * Groups: a well is summed band by band (`features::walk_folded`): a
//!   band's group is its 10 windows and at most its top row, and the two
//!   bottom rows make a last group; each group is widened into i32 lanes
//!   when it ends. With `W_j` and `R_j` the largest |quantised weight| of
//!   unit j among window and row features (every row slot may see any of
//!   the 1024 indices `r & 0x3FF`), every partial sum of a group is at most
//!   `max(10 W_j + R_j, 2 R_j) <= s_j max(10 w_j + r_j, 2 r_j) + 11 / 2 <=
//!   32767` by the choice of `s_j` (`w_j`, `r_j` the f32 maxima; each
//!   rounding adds at most 1/2), whatever the rows are; [`QuantizedNetwork::new`]
//!   checks it again in integers. Summing a whole well (156 features) in
//!   i16 would need a scale about 14 times smaller: on the wells of the
//!   fixture games that gives output errors up to 4e-2, against 1.9e-3 here.
//! * Exact parts: the bias and the empty top of the well (k empty rows, and
//!   the k - 3 bands inside them) are added in f32 from the f32 weights.
//! * Band cache: a band's group sum depends only on the band's four rows
//!   (whether it is on the floor, whether its top row is folded), and the
//!   wells a search evaluates share most of their bands (a child differs
//!   from its parent in a few rows, line clears only shift them), so the
//!   AVX2 kernel keeps each thread's recent group sums in a direct-mapped
//!   table keyed by those rows (4096 entries, 416 KB at H = 48): a hit is
//!   one 96-byte load instead of eleven. This is the incremental path, with
//!   no parent needed: a child's unchanged bands are hits. It changes no
//!   value, integer sums being exact; [`QuantizedNetwork::with_band_cache`]
//!   turns it off.
//!
//! * Heads: `evaluate_batch` runs the f32 head (dequantisation, tanhExp,
//!   the output) of four wells together, whose chains of dependent
//!   multiply-adds then interleave; each lane computes what it would alone
//!   (same bits, tested).
//! * Incremental (off by default, [`QuantizedNetwork::with_incremental`]):
//!   `evaluate_family` keeps the parent's band groups as i32 prefix sums
//!   and takes each run of bands a child or a clear left unchanged
//!   (possibly shifted down by the cleared rows) in one subtraction,
//!   summing only the bands that changed. Exact (integer sums, tested bit
//!   for bit), but it measured no faster than the band cache, which already
//!   makes an unchanged band one load.
//!
//! The error against the f32 network is the rounding of at most 156 weights
//! per unit; [`QuantizedNetwork::error_bound`] is its worst case (0.13 for
//! the embedded network), and the tests measure the real one on the 3313
//! distinct wells of the fixture games: at most 1.9e-3, 1.9e-4 on average,
//! for outputs in [-1, 1]. Searches with either network find the same
//! scores (widths 300 to 3000).
//!
//! The CLI's `net` evaluators (`hatetris search`, `play`) use this path by
//! default; the [`Network`] itself, which training and the learning cycle
//! use, stays f32.

use crate::evaluator::Evaluator;
use crate::features::{
    active_count, walk_folded, FeatureSink, GROUP_ROWS, GROUP_WINDOWS, NUM_FEATURES, ROWS_ONLY_GROUP, ROW_FEATURES,
    WINDOW_EMPTY, WINDOW_LEFT_WALL, WINDOW_RIGHT_WALL,
};
use crate::network::Network;
use crate::simd;

/// i16 lanes per block (one AVX2 register).
const LANES: usize = 16;

/// The largest |d/dx x tanh(e^x)| is 1.06198 (at x = 0.6966); rounded up.
const TANH_EXP_SLOPE: f32 = 1.07;

/// Per unit, per unit of max(1, |pre-activation|): what the f32 arithmetic
/// may add to the error (the lean tanhExp is within 1e-6, f32 roundings of
/// the pre-activation and of the head's sums add a few 1e-7).
const F32_SLACK: f32 = 4e-6;

/// One register's worth of a feature's weights, aligned so that no load
/// straddles a cache line.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
struct Block([i16; LANES]);

/// A [`Network`] with w1 quantised to i16 (see the module doc). Build it
/// with [`QuantizedNetwork::new`] or `From<&Network>`.
#[derive(Clone)]
pub struct QuantizedNetwork {
    /// Which band sums a thread's cache may use for this network.
    id: u64,
    /// Whether the AVX2 kernel uses the band cache.
    band_cache: bool,
    /// Whether `evaluate_family` derives wells from the parent's sums
    /// (see `with_incremental`).
    incremental: bool,
    /// The SIMD kernels for this CPU and size, if any.
    kernel: Option<Kernels>,
    /// The source network's hidden size; the arrays below are padded to a
    /// multiple of 16 with zero weights (a padded unit contributes
    /// `0 * tanhExp(0)`).
    hidden: usize,
    /// `NUM_FEATURES * blocks`, feature-major: feature f is blocks
    /// `f * blocks..(f + 1) * blocks`.
    w1: Vec<Block>,
    /// Per unit: `s_j`, quantised = f32 * s_j.
    scale: Vec<f32>,
    inv_scale: Vec<f32>,
    b1: Vec<f32>,
    /// The f32 w1 row of an empty row (pattern 0).
    empty_row: Vec<f32>,
    /// The f32 w1 rows of an empty band: 8 empty windows, one against each wall.
    empty_band: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    /// See [`QuantizedNetwork::error_bound`].
    error_bound: f32,
}

impl std::fmt::Debug for QuantizedNetwork {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QuantizedNetwork")
            .field("hidden", &self.hidden)
            .field("band_cache", &self.band_cache)
            .field("scales", &self.scales())
            .finish_non_exhaustive()
    }
}

impl From<&Network> for QuantizedNetwork {
    fn from(net: &Network) -> QuantizedNetwork {
        QuantizedNetwork::new(net)
    }
}

impl QuantizedNetwork {
    /// Quantises `net` (see the module doc for the scale); a few ms at
    /// H = 48. Panics if a weight is not finite.
    pub fn new(net: &Network) -> QuantizedNetwork {
        net.check_shape();
        let h = net.hidden;
        let padded = h.next_multiple_of(LANES);
        let blocks = padded / LANES;
        // A row slot sees `r & 0x3FF`, up to 1023: that is window 0's index,
        // so the row range includes it (rows given to `evaluate` are not
        // checked, and the bound must hold for any).
        let row_range = 0..ROW_FEATURES + 1;
        let window_range = ROW_FEATURES..NUM_FEATURES;
        // Per unit, the largest |weight| of a row and of a window feature.
        let (mut rows_max, mut windows_max) = (vec![0f64; h], vec![0f64; h]);
        for (f, w) in net.w1.chunks_exact(h).enumerate() {
            for (j, &w) in w.iter().enumerate() {
                assert!(w.is_finite(), "network has a weight that is not finite (w1 of feature {f})");
                if row_range.contains(&f) {
                    rows_max[j] = rows_max[j].max(w.abs() as f64);
                }
                if window_range.contains(&f) {
                    windows_max[j] = windows_max[j].max(w.abs() as f64);
                }
            }
        }
        assert!(
            net.b1.iter().chain(&net.w2).chain([&net.b2]).all(|w| w.is_finite()),
            "network has a weight that is not finite (b1, w2 or b2)"
        );
        let limit = i16::MAX as i64;
        // The largest |sum| of a group for largest |weights| `w` (windows)
        // and `r` (rows): a band's group or the rows-only group.
        let group_bound =
            |w: f64, r: f64| (GROUP_WINDOWS as f64 * w + GROUP_ROWS as f64 * r).max(ROWS_ONLY_GROUP as f64 * r);
        // Rounding adds at most 1/2 per weight of a group.
        let slack = (GROUP_WINDOWS + GROUP_ROWS).max(ROWS_ONLY_GROUP) as f64 / 2.0;
        let mut scale = vec![1f32; padded];
        for (j, s) in scale.iter_mut().enumerate().take(h) {
            let bound = group_bound(windows_max[j], rows_max[j]);
            if bound > 0.0 {
                *s = ((limit as f64 - slack) / bound) as f32;
            }
        }
        let mut w1 = vec![Block([0; LANES]); NUM_FEATURES * blocks];
        let (mut max_row, mut max_window) = (vec![0i64; padded], vec![0i64; padded]);
        for f in 0..NUM_FEATURES {
            for j in 0..h {
                let q = (net.w1[f * h + j] as f64 * scale[j] as f64).round_ties_even();
                // |q| < 16384 by the choice of s: the cast is exact.
                let q = q as i16;
                w1[f * blocks + j / LANES].0[j % LANES] = q;
                let m = (q as i64).abs();
                if row_range.contains(&f) {
                    max_row[j] = max_row[j].max(m);
                }
                if window_range.contains(&f) {
                    max_window[j] = max_window[j].max(m);
                }
            }
        }
        for j in 0..h {
            let worst = group_bound(max_window[j] as f64, max_row[j] as f64);
            assert!(worst <= limit as f64, "quantised group sum of unit {j} can reach {worst}");
        }
        let active = active_count(16) as f64;
        let error_bound = (0..h)
            .map(|j| {
                let largest_z = net.b1[j].abs() as f64 + 16.0 * rows_max[j] + 140.0 * windows_max[j];
                let rounding = TANH_EXP_SLOPE as f64 * active * 0.5 / scale[j] as f64;
                net.w2[j].abs() as f64 * (rounding + F32_SLACK as f64 * largest_z.max(1.0))
            })
            .sum::<f64>() as f32
            + F32_SLACK;
        let pad = |v: Vec<f32>| {
            let mut v = v;
            v.resize(padded, 0.0);
            v
        };
        let row_of = |f: usize| pad(net.w1[f * h..(f + 1) * h].to_vec());
        let window = |p: u16| row_of(ROW_FEATURES + p as usize);
        let (empty, left, right) = (window(WINDOW_EMPTY), window(WINDOW_LEFT_WALL), window(WINDOW_RIGHT_WALL));
        let empty_band = (0..padded).map(|j| 8.0 * empty[j] + left[j] + right[j]).collect();
        QuantizedNetwork {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            band_cache: true,
            incremental: false,
            #[cfg(target_arch = "x86_64")]
            kernel: avx2::select(blocks),
            #[cfg(not(target_arch = "x86_64"))]
            kernel: None,
            hidden: h,
            w1,
            inv_scale: scale.iter().map(|s| 1.0 / s).collect(),
            scale,
            b1: pad(net.b1.clone()),
            empty_row: row_of(0),
            empty_band,
            w2: pad(net.w2.clone()),
            b2: net.b2,
            error_bound,
        }
    }

    /// The same network with the band cache on (the default) or off; the
    /// values are the same either way, only the speed differs.
    pub fn with_band_cache(mut self, on: bool) -> QuantizedNetwork {
        self.band_cache = on;
        self
    }

    /// The same network with `evaluate_family` deriving each well's sums
    /// from its parent's (NNUE's incremental accumulator, by band: only the
    /// bands a placement or a clear changed are summed), or not (the
    /// default: every well in full, through the band cache). The values are
    /// the same bit for bit either way. Off by default because it measured
    /// slower: the band cache already makes an unchanged band one load, and
    /// finding the unchanged bands and their runs costs as much (`hatetris
    /// bench --only family`, docs/experiments.md).
    pub fn with_incremental(mut self, on: bool) -> QuantizedNetwork {
        self.incremental = on;
        self
    }

    /// The source network's hidden size.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The scale of each hidden unit: a quantised weight is the f32 one
    /// times this, rounded.
    pub fn scales(&self) -> &[f32] {
        &self.scale[..self.hidden]
    }

    /// The worst case of |this network's output - the f32 network's exact
    /// output| for wells of up to 16 rows: per unit j, at most 156
    /// quantised weights, each off by at most `1 / (2 s_j)`, through
    /// tanhExp (slope at most 1.07) and w2, plus the f32 arithmetic on a
    /// pre-activation of at most |b1| + 16 (largest row weight) + 140
    /// (largest window weight); tanh's slope is at most 1. Real wells see
    /// far less (the rounding errors are symmetric and mostly cancel).
    pub fn error_bound(&self) -> f32 {
        self.error_bound
    }

    fn blocks(&self) -> usize {
        self.w1.len() / NUM_FEATURES
    }

    /// The first-layer pre-activation of unit j from its i32 sum and the
    /// folded empty top.
    #[inline(always)]
    fn dequantise(&self, j: usize, sum: i32, folded: crate::features::Folded) -> f32 {
        let base = self.b1[j] + folded.rows as f32 * self.empty_row[j] + folded.bands as f32 * self.empty_band[j];
        sum as f32 * self.inv_scale[j] + base
    }
}

/// The SIMD kernels of one network size: `batch` evaluates wells into
/// `out`, `family` is `Evaluator::evaluate_family`.
#[derive(Clone, Copy)]
struct Kernels {
    batch: unsafe fn(&QuantizedNetwork, &[&[u16]], &mut [f32]),
    family: unsafe fn(&QuantizedNetwork, Family<'_>),
}

/// The arguments of `Evaluator::evaluate_family`.
struct Family<'a> {
    parent: Option<&'a [u16]>,
    children: &'a [&'a [u16]],
    derived: &'a [&'a [u16]],
    child_values: &'a mut [f32],
    derived_values: &'a mut [f32],
}

/// Distinct ids for networks, so that a thread's band cache knows whose
/// sums it holds (clones share theirs: same weights).
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The portable kernel: 16 units at a time, plain integers.
struct Chunk<'a> {
    w1: &'a [Block],
    blocks: usize,
    block: usize,
    acc16: [i16; LANES],
    acc32: [i32; LANES],
}

impl FeatureSink for Chunk<'_> {
    #[inline(always)]
    unsafe fn add(&mut self, f: usize) {
        let b = self.w1.get_unchecked(f * self.blocks + self.block);
        for (a, w) in self.acc16.iter_mut().zip(b.0) {
            // Never overflows (module doc); plain `+` so that debug builds
            // would catch it if it did.
            *a += w;
        }
    }
    #[inline(always)]
    fn end_group(&mut self) {
        for (a32, a16) in self.acc32.iter_mut().zip(&mut self.acc16) {
            *a32 += *a16 as i32;
            *a16 = 0;
        }
    }
}

fn evaluate_portable(q: &QuantizedNetwork, rows: &[u16]) -> f32 {
    let blocks = q.blocks();
    let mut sum = 0f32;
    for block in 0..blocks {
        let mut chunk = Chunk { w1: &q.w1, blocks, block, acc16: [0; LANES], acc32: [0; LANES] };
        let folded = walk_folded(rows, &mut chunk);
        for (l, &s) in chunk.acc32.iter().enumerate() {
            let j = block * LANES + l;
            sum += q.w2[j] * simd::tanh_exp_lean(q.dequantise(j, s, folded));
        }
    }
    simd::tanh_fast(sum + q.b2)
}

#[cfg(target_arch = "x86_64")]
mod avx2;

impl Evaluator for QuantizedNetwork {
    fn evaluate(&self, rows: &[u16]) -> f32 {
        let mut out = [0f32];
        self.evaluate_batch(&[rows], &mut out);
        out[0]
    }

    fn evaluate_batch(&self, wells: &[&[u16]], out: &mut [f32]) {
        if let Some(kernel) = self.kernel {
            // SAFETY: `avx2::select` chose it for this CPU and size.
            return unsafe { (kernel.batch)(self, wells, out) };
        }
        for (w, o) in wells.iter().zip(out) {
            *o = evaluate_portable(self, w);
        }
    }

    fn evaluate_family(
        &self,
        parent: Option<&[u16]>,
        children: &[&[u16]],
        derived: &[&[u16]],
        from: &[u32],
        child_values: &mut [f32],
        derived_values: &mut [f32],
    ) {
        assert!(
            child_values.len() == children.len()
                && derived_values.len() == derived.len()
                && from.len() == derived.len()
                && from.iter().all(|&i| (i as usize) < children.len()),
            "evaluate_family: lengths differ or a derived well names no child"
        );
        match self.kernel.filter(|_| self.incremental) {
            // SAFETY: `avx2::select` chose it for this CPU and size.
            Some(kernel) => unsafe {
                (kernel.family)(self, Family { parent, children, derived, child_values, derived_values })
            },
            None => {
                self.evaluate_batch(children, child_values);
                self.evaluate_batch(derived, derived_values);
            }
        }
    }

    fn name(&self) -> String {
        format!("network-h{}-i16", self.hidden)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{fixture_wells, network, well};
    use proptest::prelude::*;

    /// The largest |error| against the f32 network measured on the 3313
    /// distinct wells of the fixture games with the embedded network
    /// (generation 34) is 3.5e-3 (mean 3.0e-4, worst-case bound 0.37), for an
    /// output in [-1, 1]; the test allows 6e-3 (mean 5e-4, bound 0.5).
    /// These are looser than d4's (1.9e-3, bound under 0.2) because each
    /// unit's i16 scale is fitted to its largest weight and the generations'
    /// weights are larger; the searches that made and measured the network
    /// ran on this same quantised form, so its figures already include it.
    #[test]
    fn embedded_network_on_fixture_wells() {
        let net = Network::embedded_default();
        let q = QuantizedNetwork::new(&net);
        let wells = fixture_wells();
        assert!(wells.len() > 3000, "{} wells", wells.len());
        let (mut worst, mut sum) = (0f32, 0f64);
        for rows in &wells {
            let e = (q.evaluate(rows) - net.evaluate(rows)).abs();
            worst = worst.max(e);
            sum += e as f64;
        }
        let mean = sum / wells.len() as f64;
        eprintln!(
            "{} fixture wells: largest |i16 - f32| {worst:.2e}, mean {mean:.2e}, worst-case bound {:.3}",
            wells.len(),
            q.error_bound()
        );
        assert!(worst <= 6e-3 && mean <= 5e-4, "largest {worst:e}, mean {mean:e}");
        assert!(worst <= q.error_bound() && q.error_bound() < 0.5);
    }

    /// Both kernels and the cache, on one well: the integer sums are exact,
    /// so the cached and uncached AVX2 results are identical and the
    /// portable one differs only by the order of its f32 head sums.
    fn kernels(q: &QuantizedNetwork, rows: &[u16]) -> Vec<f32> {
        let uncached = q.clone().with_band_cache(false);
        let v = vec![q.evaluate(rows), q.evaluate(rows), uncached.evaluate(rows), evaluate_portable(q, rows)];
        assert_eq!(v[0].to_bits(), v[1].to_bits());
        assert_eq!(v[0].to_bits(), v[2].to_bits());
        assert!((v[0] - v[3]).abs() <= 1e-5, "{v:?}");
        v
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn within_error_bound_of_reference(net in network(vec![8, 16, 24, 48, 72]), rows in well()) {
            let q = QuantizedNetwork::new(&net);
            let reference = net.reference_forward(&rows);
            for v in kernels(&q, &rows) {
                prop_assert!((v - reference).abs() <= q.error_bound(), "{v} vs reference {reference}, bound {}", q.error_bound());
                prop_assert!((-1.0..=1.0).contains(&v));
            }
        }
    }

    /// Networks evaluated in turn on one thread, as a `Mean`'s members are,
    /// more of them than the thread has cache ways: each keeps exactly its
    /// uncached values, whichever cache it shares or evicts.
    #[test]
    fn networks_in_turn_keep_their_values() {
        let nets: Vec<QuantizedNetwork> = (0..11).map(|s| QuantizedNetwork::new(&Network::random(48, s))).collect();
        let plain: Vec<QuantizedNetwork> = nets.iter().map(|q| q.clone().with_band_cache(false)).collect();
        for rows in fixture_wells().iter().step_by(13) {
            for _ in 0..2 {
                for (q, p) in nets.iter().zip(&plain) {
                    assert_eq!(q.evaluate(rows).to_bits(), p.evaluate(rows).to_bits());
                }
            }
        }
    }

    /// All weights equal: every band's group sum is as large as the scale
    /// allows (10 windows and a row of the largest weight), and nothing wraps.
    #[test]
    fn largest_group_sums_do_not_overflow() {
        for (hidden, c) in [(48, 0.7f32), (24, -1.3), (144, 0.05)] {
            let mut net = Network::random(hidden, 1);
            net.w1.iter_mut().for_each(|w| *w = c);
            net.w2.iter_mut().for_each(|w| *w = 0.01);
            let q = QuantizedNetwork::new(&net);
            let m = (c.abs() as f64 * q.scales()[0] as f64).round_ties_even() as i64;
            assert!(11 * m <= 32767 && 11 * (m + 1) > 32767, "{m}");
            let full = [0b01_1111_1111u16; 16];
            for rows in [&full[..], &full[..3], &[0, 0, 0, 5][..], &[0; 16][..], &[1, 2][..]] {
                let reference = net.reference_forward(rows);
                for v in kernels(&q, rows) {
                    assert!((v - reference).abs() <= q.error_bound(), "hidden {hidden}: {v} vs {reference}");
                }
            }
        }
    }

    /// Rounding is to nearest with ties to even, so w and -w quantise to
    /// opposite values and ties do not drift one way.
    #[test]
    fn rounding_is_symmetric_ties_to_even() {
        let mut net = Network::random(16, 3);
        let h = net.hidden;
        net.w1.iter_mut().for_each(|w| *w = 0.0);
        let window = |p: usize| (ROW_FEATURES + 1 + p) * h;
        // Unit 0: largest window weight 1, no row weight, so
        // s = (32767 - 11 / 2) / 10.
        net.w1[window(0)] = 1.0;
        let s = QuantizedNetwork::new(&net).scales()[0];
        assert_eq!(s, 3276.15);
        let tie = |k: f32| (k + 0.5) / s; // w * s is k + 1/2 to f32 precision
        let values = [tie(2.0), -tie(2.0), tie(3.0), -tie(3.0), 0.25 / s, -0.25 / s];
        for (i, &w) in values.iter().enumerate() {
            net.w1[window(i + 1)] = w;
        }
        let q = QuantizedNetwork::new(&net);
        assert_eq!(q.scales()[0], s);
        let got: Vec<i16> = (1..=values.len()).map(|i| q.w1[window(i) / h * q.blocks()].0[0]).collect();
        // Exactly what f64 rounding with ties to even says, symmetric.
        let want: Vec<i16> = values.iter().map(|&w| (w as f64 * s as f64).round_ties_even() as i16).collect();
        assert_eq!(got, want);
        assert_eq!(got[0], -got[1]);
        assert_eq!(got[2], -got[3]);
        assert_eq!(&got[4..], &[0, 0]);
    }

    /// Wells made from `parent` as a beam entry's family is: children by
    /// a placement (cells added to up to four consecutive rows), wells
    /// derived from a child by another placement and a clear (up to four
    /// rows removed, empty rows in at the top), and some wells unrelated
    /// or of another height; `from` is shuffled.
    #[allow(clippy::type_complexity)]
    fn family_of(parent: &[u16], seed: u64) -> (Vec<Vec<u16>>, Vec<Vec<u16>>, Vec<u32>) {
        let mut rng = seed | 1;
        let mut next = |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n.max(1)
        };
        let h = parent.len();
        let place = |rows: &mut Vec<u16>, next: &mut dyn FnMut(u64) -> u64| {
            let at = next(h as u64) as usize;
            for r in rows.iter_mut().skip(at).take(1 + next(4) as usize) {
                *r |= next(1024) as u16;
                if *r == 1023 {
                    *r = 1022;
                }
            }
        };
        let mut children = Vec::new();
        for _ in 0..1 + next(30) {
            let mut c = parent.to_vec();
            match next(12) {
                0 => c = (0..h).map(|_| next(1023) as u16).collect(),
                1 => c.push(0),
                2 => {}
                _ => place(&mut c, &mut next),
            }
            children.push(c);
        }
        let (mut derived, mut from) = (Vec::new(), Vec::new());
        for (i, c) in children.iter().enumerate() {
            for _ in 0..next(5) {
                let mut d = c.clone();
                if next(8) == 0 {
                    d.iter_mut().for_each(|r| *r = next(1023) as u16);
                } else {
                    if next(4) != 0 {
                        place(&mut d, &mut next);
                    }
                    for _ in 0..next(5) {
                        d.remove(next(d.len() as u64) as usize);
                        d.insert(0, 0);
                    }
                }
                derived.push(d);
                from.push(i as u32);
            }
        }
        // The same pairs in a scrambled order.
        let mut pairs: Vec<(Vec<u16>, u32)> = derived.into_iter().zip(from).collect();
        for i in (1..pairs.len()).rev() {
            pairs.swap(i, next(i as u64 + 1) as usize);
        }
        let (derived, from) = pairs.into_iter().unzip();
        (children, derived, from)
    }

    /// `evaluate_family`, with the parent and without, against each well
    /// evaluated alone: bit for bit, the band cache on and off, the
    /// incremental path and the batch one (whose heads run four wells at
    /// a time, against one alone here).
    fn family_is_exact(q: &QuantizedNetwork, parent: &[u16], seed: u64) {
        let (children, derived, from) = family_of(parent, seed);
        let c: Vec<&[u16]> = children.iter().map(|w| &w[..]).collect();
        let d: Vec<&[u16]> = derived.iter().map(|w| &w[..]).collect();
        let incremental = q.clone().with_incremental(true);
        for q in [q.clone(), q.clone().with_band_cache(false), incremental.clone(), incremental.with_band_cache(false)]
        {
            for parent in [Some(parent), None] {
                let (mut cv, mut dv) = (vec![0f32; c.len()], vec![0f32; d.len()]);
                q.evaluate_family(parent, &c, &d, &from, &mut cv, &mut dv);
                for (w, v) in c.iter().zip(&cv).chain(d.iter().zip(&dv)) {
                    assert_eq!(v.to_bits(), q.evaluate(w).to_bits(), "{w:?} from {parent:?}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn family_values_are_the_full_evaluations(
            net in network(vec![8, 16, 40, 48, 72]),
            parent in well(),
            seed in any::<u64>(),
        ) {
            family_is_exact(&QuantizedNetwork::new(&net), &parent, seed);
        }
    }

    /// The same on the wells of real games, with the embedded network.
    #[test]
    fn family_values_on_fixture_wells() {
        let q = QuantizedNetwork::new(&Network::embedded_default());
        for (i, w) in fixture_wells().iter().enumerate().step_by(7) {
            family_is_exact(&q, w, i as u64 + 1);
        }
    }

    #[test]
    fn names_and_sizes() {
        let net = Network::random(24, 2);
        let q = QuantizedNetwork::from(&net);
        assert_eq!(q.name(), "network-h24-i16");
        assert_eq!(q.hidden(), 24);
        assert_eq!(q.scales().len(), 24);
        assert_eq!(q.w1.len(), NUM_FEATURES * 2);
        assert_eq!(q.w1.as_ptr() as usize % 32, 0);
        let wells: Vec<&[u16]> = vec![&[0; 16], &[0, 0, 7, 9], &[3; 5]];
        let mut out = [0f32; 3];
        q.evaluate_batch(&wells, &mut out);
        for (w, o) in wells.iter().zip(out) {
            assert_eq!(o.to_bits(), q.evaluate(w).to_bits());
        }
    }
}
