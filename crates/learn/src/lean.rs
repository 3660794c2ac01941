//! The lean exact solver for HATETRIS Mild: every well reachable from the
//! empty well with its value (the most lines the player can still clear),
//! in about 8 bytes of table per well, no stored edges.
//!
//! **How.** A depth-first search with a memo. A well's value is the most,
//! over the distinct landings of the one piece Mild gives it, of the lines
//! the landing clears plus the value of the well it makes (nothing more when
//! the landing ends the game). The search is iterative, with an explicit
//! stack of frames and one shared array of the frames' pending children.
//! When a well is expanded, its children's table slots are prefetched
//! together and the children already solved are valued at once; the rest
//! are visited one by one (looked up again, since a sibling's search may
//! have solved them meanwhile).
//!
//! **The table.** A reachable well has no empty row below a non-empty one
//! (pieces rest on something, clears only remove full rows) and no full row,
//! so its bottom row (0..=1022) is non-zero unless the well is empty. There
//! is one open-addressed sub-table per bottom row; an entry is one `u64`:
//! the other `h - 1` playable rows, 10 bits each (60 bits at height 7), over
//! a 4-bit tag: 0 an empty slot, [`BUSY`] a well on the search path, 1..=14
//! a solved well worth 0..=13 lines. Sub-tables use linear probing, grow by
//! half when 80% full, and live in their own anonymous memory maps (advised
//! to use transparent huge pages: the probes are random, and huge pages save
//! most of their TLB misses). A memory cap is checked before every growth,
//! so a search too large for the machine stops with [`LeanError::MemoryCap`]
//! instead of running it out of memory.
//!
//! **Cycles.** A child found on the search path is a cycle: the well could
//! come back to itself, and its value is not a plain maximum. None exists
//! from the empty well at heights 1..=6 (see [`crate::solver`]); if one is
//! met the search stops with [`LeanError::Cycle`] rather than give a wrong
//! value. A value above 13 (the most a tag holds) is [`LeanError::ValueTooLarge`].
//!
//! **Measured** (one core; the machine's other core was often busy with
//! other work): see `crates/learn/README.md`.

use crate::dataset::{DatasetError, DatasetWriter, Sample};
use crate::solver::target;
use hatetris_game::{choose_piece, distinct_landings, Rules, Well, BAR, FULL_ROW};
use std::path::Path;
use std::time::Instant;

/// The tallest well whose rows above the bottom one fit 60 bits.
pub const LEAN_MAX_HEIGHT: usize = 7;
/// The largest value a tag holds.
pub const MAX_VALUE: u32 = 13;
/// The tag of a well on the search path.
const BUSY: u64 = 15;
/// One sub-table per bottom row 0..=1022.
const TABLES: usize = FULL_ROW as usize;
/// Slots in a fresh sub-table (one 4 KiB page).
const MIN_SLOTS: usize = 512;
/// A sub-table grows once more than this share of its slots is used.
const MAX_LOAD: f64 = 0.8;
/// Wells solved between checks of the clock for progress.
const PROGRESS_EVERY: u64 = 1 << 16;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LeanError {
    #[error("height {0} is not solvable by the lean solver (1..={LEAN_MAX_HEIGHT})")]
    Height(usize),
    #[error("the start well has cells outside the playable rows, a full row, or an empty row under a non-empty one")]
    BadStart,
    #[error("cycle: a well was reached again while its own value was being computed (after {wells} wells); its value is not a plain maximum, use the graph solver (`--graph`)")]
    Cycle { wells: u64 },
    #[error("a well is worth {value} lines, more than the {MAX_VALUE} the table can hold")]
    ValueTooLarge { value: u32 },
    #[error("the table would pass the memory cap of {limit_bytes} bytes after {wells} wells; raise --max-memory only with the memory for it")]
    MemoryCap { limit_bytes: u64, wells: u64 },
    #[error("cannot map {bytes} bytes of memory for the table")]
    Map { bytes: u64 },
}

/// Where a long solve has got to.
#[derive(Clone, Copy, Debug)]
pub struct LeanProgress {
    /// Wells solved.
    pub done: u64,
    /// Wells in the table (solved or on the search path).
    pub wells: u64,
    /// Bytes the table holds mapped.
    pub bytes: u64,
    /// Depth of the search path.
    pub depth: usize,
    pub secs: f64,
}

/// An anonymous private memory map of `u64`s, zeroed by the kernel.
struct Slab {
    ptr: *mut u64,
    len: usize,
}

// The slab owns its mapping exclusively.
unsafe impl Send for Slab {}
unsafe impl Sync for Slab {}

impl Slab {
    fn new(len: usize) -> Option<Slab> {
        let bytes = len * 8;
        // SAFETY: a fresh anonymous mapping; the result is checked.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return None;
        }
        if bytes >= 4 << 20 {
            // Advice only: without transparent huge pages it is just slower.
            // SAFETY: the range is the mapping just made.
            unsafe { libc::madvise(ptr, bytes, libc::MADV_HUGEPAGE) };
        }
        Some(Slab { ptr: ptr as *mut u64, len })
    }

    fn as_slice(&self) -> &[u64] {
        // SAFETY: `len` u64s mapped read-write, zero-initialised, owned by self.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    fn as_mut_slice(&mut self) -> &mut [u64] {
        // SAFETY: as above, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl Drop for Slab {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, unmapped once.
        unsafe { libc::munmap(self.ptr as *mut libc::c_void, self.len * 8) };
    }
}

/// A finder's verdict on one key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// Not there; this empty slot is where it would go.
    Absent(usize),
    /// There, at this slot, with this tag.
    Found(usize, u64),
}

/// One bottom row's wells.
struct SubTable {
    slots: Slab,
    len: usize,
}

#[inline]
fn mix(key: u64) -> u64 {
    // The splitmix64 finaliser.
    let mut z = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The home slot of `rest` among `n`: the hash scaled to 0..n.
#[inline]
fn home(rest: u64, n: usize) -> usize {
    ((mix(rest) as u128 * n as u128) >> 64) as usize
}

impl SubTable {
    #[inline]
    fn find(&self, rest: u64) -> Slot {
        let slots = self.slots.as_slice();
        let mut i = home(rest, slots.len());
        loop {
            let e = slots[i];
            if e == 0 {
                return Slot::Absent(i);
            }
            if e >> 4 == rest {
                return Slot::Found(i, e & 15);
            }
            i += 1;
            if i == slots.len() {
                i = 0;
            }
        }
    }

    #[inline]
    fn prefetch(&self, rest: u64) {
        let slots = self.slots.as_slice();
        let p = slots[home(rest, slots.len())..].as_ptr();
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint and never faults; `p` is in bounds anyway.
        unsafe {
            std::arch::x86_64::_mm_prefetch(p as *const i8, std::arch::x86_64::_MM_HINT_T0)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let _ = p;
    }
}

/// Every sub-table, with the memory they hold and the cap on it.
struct Table {
    subs: Vec<SubTable>,
    bytes: u64,
    limit: u64,
    wells: u64,
}

impl Table {
    fn new(limit: u64) -> Result<Table, LeanError> {
        let bytes = (TABLES * MIN_SLOTS * 8) as u64;
        if bytes > limit {
            return Err(LeanError::MemoryCap { limit_bytes: limit, wells: 0 });
        }
        let subs = (0..TABLES)
            .map(|_| Slab::new(MIN_SLOTS).map(|slots| SubTable { slots, len: 0 }).ok_or(LeanError::Map { bytes: MIN_SLOTS as u64 * 8 }))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Table { subs, bytes, limit, wells: 0 })
    }

    /// Puts `rest` at the empty slot `at` of sub-table `b` with `tag`,
    /// growing the sub-table if that fills it past the load limit; returns
    /// the slot it ends in.
    fn insert(&mut self, b: usize, at: usize, rest: u64, tag: u64) -> Result<usize, LeanError> {
        let sub = &mut self.subs[b];
        sub.slots.as_mut_slice()[at] = rest << 4 | tag;
        sub.len += 1;
        self.wells += 1;
        if sub.len as f64 > sub.slots.len as f64 * MAX_LOAD {
            let old = sub.slots.len;
            // Half again, rounded up to whole 4 KiB pages.
            let new = (old + old / 2).div_ceil(MIN_SLOTS) * MIN_SLOTS;
            let add = new as u64 * 8;
            if self.bytes + add > self.limit {
                return Err(LeanError::MemoryCap { limit_bytes: self.limit, wells: self.wells });
            }
            let mut slots = Slab::new(new).ok_or(LeanError::Map { bytes: add })?;
            let dst = slots.as_mut_slice();
            for &e in sub.slots.as_slice() {
                if e != 0 {
                    let mut i = home(e >> 4, new);
                    while dst[i] != 0 {
                        i += 1;
                        if i == new {
                            i = 0;
                        }
                    }
                    dst[i] = e;
                }
            }
            sub.slots = slots;
            self.bytes = self.bytes + add - old as u64 * 8;
            match sub.find(rest) {
                Slot::Found(at, _) => return Ok(at),
                Slot::Absent(_) => unreachable!("just inserted"),
            }
        }
        Ok(at)
    }

    fn set(&mut self, b: usize, at: usize, rest: u64, tag: u64) {
        self.subs[b].slots.as_mut_slice()[at] = rest << 4 | tag;
    }
}

/// A well as (bottom row, the rows above it packed 10 bits each, top first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Key {
    bottom: u16,
    rest: u64,
}

impl Key {
    fn of(well: &Well, rules: Rules) -> Key {
        let rows = well.playable(rules);
        let (&bottom, above) = rows.split_last().expect("at least one playable row");
        Key { bottom, rest: above.iter().fold(0u64, |k, &r| k << 10 | r as u64) }
    }

    fn well(self, rules: Rules) -> Well {
        let mut well = Well::EMPTY;
        let d = rules.depth();
        well.rows[d - 1] = self.bottom;
        let above = &mut well.rows[BAR..d - 1];
        let n = above.len();
        for (i, row) in above.iter_mut().enumerate() {
            *row = (self.rest >> (10 * (n - 1 - i)) & 1023) as u16;
        }
        well
    }
}

/// A child waiting to be visited: the well and the lines its landing cleared.
#[derive(Clone, Copy)]
struct Child {
    key: Key,
    lines: u8,
}

/// A well on the search path: its children are `pending[kids..]` (those
/// before `next` visited), `best` the most found so far.
struct Frame {
    key: Key,
    slot: usize,
    kids: usize,
    next: usize,
    best: u32,
}

/// Every well reachable from the start against Mild, with its value.
pub struct LeanSolution {
    rules: Rules,
    table: Table,
    start: Key,
    max_lines: u32,
    landings: u64,
    pub secs: f64,
}

/// Options for [`solve_lean`].
#[derive(Clone, Copy, Debug)]
pub struct LeanOptions {
    /// The table may not map more than this many bytes.
    pub max_bytes: u64,
}

impl Default for LeanOptions {
    fn default() -> Self {
        LeanOptions { max_bytes: 16 << 30 }
    }
}

/// Solves every well reachable from the empty well against HATETRIS Mild.
pub fn solve_lean(rules: Rules, opts: LeanOptions, progress: &mut dyn FnMut(&LeanProgress)) -> Result<LeanSolution, LeanError> {
    solve_lean_from(rules, &Well::EMPTY, opts, progress)
}

/// Solves every well reachable from `start` against HATETRIS Mild.
pub fn solve_lean_from(rules: Rules, start: &Well, opts: LeanOptions, progress: &mut dyn FnMut(&LeanProgress)) -> Result<LeanSolution, LeanError> {
    let h = rules.height();
    if h > LEAN_MAX_HEIGHT {
        return Err(LeanError::Height(h));
    }
    let rows = start.playable(rules);
    let outside = start.rows[..BAR].iter().chain(&start.rows[rules.depth()..]).any(|&r| r != 0);
    let gap = rows.windows(2).any(|w| w[0] != 0 && w[1] == 0);
    if outside || gap || rows.iter().any(|&r| r >= FULL_ROW) {
        return Err(LeanError::BadStart);
    }
    let t0 = Instant::now();
    let mut table = Table::new(opts.max_bytes)?;
    let mut stack: Vec<Frame> = Vec::new();
    let mut pending: Vec<Child> = Vec::new();
    let mut landings = 0u64;
    let mut done = 0u64;

    // Expands `key` (already in the table as busy at `slot`) into a frame:
    // game-over landings and children already solved are valued now, the
    // rest wait in `pending`.
    let expand = |key: Key, slot: usize, table: &Table, pending: &mut Vec<Child>, landings: &mut u64| -> Result<Frame, LeanError> {
        let well = key.well(rules);
        let piece = choose_piece(&well, rules, |_| 0);
        let kids = pending.len();
        let mut best = 0u32;
        for l in distinct_landings(&well, rules, piece) {
            *landings += 1;
            if l.well.is_game_over() {
                best = best.max(l.lines as u32);
            } else {
                debug_assert!(l.well.rows[..BAR].iter().all(|&r| r == 0));
                let key = Key::of(&l.well, rules);
                table.subs[key.bottom as usize].prefetch(key.rest);
                pending.push(Child { key, lines: l.lines });
            }
        }
        let mut keep = kids;
        for i in kids..pending.len() {
            let c = pending[i];
            match table.subs[c.key.bottom as usize].find(c.key.rest) {
                Slot::Found(_, BUSY) => return Err(LeanError::Cycle { wells: table.wells }),
                Slot::Found(_, tag) => best = best.max(c.lines as u32 + tag as u32 - 1),
                Slot::Absent(_) => {
                    pending[keep] = c;
                    keep += 1;
                }
            }
        }
        pending.truncate(keep);
        Ok(Frame { key, slot, kids, next: kids, best })
    };

    let root = Key::of(start, rules);
    let Slot::Absent(at) = table.subs[root.bottom as usize].find(root.rest) else { unreachable!("the table is empty") };
    let at = table.insert(root.bottom as usize, at, root.rest, BUSY)?;
    let f = expand(root, at, &table, &mut pending, &mut landings)?;
    stack.push(f);
    let mut next_report = PROGRESS_EVERY;
    let mut last_report = Instant::now();
    let max_lines = loop {
        let f = stack.last_mut().expect("the loop returns when the stack empties");
        if f.next < pending.len() {
            let c = pending[f.next];
            f.next += 1;
            let b = c.key.bottom as usize;
            match table.subs[b].find(c.key.rest) {
                Slot::Found(_, BUSY) => return Err(LeanError::Cycle { wells: table.wells }),
                Slot::Found(_, tag) => f.best = f.best.max(c.lines as u32 + tag as u32 - 1),
                Slot::Absent(at) => {
                    let at = table.insert(b, at, c.key.rest, BUSY)?;
                    let f = expand(c.key, at, &table, &mut pending, &mut landings)?;
                    stack.push(f);
                }
            }
            continue;
        }
        // Every child valued: this well is solved.
        let f = stack.pop().expect("top frame");
        if f.best > MAX_VALUE {
            return Err(LeanError::ValueTooLarge { value: f.best });
        }
        // The frame's slot is stale if its sub-table grew since.
        let b = f.key.bottom as usize;
        let slot = match table.subs[b].slots.as_slice().get(f.slot) {
            Some(&e) if e == f.key.rest << 4 | BUSY => f.slot,
            _ => match table.subs[b].find(f.key.rest) {
                Slot::Found(at, BUSY) => at,
                other => unreachable!("a busy well is in the table: {other:?}"),
            },
        };
        table.set(b, slot, f.key.rest, f.best as u64 + 1);
        pending.truncate(f.kids);
        done += 1;
        if done >= next_report {
            next_report += PROGRESS_EVERY;
            if last_report.elapsed().as_secs_f64() >= 1.0 {
                last_report = Instant::now();
                progress(&LeanProgress { done, wells: table.wells, bytes: table.bytes, depth: stack.len(), secs: t0.elapsed().as_secs_f64() });
            }
        }
        match stack.last_mut() {
            None => break f.best,
            Some(p) => {
                let lines = pending[p.next - 1].lines as u32;
                p.best = p.best.max(lines + f.best);
            }
        }
    };
    let secs = t0.elapsed().as_secs_f64();
    progress(&LeanProgress { done, wells: table.wells, bytes: table.bytes, depth: 0, secs });
    Ok(LeanSolution { rules, table, start: root, max_lines, landings, secs })
}

impl LeanSolution {
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Reachable wells that are not game over (the start among them).
    pub fn well_count(&self) -> u64 {
        self.table.wells
    }

    /// Distinct landings summed over every well (edges of the graph, game
    /// overs included).
    pub fn edge_count(&self) -> u64 {
        self.landings
    }

    /// The most lines from the start.
    pub fn max_lines(&self) -> u32 {
        self.max_lines
    }

    /// Bytes the table maps.
    pub fn table_bytes(&self) -> u64 {
        self.table.bytes
    }

    /// The value of `well`, if it is reachable.
    pub fn value(&self, well: &Well) -> Option<u32> {
        let key = Key::of(well, self.rules);
        if well.rows[..BAR].iter().chain(&well.rows[self.rules.depth()..]).any(|&r| r != 0) || key.bottom >= FULL_ROW {
            return None;
        }
        match self.table.subs[key.bottom as usize].find(key.rest) {
            Slot::Found(_, tag) => Some(tag as u32 - 1),
            Slot::Absent(_) => None,
        }
    }

    /// Calls `f` with every reachable well and its value, the start first,
    /// then by bottom row and table order.
    pub fn for_each(&self, mut f: impl FnMut(Well, u32)) {
        f(self.start.well(self.rules), self.max_lines);
        for (b, sub) in self.table.subs.iter().enumerate() {
            for &e in sub.slots.as_slice() {
                let key = Key { bottom: b as u16, rest: e >> 4 };
                if e != 0 && key != self.start {
                    f(key.well(self.rules), (e & 15) as u32 - 1);
                }
            }
        }
    }

    /// A seeded uniform sample of `n` reachable wells (all of them if there
    /// are fewer), with values, in key order: the `n` whose seeded hash is
    /// smallest, so the pick depends on the seed and the wells only.
    pub fn sample(&self, n: u64, seed: u64) -> Vec<(Well, u32)> {
        let total = self.well_count();
        let salt = mix(seed ^ 0x5851_F42D_4C95_7F2D);
        let score = |b: usize, rest: u64| mix(rest ^ salt ^ (b as u64) << 60);
        let mut picked: Vec<(u64, Key, u32)> = Vec::new();
        // Keep scores under a threshold a little above n/total of the range,
        // then the n smallest; retry with a higher one in the rare event of
        // too few.
        let mut share = if n >= total { 1.0 } else { (n as f64 * 1.02 + 4.0 * (n as f64).sqrt() + 16.0) / total as f64 };
        loop {
            let limit = if share >= 1.0 { u64::MAX } else { (share * u64::MAX as f64) as u64 };
            picked.clear();
            for (b, sub) in self.table.subs.iter().enumerate() {
                for &e in sub.slots.as_slice() {
                    if e != 0 {
                        let s = score(b, e >> 4);
                        if s <= limit {
                            picked.push((s, Key { bottom: b as u16, rest: e >> 4 }, (e & 15) as u32 - 1));
                        }
                    }
                }
            }
            if picked.len() as u64 >= n.min(total) || share >= 1.0 {
                break;
            }
            share *= 1.5;
        }
        picked.sort_unstable_by_key(|&(s, k, _)| (s, k));
        picked.truncate(n as usize);
        picked.sort_unstable_by_key(|&(_, k, _)| k);
        picked.into_iter().map(|(_, k, v)| (k.well(self.rules), v)).collect()
    }

    /// Writes a data set of every well (`sample` None) or of a seeded sample
    /// of `n` wells (`Some((n, seed))`), targets as [`target`] with
    /// `target_max`; rows are the small well's own playable rows.
    pub fn write_dataset(&self, path: &Path, description: &str, target_max: u32, sample: Option<(u64, u64)>) -> Result<u64, DatasetError> {
        let mut w = DatasetWriter::create(path, description)?;
        let rules = self.rules;
        match sample {
            Some((n, seed)) => {
                for (well, lines) in self.sample(n, seed) {
                    w.push(&Sample::new(well.playable(rules), target(lines, target_max)))?;
                }
            }
            None => {
                let mut err = None;
                self.for_each(|well, lines| {
                    if err.is_none() {
                        if let Err(e) = w.push(&Sample::new(well.playable(rules), target(lines, target_max))) {
                            err = Some(e);
                        }
                    }
                });
                if let Some(e) = err {
                    return Err(e);
                }
            }
        }
        let n = w.len();
        w.finish()?;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::read_dataset;
    use crate::solver;
    use std::collections::HashMap;

    fn lean(h: usize) -> LeanSolution {
        solve_lean(Rules::with_height(h).unwrap(), LeanOptions::default(), &mut |_| {}).unwrap()
    }

    #[test]
    fn keys_round_trip() {
        for h in 1..=LEAN_MAX_HEIGHT {
            let rules = Rules::with_height(h).unwrap();
            let mut w = Well::EMPTY;
            for (i, r) in w.rows[BAR..rules.depth()].iter_mut().enumerate() {
                *r = (i as u16 * 97 + 5) % 1023;
            }
            assert_eq!(Key::of(&w, rules).well(rules), w);
        }
    }

    /// Well counts, landings and maxima match the graph solver's, and so
    /// does every well's value.
    fn agrees_with_graph_solver(h: usize) {
        let rules = Rules::with_height(h).unwrap();
        let graph = solver::solve(rules, usize::MAX, &mut |_| {}).unwrap();
        let sol = lean(h);
        assert_eq!(sol.max_lines(), graph.max_lines(), "height {h}");
        assert_eq!(sol.well_count(), graph.well_count() as u64, "height {h}");
        assert_eq!(sol.edge_count(), graph.edge_count() as u64, "height {h}");
        let mut n = 0;
        for (well, v) in graph.iter() {
            assert_eq!(sol.value(&well), Some(v), "height {h}: {well:?}");
            n += 1;
        }
        let mut m = 0;
        sol.for_each(|_, _| m += 1);
        assert_eq!(m, n);
    }

    #[test]
    fn heights_1_to_4_agree_with_the_graph_solver_well_by_well() {
        for h in 1..=4 {
            agrees_with_graph_solver(h);
        }
    }

    #[test]
    fn height_5_agrees_with_the_graph_solver_well_by_well() {
        agrees_with_graph_solver(5);
    }

    #[test]
    fn starts_with_clears_agree_with_the_graph_solver() {
        // Nearly full bottom rows, so clears happen below the first piece.
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut scoring = 0;
        for (h, filled) in [(3, 1), (3, 2), (4, 1), (4, 2), (5, 2)] {
            let rules = Rules::with_height(h).unwrap();
            for _ in 0..8 {
                let mut start = Well::EMPTY;
                for row in &mut start.rows[rules.depth() - filled..rules.depth()] {
                    rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    *row = FULL_ROW & !(1 << (rng >> 33) % 10) & !(((rng >> 45) & 1) << (rng >> 50) % 10) as u16;
                }
                let graph = solver::solve_from(rules, &start, usize::MAX, &mut |_| {}).unwrap();
                assert_eq!(graph.cycles.cyclic_components, 0);
                let sol = solve_lean_from(rules, &start, LeanOptions::default(), &mut |_| {}).unwrap();
                assert_eq!(sol.max_lines(), graph.max_lines());
                assert_eq!(sol.well_count(), graph.well_count() as u64);
                for (well, v) in graph.iter() {
                    assert_eq!(sol.value(&well), Some(v), "{well:?}");
                }
                scoring += (sol.max_lines() > 0) as usize;
            }
        }
        assert!(scoring >= 5, "only {scoring} starts clear a line");
    }

    #[test]
    fn bad_starts_and_heights_are_refused() {
        let rules = Rules::with_height(3).unwrap();
        let solve = |w: &Well| solve_lean_from(rules, w, LeanOptions::default(), &mut |_| {}).err();
        let mut w = Well::EMPTY;
        w.rows[BAR + 2] = FULL_ROW;
        assert_eq!(solve(&w), Some(LeanError::BadStart));
        let mut w = Well::EMPTY;
        w.rows[BAR + 1] = 1; // an empty row under it
        assert_eq!(solve(&w), Some(LeanError::BadStart));
        let mut w = Well::EMPTY;
        w.rows[BAR - 1] = 1;
        assert_eq!(solve(&w), Some(LeanError::BadStart));
        let r8 = Rules::with_height(8).unwrap();
        assert_eq!(solve_lean(r8, LeanOptions::default(), &mut |_| {}).err(), Some(LeanError::Height(8)));
    }

    #[test]
    fn the_memory_cap_is_an_error() {
        let rules = Rules::with_height(5).unwrap();
        let opts = LeanOptions { max_bytes: 6 << 20 };
        match solve_lean(rules, opts, &mut |_| {}) {
            Err(LeanError::MemoryCap { limit_bytes, wells }) => assert!(limit_bytes == 6 << 20 && wells > 0),
            other => panic!("{:?}", other.map(|s| s.well_count())),
        }
        let opts = LeanOptions { max_bytes: 1 << 20 };
        assert_eq!(solve_lean(rules, opts, &mut |_| {}).err(), Some(LeanError::MemoryCap { limit_bytes: 1 << 20, wells: 0 }));
    }

    #[test]
    fn samples_are_seeded_exact_and_spread() {
        let sol = lean(4);
        let total = sol.well_count();
        let a = sol.sample(1000, 7);
        assert_eq!(a.len(), 1000);
        assert_eq!(sol.sample(1000, 7), a);
        let b = sol.sample(1000, 8);
        assert_ne!(a, b);
        let mut distinct: Vec<Well> = a.iter().map(|p| p.0).collect();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 1000);
        for (w, v) in &a {
            assert_eq!(sol.value(w), Some(*v));
        }
        assert_eq!(sol.sample(total + 10, 1).len() as u64, total);
        // Values in the sample are spread like the whole set's.
        let mut all = HashMap::new();
        sol.for_each(|_, v| *all.entry(v).or_insert(0u64) += 1);
        let zeros = a.iter().filter(|p| p.1 == 0).count() as f64 / 1000.0;
        let want = all[&0] as f64 / total as f64;
        assert!((zeros - want).abs() < 0.06, "{zeros} vs {want}");
    }

    #[test]
    fn data_sets_whole_and_sampled() {
        let sol = lean(4);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h4.htds");
        assert_eq!(sol.write_dataset(&path, "h4", 12, None).unwrap(), sol.well_count());
        let samples = read_dataset(&path).unwrap();
        assert_eq!(samples.len() as u64, sol.well_count());
        assert_eq!(samples[0].rows(), &[0; 4]);
        let rules = sol.rules();
        for s in &samples {
            let mut w = Well::EMPTY;
            w.rows[BAR..rules.depth()].copy_from_slice(s.rows());
            assert_eq!(s.target, target(sol.value(&w).unwrap(), 12));
        }
        let path = dir.path().join("h4s.htds");
        assert_eq!(sol.write_dataset(&path, "h4 sample", 12, Some((500, 3))).unwrap(), 500);
        assert_eq!(read_dataset(&path).unwrap().len(), 500);
    }
}
