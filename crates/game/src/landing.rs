//! Every landing of a piece, found with bit operations.
//!
//! A position is (x, y, o) with the 4x4 box's top-left at (x, y); x runs over
//! -3..=9, stored as bit `x + 3` of a 13-bit mask. For one orientation and
//! one row y, a single mask says which x are free, so all x move at once.
//! Moves never go up, and U/L/R keep y, so the official breadth-first search
//! is equivalent to a sweep down the rows: a row's reachable set is the
//! closure under L, R and U of what D brought from the row above. A
//! reachable position whose D is blocked locks: that is a landing.

use crate::piece::{Piece, Shape};
use crate::well::{Rules, Well, MAX_DEPTH, WIDTH};

/// Bits for x = -3..=9.
const X_MASK: u16 = (1 << 13) - 1;
/// Bit index of the spawn column x = 3.
const SPAWN_BIT: u16 = 1 << 6;

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

/// Per-row occupancy with walls, as a 16-bit mask where bit `c + 3` is column
/// `c` (columns -3..=12); rows below the floor are solid.
#[inline]
fn occupancy(well: &Well, rules: Rules) -> [u16; MAX_DEPTH + 4] {
    const WALLS: u16 = 0b111 | (0b111 << (WIDTH + 3));
    let mut occ = [u16::MAX; MAX_DEPTH + 4];
    for (o, &row) in occ.iter_mut().zip(&well.rows[..rules.depth()]) {
        *o = (row << 3) | WALLS;
    }
    occ
}

/// The x positions (as bits) at which `shape` collides at box row `y`.
#[inline(always)]
fn blocked(occ: &[u16; MAX_DEPTH + 4], shape: &Shape, y: usize) -> u16 {
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

/// Spreads `seed` left and right through runs of `free` (an occluded fill).
#[inline(always)]
fn fill_row(seed: u16, free: u16) -> u16 {
    let mut up = seed;
    let mut p = free;
    up |= p & (up << 1);
    p &= p << 1;
    up |= p & (up << 2);
    p &= p << 2;
    up |= p & (up << 4);
    p &= p << 4;
    up |= p & (up << 8);
    let mut down = seed;
    let mut p = free;
    down |= p & (down >> 1);
    p &= p >> 1;
    down |= p & (down >> 2);
    p &= p >> 2;
    down |= p & (down >> 4);
    p &= p >> 4;
    down |= p & (down >> 8);
    (up | down) & free
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

/// Calls `visit(x, y, o)` once for every distinct lock position of `piece`,
/// in no particular order. Positions, not wells: two positions may give the
/// same well (O in its four orientations, say).
#[inline]
pub fn for_each_lock_position(well: &Well, rules: Rules, piece: Piece, mut visit: impl FnMut(i32, i32, u8)) {
    let occ = occupancy(well, rules);
    let shapes = [piece.shape(0), piece.shape(1), piece.shape(2), piece.shape(3)];
    // O looks the same in every orientation; I, S and Z in two pairs. Their
    // reachable sets still differ per orientation (the boxes differ), so all
    // four are swept: the enemy needs the positions, not just the shapes.
    let mut y = start_row(well, rules);
    let mut free = [0u16; 4];
    for o in 0..4 {
        free[o] = !blocked(&occ, shapes[o], y) & X_MASK;
    }
    let mut reach = [SPAWN_BIT & free[0], 0, 0, 0];
    loop {
        // Closure under L, R, U within the row.
        loop {
            let before = reach;
            for o in 0..4 {
                reach[o] = fill_row(reach[o], free[o]);
            }
            for o in 0..4 {
                let next = (o + 1) & 3;
                reach[next] |= reach[o] & free[next];
            }
            if reach == before {
                break;
            }
        }
        if reach == [0; 4] {
            return;
        }
        // D: into the row below where free, else lock here.
        let mut any = 0;
        for o in 0..4 {
            let below_free = !blocked(&occ, shapes[o], y + 1) & X_MASK;
            let mut locks = reach[o] & !below_free;
            while locks != 0 {
                let bit = locks.trailing_zeros() as i32;
                visit(bit - 3, y as i32, o as u8);
                locks &= locks - 1;
            }
            free[o] = below_free;
            reach[o] &= below_free;
            any |= reach[o];
        }
        if any == 0 {
            return;
        }
        y += 1;
    }
}

/// All landings of `piece` in `well`, with the wells they make.
pub fn landings(well: &Well, rules: Rules, piece: Piece) -> Vec<Landing> {
    let mut out = Vec::with_capacity(40);
    for_each_lock_position(well, rules, piece, |x, y, o| {
        let mut w = *well;
        let lines = w.lock(piece.shape(o), x, y) as u8;
        out.push(Landing { x: x as i8, y: y as i8, o, lines, well: w });
    });
    out
}

/// The landings with duplicate wells removed (first kept): the set a player
/// chooses from.
pub fn distinct_landings(well: &Well, rules: Rules, piece: Piece) -> Vec<Landing> {
    let mut all = landings(well, rules, piece);
    let mut seen = rustc_hash::FxHashSet::default();
    all.retain(|l| seen.insert(l.well));
    all
}
