//! The well: bit rows, top first, as the official game stores it.

use crate::piece::Shape;
use std::fmt;

/// Width of the well in columns.
pub const WIDTH: usize = 10;
/// A full row.
pub const FULL_ROW: u16 = (1 << WIDTH) - 1;
/// Rows above the bar (0..BAR) must stay empty or the game is over.
pub const BAR: usize = 4;
/// Playable rows below the bar in the official game.
pub const STANDARD_HEIGHT: usize = 16;
/// The largest number of rows a well can have (bar + standard height).
pub const MAX_DEPTH: usize = BAR + STANDARD_HEIGHT;

/// The geometry of a game: the number of playable rows below the bar.
/// The official game is `Rules::STANDARD` (16); smaller heights exist for the
/// exact solver, which learns from wells small enough to solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    depth: u8,
}

impl Rules {
    pub const STANDARD: Rules = Rules { depth: MAX_DEPTH as u8 };

    /// A game with `height` playable rows below the bar (1..=16).
    pub fn with_height(height: usize) -> Option<Rules> {
        (1..=STANDARD_HEIGHT).contains(&height).then_some(Rules { depth: (BAR + height) as u8 })
    }

    /// Total rows, bar included.
    #[inline]
    pub fn depth(self) -> usize {
        self.depth as usize
    }

    /// Playable rows below the bar.
    #[inline]
    pub fn height(self) -> usize {
        self.depth as usize - BAR
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::STANDARD
    }
}

/// Words of `Well::words`.
pub const WORDS: usize = MAX_DEPTH / 4;

// `hash64` folds the words in order with a multiply-xor mixer.
const HASH_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

#[inline(always)]
fn hash_step(h: u64, word: u64) -> u64 {
    let h = (h ^ word).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 31)
}

#[inline(always)]
fn hash_finish(h: u64) -> u64 {
    h ^ (h >> 29)
}

/// A well as 20 bit rows, row 0 on top; bit `x` is column `x`.
/// Games smaller than the standard use only the first `Rules::depth()` rows;
/// the rest stay zero, so equality and hashing need no rules.
#[derive(Clone, Copy, Eq, Default, PartialOrd, Ord)]
#[repr(C, align(8))]
pub struct Well {
    pub rows: [u16; MAX_DEPTH],
}

/// Five word compares, inlined: the derived equality called `memcmp`,
/// 3% of a chained search (the chains' memo compares wells).
impl PartialEq for Well {
    #[inline]
    fn eq(&self, other: &Well) -> bool {
        self.words() == other.words()
    }
}

/// As derived: the rows as one slice (equal wells hash alike).
impl std::hash::Hash for Well {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.rows.hash(state)
    }
}

impl Well {
    pub const EMPTY: Well = Well { rows: [0; MAX_DEPTH] };

    pub fn from_rows(rows: [u16; MAX_DEPTH]) -> Well {
        Well { rows }
    }

    /// The playable rows (below the bar) of a well played under `rules`.
    #[inline]
    pub fn playable(&self, rules: Rules) -> &[u16] {
        &self.rows[BAR..rules.depth()]
    }

    /// The official "height rating": index of the first non-empty row from
    /// the top, or the depth for an empty well. Larger is a lower stack.
    #[inline]
    pub fn rating(&self, rules: Rules) -> u8 {
        self.rows[..rules.depth()].iter().position(|&r| r != 0).unwrap_or(rules.depth()) as u8
    }

    /// The game is over once anything stands on the row just above the bar.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.rows[BAR - 1] != 0
    }

    /// The rows as `WORDS` words of four rows each: row `4 k + i` in bits
    /// `16 i..` of word `k`.
    #[inline]
    pub fn words(&self) -> [u64; WORDS] {
        std::array::from_fn(|k| {
            let r = &self.rows[4 * k..4 * k + 4];
            r[0] as u64 | (r[1] as u64) << 16 | (r[2] as u64) << 32 | (r[3] as u64) << 48
        })
    }

    /// A 64-bit hash of the rows, for the enemy's memory and for merging.
    #[inline]
    pub fn hash64(&self) -> u64 {
        hash_finish(self.words().iter().fold(HASH_SEED, |h, &w| hash_step(h, w)))
    }

    /// Does the piece, box top-left at (`x`, `y`), fit on empty cells inside the well?
    pub fn fits(&self, rules: Rules, shape: &Shape, x: i32, y: i32) -> bool {
        if x < -3 {
            return false;
        }
        for r in 0..4 {
            let bits = shape.rows[r] as u32;
            if bits == 0 {
                continue;
            }
            let row = y + r as i32;
            if row < 0 || row >= rules.depth() as i32 {
                return false;
            }
            // Columns x..x+3 shifted so that column -3 is bit 0.
            let placed = bits << (x + 3) as u32;
            let walls = 0b111 | (0b111 << (WIDTH + 3));
            let occupied = ((self.rows[row as usize] as u32) << 3) | walls;
            if placed & occupied != 0 || placed >> (WIDTH + 6) != 0 {
                return false;
            }
        }
        true
    }

    /// Writes the piece into the well and clears full rows within its box,
    /// as the official lock does; returns the lines cleared. A piece whose
    /// cells reach above the bar clears nothing.
    #[inline]
    pub fn lock(&mut self, shape: &Shape, x: i32, y: i32) -> u32 {
        let top = y + shape.top as i32;
        let bottom = y + shape.bottom as i32;
        for r in shape.top..=shape.bottom {
            let row = (y + r as i32) as usize;
            self.rows[row] |= (((shape.rows[r as usize] as u32) << (x + 3) as u32) >> 3) as u16;
        }
        if top < BAR as i32 {
            return 0;
        }
        let mut cleared = 0;
        for row in top..=bottom {
            let row = row as usize;
            if self.rows[row] == FULL_ROW {
                // Rows above move down one; rows 0..BAR are empty here, so the
                // official "k > 1" quirk of the shift cannot show.
                self.rows.copy_within(0..row, 1);
                self.rows[0] = 0;
                cleared += 1;
            }
        }
        cleared
    }

    /// Number of filled cells.
    pub fn cells(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }

    /// Text drawing of the first `depth` rows, a bar line under row BAR-1.
    pub fn draw(&self, rules: Rules) -> String {
        let mut s = String::new();
        for (i, &row) in self.rows[..rules.depth()].iter().enumerate() {
            s.push('|');
            for x in 0..WIDTH {
                s.push(if row >> x & 1 == 1 { '#' } else { '.' });
            }
            s.push_str("|\n");
            if i + 1 == BAR {
                s.push_str("+----------+ bar\n");
            }
        }
        s.push_str("+----------+\n");
        s
    }
}

/// `Well::hash64` of the wells one lock away from a base well, without
/// building them. A lock changes at most two adjacent words, and `hash64`
/// reads the words in order, so its state before each word is kept and only
/// the words from the first changed one on are folded again.
#[derive(Clone, Debug)]
pub struct LockHasher {
    words: [u64; WORDS],
    /// The hash state before word `k`.
    states: [u64; WORDS],
    /// The rows, with empty ones below the floor: four rows from any box
    /// top are one load.
    rows: [u16; MAX_DEPTH + 4],
}

impl LockHasher {
    #[inline]
    pub fn new(well: &Well) -> LockHasher {
        let words = well.words();
        let mut states = [HASH_SEED; WORDS];
        for k in 1..WORDS {
            states[k] = hash_step(states[k - 1], words[k - 1]);
        }
        let mut rows = [0; MAX_DEPTH + 4];
        rows[..MAX_DEPTH].copy_from_slice(&well.rows);
        LockHasher { words, states, rows }
    }

    /// Rows `y..y + 4` as one word, row `y` in the low bits.
    #[inline(always)]
    fn box_rows(&self, y: usize) -> u64 {
        let r = &self.rows[y..y + 4];
        r[0] as u64 | (r[1] as u64) << 16 | (r[2] as u64) << 32 | (r[3] as u64) << 48
    }

    /// The `hash64` of the base well with `shape` locked at (x, y), a
    /// position inside the well, or None if a row of the piece's box is
    /// then full: rows may clear and move, so lock for real.
    #[inline]
    pub fn hash_after_lock(&self, shape: &Shape, x: i32, y: i32) -> Option<u64> {
        // Cells stay within columns 0..9, so no row's bits spill into the next.
        let cells = (shape.packed << (x + 3) as u32) >> 3;
        if has_full_row(self.box_rows(y as usize) | cells) {
            return None;
        }
        let (k, shift) = (y as usize / 4, 16 * (y as u32 % 4));
        let mut h = hash_step(self.states[k], self.words[k] | cells << shift);
        if k + 1 < WORDS {
            // The rows shifted out of word `k` (none when `shift` is 0).
            let second = self.words[k + 1] | (cells >> 1) >> (63 - shift);
            h = hash_step(h, second);
            for &w in &self.words[k + 2..] {
                h = hash_step(h, w);
            }
        }
        Some(hash_finish(h))
    }
}

/// Is one of the word's four rows full?
#[inline(always)]
fn has_full_row(word: u64) -> bool {
    const LANES: u64 = 0x0001_0001_0001_0001;
    // A lane of `missing` is zero where the row is full; the borrow test
    // finds a zero lane exactly.
    let missing = word ^ (FULL_ROW as u64 * LANES);
    missing.wrapping_sub(LANES) & !missing & (0x8000 * LANES) != 0
}

impl fmt::Debug for Well {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Well{:?}", self.rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Piece;
    use crate::sweep::tests::arb_well;
    use crate::sweep::{completes_a_row, for_each_lock_position};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Hashing a lock without building the well agrees with locking for
        /// real, and leaves to the caller only the locks that fill a row.
        #[test]
        fn lock_hasher_matches_a_real_lock(well in arb_well(Rules::STANDARD)) {
            let hasher = LockHasher::new(&well);
            for piece in Piece::ALL {
                for_each_lock_position(&well, Rules::STANDARD, piece, |x, y, o| {
                    let shape = piece.shape(o);
                    let mut locked = well;
                    locked.lock(shape, x, y);
                    let at = format!("{piece} at {x},{y},{o} in {well:?}");
                    match hasher.hash_after_lock(shape, x, y) {
                        Some(hash) => assert_eq!(hash, locked.hash64(), "{}", at),
                        None => assert!(completes_a_row(&well, shape, x, y), "{}", at),
                    }
                });
            }
        }
    }

    /// Checkpoints store `hash64` and the beam breaks ties with it: its
    /// values must not change.
    #[test]
    fn hash64_is_pinned() {
        assert_eq!(Well::EMPTY.hash64(), 0x0c22_97a4_3a98_153b);
        let mut w = Well::EMPTY;
        w.rows[19] = 0b1111000011;
        w.rows[18] = 1;
        w.rows[12] = 0b0110000000;
        assert_eq!(w.hash64(), 0x4262_8537_cf6d_420a);
    }

    #[test]
    fn rating_of_empty_well_is_its_depth() {
        assert_eq!(Well::EMPTY.rating(Rules::STANDARD), 20);
        assert_eq!(Well::EMPTY.rating(Rules::with_height(5).unwrap()), 9);
    }

    #[test]
    fn lock_clears_a_full_row_and_shifts_down() {
        let mut w = Well::EMPTY;
        w.rows[19] = 0b1111000011; // gap at columns 2..5
        w.rows[18] = 0b0000000001;
        // I flat (o0) has its cells on box row 1: y=18 puts them on row 19.
        let lines = w.lock(Piece::I.shape(0), 2, 18);
        assert_eq!(lines, 1);
        assert_eq!(w.rows[19], 1);
        assert_eq!(w.rows[18], 0);
    }

    #[test]
    fn no_clear_when_the_piece_reaches_above_the_bar() {
        let mut w = Well::EMPTY;
        w.rows[4] = 0b1111000011;
        // I vertical (o1) from row 1 to row 4 at column 2: top is above the bar.
        let lines = w.lock(Piece::I.shape(1), 0, 1);
        assert_eq!(lines, 0);
        assert!(w.is_game_over());
    }

    #[test]
    fn fits_respects_walls_floor_and_cells() {
        let rules = Rules::STANDARD;
        let mut w = Well::EMPTY;
        let o = Piece::O.shape(0); // cells in box columns 1..2, rows 1..2
        assert!(w.fits(rules, o, -1, 0));
        assert!(!w.fits(rules, o, -2, 0));
        assert!(w.fits(rules, o, 7, 0));
        assert!(!w.fits(rules, o, 8, 0));
        assert!(w.fits(rules, o, 3, 17));
        assert!(!w.fits(rules, o, 3, 18));
        w.rows[19] = 1 << 4;
        assert!(!w.fits(rules, o, 3, 17));
        assert!(w.fits(rules, o, 5, 17));
    }
}
