//! Saving a search between depths and resuming it.
//!
//! File layout (little-endian): magic `HTCK`, format version, the search
//! configuration and the evaluator's identity (a resumed run must use the
//! same ones to end with the same replay), the counters, the beam and the
//! path tree, then a CRC32 of everything before it. Written to a temporary
//! file and renamed, so a kill at any moment leaves either the old
//! checkpoint or the new one.
//!
//! A search from the empty well (every game search: `hatetris search`, a
//! cycle's master game, one going on from a line) is written compact
//! (version 5): only the tree's live nodes, each as its parent's distance
//! and its move, and each entry as its node and value. Wells, scores, the
//! enemy's memory, depths and jump pointers are derived again on loading
//! by replaying the moves, and checked against sums written beside them.
//! A 400,000-wide master search 70-80 pieces in takes 61 MB in full and
//! 7.8 MB this way (4.0 MB compressed, the cycle's sampler included):
//! small enough to carry a run that outlasts a session across machines
//! (gen-b's `stash.sh`). Any other start (a refine lookahead's several
//! wells) is written in full (version 4): entries with their wells, every
//! node with its links and hash.

use crate::beam::{memory_element, BeamState, Entry, SearchConfig};
use crate::moves::Move;
use crate::path::{Node, PathTree, NO_NODE};
use crate::quiescence::{Blend, ChainRule};
use hatetris_fileio::frame::{self, FrameError};
use hatetris_game::{Enemy, Rules, Well, MAX_DEPTH};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 4] = b"HTCK";
// 2: the quiescence field is a chain depth (was on/off, meaning depth 4).
// 3: the chain blend (thousandths) follows the piece cap; a version 2 file
// read as the whole rise, which is what it used.
// 5: compact, for a search from the empty well (version 4 is still
// written for any other start).
const VERSION: u32 = 5;
const FULL: u32 = 4;
pub const FILE_NAME: &str = "checkpoint.htck";
/// The checkpoint before the last, kept by [`save_keeping_previous`].
pub const PREVIOUS_NAME: &str = "checkpoint.prev.htck";

#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("checkpoint {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: {source}")]
    Frame { path: PathBuf, source: FrameError },
    #[error("checkpoint {path}: truncated or malformed ({what})")]
    Malformed { path: PathBuf, what: &'static str },
}

/// What a checkpoint restores.
pub struct Restored {
    pub config: SearchConfig,
    pub evaluator: String,
    pub state: BeamState,
}

struct Out(Vec<u8>);
impl Out {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn f64(&mut self, v: f64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn str(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.0.extend_from_slice(s.as_bytes());
    }
}

/// The live nodes and their new ids when `s` can be written compact: its
/// tree's root is the empty well and every other live node is a move.
fn compact_ids(s: &BeamState) -> Option<(Vec<u32>, Vec<u32>)> {
    let root = s.tree.nodes.first()?;
    if root.parent != NO_NODE || root.well_hash != Well::EMPTY.hash64() {
        return None;
    }
    let live: Vec<u32> = s.beam.iter().map(|e| e.node).collect();
    let (kept, new_id) = s.tree.live_ids(&live, &[s.best_node]);
    let moves_only = kept.first() == Some(&0) && kept[1..].iter().all(|&k| s.tree.nodes[k as usize].mv != 0);
    moves_only.then_some((kept, new_id))
}

fn encode(config: &SearchConfig, evaluator: &str, s: &BeamState) -> Vec<u8> {
    encode_as(config, evaluator, s, compact_ids(s).as_ref())
}

/// Sums over the beam of what a compact file derives (well hashes,
/// memories, scores), written beside it and checked on loading.
fn derived_sums(beam: &[Entry]) -> [u64; 3] {
    beam.iter().fold([0u64; 3], |[h, m, c], e| {
        [h.wrapping_add(e.well.hash64()), m.wrapping_add(e.memory), c.wrapping_add(e.score as u64)]
    })
}

fn encode_as(config: &SearchConfig, evaluator: &str, s: &BeamState, compact: Option<&(Vec<u32>, Vec<u32>)>) -> Vec<u8> {
    let mut o = Out(Vec::with_capacity(64 + s.beam.len() * 64 + s.tree.len() * 28));
    o.u64(config.width as u64);
    o.u32(config.rules.height() as u32);
    o.u32(matches!(config.enemy, Enemy::Mild) as u32);
    // The chain settings share the depth's word (depth in bits 0-7, band in
    // 8-23, rule in 24-31): files written before rules and bands existed
    // read as the S/Z rule over every candidate, which is what they used.
    debug_assert!(config.quiescence < 1 << 8 && config.chain_band < 1 << 16);
    o.u32(config.quiescence | config.chain_band << 8 | config.chain_rule.code() << 24);
    o.u64(config.seed);
    o.u64(config.twins as u64);
    o.u64(config.max_depth as u64);
    o.u32(config.chain_blend.thousandths());
    o.u32(config.chain_follow);
    o.str(evaluator);
    o.u64(s.depth as u64);
    o.u32(s.best_score);
    o.u32(compact.map_or(s.best_node, |(_, new_id)| new_id[s.best_node as usize]));
    o.u64(s.expanded);
    o.f64(s.elapsed_secs);
    o.u64(s.peak_tree_nodes as u64);
    if let Some((kept, new_id)) = compact {
        encode_compact(&mut o, s, kept, new_id);
        return frame::encode(MAGIC, VERSION, &o.0);
    }
    o.u64(s.beam.len() as u64);
    for e in &s.beam {
        for r in e.well.rows {
            o.0.extend_from_slice(&r.to_le_bytes());
        }
        o.u32(e.score);
        o.u32(e.node);
        o.u64(e.memory);
        o.u32(e.value.to_bits());
    }
    o.u64(s.tree.len() as u64);
    for n in &s.tree.nodes {
        o.u32(n.parent);
        o.u32(n.jump);
        o.u32(n.depth);
        o.u64(n.well_hash);
        o.u32(n.mv);
    }
    frame::encode(MAGIC, FULL, &o.0)
}

/// Version 5's tree and beam, column by column (a compressor then finds
/// the runs: entries' nodes count up, values fall): each live node but
/// the root as u32 distance to its parent, then each one's move as u16;
/// each entry's node as the u32 step from the one before, then its value's
/// bits as the u32 step from the one before; then [`derived_sums`].
fn encode_compact(o: &mut Out, s: &BeamState, kept: &[u32], new_id: &[u32]) {
    let nodes = &s.tree.nodes;
    o.u64(kept.len() as u64);
    for (k, &old) in kept.iter().enumerate().skip(1) {
        o.u32(k as u32 - new_id[nodes[old as usize].parent as usize]);
    }
    for &old in &kept[1..] {
        // A packed move takes 14 bits (`Move::pack`).
        o.0.extend_from_slice(&(nodes[old as usize].mv as u16).to_le_bytes());
    }
    o.u64(s.beam.len() as u64);
    let mut last = 0u32;
    for e in &s.beam {
        let id = new_id[e.node as usize];
        o.u32(id.wrapping_sub(last));
        last = id;
    }
    let mut last = 0u32;
    for e in &s.beam {
        o.u32(e.value.to_bits().wrapping_sub(last));
        last = e.value.to_bits();
    }
    for sum in derived_sums(&s.beam) {
        o.u64(sum);
    }
}

/// Reads version 5's tree and beam into `state`: the wells, scores and
/// memories replayed along the links from the empty well.
fn decode_compact(
    i: &mut frame::Reader,
    config: &SearchConfig,
    state: &mut BeamState,
    path: &Path,
) -> Result<(), CheckpointError> {
    let bad = |what| CheckpointError::Malformed { path: path.to_path_buf(), what };
    let len = i.count(6).filter(|&n| n >= 1).ok_or(bad("tree length"))?;
    let mut parents = Vec::with_capacity(len - 1);
    for k in 1..len {
        let d = i.u32().ok_or(bad("tree"))? as usize;
        if d == 0 || d > k {
            return Err(bad("tree links"));
        }
        parents.push(k - d);
    }
    let root = Well::EMPTY.hash64();
    let mut wells = vec![Well::EMPTY; len];
    let mut scores = vec![0u32; len];
    let mut memories = vec![memory_element(root); len];
    let mut links = Vec::with_capacity(len - 1);
    for (k, &p) in (1..len).zip(&parents) {
        let mv = u16::from_le_bytes(i.array().ok_or(bad("tree"))?) as u32;
        if mv == 0 || mv & 7 >= 7 {
            return Err(bad("move"));
        }
        let m = Move::unpack(mv);
        let shape = m.piece.shape(m.o);
        let mut well = wells[p];
        // A lock: on empty cells, and resting (one row down does not fit).
        let (x, y) = (m.x as i32, m.y as i32);
        if !well.fits(config.rules, shape, x, y) || well.fits(config.rules, shape, x, y + 1) {
            return Err(bad("move"));
        }
        let lines = well.lock(shape, x, y);
        let hash = well.hash64();
        wells[k] = well;
        scores[k] = scores[p] + lines;
        memories[k] = memories[p].wrapping_add(memory_element(hash));
        links.push((p as u32, hash, mv));
    }
    let beam_len = i.count(8).ok_or(bad("beam length"))?;
    let mut nodes = Vec::with_capacity(beam_len);
    let mut last = 0u32;
    for _ in 0..beam_len {
        last = last.wrapping_add(i.u32().ok_or(bad("beam"))?);
        if last as usize >= len {
            return Err(bad("node reference"));
        }
        nodes.push(last as usize);
    }
    let mut bits = 0u32;
    state.beam = Vec::with_capacity(beam_len);
    for node in nodes {
        bits = bits.wrapping_add(i.u32().ok_or(bad("beam"))?);
        state.beam.push(Entry {
            well: wells[node],
            score: scores[node],
            node: node as u32,
            memory: memories[node],
            value: f32::from_bits(bits),
        });
    }
    for sum in derived_sums(&state.beam) {
        if i.u64() != Some(sum) {
            return Err(bad("derived entries"));
        }
    }
    if state.best_node as usize >= len {
        return Err(bad("node reference"));
    }
    state.tree = PathTree::from_links(root, &links);
    Ok(())
}

fn decode(bytes: &[u8], path: &Path) -> Result<Restored, CheckpointError> {
    let p = || path.to_path_buf();
    let (version, body) = frame::decode(bytes, MAGIC, "checkpoint", &[2, 3, FULL, VERSION])
        .map_err(|source| CheckpointError::Frame { path: p(), source })?;
    let bad = |what| CheckpointError::Malformed { path: p(), what };
    let mut i = frame::Reader::new(body);
    let width = i.u64().ok_or(bad("config"))? as usize;
    let height = i.u32().ok_or(bad("config"))? as usize;
    let mild = i.u32().ok_or(bad("config"))? == 1;
    let chain = i.u32().ok_or(bad("config"))?;
    let (quiescence, chain_band) = (chain & 0xff, chain >> 8 & 0xffff);
    let chain_rule = ChainRule::from_code(chain >> 24).ok_or(bad("chain rule"))?;
    let seed = i.u64().ok_or(bad("config"))?;
    let twins = i.u64().ok_or(bad("config"))? as usize;
    let max_depth = i.u64().ok_or(bad("config"))? as usize;
    let chain_blend = if version >= 3 {
        Blend::from_thousandths(i.u32().ok_or(bad("config"))?).ok_or(bad("chain blend"))?
    } else {
        Blend::FULL
    };
    // Files before version 4 followed every clear.
    let chain_follow = if version >= 4 { i.u32().ok_or(bad("config"))? } else { 0 };
    let evaluator = i.str().ok_or(bad("evaluator"))?;
    let rules = Rules::with_height(height).ok_or(bad("height"))?;
    let config = SearchConfig {
        width,
        rules,
        enemy: if mild { Enemy::Mild } else { Enemy::Hatetris },
        quiescence,
        chain_rule,
        chain_band,
        chain_blend,
        chain_follow,
        seed,
        twins,
        max_depth,
    };
    let mut state = BeamState::new();
    state.depth = i.u64().ok_or(bad("counters"))? as usize;
    state.best_score = i.u32().ok_or(bad("counters"))?;
    state.best_node = i.u32().ok_or(bad("counters"))?;
    state.expanded = i.u64().ok_or(bad("counters"))?;
    state.elapsed_secs = i.f64().ok_or(bad("counters"))?;
    state.peak_tree_nodes = i.u64().ok_or(bad("counters"))? as usize;
    if version == VERSION {
        decode_compact(&mut i, &config, &mut state, path)?;
        if !i.is_done() {
            return Err(bad("trailing bytes"));
        }
        return Ok(Restored { config, evaluator, state });
    }
    let beam_len = i.u64().ok_or(bad("beam"))? as usize;
    if beam_len > body.len() / 60 {
        return Err(bad("beam length"));
    }
    state.beam = Vec::with_capacity(beam_len);
    for _ in 0..beam_len {
        let mut rows = [0u16; MAX_DEPTH];
        for r in rows.iter_mut() {
            *r = u16::from_le_bytes(i.take(2).ok_or(bad("beam"))?.try_into().unwrap());
        }
        state.beam.push(Entry {
            well: Well::from_rows(rows),
            score: i.u32().ok_or(bad("beam"))?,
            node: i.u32().ok_or(bad("beam"))?,
            memory: i.u64().ok_or(bad("beam"))?,
            value: f32::from_bits(i.u32().ok_or(bad("beam"))?),
        });
    }
    let tree_len = i.u64().ok_or(bad("tree"))? as usize;
    if tree_len > body.len() / 24 {
        return Err(bad("tree length"));
    }
    let mut tree = PathTree::default();
    tree.nodes.reserve(tree_len);
    for _ in 0..tree_len {
        tree.nodes.push(Node {
            parent: i.u32().ok_or(bad("tree"))?,
            jump: i.u32().ok_or(bad("tree"))?,
            depth: i.u32().ok_or(bad("tree"))?,
            next_same: 0,
            well_hash: i.u64().ok_or(bad("tree"))?,
            mv: i.u32().ok_or(bad("tree"))?,
        });
    }
    let n = tree.nodes.len() as u32;
    let in_tree = |id: u32| id < n;
    if !state.beam.iter().all(|e| in_tree(e.node)) || !in_tree(state.best_node) {
        return Err(bad("node reference"));
    }
    if !tree.nodes.iter().enumerate().all(|(k, nd)| {
        (nd.parent == crate::path::NO_NODE || (nd.parent as usize) < k)
            && (nd.jump == crate::path::NO_NODE || (nd.jump as usize) < k)
    }) {
        return Err(bad("tree links"));
    }
    if !i.is_done() {
        return Err(bad("trailing bytes"));
    }
    tree.rebuild_index();
    state.tree = tree;
    Ok(Restored { config, evaluator, state })
}

/// The checkpoint file's bytes, for a caller that keeps a search inside a
/// file of its own (a cycle's search step keeps its sampler's state too).
pub fn to_bytes(config: &SearchConfig, evaluator: &str, state: &BeamState) -> Vec<u8> {
    encode(config, evaluator, state)
}

/// Reads [`to_bytes`]' bytes back (`path` names them in errors).
pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Restored, CheckpointError> {
    decode(bytes, path)
}

/// Saves the search in `dir` (created if missing).
pub fn save(dir: &Path, config: &SearchConfig, evaluator: &str, state: &BeamState) -> Result<(), CheckpointError> {
    let path = dir.join(FILE_NAME);
    let io = |source| CheckpointError::Io { path: path.clone(), source };
    std::fs::create_dir_all(dir).map_err(io)?;
    hatetris_fileio::write_atomically(&path, &encode(config, evaluator, state)).map_err(io)
}

/// Saves as [`save`] does, first renaming the checkpoint already in `dir`
/// (if any) to [`PREVIOUS_NAME`]: a process of a run spread over several
/// may be killed after saving a depth that another never saved, and the
/// run resumes from the depth all of them hold (one of the last two).
pub fn save_keeping_previous(
    dir: &Path,
    config: &SearchConfig,
    evaluator: &str,
    state: &BeamState,
) -> Result<(), CheckpointError> {
    let path = dir.join(FILE_NAME);
    if path.exists() {
        let previous = dir.join(PREVIOUS_NAME);
        std::fs::rename(&path, &previous).map_err(|source| CheckpointError::Io { path: previous, source })?;
    }
    save(dir, config, evaluator, state)
}

/// The checkpoints in `dir`, the last first, then the one before it (if
/// [`save_keeping_previous`] kept one); an error if there is none or one
/// is damaged.
pub fn load_all(dir: &Path) -> Result<Vec<Restored>, CheckpointError> {
    let mut all = Vec::new();
    let previous = dir.join(PREVIOUS_NAME);
    let last = dir.join(FILE_NAME);
    if last.exists() || !previous.exists() {
        all.push(load(dir)?);
    }
    if previous.exists() {
        let bytes =
            std::fs::read(&previous).map_err(|source| CheckpointError::Io { path: previous.clone(), source })?;
        all.push(decode(&bytes, &previous)?);
    }
    Ok(all)
}

/// Loads the search saved in `dir`.
pub fn load(dir: &Path) -> Result<Restored, CheckpointError> {
    let path = dir.join(FILE_NAME);
    let bytes = std::fs::read(&path).map_err(|source| CheckpointError::Io { path: path.clone(), source })?;
    decode(&bytes, &path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beam::tests::LowAndFlat;
    use crate::beam::{run, BeamState};

    fn config() -> SearchConfig {
        SearchConfig { width: 40, max_depth: 90, seed: 3, ..SearchConfig::default() }
    }

    #[test]
    fn a_resumed_search_ends_exactly_as_an_uninterrupted_one() {
        let config = config();
        let mut whole = BeamState::new();
        run(&mut whole, &config, &LowAndFlat, &mut |_| true);

        let dir = tempfile::tempdir().unwrap();
        for stop_at in [1, 17, 45] {
            // "Killed" after saving at depth `stop_at`: only the file survives.
            let mut part = BeamState::new();
            run(&mut part, &config, &LowAndFlat, &mut |s| {
                save(dir.path(), &config, "low-and-flat", s).unwrap();
                s.depth < stop_at
            });
            drop(part);
            let restored = load(dir.path()).unwrap();
            assert_eq!(restored.evaluator, "low-and-flat");
            assert_eq!(restored.state.depth, stop_at);
            let mut resumed = restored.state;
            run(&mut resumed, &restored.config, &LowAndFlat, &mut |_| true);
            assert_eq!(resumed.result().moves, whole.result().moves, "stopped at {stop_at}");
            assert_eq!(resumed.expanded, whole.expanded);
            assert_eq!(resumed.best_score, whole.best_score);
        }
    }

    /// The chain settings survive a checkpoint; a file from before they
    /// existed (the depth alone in its word) reads as S/Z over every
    /// candidate.
    #[test]
    fn chain_settings_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let mut state = BeamState::new();
        run(&mut state, &SearchConfig { max_depth: 3, ..config() }, &LowAndFlat, &mut |_| true);
        for rule in ChainRule::ALL {
            let config = SearchConfig { quiescence: 7, chain_rule: rule, chain_band: 300, ..config() };
            save(dir.path(), &config, "x", &state).unwrap();
            let restored = load(dir.path()).unwrap().config;
            assert_eq!((restored.quiescence, restored.chain_rule, restored.chain_band), (7, rule, 300));
        }
        let old = encode(&SearchConfig { quiescence: 2, chain_rule: ChainRule::Sz, ..config() }, "x", &state);
        let restored = decode(&old, Path::new("old")).unwrap().config;
        assert_eq!((restored.quiescence, restored.chain_rule, restored.chain_band), (2, ChainRule::Sz, 0));
    }

    /// The blend survives a checkpoint; a version 2 file (no blend: the
    /// word after the piece cap missing) reads as the whole rise, and a
    /// blend past 1 is refused.
    #[test]
    fn chain_blend_round_trips_and_old_files_read_as_full() {
        let mut state = BeamState::new();
        run(&mut state, &SearchConfig { max_depth: 3, ..config() }, &LowAndFlat, &mut |_| true);
        for t in [0, 500, 750, 1000] {
            let config = SearchConfig { quiescence: 4, chain_blend: Blend::from_thousandths(t).unwrap(), ..config() };
            let bytes = encode(&config, "x", &state);
            let restored = decode(&bytes, Path::new("new")).unwrap();
            assert_eq!(restored.config.chain_blend.thousandths(), t);
            assert_eq!(restored.state.beam.len(), state.beam.len());
        }
        let config = SearchConfig { quiescence: 4, chain_blend: Blend::from_thousandths(500).unwrap(), ..config() };
        let bytes = encode_as(&config, "x", &state, None);
        let (_, body) = frame::decode(&bytes, MAGIC, "checkpoint", &[FULL]).unwrap();
        // width, height, enemy, chains, seed, twins, piece cap: 44 bytes.
        let at = 44;
        assert_eq!(u32::from_le_bytes(body[at..at + 4].try_into().unwrap()), 500);
        // Version 2 had neither the blend's word nor the follow's after it.
        let v2 = [&body[..at], &body[at + 8..]].concat();
        let restored = decode(&frame::encode(MAGIC, 2, &v2), Path::new("v2")).unwrap();
        assert_eq!(restored.config.chain_blend, Blend::FULL);
        assert_eq!(restored.state.depth, state.depth);
        let mut past = body.to_vec();
        past[at..at + 4].copy_from_slice(&1001u32.to_le_bytes());
        let e = decode(&frame::encode(MAGIC, FULL, &past), Path::new("past")).err().expect("blend past 1");
        assert!(e.to_string().contains("chain blend"), "{e}");
    }

    /// The chain follow survives a checkpoint; a version 3 file (no
    /// follow: the word after the blend missing) follows every clear.
    #[test]
    fn chain_follow_round_trips_and_version_3_files_follow_every_clear() {
        let mut state = BeamState::new();
        run(&mut state, &SearchConfig { max_depth: 3, ..config() }, &LowAndFlat, &mut |_| true);
        for follow in [0, 1, 7] {
            let config = SearchConfig { quiescence: 4, chain_follow: follow, ..config() };
            let restored = decode(&encode(&config, "x", &state), Path::new("new")).unwrap();
            assert_eq!(restored.config.chain_follow, follow);
            assert_eq!(restored.state.beam.len(), state.beam.len());
        }
        let config = SearchConfig { quiescence: 4, chain_follow: 1, ..config() };
        let bytes = encode_as(&config, "x", &state, None);
        let (_, body) = frame::decode(&bytes, MAGIC, "checkpoint", &[FULL]).unwrap();
        let at = 48;
        assert_eq!(u32::from_le_bytes(body[at..at + 4].try_into().unwrap()), 1);
        let v3 = [&body[..at], &body[at + 4..]].concat();
        let restored = decode(&frame::encode(MAGIC, 3, &v3), Path::new("v3")).unwrap();
        assert_eq!((restored.config.chain_follow, restored.config.quiescence), (0, 4));
        assert_eq!(restored.state.depth, state.depth);
    }

    /// A search from the empty well, `depth` pieces deep, and its settings.
    fn searched(depth: usize) -> (SearchConfig, BeamState) {
        let config = SearchConfig { max_depth: depth, ..config() };
        let mut state = BeamState::new();
        run(&mut state, &config, &LowAndFlat, &mut |_| true);
        (config, state)
    }

    /// The state a compact file restores: every entry as it was, the tree
    /// as a garbage collection would have left it (links, depths, jump
    /// pointers and hashes), the counters as they were.
    fn assert_restores_collected(state: &BeamState, restored: &BeamState) {
        let mut collected = state.clone();
        let mut live: Vec<u32> = collected.beam.iter().map(|e| e.node).collect();
        let mut best = [collected.best_node];
        collected.tree.collect_garbage(&mut live, &mut best);
        assert!(collected.tree.len() < state.tree.len(), "the test should drop dead nodes");
        assert_eq!(restored.tree.nodes, collected.tree.nodes);
        assert_eq!(restored.best_node, best[0]);
        assert_eq!(restored.beam.len(), state.beam.len());
        for ((r, e), id) in restored.beam.iter().zip(&state.beam).zip(live) {
            assert_eq!(
                (r.well, r.score, r.memory, r.value.to_bits(), r.node),
                (e.well, e.score, e.memory, e.value.to_bits(), id)
            );
        }
        assert_eq!(
            (restored.depth, restored.best_score, restored.expanded, restored.peak_tree_nodes),
            (state.depth, state.best_score, state.expanded, state.peak_tree_nodes)
        );
        assert_eq!(restored.elapsed_secs.to_bits(), state.elapsed_secs.to_bits());
    }

    /// A search from the empty well, and one going on from a line (its
    /// memory the line's), are written compact and come back as they were;
    /// the line's search resumed from its file ends as the uninterrupted one.
    #[test]
    fn searches_from_the_empty_well_or_a_line_are_written_compact_and_restore_exactly() {
        let (config, state) = searched(40);
        let bytes = encode(&config, "x", &state);
        assert_eq!(frame::check_header(&bytes, MAGIC, "checkpoint", &[VERSION]).unwrap(), VERSION);
        let full = encode_as(&config, "x", &state, None);
        assert!(bytes.len() * 3 < full.len(), "compact {} against full {}", bytes.len(), full.len());
        assert_restores_collected(&state, &decode(&bytes, Path::new("c")).unwrap().state);

        let line = &state.result().moves[..25];
        let from = || BeamState::from_moves(line, config.rules, config.enemy).unwrap();
        let on = SearchConfig { max_depth: 30, ..config };
        let mut whole = from();
        run(&mut whole, &on, &LowAndFlat, &mut |_| true);
        let mut part = from();
        run(&mut part, &on, &LowAndFlat, &mut |s| s.depth < 12);
        let restored = decode(&encode(&on, "x", &part), Path::new("c")).unwrap();
        assert_restores_collected(&part, &restored.state);
        let mut resumed = restored.state;
        run(&mut resumed, &on, &LowAndFlat, &mut |_| true);
        assert_eq!(resumed.result().moves, whole.result().moves);
        assert_eq!((resumed.best_score, resumed.expanded), (whole.best_score, whole.expanded));
    }

    /// A search from several wells (a refine lookahead's) has no moves to
    /// replay from its root: it is written in full and comes back as it was.
    #[test]
    fn a_search_from_several_wells_is_written_in_full() {
        let mut first = BeamState::new();
        run(&mut first, &SearchConfig { max_depth: 6, ..config() }, &LowAndFlat, &mut |_| true);
        let wells: Vec<Well> = first.beam.iter().take(5).map(|e| e.well).collect();
        let mut state = BeamState::from_wells(&wells);
        run(&mut state, &SearchConfig { max_depth: 4, ..config() }, &LowAndFlat, &mut |_| true);
        let bytes = encode(&config(), "x", &state);
        assert_eq!(frame::check_header(&bytes, MAGIC, "checkpoint", &[FULL]).unwrap(), FULL);
        let restored = decode(&bytes, Path::new("f")).unwrap().state;
        assert_eq!(restored.tree.nodes.len(), state.tree.nodes.len());
        assert!(restored
            .beam
            .iter()
            .zip(&state.beam)
            .all(|(r, e)| (r.well, r.node, r.memory) == (e.well, e.node, e.memory)));
    }

    /// A compact file whose CRC holds but whose links, moves or sums do not
    /// (a writer's fault) is refused by name, never a panic.
    #[test]
    fn inconsistent_compact_files_are_refused_by_name() {
        let (config, state) = searched(10);
        let bytes = encode(&config, "x", &state);
        let (_, body) = frame::decode(&bytes, MAGIC, "checkpoint", &[VERSION]).unwrap();
        let body = body.to_vec();
        // Config and name (52 + 4 + 1 bytes), counters (40), tree length (8).
        let first_link = 52 + 4 + 1 + 40 + 8;
        let links = u64::from_le_bytes(body[first_link - 8..first_link].try_into().unwrap()) as usize - 1;
        let first_move = first_link + 4 * links;
        let try_body = |edit: &dyn Fn(&mut Vec<u8>)| {
            let mut b = body.clone();
            edit(&mut b);
            decode(&frame::encode(MAGIC, VERSION, &b), Path::new("bad")).err().expect("refused").to_string()
        };
        assert!(
            try_body(&|b| b[first_link..first_link + 4].copy_from_slice(&0u32.to_le_bytes())).contains("tree links")
        );
        assert!(
            try_body(&|b| b[first_link..first_link + 4].copy_from_slice(&9u32.to_le_bytes())).contains("tree links")
        );
        assert!(try_body(&|b| b[first_move..first_move + 2].copy_from_slice(&0u16.to_le_bytes())).contains("move"));
        // An O (index 2) locked at the top left, over nothing: floating.
        assert!(try_body(&|b| b[first_move..first_move + 2].copy_from_slice(&(2u16 | 3 << 5).to_le_bytes()))
            .contains("move"));
        let n = body.len();
        assert!(try_body(&|b| b[n - 1] ^= 1).contains("derived entries"));
        assert!(try_body(&|b| b.push(0)).contains("trailing"));
    }

    #[test]
    fn damaged_checkpoints_are_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let mut state = BeamState::new();
        run(&mut state, &SearchConfig { max_depth: 5, ..config() }, &LowAndFlat, &mut |_| true);
        save(dir.path(), &config(), "x", &state).unwrap();
        let path = dir.path().join(FILE_NAME);
        let good = std::fs::read(&path).unwrap();
        for cut in [0, 3, 11, good.len() / 2, good.len() - 1] {
            std::fs::write(&path, &good[..cut]).unwrap();
            let e = load(dir.path()).err().expect("truncated checkpoint must fail");
            assert!(e.to_string().contains("checkpoint"), "{e}");
        }
        for i in (0..good.len()).step_by(7) {
            let mut bad = good.clone();
            bad[i] ^= 0x10;
            std::fs::write(&path, &bad).unwrap();
            assert!(load(dir.path()).is_err(), "flipped byte {i}");
        }
        std::fs::remove_file(&path).unwrap();
        assert!(matches!(load(dir.path()), Err(CheckpointError::Io { .. })));
    }
}
