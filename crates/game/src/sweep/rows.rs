//! Row helpers shared by the scalar and vector sweeps: occupancy with walls,
//! where the official search starts, which rows an S or Z could complete,
//! and a shape's cells in a row.

use crate::piece::Shape;
use crate::well::{Rules, Well, MAX_DEPTH, WIDTH};

/// Bits for x = -3..=9.
pub(crate) const X_MASK: u16 = (1 << 13) - 1;
/// Bit index of the spawn column x = 3.
pub(crate) const SPAWN_BIT: u16 = 1 << 6;

/// Per-row occupancy with walls, as a 16-bit mask where bit `c + 3` is column
/// `c` (columns -3..=12); rows below the floor are solid.
#[inline]
pub(crate) fn occupancy(well: &Well, rules: Rules) -> [u16; MAX_DEPTH + 4] {
    const WALLS: u16 = 0b111 | (0b111 << (WIDTH + 3));
    let mut occ = [u16::MAX; MAX_DEPTH + 4];
    for (o, &row) in occ.iter_mut().zip(&well.rows[..rules.depth()]) {
        *o = (row << 3) | WALLS;
    }
    occ
}

/// The x positions (as bits) at which `shape` collides at box row `y`.
#[inline(always)]
pub(crate) fn blocked(occ: &[u16; MAX_DEPTH + 4], shape: &Shape, y: usize) -> u16 {
    let mut b = 0u16;
    for r in 0..4 {
        let bits = shape.rows[r];
        // Box row r of a piece at column offset c collides where occupancy
        // bit (x + 3 + c) is set, i.e. in occ >> c.
        let o = occ[y + r];
        if bits & 1 != 0 {
            b |= o;
        }
        if bits & 2 != 0 {
            b |= o >> 1;
        }
        if bits & 4 != 0 {
            b |= o >> 2;
        }
        if bits & 8 != 0 {
            b |= o >> 3;
        }
    }
    b & X_MASK
}

/// The official search starts from the spawn and first drops the box through
/// empty rows; this is that starting row.
#[inline]
pub fn start_row(well: &Well, rules: Rules) -> usize {
    let mut y = 0;
    while y + 4 < rules.depth() && well.rows[y + 4] == 0 {
        y += 1;
    }
    y
}

/// Bit `i` set when an S or Z could complete row `i` of `well`: its empty
/// cells are one cell or two neighbours (a row of S or Z is a run of at
/// most two cells). Zero means no S or Z can clear a line.
#[inline]
pub fn sz_completable_rows(well: &Well, rules: Rules) -> u32 {
    // SSE2 is part of x86_64: the 16 rows below the bar in two registers,
    // some 30 instructions against some 250 for the row loop (search asks
    // this of every child it values).
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is always present on x86_64.
    return unsafe { sz_completable_rows_sse2(well) } & ((1u32 << rules.depth()) - 1);
    #[cfg(not(target_arch = "x86_64"))]
    sz_completable_rows_scalar(well, rules)
}

/// `sz_completable_rows` row by row.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(crate) fn sz_completable_rows_scalar(well: &Well, rules: Rules) -> u32 {
    let mut mask = 0u32;
    for (i, &row) in well.rows[..rules.depth()].iter().enumerate() {
        let empty = crate::well::FULL_ROW & !row;
        // Without `count_ones` (slow unless the build enables POPCNT).
        let pair = empty & (empty >> 1);
        let one_run =
            empty != 0 && (empty & (empty - 1) == 0 || (pair & pair.wrapping_sub(1) == 0 && empty == pair | pair << 1));
        mask |= (one_run as u32) << i;
    }
    mask
}

/// `sz_completable_rows_scalar` for all rows below the bar (rows above it,
/// and past a small game's floor, are empty: never completable).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn sz_completable_rows_sse2(well: &Well) -> u32 {
    use std::arch::x86_64::*;
    const _: () = assert!(MAX_DEPTH - crate::well::BAR == 16);
    let full = _mm_set1_epi16(crate::well::FULL_ROW as i16);
    let (zero, one) = (_mm_setzero_si128(), _mm_set1_epi16(1));
    let rows = well.rows[crate::well::BAR..].as_ptr() as *const __m128i;
    let completable = |r: __m128i| {
        let empty = _mm_andnot_si128(r, full);
        let lowest_cleared = _mm_and_si128(empty, _mm_sub_epi16(empty, one));
        let pair = _mm_and_si128(empty, _mm_srli_epi16(empty, 1));
        let pair_cleared = _mm_and_si128(pair, _mm_sub_epi16(pair, one));
        let one_cell = _mm_cmpeq_epi16(lowest_cleared, zero);
        let two_cells = _mm_and_si128(
            _mm_cmpeq_epi16(pair_cleared, zero),
            _mm_cmpeq_epi16(empty, _mm_or_si128(pair, _mm_slli_epi16(pair, 1))),
        );
        _mm_andnot_si128(_mm_cmpeq_epi16(empty, zero), _mm_or_si128(one_cell, two_cells))
    };
    let low = completable(_mm_loadu_si128(rows));
    let high = completable(_mm_loadu_si128(rows.add(1)));
    (_mm_movemask_epi8(_mm_packs_epi16(low, high)) as u32) << crate::well::BAR
}

/// `well` with the shape's cells at (x, y) filled, nothing cleared.
pub(crate) fn with_cells(well: &Well, shape: &Shape, x: i32, y: i32) -> Well {
    let mut w = *well;
    for r in shape.top..=shape.bottom {
        w.rows[(y + r as i32) as usize] |= (((shape.rows[r as usize] as u32) << (x + 3) as u32) >> 3) as u16;
    }
    w
}

/// Do the shape's cells at (x, y) fill the last holes of some row?
#[inline]
pub(crate) fn completes_a_row(well: &Well, shape: &Shape, x: i32, y: i32) -> bool {
    (shape.top..=shape.bottom).any(|r| {
        let cells = (((shape.rows[r as usize] as u32) << (x + 3) as u32) >> 3) as u16;
        well.rows[(y + r as i32) as usize] | cells == crate::well::FULL_ROW
    })
}
