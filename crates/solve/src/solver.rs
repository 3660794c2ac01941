//! The exact solver for small wells: the game with `H` playable rows below
//! the bar, solved for every well reachable from the empty well.
//!
//! **What is solved.** Against HATETRIS Mild (no memory) the well is the
//! whole state. The reachable wells form a graph: a well's edges are the
//! distinct landings of the one piece Mild gives it, each worth its cleared
//! lines; a landing that ends the game is an edge to "game over". The value
//! of a well is the most lines the player can still clear from it.
//!
//! **Cycles.** Without clears cells only grow, so a cycle needs clears, and
//! on one the value would be unbounded. Measured with Tarjan's strongly
//! connected components: from the empty well there are none at heights 1..=6
//! (every component is one well), so there the value is plain dynamic
//! programming and needs no convention. For starts or heights where cycles
//! do appear, the value is defined as the best *simple* path: the player may
//! not land in a well already on the path from where the count started (what
//! the real enemy's memory pushes toward, by refusing pieces that return to
//! seen wells). Lines are never negative, so the best simple path is also the
//! best maximal one. Exact by dynamic programming over the components in
//! reverse topological order and, inside a cyclic component, by enumerating
//! its simple paths; a step budget turns a component too large for that into
//! [`SolveError::CycleTooComplex`] rather than an endless run.
//!
//! **Size.** Reachable wells: 26 809 at height 4, 600 138 at 5, 21 224 299
//! at 6 (about 2.5 minutes, 3.8 GB on two cores, some 180 bytes a well).
//! Height 7 is out of reach this way: past 40 million wells its search was
//! still finding 2.5 new wells per well expanded, so the well limit stops it
//! with an error. [`crate::lean`] solves the same game (from the empty
//! well, where there are no cycles) in about 10.5 bytes a well with no
//! edges stored: height 6 in 223 MB, height 7 within 16 GB; `hatetris
//! solve` uses it for Mild up to height 7 and this solver with `--graph`.
//!
//! **The real enemy.** With memory the state is the well plus every well
//! seen, so a well alone has no value. Only the game from the empty well is
//! solved, by a depth-first search that carries the memory, within a node
//! budget ([`solve_with_memory`]); that fits only the tiniest heights.

use hatetris_game::{choose_piece, choose_piece_memoryless, distinct_landings, Rules, Well, BAR, FULL_ROW};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::time::Instant;

/// Wells are packed into 10 bits a row, so heights up to 12 fit a `u128`.
pub const MAX_HEIGHT: usize = 12;
/// Simple-path enumeration steps allowed across all cyclic components.
pub const CYCLE_STEP_BUDGET: u64 = 200_000_000;
/// Search nodes allowed for the enemy with memory.
pub const MEMORY_NODE_BUDGET: u64 = 10_000_000;
/// Pieces in one game searched with memory.
pub const MEMORY_DEPTH_CAP: usize = 1000;
/// An edge target meaning "the landing ended the game".
const GAME_OVER: u32 = u32::MAX;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SolveError {
    #[error("height {0} is not solvable here (1..={MAX_HEIGHT})")]
    Height(usize),
    #[error("more than {limit} reachable wells (memory grows about 200 bytes a well); raise the limit only with the memory for it")]
    TooManyWells { limit: usize },
    #[error("the start well has cells outside the playable rows or a full row")]
    BadStart,
    #[error("a cycle component of {size} wells needs more than {budget} simple-path steps; the longest-simple-path value is not computable in time")]
    CycleTooComplex { size: usize, budget: u64 },
    #[error("the enemy with memory needs more than {budget} search nodes (or games over {MEMORY_DEPTH_CAP} pieces) at height {height}; only the tiniest heights are exactly solvable with it")]
    MemoryTooLarge { height: usize, budget: u64 },
}

/// Where a long solve has got to.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub stage: &'static str,
    pub wells: usize,
    pub edges: usize,
    pub secs: f64,
}

/// What the components of the well graph look like.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct CycleStats {
    /// Strongly connected components with more than one well.
    pub cyclic_components: usize,
    /// Wells in those components.
    pub wells_on_cycles: usize,
    /// Size of the largest component.
    pub largest_component: usize,
    /// Steps the simple-path enumeration took.
    pub path_steps: u64,
}

/// The reachable wells of one height against Mild, with their values.
pub struct Solution {
    rules: Rules,
    wells: Vec<u128>,
    values: Vec<u32>,
    edges: usize,
    pub cycles: CycleStats,
}

impl Solution {
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Reachable wells that are not game over (the start among them).
    pub fn well_count(&self) -> usize {
        self.wells.len()
    }

    /// Landings (edges) in the graph.
    pub fn edge_count(&self) -> usize {
        self.edges
    }

    /// The most lines from the start (the empty well unless [`solve_from`]).
    pub fn max_lines(&self) -> u32 {
        self.values[0]
    }

    /// Every reachable well with its value, the start first.
    pub fn iter(&self) -> impl Iterator<Item = (Well, u32)> + '_ {
        self.wells.iter().zip(&self.values).map(move |(&k, &v)| (unpack(k, self.rules), v))
    }
}

/// The training target of a well worth `lines` when `max` is a full score.
pub fn target(lines: u32, max: u32) -> f32 {
    ((lines as f32 / max.max(1) as f32 - 0.5) * 2.0).clamp(-1.0, 1.0)
}

fn pack(well: &Well, rules: Rules) -> u128 {
    well.playable(rules).iter().fold(0u128, |k, &r| k << 10 | r as u128)
}

fn unpack(key: u128, rules: Rules) -> Well {
    let mut well = Well::EMPTY;
    let h = rules.height();
    for (i, row) in well.rows[BAR..BAR + h].iter_mut().enumerate() {
        *row = (key >> (10 * (h - 1 - i)) & 1023) as u16;
    }
    well
}

/// The Mild game as a graph in compressed rows: node `i`'s landings are
/// `to[start[i]..start[i + 1]]`, each worth `lines[..]`.
struct Graph {
    wells: Vec<u128>,
    start: Vec<usize>,
    to: Vec<u32>,
    lines: Vec<u8>,
}

impl Graph {
    fn edges(&self, v: usize) -> std::ops::Range<usize> {
        self.start[v]..self.start[v + 1]
    }

    fn len(&self) -> usize {
        self.wells.len()
    }
}

/// Breadth-first from `start`: wells are numbered as found and expanded in
/// number order, a chunk at a time. A chunk's enemy choices and landings are
/// computed in parallel, then numbered in order, so node `i`'s edges are
/// appended before node `i + 1`'s. Chunks bound the memory held in flight.
fn build_graph(
    rules: Rules,
    start: u128,
    limit: usize,
    t0: Instant,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Graph, SolveError> {
    const CHUNK: usize = 1 << 18;
    let mut index: FxHashMap<u128, u32> = FxHashMap::default();
    let mut g = Graph { wells: vec![start], start: vec![0], to: Vec::new(), lines: Vec::new() };
    index.insert(start, 0);
    let mut done = 0;
    while done < g.wells.len() {
        let chunk = done..g.wells.len().min(done + CHUNK);
        done = chunk.end;
        let succ: Vec<Vec<(u128, u8, bool)>> = g.wells[chunk]
            .par_iter()
            .map(|&k| {
                let well = unpack(k, rules);
                let piece = choose_piece_memoryless(&well, rules);
                distinct_landings(&well, rules, piece)
                    .iter()
                    .map(|l| (pack(&l.well, rules), l.lines, l.well.is_game_over()))
                    .collect()
            })
            .collect();
        for s in succ {
            for (key, lines, over) in s {
                let to = if over {
                    GAME_OVER
                } else {
                    *index.entry(key).or_insert_with(|| {
                        g.wells.push(key);
                        (g.wells.len() - 1) as u32
                    })
                };
                g.to.push(to);
                g.lines.push(lines);
            }
            g.start.push(g.to.len());
            if g.wells.len() > limit {
                return Err(SolveError::TooManyWells { limit });
            }
        }
        progress(&Progress {
            stage: "graph",
            wells: g.wells.len(),
            edges: g.to.len(),
            secs: t0.elapsed().as_secs_f64(),
        });
    }
    Ok(g)
}

/// Strongly connected components by Tarjan's algorithm, iteratively. Returns
/// the components in the order Tarjan closes them, which is reverse
/// topological: every edge leaving a component goes to an earlier one.
fn components(g: &Graph) -> Vec<Vec<u32>> {
    const UNSEEN: u32 = u32::MAX;
    struct Tarjan {
        order: Vec<u32>,
        low: Vec<u32>,
        on_stack: Vec<bool>,
        stack: Vec<u32>,
        /// The explicit call stack: (node, next edge to look at).
        calls: Vec<(u32, usize)>,
        next: u32,
    }
    impl Tarjan {
        fn enter(&mut self, g: &Graph, v: usize) {
            self.order[v] = self.next;
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v as u32);
            self.on_stack[v] = true;
            self.calls.push((v as u32, g.start[v]));
        }
    }
    let n = g.len();
    let mut t = Tarjan {
        order: vec![UNSEEN; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        calls: Vec::new(),
        next: 0,
    };
    let mut out = Vec::new();
    for root in 0..n {
        if t.order[root] != UNSEEN {
            continue;
        }
        t.enter(g, root);
        while let Some(&mut (v, ref mut e)) = t.calls.last_mut() {
            let v = v as usize;
            if *e < g.start[v + 1] {
                let w = g.to[*e];
                *e += 1;
                if w == GAME_OVER {
                    continue;
                }
                let w = w as usize;
                if t.order[w] == UNSEEN {
                    t.enter(g, w);
                } else if t.on_stack[w] {
                    t.low[v] = t.low[v].min(t.order[w]);
                }
                continue;
            }
            t.calls.pop();
            if let Some(&(p, _)) = t.calls.last() {
                t.low[p as usize] = t.low[p as usize].min(t.low[v]);
            }
            if t.low[v] == t.order[v] {
                let mut comp = Vec::new();
                loop {
                    let w = t.stack.pop().expect("v is on the stack");
                    t.on_stack[w as usize] = false;
                    comp.push(w);
                    if w as usize == v {
                        break;
                    }
                }
                out.push(comp);
            }
        }
    }
    out
}

/// Values of every node: longest simple path by lines. Components come
/// sinks first, so edges leaving one reach nodes already valued.
fn values(g: &Graph, comps: &[Vec<u32>], stats: &mut CycleStats, budget: u64) -> Result<Vec<u32>, SolveError> {
    const UNKNOWN: u32 = u32::MAX;
    let mut value = vec![UNKNOWN; g.len()];
    let worth =
        |value: &[u32], e: usize| g.lines[e] as u32 + if g.to[e] == GAME_OVER { 0 } else { value[g.to[e] as usize] };
    let mut local: FxHashMap<u32, usize> = FxHashMap::default();
    for comp in comps {
        stats.largest_component = stats.largest_component.max(comp.len());
        if comp.len() == 1 {
            // A single well has no self-loop: a landing adds 4 cells, clears remove 10.
            let v = comp[0] as usize;
            value[v] = g.edges(v).map(|e| worth(&value, e)).max().unwrap_or(0);
            continue;
        }
        stats.cyclic_components += 1;
        stats.wells_on_cycles += comp.len();
        local.clear();
        local.extend(comp.iter().enumerate().map(|(i, &v)| (v, i)));
        // Best way out of the component from each of its wells (or stopping: 0).
        let exit: Vec<u32> = comp
            .iter()
            .map(|&v| {
                g.edges(v as usize)
                    .filter(|&e| g.to[e] == GAME_OVER || !local.contains_key(&g.to[e]))
                    .map(|e| worth(&value, e))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        // Inner edges as local indices.
        let inner: Vec<Vec<(usize, u32)>> = comp
            .iter()
            .map(|&v| {
                g.edges(v as usize).filter_map(|e| local.get(&g.to[e]).map(|&j| (j, g.lines[e] as u32))).collect()
            })
            .collect();
        let best = longest_simple_paths(&inner, &exit, &mut stats.path_steps, budget)
            .ok_or(SolveError::CycleTooComplex { size: comp.len(), budget })?;
        for (&v, b) in comp.iter().zip(best) {
            value[v as usize] = b;
        }
    }
    Ok(value)
}

/// For each start node of a strongly connected component: the most of
/// (lines along a simple path inside it + `exit` of its last node), by
/// enumerating simple paths with an explicit stack. `None` past the budget.
fn longest_simple_paths(inner: &[Vec<(usize, u32)>], exit: &[u32], steps: &mut u64, budget: u64) -> Option<Vec<u32>> {
    let n = inner.len();
    let mut on_path = vec![false; n];
    let mut best = vec![0u32; n];
    for s in 0..n {
        // Frames: (node, next edge, lines so far).
        let mut frames = vec![(s, 0usize, 0u32)];
        on_path[s] = true;
        let mut top = exit[s];
        while let Some(&mut (v, ref mut e, sum)) = frames.last_mut() {
            *steps += 1;
            if *steps > budget {
                return None;
            }
            if let Some(&(w, lines)) = inner[v].get(*e) {
                *e += 1;
                if !on_path[w] {
                    on_path[w] = true;
                    let sum = sum + lines;
                    top = top.max(sum + exit[w]);
                    frames.push((w, 0, sum));
                }
            } else {
                on_path[v] = false;
                frames.pop();
            }
        }
        best[s] = top;
    }
    Some(best)
}

/// Solves every well reachable from the empty well against HATETRIS Mild,
/// refusing to hold more than `max_wells` wells.
pub fn solve(rules: Rules, max_wells: usize, progress: &mut dyn FnMut(&Progress)) -> Result<Solution, SolveError> {
    solve_from(rules, &Well::EMPTY, max_wells, progress)
}

/// Solves every well reachable from `start` against HATETRIS Mild; the
/// solution's first well and [`Solution::max_lines`] are `start`'s.
pub fn solve_from(
    rules: Rules,
    start: &Well,
    max_wells: usize,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Solution, SolveError> {
    if rules.height() > MAX_HEIGHT {
        return Err(SolveError::Height(rules.height()));
    }
    // Only the playable rows are packed, so anything else must be empty; a
    // full row could never clear (clears happen only under a locking piece).
    let outside = start.rows[..BAR].iter().chain(&start.rows[rules.depth()..]).any(|&r| r != 0);
    if outside || start.playable(rules).iter().any(|&r| r >= FULL_ROW) {
        return Err(SolveError::BadStart);
    }
    let t0 = Instant::now();
    let g = build_graph(rules, pack(start, rules), max_wells, t0, progress)?;
    let comps = components(&g);
    progress(&Progress { stage: "components", wells: g.len(), edges: g.to.len(), secs: t0.elapsed().as_secs_f64() });
    let mut cycles = CycleStats::default();
    let values = values(&g, &comps, &mut cycles, CYCLE_STEP_BUDGET)?;
    progress(&Progress { stage: "values", wells: g.len(), edges: g.to.len(), secs: t0.elapsed().as_secs_f64() });
    Ok(Solution { rules, edges: g.to.len(), wells: g.wells, values, cycles })
}

/// The most lines from the empty well against the real enemy (with memory),
/// by depth-first search over whole games; an error past the budgets.
/// The player may revisit wells here: the memory is what discourages it.
pub fn solve_with_memory(rules: Rules) -> Result<u32, SolveError> {
    struct Search {
        rules: Rules,
        seen: FxHashMap<Well, u32>,
        nodes: u64,
    }
    impl Search {
        fn value(&mut self, well: Well, depth: usize) -> Option<u32> {
            self.nodes += 1;
            // The depth cap keeps recursion within a thread's stack.
            if self.nodes > MEMORY_NODE_BUDGET || depth > MEMORY_DEPTH_CAP {
                return None;
            }
            *self.seen.entry(well).or_insert(0) += 1;
            let seen = &self.seen;
            let piece = choose_piece(&well, self.rules, seen);
            let mut best = Some(0);
            for l in distinct_landings(&well, self.rules, piece) {
                let rest = if l.well.is_game_over() { Some(0) } else { self.value(l.well, depth + 1) };
                match rest {
                    Some(r) => best = best.map(|b: u32| b.max(l.lines as u32 + r)),
                    None => {
                        best = None;
                        break;
                    }
                }
            }
            let c = self.seen.get_mut(&well).expect("counted above");
            *c -= 1;
            if *c == 0 {
                self.seen.remove(&well);
            }
            best
        }
    }
    if rules.height() > MAX_HEIGHT {
        return Err(SolveError::Height(rules.height()));
    }
    let mut s = Search { rules, seen: FxHashMap::default(), nodes: 0 };
    s.value(Well::EMPTY, 0).ok_or(SolveError::MemoryTooLarge { height: rules.height(), budget: MEMORY_NODE_BUDGET })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hatetris_game::reference::{reference_choose_piece, reference_landing_wells};
    use std::collections::{HashMap, HashSet};

    /// An independent brute force over the literal rules (the breadth-first
    /// reference landings and enemy), recursive with an explicit path set. A
    /// value is remembered only when its search never met a well on the
    /// path, that is when it cannot depend on the path.
    struct Brute {
        rules: Rules,
        memo: HashMap<Well, u32>,
    }

    impl Brute {
        fn value(&mut self, well: Well, path: &mut HashSet<Well>) -> (u32, bool) {
            if let Some(&v) = self.memo.get(&well) {
                return (v, true);
            }
            let piece = reference_choose_piece(&well, self.rules, |_| 0);
            let mut nexts = reference_landing_wells(&well, self.rules, piece);
            nexts.sort();
            nexts.dedup();
            let (mut best, mut clean) = (0, true);
            for next in nexts {
                let lines = (well.cells() + 4 - next.cells()) / 10;
                if next.is_game_over() {
                    best = best.max(lines);
                } else if path.contains(&next) {
                    clean = false;
                } else {
                    path.insert(next);
                    let (v, c) = self.value(next, path);
                    path.remove(&next);
                    clean &= c;
                    best = best.max(lines + v);
                }
            }
            if clean {
                self.memo.insert(well, best);
            }
            (best, clean)
        }
    }

    /// Every well the solver reaches from `start` has the brute force's
    /// value, and both reach the same wells.
    fn agrees_with_brute_force(rules: Rules, start: Well) -> u32 {
        let sol = solve_from(rules, &start, usize::MAX, &mut |_| {}).unwrap();
        let mut brute = Brute { rules, memo: HashMap::new() };
        let (root, clean) = brute.value(start, &mut HashSet::from([start]));
        assert!(clean);
        assert_eq!(sol.max_lines(), root);
        assert_eq!(sol.well_count(), brute.memo.len());
        for (well, v) in sol.iter() {
            assert_eq!(brute.memo.get(&well), Some(&v), "{well:?}");
        }
        root
    }

    #[test]
    fn tiny_heights_agree_with_brute_force_from_the_empty_well() {
        for h in 1..=4 {
            agrees_with_brute_force(Rules::with_height(h).unwrap(), Well::EMPTY);
        }
    }

    #[test]
    fn tiny_heights_agree_with_brute_force_from_nearly_full_wells() {
        // From the empty well heights 1..=3 score nothing; nearly full bottom
        // rows make clears part of the comparison (Mild withholds the pieces
        // that would clear where it can, so only some starts score).
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut scoring = 0;
        for (h, filled) in [(2, 1), (3, 1), (3, 2), (4, 1), (4, 2)] {
            let rules = Rules::with_height(h).unwrap();
            for _ in 0..12 {
                let mut start = Well::EMPTY;
                for row in &mut start.rows[rules.depth() - filled..rules.depth()] {
                    rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    // One or two holes in an otherwise full row.
                    *row = FULL_ROW & !(1 << ((rng >> 33) % 10)) & !(((rng >> 45) & 1) << ((rng >> 50) % 10)) as u16;
                }
                if agrees_with_brute_force(rules, start) > 0 {
                    scoring += 1;
                }
            }
        }
        assert!(scoring >= 5, "only {scoring} starts clear a line");
    }

    #[test]
    fn bad_starts_are_refused() {
        let rules = Rules::with_height(3).unwrap();
        let mut w = Well::EMPTY;
        w.rows[BAR + 2] = FULL_ROW;
        assert_eq!(solve_from(rules, &w, usize::MAX, &mut |_| {}).err(), Some(SolveError::BadStart));
        let mut w = Well::EMPTY;
        w.rows[BAR + 3] = 1; // below the floor of height 3
        assert_eq!(solve_from(rules, &w, usize::MAX, &mut |_| {}).err(), Some(SolveError::BadStart));
        let mut w = Well::EMPTY;
        w.rows[BAR - 1] = 1; // game over
        assert_eq!(solve_from(rules, &w, usize::MAX, &mut |_| {}).err(), Some(SolveError::BadStart));
    }

    #[test]
    fn the_well_limit_is_an_error() {
        let rules = Rules::with_height(4).unwrap();
        assert_eq!(solve(rules, 1000, &mut |_| {}).err(), Some(SolveError::TooManyWells { limit: 1000 }));
    }

    #[test]
    fn pack_round_trips() {
        let rules = Rules::with_height(12).unwrap();
        let mut w = Well::EMPTY;
        for (i, r) in w.rows[BAR..BAR + 12].iter_mut().enumerate() {
            *r = (i as u16 * 97 + 5) % 1023;
        }
        assert_eq!(unpack(pack(&w, rules), rules), w);
    }

    fn graph(n: usize, edges: &[(usize, u32, u8)]) -> Graph {
        let mut g = Graph { wells: vec![0; n], start: vec![0], to: Vec::new(), lines: Vec::new() };
        for v in 0..n {
            for &(_, to, lines) in edges.iter().filter(|e| e.0 == v) {
                g.to.push(to);
                g.lines.push(lines);
            }
            g.start.push(g.to.len());
        }
        g
    }

    fn graph_values(g: &Graph, budget: u64) -> Result<(Vec<u32>, CycleStats), SolveError> {
        let mut stats = CycleStats::default();
        let v = values(g, &components(g), &mut stats, budget)?;
        Ok((v, stats))
    }

    #[test]
    fn a_cycle_is_valued_by_its_best_simple_path() {
        // 0 -> 1 -> 2 -> 0 is a cycle; 1 leaves it to 3, which ends the game.
        let g =
            graph(4, &[(0, 1, 1), (0, GAME_OVER, 0), (1, 2, 0), (1, 3, 2), (2, 0, 5), (2, 1, 1), (3, GAME_OVER, 1)]);
        let (v, stats) = graph_values(&g, 1000).unwrap();
        // 0: 0->1->3->end = 1+2+1. 1: 1->2->0 (5) then 0->1 is a revisit, so 5.
        // 2: 2->0->1->3->end = 5+1+2+1.
        assert_eq!(v, vec![4, 5, 9, 1]);
        assert_eq!((stats.cyclic_components, stats.wells_on_cycles, stats.largest_component), (1, 3, 3));
    }

    /// Longest simple path by plain recursion over every path.
    fn brute_simple(g: &Graph, v: usize, path: &mut Vec<usize>) -> u32 {
        let mut best = 0;
        for e in g.edges(v) {
            let to = g.to[e];
            if to == GAME_OVER {
                best = best.max(g.lines[e] as u32);
            } else if !path.contains(&(to as usize)) {
                path.push(to as usize);
                best = best.max(g.lines[e] as u32 + brute_simple(g, to as usize, path));
                path.pop();
            }
        }
        best
    }

    #[test]
    fn random_cyclic_graphs_agree_with_plain_recursion() {
        let mut rng = 7u64;
        let mut next = |m: u64| {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (rng >> 33) % m
        };
        let mut cyclic = 0;
        for _ in 0..300 {
            let n = 1 + next(9) as usize;
            let edges: Vec<(usize, u32, u8)> = (0..n * 2)
                .map(|_| {
                    let to = next(n as u64 + 1);
                    (next(n as u64) as usize, if to == n as u64 { GAME_OVER } else { to as u32 }, next(4) as u8)
                })
                .filter(|&(a, b, _)| a as u32 != b)
                .collect();
            let g = graph(n, &edges);
            let (v, stats) = graph_values(&g, u64::MAX).unwrap();
            cyclic += stats.cyclic_components;
            for (s, &value) in v.iter().enumerate().take(n) {
                assert_eq!(value, brute_simple(&g, s, &mut vec![s]), "node {s} of {edges:?}");
            }
        }
        assert!(cyclic > 50);
    }

    #[test]
    fn a_component_too_large_is_an_error_not_a_hang() {
        let n = 14;
        let edges: Vec<_> =
            (0..n).flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b as u32, 1))).collect();
        let g = graph(n, &edges);
        assert_eq!(graph_values(&g, 100_000).err(), Some(SolveError::CycleTooComplex { size: n, budget: 100_000 }));
    }

    #[test]
    fn the_enemy_with_memory_is_solved_at_tiny_heights() {
        for h in 1..=3 {
            assert_eq!(solve_with_memory(Rules::with_height(h).unwrap()), Ok(0));
        }
    }
}
