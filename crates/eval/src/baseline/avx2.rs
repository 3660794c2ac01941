//! The baseline's features for a standard well (16 rows) in AVX2: one row
//! per 16-bit lane, so the scalar loop's per-row state becomes lane shifts
//! (`above` is the rows shifted down one lane, `cover` a prefix OR), and
//! the nine bit counts are byte popcounts summed by `psadbw`. About a sixth
//! of the scalar loop's instructions; quiescence evaluates a hundred wells
//! per beam entry, so this is on the search's hot path.

use super::{BaselineFeatures, FULL};
use std::arch::x86_64::*;

/// Rows a well must have for this path.
pub(super) const ROWS: usize = 16;

/// The rows shifted `K` lanes towards the floor (lane i gets lane i - K),
/// zeros coming in at the top. K < 8.
#[inline(always)]
unsafe fn down<const K: i32, const BYTES: i32>(v: __m256i) -> __m256i {
    debug_assert_eq!(BYTES, 16 - 2 * K);
    // [0, low half of v]: what the upper half's shift pulls in.
    let carry = _mm256_permute2x128_si256(v, v, 0x08);
    _mm256_alignr_epi8(v, carry, BYTES)
}

/// Byte-wise popcounts (nibble table lookups).
#[inline(always)]
unsafe fn byte_counts(v: __m256i) -> __m256i {
    let table = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, //
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
    );
    let nibble = _mm256_set1_epi8(0x0F);
    let lo = _mm256_and_si256(v, nibble);
    let hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble);
    _mm256_add_epi8(_mm256_shuffle_epi8(table, lo), _mm256_shuffle_epi8(table, hi))
}

/// Sums of the four byte-count vectors, packed as four 16-bit fields of a
/// u64 (each sum is at most 32 bytes x 24 < 2^16).
#[inline(always)]
unsafe fn packed_sums(c0: __m256i, c1: __m256i, c2: __m256i, c3: __m256i) -> u64 {
    let zero = _mm256_setzero_si256();
    // psadbw leaves each 8-byte group's sum in its 64-bit lane (< 2^8 x 8).
    let s = [c0, c1, c2, c3].map(|c| _mm256_sad_epu8(c, zero));
    let packed = _mm256_or_si256(
        _mm256_or_si256(s[0], _mm256_slli_epi64(s[1], 16)),
        _mm256_or_si256(_mm256_slli_epi64(s[2], 32), _mm256_slli_epi64(s[3], 48)),
    );
    // Fields stay below 2^16 when the four 64-bit lanes are added.
    let half = _mm_add_epi64(_mm256_castsi256_si128(packed), _mm256_extracti128_si256(packed, 1));
    (_mm_cvtsi128_si64(half) as u64).wrapping_add(_mm_extract_epi64(half, 1) as u64)
}

/// The features of `rows` (exactly [`ROWS`] of them), equal to the scalar
/// loop's.
///
/// # Safety
/// The CPU must have AVX2 and POPCNT.
#[target_feature(enable = "avx2,popcnt")]
pub(super) unsafe fn features(rows: &[u16]) -> BaselineFeatures {
    assert_eq!(rows.len(), ROWS);
    let full = _mm256_set1_epi16(FULL as i16);
    let zero = _mm256_setzero_si256();
    let r = _mm256_and_si256(_mm256_loadu_si256(rows.as_ptr().cast()), full);

    let mut cover = r;
    cover = _mm256_or_si256(cover, down::<1, 14>(cover));
    cover = _mm256_or_si256(cover, down::<2, 12>(cover));
    cover = _mm256_or_si256(cover, down::<4, 8>(cover));
    cover = _mm256_or_si256(cover, _mm256_permute2x128_si256(cover, cover, 0x08));

    let hole = _mm256_andnot_si256(r, cover);
    let column_changes = _mm256_xor_si256(r, down::<1, 14>(r));
    // Walls as filled bits 0 and 11.
    let p = _mm256_or_si256(_mm256_slli_epi16(r, 1), _mm256_set1_epi16(1 | (1 << 11)));
    let row_changes = _mm256_and_si256(_mm256_xor_si256(p, _mm256_srli_epi16(p, 1)), _mm256_set1_epi16(0x7FF));
    // Open well cells: empty, uncovered, both neighbours filled.
    let sides = _mm256_and_si256(_mm256_slli_epi16(p, 1), _mm256_srli_epi16(p, 1));
    let open = _mm256_andnot_si256(
        _mm256_or_si256(p, _mm256_slli_epi16(cover, 1)),
        _mm256_and_si256(sides, _mm256_set1_epi16((FULL << 1) as i16)),
    );
    let open2 = _mm256_and_si256(open, down::<1, 14>(open));
    let open3 = _mm256_and_si256(open2, down::<2, 12>(open));
    let wells = _mm256_add_epi8(byte_counts(open), _mm256_add_epi8(byte_counts(open2), byte_counts(open3)));
    let bumps =
        _mm256_and_si256(_mm256_xor_si256(cover, _mm256_srli_epi16(cover, 1)), _mm256_set1_epi16((FULL >> 1) as i16));

    let a = packed_sums(byte_counts(hole), byte_counts(column_changes), byte_counts(row_changes), wells);
    let b = packed_sums(byte_counts(cover), byte_counts(bumps), byte_counts(r), zero);
    let field = |x: u64, i: u32| (x >> (16 * i)) as u32 & 0xFFFF;

    // Two mask bits per lane.
    let empty_rows = _mm256_movemask_epi8(_mm256_cmpeq_epi16(r, zero)) as u32;
    let hole_free_rows = _mm256_movemask_epi8(_mm256_cmpeq_epi16(hole, zero)) as u32;
    let full_rows = _mm256_movemask_epi8(_mm256_cmpeq_epi16(r, full)) as u32;
    let top = (!empty_rows).trailing_zeros() / 2; // 16 when the well is empty
    let floor_changes = if top < ROWS as u32 { (rows[ROWS - 1] & FULL ^ FULL).count_ones() } else { 0 };
    BaselineFeatures {
        holes: field(a, 0),
        hole_rows: ROWS as u32 - hole_free_rows.count_ones() / 2,
        aggregate_height: field(b, 0),
        max_height: ROWS as u32 - top,
        // Each row but a full one counts its two wall changes; the scalar
        // loop removes them.
        row_transitions: field(a, 2) - 2 * (ROWS as u32 - full_rows.count_ones() / 2),
        column_transitions: field(a, 1) + floor_changes,
        bumpiness: field(b, 1),
        cells: field(b, 2),
        well_depth: field(a, 3),
    }
}
