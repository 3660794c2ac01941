//! The seven pieces and their four orientations, exactly as the official
//! rotation system draws them in a 4x4 box (no wall kicks).

use std::fmt;

/// A piece, numbered in the enemy's preference order S, Z, O, I, L, J, T.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    S = 0,
    Z = 1,
    O = 2,
    I = 3,
    L = 4,
    J = 5,
    T = 6,
}

impl Piece {
    /// All pieces in the enemy's tie-break order.
    pub const ALL: [Piece; 7] = [Piece::S, Piece::Z, Piece::O, Piece::I, Piece::L, Piece::J, Piece::T];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Piece {
        Piece::ALL[i]
    }

    pub fn letter(self) -> char {
        b"SZOILJT"[self as usize] as char
    }

    pub fn from_letter(c: char) -> Option<Piece> {
        Piece::ALL.iter().copied().find(|p| p.letter() == c)
    }

    /// The shape of orientation `o`.
    pub fn shape(self, o: u8) -> &'static Shape {
        &SHAPES[self as usize][o as usize & 3]
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One orientation: the 4 rows of the 4x4 box (bit c = box column c) and the
/// first and last rows that hold cells (the official `yMin`, `yMin + yDim - 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub rows: [u8; 4],
    pub top: u8,
    pub bottom: u8,
    /// The rows again, box row `r` in bits `16 r..`: laid out as four rows
    /// of a well word (see `Well::words`), to be added with one shift.
    pub packed: u64,
}

const fn shape(pic: [&str; 4]) -> Shape {
    let mut rows = [0u8; 4];
    let mut r = 0;
    let mut top = 4u8;
    let mut bottom = 0u8;
    let mut packed = 0u64;
    while r < 4 {
        let b = pic[r].as_bytes();
        let mut c = 0;
        while c < 4 {
            if b[c] == b'#' {
                rows[r] |= 1 << c;
            }
            c += 1;
        }
        packed |= (rows[r] as u64) << (16 * r);
        if rows[r] != 0 {
            if top == 4 {
                top = r as u8;
            }
            bottom = r as u8;
        }
        r += 1;
    }
    Shape { rows, top, bottom, packed }
}

const O_SHAPE: Shape = shape(["....", ".##.", ".##.", "...."]);

/// Indexed `[piece][orientation]`, drawn as on the rules page.
/// The shapes as a constant, so that other tables can be derived at compile
/// time (see `peaks`).
pub(crate) const SHAPE_TABLE: [[Shape; 4]; 7] = [
    // S
    [
        shape(["....", "..##", ".##.", "...."]),
        shape(["....", ".#..", ".##.", "..#."]),
        shape(["....", ".##.", "##..", "...."]),
        shape([".#..", ".##.", "..#.", "...."]),
    ],
    // Z
    [
        shape(["....", ".##.", "..##", "...."]),
        shape(["....", "..#.", ".##.", ".#.."]),
        shape(["....", "##..", ".##.", "...."]),
        shape(["..#.", ".##.", ".#..", "...."]),
    ],
    // O
    [O_SHAPE, O_SHAPE, O_SHAPE, O_SHAPE],
    // I
    [
        shape(["....", "####", "....", "...."]),
        shape(["..#.", "..#.", "..#.", "..#."]),
        shape(["....", "....", "####", "...."]),
        shape([".#..", ".#..", ".#..", ".#.."]),
    ],
    // L
    [
        shape(["....", ".###", ".#..", "...."]),
        shape(["....", ".##.", "..#.", "..#."]),
        shape(["....", "..#.", "###.", "...."]),
        shape([".#..", ".#..", ".##.", "...."]),
    ],
    // J
    [
        shape(["....", ".##.", ".#..", ".#.."]),
        shape(["....", "###.", "..#.", "...."]),
        shape(["..#.", "..#.", ".##.", "...."]),
        shape(["....", ".#..", ".###", "...."]),
    ],
    // T
    [
        shape(["....", ".###", "..#.", "...."]),
        shape(["....", "..#.", ".##.", "..#."]),
        shape(["....", ".#..", "###.", "...."]),
        shape([".#..", ".##.", ".#..", "...."]),
    ],
];

static SHAPES: [[Shape; 4]; 7] = SHAPE_TABLE;

/// Orientation `of` of the same piece has the same cells up to a shift: a
/// lock at (x, y) in orientation `of` covers the cells of a lock at
/// (x + dx, y + dy) in the twin's own orientation, so the two locks make
/// the same well.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Twin {
    pub of: u8,
    pub dx: i8,
    pub dy: i8,
}

/// Per piece and orientation, an earlier orientation with the same cells
/// (O's last three, and S's, Z's and I's last two), derived from the shapes.
pub(crate) const TWINS: [[Option<Twin>; 4]; 7] = {
    let mut twins = [[None; 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut b = 1;
        while b < 4 {
            twins[p][b] = earlier_twin(&SHAPE_TABLE[p], b);
            b += 1;
        }
        p += 1;
    }
    twins
};

/// The first orientation before `b` whose cells, shifted by less than the
/// box's size, are `b`'s.
const fn earlier_twin(shapes: &[Shape; 4], b: usize) -> Option<Twin> {
    let mut of = 0;
    while of < b {
        let mut dy = -3;
        while dy <= 3 {
            let mut dx = -3;
            while dx <= 3 {
                if same_cells_shifted(&shapes[of], &shapes[b], dx, dy) {
                    return Some(Twin { of: of as u8, dx: dx as i8, dy: dy as i8 });
                }
                dx += 1;
            }
            dy += 1;
        }
        of += 1;
    }
    None
}

/// Is every cell (c, r) of `a` the cell (c - dx, r - dy) of `b`? Both have
/// four cells, so then they have the same cells.
const fn same_cells_shifted(a: &Shape, b: &Shape, dx: i32, dy: i32) -> bool {
    let mut r = 0;
    while r < 4 {
        let row = a.rows[r as usize] as u32;
        if row != 0 {
            let rb = r - dy;
            if rb < 0 || rb >= 4 {
                return false;
            }
            let moved = if dx >= 0 { row >> dx } else { row << -dx };
            let back = if dx >= 0 { moved << dx } else { moved >> -dx };
            if back != row || moved >= 16 || moved != b.rows[rb as usize] as u32 {
                return false;
            }
        }
        r += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_orientation_has_four_cells() {
        for p in Piece::ALL {
            for o in 0..4 {
                let cells: u32 = p.shape(o).rows.iter().map(|r| r.count_ones()).sum();
                assert_eq!(cells, 4, "{p} o{o}");
            }
        }
    }

    #[test]
    fn letters_round_trip() {
        for p in Piece::ALL {
            assert_eq!(Piece::from_letter(p.letter()), Some(p));
        }
        assert_eq!(Piece::from_letter('X'), None);
    }

    #[test]
    fn twins_are_found_where_the_shapes_repeat() {
        let orientations_with_twins = |p: Piece| TWINS[p.index()].iter().flatten().count();
        let counts: Vec<usize> = Piece::ALL.into_iter().map(orientations_with_twins).collect();
        assert_eq!(counts, [2, 2, 3, 2, 0, 0, 0]);
        // S lying: orientation 2 one column right of orientation 0.
        assert_eq!(TWINS[Piece::S.index()][2], Some(Twin { of: 0, dx: 1, dy: 0 }));
        // I lying: orientation 2 one row above orientation 0.
        assert_eq!(TWINS[Piece::I.index()][2], Some(Twin { of: 0, dx: 0, dy: -1 }));
    }

    #[test]
    fn top_and_bottom_bound_the_cells() {
        let s = Piece::I.shape(1);
        assert_eq!((s.top, s.bottom), (0, 3));
        let s = Piece::T.shape(0);
        assert_eq!((s.top, s.bottom), (1, 2));
    }
}
