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

use crate::net::{connect, Cluster};
use anyhow::{bail, Context, Result};
use hatetris_eval::Evaluator;
use hatetris_game::{Well, MAX_DEPTH};
use hatetris_search::beam::shard::{self, Child};
use hatetris_search::{BeamState, DepthReport, Entry, Move, SearchConfig, SearchResult};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::ProcessBuilder;
use timely::communication::{AllocatorBuilder, Hooks};
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandleVec, ProbeHandle};
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

#[derive(Clone, Debug, Serialize, Deserialize)]
enum Payload {
    Children(Vec<WireChild>),
    Kept(Vec<WireKept>),
}

/// (destination worker, source worker, round, payload). A peer may be a
/// round ahead: its next message can arrive before this round's ends.
type Message = (u64, u32, u64, Payload);

/// What the dataflow delivered here: (source, round, payload).
type Inbox = Rc<RefCell<Vec<(u32, u64, Payload)>>>;

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

/// A fingerprint of what every process must agree on: the settings, the
/// evaluator's identity, the start and the number of processes.
pub fn fingerprint(config: &SearchConfig, eval_name: &str, start: &BeamState, processes: usize) -> u64 {
    use std::hash::{Hash, Hasher};
    #[allow(deprecated)]
    let mut h = std::hash::SipHasher::new();
    format!("{config:?}").hash(&mut h);
    eval_name.hash(&mut h);
    processes.hash(&mut h);
    start.depth.hash(&mut h);
    start.tree.len().hash(&mut h);
    for e in &start.beam {
        (e.well.rows, e.score, e.memory, e.node).hash(&mut h);
    }
    h.finish()
}

/// The worker that owns a well.
#[inline]
pub fn owner(well_hash: u64, workers: usize) -> usize {
    ((well_hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) % workers as u64) as usize
}

/// Runs the search from `start` as process `cluster.process` of the
/// cluster; every process must call it with the same settings. Returns
/// this process's outcome (the same result on every process). `on_depth`
/// sees each depth's report on the calling thread.
pub fn search(
    cluster: &Cluster,
    config: &SearchConfig,
    eval: Arc<dyn Evaluator>,
    eval_name: &str,
    start: BeamState,
    on_depth: &mut dyn FnMut(&DepthReport, &DepthCost),
) -> Result<Outcome> {
    if config.quiescence > 0 && config.chain_band > 0 {
        bail!(
            "a chain band (--chain-band) is not yet spread over processes: it needs a global cut of the raw candidates"
        );
    }
    if config.width == 0 {
        bail!("the width must be at least 1");
    }
    let me = cluster.process;
    let sockets = connect(cluster, fingerprint(config, eval_name, &start, cluster.processes()))?;
    let hooks = Hooks::default();
    let local = ProcessBuilder::new_typed_vector(1, hooks.refill.clone(), hooks.spill.clone());
    let (builders, guard) =
        initialize_networking_from_sockets(local, sockets, me, 1, hooks).context("cannot start timely's networking")?;
    let builders: Vec<AllocatorBuilder> = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
    let (tx, rx) = mpsc::channel::<(DepthReport, DepthCost)>();
    let tx = Mutex::new(Some(tx));
    let start = Mutex::new(Some(start));
    let config2 = config.clone();
    let guards =
        timely::execute::execute_from(builders, Box::new(guard), timely::WorkerConfig::default(), move |worker| {
            let tx = tx.lock().unwrap().take().expect("one worker per process");
            let start = start.lock().unwrap().take().expect("one worker per process");
            run_worker(worker, &config2, eval.as_ref(), start, &tx)
        })
        .map_err(|e| anyhow::anyhow!("timely: {e}"))?;
    for (report, cost) in rx {
        on_depth(&report, &cost);
    }
    let mut outcomes = guards.join();
    match outcomes.pop() {
        Some(Ok(o)) => Ok(o),
        Some(Err(e)) => bail!("process {me}: the search failed ({e})"),
        None => bail!("process {me}: no worker ran"),
    }
}

/// One all-to-all exchange: `out[d]` goes to worker `d`; returns what
/// every worker sent here, by source, and the bytes sent to others.
fn exchange(
    worker: &mut Worker,
    input: &mut InputHandleVec<u64, Message>,
    probe: &ProbeHandle<u64>,
    inbox: &Inbox,
    out: Vec<Payload>,
) -> (Vec<Payload>, u64) {
    let me = worker.index();
    let mut bytes = 0;
    let round = *input.time();
    for (d, p) in out.into_iter().enumerate() {
        let m: Message = (d as u64, me as u32, round, p);
        if d != me {
            bytes += bincode::serialized_size(&m).unwrap_or(0);
        }
        input.send(m);
    }
    let next = input.time() + 1;
    input.advance_to(next);
    while probe.less_than(&next) {
        worker.step_or_park(Some(std::time::Duration::from_millis(1)));
    }
    let (mut got, later): (Vec<_>, Vec<_>) =
        std::mem::take(&mut *inbox.borrow_mut()).into_iter().partition(|m| m.1 == round);
    *inbox.borrow_mut() = later;
    got.sort_by_key(|m| m.0);
    (got.into_iter().map(|m| m.2).collect(), bytes)
}

fn run_worker(
    worker: &mut Worker,
    config: &SearchConfig,
    eval: &dyn Evaluator,
    start: BeamState,
    tx: &mpsc::Sender<(DepthReport, DepthCost)>,
) -> Outcome {
    let me = worker.index();
    let workers = worker.peers();
    let inbox: Inbox = Rc::new(RefCell::new(Vec::new()));
    let mut input: InputHandleVec<u64, Message> = InputHandleVec::new();
    let probe = ProbeHandle::new();
    {
        let sink = Rc::clone(&inbox);
        worker.dataflow(|scope| {
            scope
                .input_from(&mut input)
                .exchange(|m: &Message| m.0)
                .inspect(move |m: &Message| sink.borrow_mut().push((m.1, m.2, m.3.clone())))
                .probe_with(&probe);
        });
    }
    let BeamState { mut depth, beam, mut tree, mut best_score, mut best_node, mut expanded, peak_tree_nodes, .. } =
        start;
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
    let mut elapsed = 0.0;
    let mut costs = Vec::new();
    while !(beam_len == 0 || (config.max_depth > 0 && depth >= config.max_depth)) {
        let t0 = Instant::now();
        // 1. Expand, pre-cut, and send each child to its well's owner.
        let children = shard::expand(&tree, &entries, &ranks, config, eval);
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
        let (got, bytes1) =
            exchange(worker, &mut input, &probe, &inbox, out.into_iter().map(Payload::Children).collect());
        let t2 = Instant::now();
        // 2. Select among this owner's children; share the kept ones' keys.
        let mine: Vec<WireChild> = got
            .into_iter()
            .flat_map(|p| match p {
                Payload::Children(c) => c,
                Payload::Kept(_) => unreachable!("children come first"),
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
        let (got, bytes2) = exchange(worker, &mut input, &probe, &inbox, vec![Payload::Kept(summary); workers]);
        let t4 = Instant::now();
        // 3. The global cut, in the single-process order, on every worker.
        let mut all: Vec<WireKept> = got
            .into_iter()
            .flat_map(|p| match p {
                Payload::Kept(k) => k,
                Payload::Children(_) => unreachable!("kept come second"),
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
        let _ = tx.send((report, cost.clone()));
        costs.push(cost);
    }
    let result = SearchResult {
        score: best_score,
        moves: tree.moves_to(best_node).into_iter().map(Move::unpack).collect(),
        depth_reached: depth,
        expanded,
        elapsed_secs: elapsed,
        peak_tree_nodes: peak,
    };
    Outcome { process: me, result, costs }
}
