//! One beam search over many processes, on timely dataflow.
//!
//! Every process runs one timely worker. Worker `p` owns the wells whose
//! hash maps to `p`, holds the beam entries with those wells, and a full
//! copy of the path tree. A depth is two exchanges (see docs/distributed.md):
//! 1. each worker expands its entries, keeps what could survive (its own
//!    merges and twins, then its first `width`), and sends each child, with
//!    its well, to the owner of that well;
//! 2. each owner selects among what it received as one process would (its
//!    first `width`), and sends the kept children's keys and tree records to
//!    every worker; all merge them in the single-process order, keep the
//!    first `width`, append them to the tree in that order, and the owners
//!    make the new entries.

use crate::net::Cluster;
use crate::run::{execute, Exchanger};
use anyhow::{bail, Result};
use hatetris_eval::Evaluator;
use hatetris_game::{Well, MAX_DEPTH};
use hatetris_search::beam::shard::{self, Child};
use hatetris_search::{BeamState, DepthReport, Entry, Move, SearchConfig, SearchResult};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::hash::Hash;
use std::sync::{mpsc, Arc};
use std::time::Instant;
use timely::worker::Worker;

/// A child sent to the owner of its well: 84 bytes on the wire.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct WireChild {
    key: u128,
    pos: u64,
    value: f32,
    score: u32,
    parent_node: u32,
    mv: u32,
    well_hash: u64,
    memory: u64,
    rows: [u16; MAX_DEPTH],
}

/// A kept child as every worker needs it: its place in the order and its
/// tree record: 44 bytes on the wire.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct WireKept {
    key: u128,
    pos: u64,
    parent_node: u32,
    mv: u32,
    well_hash: u64,
    score: u32,
}

/// An owner's kept list, sampled: every `stride`-th (key, pos) of it, in
/// order (the `stride`-th, the `2 stride`-th, ...), and its length.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Sampled {
    pub keys: Vec<(u128, u64)>,
    pub stride: u64,
    pub len: u64,
}

/// Samples per process in each owner's sample: the bound then passes at
/// most width + P x stride = width x (1 + 1/SAMPLES) keys in all.
const SAMPLES: usize = 16;

impl Sampled {
    fn of(kept: &[WireKept], workers: usize) -> Sampled {
        Sampled::of_keys(kept.iter().map(|k| (k.key, k.pos)), workers)
    }

    /// A sample of `keys` (in order), read without copying them all.
    fn of_keys(keys: impl ExactSizeIterator<Item = (u128, u64)>, workers: usize) -> Sampled {
        let len = keys.len();
        let stride = (len / (SAMPLES * workers)).max(1);
        let sample = keys.skip(stride - 1).step_by(stride).collect();
        Sampled { keys: sample, stride: stride as u64, len: len as u64 }
    }
}

/// The least sampled key b such that the owners' kept lists surely hold
/// `width` keys at most b (each sample stands for `stride` keys of its
/// list at most it); `None` when no sample is such a bound (everything is
/// sent). The `width`-th key of the merged lists is at most b, so a cut at
/// b loses nothing of the global beam.
pub fn cut_bound(samples: &[Sampled], width: usize) -> Option<(u128, u64)> {
    let total: u64 = samples.iter().map(|s| s.len).sum();
    if total <= width as u64 {
        return None;
    }
    let mut all: Vec<((u128, u64), u64)> =
        samples.iter().flat_map(|s| s.keys.iter().map(move |&k| (k, s.stride))).collect();
    all.sort_unstable();
    let mut surely = 0u64;
    for (key, stride) in all {
        surely += stride;
        if surely >= width as u64 {
            return Some(key);
        }
    }
    None
}

/// The indices of this worker's `children` among the `band` first of all
/// workers' children in the selection order (their keys by their own
/// values): the candidates one process would chain. Each worker's own
/// first `band` hold the global band; a sampled bound (as the cut's) and
/// one gather of the keys within it find its last key exactly.
fn global_band(worker: &mut Worker, ex: &mut Exchanger<Payload>, children: &[Child], band: usize) -> Vec<u32> {
    let mut order: Vec<(u128, u64, u32)> =
        children.par_iter().enumerate().map(|(i, c)| (c.key, c.pos, i as u32)).collect();
    if band < order.len() {
        order.select_nth_unstable(band);
        order.truncate(band);
    }
    order.par_sort_unstable();
    let keys: Vec<(u128, u64)> = order.iter().map(|&(k, p, _)| (k, p)).collect();
    let samples: Vec<Sampled> = ex
        .all_gather(worker, Payload::Sample(Sampled::of_keys(keys.iter().copied(), worker.peers())))
        .into_iter()
        .map(|p| match p {
            Payload::Sample(s) => s,
            _ => unreachable!("a band's samples come first"),
        })
        .collect();
    let last = match cut_bound(&samples, band) {
        None => None,
        Some(bound) => {
            let within: Vec<(u128, u64)> = keys.iter().copied().filter(|&k| k <= bound).collect();
            let mut all: Vec<(u128, u64)> = ex
                .all_gather(worker, Payload::Keys(within))
                .into_iter()
                .flat_map(|p| match p {
                    Payload::Keys(k) => k,
                    _ => unreachable!("a band's keys come second"),
                })
                .collect();
            all.par_sort_unstable();
            Some(all[band - 1])
        }
    };
    let mut chosen: Vec<u32> =
        order.into_iter().filter(|&(k, p, _)| last.is_none_or(|l| (k, p) <= l)).map(|(_, _, i)| i).collect();
    // In list order, as one process chains them (the memo's reuse, not the
    // values, depends on it).
    chosen.sort_unstable();
    chosen
}

/// A beam entry with its global rank, gathered for a checkpoint.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct WireEntry {
    rank: u32,
    rows: [u16; MAX_DEPTH],
    score: u32,
    node: u32,
    memory: u64,
    value: f32,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
enum Payload {
    /// The starts a process could resume from: (depth, fingerprint).
    Starts(Vec<(u64, u64)>),
    Children(Vec<WireChild>),
    Sample(Sampled),
    Keys(Vec<(u128, u64)>),
    Kept(Vec<WireKept>),
    Entries(Vec<WireEntry>),
}

/// What the search tells the calling thread as it goes.
pub enum Event {
    /// A depth ended: the global report and this process's cost.
    Depth(DepthReport, DepthCost),
    /// The whole search state (the same on every process), every
    /// `checkpoint_every` depths and at the end: to be saved.
    Checkpoint(Box<BeamState>),
}

/// What one depth cost this process.
#[derive(Clone, Debug, Default, Serialize)]
pub struct DepthCost {
    pub depth: usize,
    /// The global beam after the depth.
    pub beam: usize,
    /// Children this process sent to the wells' owners (after its pre-cut).
    pub children_sent: usize,
    pub seconds: f64,
    /// Expanding and pre-cutting (before the first exchange).
    pub expand_seconds: f64,
    /// Waiting in the two exchanges (peers' work included).
    pub exchange_seconds: f64,
    /// Bytes this process sent to other processes (timely's serialized
    /// records; its own headers add about 0.1%).
    pub bytes_sent: u64,
}

/// The outcome on one process.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub process: usize,
    pub result: SearchResult,
    pub costs: Vec<DepthCost>,
}

/// A fingerprint of what every process must agree on before they
/// connect: the settings, the evaluator's identity and the number of
/// processes. The start is agreed on after (see [`search`]).
pub fn fingerprint(config: &SearchConfig, eval_name: &str, processes: usize) -> u64 {
    crate::run::stable_hash(|h| {
        format!("{config:?}").hash(h);
        eval_name.hash(h);
        processes.hash(h);
    })
}

/// A fingerprint of a search state: processes resuming must hold the same one.
pub fn state_fingerprint(state: &BeamState) -> u64 {
    crate::run::stable_hash(|h| {
        (state.depth, state.tree.len(), state.best_score, state.best_node, state.expanded).hash(h);
        for e in &state.beam {
            (e.well.rows, e.score, e.memory, e.node, e.value.to_bits()).hash(h);
        }
    })
}

/// The worker that owns a well.
#[inline]
pub fn owner(well_hash: u64, workers: usize) -> usize {
    ((well_hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) % workers as u64) as usize
}

/// Runs the search as process `cluster.process` of the cluster; every
/// process must call it with the same settings. `starts` are the states
/// this process could start from (a fresh run's one start, or a
/// checkpoint and the one before it): the processes agree on the deepest
/// start they all hold, so a run killed while some processes had saved a
/// depth and others had not resumes from the depth all had saved.
/// `checkpoint_every` > 0 sends the whole state to `on_event` every that
/// many depths and at the end. Returns this process's outcome (the same
/// result on every process). `on_event` runs on the calling thread.
pub fn search(
    cluster: &Cluster,
    config: &SearchConfig,
    eval: Arc<dyn Evaluator>,
    eval_name: &str,
    starts: Vec<BeamState>,
    checkpoint_every: usize,
    on_event: &mut dyn FnMut(Event),
) -> Result<Outcome> {
    if config.width == 0 {
        bail!("the width must be at least 1");
    }
    if starts.is_empty() {
        bail!("no state to start from");
    }
    let me = cluster.process;
    let config2 = config.clone();
    let fp = fingerprint(config, eval_name, cluster.processes());
    let outcome = execute(cluster, fp, on_event, move |worker, tx| {
        run_worker(worker, &config2, eval.as_ref(), starts, checkpoint_every, tx)
    })?;
    outcome.map_err(|e| anyhow::anyhow!("process {me}: {e}"))
}

/// The deepest start every process holds.
fn agree(worker: &mut Worker, ex: &mut Exchanger<Payload>, starts: Vec<BeamState>) -> Result<BeamState, String> {
    let mine: Vec<(u64, u64)> = starts.iter().map(|s| (s.depth as u64, state_fingerprint(s))).collect();
    let held: Vec<Vec<(u64, u64)>> = ex
        .all_gather(worker, Payload::Starts(mine.clone()))
        .into_iter()
        .map(|p| match p {
            Payload::Starts(s) => s,
            _ => unreachable!("starts come first"),
        })
        .collect();
    let mut common: Vec<(u64, u64)> = mine.into_iter().filter(|s| held.iter().all(|h| h.contains(s))).collect();
    common.sort_unstable();
    let Some(&(_, fp)) = common.last() else {
        let depths: Vec<String> = held
            .iter()
            .enumerate()
            .map(|(p, h)| format!("process {p} at {:?}", h.iter().map(|s| s.0).collect::<Vec<_>>()))
            .collect();
        return Err(format!("the processes hold no common start to resume from ({})", depths.join(", ")));
    };
    Ok(starts.into_iter().find(|s| state_fingerprint(s) == fp).expect("found above"))
}

/// The whole state, gathered from every owner's entries.
#[allow(clippy::too_many_arguments)]
fn gather(
    worker: &mut Worker,
    ex: &mut Exchanger<Payload>,
    entries: &[Entry],
    ranks: &[u32],
    beam_len: usize,
    head: &BeamState,
) -> BeamState {
    let mine: Vec<WireEntry> = entries
        .iter()
        .zip(ranks)
        .map(|(e, &rank)| WireEntry {
            rank,
            rows: e.well.rows,
            score: e.score,
            node: e.node,
            memory: e.memory,
            value: e.value,
        })
        .collect();
    let mut beam: Vec<Option<Entry>> = vec![None; beam_len];
    for p in ex.all_gather(worker, Payload::Entries(mine)) {
        let Payload::Entries(list) = p else { unreachable!("entries are gathered alone") };
        for w in list {
            beam[w.rank as usize] = Some(Entry {
                well: Well::from_rows(w.rows),
                score: w.score,
                node: w.node,
                memory: w.memory,
                value: w.value,
            });
        }
    }
    BeamState {
        beam: beam.into_iter().map(|e| e.expect("every rank has an owner")).collect(),
        tree: head.tree.clone(),
        ..*head
    }
}

fn run_worker(
    worker: &mut Worker,
    config: &SearchConfig,
    eval: &dyn Evaluator,
    starts: Vec<BeamState>,
    checkpoint_every: usize,
    tx: &mpsc::Sender<Event>,
) -> Result<Outcome, String> {
    let me = worker.index();
    let workers = worker.peers();
    let mut ex = Exchanger::<Payload>::new(worker);
    let start = agree(worker, &mut ex, starts)?;
    let BeamState {
        mut depth,
        beam,
        mut tree,
        mut best_score,
        mut best_node,
        mut expanded,
        peak_tree_nodes,
        elapsed_secs,
        ..
    } = start;
    let mut peak = peak_tree_nodes;
    let mut beam_len = beam.len();
    let mut ranks: Vec<u32> = Vec::new();
    let mut entries: Vec<Entry> = Vec::new();
    for (k, e) in beam.into_iter().enumerate() {
        if owner(e.well.hash64(), workers) == me {
            ranks.push(k as u32);
            entries.push(e);
        }
    }
    let mut elapsed = elapsed_secs;
    let mut costs = Vec::new();
    while !(beam_len == 0 || (config.max_depth > 0 && depth >= config.max_depth)) {
        let t0 = Instant::now();
        // 1. Expand, pre-cut, and send each child to its well's owner.
        let children = if config.quiescence > 0 && config.chain_band > 0 {
            let plain = SearchConfig { quiescence: 0, ..config.clone() };
            let mut children = shard::expand(&tree, &entries, &ranks, &plain, eval);
            let band = global_band(worker, &mut ex, &children, config.chain_band as usize * config.width);
            shard::raise_band(&mut children, &band, &entries, &ranks, config, eval);
            children
        } else {
            shard::expand(&tree, &entries, &ranks, config, eval)
        };
        let kept = shard::select(&children, config);
        let wires: Vec<(usize, WireChild)> = kept
            .par_iter()
            .map(|&i| {
                let c = &children[i as usize];
                let parent = ranks.binary_search(&((c.pos >> 32) as u32)).expect("a child's parent is here");
                let mv = Move::unpack(c.mv);
                let mut well = entries[parent].well;
                well.lock(mv.piece.shape(mv.o), mv.x as i32, mv.y as i32);
                debug_assert_eq!(well.hash64(), c.well_hash);
                let w = WireChild {
                    key: c.key,
                    pos: c.pos,
                    value: c.value,
                    score: c.score,
                    parent_node: c.parent_node,
                    mv: c.mv,
                    well_hash: c.well_hash,
                    memory: c.memory,
                    rows: well.rows,
                };
                (owner(c.well_hash, workers), w)
            })
            .collect();
        drop(children);
        let mut out: Vec<Vec<WireChild>> = vec![Vec::new(); workers];
        for (o, w) in wires {
            out[o].push(w);
        }
        let t1 = Instant::now();
        let (got, bytes1) = ex.all_to_all(worker, out.into_iter().map(Payload::Children).collect());
        let t2 = Instant::now();
        // 2. Select among this owner's children; share the kept ones' keys.
        let mine: Vec<WireChild> = got
            .into_iter()
            .flat_map(|p| match p {
                Payload::Children(c) => c,
                _ => unreachable!("children come first"),
            })
            .collect();
        let views: Vec<Child> = mine
            .iter()
            .map(|w| Child {
                key: w.key,
                pos: w.pos,
                value: w.value,
                score: w.score,
                parent_node: w.parent_node,
                mv: w.mv,
                well_hash: w.well_hash,
                memory: w.memory,
            })
            .collect();
        let chosen = shard::select(&views, config);
        let summary: Vec<WireKept> = chosen
            .iter()
            .map(|&i| {
                let w = &mine[i as usize];
                WireKept {
                    key: w.key,
                    pos: w.pos,
                    parent_node: w.parent_node,
                    mv: w.mv,
                    well_hash: w.well_hash,
                    score: w.score,
                }
            })
            .collect();
        let t3 = Instant::now();
        // The sampled cut: every owner shares a sample of its kept list's
        // keys, every process finds a bound that leaves at least `width`
        // of them, and owners send only what is within it.
        let sample = Sampled::of(&summary, workers);
        let (samples, bytes_sample) = ex.all_to_all(worker, vec![Payload::Sample(sample); workers]);
        let samples: Vec<Sampled> = samples
            .into_iter()
            .map(|p| match p {
                Payload::Sample(s) => s,
                _ => unreachable!("samples come second"),
            })
            .collect();
        let within: Vec<WireKept> = match cut_bound(&samples, config.width) {
            Some(bound) => summary.into_iter().filter(|k| (k.key, k.pos) <= bound).collect(),
            None => summary,
        };
        let (got, bytes_kept) = ex.all_to_all(worker, vec![Payload::Kept(within); workers]);
        let bytes2 = bytes_sample + bytes_kept;
        let t4 = Instant::now();
        // 3. The global cut, in the single-process order, on every worker.
        let mut all: Vec<WireKept> = got
            .into_iter()
            .flat_map(|p| match p {
                Payload::Kept(k) => k,
                _ => unreachable!("kept come third"),
            })
            .collect();
        all.par_sort_unstable_by_key(|k| (k.key, k.pos));
        all.truncate(config.width);
        expanded += beam_len as u64;
        let nodes: Vec<(u32, u64, u32)> = all.iter().map(|k| (k.parent_node, k.well_hash, k.mv)).collect();
        let first = tree.push_many(&nodes);
        let mut next_entries = Vec::new();
        let mut next_ranks = Vec::new();
        let mut own = chosen.iter().map(|&i| &mine[i as usize]);
        let mut deeper_best = false;
        for (k, rec) in all.iter().enumerate() {
            if owner(rec.well_hash, workers) == me {
                let w = own.next().expect("the owner kept every child of its wells in the cut");
                debug_assert_eq!((w.key, w.pos), (rec.key, rec.pos));
                next_entries.push(Entry {
                    well: Well::from_rows(w.rows),
                    score: w.score,
                    node: first + k as u32,
                    memory: w.memory,
                    value: w.value,
                });
                next_ranks.push(k as u32);
            }
            if rec.score > best_score || (rec.score == best_score && !deeper_best) {
                best_score = rec.score;
                best_node = first + k as u32;
                deeper_best = true;
            }
        }
        beam_len = all.len();
        depth += 1;
        peak = peak.max(tree.len());
        // The same collection as one process makes, on every process.
        if tree.len() > 4 * beam_len.max(1024) + 64 * 1024 {
            let mut live: Vec<u32> = (0..beam_len as u32).map(|k| first + k).collect();
            let mut best = [best_node];
            tree.collect_garbage(&mut live, &mut best);
            for (e, &r) in next_entries.iter_mut().zip(&next_ranks) {
                e.node = live[r as usize];
            }
            best_node = best[0];
        }
        entries = next_entries;
        ranks = next_ranks;
        let secs = t0.elapsed().as_secs_f64();
        elapsed += secs;
        let cost = DepthCost {
            depth,
            beam: beam_len,
            children_sent: kept.len(),
            seconds: secs,
            expand_seconds: (t1 - t0).as_secs_f64(),
            exchange_seconds: ((t2 - t1) + (t4 - t3)).as_secs_f64(),
            bytes_sent: bytes1 + bytes2,
        };
        let report = DepthReport {
            depth,
            beam: beam_len,
            best_score,
            expanded_total: expanded,
            elapsed_secs: elapsed,
            entries_per_sec: if elapsed > 0.0 { expanded as f64 / elapsed } else { 0.0 },
            tree_nodes: tree.len(),
        };
        let _ = tx.send(Event::Depth(report, cost.clone()));
        costs.push(cost);
        let last = beam_len == 0 || (config.max_depth > 0 && depth >= config.max_depth);
        if checkpoint_every > 0 && (depth % checkpoint_every == 0 || last) {
            let head = BeamState {
                depth,
                beam: Vec::new(),
                tree,
                best_score,
                best_node,
                expanded,
                elapsed_secs: elapsed,
                peak_tree_nodes: peak,
            };
            let state = gather(worker, &mut ex, &entries, &ranks, beam_len, &head);
            tree = head.tree;
            let _ = tx.send(Event::Checkpoint(Box::new(state)));
        }
    }
    let result = SearchResult {
        score: best_score,
        moves: tree.moves_to(best_node).into_iter().map(Move::unpack).collect(),
        depth_reached: depth,
        expanded,
        elapsed_secs: elapsed,
        peak_tree_nodes: peak,
    };
    Ok(Outcome { process: me, result, costs })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(keys: &[u128]) -> Vec<WireKept> {
        keys.iter().map(|&key| WireKept { key, pos: 0, parent_node: 0, mv: 0, well_hash: 0, score: 0 }).collect()
    }

    /// The bound always keeps the `width` least keys of all lists, and
    /// passes few more; checked on random lists against a plain merge.
    #[test]
    fn the_sampled_cut_keeps_the_global_beam_and_little_else() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            seed >> 33
        };
        for round in 0..300 {
            let workers = 1 + (round % 5);
            let width = 1 + (next() % 3000) as usize;
            let lists: Vec<Vec<WireKept>> = (0..workers)
                .map(|_| {
                    let n = (next() % (width as u64 + 1)) as usize;
                    let mut keys: Vec<u128> = (0..n).map(|_| (next() % 5000) as u128).collect();
                    keys.sort_unstable();
                    kept(&keys)
                })
                .collect();
            let samples: Vec<Sampled> = lists.iter().map(|l| Sampled::of(l, workers)).collect();
            let mut merged: Vec<(u128, u64)> = lists.iter().flatten().map(|k| (k.key, k.pos)).collect();
            merged.sort_unstable();
            let bound = cut_bound(&samples, width);
            let passed = match bound {
                Some(b) => merged.iter().filter(|&&k| k <= b).count(),
                None => merged.len(),
            };
            if merged.len() > width {
                // Every key of the global beam passes (ties with the bound too).
                assert!(passed >= width, "round {round}: {passed} < {width}");
                assert!(bound.is_none() || merged[width - 1] <= bound.unwrap());
            } else {
                assert_eq!(passed, merged.len());
            }
            if bound.is_some() {
                let slack: usize = samples.iter().map(|s| s.stride as usize).sum();
                let ties = merged.iter().filter(|&&k| Some(k) == bound).count();
                assert!(passed <= width + slack + ties, "round {round}: {passed} passed for {width}");
            }
        }
    }
}
