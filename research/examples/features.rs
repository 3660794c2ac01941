//! Would a richer input order a family's children better? Offline, on one
//! cycle's refined children (samples carry their family's number, the
//! refined set their targets, in the same order): the same small network
//! (48 tanhExp units, tanh output, Adam) is fitted from random weights on
//! the families of nine tenths and measured on the rest, once per input:
//!
//! - `base`: the network's inputs (row and 3 x 4 window pattern counts);
//! - `surface`: base, plus the patterns of the four rows from the highest
//!   non-empty one down, each at its depth below the surface (4 x 1,024);
//! - `rows`: base, plus every row's pattern at its row index (16 x 1,024);
//! - `enemy`: base, plus what the rules say comes next: each piece's peak
//!   (the rating of its best landing, by which the enemy ranks pieces) and
//!   the piece the memoryless enemy gives (7 x 24 + 7);
//! - `places`: base, plus every row at its index and every 3 x 4 window at
//!   its place (16 x 1,024 + 140 x 4,096): the record engine's positional
//!   inputs.
//!
//! With `FAMILIES=0` the samples are single wells (a generation's sampled
//! beams, as gen-b draws them): every tenth well is held out, and the
//! Spearman is over all held-out wells. `FAMILIES=N` makes runs of N
//! samples the families (N = the samples a depth: each depth's wells, held
//! out whole); `HOLD=N` holds out one run of N wells in ten.
//! ```sh
//! cargo run --release -p hatetris-research --example features -- SAMPLES.htds REFINED.htds EPOCHS NET.hnet
//! ```
//! NET is the network that sampled and refined the cycle: the target is
//! the lookahead's own value, undone from refine's, and NET as it is is
//! measured on the same held-out families for reference. SAMPLES, REFINED
//! and NET may be comma-separated lists (several cycles, each with its
//! network). `TARGET=refined` fits refine's target itself, as `cycle`'s
//! learning step does. `PLAY=G` then plays each fitted network (f32, one
//! thread with `RAYON_NUM_THREADS=1`): the embedded suite (width 1,000, 250
//! pieces, no chains, seed 0) and, if G > 0, G games as `hatetris games`
//! plays them (width 10,000, 20 noisy pieces of 0.3, seed 0, no chains);
//! `INIT=NET.hnet` fits from that network, `PLAY_INIT=1` plays it too.

use hatetris_eval::{active_features, tanh_exp, tanh_exp_grad, Evaluator, Network, NUM_FEATURES};
use hatetris_game::{choose_piece_memoryless, peaks::peaks, Rules, Well, BAR, MAX_DEPTH};
use hatetris_learn::dataset::read_dataset;
use hatetris_strength::games::{play_games, summarize_games, GamesConfig};
use hatetris_strength::stats::spearman;
use hatetris_strength::{measure as measure_suite, summarize, Suite};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::cell::RefCell;
use std::path::Path;

const HIDDEN: usize = 48;

#[derive(Clone, Copy, PartialEq)]
enum Input {
    Base,
    Surface,
    Rows,
    Enemy,
    Places,
}

fn features(rows: &[u16], input: Input, out: &mut Vec<u32>) {
    out.clear();
    let mut base = Vec::new();
    active_features(rows, &mut base);
    out.extend(base.iter().map(|&f| f as u32));
    let extra = NUM_FEATURES as u32;
    match input {
        Input::Base => {}
        Input::Surface => {
            let top = rows.iter().position(|&r| r != 0).unwrap_or(rows.len());
            for (k, &r) in rows[top..].iter().take(4).enumerate() {
                out.push(extra + (k as u32) * 1024 + r as u32);
            }
        }
        Input::Enemy => {
            // What the rules say comes next: each piece's peak (the rating of
            // its best landing, what the enemy ranks pieces by) and the piece
            // the memoryless enemy gives.
            let rules = Rules::with_height(rows.len()).unwrap();
            let mut all = [0u16; MAX_DEPTH];
            all[BAR..BAR + rows.len()].copy_from_slice(rows);
            let well = Well::from_rows(all);
            let p = peaks(&well, rules);
            for (i, &peak) in p.iter().enumerate() {
                out.push(extra + (i as u32) * 24 + peak.min(23) as u32);
            }
            out.push(extra + 7 * 24 + choose_piece_memoryless(&well, rules).index() as u32);
        }
        Input::Rows | Input::Places => {
            let skip = 16 - rows.len();
            for (i, &r) in rows.iter().enumerate() {
                out.push(extra + ((i + skip) as u32) * 1024 + r as u32);
            }
            if input == Input::Rows {
                return;
            }
            // The windows as the base input reads them (walls and floor
            // filled), each numbered by its place.
            let windows = extra + 16 * 1024;
            let mut grid: Vec<u16> = rows.iter().map(|&r| hatetris_eval::features::padded(r)).collect();
            grid.push(hatetris_eval::features::PADDED_FLOOR);
            for band in 0..grid.len().saturating_sub(3) {
                for c in 0..10 {
                    let p = (0..4).fold(0u32, |p, r| p | (((grid[band + r] >> c) & 7) as u32) << (3 * r));
                    out.push(windows + (((band + skip) * 10 + c) as u32) * 4096 + p);
                }
            }
        }
    }
}

fn dims(input: Input) -> usize {
    NUM_FEATURES
        + match input {
            Input::Base => 0,
            Input::Surface => 4 * 1024,
            Input::Rows => 16 * 1024,
            Input::Enemy => 7 * 24 + 7,
            Input::Places => 16 * 1024 + 14 * 10 * 4096,
        }
}

struct Net {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

impl Net {
    /// `init`'s weights for its inputs and zero for the rest of `inputs`:
    /// added inputs start by changing nothing.
    fn from_network(init: &Network, inputs: usize) -> Net {
        let mut w1 = init.w1.clone();
        w1.resize(inputs * HIDDEN, 0.0);
        Net { w1, b1: init.b1.clone(), w2: init.w2.clone(), b2: init.b2 }
    }

    fn forward(&self, f: &[u32], z: &mut [f32]) -> f32 {
        z.copy_from_slice(&self.b1);
        for &i in f {
            let w = &self.w1[i as usize * HIDDEN..(i as usize + 1) * HIDDEN];
            for (z, w) in z.iter_mut().zip(w) {
                *z += w;
            }
        }
        (self.b2 + z.iter().zip(&self.w2).map(|(&z, &w)| tanh_exp(z) * w).sum::<f32>()).tanh()
    }
}

/// A fitted network as the searches' evaluator (f32, its input's features).
struct Fitted {
    net: Net,
    input: Input,
}

impl Evaluator for Fitted {
    fn evaluate(&self, rows: &[u16]) -> f32 {
        thread_local! { static F: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) }; }
        F.with(|f| {
            let mut f = f.borrow_mut();
            features(rows, self.input, &mut f);
            let mut z = [0.0f32; HIDDEN];
            self.net.forward(&f, &mut z)
        })
    }
    fn name(&self) -> String {
        "fitted".into()
    }
}

/// Adam state for one parameter vector.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n] }
    }
    fn step(&mut self, i: usize, w: &mut f32, g: f32, lr: f32, t: i32) {
        let (b1, b2) = (0.9f32, 0.999f32);
        self.m[i] = b1 * self.m[i] + (1.0 - b1) * g;
        self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g;
        let mh = self.m[i] / (1.0 - b1.powi(t));
        let vh = self.v[i] / (1.0 - b2.powi(t));
        *w -= lr * mh / (vh.sqrt() + 1e-8);
    }
}

fn fit(
    feats: &[Vec<u32>],
    targets: &[f32],
    train: &[usize],
    input: Input,
    epochs: usize,
    seed: u64,
    init: Option<&Network>,
) -> Net {
    let n = dims(input);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let scale = 0.05;
    let mut net = match init {
        Some(init) => Net::from_network(init, n),
        None => Net {
            w1: (0..n * HIDDEN).map(|_| rng.gen_range(-scale..scale)).collect(),
            b1: vec![0.0; HIDDEN],
            w2: (0..HIDDEN).map(|_| rng.gen_range(-0.2..0.2)).collect(),
            b2: 0.0,
        },
    };
    let (mut a1, mut ab1, mut a2, mut ab2) =
        (Adam::new(n * HIDDEN), Adam::new(HIDDEN), Adam::new(HIDDEN), Adam::new(1));
    let mut order = train.to_vec();
    // BATCH and LR (env): the batch size (default 256) and Adam's rate (1e-3).
    let batch: usize = std::env::var("BATCH").map_or(256, |b| b.parse().expect("BATCH: a number"));
    let lr: f32 = std::env::var("LR").map_or(1e-3, |l| l.parse().expect("LR: a number"));
    // WD (env, default 0): decoupled weight decay of the added inputs' weights.
    let wd: f32 = std::env::var("WD").map_or(0.0, |l| l.parse().expect("WD: a number"));
    let mut t = 0;
    let mut z = vec![0.0f32; HIDDEN];
    // Gradients of one batch: dense for the small layers, per touched row
    // for the first.
    let mut g1: rustc_hash::FxHashMap<u32, Vec<f32>> = Default::default();
    let mut gb1 = [0.0f32; HIDDEN];
    let mut gw2 = [0.0f32; HIDDEN];
    for _ in 0..epochs {
        order.shuffle(&mut rng);
        for chunk in order.chunks(batch) {
            g1.clear();
            gb1.iter_mut().for_each(|g| *g = 0.0);
            gw2.iter_mut().for_each(|g| *g = 0.0);
            let mut gb2 = 0.0;
            for &s in chunk {
                let y = net.forward(&feats[s], &mut z);
                let dy = 2.0 * (y - targets[s]) * (1.0 - y * y) / chunk.len() as f32;
                gb2 += dy;
                for k in 0..HIDDEN {
                    gw2[k] += dy * tanh_exp(z[k]);
                    let dz = dy * net.w2[k] * tanh_exp_grad(z[k]);
                    gb1[k] += dz;
                    z[k] = dz;
                }
                for &f in &feats[s] {
                    let g = g1.entry(f).or_insert_with(|| vec![0.0; HIDDEN]);
                    for (g, z) in g.iter_mut().zip(&z) {
                        *g += z;
                    }
                }
            }
            t += 1;
            for (&f, g) in &g1 {
                // The added inputs' weights decay toward zero (decoupled,
                // as AdamW): what few wells support fades.
                let decay = if (f as usize) < NUM_FEATURES { 1.0 } else { 1.0 - lr * wd };
                for (k, &g) in g.iter().enumerate() {
                    let i = f as usize * HIDDEN + k;
                    net.w1[i] *= decay;
                    a1.step(i, &mut net.w1[i], g, lr, t);
                }
            }
            for k in 0..HIDDEN {
                ab1.step(k, &mut net.b1[k], gb1[k], lr, t);
                a2.step(k, &mut net.w2[k], gw2[k], lr, t);
            }
            let mut b2 = net.b2;
            ab2.step(0, &mut b2, gb2, lr, t);
            net.b2 = b2;
        }
    }
    net
}

/// MSE, mean within-family Spearman, and the share of families whose
/// predicted best child is the target's best.
fn measure(pred: &[f32], targets: &[f32], fams: &[Vec<usize>]) -> (f64, f64, f64) {
    let (mut se, mut n) = (0.0, 0usize);
    let (mut rho, mut top, mut nf) = (0.0, 0usize, 0usize);
    for fam in fams {
        for &i in fam {
            se += ((pred[i] - targets[i]) as f64).powi(2);
            n += 1;
        }
        if fam.len() < 3 {
            continue;
        }
        let p: Vec<f64> = fam.iter().map(|&i| pred[i] as f64).collect();
        let t: Vec<f64> = fam.iter().map(|&i| targets[i] as f64).collect();
        let r = spearman(&p, &t);
        if r.is_finite() {
            rho += r;
            nf += 1;
        }
        let argmax = |v: &[f64]| (0..v.len()).max_by(|&a, &b| v[a].total_cmp(&v[b])).unwrap();
        top += (argmax(&p) == argmax(&t)) as usize;
    }
    (se / n as f64, rho / nf as f64, top as f64 / fams.iter().filter(|f| f.len() >= 3).count() as f64)
}

/// The embedded suite and `games` games, as the module's doc says.
fn play_and_print(name: &str, eval: &Fitted, games: usize) {
    let started = std::time::Instant::now();
    let suite = Suite::embedded_default();
    let results = measure_suite(&suite, eval, 1000, 250, Default::default(), 0, &mut |_, _| {});
    let sm = summarize(&results);
    let per: Vec<u32> = results.iter().map(|r| r.pieces_survived).collect();
    println!(
        "{name}: suite pieces {:.2} lines {:.2} ({:.0} s) {per:?}",
        sm.mean_pieces,
        sm.mean_lines,
        started.elapsed().as_secs_f64()
    );
    if games == 0 {
        return;
    }
    let started = std::time::Instant::now();
    let config = GamesConfig { games, width: 10_000, open: 20, noise: 0.3, seed: 0, chains: Default::default() };
    let games = play_games(eval, &config, &mut |_, _| {}).expect("games replay");
    let lines: Vec<u32> = games.iter().map(|g| g.lines).collect();
    println!(
        "{name}: games {:.2} lines ({:.0} s) {lines:?}",
        summarize_games(&games).mean_lines,
        started.elapsed().as_secs_f64()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let list = |a: &String| a.split(',').map(|p| p.to_string()).collect::<Vec<_>>();
    let (sample_files, refined_files, nets) = (list(&args[0]), list(&args[1]), list(&args[3]));
    assert!(sample_files.len() == refined_files.len() && nets.len() == sample_files.len());
    let epochs: usize = args[2].parse().expect("epochs");
    let refined_target = std::env::var("TARGET").is_ok_and(|t| t == "refined");
    let (mut samples, mut x, mut targets) = (Vec::new(), Vec::new(), Vec::new());
    for ((s, r), n) in sample_files.iter().zip(&refined_files).zip(&nets) {
        let s = read_dataset(Path::new(s)).expect("samples");
        let r = read_dataset(Path::new(r)).expect("refined");
        assert_eq!(s.len(), r.len());
        // The lookahead's own value y, undone from refine's t = scale(x + (y - x) / 2)
        // with the sampling network's x (the scale, min to -1 and max to 1, is
        // taken as the identity: within a family it changes no order).
        let sampler = Network::load(Path::new(n)).expect("the network that sampled the cycle");
        let xs: Vec<f32> = s.iter().map(|s| sampler.evaluate(s.rows())).collect();
        targets.extend(r.iter().zip(&xs).map(|(r, &x)| {
            if refined_target {
                r.target
            } else {
                (2.0 * r.target - x).clamp(-0.999, 0.999)
            }
        }));
        x.extend(xs);
        samples.extend(s);
    }
    // PLAY=G: play each fitted network (the suite, and G games if G > 0).
    let play: Option<usize> = std::env::var("PLAY").ok().map(|g| g.parse().expect("PLAY: games"));
    // INIT=NET.hnet: fit from that network (48 units) instead of random weights.
    let init = std::env::var("INIT").ok().map(|p| Network::load(Path::new(&p)).expect("INIT network"));
    if let Some(init) = &init {
        assert_eq!(init.hidden, HIDDEN);
        if let (Some(games), true) = (play, std::env::var("PLAY_INIT").is_ok_and(|p| p == "1")) {
            let net = Net::from_network(init, dims(Input::Base));
            play_and_print("init", &Fitted { net, input: Input::Base }, games);
        }
    }
    // Families in order of first appearance; a tenth held out.
    let mut fams: Vec<Vec<usize>> = Vec::new();
    let mut last = f32::NAN;
    for (i, s) in samples.iter().enumerate() {
        if s.target != last {
            fams.push(Vec::new());
            last = s.target;
        }
        fams.last_mut().unwrap().push(i);
    }
    // FAMILIES=N > 0: runs of N samples are the families (with N the
    // samples a depth, each depth's wells, which a beam ranks together).
    let runs: usize = std::env::var("FAMILIES").map_or(0, |f| f.parse().expect("FAMILIES: a number"));
    if runs > 0 {
        fams = (0..samples.len()).collect::<Vec<_>>().chunks(runs).map(|c| c.to_vec()).collect();
    }
    let single = std::env::var("FAMILIES").is_ok_and(|f| f == "0");
    if single {
        fams = (0..samples.len()).map(|i| vec![i]).collect();
    }
    // HOLD=N: runs of N samples held out, one run in ten (with N the
    // samples a depth, whole depths of the game: no held-out well has a
    // sibling of its beam in training), instead of every tenth well.
    let run: usize = std::env::var("HOLD").map_or(1, |h| h.parse().expect("HOLD: samples a run"));
    let is_held = |k: usize| (k / run).is_multiple_of(10);
    let mut held: Vec<Vec<usize>> =
        fams.iter().enumerate().filter(|(k, _)| is_held(*k)).map(|(_, f)| f.clone()).collect();
    if single {
        held = vec![held.concat()];
    }
    // FRACTION (env, default 1): train on this share of the training families.
    let fraction: f64 = std::env::var("FRACTION").map_or(1.0, |f| f.parse().unwrap());
    let every = (1.0 / fraction).round() as usize;
    let train: Vec<usize> = fams
        .iter()
        .enumerate()
        .filter(|(k, _)| !is_held(*k) && (k / 10) % every == 0)
        .flat_map(|(_, f)| f.clone())
        .collect();
    println!(
        "{} wells, {} families; {} training wells, {} held-out families",
        samples.len(),
        fams.len(),
        train.len(),
        held.len()
    );
    let (mse, rho, top) = measure(&x, &targets, &held);
    println!("{} as it is: mse {mse:.5} within-family spearman {rho:.3} best child {top:.3}", args[3]);
    // INPUTS (env, default all): which inputs to fit, comma-separated.
    let wanted = std::env::var("INPUTS").unwrap_or_else(|_| "base,surface,rows".into());
    for (name, input) in [
        ("base", Input::Base),
        ("surface", Input::Surface),
        ("rows", Input::Rows),
        ("enemy", Input::Enemy),
        ("places", Input::Places),
    ] {
        if !wanted.split(',').any(|w| w == name) {
            continue;
        }
        let started = std::time::Instant::now();
        let mut f = Vec::new();
        let feats: Vec<Vec<u32>> = samples
            .iter()
            .map(|s| {
                features(s.rows(), input, &mut f);
                f.clone()
            })
            .collect();
        if input == Input::Places {
            // The placed windows are the base windows, each at its place.
            for f in feats.iter().take(100) {
                let base = NUM_FEATURES as u32;
                let mut plain: Vec<u32> = f.iter().filter(|&&i| i < base && i >= 1023).map(|&i| i - 1023).collect();
                let mut placed: Vec<u32> =
                    f.iter().filter(|&&i| i >= base + 16 * 1024).map(|&i| (i - base) % 4096).collect();
                plain.sort_unstable();
                placed.sort_unstable();
                assert_eq!(plain, placed);
            }
        }
        let net = fit(&feats, &targets, &train, input, epochs, 7, init.as_ref());
        let mut z = vec![0.0; HIDDEN];
        let pred: Vec<f32> = feats.iter().map(|f| net.forward(f, &mut z)).collect();
        let (mse, rho, top) = measure(&pred, &targets, &held);
        let mut train_fams: Vec<Vec<usize>> =
            fams.iter().enumerate().filter(|(k, _)| !is_held(*k)).map(|(_, f)| f.clone()).take(2000).collect();
        if single {
            train_fams = vec![train.iter().copied().take(20_000).collect()];
        }
        let (tmse, trho, _) = measure(&pred, &targets, &train_fams);
        println!(
            "{name}: held out mse {mse:.5} within-family spearman {rho:.3} best child {top:.3}; training mse {tmse:.5} spearman {trho:.3} ({:.0} s)",
            started.elapsed().as_secs_f64()
        );
        if let Some(games) = play {
            drop(feats);
            play_and_print(name, &Fitted { net, input }, games);
        }
    }
}
