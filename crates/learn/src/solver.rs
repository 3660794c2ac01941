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
//! the value of any well on one would be unbounded. Measured (Tarjan's
//! strongly connected components, iterative): such cycles do exist at small
//! heights. The solver therefore defines the value as the best *simple*
//! path: the player may not land in a well already on the path from where
//! the count started (the real enemy's memory pushes toward the same, by
//! refusing pieces that return to seen wells). Lines never go negative, so
//! the best simple path is also the best maximal one: stopping early never
//! helps. Exact by dynamic programming over the components in reverse
//! topological order; inside a component with a cycle, by enumerating its
//! simple paths, which is feasible only while components stay small: a step
//! budget turns a component too large into [`SolveError::CycleTooComplex`]
//! instead of an endless run.
//!
//! **The real enemy.** With memory the state is the well plus every well
//! seen, so per-well values are not defined by the well alone. Only the
//! value of a whole game from the empty well is solved, by a depth-first
//! search that carries the memory, within a node budget
//! ([`solve_with_memory`]); it fits only the tiniest heights.

use crate::dataset::{DatasetError, DatasetWriter, Sample};
use hatetris_game::{choose_piece, distinct_landings, Rules, Well, BAR};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::path::Path;
use std::time::Instant;

/// Wells are packed into 10 bits a row, so heights up to 12 fit a `u128`.
pub const MAX_HEIGHT: usize = 12;
/// Simple-path enumeration steps allowed across all cyclic components.
pub const CYCLE_STEP_BUDGET: u64 = 200_000_000;
/// Search nodes allowed for the enemy with memory.
pub const MEMORY_NODE_BUDGET: u64 = 50_000_000;
/// Pieces in one game searched with memory.
pub const MEMORY_DEPTH_CAP: usize = 1000;
/// An edge target meaning "the landing ended the game".
const GAME_OVER: u32 = u32::MAX;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SolveError {
    #[error("height {0} is not solvable here (1..={MAX_HEIGHT})")]
    Height(usize),
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

    /// Reachable wells that are not game over (the empty well among them).
    pub fn well_count(&self) -> usize {
        self.wells.len()
    }

    /// Landings (edges) in the graph.
    pub fn edge_count(&self) -> usize {
        self.edges
    }

    /// The most lines from the empty well.
    pub fn max_lines(&self) -> u32 {
        self.values[0]
    }

    /// Every reachable well with its value, the empty well first.
    pub fn iter(&self) -> impl Iterator<Item = (Well, u32)> + '_ {
        self.wells.iter().zip(&self.values).map(move |(&k, &v)| (unpack(k, self.rules), v))
    }

    /// Writes every well as a sample with target `(lines / target_max - 0.5) * 2`
    /// clamped to [-1, 1]; rows are the small well's own playable rows.
    pub fn write_dataset(&self, path: &Path, description: &str, target_max: u32) -> Result<u64, DatasetError> {
        let mut w = DatasetWriter::create(path, description)?;
        for (well, lines) in self.iter() {
            w.push(&Sample::new(well.playable(self.rules), target(lines, target_max)))?;
        }
        let n = w.len();
        w.finish()?;
        Ok(n)
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

/// Breadth-first from the empty well. Each layer's enemy choices and
/// landings are computed in parallel, then numbered in order, so a node's
/// edges are appended in node order.
fn build_graph(rules: Rules, t0: Instant, progress: &mut dyn FnMut(&Progress)) -> Graph {
    let mut index: FxHashMap<u128, u32> = FxHashMap::default();
    let mut g = Graph { wells: vec![0], start: vec![0], to: Vec::new(), lines: Vec::new() };
    index.insert(0, 0);
    let mut layer = 0..1usize;
    while !layer.is_empty() {
        let succ: Vec<Vec<(u128, u8, bool)>> = g.wells[layer.clone()]
            .par_iter()
            .map(|&k| {
                let well = unpack(k, rules);
                let piece = choose_piece(&well, rules, |_| 0);
                distinct_landings(&well, rules, piece)
                    .iter()
                    .map(|l| (pack(&l.well, rules), l.lines, l.well.is_game_over()))
                    .collect()
            })
            .collect();
        let next = g.wells.len();
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
        }
        layer = next..g.wells.len();
        progress(&Progress { stage: "graph", wells: g.wells.len(), edges: g.to.len(), secs: t0.elapsed().as_secs_f64() });
    }
    g
}

/// Strongly connected components by Tarjan's algorithm, iteratively. Returns
/// the components in the order Tarjan closes them, which is reverse
/// topological: every edge leaving a component goes to an earlier one.
fn components(g: &Graph) -> Vec<Vec<u32>> {
    const UNSEEN: u32 = u32::MAX;
    let n = g.len();
    let mut order = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut calls: Vec<(u32, usize)> = Vec::new();
    let mut out = Vec::new();
    let mut next = 0u32;
    for root in 0..n {
        if order[root] != UNSEEN {
            continue;
        }
        order[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root as u32);
        on_stack[root] = true;
        calls.push((root as u32, g.start[root]));
        while let Some(&mut (v, ref mut e)) = calls.last_mut() {
            let v = v as usize;
            if *e < g.start[v + 1] {
                let w = g.to[*e];
                *e += 1;
                if w == GAME_OVER {
                    continue;
                }
                let w = w as usize;
                if order[w] == UNSEEN {
                    order[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w as u32);
                    on_stack[w] = true;
                    calls.push((w as u32, g.start[w]));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(p, _)) = calls.last() {
                low[p as usize] = low[p as usize].min(low[v]);
            }
            if low[v] == order[v] {
                let mut comp = Vec::new();
                loop {
                    let w = stack.pop().expect("v is on the stack");
                    on_stack[w as usize] = false;
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
fn values(g: &Graph, comps: &[Vec<u32>], stats: &mut CycleStats) -> Result<Vec<u32>, SolveError> {
    const UNKNOWN: u32 = u32::MAX;
    let mut value = vec![UNKNOWN; g.len()];
    let worth = |value: &[u32], e: usize| g.lines[e] as u32 + if g.to[e] == GAME_OVER { 0 } else { value[g.to[e] as usize] };
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
                g.edges(v as usize)
                    .filter_map(|e| local.get(&g.to[e]).map(|&j| (j, g.lines[e] as u32)))
                    .collect()
            })
            .collect();
        let best = longest_simple_paths(&inner, &exit, &mut stats.path_steps)
            .ok_or(SolveError::CycleTooComplex { size: comp.len(), budget: CYCLE_STEP_BUDGET })?;
        for (&v, b) in comp.iter().zip(best) {
            value[v as usize] = b;
        }
    }
    Ok(value)
}

/// For each start node of a strongly connected component: the most of
/// (lines along a simple path inside it + `exit` of its last node), by
/// enumerating simple paths with an explicit stack. `None` past the budget.
fn longest_simple_paths(inner: &[Vec<(usize, u32)>], exit: &[u32], steps: &mut u64) -> Option<Vec<u32>> {
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
            if *steps > CYCLE_STEP_BUDGET {
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

/// Solves every well reachable from the empty well against HATETRIS Mild.
pub fn solve(rules: Rules, progress: &mut dyn FnMut(&Progress)) -> Result<Solution, SolveError> {
    if rules.height() > MAX_HEIGHT {
        return Err(SolveError::Height(rules.height()));
    }
    let t0 = Instant::now();
    let g = build_graph(rules, t0, progress);
    let comps = components(&g);
    progress(&Progress { stage: "components", wells: g.len(), edges: g.to.len(), secs: t0.elapsed().as_secs_f64() });
    let mut cycles = CycleStats::default();
    let values = values(&g, &comps, &mut cycles)?;
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
            let piece = choose_piece(&well, self.rules, |w| seen.get(w).copied().unwrap_or(0));
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
