//! The AVX2 kernels of [`QuantizedNetwork`](super::QuantizedNetwork):
//! batches and families of wells summed in i16 registers, with the band
//! cache and the incremental family path (see the parent module's doc).

use super::{Block, Family, Kernels, QuantizedNetwork, LANES, NUM_FEATURES, ROW_FEATURES};
use crate::features::{band, for_each_window_shifted, walk_folded, FeatureSink, Folded};
use crate::network::head;
use crate::simd::{Avx2, Lanes, Lean};
use std::arch::x86_64::*;

/// log2 of the band cache's slots.
const CACHE_BITS: u32 = 12;
const SLOTS: usize = 1 << CACHE_BITS;

/// Band groups already summed (see the module doc), per thread: a
/// direct-mapped table from a group's key to its i16 sum, for one
/// network at a time.
struct BandCache {
    /// `QuantizedNetwork::id` of the sums held (0: none).
    owner: u64,
    /// SLOTS keys, and the SLOTS sums of B blocks.
    keys: Vec<u64>,
    sums: Vec<Block>,
}

/// Band caches per thread, one for each of up to CACHE_WAYS networks
/// (chosen by id): the members of a `Mean` evaluate in turn, and one
/// shared cache was emptied at every switch (a mean of three searched
/// in 1.6-2 times the time it takes with a cache each).
const CACHE_WAYS: usize = 8;

thread_local! {
    static BAND_CACHE: std::cell::RefCell<Vec<BandCache>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl BandCache {
    /// Pointers to the keys and sums, the cache emptied first for `q`
    /// unless it already holds q's sums.
    #[inline(always)]
    fn prepare(&mut self, q: &QuantizedNetwork) -> Table {
        if self.owner != q.id {
            self.reset(q);
        }
        Table { keys: self.keys.as_mut_ptr(), sums: self.sums.as_mut_ptr().cast() }
    }

    #[cold]
    fn reset(&mut self, q: &QuantizedNetwork) {
        // No real key is zero (bit 63 is set in all).
        self.keys = vec![0; SLOTS];
        self.sums = vec![Block([0; LANES]); SLOTS * q.blocks()];
        self.owner = q.id;
    }

    /// The key of the group of the band topped by `top` (see
    /// `FeatureSink::band_group`): the band's rows, masked to 10 bits,
    /// 16 bits apart, with 0x7FFF (no masked row) in the place of the
    /// floor for the band on the floor; `top_row` at bit 42; bit 63.
    #[inline(always)]
    fn key(rows: &[u16], top: usize, top_row: bool) -> u64 {
        const ROWS: u64 = 0x03FF_03FF_03FF_03FF;
        let four = if top + 4 <= rows.len() {
            // SAFETY: rows[top..top + 4] is in bounds.
            unsafe { rows.as_ptr().add(top).cast::<u64>().read_unaligned() & ROWS }
        } else {
            let r = &rows[top..top + 3];
            let three = r[0] as u64 | (r[1] as u64) << 16 | (r[2] as u64) << 32;
            three & ROWS | 0x7FFF << 48
        };
        // x86_64 is little-endian: row top in the low bits, as by hand.
        four | (top_row as u64) << 42 | 1 << 63
    }

    #[inline(always)]
    fn slot(key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - CACHE_BITS)) as usize
    }
}

// SAFETY (every unsafe block of this module): the code only runs inside
// `batch`, compiled for AVX2+FMA+BMI2 and called after checking the CPU
// has them; pointer offsets are explained where they are made.

/// B i16 registers (16 units each), widened into N8 = 2 B i32 registers.
struct Sink<const B: usize, const N8: usize> {
    w1: *const __m256i,
    acc16: [__m256i; B],
    acc32: [__m256i; N8],
    /// The band cache, or null pointers (no cache).
    table: Table,
}

/// A band cache's SLOTS keys and SLOTS * B sums.
#[derive(Clone, Copy)]
struct Table {
    keys: *mut u64,
    sums: *mut __m256i,
}

impl<const B: usize, const N8: usize> Sink<B, N8> {
    /// Empty sums for `q`'s weights.
    #[inline(always)]
    fn new(q: &QuantizedNetwork, table: Table) -> Sink<B, N8> {
        let zero = unsafe { _mm256_setzero_si256() };
        Sink { w1: q.w1.as_ptr().cast(), acc16: [zero; B], acc32: [zero; N8], table }
    }

    /// The i16 sum of a band's group (see `FeatureSink::band_group`):
    /// the windows packed in `words`, and `row` if any.
    #[inline(always)]
    fn group_sum(&self, words: [u64; 2], row: Option<u16>) -> [__m256i; B] {
        unsafe {
            let mut sum = [_mm256_setzero_si256(); B];
            let mut add = |row: *const __m256i| {
                for (i, a) in sum.iter_mut().enumerate() {
                    *a = _mm256_add_epi16(*a, _mm256_load_si256(row.add(i)));
                }
            };
            // Window p's blocks start B * 32 p bytes after the first
            // window's.
            let windows = self.w1.add(ROW_FEATURES * B).cast::<u8>();
            for_each_window_shifted(words, 5, |off| add(windows.add(B * off).cast()));
            if let Some(r) = row {
                // Row features are r & 0x3FF <= 1023 < NUM_FEATURES.
                add(self.w1.add((r & 0x3FF) as usize * B));
            }
            sum
        }
    }

    /// `acc32 += ` the B i16 registers at `p`, sign-extended.
    #[inline(always)]
    unsafe fn widen_add(&mut self, p: *const __m128i) {
        for (i, a) in self.acc32.iter_mut().enumerate() {
            *a = _mm256_add_epi32(*a, _mm256_cvtepi16_epi32(_mm_load_si128(p.add(i))));
        }
    }
}

impl<const B: usize, const N8: usize> FeatureSink for Sink<B, N8> {
    #[inline(always)]
    unsafe fn add(&mut self, f: usize) {
        // In bounds: f < NUM_FEATURES and w1 has NUM_FEATURES * B
        // blocks, 32-byte aligned.
        let row = self.w1.add(f * B);
        for (i, a) in self.acc16.iter_mut().enumerate() {
            *a = _mm256_add_epi16(*a, _mm256_load_si256(row.add(i)));
        }
    }

    #[inline(always)]
    fn end_group(&mut self) {
        unsafe {
            let acc16 = self.acc16;
            self.widen_add(acc16.as_ptr().cast());
            self.acc16 = [_mm256_setzero_si256(); B];
        }
    }

    #[inline(always)]
    fn band_group(&mut self, rows: &[u16], top: usize, top_row: bool) {
        let row = top_row.then(|| rows[top]);
        unsafe {
            let Table { keys, sums } = self.table;
            if keys.is_null() {
                let sum = self.group_sum(band(rows, top), row);
                return self.widen_add(sum.as_ptr().cast());
            }
            let key = BandCache::key(rows, top, top_row);
            let slot = BandCache::slot(key);
            // In bounds: slot < SLOTS.
            let entry = sums.add(slot * B);
            if *keys.add(slot) != key {
                *keys.add(slot) = key;
                let sum = self.group_sum(band(rows, top), row);
                for (i, s) in sum.iter().enumerate() {
                    _mm256_store_si256(entry.add(i), *s);
                }
            }
            self.widen_add(entry.cast());
        }
    }
}

#[inline(always)]
fn evaluate<const B: usize, const N8: usize>(q: &QuantizedNetwork, rows: &[u16], table: Table) -> f32 {
    let (acc, folded) = sums::<B, N8>(q, rows, table);
    finish::<N8>(q, &acc, folded)
}

/// A well's i32 sums and folded top, by a full walk.
#[inline(always)]
fn sums<const B: usize, const N8: usize>(q: &QuantizedNetwork, rows: &[u16], table: Table) -> ([__m256i; N8], Folded) {
    assert!(q.w1.len() == NUM_FEATURES * B && N8 == 2 * B && q.inv_scale.len() == 8 * N8);
    let mut sink = Sink::<B, N8>::new(q, table);
    let folded = walk_folded(rows, &mut sink);
    (sink.acc32, folded)
}

/// The value from a well's i32 sums and its folded top: the same
/// arithmetic for every path, so equal sums give equal bits.
#[inline(always)]
fn finish<const N8: usize>(q: &QuantizedNetwork, acc32: &[__m256i; N8], folded: Folded) -> f32 {
    head::<Lean, _, N8, 1>(&[pre_activation(q, acc32, folded)], &q.w2, q.b2)[0]
}

/// The first layer's pre-activations from a well's i32 sums.
#[inline(always)]
fn pre_activation<const N8: usize>(q: &QuantizedNetwork, acc32: &[__m256i; N8], folded: Folded) -> [Avx2; N8] {
    let (k, m) = (Avx2::splat(folded.rows as f32), Avx2::splat(folded.bands as f32));
    let mut z = [Avx2::splat(0.0); N8];
    for (r, z) in z.iter_mut().enumerate() {
        // In bounds by the assert: every per-unit array has 8 * N8 entries.
        let at = |v: &[f32]| unsafe { Avx2::load(v.as_ptr().add(8 * r)) };
        let base = m.mul_add(at(&q.empty_band), k.mul_add(at(&q.empty_row), at(&q.b1)));
        *z = Avx2(unsafe { _mm256_cvtepi32_ps(acc32[r]) }).mul_add(at(&q.inv_scale), base);
    }
    z
}

/// Wells whose heads run together: the head's chains of dependent
/// multiply-adds are long, and four wells' chains interleave (each
/// lane's arithmetic is the same as alone, so the same bits).
const HEADS: usize = 4;

/// Runs `run` with this thread's band cache for `q`, or without a
/// cache if q has it off (or the cache is in use: never, in practice).
#[inline(always)]
fn with_table<R>(q: &QuantizedNetwork, run: impl FnOnce(Table) -> R) -> R {
    let none = Table { keys: std::ptr::null_mut(), sums: std::ptr::null_mut() };
    if !q.band_cache {
        return run(none);
    }
    // The pointers stay valid while the cache is borrowed, and nothing
    // else touches this thread's cache meanwhile.
    BAND_CACHE.with(|c| match c.try_borrow_mut() {
        Ok(mut caches) => {
            let way = (q.id % CACHE_WAYS as u64) as usize;
            if caches.len() <= way {
                caches.resize_with(way + 1, || BandCache { owner: 0, keys: Vec::new(), sums: Vec::new() });
            }
            run(caches[way].prepare(q))
        }
        Err(_) => run(none),
    })
}

/// # Safety
/// The CPU must have AVX2, FMA and BMI2, and `q` B blocks per feature.
#[target_feature(enable = "avx2,fma,bmi2")]
unsafe fn batch<const B: usize, const N8: usize>(q: &QuantizedNetwork, wells: &[&[u16]], out: &mut [f32]) {
    with_table(q, |table| {
        let mut outs = out.chunks_exact_mut(HEADS);
        for (ws, os) in wells.chunks_exact(HEADS).zip(&mut outs) {
            let z: [[Avx2; N8]; HEADS] = std::array::from_fn(|m| {
                let (acc, folded) = sums::<B, N8>(q, ws[m], table);
                pre_activation(q, &acc, folded)
            });
            os.copy_from_slice(&head::<Lean, _, N8, HEADS>(&z, &q.w2, q.b2));
        }
        let done = wells.len() / HEADS * HEADS;
        for (w, o) in wells[done..].iter().zip(outs.into_remainder()) {
            *o = evaluate::<B, N8>(q, w, table);
        }
    })
}

/// Tallest well the incremental path takes (HATETRIS has 16 playable
/// rows, one register of them); taller and very short wells are summed
/// in full.
const MAX_ROWS: usize = 16;
/// Largest shift tried when matching a band with its base's: the rows
/// a clear removes (S and Z clear at most 2; any piece at most 4).
const MAX_SHIFT: usize = 4;
/// No shift: the band is summed.
const NONE: usize = usize::MAX;
/// Zero rows kept before a base's rows, so that a shifted read stays
/// in its array.
const LEAD: usize = 8;

/// A well's band groups as i32 prefix sums (NNUE's accumulator, by
/// band): a well made from it by a placement (a few rows changed) or a
/// clear (rows removed, the ones above shifted down) takes each run of
/// bands it shares with it in one subtraction, and sums only the bands
/// the change touched. Integer sums: the same bits as a full walk.
struct Base<const N8: usize> {
    /// The well's rows at `LEAD..LEAD + h`, zeros around them.
    rows: [u16; 32],
    /// Rows of the well; 0: no base (nothing matches it).
    h: usize,
    /// First non-empty row.
    k: usize,
    /// First band summed (the ones above it are folded).
    first: usize,
    /// `ps[t]`, `first <= t <= h - 2`: the groups of bands `first..t`.
    ps: [[__m256i; N8]; MAX_ROWS],
}

impl<const N8: usize> Base<N8> {
    fn new() -> Base<N8> {
        Base { rows: [0; 32], h: 0, k: 0, first: 0, ps: [[unsafe { _mm256_setzero_si256() }; N8]; MAX_ROWS] }
    }
}

/// Bits `2t` and `2t + 1` set for each `t` in `from..to` (`to <= 16`).
#[inline(always)]
fn span(from: usize, to: usize) -> u32 {
    let below = |x: usize| ((1u64 << (2 * x)) - 1) as u32;
    below(to) & !below(from.min(to))
}

/// For each shift `s <= MAX_SHIFT`: bit `2t` set when band `t - s` of
/// `base` has the group of band `t` of `rows` (padded to 16 in
/// `mine`, first non-empty row `k`): the same four rows, both on the
/// floor or neither (only band `h - 3` is), the top row counted or
/// folded alike, and summed in the base. Bits 2t + 1 are clear. One
/// compare of all rows per shift, no branch per band.
#[inline(always)]
fn matches<const N8: usize>(base: &Base<N8>, mine: __m256i, h: usize, k: usize) -> [u32; MAX_SHIFT + 1] {
    let bands = span(0, h - 2);
    let at_or_below = |x: usize| !span(0, x.min(16));
    let mut out = [0; MAX_SHIFT + 1];
    for (s, out) in out.iter_mut().enumerate() {
        // Two bits per row: row i of rows against row i - s of base
        // (rows from h on count as equal: only the floor band reads
        // one, and only at shift 0).
        let eq = unsafe {
            let theirs = _mm256_loadu_si256(base.rows.as_ptr().add(LEAD - s).cast());
            _mm256_movemask_epi8(_mm256_cmpeq_epi16(mine, theirs)) as u32
        } | !span(0, h);
        let four = eq & eq >> 2 & eq >> 4 & eq >> 6;
        let top_alike = !(at_or_below(k) ^ at_or_below(base.k + s));
        let summed = at_or_below(base.first + s);
        let floor = if s == 0 { 0 } else { span(h - 3, h - 2) };
        *out = four & top_alike & summed & bands & !floor & 0x5555_5555;
    }
    out
}

/// `acc += ps[e] - ps[a]`.
#[inline(always)]
fn add_range<const N8: usize>(acc: &mut [__m256i; N8], ps: &[[__m256i; N8]; MAX_ROWS], a: usize, e: usize) {
    for (i, x) in acc.iter_mut().enumerate() {
        unsafe { *x = _mm256_add_epi32(*x, _mm256_sub_epi32(ps[e][i], ps[a][i])) }
    }
}

/// The i32 sums and folded top of `rows`, reusing `base` (see [`Base`]:
/// bands that match one of base's are taken from it, the others summed
/// as `evaluate` does); with `out`, `out` becomes rows' own base.
#[inline(always)]
fn sums_from<const B: usize, const N8: usize>(
    q: &QuantizedNetwork,
    base: &Base<N8>,
    rows: &[u16],
    table: Table,
    out: Option<&mut Base<N8>>,
) -> ([__m256i; N8], Folded) {
    let mut sink = Sink::<B, N8>::new(q, table);
    let h = rows.len();
    if !(4..=MAX_ROWS).contains(&h) {
        if let Some(out) = out {
            out.h = 0;
        }
        let folded = walk_folded(rows, &mut sink);
        return (sink.acc32, folded);
    }
    let mut padded = [0u16; 32];
    padded[LEAD..LEAD + h].copy_from_slice(rows);
    let mine = unsafe { _mm256_loadu_si256(padded.as_ptr().add(LEAD).cast()) };
    // The first non-zero row, as `walk_folded` finds it.
    let zeros = unsafe { _mm256_movemask_epi8(_mm256_cmpeq_epi16(mine, _mm256_setzero_si256())) as u32 };
    let k = ((!zeros & span(0, h)).trailing_zeros() as usize / 2).min(h);
    let first = k.saturating_sub(3);
    let mut found = if base.h == h { matches(base, mine, h, k) } else { [0; MAX_SHIFT + 1] };
    // Each band from the smallest shift that matches it.
    let mut taken = !span(first, h - 2);
    for m in &mut found {
        *m &= !taken;
        taken |= *m;
    }
    match out {
        // Every band's prefix is needed: band by band, in order.
        Some(out) => {
            let mut shift = [NONE; MAX_ROWS];
            for (s, &m) in found.iter().enumerate() {
                let mut m = m;
                while m != 0 {
                    shift[m.trailing_zeros() as usize / 2] = s;
                    m &= m - 1;
                }
            }
            for (t, &s) in shift.iter().enumerate().take(h - 2).skip(first) {
                out.ps[t] = sink.acc32;
                match s {
                    NONE => sink.band_group(rows, t, t >= k),
                    s => add_range(&mut sink.acc32, &base.ps, t - s, t - s + 1),
                }
            }
            out.ps[h - 2] = sink.acc32;
            out.rows = padded;
            (out.h, out.k, out.first) = (h, k, first);
        }
        // Each run of bands at one shift in one subtraction.
        None => {
            for (s, &m) in found.iter().enumerate() {
                let mut m = m;
                while m != 0 {
                    // Both bits of each band set: a run is a run of ones.
                    let both = m | m << 1;
                    let a = m.trailing_zeros() as usize / 2;
                    let e = a + (!(both >> (2 * a))).trailing_zeros() as usize / 2;
                    add_range(&mut sink.acc32, &base.ps, a - s, e - s);
                    m &= !span(0, e);
                }
            }
            let mut rest = !taken & 0x5555_5555;
            while rest != 0 {
                let t = rest.trailing_zeros() as usize / 2;
                sink.band_group(rows, t, t >= k);
                rest &= rest - 1;
            }
        }
    }
    // The rows that top no band, as `walk_folded` ends.
    for &r in &rows[k.max(h - 2)..] {
        // SAFETY: r & 0x3FF <= 1023 < NUM_FEATURES.
        unsafe { sink.add((r & 0x3FF) as usize) }
    }
    sink.end_group();
    (sink.acc32, Folded { rows: k, bands: first })
}

/// # Safety
/// As [`batch`].
#[target_feature(enable = "avx2,fma,bmi2")]
unsafe fn family<const B: usize, const N8: usize>(q: &QuantizedNetwork, mut f: Family<'_>) {
    assert!(q.w1.len() == NUM_FEATURES * B && N8 == 2 * B && q.inv_scale.len() == 8 * N8);
    // Every well from the parent's sums: a derived well shares with
    // the parent the bands below its changes and, shifted, those above
    // its clear; the bands its child changed were summed (and cached)
    // for the child. (Deriving from the child instead needs the child's
    // own prefix sums, which cost more to write than they save.)
    with_table(q, |table| {
        let mut root = Base::<N8>::new();
        if let Some(parent) = f.parent {
            sums_from::<B, N8>(q, &Base::new(), parent, table, Some(&mut root));
        }
        let mut heads = Heads::<N8> { z: [[Avx2::splat(0.0); N8]; HEADS], to: [(false, 0); HEADS], n: 0 };
        for derived in [false, true] {
            let wells = if derived { f.derived } else { f.children };
            for (i, rows) in wells.iter().enumerate() {
                let (acc, folded) = sums_from::<B, N8>(q, &root, rows, table, None);
                heads.push(q, pre_activation(q, &acc, folded), (derived, i), &mut f);
            }
        }
        heads.flush(q, &mut f);
    })
}

/// Pre-activations waiting for their heads, run `HEADS` at a time;
/// `to` says where each value goes: (derived, index).
struct Heads<const N8: usize> {
    z: [[Avx2; N8]; HEADS],
    to: [(bool, usize); HEADS],
    n: usize,
}

impl<const N8: usize> Heads<N8> {
    #[inline(always)]
    fn push(&mut self, q: &QuantizedNetwork, z: [Avx2; N8], to: (bool, usize), f: &mut Family<'_>) {
        self.z[self.n] = z;
        self.to[self.n] = to;
        self.n += 1;
        if self.n == HEADS {
            let v = head::<Lean, _, N8, HEADS>(&self.z, &q.w2, q.b2);
            for (&(derived, i), v) in self.to.iter().zip(v) {
                *f.value(derived, i) = v;
            }
            self.n = 0;
        }
    }

    /// The heads of the wells left, one by one.
    #[inline(always)]
    fn flush(&mut self, q: &QuantizedNetwork, f: &mut Family<'_>) {
        for (z, &(derived, i)) in self.z.iter().zip(&self.to).take(self.n) {
            *f.value(derived, i) = head::<Lean, _, N8, 1>(&[*z], &q.w2, q.b2)[0];
        }
        self.n = 0;
    }
}

impl Family<'_> {
    #[inline(always)]
    fn value(&mut self, derived: bool, i: usize) -> &mut f32 {
        if derived {
            &mut self.derived_values[i]
        } else {
            &mut self.child_values[i]
        }
    }
}

/// The AVX2 kernel for a network of `blocks` blocks per feature, if
/// the CPU has AVX2, FMA and BMI2 and there are at most 8 blocks (128
/// hidden units); calling it is then safe for networks of that size.
pub(super) fn select(blocks: usize) -> Option<Kernels> {
    if !(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") && is_x86_feature_detected!("bmi2")) {
        return None;
    }
    macro_rules! kernels {
        ($b:literal, $n8:literal) => {
            Kernels { batch: batch::<$b, $n8>, family: family::<$b, $n8> }
        };
    }
    Some(match blocks {
        1 => kernels!(1, 2),
        2 => kernels!(2, 4),
        3 => kernels!(3, 6),
        4 => kernels!(4, 8),
        5 => kernels!(5, 10),
        6 => kernels!(6, 12),
        7 => kernels!(7, 14),
        8 => kernels!(8, 16),
        _ => return None,
    })
}
