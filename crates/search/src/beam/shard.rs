//! Hooks for a beam spread over processes (the `hatetris-dist` crate).
//!
//! The single-process selection order is: value, score, the seeded
//! tie-break of the well (these three are `sort_key`), then the position
//! in the candidate list. That position is (the parent's index in the
//! beam, the landing's index among the parent's children), so a candidate
//! that carries its parent's *global* rank and its landing index orders
//! exactly as in one process, wherever it is. Equal `sort_key`s need equal
//! well hashes (the tie-break is a bijection of the hash), so candidates
//! that tie are always on the worker that owns their well.
//!
//! Selection keeps a candidate when, in that order, its well has shown
//! fewer than `twins` memories before it and its memory is new for the
//! well: a rule on same-well candidates only. Hence, exactly:
//! - a worker may drop what its own candidates already reject (merge or
//!   twin), and everything past its own `width`-th kept candidate (each
//!   candidate kept before it stands for a distinct kept (well, memory)
//!   globally, so at least `width` are kept before it);
//! - the owner of a well, seeing every candidate of that well that
//!   survived those cuts, selects as one process would, and the global beam
//!   is the first `width` of the owners' kept lists merged by the order.

use super::{expand_entry, raise_in_batches, select_in_order, sort_key, Candidate, Entry, SearchConfig, EXPAND_CHUNK};
use crate::path::PathTree;
use hatetris_eval::Evaluator;
use rayon::prelude::*;

/// A candidate child with its place in the single-process order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Child {
    /// `sort_key`: value, score, seeded tie-break (ascending is best first).
    pub key: u128,
    /// The parent's rank in the global beam (high 32 bits) and the
    /// landing's index among the parent's children (low 32 bits).
    pub pos: u64,
    pub value: f32,
    pub score: u32,
    /// The parent's node in the path tree.
    pub parent_node: u32,
    pub mv: u32,
    pub well_hash: u64,
    pub memory: u64,
}

impl Child {
    /// The total order of selection: ascending is best first.
    #[inline]
    pub fn order(&self) -> (u128, u64) {
        (self.key, self.pos)
    }
}

/// Expands `beam` (this worker's entries, in ascending global rank
/// `ranks`) into children, as `BeamState::step` would, in list order.
/// With a chain band, expand with `quiescence: 0` and raise the band's
/// children with [`raise_band`], as `BeamState::step` does.
pub fn expand(
    tree: &PathTree,
    beam: &[Entry],
    ranks: &[u32],
    config: &SearchConfig,
    eval: &dyn Evaluator,
) -> Vec<Child> {
    debug_assert_eq!(beam.len(), ranks.len());
    let parts: Vec<Vec<Child>> = beam
        .par_chunks(EXPAND_CHUNK)
        .zip(ranks.par_chunks(EXPAND_CHUNK))
        .map(|(chunk, ranks)| {
            let mut out: Vec<Candidate> = Vec::with_capacity(chunk.len() * 24);
            let mut children = Vec::with_capacity(chunk.len() * 24);
            for (entry, &rank) in chunk.iter().zip(ranks) {
                out.clear();
                expand_entry(entry, 0, config, tree, eval, &mut out);
                for (landing, c) in out.iter().enumerate() {
                    children.push(Child {
                        key: sort_key(c, config.seed),
                        pos: ((rank as u64) << 32) | landing as u64,
                        value: c.value,
                        score: c.score,
                        parent_node: entry.node,
                        mv: c.mv,
                        well_hash: c.well_hash,
                        memory: c.memory,
                    });
                }
            }
            children
        })
        .collect();
    parts.concat()
}

/// The indices of the children `select` would keep from `children`
/// (merging, twins, at most `config.width`), best first. Exact for any
/// subset of a depth's candidates that holds, for each of its wells, every
/// candidate of that well up to the ones kept (see the module comment).
pub fn select(children: &[Child], config: &SearchConfig) -> Vec<u32> {
    let order: Vec<((u128, u64), u32)> =
        children.par_iter().enumerate().map(|(i, c)| ((c.key, c.pos), i as u32)).collect();
    select_in_order(order, config, |i| {
        let c = &children[i as usize];
        (c.well_hash, c.memory)
    })
}

/// The memory hash of a beam that starts at `well_hash` alone (as
/// `BeamState::from_well` sets it).
pub fn start_memory(well_hash: u64) -> u64 {
    super::memory_element(well_hash)
}

/// Values the children at `band` (indices into `children`) through the
/// chains, as `BeamState::step` values its band, and gives them their new
/// keys. `beam` and `ranks` are the entries the children came from.
pub fn raise_band(
    children: &mut [Child],
    band: &[u32],
    beam: &[Entry],
    ranks: &[u32],
    config: &SearchConfig,
    eval: &dyn Evaluator,
) {
    let of: &[Child] = children;
    let raised = raise_in_batches(band, config, eval, |&i| {
        let c = &of[i as usize];
        let parent = ranks.binary_search(&((c.pos >> 32) as u32)).expect("a child's parent is here");
        (beam[parent].well, c.mv, c.value)
    });
    for (&i, value) in band.iter().zip(raised) {
        let c = &mut children[i as usize];
        c.value = value;
        let as_candidate =
            Candidate { value, score: c.score, parent: 0, mv: c.mv, well_hash: c.well_hash, memory: c.memory };
        c.key = sort_key(&as_candidate, config.seed);
    }
}
