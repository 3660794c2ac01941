//! The scalar sweep: one piece, its four orientations in the 16-bit lanes
//! of a `u64`.

use super::rows::{blocked, occupancy, start_row, SPAWN_BIT, X_MASK};
use crate::piece::Piece;
use crate::well::{Rules, Well};

/// Spreads `seed` left and right through runs of `free` (an occluded fill),
/// in four 16-bit lanes at once, one per orientation. A lane's x mask is 13
/// bits, so its top three bits are always clear in `free` and `seed`: every
/// bit a shift carries into a neighbouring lane meets a clear bit of the
/// (narrowed) `free` there, and the lanes never mix.
#[inline(always)]
fn fill_lanes(seed: u64, free: u64) -> u64 {
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

/// The scalar sweep: one piece, its four orientations in u64 lanes.
pub fn for_each_lock_position_scalar(well: &Well, rules: Rules, piece: Piece, mut visit: impl FnMut(i32, i32, u8)) {
    let occ = occupancy(well, rules);
    let shapes = [piece.shape(0), piece.shape(1), piece.shape(2), piece.shape(3)];
    // Lane o (bits 16 o .. 16 o + 12) of each mask is orientation o.
    let free_at = |y: usize| -> u64 {
        (0..4).fold(0u64, |acc, o| acc | ((!blocked(&occ, shapes[o], y) & X_MASK) as u64) << (16 * o))
    };
    let mut y = start_row(well, rules);
    let mut free = free_at(y);
    let mut reach = SPAWN_BIT as u64 & free;
    loop {
        // Closure under L, R (within each lane) and U (lane o to lane o + 1).
        loop {
            let before = reach;
            reach = fill_lanes(reach, free);
            reach |= reach.rotate_left(16) & free;
            if reach == before {
                break;
            }
        }
        if reach == 0 {
            return;
        }
        // D: into the row below where free, else lock here. Bits ascend by
        // orientation, then x.
        let below = free_at(y + 1);
        let mut locks = reach & !below;
        while locks != 0 {
            let bit = locks.trailing_zeros() as i32;
            visit(bit % 16 - 3, y as i32, (bit / 16) as u8);
            locks &= locks - 1;
        }
        free = below;
        reach &= below;
        if reach == 0 {
            return;
        }
        y += 1;
    }
}
