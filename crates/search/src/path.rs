//! The paths of beam entries: a shared tree of nodes, one per position kept
//! by the beam, each pointing to its parent. An entry's memory of seen wells
//! is its chain of ancestors, never copied.
//!
//! The enemy asks "how many times has this path seen well w?". A global index
//! maps each well hash to the live nodes holding that well (a chain through
//! `next_same`); a node counts when it is an ancestor of the asking entry.
//! Ancestry is tested in O(log depth) with skew-binary jump pointers (each
//! node also points to an ancestor at a distance that makes level-ancestor
//! queries logarithmic). Nodes that no live entry descends from are dropped
//! by `collect_garbage`, so memory follows the beam's width times the depth
//! over which its lineages have not yet merged.

use hatetris_game::{Memory, Well};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

pub const NO_NODE: u32 = u32::MAX;

/// One kept position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub parent: u32,
    pub jump: u32,
    pub depth: u32,
    /// Next live node with the same well hash, or NO_NODE.
    pub next_same: u32,
    pub well_hash: u64,
    /// The move that led here (see `crate::moves::Move`), 0 for the root.
    pub mv: u32,
}

/// The tree of kept positions.
#[derive(Clone, Debug, Default)]
pub struct PathTree {
    pub(crate) nodes: Vec<Node>,
    pub(crate) index: HashIndex,
}

/// Shards of the index: enough that two threads share the work evenly.
const SHARDS: usize = 16;

/// The newest node holding each well hash, split by the hash's top bits so
/// that a depth's new nodes are indexed on every thread: growing the tree
/// is otherwise the serial part of a beam step. Each shard takes its own
/// hashes in node order, so the chains are the same whatever the thread
/// count.
#[derive(Clone, Debug)]
pub(crate) struct HashIndex {
    shards: Vec<FxHashMap<u64, u32>>,
}

impl Default for HashIndex {
    fn default() -> Self {
        HashIndex { shards: vec![FxHashMap::default(); SHARDS] }
    }
}

impl HashIndex {
    #[inline]
    fn shard(hash: u64) -> usize {
        (hash >> 60) as usize % SHARDS
    }

    #[inline]
    fn get(&self, hash: u64) -> Option<u32> {
        self.shards[Self::shard(hash)].get(&hash).copied()
    }

    #[inline]
    fn contains(&self, hash: u64) -> bool {
        self.shards[Self::shard(hash)].contains_key(&hash)
    }

    /// Empties the index, keeping its room.
    fn clear(&mut self) {
        self.shards.iter_mut().for_each(|m| m.clear());
    }

    fn capacity(&self) -> usize {
        self.shards.iter().map(|m| m.capacity()).sum()
    }

    /// Indexes `nodes[first..]` (their ids count from `first`), in order:
    /// each node's `next_same` becomes the node its hash pointed to.
    fn index_from(&mut self, nodes: &mut [Node], first: usize) {
        let new = &nodes[first..];
        // Each shard takes its own nodes, in order: (id, next_same) pairs.
        let fill = |(s, map): (usize, &mut FxHashMap<u64, u32>)| {
            let mut links = Vec::new();
            for (k, node) in new.iter().enumerate() {
                if Self::shard(node.well_hash) == s {
                    let id = (first + k) as u32;
                    links.push((id, map.insert(node.well_hash, id).unwrap_or(NO_NODE)));
                }
            }
            links
        };
        // A few nodes (the root, a test) are not worth waking the threads.
        let links: Vec<Vec<(u32, u32)>> = if new.len() < 256 {
            self.shards.iter_mut().enumerate().map(fill).collect()
        } else {
            self.shards.par_iter_mut().enumerate().map(fill).collect()
        };
        for (id, next_same) in links.into_iter().flatten() {
            nodes[id as usize].next_same = next_same;
        }
    }
}

impl PathTree {
    /// A tree holding only the root (the empty well before the first piece).
    pub fn new(root_hash: u64) -> PathTree {
        let mut t = PathTree::default();
        t.push(NO_NODE, root_hash, 0);
        t
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, id: u32) -> &Node {
        &self.nodes[id as usize]
    }

    /// Adds a child of `parent` (NO_NODE for the root) and indexes its well.
    pub fn push(&mut self, parent: u32, well_hash: u64, mv: u32) -> u32 {
        self.push_many(&[(parent, well_hash, mv)])
    }

    /// Adds the children `(parent, well_hash, mv)` of nodes already in the
    /// tree, in order, on every thread; returns the first one's id (the
    /// others follow).
    pub fn push_many(&mut self, children: &[(u32, u64, u32)]) -> u32 {
        let first = self.nodes.len();
        let built: Vec<Node> = children
            .par_iter()
            .with_min_len(512)
            .map(|&(parent, well_hash, mv)| self.new_node(parent, well_hash, mv))
            .collect();
        self.nodes.extend_from_slice(&built);
        self.index.index_from(&mut self.nodes, first);
        first as u32
    }

    /// A child of `parent`, not yet indexed.
    fn new_node(&self, parent: u32, well_hash: u64, mv: u32) -> Node {
        let (depth, jump) = if parent == NO_NODE {
            (0, NO_NODE)
        } else {
            let p = self.nodes[parent as usize];
            // Skew-binary jump pointers (as in Myers' random-access lists).
            let jump = if p.jump != NO_NODE {
                let j = self.nodes[p.jump as usize];
                if j.jump != NO_NODE && p.depth - j.depth == j.depth - self.nodes[j.jump as usize].depth {
                    j.jump
                } else {
                    parent
                }
            } else {
                parent
            };
            (p.depth + 1, jump)
        };
        Node { parent, jump, depth, next_same: NO_NODE, well_hash, mv }
    }

    /// The ancestor of `id` (itself included) at `depth`.
    pub fn ancestor_at(&self, mut id: u32, depth: u32) -> u32 {
        loop {
            let n = &self.nodes[id as usize];
            if n.depth == depth {
                return id;
            }
            debug_assert!(n.depth > depth);
            id = if n.jump != NO_NODE && self.nodes[n.jump as usize].depth >= depth { n.jump } else { n.parent };
        }
    }

    /// How many nodes on the path from the root to `id` (inclusive) hold a
    /// well with this hash: the enemy's memory count for that well.
    pub fn count_on_path(&self, id: u32, well_hash: u64) -> u32 {
        let Some(first) = self.index.get(well_hash) else { return 0 };
        let depth = self.nodes[id as usize].depth;
        let mut count = 0;
        let mut n = first;
        while n != NO_NODE {
            let node = &self.nodes[n as usize];
            if node.depth <= depth && self.ancestor_at(id, node.depth) == n {
                count += 1;
            }
            n = node.next_same;
        }
        count
    }

    /// The enemy's memory on the path from the root to `id`.
    pub fn memory_at(&self, id: u32) -> PathMemory<'_> {
        PathMemory { tree: self, node: id }
    }

    /// The moves from the root to `id`, first move first.
    pub fn moves_to(&self, mut id: u32) -> Vec<u32> {
        let mut out = Vec::new();
        while id != NO_NODE && self.nodes[id as usize].parent != NO_NODE {
            out.push(self.nodes[id as usize].mv);
            id = self.nodes[id as usize].parent;
        }
        out.reverse();
        out
    }

    /// Drops every node that none of `live` descends from (they can never be
    /// asked about again) and renumbers the rest; `live` and `extra` are
    /// rewritten to the new ids. Order is kept, so parents stay before
    /// children and the tree is the same whatever the thread count.
    pub fn collect_garbage(&mut self, live: &mut [u32], extra: &mut [u32]) {
        let (kept, new_id) = self.live_ids(live, extra);
        let remap = |id: u32| if id == NO_NODE { NO_NODE } else { new_id[id as usize] };
        // A kept node's ancestors are all kept, so parent and jump survive.
        let nodes = kept
            .iter()
            .map(|&i| {
                let node = &self.nodes[i as usize];
                Node { parent: remap(node.parent), jump: remap(node.jump), next_same: NO_NODE, ..*node }
            })
            .collect();
        self.nodes = nodes;
        self.rebuild_index();
        for id in live.iter_mut().chain(extra.iter_mut()) {
            *id = remap(*id);
        }
    }

    /// The live nodes (those `live` and `extra` descend from, the nodes
    /// [`collect_garbage`](Self::collect_garbage) keeps), in order, with
    /// each node's new id (NO_NODE for a dropped one), without changing
    /// the tree: a checkpoint writes only these.
    pub fn live_ids(&self, live: &[u32], extra: &[u32]) -> (Vec<u32>, Vec<u32>) {
        let n = self.nodes.len();
        let mut keep = vec![false; n];
        for &start in live.iter().chain(extra.iter()) {
            let mut id = start;
            while id != NO_NODE && !keep[id as usize] {
                keep[id as usize] = true;
                id = self.nodes[id as usize].parent;
            }
        }
        let mut new_id = vec![NO_NODE; n];
        let mut kept = Vec::new();
        for (i, k) in keep.iter().enumerate() {
            if *k {
                new_id[i] = kept.len() as u32;
                kept.push(i as u32);
            }
        }
        (kept, new_id)
    }

    /// A tree from its links alone: the root's well hash, then each later
    /// node's `(parent, well_hash, mv)` in order (every parent before its
    /// children), with depths, jump pointers and the index derived as
    /// `push` derives them. Parents must already be checked to come first.
    pub fn from_links(root_hash: u64, links: &[(u32, u64, u32)]) -> PathTree {
        let mut t = PathTree::default();
        t.nodes.reserve(links.len() + 1);
        t.nodes.push(t.new_node(NO_NODE, root_hash, 0));
        for &(parent, well_hash, mv) in links {
            debug_assert!((parent as usize) < t.nodes.len());
            let node = t.new_node(parent, well_hash, mv);
            t.nodes.push(node);
        }
        t.rebuild_index();
        t
    }

    /// Rebuilds the hash index from the nodes (after loading or compaction).
    pub fn rebuild_index(&mut self) {
        self.index.clear();
        self.index.index_from(&mut self.nodes, 0);
    }

    /// Bytes held by the tree (nodes and index), for the memory report.
    pub fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>() + self.index.capacity() * 16
    }
}

/// The memory of one path, as the enemy asks it. It counts wells by hash
/// alone (the tree keeps no wells), trusting 64 bits not to collide.
pub struct PathMemory<'a> {
    tree: &'a PathTree,
    node: u32,
}

impl Memory for PathMemory<'_> {
    fn times_seen(&self, _well: &Well, hash: u64) -> u32 {
        self.tree.count_on_path(self.node, hash)
    }

    /// The index's look-up alone: most hashes were never in the tree.
    #[inline]
    fn may_have(&self, hash: u64) -> bool {
        self.tree.index.contains(hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A naive count: walk every ancestor.
    fn naive_count(t: &PathTree, mut id: u32, h: u64) -> u32 {
        let mut c = 0;
        while id != NO_NODE {
            c += (t.node(id).well_hash == h) as u32;
            id = t.node(id).parent;
        }
        c
    }

    #[test]
    fn counts_and_ancestors_match_a_naive_walk() {
        // A random tree of 3000 nodes whose hashes repeat often.
        let mut t = PathTree::new(0);
        let mut rng = 12345u64;
        for _ in 0..3000 {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            // Mostly extend recent nodes, so the tree is deep.
            let span = (t.len() as u64).min(20);
            let parent = t.len() as u32 - 1 - ((rng >> 33) % span) as u32;
            t.push(parent, (rng >> 13) % 7, 0);
        }
        for id in (0..t.len() as u32).step_by(37) {
            for h in 0..7 {
                assert_eq!(t.count_on_path(id, h), naive_count(&t, id, h));
            }
            let d = t.node(id).depth;
            let mut walk = id;
            for _ in 0..d / 2 {
                walk = t.node(walk).parent;
            }
            assert_eq!(t.ancestor_at(id, d - d / 2), walk);
        }
    }

    /// Children added a depth at a time (indexed on every thread) give the
    /// tree that adding them one by one gives, chains of hashes included.
    #[test]
    fn pushing_a_depth_at_once_is_pushing_one_by_one() {
        let mut one_by_one = PathTree::new(0);
        let mut batched = PathTree::new(0);
        let mut rng = 99u64;
        for _depth in 0..6 {
            let len = batched.len() as u64;
            let children: Vec<(u32, u64, u32)> = (0..700)
                .map(|k| {
                    rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    // Hashes repeat, and spread over the shards' top bits.
                    let hash = ((rng >> 20) % 50).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    (((rng >> 40) % len) as u32, hash, k)
                })
                .collect();
            for &(p, h, mv) in &children {
                one_by_one.push(p, h, mv);
            }
            batched.push_many(&children);
        }
        assert_eq!(batched.nodes, one_by_one.nodes);
        for h in 0..50u64 {
            let h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            assert_eq!(batched.index.get(h), one_by_one.index.get(h));
        }
        batched.rebuild_index();
        assert_eq!(batched.nodes, one_by_one.nodes);
    }

    #[test]
    fn garbage_collection_keeps_live_paths_intact() {
        let mut t = PathTree::new(1);
        let a = t.push(0, 2, 10);
        let b = t.push(a, 3, 11);
        let dead = t.push(0, 3, 12);
        let _dead_child = t.push(dead, 4, 13);
        let c = t.push(b, 2, 14);
        let mut live = [c];
        t.collect_garbage(&mut live, &mut []);
        assert_eq!(t.len(), 4);
        assert_eq!(t.moves_to(live[0]), vec![10, 11, 14]);
        assert_eq!(t.count_on_path(live[0], 2), 2);
        assert_eq!(t.count_on_path(live[0], 3), 1);
        assert_eq!(t.count_on_path(live[0], 4), 0);
    }
}
