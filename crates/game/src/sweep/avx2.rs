//! The landing sweep of `landing`, for all 28 piece orientations at once:
//! 16-bit lanes of two 256-bit AVX2 registers, lane `4 p + o` being piece
//! `p` in orientation `o` (lanes 28..32 are spare and stay empty).
//!
//! - A lane's collision mask at box row `y` is the OR, over the shape's four
//!   box rows, of the well row's occupancy dilated by that row's run of
//!   cells (every tetromino row is one run: length `L`, offset `s`). Per
//!   well row the four dilations are computed once, `pshufb` picks each
//!   lane's `L`, and a multiply-high by `2^(16-s)` does each lane's own
//!   shift (AVX2 has no per-lane 16-bit shift).
//! - The left/right closure and the U rotation are the scalar sweep's, with
//!   16-bit lane shifts (nothing leaks between lanes, so no guard bits) and
//!   a rotation inside each piece's 64-bit group.
//! - The sweep stores each row's lock masks for the caller to visit. With
//!   `PEAKS` it also keeps, per lane, the deepest row where it locks, and
//!   the locks that complete a row (found with a second gather, of "run
//!   positions covering every hole of the row").
//!
//! Hand-written intrinsics because the lane-wise gather (`pshufb`) and the
//! multiply-high shift are what make it pay; no portable SIMD crate exposes
//! them on stable Rust.

use super::rows::{start_row, sz_completable_rows};
use crate::piece::{Piece, Shape, Twin, SHAPE_TABLE, TWINS};
use crate::well::{Rules, Well, FULL_ROW, MAX_DEPTH, WIDTH};
use std::arch::x86_64::*;
use std::mem::MaybeUninit;
use std::ptr::addr_of_mut;

pub(crate) const LANES: usize = 32;
/// Lanes 28..32 belong to no piece.
pub(crate) const USED_LANES: usize = 28;
const X_MASK: u16 = (1 << 13) - 1;
const SPAWN_BIT: u16 = 1 << 6;
/// Box rows a sweep can visit: the box's top row runs over 0..MAX_DEPTH.
const ROWS: usize = MAX_DEPTH + 4;

/// Per-lane constants, derived from the shapes at compile time.
struct LaneTables {
    /// Per box row: the `pshufb` byte indices that pick the entry for the
    /// row's run length (0x80, for an empty row, picks zero).
    gather: [[u8; 2 * LANES]; 4],
    /// Per box row: `2^(16-s)` for a run at offset `s > 0`, else 0.
    shift_mul: [[u16; LANES]; 4],
    /// Per box row: all ones where the run's offset is 0 (no shift).
    unshifted: [[u16; LANES]; 4],
    /// X_MASK in the lanes of a piece, 0 in the spare lanes.
    x_mask: [u16; LANES],
    /// The spawn position (x = 3, orientation 0) of each piece.
    spawn: [u16; LANES],
    /// The box row of the shape's top cells.
    top_u16: [u16; LANES],
}

const TABLES: LaneTables = lane_tables(Layout::Pieces);

/// The tables of `sweep_wells::<false>`'s layout: S and Z (8 lanes) for
/// each of four wells, two wells to a register.
const SZ_TABLES: LaneTables = lane_tables(Layout::SzWells);

/// The tables of `sweep_wells::<true>`'s layout: S (4 lanes) for each of
/// eight wells, two wells to a 128-bit half.
const S_TABLES: LaneTables = lane_tables(Layout::SWells);

/// How a sweep's 32 lanes are laid out.
#[derive(Clone, Copy)]
enum Layout {
    /// Lane `4 p + o`: piece `p` in orientation `o`.
    Pieces,
    /// Lane `8 k + 4 p + o`: well `k`, piece S (`p` = 0) or Z.
    SzWells,
    /// Lane `4 k + o`: well `k`, piece S.
    SWells,
}

/// The lane constants of `layout`.
const fn lane_tables(layout: Layout) -> LaneTables {
    let mut t = LaneTables {
        gather: [[0x80; 2 * LANES]; 4],
        shift_mul: [[0; LANES]; 4],
        unshifted: [[0; LANES]; 4],
        x_mask: [0; LANES],
        spawn: [0; LANES],
        top_u16: [0; LANES],
    };
    let used = match layout {
        Layout::Pieces => USED_LANES,
        Layout::SzWells | Layout::SWells => LANES,
    };
    let mut lane = 0;
    while lane < used {
        let piece = match layout {
            Layout::Pieces => lane / 4,
            Layout::SzWells => (lane % 8) / 4,
            Layout::SWells => 0,
        };
        // A `pshufb` reads its own 128-bit half; with S alone that half
        // holds two wells' tables, the second well's at byte 8.
        let byte = match layout {
            Layout::SWells if lane % 8 >= 4 => 8,
            _ => 0,
        };
        let shape = SHAPE_TABLE[piece][lane % 4];
        let mut r = 0;
        while r < 4 {
            let bits = shape.rows[r];
            if bits != 0 {
                let s = bits.trailing_zeros();
                let len = bits.count_ones();
                assert!(bits >> s == (1 << len) - 1, "every tetromino row is a single run of cells");
                t.gather[r][2 * lane] = byte + 2 * (len as u8 - 1);
                t.gather[r][2 * lane + 1] = byte + 2 * (len as u8 - 1) + 1;
                if s == 0 {
                    t.unshifted[r][lane] = u16::MAX;
                } else {
                    t.shift_mul[r][lane] = 1 << (16 - s);
                }
            }
            r += 1;
        }
        t.x_mask[lane] = X_MASK;
        if lane % 4 == 0 {
            t.spawn[lane] = SPAWN_BIT;
        }
        t.top_u16[lane] = shape.top as u16;
        lane += 1;
    }
    t
}

/// Bit `i` set when well row `i` could be completed by one piece row: it has
/// one to four holes.
#[inline]
pub(crate) fn near_full_rows(well: &Well, rules: Rules) -> u32 {
    let mut mask = 0u32;
    for (i, &row) in well.rows[..rules.depth()].iter().enumerate() {
        mask |= (one_to_four_bits(FULL_ROW & !row) as u32) << i;
    }
    mask
}

/// Does `x` have one to four bits set? Without `count_ones`, which is a
/// long bit-twiddling sequence unless the build enables POPCNT.
#[inline(always)]
fn one_to_four_bits(x: u16) -> bool {
    let mut rest = x;
    for _ in 0..4 {
        rest &= rest.wrapping_sub(1);
    }
    x != 0 && rest == 0
}

/// The shape of a lane.
pub(crate) fn lane_shape(lane: usize) -> &'static Shape {
    Piece::from_index(lane / 4).shape((lane % 4) as u8)
}

/// Which pieces a sweep follows.
pub(crate) type PieceSet = u8;
pub(crate) const ALL_PIECES: PieceSet = 0x7F;

/// One lane mask per row, left unset until a sweep stores the row: a sweep
/// stores only the rows it reaches, and zeroing all of them would cost
/// more than the sweep's own stores.
struct LaneRows([[MaybeUninit<u16>; LANES]; ROWS]);

impl LaneRows {
    /// # Safety
    /// The CPU must have AVX2.
    #[inline(always)]
    unsafe fn store(&mut self, y: usize, p: Pair) {
        store_u16(p, self.0[y].as_mut_ptr() as *mut u16);
    }

    /// # Safety
    /// Row `y` must have been stored.
    #[inline(always)]
    unsafe fn row(&self, y: usize) -> &[u16; LANES] {
        &*(self.0[y].as_ptr() as *const [u16; LANES])
    }
}

/// What a sweep leaves behind.
pub(crate) struct SweepOut {
    /// The rows swept: `first..last`.
    first: usize,
    last: usize,
    /// Lane `4 p + o`'s bit `x + 3` in row `y` is a lock of piece `p`,
    /// orientation `o`, at (x, y): every lock, in rows `first..last`.
    locks: LaneRows,
    /// With `PEAKS`: the locks that complete a row, laid out as `locks`,
    /// in the rows of `clearing_rows`.
    clearing: LaneRows,
    /// With `PEAKS`: bit `y` set when row `y` of `clearing` is stored, and
    /// for such a row, which lanes have locks (bit `lane`).
    clearing_rows: u32,
    clearing_lanes: [u32; ROWS],
    /// With `PEAKS`: lane `4 p` holds piece `p`'s best rating over its
    /// locks that clear nothing (0 if it has none).
    pub plain_peaks: [u16; LANES],
}

impl SweepOut {
    /// A `SweepOut` in `slot`, its rows unset. Built in place: a moved or
    /// returned one is copied whole, and one built as a value has its unset
    /// rows zeroed with the rest (an unset value may be taken as zero).
    #[inline(always)]
    pub(crate) fn init(slot: &mut MaybeUninit<SweepOut>) -> &mut SweepOut {
        let p = slot.as_mut_ptr();
        // SAFETY: every field but the `LaneRows`, which may stay unset, is
        // written before `assume_init_mut`.
        unsafe {
            addr_of_mut!((*p).first).write(0);
            addr_of_mut!((*p).last).write(0);
            addr_of_mut!((*p).clearing_rows).write(0);
            addr_of_mut!((*p).clearing_lanes).write([0; ROWS]);
            addr_of_mut!((*p).plain_peaks).write([0; LANES]);
            slot.assume_init_mut()
        }
    }

    /// Stores row `y`'s locks that complete a row, if it has any.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[inline(always)]
    unsafe fn keep_clearing(&mut self, y: usize, clearing: Pair) {
        if !is_zero(clearing) {
            self.clearing.store(y, clearing);
            self.clearing_rows |= 1 << y;
            self.clearing_lanes[y] = nonzero_lanes(clearing);
        }
    }

    /// With `PEAKS`: calls `visit(lane, x, y)` for every lock that completes
    /// a row.
    #[inline]
    pub(crate) fn for_each_clearing_lock(&self, mut visit: impl FnMut(usize, i32, usize)) {
        let mut rows = self.clearing_rows;
        while rows != 0 {
            let y = rows.trailing_zeros() as usize;
            let mut lanes = self.clearing_lanes[y];
            while lanes != 0 {
                let lane = lanes.trailing_zeros() as usize;
                // SAFETY: the sweep stored the rows of `clearing_rows`.
                let mut bits = unsafe { self.clearing.row(y) }[lane];
                while bits != 0 {
                    visit(lane, bits.trailing_zeros() as i32 - 3, y);
                    bits &= bits - 1;
                }
                lanes &= lanes - 1;
            }
            rows &= rows - 1;
        }
    }

    /// `for_each_clearing_lock` for `sweep_wells::<S_ONLY>`'s layout,
    /// without the locks whose cells a lock of an earlier orientation has
    /// (S's and Z's orientations 2 and 3 repeat the cells of 0 and 1, see
    /// `TWINS`): each set of cells once.
    #[inline]
    pub(crate) fn for_each_distinct_wells_clearing_lock<const S_ONLY: bool>(
        &self,
        mut visit: impl FnMut(usize, i32, usize),
    ) {
        for_each_bit(self.clearing_rows, |y| {
            for_each_bit(self.clearing_lanes[y], |lane| {
                // SAFETY: the sweep stored the rows of `clearing_rows`.
                let mut bits = unsafe { self.clearing.row(y) }[lane];
                let o = lane % 4;
                let piece = if S_ONLY { 0 } else { (lane % 8) / 4 };
                if let Some(twin) = &TWINS[piece][o] {
                    bits &= !self.clearing_twin(lane - o + twin.of as usize, twin, y);
                }
                while bits != 0 {
                    visit(lane, bits.trailing_zeros() as i32 - 3, y);
                    bits &= bits - 1;
                }
            });
        });
    }

    /// Lane `lane`'s clearing locks of the row a twin lock in row `y` comes
    /// from, moved onto the twin's x bits.
    #[inline(always)]
    fn clearing_twin(&self, lane: usize, twin: &Twin, y: usize) -> u16 {
        let row = y.wrapping_sub(twin.dy as isize as usize);
        if row >= ROWS || self.clearing_rows >> row & 1 == 0 {
            return 0;
        }
        // SAFETY: the sweep stored the rows of `clearing_rows`.
        let of = unsafe { self.clearing.row(row) }[lane];
        if twin.dx >= 0 {
            of << twin.dx
        } else {
            of >> -twin.dx
        }
    }

    /// The locks of `piece` in row `y`, four 16-bit lanes by orientation:
    /// bits ascend by orientation, then x, as the scalar sweep visits them.
    #[inline]
    fn piece_locks(&self, y: usize, piece: Piece) -> u64 {
        debug_assert!((self.first..self.last).contains(&y));
        // SAFETY: the sweep stored rows `first..last`.
        let l = &unsafe { self.locks.row(y) }[4 * piece.index()..4 * piece.index() + 4];
        l[0] as u64 | (l[1] as u64) << 16 | (l[2] as u64) << 32 | (l[3] as u64) << 48
    }

    /// Calls `visit(x, y, o)` for every lock of `piece` (which the sweep
    /// must have followed), in the scalar sweep's order.
    #[inline]
    pub(crate) fn for_each_lock(&self, piece: Piece, mut visit: impl FnMut(i32, i32, u8)) {
        for y in self.first..self.last {
            visit_locks(self.piece_locks(y, piece), y, &mut visit);
        }
    }

    /// `for_each_lock` without the locks whose cells a lock of an earlier
    /// orientation covers (see `TWINS`): each well once, or nearly.
    #[inline]
    pub(crate) fn for_each_distinct_lock(&self, piece: Piece, mut visit: impl FnMut(i32, i32, u8)) {
        let twins = &TWINS[piece.index()];
        for y in self.first..self.last {
            let mut locks = self.piece_locks(y, piece);
            for (o, twin) in twins.iter().enumerate() {
                if let Some(t) = twin {
                    locks &= !(self.twin_locks(piece, t, y) << (16 * o));
                }
            }
            visit_locks(locks, y, &mut visit);
        }
    }

    /// One lane of x bits, as `piece_locks` has them: where a lock in row
    /// `y` has the cells of a lock of `twin.of`.
    #[inline(always)]
    fn twin_locks(&self, piece: Piece, twin: &Twin, y: usize) -> u64 {
        let row = y.wrapping_sub(twin.dy as isize as usize);
        if !(self.first..self.last).contains(&row) {
            return 0;
        }
        let of = self.piece_locks(row, piece) >> (16 * twin.of) & 0xFFFF;
        let moved = if twin.dx >= 0 { of << twin.dx } else { of >> -twin.dx };
        moved & 0xFFFF
    }
}

/// Calls `visit(x, y, o)` for each bit of a piece's locks in row `y`.
#[inline(always)]
fn visit_locks(mut locks: u64, y: usize, visit: &mut impl FnMut(i32, i32, u8)) {
    while locks != 0 {
        let bit = locks.trailing_zeros() as i32;
        visit(bit % 16 - 3, y as i32, (bit / 16) as u8);
        locks &= locks - 1;
    }
}

/// Two registers of 16 lanes: lanes 0..16 (S, Z, O, I) and 16..32 (L, J, T).
type Pair = [__m256i; 2];

/// The registers a sweep works on: bit `h` of `HALVES` is register `h`. A
/// sweep of one piece needs only its own register; the other stays zero.
#[inline(always)]
fn active<const HALVES: u8>() -> impl Iterator<Item = usize> {
    (0..2).filter(|h| HALVES >> h & 1 == 1)
}

/// The registers holding `pieces`.
fn halves_of(pieces: PieceSet) -> u8 {
    (pieces & 0x0F != 0) as u8 | ((pieces & 0x70 != 0) as u8) << 1
}

#[inline(always)]
unsafe fn load_u16(v: &[u16; LANES]) -> Pair {
    [_mm256_loadu_si256(v.as_ptr() as *const __m256i), _mm256_loadu_si256(v.as_ptr().add(16) as *const __m256i)]
}

#[inline(always)]
unsafe fn load_u8(v: &[u8; 2 * LANES]) -> Pair {
    [_mm256_loadu_si256(v.as_ptr() as *const __m256i), _mm256_loadu_si256(v.as_ptr().add(32) as *const __m256i)]
}

/// Stores 32 lanes at `out`.
#[inline(always)]
unsafe fn store_u16(p: Pair, out: *mut u16) {
    _mm256_storeu_si256(out as *mut __m256i, p[0]);
    _mm256_storeu_si256(out.add(16) as *mut __m256i, p[1]);
}

#[inline(always)]
unsafe fn and(a: Pair, b: Pair) -> Pair {
    [_mm256_and_si256(a[0], b[0]), _mm256_and_si256(a[1], b[1])]
}

#[inline(always)]
unsafe fn and_not(a: Pair, not_b: Pair) -> Pair {
    [_mm256_andnot_si256(not_b[0], a[0]), _mm256_andnot_si256(not_b[1], a[1])]
}

#[inline(always)]
unsafe fn is_zero(v: Pair) -> bool {
    let any = _mm256_or_si256(v[0], v[1]);
    _mm256_testz_si256(any, any) != 0
}

/// The row's occupancy (bit `c + 3` for columns -3..=12, walls set) dilated
/// leftward by runs of 1..=4 cells, as four u16 in a u64: a `pshufb` table.
/// The scalar definition of what `dilation_table` computes eight rows at
/// a time.
#[cfg(test)]
fn dilations(occ: u16) -> u64 {
    let d1 = occ;
    let d2 = d1 | occ >> 1;
    let d3 = d2 | occ >> 2;
    let d4 = d2 | d2 >> 2;
    d1 as u64 | (d2 as u64) << 16 | (d3 as u64) << 32 | (d4 as u64) << 48
}

/// Each row's occupancy (bit `c + 3` for columns -3..=12, walls set), rows
/// below the floor solid.
#[inline(always)]
fn occupancy(well: &Well, rules: Rules) -> [u16; ROWS] {
    const WALLS: u16 = 0b111 | (0b111 << (WIDTH + 3));
    let mut occ = [u16::MAX; ROWS];
    for (o, &row) in occ.iter_mut().zip(&well.rows[..rules.depth()]) {
        *o = (row << 3) | WALLS;
    }
    occ
}

/// `dilations` of every row, eight rows to an SSE register: the four
/// dilations are computed side by side and interleaved into each row's
/// four u16 (a sweep needs the whole table, and row by row it cost as much
/// as a third of an S/Z sweep).
#[inline(always)]
unsafe fn dilation_table(occ: &[u16; ROWS]) -> [u64; ROWS] {
    const _: () = assert!(ROWS.is_multiple_of(8));
    let mut out = [0u64; ROWS];
    for chunk in 0..ROWS / 8 {
        let d1 = _mm_loadu_si128(occ.as_ptr().add(8 * chunk) as *const __m128i);
        let d2 = _mm_or_si128(d1, _mm_srli_epi16::<1>(d1));
        let d3 = _mm_or_si128(d2, _mm_srli_epi16::<2>(d1));
        let d4 = _mm_or_si128(d2, _mm_srli_epi16::<2>(d2));
        let (lo12, lo34) = (_mm_unpacklo_epi16(d1, d2), _mm_unpacklo_epi16(d3, d4));
        let (hi12, hi34) = (_mm_unpackhi_epi16(d1, d2), _mm_unpackhi_epi16(d3, d4));
        let rows = [
            _mm_unpacklo_epi32(lo12, lo34),
            _mm_unpackhi_epi32(lo12, lo34),
            _mm_unpacklo_epi32(hi12, hi34),
            _mm_unpackhi_epi32(hi12, hi34),
        ];
        for (pair, v) in rows.into_iter().enumerate() {
            _mm_storeu_si128(out.as_mut_ptr().add(8 * chunk + 2 * pair) as *mut __m128i, v);
        }
    }
    out
}

/// Calls `f(i)` for each set bit `i` of `bits`.
#[inline(always)]
fn for_each_bit(mut bits: u32, mut f: impl FnMut(usize)) {
    while bits != 0 {
        f(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

/// For each run length 1..=4, the positions `b` at which a run starting at
/// occupancy bit `b` covers every hole of the row, packed like `dilations`;
/// zero for rows with no hole or more than four. A run at offset `s`
/// covers them from `b` iff bit `b + s` is set, so lanes read this with
/// the same gather and shift as the dilations.
#[inline(always)]
fn covers(occ: u16) -> u64 {
    let holes = !occ & (FULL_ROW << 3);
    if !one_to_four_bits(holes) {
        return 0;
    }
    let lo = holes.trailing_zeros();
    let hi = 15 - holes.leading_zeros();
    let up_to_lo = (1u32 << (lo + 1)) - 1;
    let mut packed = 0u64;
    for len in 1..=4u32 {
        // b <= lo and b + len - 1 >= hi.
        let from = (hi + 1).saturating_sub(len);
        let mask = up_to_lo & !((1u32 << from) - 1);
        packed |= (mask as u64 & 0xFFFF) << (16 * (len - 1));
    }
    packed
}

/// The lane constants, loaded into registers once per sweep.
struct Kernel {
    gather: [Pair; 4],
    shift_mul: [Pair; 4],
    unshifted: [Pair; 4],
    x_mask: Pair,
}

impl Kernel {
    #[inline(always)]
    unsafe fn new(t: &LaneTables) -> Kernel {
        let zero = [_mm256_setzero_si256(); 2];
        let mut k =
            Kernel { gather: [zero; 4], shift_mul: [zero; 4], unshifted: [zero; 4], x_mask: load_u16(&t.x_mask) };
        for r in 0..4 {
            k.gather[r] = load_u8(&t.gather[r]);
            k.shift_mul[r] = load_u16(&t.shift_mul[r]);
            k.unshifted[r] = load_u16(&t.unshifted[r]);
        }
        k
    }

    /// Per lane, the OR over the shape's box rows of that row's entry of
    /// `table` (see `dilations`) shifted right by the run's offset, with the
    /// box's top at row `y`.
    #[inline(always)]
    unsafe fn gather<const HALVES: u8>(&self, table: &[u64; ROWS], y: usize) -> Pair {
        let mut acc = [_mm256_setzero_si256(); 2];
        for r in 0..4 {
            let entry = _mm256_set1_epi64x(table[y + r] as i64);
            for h in active::<HALVES>() {
                let g = _mm256_shuffle_epi8(entry, self.gather[r][h]);
                let shifted = _mm256_mulhi_epu16(g, self.shift_mul[r][h]);
                let kept = _mm256_and_si256(g, self.unshifted[r][h]);
                acc[h] = _mm256_or_si256(acc[h], _mm256_or_si256(shifted, kept));
            }
        }
        acc
    }

    /// `gather` for `sweep_wells::<S_ONLY>`'s layout: each 128-bit half (8
    /// lanes, a `pshufb` reads only its own half) reads its own well's
    /// `tables`, or with `S_ONLY` its two wells' tables.
    #[inline(always)]
    unsafe fn gather_wells<const S_ONLY: bool>(&self, tables: &[[u64; ROWS]; S_WELLS], y: usize) -> Pair {
        let mut acc = [_mm256_setzero_si256(); 2];
        for r in 0..4 {
            for h in 0..2 {
                let entry = if S_ONLY {
                    let t = |k: usize| tables[4 * h + k][y + r] as i64;
                    _mm256_set_epi64x(t(3), t(2), t(1), t(0))
                } else {
                    let (a, b) = (tables[2 * h][y + r] as i64, tables[2 * h + 1][y + r] as i64);
                    _mm256_set_epi64x(b, b, a, a)
                };
                let g = _mm256_shuffle_epi8(entry, self.gather[r][h]);
                let shifted = _mm256_mulhi_epu16(g, self.shift_mul[r][h]);
                let kept = _mm256_and_si256(g, self.unshifted[r][h]);
                acc[h] = _mm256_or_si256(acc[h], _mm256_or_si256(shifted, kept));
            }
        }
        acc
    }

    /// Free x positions of every lane with the box's top at row `y`.
    #[inline(always)]
    unsafe fn free<const HALVES: u8>(&self, dil: &[u64; ROWS], y: usize) -> Pair {
        and_not(self.x_mask, self.gather::<HALVES>(dil, y))
    }
}

/// Spreads `seed` left and right through runs of `free`, per 16-bit lane.
#[inline(always)]
unsafe fn fill(seed: __m256i, free: __m256i) -> __m256i {
    macro_rules! spread {
        ($shift:ident) => {{
            let mut v = seed;
            let mut p = free;
            v = _mm256_or_si256(v, _mm256_and_si256(p, $shift::<1>(v)));
            p = _mm256_and_si256(p, $shift::<1>(p));
            v = _mm256_or_si256(v, _mm256_and_si256(p, $shift::<2>(v)));
            p = _mm256_and_si256(p, $shift::<2>(p));
            v = _mm256_or_si256(v, _mm256_and_si256(p, $shift::<4>(v)));
            p = _mm256_and_si256(p, $shift::<4>(p));
            _mm256_or_si256(v, _mm256_and_si256(p, $shift::<8>(v)))
        }};
    }
    let up = spread!(_mm256_slli_epi16);
    let down = spread!(_mm256_srli_epi16);
    _mm256_and_si256(_mm256_or_si256(up, down), free)
}

/// The closure of `reach` under L, R (`fill`) and U (`rotate`) within
/// `free`. A fill leaves `reach` closed under L and R, so the loop ends as
/// soon as U adds nothing, with no round spent confirming it.
#[inline(always)]
unsafe fn close<const HALVES: u8>(mut reach: Pair, free: Pair) -> Pair {
    loop {
        let mut added = [_mm256_setzero_si256(); 2];
        for h in active::<HALVES>() {
            reach[h] = fill(reach[h], free[h]);
            added[h] = _mm256_andnot_si256(reach[h], _mm256_and_si256(rotate(reach[h]), free[h]));
        }
        if is_zero(added) {
            return reach;
        }
        for h in active::<HALVES>() {
            reach[h] = _mm256_or_si256(reach[h], added[h]);
        }
    }
}

/// U: orientation `o` to `o + 1` inside each piece's 64-bit group.
#[inline(always)]
unsafe fn rotate(v: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi64::<16>(v), _mm256_srli_epi64::<48>(v))
}

/// Sweeps the pieces of `pieces` down the well from the spawn, as the
/// scalar `for_each_lock_position` does for one, and fills `out`.
///
/// # Safety
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn sweep<const PEAKS: bool, const HALVES: u8>(
    well: &Well,
    rules: Rules,
    pieces: PieceSet,
    near_full: u32,
    out: &mut SweepOut,
) {
    debug_assert_eq!(halves_of(pieces) & !HALVES, 0, "a piece outside the swept registers");
    // The box never rises above its start row, so rows above it are unread.
    let mut y = start_row(well, rules);
    let occ = occupancy(well, rules);
    let dil = dilation_table(&occ);
    let mut cover = [0u64; ROWS];
    if PEAKS {
        for_each_bit(near_full, |i| cover[i] = covers(occ[i]));
    }
    let kernel = Kernel::new(&TABLES);
    let mut spawn = [0u16; LANES];
    let mut set = pieces;
    while set != 0 {
        let p = set.trailing_zeros() as usize;
        spawn[4 * p] = TABLES.spawn[4 * p];
        set &= set - 1;
    }
    let none = _mm256_set1_epi16(-1);
    let mut deepest: Pair = [none, none];
    out.first = y;
    out.last = y;
    let mut free = kernel.free::<HALVES>(&dil, y);
    let mut reach = and(load_u16(&spawn), free);
    loop {
        reach = close::<HALVES>(reach, free);
        if is_zero(reach) {
            break;
        }
        // D: into the row below where free, else lock here.
        let below = kernel.free::<HALVES>(&dil, y + 1);
        let locks = and_not(reach, below);
        out.locks.store(y, locks);
        if PEAKS {
            let row = _mm256_set1_epi16(y as i16);
            for h in active::<HALVES>() {
                let no_lock = _mm256_cmpeq_epi16(locks[h], _mm256_setzero_si256());
                deepest[h] = _mm256_blendv_epi8(row, deepest[h], no_lock);
            }
            if (near_full >> y) & 0xF != 0 {
                out.keep_clearing(y, and(locks, kernel.gather::<HALVES>(&cover, y)));
            }
        }
        out.last = y + 1;
        reach = and(reach, below);
        if is_zero(reach) {
            break;
        }
        free = below;
        y += 1;
    }
    if PEAKS {
        // Without a clear a lock's rating is min(rating, y + top): largest
        // at the lane's deepest lock row. Then the best of each piece's
        // four lanes, into its first lane.
        let rating = _mm256_set1_epi16(well.rating(rules) as i16);
        let top = load_u16(&TABLES.top_u16);
        let mut best = [_mm256_setzero_si256(); 2];
        for h in active::<HALVES>() {
            let locked = _mm256_cmpgt_epi16(deepest[h], none);
            let v = _mm256_min_epi16(rating, _mm256_add_epi16(deepest[h], top[h]));
            let v = _mm256_and_si256(v, locked);
            let v = _mm256_max_epi16(v, _mm256_srli_epi64::<16>(v));
            best[h] = _mm256_max_epi16(v, _mm256_srli_epi64::<32>(v));
        }
        store_u16(best, out.plain_peaks.as_mut_ptr());
    }
}

/// Wells `sweep_wells::<false>` takes at once: eight lanes (S and Z) each.
pub(crate) const SZ_WELLS: usize = 4;

/// Wells `sweep_wells::<true>` takes at once: four lanes (S) each.
pub(crate) const S_WELLS: usize = 8;

/// The S and Z locks (with `S_ONLY`, the S locks) that complete a row, in
/// up to `SZ_WELLS` (`S_WELLS`) wells at once: search values each child
/// by the clears an S or Z gives next, and one well fills only 8 (4) of a
/// register's 16 lanes. Lane `8 k + 4 p + o` (`4 k + o`) of `out`'s
/// clearing locks is well `k`, piece S (`p` = 0) or Z, in orientation
/// `o`. The sweep stops below the last row a lock could complete.
///
/// # Safety
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn sweep_wells<const S_ONLY: bool>(wells: &[Well], rules: Rules, out: &mut SweepOut) {
    debug_assert!((1..=if S_ONLY { S_WELLS } else { SZ_WELLS }).contains(&wells.len()));
    let mut y = wells.iter().map(|w| start_row(w, rules)).min().unwrap_or(0);
    out.first = y;
    out.last = y;
    // Wells past the last are solid: their lanes never leave the spawn.
    let mut dil = [[u64::MAX; ROWS]; S_WELLS];
    let mut cover = [[0u64; ROWS]; S_WELLS];
    let mut completable = 0u32;
    let mut spawn = [0u16; LANES];
    for (k, well) in wells.iter().enumerate() {
        let rows = sz_completable_rows(well, rules);
        let occ = occupancy(well, rules);
        dil[k] = dilation_table(&occ);
        for_each_bit(rows, |i| cover[k][i] = covers(occ[i]));
        completable |= rows;
        if S_ONLY {
            spawn[4 * k] = SPAWN_BIT;
        } else {
            spawn[8 * k] = SPAWN_BIT;
            spawn[8 * k + 4] = SPAWN_BIT;
        }
    }
    if completable == 0 {
        return;
    }
    // A lock with its box top below this row has no cell in a completable row.
    let last = 31 - completable.leading_zeros() as usize;
    let kernel = Kernel::new(if S_ONLY { &S_TABLES } else { &SZ_TABLES });
    let mut free = and_not(kernel.x_mask, kernel.gather_wells::<S_ONLY>(&dil, y));
    let mut reach = and(load_u16(&spawn), free);
    loop {
        reach = close::<3>(reach, free);
        if is_zero(reach) {
            break;
        }
        let below = and_not(kernel.x_mask, kernel.gather_wells::<S_ONLY>(&dil, y + 1));
        if (completable >> y) & 0xF != 0 {
            out.keep_clearing(y, and(and_not(reach, below), kernel.gather_wells::<S_ONLY>(&cover, y)));
        }
        out.last = y + 1;
        reach = and(reach, below);
        if y >= last || is_zero(reach) {
            break;
        }
        free = below;
        y += 1;
    }
}

/// `sweep` over only the registers that hold `pieces`.
///
/// # Safety
/// The CPU must have AVX2.
#[inline]
pub(crate) unsafe fn sweep_set<const PEAKS: bool>(
    well: &Well,
    rules: Rules,
    pieces: PieceSet,
    near_full: u32,
    out: &mut SweepOut,
) {
    match halves_of(pieces) {
        1 => sweep::<PEAKS, 1>(well, rules, pieces, near_full, out),
        2 => sweep::<PEAKS, 2>(well, rules, pieces, near_full, out),
        _ => sweep::<PEAKS, 3>(well, rules, pieces, near_full, out),
    }
}

/// Bit `lane` set for each non-zero lane.
#[inline(always)]
unsafe fn nonzero_lanes(v: Pair) -> u32 {
    let zero = _mm256_setzero_si256();
    // Two mask bits per 16-bit lane; keep the even ones and compact them.
    let lo = !(_mm256_movemask_epi8(_mm256_cmpeq_epi16(v[0], zero)) as u32);
    let hi = !(_mm256_movemask_epi8(_mm256_cmpeq_epi16(v[1], zero)) as u32);
    compact_even_bits(lo) | compact_even_bits(hi) << 16
}

/// Bits 0, 2, 4, ... of `x` packed into bits 0, 1, 2, ...
#[inline(always)]
fn compact_even_bits(x: u32) -> u32 {
    let mut x = x & 0x5555_5555;
    x = (x | x >> 1) & 0x3333_3333;
    x = (x | x >> 2) & 0x0F0F_0F0F;
    x = (x | x >> 4) & 0x00FF_00FF;
    (x | x >> 8) & 0x0000_FFFF
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dilation_table_is_each_rows_dilations() {
        if !crate::sweep::has_avx2() {
            return;
        }
        let mut occ = [0u16; ROWS];
        for (i, o) in occ.iter_mut().enumerate() {
            *o = (i as u16).wrapping_mul(0x9E37) ^ 0x5A5A;
        }
        // SAFETY: SSE2 is part of x86_64.
        let table = unsafe { dilation_table(&occ) };
        for i in 0..ROWS {
            assert_eq!(table[i], dilations(occ[i]), "row {i}");
        }
    }

    #[test]
    fn one_to_four_bits_counts_bits() {
        for x in 0..=u16::MAX {
            assert_eq!(one_to_four_bits(x), (1..=4).contains(&x.count_ones()), "{x:#b}");
        }
    }

    #[test]
    fn covers_marks_the_runs_that_fill_every_hole() {
        let walls = 0b111 | (0b111 << 13);
        // Holes at columns 4 and 5 (occupancy bits 7 and 8).
        let occ = ((FULL_ROW & !0b11_0000) << 3) | walls;
        let c = covers(occ);
        let by_len = |len: u32| (c >> (16 * (len - 1))) as u16;
        assert_eq!(by_len(1), 0, "one cell cannot fill two holes");
        assert_eq!(by_len(2), 1 << 7, "a domino must start at the first hole");
        assert_eq!(by_len(3), 1 << 6 | 1 << 7);
        assert_eq!(by_len(4), 1 << 5 | 1 << 6 | 1 << 7);
        // Five holes: nothing fills them.
        assert_eq!(covers(((FULL_ROW & !0b11111) << 3) | walls), 0);
    }
}
