//! The beam search through one whole game.
//!
//! At each depth the beam holds up to `width` entries. Each entry is
//! expanded: the enemy picks its piece exactly as the real game would on
//! that entry's path (memory included), every distinct landing that does
//! not end the game becomes a candidate, valued by the evaluator (through
//! quiescence if on). The best `width` candidates form the next beam.
//!
//! Merging. Two candidates with the same well and the same memory (the
//! multiset of wells their paths have shown the enemy, compared by an
//! order-independent hash) have identical futures: they are merged, keeping
//! the higher score. Candidates with the same well but different memories
//! ("twins") may differ in the future only if a loop comes back to a well
//! one of them saw; they are not merged but pruned: at most `twins` per
//! well are kept (the best by score), which is beam selection, not a merge,
//! so the line found stays exact.

use crate::line::{replay_line, LineError};
use crate::moves::Move;
use crate::path::PathTree;
use crate::quiescence::{chain_values, raise_values, Blend, ChainRule, Chains, DEFAULT_CHAIN};
use hatetris_eval::Evaluator;
use hatetris_game::{choose_piece_and_landings, Enemy, Rules, Well};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::time::Instant;

pub mod shard;

/// Entries per parallel task when expanding: small enough that two threads
/// finish together (an entry costs 5-50 µs, so 16 is well under a ms),
/// large enough that task overhead is nothing. Any fixed size gives the
/// same candidate list.
const EXPAND_CHUNK: usize = 16;

/// Candidates chained together by a band (`SearchConfig::chain_band`):
/// enough for full sweeps and evaluation batches, few enough that two
/// threads share a depth's work.
const CHAIN_BATCH: usize = 256;

/// What to search.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    pub width: usize,
    pub rules: Rules,
    pub enemy: Enemy,
    /// Depth of the line-clear chains a child's value looks through (0: off).
    pub quiescence: u32,
    /// Which clears those chains follow.
    pub chain_rule: ChainRule,
    /// Chain only the `chain_band` x `width` candidates of a depth with the
    /// best values of their own (0: chain every candidate). A chain only
    /// raises a value, and wells far below the cut seldom rise above it,
    /// so a band buys most of the chains' effect for a fraction of their
    /// cost.
    pub chain_band: u32,
    /// How much of a chain's rise counts (`Blend`).
    pub chain_blend: Blend,
    /// How many wells a chain goes on from after each clear (0: all; see
    /// `Chains::follow`).
    pub chain_follow: u32,
    /// Breaks ties between equal values; the same seed gives the same game.
    pub seed: u64,
    /// Entries kept per well when their memories differ.
    pub twins: usize,
    /// Stop after this many pieces (0: play until no entry survives).
    pub max_depth: usize,
}

impl SearchConfig {
    /// The chain setting the values look through.
    pub fn chains(&self) -> Chains {
        Chains {
            rule: self.chain_rule,
            depth: self.quiescence,
            band: self.chain_band,
            blend: self.chain_blend,
            follow: self.chain_follow,
        }
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            width: 1000,
            rules: Rules::STANDARD,
            enemy: Enemy::Hatetris,
            quiescence: DEFAULT_CHAIN,
            chain_rule: ChainRule::default(),
            chain_band: 0,
            chain_blend: Blend::FULL,
            chain_follow: 0,
            seed: 0,
            twins: 1,
            max_depth: 0,
        }
    }
}

/// One beam entry: 64 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    pub well: Well,
    pub score: u32,
    /// Its node in the path tree (its memory and its moves).
    pub node: u32,
    /// Order-independent hash of the wells shown to the enemy on its path.
    pub memory: u64,
    pub value: f32,
}

/// A candidate child, before selection: 32 bytes. Its well is rebuilt from
/// the parent and the move only if it is selected.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    value: f32,
    score: u32,
    parent: u32,
    mv: u32,
    well_hash: u64,
    memory: u64,
}

/// Progress after one depth.
#[derive(Clone, Debug, Default)]
pub struct DepthReport {
    pub depth: usize,
    pub beam: usize,
    pub best_score: u32,
    pub expanded_total: u64,
    pub elapsed_secs: f64,
    pub entries_per_sec: f64,
    pub tree_nodes: usize,
}

/// The outcome of a search: the best line found and its statistics.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub score: u32,
    pub moves: Vec<Move>,
    pub depth_reached: usize,
    pub expanded: u64,
    pub elapsed_secs: f64,
    pub peak_tree_nodes: usize,
}

/// The state of a search between depths; everything a checkpoint holds.
#[derive(Clone, Debug)]
pub struct BeamState {
    pub depth: usize,
    pub beam: Vec<Entry>,
    pub tree: PathTree,
    pub best_score: u32,
    pub best_node: u32,
    pub expanded: u64,
    pub elapsed_secs: f64,
    pub peak_tree_nodes: usize,
}

/// Mixes a well hash into the memory multiset (commutative: addition of a
/// strong mix of the element).
pub(crate) fn memory_element(well_hash: u64) -> u64 {
    let mut z = well_hash.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn tiebreak(seed: u64, well_hash: u64) -> u64 {
    memory_element(well_hash ^ seed.wrapping_mul(0xD6E8_FEB8_6659_FD93))
}

impl BeamState {
    /// The start: the empty well, before the first piece.
    pub fn new() -> BeamState {
        BeamState::from_well(Well::EMPTY)
    }

    /// A search from `well`, as if the game had just reached it with no
    /// other well in the enemy's memory (used by the refine lookahead).
    pub fn from_well(well: Well) -> BeamState {
        let h = well.hash64();
        BeamState {
            depth: 0,
            beam: vec![Entry { well, score: 0, node: 0, memory: memory_element(h), value: 0.0 }],
            tree: PathTree::new(h),
            best_score: 0,
            best_node: 0,
            expanded: 0,
            elapsed_secs: 0.0,
            peak_tree_nodes: 1,
        }
    }

    /// A search from several wells at once, each as if the game had just
    /// reached it with no other well in the enemy's memory: the wells are
    /// the children of a root that holds no well (hash 0), at depth 1 of
    /// the tree, so `first_well_of` tells which of them an entry descends
    /// from. Used by refine's family lookahead, where one beam compares a
    /// sampled entry's children.
    pub fn from_wells(wells: &[Well]) -> BeamState {
        let mut tree = PathTree::new(0);
        let beam = wells
            .iter()
            .map(|w| {
                let h = w.hash64();
                let node = tree.push(0, h, 0);
                Entry { well: *w, score: 0, node, memory: memory_element(h), value: 0.0 }
            })
            .collect();
        BeamState {
            depth: 0,
            beam,
            peak_tree_nodes: tree.len(),
            tree,
            best_score: 0,
            best_node: 0,
            expanded: 0,
            elapsed_secs: 0.0,
        }
    }

    /// The hash of the start well an entry of a `from_wells` search
    /// descends from.
    pub fn first_well_of(&self, entry: &Entry) -> u64 {
        self.tree.node(self.tree.ancestor_at(entry.node, 1)).well_hash
    }

    /// A search from the position a game reaches by `moves` from the empty
    /// well, with the enemy's memory exactly the game's (loops included):
    /// the path tree is the line itself, root (the empty well) then one node
    /// per move, as `step` would have pushed them, and the one entry's
    /// memory hash sums the same wells. Each move is checked against the
    /// real enemy's piece and the legal landings (`replay_line`).
    ///
    /// `depth` counts pieces searched from this position (0 here), so
    /// `SearchConfig::max_depth` is the number of pieces to search on;
    /// `result().moves` is the whole line from the empty well, which
    /// `keys_for_line` turns into a replay. A line that ends the game
    /// leaves nothing to search and is refused.
    pub fn from_moves(moves: &[Move], rules: Rules, enemy: Enemy) -> Result<BeamState, LineError> {
        let root = Well::EMPTY.hash64();
        let mut tree = PathTree::new(root);
        let mut memory = memory_element(root);
        let mut node = 0;
        let end = replay_line(rules, enemy, moves, |mv, well, _| {
            let h = well.hash64();
            node = tree.push(node, h, mv.pack());
            memory = memory.wrapping_add(memory_element(h));
        })?;
        if end.game_over {
            return Err(LineError::EndsInGameOver { pieces: moves.len() });
        }
        Ok(BeamState {
            depth: 0,
            beam: vec![Entry { well: end.well, score: end.score, node, memory, value: 0.0 }],
            peak_tree_nodes: tree.len(),
            tree,
            best_score: end.score,
            best_node: node,
            expanded: 0,
            elapsed_secs: 0.0,
        })
    }

    /// Pieces placed since the start without ending the game: the depth,
    /// less the step that found no child once the beam has died.
    pub fn pieces_survived(&self) -> usize {
        if self.beam.is_empty() {
            self.depth.saturating_sub(1)
        } else {
            self.depth
        }
    }

    pub fn is_finished(&self, config: &SearchConfig) -> bool {
        self.beam.is_empty() || (config.max_depth > 0 && self.depth >= config.max_depth)
    }

    /// The best line so far.
    pub fn result(&self) -> SearchResult {
        SearchResult {
            score: self.best_score,
            moves: self.tree.moves_to(self.best_node).into_iter().map(Move::unpack).collect(),
            depth_reached: self.depth,
            expanded: self.expanded,
            elapsed_secs: self.elapsed_secs,
            peak_tree_nodes: self.peak_tree_nodes,
        }
    }

    /// Expands the beam by one piece.
    pub fn step(&mut self, config: &SearchConfig, eval: &dyn Evaluator) {
        let started = Instant::now();
        let banded = config.quiescence > 0 && config.chain_band > 0;
        let candidates = if banded {
            let mut plain = self.expand(&SearchConfig { quiescence: 0, ..config.clone() }, eval);
            self.chain_band(&mut plain, config, eval);
            plain
        } else {
            self.expand(config, eval)
        };
        self.expanded += self.beam.len() as u64;
        let chosen = select(candidates, config);
        let children: Vec<(u32, u64, u32)> =
            chosen.iter().map(|c| (self.beam[c.parent as usize].node, c.well_hash, c.mv)).collect();
        let first_node = self.tree.push_many(&children);
        // The selected wells, rebuilt from parent and move on every thread.
        let beam = &self.beam;
        let next: Vec<Entry> = chosen
            .par_iter()
            .enumerate()
            .with_min_len(1024)
            .map(|(k, c)| {
                let mv = Move::unpack(c.mv);
                let parent = &beam[c.parent as usize];
                let mut well = parent.well;
                let lines = well.lock(mv.piece.shape(mv.o), mv.x as i32, mv.y as i32);
                debug_assert_eq!(well.hash64(), c.well_hash);
                Entry {
                    well,
                    score: parent.score + lines,
                    node: first_node + k as u32,
                    memory: c.memory,
                    value: c.value,
                }
            })
            .collect();
        // The best line is the deepest one with the top score (the first
        // such entry, the most valued): a game without clears still plays
        // out to its end.
        let mut deeper_best = false;
        for e in &next {
            if e.score > self.best_score || (e.score == self.best_score && !deeper_best) {
                self.best_score = e.score;
                self.best_node = e.node;
                deeper_best = true;
            }
        }
        self.beam = next;
        self.depth += 1;
        self.peak_tree_nodes = self.peak_tree_nodes.max(self.tree.len());
        // Lineages merge quickly; dropping dead branches keeps the tree near
        // width x (depth of unmerged lineages).
        if self.tree.len() > 4 * self.beam.len().max(1024) + 64 * 1024 {
            let mut live: Vec<u32> = self.beam.iter().map(|e| e.node).collect();
            let mut best = [self.best_node];
            self.tree.collect_garbage(&mut live, &mut best);
            for (e, id) in self.beam.iter_mut().zip(live) {
                e.node = id;
            }
            self.best_node = best[0];
        }
        self.elapsed_secs += started.elapsed().as_secs_f64();
    }

    /// Values through the chains the `chain_band` x width candidates first
    /// in the selection order by their own values. They come from many
    /// parents, a few from each, so they are chained in large batches of
    /// any parents (several wells a sweep, hundreds an evaluation), not by
    /// family.
    fn chain_band(&self, cands: &mut [Candidate], config: &SearchConfig, eval: &dyn Evaluator) {
        let band = (config.chain_band as usize).saturating_mul(config.width);
        let mut chosen: Vec<(u128, u32)> = if band < cands.len() {
            let mut keys: Vec<(u128, u32)> =
                cands.par_iter().enumerate().map(|(i, c)| (sort_key(c, config.seed), i as u32)).collect();
            keys.select_nth_unstable(band);
            keys.truncate(band);
            keys
        } else {
            (0..cands.len() as u32).map(|i| (0, i)).collect()
        };
        // In list order, so that the batches (and so the memo's reuse) do
        // not depend on the thread count.
        chosen.sort_unstable_by_key(|&(_, i)| i);
        let beam = &self.beam;
        let cands_ref: &[Candidate] = cands;
        let raised = raise_in_batches(&chosen, config, eval, |&(_, i)| {
            let c = &cands_ref[i as usize];
            (beam[c.parent as usize].well, c.mv, c.value)
        });
        for (&(_, i), v) in chosen.iter().zip(raised) {
            cands[i as usize].value = v;
        }
    }

    fn expand(&self, config: &SearchConfig, eval: &dyn Evaluator) -> Vec<Candidate> {
        let tree = &self.tree;
        // Fixed chunks, in order: the candidate list is the same whatever
        // the thread count.
        let parts: Vec<Vec<Candidate>> = self
            .beam
            .par_chunks(EXPAND_CHUNK)
            .enumerate()
            .map(|(chunk_index, chunk)| {
                let mut out = Vec::with_capacity(chunk.len() * 24);
                for (i, entry) in chunk.iter().enumerate() {
                    let parent = (chunk_index * EXPAND_CHUNK + i) as u32;
                    expand_entry(entry, parent, config, tree, eval, &mut out);
                }
                out
            })
            .collect();
        par_concat(&parts)
    }
}

/// `parts` end to end, copied on every thread. Rayon's collect of a flat
/// map appends the parts on one thread: 4% of a one-thread search, all of
/// it serial.
fn par_concat<T: Copy + Send + Sync>(parts: &[Vec<T>]) -> Vec<T> {
    let mut starts = Vec::with_capacity(parts.len() + 1);
    let mut total = 0;
    for p in parts {
        starts.push(total);
        total += p.len();
    }
    starts.push(total);
    let part_of = |i: usize| starts.partition_point(|&s| s <= i) - 1;
    (0..total)
        .into_par_iter()
        .with_min_len(1024)
        // Each task copies a run of consecutive items: it finds the part of
        // its first item, then steps through the parts.
        .map_init(
            || usize::MAX,
            |part, i| {
                if *part >= parts.len() || i < starts[*part] || i >= starts[*part + 1] {
                    *part = part_of(i);
                }
                parts[*part][i - starts[*part]]
            },
        )
        .collect()
}

impl Default for BeamState {
    fn default() -> Self {
        BeamState::new()
    }
}

#[allow(clippy::too_many_arguments)]
fn expand_entry(
    entry: &Entry,
    parent: u32,
    config: &SearchConfig,
    tree: &PathTree,
    eval: &dyn Evaluator,
    out: &mut Vec<Candidate>,
) {
    let (rules, enemy) = (config.rules, config.enemy);
    let chains = config.chains();
    // The enemy's piece as the real game would choose it on the entry's
    // path (the entry's own node holds its well, so the memory's count
    // already includes "this well once more"), and its landings, from one
    // sweep.
    let memory = tree.memory_at(entry.node);
    let memory = (enemy == Enemy::Hatetris).then_some(&memory);
    let (piece, mut landings) = choose_piece_and_landings(&entry.well, rules, memory);
    landings.retain(|l| !l.well.is_game_over());
    // The children are valued together (their clears are swept several at once).
    let wells: Vec<Well> = landings.iter().map(|l| l.well).collect();
    let mut values = vec![0.0; wells.len()];
    chain_values(eval, rules, Some(&entry.well), &wells, chains, &mut values);
    for (landing, value) in landings.iter().zip(values) {
        let well_hash = landing.well.hash64();
        let mv = Move { piece, x: landing.x, y: landing.y, o: landing.o };
        out.push(Candidate {
            value,
            score: entry.score + landing.lines as u32,
            parent,
            mv: mv.pack(),
            well_hash,
            memory: entry.memory.wrapping_add(memory_element(well_hash)),
        });
    }
}

/// Keeps the best `width` candidates: by value, then score, then a seeded
/// tie-break, then position in the list (a total order, so the result does
/// not depend on the thread count). Merges and prunes twins as the module
/// comment says.
fn select(cands: Vec<Candidate>, config: &SearchConfig) -> Vec<Candidate> {
    let seed = config.seed;
    // The order as one integer per candidate, computed once (in parallel):
    // comparing these is far cheaper than comparing floats and hashing
    // tie-breaks inside every comparison of the sort.
    let order: Vec<(u128, u32)> = cands.par_iter().enumerate().map(|(i, c)| (sort_key(c, seed), i as u32)).collect();
    let kept = select_in_order(order, config, |i| {
        let c = &cands[i as usize];
        (c.well_hash, c.memory)
    });
    kept.into_iter().map(|i| cands[i as usize]).collect()
}

/// The indices kept from `order` (a key, then the candidate's index; the
/// keys distinct, ascending is best first): in that order, a candidate
/// whose (well, memory) was seen is merged away, and at most `twins` are
/// kept per well, `width` in all. `well_memory` gives a candidate's well
/// hash and memory. One process's selection and a shard's (whose keys
/// carry the global position) are this one loop.
pub(crate) fn select_in_order<K: Ord + Copy + Send + Sync>(
    mut order: Vec<(K, u32)>,
    config: &SearchConfig,
    well_memory: impl Fn(u32) -> (u64, u64),
) -> Vec<u32> {
    let width = config.width;
    // Sort only the front of the list when it is long: duplicates are rare
    // beyond a factor of two, and the rest is sorted only if needed.
    let mut sorted_upto = 0;
    let mut kept = Vec::with_capacity(width.min(order.len()));
    let expected = 2 * width.min(order.len());
    let mut per_well: FxHashMap<u64, u32> = FxHashMap::with_capacity_and_hasher(expected, Default::default());
    // With one entry per well, a merge is a well seen before, which the
    // count per well already rejects.
    let track_merges = config.twins > 1;
    let mut merged: FxHashSet<(u64, u64)> = FxHashSet::default();
    while kept.len() < width && sorted_upto < order.len() {
        let want = (2 * width + 64).max(sorted_upto * 2);
        let end = sorted_upto + smallest_to_front(&mut order[sorted_upto..], want);
        order[sorted_upto..end].par_sort_unstable();
        for &(_, i) in &order[sorted_upto..end] {
            if kept.len() == width {
                break;
            }
            let (well, memory) = well_memory(i);
            // Same well and same memory: identical futures, merged (the
            // first seen has the higher score).
            if track_merges && !merged.insert((well, memory)) {
                continue;
            }
            let n = per_well.entry(well).or_insert(0);
            if (*n as usize) < config.twins {
                *n += 1;
                kept.push(i);
            }
        }
        sorted_upto = end;
    }
    kept
}

/// Moves the `m >= k` smallest of `v` (distinct) to its front, in no
/// order, and returns `m` (`v.len()` at most). Selection is the serial part
/// of a beam step and bounds the gain from a second core, so a long list
/// is cut at a pivot that a sample puts a little past the `k`-th, on every
/// thread; the few extra cost little in the sort that follows.
fn smallest_to_front<T: Ord + Copy + Send + Sync>(v: &mut [T], k: usize) -> usize {
    const SAMPLE: usize = 2048;
    if k >= v.len() {
        return v.len();
    }
    if v.len() >= 1 << 14 && v.len() >= 4 * k {
        // The sample's rank of the k-th, plus six standard deviations.
        let p = k as f64 / v.len() as f64;
        let spread = 6.0 * (SAMPLE as f64 * p * (1.0 - p)).sqrt();
        let rank = (p * SAMPLE as f64 + spread) as usize + 8;
        if rank < SAMPLE {
            let step = v.len() / SAMPLE;
            let mut sample: Vec<T> = (0..SAMPLE).map(|j| v[j * step]).collect();
            let pivot = *sample.select_nth_unstable(rank).1;
            let m = partition_at_most(v, &pivot);
            if m >= k {
                return m;
            }
            // A sample that unlucky is the exact fallback's business.
        }
    }
    v.select_nth_unstable(k);
    k
}

/// Moves the items `<= pivot` to the front of `v`, in no order; returns
/// how many. Halves are partitioned on both threads, then joined by
/// swapping the first half's tail with the second half's front.
fn partition_at_most<T: Ord + Send + Sync>(v: &mut [T], pivot: &T) -> usize {
    if v.len() <= 8192 {
        let mut small = 0;
        for i in 0..v.len() {
            if v[i] <= *pivot {
                v.swap(small, i);
                small += 1;
            }
        }
        return small;
    }
    let mid = v.len() / 2;
    let (low, high) = v.split_at_mut(mid);
    let (s1, s2) = rayon::join(|| partition_at_most(low, pivot), || partition_at_most(high, pivot));
    // [small1 big1 | small2 big2]: swap big1's start with small2's end.
    let m = (mid - s1).min(s2);
    let (front, back) = v.split_at_mut(mid);
    front[s1..s1 + m].swap_with_slice(&mut back[s2 - m..s2]);
    s1 + s2
}

/// Ascending order of these keys (then of the candidates' positions) is the
/// selection order: value, then score, both highest first, then the seeded
/// tie-break.
fn sort_key(c: &Candidate, seed: u64) -> u128 {
    // `f32::total_cmp`'s order as unsigned integers: negative values have
    // their magnitude bits flipped, then the sign bit makes them smallest.
    let bits = c.value.to_bits() as i32;
    let value = ((bits ^ (((bits >> 31) as u32) >> 1) as i32) as u32) ^ 0x8000_0000;
    let high = ((!value as u64) << 32) | !c.score as u64;
    ((high as u128) << 64) | tiebreak(seed, c.well_hash) as u128
}

/// The values of `items` through the chains: each item gives its parent's
/// well, the move to its well, and its own value. In batches of
/// `CHAIN_BATCH` from any parents (several wells a sweep, hundreds an
/// evaluation), one memo for each batch.
pub(crate) fn raise_in_batches<T: Sync>(
    items: &[T],
    config: &SearchConfig,
    eval: &dyn Evaluator,
    of: impl Fn(&T) -> (Well, u32, f32) + Sync,
) -> Vec<f32> {
    let chains = config.chains();
    let raised: Vec<Vec<f32>> = items
        .par_chunks(CHAIN_BATCH)
        .map(|batch| {
            let mut wells = Vec::with_capacity(batch.len());
            let mut values = Vec::with_capacity(batch.len());
            for item in batch {
                let (parent, mv, value) = of(item);
                let mv = Move::unpack(mv);
                let mut well = parent;
                well.lock(mv.piece.shape(mv.o), mv.x as i32, mv.y as i32);
                wells.push(well);
                values.push(value);
            }
            raise_values(eval, config.rules, &wells, chains, &mut values);
            values
        })
        .collect();
    raised.concat()
}

/// Runs a whole search, calling `on_depth` after every depth.
pub fn search(config: &SearchConfig, eval: &dyn Evaluator, on_depth: &mut dyn FnMut(&DepthReport)) -> SearchResult {
    let mut state = BeamState::new();
    run(&mut state, config, eval, &mut |s| {
        on_depth(&s.report());
        true
    });
    state.result()
}

/// Steps `state` until the game ends; `after_depth` may stop early by
/// returning false (for checkpoints and interruption).
pub fn run(
    state: &mut BeamState,
    config: &SearchConfig,
    eval: &dyn Evaluator,
    after_depth: &mut dyn FnMut(&BeamState) -> bool,
) {
    while !state.is_finished(config) {
        state.step(config, eval);
        if !after_depth(state) {
            break;
        }
    }
}

impl BeamState {
    pub fn report(&self) -> DepthReport {
        DepthReport {
            depth: self.depth,
            beam: self.beam.len(),
            best_score: self.best_score,
            expanded_total: self.expanded,
            elapsed_secs: self.elapsed_secs,
            entries_per_sec: if self.elapsed_secs > 0.0 { self.expanded as f64 / self.elapsed_secs } else { 0.0 },
            tree_nodes: self.tree.len(),
        }
    }
}

const _: () = assert!(std::mem::size_of::<Entry>() == 64 && std::mem::size_of::<Candidate>() == 32);

/// Expands one well as a beam entry would be (memory: the empty path, so
/// the enemy's choice needs its look-ups but finds nothing); returns the
/// number of candidates. For benchmarks.
pub fn expand_single(well: &Well, config: &SearchConfig, eval: &dyn Evaluator) -> usize {
    let tree = PathTree::new(0);
    let entry = Entry { well: *well, score: 0, node: 0, memory: 0, value: 0.0 };
    let mut out = Vec::with_capacity(48);
    expand_entry(&entry, 0, config, &tree, eval, &mut out);
    out.len()
}

#[cfg(test)]
pub(crate) mod tests;
