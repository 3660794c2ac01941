//! `hatetris bench`: speed figures as JSON lines, each fast path beside its
//! plain reference measured in the same run, and a fixed small search whose
//! count of expanded entries is a signature of the binary's behaviour.

use crate::commands::search::load_evaluator;
use anyhow::Result;
use clap::Args;
use hatetris_eval::{Baseline, Evaluator, Mean, Network, QuantizedNetwork};
use hatetris_game::reference::{reference_choose_piece, reference_landing_wells};
use hatetris_game::{
    choose_piece, choose_piece_memoryless, for_each_lock_position, play, replay, Enemy, Game, HashFilter, Memory,
    Piece, Rules, SeenWells, Well,
};
use hatetris_search::{beam, search, SearchConfig};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde_json::json;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A real game (knewjade's 289 lines), embedded so that the bench needs no files.
const REAL_GAME: &str = include_str!("../../data/knewjade-289.b2048");

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Only run benchmarks whose name contains this.
    #[arg(long)]
    pub only: Option<String>,
    /// Shorter measurements (noisier).
    #[arg(long)]
    pub quick: bool,
}

struct Bencher {
    only: Option<String>,
    budget: Duration,
}

impl Bencher {
    fn wanted(&self, name: &str) -> bool {
        self.only.as_deref().is_none_or(|o| name.contains(o))
    }

    /// Median over rounds of ns per op; `f` performs `ops_per_call` ops.
    fn run(&self, name: &str, ops_per_call: usize, mut f: impl FnMut()) -> Option<f64> {
        if !self.wanted(name) {
            return None;
        }
        f(); // warm up
        let mut samples = Vec::new();
        let start = Instant::now();
        let mut ops = 0usize;
        while samples.len() < 5 || (start.elapsed() < self.budget && samples.len() < 1000) {
            let t = Instant::now();
            f();
            samples.push(t.elapsed().as_nanos() as f64 / ops_per_call as f64);
            ops += ops_per_call;
        }
        samples.sort_by(f64::total_cmp);
        let median = samples[samples.len() / 2];
        println!("{}", json!({ "name": name, "ns_per_op": (median * 10.0).round() / 10.0, "ops": ops }));
        Some(median)
    }
}

impl Bencher {
    /// Two workloads timed in alternation (this VM's speed drifts, and
    /// other processes may run): `rounds` rounds of one call of each, in
    /// turn. Prints each one's fastest round (the least disturbed) and its
    /// median, per op, and the ratio b / a of the fastest rounds and of
    /// each round's pair. `f(which)` runs workload 0 or 1 and returns its
    /// ops.
    fn alternating(&self, names: [&str; 2], rounds: usize, mut f: impl FnMut(usize) -> u64) {
        if !names.iter().any(|n| self.wanted(n)) {
            return;
        }
        f(0);
        f(1);
        let mut ns: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        let mut ops = [0; 2];
        for _ in 0..rounds {
            for (k, ns) in ns.iter_mut().enumerate() {
                let t = Instant::now();
                ops[k] = f(k);
                ns.push(t.elapsed().as_nanos() as f64 / ops[k].max(1) as f64);
            }
        }
        let pairs: Vec<f64> = (0..rounds).map(|i| (ns[1][i] / ns[0][i] * 100.0).round() / 100.0).collect();
        let mut best = [0.0; 2];
        for k in 0..2 {
            let mut sorted = ns[k].clone();
            sorted.sort_by(f64::total_cmp);
            best[k] = sorted[0];
            println!(
                "{}",
                json!({ "name": names[k], "ns_per_op": (sorted[0] * 10.0).round() / 10.0, "median_ns_per_op": (sorted[rounds / 2] * 10.0).round() / 10.0, "ops": ops[k], "rounds": rounds })
            );
        }
        println!(
            "{}",
            json!({ "name": format!("{}_over_{}", names[1], names[0]), "ratio": (best[1] / best[0] * 1000.0).round() / 1000.0, "pair_ratios": pairs })
        );
    }
}

/// The wells of the real game, in order, and the memory of the whole game.
fn real_wells() -> (Vec<Well>, SeenWells) {
    let keys = replay::decode(REAL_GAME).expect("embedded replay decodes");
    let mut wells = vec![Well::EMPTY];
    play(Rules::STANDARD, Enemy::Hatetris, &keys, |g: &Game, _| wells.push(*g.well()));
    let mut memory = SeenWells::default();
    for w in &wells {
        memory.record(w);
    }
    (wells, memory)
}

/// The enemy's memory at each point of a game: well -> the steps at which
/// it was seen, so that the count at step `i` is the number up to `i`. Its
/// filter holds every well of the game, a superset of any step's memory.
struct MemoryAsOf {
    steps: FxHashMap<Well, Vec<usize>>,
    filter: HashFilter,
}

impl MemoryAsOf {
    fn new(wells: &[Well]) -> MemoryAsOf {
        let mut steps: FxHashMap<Well, Vec<usize>> = FxHashMap::default();
        for (i, w) in wells.iter().enumerate() {
            steps.entry(*w).or_default().push(i);
        }
        let mut filter = HashFilter::default();
        for w in steps.keys() {
            filter.insert(w.hash64());
        }
        MemoryAsOf { steps, filter }
    }

    /// The count the enemy sees at step `step` (the current well included).
    fn count(&self, well: &Well, step: usize) -> u32 {
        self.steps.get(well).map_or(0, |s| s.partition_point(|&j| j <= step) as u32)
    }

    /// The memory the enemy has at step `step`.
    fn at(&self, step: usize) -> AsOf<'_> {
        AsOf { memory: self, step }
    }
}

struct AsOf<'a> {
    memory: &'a MemoryAsOf,
    step: usize,
}

impl Memory for AsOf<'_> {
    fn times_seen(&self, well: &Well, _hash: u64) -> u32 {
        self.memory.count(well, self.step)
    }

    #[inline]
    fn may_have(&self, hash: u64) -> bool {
        self.memory.filter.may_have(hash)
    }
}

pub fn bench(args: &BenchArgs) -> Result<()> {
    let b = Bencher { only: args.only.clone(), budget: Duration::from_millis(if args.quick { 200 } else { 1500 }) };
    let rules = Rules::STANDARD;
    let (wells, memory) = real_wells();
    let n = wells.len();

    b.run("landings", n * 7, || {
        for w in &wells {
            for p in Piece::ALL {
                let mut peak = 0u8;
                for_each_lock_position(w, rules, p, |x, y, o| {
                    let mut next = *w;
                    next.lock(p.shape(o), x, y);
                    peak = peak.max(next.rating(rules));
                });
                black_box(peak);
            }
        }
    });
    b.run("landings_reference_bfs", n * 7, || {
        for w in &wells {
            for p in Piece::ALL {
                black_box(reference_landing_wells(w, rules, p));
            }
        }
    });
    // The enemy as the official game asked it at each step: memory so far.
    let as_of = MemoryAsOf::new(&wells);
    b.run("enemy_decision", n, || {
        for (i, w) in wells.iter().enumerate() {
            black_box(choose_piece(w, rules, &as_of.at(i)));
        }
    });
    b.run("enemy_decision_reference_bfs", n, || {
        for (i, w) in wells.iter().enumerate() {
            black_box(reference_choose_piece(w, rules, |x| as_of.count(x, i)));
        }
    });
    // A harder case: the whole game's memory at every step, so that many
    // landings are "seen" and the enemy weighs more pieces.
    b.run("enemy_decision_whole_game_memory", n, || {
        for w in &wells {
            black_box(choose_piece(w, rules, &memory));
        }
    });
    b.run("enemy_decision_mild", n, || {
        for w in &wells {
            black_box(choose_piece_memoryless(w, rules));
        }
    });
    b.run("verify_289_lines", 1, || {
        let keys = replay::decode(REAL_GAME).unwrap();
        black_box(play(rules, Enemy::Hatetris, &keys, |_, _| {}));
    });

    let baseline = Baseline;
    let rows: Vec<&[u16]> = wells.iter().map(|w| w.playable(rules)).collect();
    let eval_all = |eval: &dyn Evaluator, rows: &[&[u16]]| {
        for r in rows {
            black_box(eval.evaluate(r));
        }
    };
    b.run("eval_baseline", n, || eval_all(&baseline, &rows));
    // The network as searches evaluate it (i16 first layer, band cache) on
    // the wells in game order (a well shares most bands with the one before,
    // as children do with their parent), then in a fixed scrambled order,
    // where the band cache helps less; then the f32 network, the i16 one
    // without the band cache, and the dense reference.
    let net = Network::embedded_default();
    let (search_eval, _) = load_evaluator("net")?;
    let h = net.hidden;
    b.run(&format!("eval_net_h{h}"), n, || eval_all(search_eval.as_ref(), &rows));
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(23));
    let scrambled: Vec<&[u16]> = order.iter().map(|&i| rows[i]).collect();
    b.run(&format!("eval_net_h{h}_shuffled"), n, || eval_all(search_eval.as_ref(), &scrambled));
    b.run(&format!("eval_net_h{h}_f32"), n, || eval_all(&net, &rows));
    let uncached = QuantizedNetwork::new(&net).with_band_cache(false);
    b.run(&format!("eval_net_h{h}_i16"), n, || eval_all(&uncached, &rows));
    b.run(&format!("eval_net_h{h}_reference"), n, || {
        for r in &rows {
            black_box(net.reference_forward(r));
        }
    });

    // Families as a beam entry hands them to the evaluator: a well of the
    // game, its landings (all seven pieces), and the wells their S/Z clears
    // reach; evaluated one by one, and as a family (derived from the
    // parent's sums).
    // (parent, children, derived wells, the child each comes from)
    type Family = (Well, Vec<Well>, Vec<Well>, Vec<u32>);
    let families: Vec<Family> = wells
        .iter()
        .step_by(7)
        .map(|w| {
            let mut children = Vec::new();
            for p in Piece::ALL {
                for_each_lock_position(w, rules, p, |x, y, o| {
                    let mut next = *w;
                    next.lock(p.shape(o), x, y);
                    if !next.is_game_over() {
                        children.push(next);
                    }
                });
            }
            let (mut derived, mut from) = (Vec::new(), Vec::new());
            for (i, c) in children.iter().enumerate() {
                for p in [Piece::S, Piece::Z] {
                    for_each_lock_position(c, rules, p, |x, y, o| {
                        let mut next = *c;
                        if next.lock(p.shape(o), x, y) > 0 && !next.is_game_over() {
                            derived.push(next);
                            from.push(i as u32);
                        }
                    });
                }
            }
            (*w, children, derived, from)
        })
        .collect();
    let family_wells: usize = families.iter().map(|f| f.1.len() + f.2.len()).sum();
    let incremental = QuantizedNetwork::new(&net).with_incremental(true);
    // 0: well by well (heads one at a time), 1: in batches (heads four at
    // a time), 2: as a family, each well derived from the parent's sums.
    let run_families = |how: usize| -> u64 {
        let (mut cv, mut dv) = (Vec::new(), Vec::new());
        for (w, children, derived, from) in &families {
            let c: Vec<&[u16]> = children.iter().map(|x| x.playable(rules)).collect();
            let d: Vec<&[u16]> = derived.iter().map(|x| x.playable(rules)).collect();
            cv.resize(c.len(), 0.0);
            dv.resize(d.len(), 0.0);
            match how {
                0 => {
                    for (x, v) in c.iter().zip(&mut cv).chain(d.iter().zip(&mut dv)) {
                        *v = search_eval.evaluate(x);
                    }
                }
                1 => {
                    search_eval.evaluate_batch(&c, &mut cv);
                    search_eval.evaluate_batch(&d, &mut dv);
                }
                _ => incremental.evaluate_family(Some(w.playable(rules)), &c, &d, from, &mut cv, &mut dv),
            }
            black_box((&cv, &dv));
        }
        family_wells as u64
    };
    let rounds = if args.quick { 10 } else { 60 };
    b.alternating([&format!("eval_net_h{h}_family_single"), &format!("eval_net_h{h}_family_batch")], rounds, |k| {
        (0..8).map(|_| run_families(k)).sum()
    });
    b.alternating(
        [&format!("eval_net_h{h}_family_batch"), &format!("eval_net_h{h}_family_incremental")],
        rounds,
        |k| (0..8).map(|_| run_families(k + 1)).sum(),
    );

    // A mean of three networks (`--eval mean=`, refine with an ensemble's
    // lookahead) against its members run one after another over the same
    // families: what taking turns costs each member's band cache.
    let members: Vec<QuantizedNetwork> =
        [net.clone(), Network::random(h, 1), Network::random(h, 2)].iter().map(QuantizedNetwork::new).collect();
    let mean = Mean::new(members.iter().map(|q| Box::new(q.clone()) as Box<dyn Evaluator>).collect());
    let run_mean = |together: bool| -> u64 {
        let evals: Vec<&dyn Evaluator> =
            if together { vec![&mean] } else { members.iter().map(|q| q as &dyn Evaluator).collect() };
        let mut cv = Vec::new();
        for e in evals {
            for (_, children, derived, _) in &families {
                for ws in [children, derived] {
                    let c: Vec<&[u16]> = ws.iter().map(|x| x.playable(rules)).collect();
                    cv.resize(c.len(), 0.0);
                    e.evaluate_batch(&c, &mut cv);
                    black_box(&cv);
                }
            }
        }
        family_wells as u64
    };
    b.alternating(["eval_mean3_family_members", "eval_mean3_family_batch"], rounds, |k| {
        (0..4).map(|_| run_mean(k == 1)).sum()
    });

    // The searches here follow the S/Z chains one clear deep, as when their
    // figures in README were first measured (the default is now off), so
    // that the figures and the signature stay comparable across commits.
    let chains = SearchConfig { quiescence: 1, ..SearchConfig::default() };
    // One entry: enemy choice on its path, all landings, evaluation, quiescence.
    let config = SearchConfig { width: 1, ..chains.clone() };
    let sample: Vec<Well> = wells.iter().step_by(7).copied().collect();
    let m = sample.len();
    let expand_all = |eval: &dyn Evaluator| {
        for w in &sample {
            black_box(beam::expand_single(w, &config, eval));
        }
    };
    b.run("beam_entry_baseline", m, || expand_all(&baseline));
    b.run("beam_entry_net", m, || expand_all(search_eval.as_ref()));
    b.run("beam_entry_net_f32", m, || expand_all(&net));

    // Real search entries, one thread: a fixed search (width 1,000, 60
    // pieces, from the empty well) with each evaluator, alternating, in ns
    // per expanded entry.
    if b.wanted("search_entry") {
        let config = SearchConfig { width: 1000, max_depth: 60, ..chains.clone() };
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
        let evals: [&dyn Evaluator; 2] = [&baseline, search_eval.as_ref()];
        b.alternating(["search_entry_baseline", "search_entry_net"], if args.quick { 2 } else { 5 }, |k| {
            pool.install(|| search(&config, evals[k], &mut |_| {}).expanded)
        });
    }

    // A fixed small search: its count of expanded entries is the signature.
    if b.wanted("search_signature") {
        let config = SearchConfig { width: 200, max_depth: 150, ..chains.clone() };
        let t = Instant::now();
        let r = search(&config, &baseline, &mut |_| {});
        let ns = t.elapsed().as_nanos() as f64 / r.expanded.max(1) as f64;
        println!(
            "{}",
            json!({ "name": "search_signature", "ns_per_op": ns.round(), "ops": r.expanded, "signature": r.expanded, "score": r.score, "width": 200, "depth": 150 })
        );
    }
    // Scaling of the whole beam step from one thread to two.
    if b.wanted("beam_threads") {
        let config = SearchConfig { width: 3000, max_depth: 60, ..chains.clone() };
        // The VM's speed drifts by tens of percent from one run to the
        // next, so one and two threads alternate, five times: each count's
        // fastest run is its time (the least disturbed), and every pair's
        // ratio is printed beside it. The same is measured for a loop that
        // only computes in registers, perfectly parallel: what this machine
        // gives a second thread at best, in the same run.
        let runs = best_of_alternating(|_| {
            let r = search(&config, &baseline, &mut |_| {});
            r.expanded
        })?;
        for (k, run) in runs.iter().enumerate() {
            println!(
                "{}",
                json!({ "name": format!("beam_threads_{}", k + 1), "ns_per_op": (run.best_secs * 1e9 / run.ops as f64).round(), "ops": run.ops, "signature": run.ops })
            );
        }
        let machine = best_of_alternating(|threads| {
            // 400 M steps of a multiply-add chain in all, split evenly.
            let per_thread = 400_000_000 / threads as u64;
            (0..threads).into_par_iter().map(|t| spin(per_thread, t as u64)).sum::<u64>()
        })?;
        let ratio = |r: &[ThreadRuns; 2]| (r[0].best_secs / r[1].best_secs * 100.0).round() / 100.0;
        let pairs = |r: &[ThreadRuns; 2]| -> Vec<f64> {
            (0..r[0].secs.len()).map(|i| (r[0].secs[i] / r[1].secs[i] * 100.0).round() / 100.0).collect()
        };
        println!(
            "{}",
            json!({ "name": "beam_speedup_1_to_2_threads", "ratio": ratio(&runs), "pair_ratios": pairs(&runs) })
        );
        println!(
            "{}",
            json!({ "name": "machine_speedup_1_to_2_threads", "ratio": ratio(&machine), "pair_ratios": pairs(&machine),
                    "beam_efficiency": (ratio(&runs) / ratio(&machine) * 100.0).round() / 100.0 })
        );
    }
    Ok(())
}

/// Runs of one workload on a pool of one thread and of two.
struct ThreadRuns {
    secs: Vec<f64>,
    best_secs: f64,
    /// What the workload returned (a search: its expanded entries).
    ops: u64,
}

/// Runs `work(threads)` on one thread, then two, five times over.
fn best_of_alternating(work: impl Fn(usize) -> u64 + Sync) -> Result<[ThreadRuns; 2]> {
    let mut runs = [1, 2].map(|_| ThreadRuns { secs: Vec::new(), best_secs: f64::INFINITY, ops: 0 });
    let pools = [1, 2]
        .into_iter()
        .map(|threads| rayon::ThreadPoolBuilder::new().num_threads(threads).build())
        .collect::<Result<Vec<_>, _>>()?;
    for _ in 0..5 {
        for (k, pool) in pools.iter().enumerate() {
            let t = Instant::now();
            let ops = pool.install(|| work(k + 1));
            let secs = t.elapsed().as_secs_f64();
            let run = &mut runs[k];
            run.secs.push(secs);
            run.best_secs = run.best_secs.min(secs);
            run.ops = ops;
        }
    }
    Ok(runs)
}

/// A dependent chain of multiply-adds: registers only, no memory traffic.
fn spin(steps: u64, seed: u64) -> u64 {
    let mut x = black_box(seed);
    for _ in 0..steps {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    }
    black_box(x)
}
