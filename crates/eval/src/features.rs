//! Network inputs: counts of small patterns in the well.
//!
//! * Row patterns: each playable row, read as its 10-bit value (0..=1022; a
//!   full row never stays in the well), one per row.
//! * Window patterns: the playable rows are framed by one wall column on each
//!   side and one floor row below (walls and floor count as filled; nothing
//!   above the bar is included), giving a 12-column, (h+1)-row grid. Every
//!   3-wide, 4-high window at stride 1 is read as a 12-bit number with
//!   `bit = 3 * r + c`, where `r` is the row within the window counted from
//!   the top and `c` the column within the window counted from the lowest
//!   column index (bit `x` of a row is column `x`; the left wall sits next to
//!   column 0). A well of h rows has 10 x (h - 2) windows (none if h < 3).
//!
//! Window pattern `p` is feature `ROW_FEATURES + p`, so a 16-row well has
//! 16 + 140 = 156 active features, with repeats.

/// Row patterns 0..=1022.
pub const ROW_FEATURES: usize = 1023;
/// 3x4 window patterns 0..=4095.
pub const WINDOW_FEATURES: usize = 4096;
/// All inputs; window pattern `p` is index `ROW_FEATURES + p`.
pub const NUM_FEATURES: usize = ROW_FEATURES + WINDOW_FEATURES;

/// Windows per window-row: padded width 12 minus 2.
pub const WINDOWS_PER_BAND: usize = 10;

/// Window pattern of an all-empty window away from the walls.
pub const WINDOW_EMPTY: u16 = 0;
/// Window pattern of an empty window against the left wall (column c = 0 filled).
pub const WINDOW_LEFT_WALL: u16 = 0b001_001_001_001;
/// Window pattern of an empty window against the right wall (column c = 2 filled).
pub const WINDOW_RIGHT_WALL: u16 = 0b100_100_100_100;

/// Number of active features (with repeats) of a well with `h` playable rows.
pub const fn active_count(h: usize) -> usize {
    h + if h >= 3 { WINDOWS_PER_BAND * (h - 2) } else { 0 }
}

/// A row framed by its two walls: bit 0 is the left wall, bit `x + 1` column
/// `x`, bit 11 the right wall.
#[inline(always)]
pub const fn padded(row: u16) -> u16 {
    1 | ((row & 0x3FF) << 1) | (1 << 11)
}

/// The floor row of the padded grid (walls included).
pub const PADDED_FLOOR: u16 = 0xFFF;

/// `SPREAD[row]`: the 3-bit slices of the padded row at the 10 window
/// columns, slice `c0` at bit `12 * (c0 % 5)` of word `c0 / 5`. Four rows
/// combine into the 10 window numbers of a band with three shifts and ors,
/// instead of per-window bit gathering.
pub static SPREAD: [[u64; 2]; 1024] = build_spread();

/// The spread of the floor row.
pub const SPREAD_FLOOR: [u64; 2] = spread(PADDED_FLOOR);

const fn spread(p: u16) -> [u64; 2] {
    let mut out = [0u64; 2];
    let mut c0 = 0;
    while c0 < WINDOWS_PER_BAND {
        let triple = ((p >> c0) & 7) as u64;
        out[c0 / 5] |= triple << (12 * (c0 % 5));
        c0 += 1;
    }
    out
}

const fn build_spread() -> [[u64; 2]; 1024] {
    let mut t = [[0u64; 2]; 1024];
    let mut r = 0;
    while r < 1024 {
        t[r] = spread(padded(r as u16));
        r += 1;
    }
    t
}

/// Spread of playable row `i`, or of the floor for `i == rows.len()`.
#[inline(always)]
fn spread_at(rows: &[u16], i: usize) -> [u64; 2] {
    if i < rows.len() {
        SPREAD[(rows[i] & 0x3FF) as usize]
    } else {
        SPREAD_FLOOR
    }
}

/// The two words holding the 10 window numbers of the band whose top row is
/// `top` (rows `top..top + 4` of the padded grid, the floor at index h).
#[inline(always)]
pub fn band(rows: &[u16], top: usize) -> [u64; 2] {
    let (a, b, c, d) =
        (spread_at(rows, top), spread_at(rows, top + 1), spread_at(rows, top + 2), spread_at(rows, top + 3));
    [a[0] | b[0] << 3 | c[0] << 6 | d[0] << 9, a[1] | b[1] << 3 | c[1] << 6 | d[1] << 9]
}

/// Calls `f` with the 10 window patterns (0..4096, not offset) of a band.
#[inline(always)]
pub fn for_each_window_in_band(words: [u64; 2], mut f: impl FnMut(u16)) {
    for w in words {
        for k in 0..5 {
            f(((w >> (12 * k)) & 0xFFF) as u16);
        }
    }
}

/// Receives the features of a well from [`walk_folded`], in groups.
pub(crate) trait FeatureSink {
    /// One active feature (repeats arrive as repeated calls).
    ///
    /// # Safety
    /// Callers pass `f < NUM_FEATURES`, so implementations may index unchecked.
    unsafe fn add(&mut self, f: usize);

    /// The end of a group: at most [`GROUP_WINDOWS`] window features and
    /// [`GROUP_ROWS`] row features, or no window and [`ROWS_ONLY_GROUP`]
    /// rows, arrive between two calls.
    fn end_group(&mut self);

    /// The group of the band whose top is row `top` of `rows` (the band on
    /// the floor if `top == rows.len() - 3`): its 10 windows, and its top
    /// row if `top_row` (false when that row is folded). `rows[top..]` (at
    /// most 4 of them), whether the band is on the floor, and `top_row`
    /// determine the whole group.
    #[inline(always)]
    fn band_group(&mut self, rows: &[u16], top: usize, top_row: bool) {
        for_each_window_in_band(band(rows, top), |p| {
            // SAFETY: ROW_FEATURES + (p <= 4095) = at most NUM_FEATURES - 1.
            unsafe { self.add(ROW_FEATURES + p as usize) }
        });
        if top_row {
            // SAFETY: r & 0x3FF <= 1023 < NUM_FEATURES.
            unsafe { self.add((rows[top] & 0x3FF) as usize) }
        }
        self.end_group();
    }
}

/// Window features per group of [`walk_folded`]: one band.
pub(crate) const GROUP_WINDOWS: usize = WINDOWS_PER_BAND;
/// Row features per band group of [`walk_folded`].
pub(crate) const GROUP_ROWS: usize = 1;
/// Row features of the group without windows (the rows that top no band).
pub(crate) const ROWS_ONLY_GROUP: usize = 2;

/// What [`walk_folded`] left out: the empty rows at the top of the well.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Folded {
    /// Empty rows at the top: each is row pattern 0.
    pub rows: usize,
    /// Bands wholly inside them: each is 8 empty windows, one against each
    /// wall ([`WINDOW_EMPTY`], [`WINDOW_LEFT_WALL`], [`WINDOW_RIGHT_WALL`]).
    pub bands: usize,
}

/// The active features of a well (the multiset [`active_features`] lists)
/// minus its empty top, which is returned as counts instead.
///
/// Every band that is not wholly inside the empty top comes as one
/// [`FeatureSink::band_group`], from the top, with its top row unless that
/// row is empty and folded; then the two bottom rows (which top no band),
/// unless folded, as one last group. Wells of fewer than 3 rows have no
/// bands: their rows make that last group. `rows` may be of any length;
/// `r & 0x3FF` is read for each row.
#[inline(always)]
pub(crate) fn walk_folded<S: FeatureSink>(rows: &[u16], sink: &mut S) -> Folded {
    let h = rows.len();
    let k = rows.iter().position(|&r| r != 0).unwrap_or(h);
    let bands = if h >= 3 { k.saturating_sub(3) } else { 0 };
    for top in bands..h.saturating_sub(2) {
        sink.band_group(rows, top, top >= k);
    }
    for &r in &rows[k.max(h.saturating_sub(2))..] {
        // SAFETY: r & 0x3FF <= 1023 < NUM_FEATURES.
        unsafe { sink.add((r & 0x3FF) as usize) }
    }
    sink.end_group();
    Folded { rows: k, bands }
}

/// Calls `f` with `p << k` for the 10 window patterns `p` of a band (as
/// [`band`] packs them; `k <= 12`): one shift and one mask each, so that a
/// kernel can reach window p's weights at `(p << k) * odd` from the first
/// window's, for a row stride of `2^k * odd` (a `lea` when odd is 3).
/// (The f32 kernel measured slower with it, its address arithmetic then
/// being vectorised by the compiler; the i16 one uses it.)
#[inline(always)]
pub(crate) fn for_each_window_shifted(words: [u64; 2], k: u32, mut f: impl FnMut(usize)) {
    let mask = 0xFFFu64 << k;
    for w in words {
        for i in 0..5u32 {
            let s = if 12 * i >= k { w >> (12 * i - k) } else { w << (k - 12 * i) };
            f((s & mask) as usize);
        }
    }
}

/// Appends the active feature indices (with repeats) of a well: one per row
/// (its pattern), then one per 3x4 window (band by band from the top, left
/// to right). `rows` are the playable rows, top first (length 1..=16).
pub fn active_features(rows: &[u16], out: &mut Vec<u16>) {
    let h = rows.len();
    debug_assert!(rows.iter().all(|&r| r < 1023), "full or out-of-range row in well");
    // Filled in a fixed-size buffer, appended once: no capacity check per push.
    let mut buf = [0u16; active_count(16)];
    let n = active_count(h);
    if n > buf.len() {
        // Taller than any HATETRIS well: the simple way.
        out.extend(rows.iter().map(|&r| r & 0x3FF));
        for top in 0..h - 2 {
            for_each_window_in_band(band(rows, top), |p| out.push(ROW_FEATURES as u16 + p));
        }
        return;
    }
    for (b, &r) in buf.iter_mut().zip(rows) {
        *b = r & 0x3FF;
    }
    if h >= 3 {
        for top in 0..h - 2 {
            let words = band(rows, top);
            let at = h + WINDOWS_PER_BAND * top;
            for (j, w) in words.iter().enumerate() {
                for i in 0..5 {
                    buf[at + 5 * j + i] = ROW_FEATURES as u16 + ((w >> (12 * i)) & 0xFFF) as u16;
                }
            }
        }
    }
    out.extend_from_slice(&buf[..n]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::well;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    /// Plain cell-by-cell extractor: the padded grid as a function, every
    /// window read bit by bit.
    fn reference_features(rows: &[u16]) -> Vec<u16> {
        let h = rows.len();
        let filled = |r: usize, c: usize| -> bool {
            if c == 0 || c == 11 || r == h {
                true
            } else {
                rows[r] >> (c - 1) & 1 == 1
            }
        };
        let mut out: Vec<u16> = rows.to_vec();
        if h + 1 >= 4 {
            for r0 in 0..=h + 1 - 4 {
                for c0 in 0..10 {
                    let mut p = 0u16;
                    for r in 0..4 {
                        for c in 0..3 {
                            if filled(r0 + r, c0 + c) {
                                p |= 1 << (3 * r + c);
                            }
                        }
                    }
                    out.push(ROW_FEATURES as u16 + p);
                }
            }
        }
        out
    }

    fn counts(rows: &[u16]) -> BTreeMap<usize, usize> {
        let mut f = Vec::new();
        active_features(rows, &mut f);
        assert_eq!(f.len(), active_count(rows.len()));
        let mut m = BTreeMap::new();
        for x in f {
            *m.entry(x as usize).or_insert(0) += 1;
        }
        m
    }

    const W: usize = ROW_FEATURES;

    #[test]
    fn empty_well_counts() {
        // 13 bands of free space (8 empty, 1 per wall) and the band on the
        // floor, whose bottom window row (bits 9..11) is the floor.
        let expected = BTreeMap::from([
            (0, 16),
            (W, 104),
            (W + 0x249, 13),
            (W + 0x924, 13),
            (W + 0xE00, 8),
            (W + 0xE49, 1),
            (W + 0xF24, 1),
        ]);
        assert_eq!(counts(&[0; 16]), expected);
        assert_eq!(active_count(16), 156);
    }

    #[test]
    fn single_cell_counts() {
        // Column 0 filled in the bottom row: it is column c=1 of the window
        // against the left wall and c=0 of the next one, in the last two bands.
        let mut rows = [0u16; 16];
        rows[15] = 1;
        let expected = BTreeMap::from([
            (0, 15),
            (1, 1),
            (W, 96 + 7),
            (W + 0x249, 12),
            (W + 0x924, 12 + 1),
            (W + 0x649, 1), // band 12, c0 = 0: wall + bit 3*3+1
            (W + 0x200, 1), // band 12, c0 = 1: bit 3*3+0
            (W + 0xEC9, 1), // band 13, c0 = 0: wall + floor + bit 3*2+1
            (W + 0xE40, 1), // band 13, c0 = 1: floor + bit 3*2+0
            (W + 0xE00, 7), // band 13, c0 = 2..8: floor only
            (W + 0xF24, 1), // band 13, c0 = 9: wall + floor
        ]);
        assert_eq!(counts(&rows), expected);
    }

    #[test]
    fn full_minus_one_row_counts() {
        // A 4-row well whose bottom row misses only column 0; padded it is
        // 0xFFD, i.e. triples 0b101, 0b110, then 0b111.
        let rows = [0, 0, 0, 0b11_1111_1110];
        let expected = BTreeMap::from([
            (0, 3),
            (1022, 1),
            (W + 0xA49, 1), // band 0: wall column + 0b101 in window row 3
            (W + 0xC00, 1),
            (W + 0xE00, 7),
            (W + 0xF24, 1),
            (W + 0xF49, 1), // band 1: the row in window row 2, floor in row 3
            (W + 0xF80, 1),
            (W + 0xFC0, 7),
            (W + 0xFE4, 1),
        ]);
        assert_eq!(counts(&rows), expected);
    }

    #[test]
    fn short_wells_have_no_or_one_band() {
        assert_eq!(counts(&[0, 0]), BTreeMap::from([(0, 2)]));
        assert_eq!(active_count(3), 13);
        assert_eq!(counts(&[0, 0, 0]).values().sum::<usize>(), 13);
    }

    /// Records what `walk_folded` hands over, group by group.
    #[derive(Default)]
    struct Groups {
        done: Vec<Vec<usize>>,
        open: Vec<usize>,
    }

    impl FeatureSink for Groups {
        unsafe fn add(&mut self, f: usize) {
            assert!(f < NUM_FEATURES);
            self.open.push(f);
        }
        fn end_group(&mut self) {
            self.done.push(std::mem::take(&mut self.open));
        }
    }

    proptest! {
        #[test]
        fn matches_cell_by_cell(rows in well()) {
            let mut f = Vec::new();
            active_features(&rows, &mut f);
            prop_assert_eq!(f, reference_features(&rows));
        }

        /// The walk's groups and folded counts are the active features, in
        /// small groups; a band's group depends on nothing but the band's
        /// rows, whether it is on the floor and whether its top row is
        /// folded (what the band cache keys on).
        #[test]
        fn walk_folded_covers_the_features_in_small_groups(rows in well()) {
            let mut g = Groups::default();
            let folded = walk_folded(&rows, &mut g);
            prop_assert!(g.open.is_empty());
            let mut walked: BTreeMap<usize, usize> = BTreeMap::new();
            for (i, group) in g.done.iter().enumerate() {
                let windows = group.iter().filter(|&&f| f >= ROW_FEATURES).count();
                let rows_max = if windows > 0 { GROUP_ROWS } else { ROWS_ONLY_GROUP };
                prop_assert!(windows <= GROUP_WINDOWS && group.len() - windows <= rows_max, "group {i}: {group:?}");
                for &f in group {
                    *walked.entry(f).or_insert(0) += 1;
                }
            }
            let w = |p: u16| ROW_FEATURES + p as usize;
            for (f, n) in [
                (0, folded.rows),
                (w(WINDOW_EMPTY), 8 * folded.bands),
                (w(WINDOW_LEFT_WALL), folded.bands),
                (w(WINDOW_RIGHT_WALL), folded.bands),
            ] {
                *walked.entry(f).or_insert(0) += n;
            }
            walked.retain(|_, n| *n > 0);
            prop_assert_eq!(walked, counts(&rows));
            let h = rows.len();
            let band_tops = folded.bands..h.saturating_sub(2);
            prop_assert_eq!(g.done.len(), band_tops.len() + 1);
            for (top, group) in band_tops.zip(&g.done) {
                // The band's rows alone (four, or three on the floor) give
                // the same group.
                let mut alone = Groups::default();
                alone.band_group(&rows[top..(top + 4).min(h)], 0, top >= folded.rows);
                prop_assert_eq!(&alone.done[0], group);
            }
        }
    }
}
