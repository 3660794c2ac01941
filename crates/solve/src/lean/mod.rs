//! The lean exact solver for HATETRIS Mild: every well reachable from the
//! empty well with its value (the most lines the player can still clear),
//! in 8 bytes of table per well (about 10.5 with the table's slack), no
//! stored edges.
//!
//! **How.** A depth-first search with a memo. A well's value is the most,
//! over the distinct landings of the one piece Mild gives it, of the lines
//! the landing clears plus the value of the well it makes (nothing more when
//! the landing ends the game). The search is iterative, with an explicit
//! stack of frames and one shared array of the frames' pending children.
//! When a well is expanded, its children's table slots are prefetched
//! together and the children already solved are valued at once; the rest
//! are visited one by one (looked up again, since a sibling's search may
//! have solved them meanwhile). Every well is expanded once, so the run
//! time is about (wells x one enemy choice and landing sweep).
//!
//! **The table.** A reachable well has no empty row below a non-empty one
//! (pieces rest on something, clears only remove full rows) and no full row,
//! so its bottom row (0..=1022) is non-zero unless the well is empty. There
//! is one open-addressed sub-table per bottom row; an entry is one `u64`:
//! the other `h - 1` playable rows, 10 bits each (60 bits at height 7), over
//! a 4-bit tag: 0 an empty slot, [`BUSY`] a well on a search path, 1..=14
//! a solved well worth 0..=13 lines. Sub-tables use linear probing, grow by
//! a quarter when 85% full (so 68..85% full, about 10.5 bytes a well), and
//! live in their own anonymous memory maps (advised to use transparent huge
//! pages: the probes are random). A memory cap is checked before every
//! growth; near the cap sub-tables grow by what is left, then fill on to
//! 95%, and past that the search stops with [`LeanError::MemoryCap`] instead of running the machine
//! out of memory.
//!
//! **Threads.** Workers share the table, each sub-table behind its own
//! lock. Each worker searches from the start in its own child order (the
//! second reversed), so they mostly work on different subtrees. A child
//! another worker has busy is put off until the frame's other children are
//! done, then searched again by the finder as *help* (its value computed,
//! not stored: the owner stores it). No worker ever waits for another, so
//! none can deadlock; help is rare (none in the first 36 million wells of
//! height 7, 20 expansions in all of height 5). Values are plain maxima
//! whoever computes them, so results do not depend on the thread count.
//!
//! **Cycles.** A child found on the worker's own search path is a cycle:
//! the well could come back to itself, and its value is not a plain
//! maximum. No well on a cycle can ever be marked solved (it needs its
//! successor on the cycle first), so every worker that reaches one follows
//! it around to its own path. None exists from the empty well at heights
//! 1..=6 (see [`crate::solver`]); if one is met the search stops with
//! [`LeanError::Cycle`] rather than give a wrong value. A value above 13
//! (the most a tag holds) is [`LeanError::ValueTooLarge`].
//!
//! **Measured** (release build; the machine's two cores were often shared
//! with other work, so rates vary by 2x): see `crates/solve/README.md`.

use hatetris_game::{choose_piece_memoryless, distinct_landings, Rules, Well, BAR, FULL_ROW};

mod slab;
mod table;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;
use table::{mix, Slot, SubTable, Table};
use worker::{Children, Shared, Stop, Worker};

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
/// A sub-table grows once more than this share of its slots is used...
const MAX_LOAD: f64 = 0.85;
/// ...to this many times its slots, or near the memory cap by what is left
/// under it; with nothing left it fills up to this share (probes get longer,
/// but the search goes on) before the cap is an error.
const GROWTH: f64 = 1.25;
const SQUEEZE_LOAD: f64 = 0.95;

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
    #[error("the table would pass the memory cap of {limit_bytes} bytes after about {wells} wells; raise --max-memory only with the memory for it")]
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
    /// Depth of the search path (worker 0's).
    pub depth: usize,
    /// Expansions of wells another worker had busy (work done twice).
    pub helped: u64,
    pub secs: f64,
}

/// A well as (bottom row, the rows above it packed 10 bits each, top first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct Key {
    pub(super) bottom: u16,
    pub(super) rest: u64,
}

impl Key {
    pub(super) fn of(well: &Well, rules: Rules) -> Key {
        let rows = well.playable(rules);
        let (&bottom, above) = rows.split_last().expect("at least one playable row");
        Key { bottom, rest: above.iter().fold(0u64, |k, &r| k << 10 | r as u64) }
    }

    pub(super) fn well(self, rules: Rules) -> Well {
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
pub(super) struct Child {
    pub(super) key: Key,
    pub(super) lines: u8,
}

/// Every well reachable from the start against Mild, with its value.
pub struct LeanSolution {
    rules: Rules,
    solved: Solved,
}

/// Options for [`solve_lean`].
#[derive(Clone, Copy, Debug)]
pub struct LeanOptions {
    /// The table may not map more than this many bytes.
    pub max_bytes: u64,
    /// Workers searching the one table (1 or more; results do not depend on it).
    pub threads: usize,
}

impl Default for LeanOptions {
    fn default() -> Self {
        LeanOptions { max_bytes: 16 << 30, threads: 1 }
    }
}

/// Solves every well reachable from the empty well against HATETRIS Mild.
pub fn solve_lean(
    rules: Rules,
    opts: LeanOptions,
    progress: &mut dyn FnMut(&LeanProgress),
) -> Result<LeanSolution, LeanError> {
    solve_lean_from(rules, &Well::EMPTY, opts, progress)
}

/// Solves every well reachable from `start` against HATETRIS Mild.
///
/// With several threads every worker searches from the start, in its own
/// child order, through the one table; a well one worker finds busy on
/// another's path is put off, then searched again by the finder rather
/// than waited for (no worker ever blocks on another, so none can deadlock).
/// Every value is the same plain maximum whoever computes it, so the result
/// does not depend on the number of threads.
pub fn solve_lean_from(
    rules: Rules,
    start: &Well,
    opts: LeanOptions,
    progress: &mut dyn FnMut(&LeanProgress),
) -> Result<LeanSolution, LeanError> {
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
    let children = move |key: Key, out: &mut Vec<(Option<Key>, u8)>| {
        let well = key.well(rules);
        let piece = choose_piece_memoryless(&well, rules);
        for l in distinct_landings(&well, rules, piece) {
            let over = l.well.is_game_over();
            debug_assert!(over || l.well.rows[..BAR].iter().all(|&r| r == 0));
            out.push(((!over).then(|| Key::of(&l.well, rules)), l.lines));
        }
    };
    let s = solve_keys(Key::of(start, rules), &children, opts, progress)?;
    Ok(LeanSolution { rules, solved: s })
}

/// The table of a solved graph.
struct Solved {
    subs: Vec<SubTable>,
    bytes: u64,
    wells: u64,
    start: Key,
    max_lines: u32,
    landings: u64,
    /// Expansions done twice because another worker had the well busy.
    helped: u64,
    secs: f64,
}

/// Solves the graph `children` from `root` (keys' bottoms must be below
/// [`TABLES`], their rests below 2^60).
fn solve_keys(
    root: Key,
    children: &Children<'_>,
    opts: LeanOptions,
    progress: &mut dyn FnMut(&LeanProgress),
) -> Result<Solved, LeanError> {
    let t0 = Instant::now();
    let shared = Shared {
        table: Table::new(opts.max_bytes)?,
        children,
        failed: AtomicBool::new(false),
        done: AtomicU64::new(0),
        depth: AtomicUsize::new(0),
        helped: AtomicU64::new(0),
    };
    let at = {
        let mut sub = shared.table.shards[root.bottom as usize].lock();
        let Slot::Absent(at) = sub.find(root.rest) else { unreachable!("the table is empty") };
        shared.table.insert(root.bottom as usize, &mut sub, at, root.rest, BUSY)?
    };
    shared.table.wells.store(1, Ordering::Relaxed);
    let threads = opts.threads.max(1);
    let finished = AtomicUsize::new(0);
    let results: Vec<(Result<u32, Stop>, u64)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|id| {
                let (shared, finished) = (&shared, &finished);
                s.spawn(move || {
                    let mut w = Worker {
                        id,
                        shared,
                        buf: Vec::new(),
                        stack: Vec::new(),
                        pending: Vec::new(),
                        landings: 0,
                        done: 0,
                        inserted: 0,
                        helped: 0,
                    };
                    // Worker 0 owns the start; the others help with it.
                    w.expand(root, at, id == 0);
                    let r = w.run();
                    if r.is_err() {
                        shared.failed.store(true, Ordering::Relaxed);
                    }
                    finished.fetch_add(1, Ordering::Release);
                    (r, w.landings)
                })
            })
            .collect();
        let mut last = Instant::now();
        while finished.load(Ordering::Acquire) < threads {
            std::thread::sleep(std::time::Duration::from_millis(20));
            if last.elapsed().as_secs_f64() >= 1.0 {
                last = Instant::now();
                let t = &shared.table;
                progress(&LeanProgress {
                    done: shared.done.load(Ordering::Relaxed),
                    wells: t.wells.load(Ordering::Relaxed),
                    bytes: t.bytes.load(Ordering::Relaxed),
                    depth: shared.depth.load(Ordering::Relaxed),
                    helped: shared.helped.load(Ordering::Relaxed),
                    secs: t0.elapsed().as_secs_f64(),
                });
            }
        }
        handles.into_iter().map(|h| h.join().expect("a solver worker panicked")).collect()
    });
    let mut values = Vec::new();
    let mut landings = 0;
    for (r, l) in results {
        landings += l;
        match r {
            Ok(v) => values.push(v),
            Err(Stop::Error(e)) => return Err(e),
            Err(Stop::Abandoned) => {}
        }
    }
    let max_lines = values[0];
    assert!(values.iter().all(|&v| v == max_lines), "workers disagree on the start's value: {values:?}");
    let bytes = shared.table.bytes.load(Ordering::Relaxed);
    let subs: Vec<SubTable> =
        shared.table.shards.into_iter().map(|s| s.sub.into_inner().unwrap_or_else(|e| e.into_inner())).collect();
    let wells = subs.iter().map(|s| s.len as u64).sum();
    let secs = t0.elapsed().as_secs_f64();
    let helped = shared.helped.load(Ordering::Relaxed);
    progress(&LeanProgress { done: wells, wells, bytes, depth: 0, helped, secs });
    Ok(Solved { subs, bytes, wells, start: root, max_lines, landings, helped, secs })
}

impl LeanSolution {
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Reachable wells that are not game over (the start among them).
    pub fn well_count(&self) -> u64 {
        self.solved.wells
    }

    /// Distinct landings summed over every well (edges of the graph, game
    /// overs included).
    pub fn edge_count(&self) -> u64 {
        self.solved.landings
    }

    /// The most lines from the start.
    pub fn max_lines(&self) -> u32 {
        self.solved.max_lines
    }

    /// Expansions done twice because another worker had the well busy.
    pub fn helped(&self) -> u64 {
        self.solved.helped
    }

    /// Wall time of the solve, in seconds.
    pub fn secs(&self) -> f64 {
        self.solved.secs
    }

    /// Bytes the table maps.
    pub fn table_bytes(&self) -> u64 {
        self.solved.bytes
    }

    /// The value of `well`, if it is reachable.
    pub fn value(&self, well: &Well) -> Option<u32> {
        let key = Key::of(well, self.rules);
        if well.rows[..BAR].iter().chain(&well.rows[self.rules.depth()..]).any(|&r| r != 0) || key.bottom >= FULL_ROW {
            return None;
        }
        match self.solved.subs[key.bottom as usize].find(key.rest) {
            Slot::Found(_, tag) => Some(tag as u32 - 1),
            Slot::Absent(_) => None,
        }
    }

    /// Calls `f` with every reachable well and its value, the start first,
    /// then in key order (bottom row, then the rows above), whatever the
    /// order the workers filled the table in.
    pub fn for_each(&self, mut f: impl FnMut(Well, u32)) {
        f(self.solved.start.well(self.rules), self.solved.max_lines);
        let mut entries = Vec::new();
        for (b, sub) in self.solved.subs.iter().enumerate() {
            entries.clear();
            entries.extend(sub.slots.as_slice().iter().copied().filter(|&e| e != 0));
            entries.sort_unstable();
            for &e in &entries {
                let key = Key { bottom: b as u16, rest: e >> 4 };
                if key != self.solved.start {
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
        let mut share =
            if n >= total { 1.0 } else { (n as f64 * 1.02 + 4.0 * (n as f64).sqrt() + 16.0) / total as f64 };
        loop {
            let limit = if share >= 1.0 { u64::MAX } else { (share * u64::MAX as f64) as u64 };
            picked.clear();
            for (b, sub) in self.solved.subs.iter().enumerate() {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver;
    use std::collections::HashMap;

    fn lean(h: usize) -> LeanSolution {
        lean_with(h, 1)
    }

    fn lean_with(h: usize, threads: usize) -> LeanSolution {
        let opts = LeanOptions { threads, ..LeanOptions::default() };
        solve_lean(Rules::with_height(h).unwrap(), opts, &mut |_| {}).unwrap()
    }

    /// A synthetic graph: node `i` is a key, its edges (target or game
    /// over, lines).
    struct Synthetic {
        edges: Vec<Vec<(Option<usize>, u8)>>,
    }

    fn node_key(i: usize) -> Key {
        Key { bottom: (i % 5) as u16 + 1, rest: i as u64 }
    }

    impl Synthetic {
        fn children(&self) -> impl Fn(Key, &mut Vec<(Option<Key>, u8)>) + Sync + '_ {
            |k: Key, out: &mut Vec<(Option<Key>, u8)>| {
                out.extend(self.edges[k.rest as usize].iter().map(|&(t, l)| (t.map(node_key), l)));
            }
        }

        fn solve(&self, threads: usize) -> Result<Solved, LeanError> {
            let opts = LeanOptions { threads, ..LeanOptions::default() };
            solve_keys(node_key(0), &self.children(), opts, &mut |_| {})
        }

        /// Values by plain recursion (the graph must be acyclic) and the
        /// nodes reachable from 0.
        fn reference(&self) -> (Vec<Option<u32>>, usize) {
            fn go(g: &Synthetic, v: usize, memo: &mut Vec<Option<u32>>) -> u32 {
                if let Some(x) = memo[v] {
                    return x;
                }
                let x = g.edges[v].iter().map(|&(t, l)| l as u32 + t.map_or(0, |t| go(g, t, memo))).max().unwrap_or(0);
                memo[v] = Some(x);
                x
            }
            let mut memo = vec![None; self.edges.len()];
            go(self, 0, &mut memo);
            let n = memo.iter().filter(|v| v.is_some()).count();
            (memo, n)
        }
    }

    fn solved_value(s: &Solved, i: usize) -> Option<u32> {
        let k = node_key(i);
        match s.subs[k.bottom as usize].find(k.rest) {
            Slot::Found(_, tag) => Some(tag as u32 - 1),
            Slot::Absent(_) => None,
        }
    }

    /// A random layered graph (edges go to later layers, so it is acyclic)
    /// of `n` nodes with lines 0 or 1 an edge and 10 layers.
    fn layered(n: usize, rng: &mut u64) -> Synthetic {
        let mut next = |m: u64| {
            *rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (*rng >> 33) % m
        };
        let layer = |i: usize| i * 10 / n;
        let edges = (0..n)
            .map(|i| {
                let first = (layer(i) + 1) * n / 10;
                (0..next(5))
                    .map(|_| {
                        let lines = (next(4) == 0) as u8;
                        if first >= n || next(6) == 0 {
                            (None, lines)
                        } else {
                            (Some(first + next((n - first) as u64) as usize), lines)
                        }
                    })
                    .collect()
            })
            .collect();
        Synthetic { edges }
    }

    #[test]
    fn random_acyclic_graphs_agree_with_plain_recursion_on_any_number_of_threads() {
        let mut rng = 11u64;
        for round in 0..40 {
            let g = layered(50 + round * 40, &mut rng);
            let (want, reachable) = g.reference();
            for threads in 1..=3 {
                let s = g.solve(threads).unwrap();
                assert_eq!(s.wells, reachable as u64);
                assert_eq!(Some(s.max_lines), want[0]);
                for (i, w) in want.iter().enumerate() {
                    assert_eq!(solved_value(&s, i), *w, "round {round} node {i} threads {threads}");
                }
            }
        }
    }

    #[test]
    fn a_cycle_is_an_error_on_any_number_of_threads() {
        let mut rng = 5u64;
        let mut found = 0;
        for round in 0..40 {
            let mut g = layered(60 + round * 30, &mut rng);
            let (want, _) = g.reference();
            // An edge back from a deep reachable node to the start.
            let Some(v) = (0..g.edges.len()).rev().find(|&i| want[i].is_some() && i > 0) else { continue };
            g.edges[v].push((Some(0), 0));
            found += 1;
            for threads in 1..=3 {
                assert!(
                    matches!(g.solve(threads).err(), Some(LeanError::Cycle { .. })),
                    "round {round} threads {threads}"
                );
            }
        }
        assert!(found > 30);
        // Two nodes pointing at each other, below a fan of other work.
        let mut edges: Vec<Vec<(Option<usize>, u8)>> = vec![(1..20).map(|i| (Some(i), 0)).collect()];
        edges.extend((1..20).map(|i| vec![(Some(20), 0), (Some(21), 1), (None, (i % 2) as u8)]));
        edges.push(vec![(Some(21), 0)]);
        edges.push(vec![(Some(20), 0)]);
        let g = Synthetic { edges };
        for threads in 1..=3 {
            assert!(matches!(g.solve(threads).err(), Some(LeanError::Cycle { .. })), "threads {threads}");
        }
    }

    #[test]
    fn a_value_past_13_is_an_error() {
        let chain = |n: usize| Synthetic {
            edges: (0..n).map(|i| vec![(if i + 1 < n { Some(i + 1) } else { None }, 1)]).collect(),
        };
        // Node i of a chain of n is worth n - i lines.
        for threads in 1..=2 {
            assert_eq!(chain(13).solve(threads).unwrap().max_lines, 13);
            assert_eq!(chain(14).solve(threads).err(), Some(LeanError::ValueTooLarge { value: 14 }));
        }
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
    fn agrees_with_graph_solver(h: usize, threads: usize) {
        let rules = Rules::with_height(h).unwrap();
        let graph = solver::solve(rules, usize::MAX, &mut |_| {}).unwrap();
        let sol = lean_with(h, threads);
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
            for threads in 1..=3 {
                agrees_with_graph_solver(h, threads);
            }
        }
    }

    #[test]
    fn height_5_agrees_with_the_graph_solver_well_by_well() {
        agrees_with_graph_solver(5, 2);
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
                    *row = FULL_ROW & !(1 << ((rng >> 33) % 10)) & !(((rng >> 45) & 1) << ((rng >> 50) % 10)) as u16;
                }
                let graph = solver::solve_from(rules, &start, usize::MAX, &mut |_| {}).unwrap();
                assert_eq!(graph.cycles.cyclic_components, 0);
                let opts = LeanOptions { threads: 1 + scoring % 2, ..LeanOptions::default() };
                let sol = solve_lean_from(rules, &start, opts, &mut |_| {}).unwrap();
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
        let opts = LeanOptions { max_bytes: 6 << 20, threads: 2 };
        match solve_lean(rules, opts, &mut |_| {}) {
            Err(LeanError::MemoryCap { limit_bytes, wells }) => assert!(limit_bytes == 6 << 20 && wells > 0),
            other => panic!("{:?}", other.map(|s| s.well_count())),
        }
        let opts = LeanOptions { max_bytes: 1 << 20, threads: 1 };
        assert_eq!(
            solve_lean(rules, opts, &mut |_| {}).err(),
            Some(LeanError::MemoryCap { limit_bytes: 1 << 20, wells: 0 })
        );
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
}

/// Reachable wells by stack height, cells and value, for projecting taller
/// heights: `cargo test --release -p hatetris-solve census -- --ignored --nocapture`
/// (about 2.5 minutes).
#[cfg(test)]
mod census {
    use super::*;
    #[test]
    #[ignore]
    fn print_census() {
        for h in 3..=6 {
            let rules = Rules::with_height(h).unwrap();
            let opts = LeanOptions { threads: 2, ..LeanOptions::default() };
            let sol = solve_lean(rules, opts, &mut |_| {}).unwrap();
            let mut by_stack = vec![0u64; h + 1];
            let mut by_cells = vec![0u64; 80];
            let mut by_val = vec![0u64; 14];
            sol.for_each(|w, v| {
                let rows = w.playable(rules);
                by_stack[rows.iter().filter(|&&r| r != 0).count()] += 1;
                by_cells[w.cells() as usize] += 1;
                by_val[v as usize] += 1;
            });
            println!("h{h} total {} stack {:?}", sol.well_count(), by_stack);
            println!("h{h} cells {:?}", by_cells);
            println!("h{h} values {:?}", by_val);
        }
    }
}
