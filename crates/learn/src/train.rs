//! The trainer: mean squared error, Adam, mini-batches, a held-out
//! validation split, early stopping that keeps the best weights.
//!
//! Hand-written, no tensor crate: the network is one small hidden layer fed
//! by about a hundred active features out of 5119, so a training step is
//! gathering and scattering a few w1 rows per sample. A dense framework would
//! multiply by the 5119-wide input (50x the work) or need its sparse-tensor
//! support; here forward and backward are short loops over the active rows
//! and the optimiser touches only the rows a batch used.
//!
//! * Features are extracted once into one flat `Vec<u16>` with offsets.
//! * The hidden loops are plain slice loops that LLVM vectorises; on CPUs
//!   with AVX2 the same code is compiled a second time for it.
//! * Sparse Adam ("lazy" Adam): a w1 row's moments and weights change only
//!   in batches that touch the row; rows a batch does not use are left
//!   alone (their moments do not decay). The bias correction uses the global
//!   step. b1, w2 and b2 get plain dense Adam.
//! * Determinism: a batch is cut into fixed chunks of [`CHUNK`] samples,
//!   whatever the thread count. Each chunk's gradient is computed
//!   sequentially into its own buffers; chunks are then added in chunk
//!   order, per weight, so the sums (and so the weights) are bit-identical
//!   for 1 or 64 threads. Shuffles come from ChaCha8 seeded by the config.
//!   No fused multiply-adds are used, so the AVX2 and SSE builds agree too.

use crate::dataset::Sample;
use hatetris_eval::simd::{fast_exp, tanh_fast};
use hatetris_eval::{active_features, Network, NUM_FEATURES};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Samples per gradient work item. Fixed, so results do not depend on the
/// number of threads. Fewer, larger chunks mean less reduction work and
/// more distinct rows per chunk; 1024 measured fastest of 512, 1024 and 2048
/// at H = 48.
pub const CHUNK: usize = 1024;
/// Largest hidden size accepted (a sanity bound on allocations).
pub const MAX_HIDDEN: usize = 4096;

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// Training settings. Missing fields read as their defaults.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct TrainConfig {
    /// Hidden units: a multiple of 8, at most [`MAX_HIDDEN`].
    pub hidden: usize,
    /// Seeds the initial weights, the validation split and the batch order.
    pub seed: u64,
    pub batch_size: usize,
    /// Adam step size.
    pub learning_rate: f32,
    pub max_epochs: usize,
    /// Stop after this many epochs without a lower validation loss.
    pub patience: usize,
    /// Share of the samples held out for validation, in (0, 1).
    pub validation_fraction: f64,
    /// What the fit minimises.
    pub loss: Loss,
}

/// The fitted quantity. Targets crowd near -1 (a refined data set holds
/// 39% of its wells below -0.9), where tanh's slope is near 0: in value
/// space the network is barely pushed to order those wells, which are the
/// tall ones the long games live in. `Logit` fits the output's
/// pre-activation to `atanh` of the target (clamped to ±[`LOGIT_CLAMP`]),
/// so a difference between -0.99 and -0.999 weighs as much as one between
/// 0 and 0.6.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Loss {
    /// Squared error of the value (tanh output).
    #[default]
    Mse,
    /// Squared error of the output's pre-activation against atanh(target).
    Logit,
}

/// Targets are clamped to ±this before `atanh` (atanh(0.999) = 3.8).
pub const LOGIT_CLAMP: f32 = 0.999;

#[derive(Debug, thiserror::Error)]
#[error("unknown loss '{0}' (expected mse or logit)")]
pub struct UnknownLoss(String);

impl std::str::FromStr for Loss {
    type Err = UnknownLoss;
    fn from_str(s: &str) -> Result<Loss, UnknownLoss> {
        match s {
            "mse" => Ok(Loss::Mse),
            "logit" => Ok(Loss::Logit),
            _ => Err(UnknownLoss(s.into())),
        }
    }
}

impl std::fmt::Display for Loss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Loss::Mse => "mse",
            Loss::Logit => "logit",
        })
    }
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            hidden: 48,
            seed: 0,
            batch_size: 8192,
            learning_rate: 1e-3,
            max_epochs: 100,
            patience: 3,
            validation_fraction: 0.1,
            loss: Loss::Mse,
        }
    }
}

/// What one epoch did (one JSON line per epoch on the command line).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EpochReport {
    /// 1-based.
    pub epoch: usize,
    /// Mean squared error over the epoch's training samples, each measured
    /// as it was trained on.
    pub train_loss: f32,
    /// Mean squared error on the held-out samples after the epoch.
    pub validation_loss: f32,
    /// The lowest validation loss so far: these are the weights kept.
    pub best: bool,
    pub train_samples: usize,
    pub validation_samples: usize,
    /// Training samples per second (forward, backward and update).
    pub samples_per_sec: f64,
    /// Wall time of the whole epoch, validation included.
    pub secs: f64,
}

#[derive(Clone, Debug)]
pub struct TrainResult {
    /// The weights of the best epoch.
    pub network: Network,
    pub epochs: Vec<EpochReport>,
    pub best_validation_loss: f32,
}

#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error("no training data")]
    Empty,
    #[error("{samples} samples are too few to hold out a validation share of {fraction} and still train on some")]
    TooFewSamples { samples: usize, fraction: f64 },
    #[error("too many samples ({0}; at most 4294967295)")]
    TooManySamples(usize),
    #[error("the starting network has {network} hidden units but {config} were asked for")]
    HiddenMismatch { config: usize, network: usize },
    #[error("the starting network is malformed (array sizes do not match {0} hidden units)")]
    BadNetwork(usize),
    #[error("sample {index}: {what}")]
    BadSample { index: usize, what: String },
    #[error("invalid training setting: {0}")]
    BadConfig(String),
    #[error("training diverged: the validation loss was never finite")]
    Diverged,
}

/// Features of every sample, extracted once, as (feature, count) pairs
/// sorted by feature: sample `i` is `feats[offsets[i]..offsets[i + 1]]`.
/// Counting repeats (a well's empty top repeats the same few patterns)
/// means fewer w1 rows to read and gradient rows to write, and sorted rows
/// are read in address order.
struct Features {
    feats: Vec<(u16, u16)>,
    offsets: Vec<usize>,
    /// atanh of the targets with [`Loss::Logit`], the targets otherwise.
    targets: Vec<f32>,
    logit: bool,
}

impl Features {
    fn extract(data: &[Sample], loss: Loss) -> Features {
        // Extracted in parallel by fixed blocks, joined in order.
        // Per block: its pairs and each sample's pair count.
        type Block = (Vec<(u16, u16)>, Vec<usize>);
        let parts: Vec<Block> = data
            .par_chunks(4096)
            .map(|block| {
                let mut pairs = Vec::new();
                let mut lens = Vec::with_capacity(block.len());
                let mut all = Vec::new();
                for s in block {
                    all.clear();
                    active_features(s.rows(), &mut all);
                    all.sort_unstable();
                    let before = pairs.len();
                    for f in all.chunk_by(|a, b| a == b) {
                        pairs.push((f[0], f.len() as u16));
                    }
                    lens.push(pairs.len() - before);
                }
                (pairs, lens)
            })
            .collect();
        let total = parts.iter().map(|p| p.0.len()).sum();
        let mut feats = Vec::with_capacity(total);
        let mut offsets = Vec::with_capacity(data.len() + 1);
        offsets.push(0);
        for (f, lens) in parts {
            feats.extend_from_slice(&f);
            for l in lens {
                offsets.push(offsets.last().unwrap() + l);
            }
        }
        let logit = loss == Loss::Logit;
        let targets = data
            .iter()
            .map(|s| if logit { s.target.clamp(-LOGIT_CLAMP, LOGIT_CLAMP).atanh() } else { s.target })
            .collect();
        Features { feats, offsets, targets, logit }
    }

    #[inline(always)]
    fn of(&self, i: u32) -> (&[(u16, u16)], f32) {
        let i = i as usize;
        (&self.feats[self.offsets[i]..self.offsets[i + 1]], self.targets[i])
    }
}

const UNTOUCHED: u32 = u32::MAX;

/// One chunk's gradient. w1 is sparse: the rows of the features the chunk
/// touched, in first-touch order, found through `slot`.
struct ChunkGrad {
    /// `slot[f]`: index of feature f's row in `w1`, or [`UNTOUCHED`].
    slot: Vec<u32>,
    touched: Vec<u16>,
    /// `touched.len() * hidden`.
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    /// Sum of squared errors over the chunk's samples.
    loss: f64,
    /// Per-sample scratch: pre-activations, activations, their
    /// derivatives, and the gradient at the pre-activations.
    z: Vec<f32>,
    a: Vec<f32>,
    d: Vec<f32>,
    dz: Vec<f32>,
}

impl ChunkGrad {
    fn new(h: usize) -> ChunkGrad {
        ChunkGrad {
            slot: vec![UNTOUCHED; NUM_FEATURES],
            touched: Vec::new(),
            w1: Vec::new(),
            b1: vec![0.0; h],
            w2: vec![0.0; h],
            b2: 0.0,
            loss: 0.0,
            z: vec![0.0; h],
            a: vec![0.0; h],
            d: vec![0.0; h],
            dz: vec![0.0; h],
        }
    }

    fn clear(&mut self) {
        for &f in &self.touched {
            self.slot[f as usize] = UNTOUCHED;
        }
        self.touched.clear();
        self.w1.clear();
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2 = 0.0;
        self.loss = 0.0;
    }

    /// Adds this chunk's gradient row of feature `f` (if touched) to `out`.
    #[inline]
    fn add_row(&self, f: usize, out: &mut [f32]) {
        let k = self.slot[f];
        if k != UNTOUCHED {
            let h = out.len();
            add_to(out, &self.w1[k as usize * h..(k as usize + 1) * h]);
        }
    }
}

/// `acc += x`, lane by lane.
#[inline(always)]
fn add_to(acc: &mut [f32], x: &[f32]) {
    for (a, x) in acc.iter_mut().zip(x) {
        *a += x;
    }
}

/// `acc += k * x`, lane by lane (unfused, so every build rounds alike).
#[inline(always)]
fn add_scaled(acc: &mut [f32], k: f32, x: &[f32]) {
    for (a, x) in acc.iter_mut().zip(x) {
        *a += k * x;
    }
}

/// The forward pass of one sample: fills the pre-activations `z`, the
/// hidden activations `a` and their derivatives `d`; returns the output.
///
/// The hidden loops run over slices of run-time length on purpose: with
/// fixed-size arrays LLVM unrolls them fully and leaves scalar code, while
/// these loops it vectorises.
#[inline(always)]
fn forward(net: &Network, feats: &[(u16, u16)], z: &mut [f32], a: &mut [f32], d: &mut [f32]) -> f32 {
    let h = net.hidden;
    z.copy_from_slice(&net.b1);
    for &(f, count) in feats {
        add_scaled(z, count as f32, &net.w1[f as usize * h..(f as usize + 1) * h]);
    }
    for ((&x, a), d) in z.iter().zip(a.iter_mut()).zip(d.iter_mut()) {
        // tanhExp(x) = x tanh(e^x); its derivative is
        // tanh(e) + x e (1 - tanh(e)^2). e is clamped finite and 1 - t^2 is
        // exactly 0 where t rounds to 1, so there is no inf * 0.
        let e = fast_exp(x);
        let t = tanh_fast(e);
        *a = x * t;
        *d = t + x * (e * (1.0 - t * t));
    }
    // w2 . a in 8 lanes, then a fixed tree: the order never depends on
    // how the compiler vectorised.
    let mut dot = [0.0f32; 8];
    for (w, a) in net.w2.chunks_exact(8).zip(a.chunks_exact(8)) {
        for l in 0..8 {
            dot[l] += w[l] * a[l];
        }
    }
    let sum = ((dot[0] + dot[4]) + (dot[2] + dot[6])) + ((dot[1] + dot[5]) + (dot[3] + dot[7]));
    net.b2 + sum
}

/// The error the loss squares and its derivative at the output's
/// pre-activation `z`, for a (possibly transformed) target.
#[inline(always)]
fn output_error(data: &Features, z: f32, target: f32) -> (f32, f32) {
    if data.logit {
        let err = z - target;
        (err, err)
    } else {
        let y = tanh_fast(z);
        let err = y - target;
        (err, err * (1.0 - y * y))
    }
}

/// Loss and gradient of `samples` into `g`, the gradient scaled by `scale`
/// (2 / batch size: the derivative of the batch's mean squared error).
#[inline(always)]
fn chunk_gradient(net: &Network, data: &Features, samples: &[u32], scale: f32, g: &mut ChunkGrad) {
    g.clear();
    let h = net.hidden;
    for &s in samples {
        let (feats, target) = data.of(s);
        let z = forward(net, feats, &mut g.z, &mut g.a, &mut g.d);
        let (err, dz_out) = output_error(data, z, target);
        g.loss += (err * err) as f64;
        let gy = scale * dz_out;
        g.b2 += gy;
        // Slices of one known length: no bounds checks in the loop.
        let (gw2, gb1, dz) = (&mut g.w2[..h], &mut g.b1[..h], &mut g.dz[..h]);
        let (a, d, w2) = (&g.a[..h], &g.d[..h], &net.w2[..h]);
        for j in 0..h {
            gw2[j] += gy * a[j];
            dz[j] = gy * w2[j] * d[j];
            gb1[j] += dz[j];
        }
        for &(f, count) in feats {
            let mut k = g.slot[f as usize];
            if k == UNTOUCHED {
                k = g.touched.len() as u32;
                g.slot[f as usize] = k;
                g.touched.push(f);
                g.w1.resize(g.w1.len() + h, 0.0);
            }
            add_scaled(&mut g.w1[k as usize * h..(k as usize + 1) * h], count as f32, &g.dz);
        }
    }
}

/// Sum of squared errors of `samples`.
#[inline(always)]
fn chunk_loss(net: &Network, data: &Features, samples: &[u32]) -> f64 {
    let h = net.hidden;
    let (mut z, mut a, mut d) = (vec![0.0; h], vec![0.0; h], vec![0.0; h]);
    let mut loss = 0.0f64;
    for &s in samples {
        let (feats, target) = data.of(s);
        let out = forward(net, feats, &mut z, &mut a, &mut d);
        let (err, _) = output_error(data, out, target);
        loss += (err * err) as f64;
    }
    loss
}

/// Calls `$f(args)` compiled for AVX2 when the CPU has it (the same code
/// with wider vectors: no fused multiply-adds, so the same results).
macro_rules! with_avx2 {
    ($f:ident ($($arg:ident : $ty:ty),*) -> $ret:ty) => {{
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                #[target_feature(enable = "avx2")]
                fn avx2($($arg: $ty),*) -> $ret {
                    $f($($arg),*)
                }
                // SAFETY: the CPU has AVX2, checked just above.
                return unsafe { avx2($($arg),*) };
            }
        }
        $f($($arg),*)
    }};
}

fn chunk_gradient_any(net: &Network, data: &Features, samples: &[u32], scale: f32, g: &mut ChunkGrad) {
    with_avx2!(chunk_gradient(net: &Network, data: &Features, samples: &[u32], scale: f32, g: &mut ChunkGrad) -> ())
}

fn chunk_loss_any(net: &Network, data: &Features, samples: &[u32]) -> f64 {
    with_avx2!(chunk_loss(net: &Network, data: &Features, samples: &[u32]) -> f64)
}

/// Fills `grads[c]` with the gradient of chunk c of `batch`; returns the
/// number of chunks used.
fn batch_gradient(net: &Network, data: &Features, batch: &[u32], grads: &mut [ChunkGrad]) -> usize {
    let scale = 2.0 / batch.len() as f32;
    let chunks = batch.len().div_ceil(CHUNK);
    grads[..chunks]
        .par_iter_mut()
        .zip(batch.par_chunks(CHUNK))
        .for_each(|(g, samples)| chunk_gradient_any(net, data, samples, scale, g));
    chunks
}

/// Mean squared error over `samples`, summed by fixed chunks in order.
fn mean_loss(net: &Network, data: &Features, samples: &[u32]) -> f64 {
    let sums: Vec<f64> = samples.par_chunks(CHUNK).map(|c| chunk_loss_any(net, data, c)).collect();
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// Adam's first and second moments, one pair per weight.
struct Adam {
    m_w1: Vec<f32>,
    v_w1: Vec<f32>,
    m_b1: Vec<f32>,
    v_b1: Vec<f32>,
    m_w2: Vec<f32>,
    v_w2: Vec<f32>,
    m_b2: f32,
    v_b2: f32,
    step: i32,
    /// Scratch: features touched by the current batch.
    touched: Vec<bool>,
}

/// One Adam update of `w` from gradient `g`; `lr` is bias-corrected.
#[inline(always)]
fn adam(w: &mut f32, m: &mut f32, v: &mut f32, g: f32, lr: f32) {
    *m = BETA1 * *m + (1.0 - BETA1) * g;
    *v = BETA2 * *v + (1.0 - BETA2) * g * g;
    *w -= lr * *m / (v.sqrt() + EPSILON);
}

impl Adam {
    fn new(h: usize) -> Adam {
        Adam {
            m_w1: vec![0.0; NUM_FEATURES * h],
            v_w1: vec![0.0; NUM_FEATURES * h],
            m_b1: vec![0.0; h],
            v_b1: vec![0.0; h],
            m_w2: vec![0.0; h],
            v_w2: vec![0.0; h],
            m_b2: 0.0,
            v_b2: 0.0,
            step: 0,
            touched: vec![false; NUM_FEATURES],
        }
    }

    /// Applies the gradient held in `grads` (chunks added in order).
    fn update(&mut self, net: &mut Network, grads: &[ChunkGrad], learning_rate: f32) {
        let h = net.hidden;
        self.step += 1;
        let lr = learning_rate * (1.0 - BETA2.powi(self.step)).sqrt() / (1.0 - BETA1.powi(self.step));
        for g in grads {
            for &f in &g.touched {
                self.touched[f as usize] = true;
            }
        }
        // Sparse part: only the rows of touched features, each summed over
        // the chunks in chunk order; rows are independent, so in parallel.
        let touched = &self.touched;
        net.w1
            .par_chunks_mut(h)
            .zip(self.m_w1.par_chunks_mut(h))
            .zip(self.v_w1.par_chunks_mut(h))
            .enumerate()
            .with_min_len(64)
            .for_each_init(
                || vec![0.0f32; h],
                |sum, (f, ((w, m), v))| {
                    if !touched[f] {
                        return;
                    }
                    sum.fill(0.0);
                    for g in grads {
                        g.add_row(f, sum);
                    }
                    for j in 0..h {
                        adam(&mut w[j], &mut m[j], &mut v[j], sum[j], lr);
                    }
                },
            );
        self.touched.fill(false);
        // Dense part.
        let mut b1 = vec![0.0f32; h];
        let mut w2 = vec![0.0f32; h];
        let mut b2 = 0.0f32;
        for g in grads {
            add_to(&mut b1, &g.b1);
            add_to(&mut w2, &g.w2);
            b2 += g.b2;
        }
        for j in 0..h {
            adam(&mut net.b1[j], &mut self.m_b1[j], &mut self.v_b1[j], b1[j], lr);
            adam(&mut net.w2[j], &mut self.m_w2[j], &mut self.v_w2[j], w2[j], lr);
        }
        adam(&mut net.b2, &mut self.m_b2, &mut self.v_b2, b2, lr);
    }
}

impl TrainConfig {
    /// Refuses settings training cannot run with, before any work.
    pub fn validate(&self) -> Result<(), TrainError> {
        check_config(self)
    }
}

fn check_config(c: &TrainConfig) -> Result<(), TrainError> {
    let bad = |what: String| Err(TrainError::BadConfig(what));
    if c.hidden == 0 || !c.hidden.is_multiple_of(8) || c.hidden > MAX_HIDDEN {
        return bad(format!("hidden size {} (must be a multiple of 8 from 8 to {MAX_HIDDEN})", c.hidden));
    }
    if c.batch_size == 0 {
        return bad("batch size 0".into());
    }
    if !(c.learning_rate.is_finite() && c.learning_rate > 0.0) {
        return bad(format!("learning rate {} (must be positive)", c.learning_rate));
    }
    if c.max_epochs == 0 {
        return bad("at most 0 epochs".into());
    }
    if c.patience == 0 {
        return bad("patience 0 (must be at least 1 epoch)".into());
    }
    if !(c.validation_fraction > 0.0 && c.validation_fraction < 1.0) {
        return bad(format!("validation share {} (must be between 0 and 1)", c.validation_fraction));
    }
    Ok(())
}

fn check_samples(data: &[Sample]) -> Result<(), TrainError> {
    for (index, s) in data.iter().enumerate() {
        let what = if !(1..=16).contains(&s.len) {
            format!("{} rows (a well has 1 to 16)", s.len)
        } else if let Some(r) = s.rows().iter().find(|&&r| r >= hatetris_game::FULL_ROW) {
            format!("row value {r}")
        } else if !s.target.is_finite() {
            format!("target {}", s.target)
        } else {
            continue;
        };
        return Err(TrainError::BadSample { index, what });
    }
    Ok(())
}

/// Trains a network on `data` (see the module documentation); calls
/// `on_epoch` after every epoch. Uses the current rayon pool; the result
/// does not depend on its size.
pub fn train(
    data: &[Sample],
    init: Option<Network>,
    config: &TrainConfig,
    on_epoch: &mut dyn FnMut(&EpochReport),
) -> Result<TrainResult, TrainError> {
    train_with_progress(data, init, config, on_epoch, &mut |_, _| {})
}

/// [`train`], also calling `on_batch(samples done, samples per epoch)`
/// after every mini-batch (for progress bars).
pub fn train_with_progress(
    data: &[Sample],
    init: Option<Network>,
    config: &TrainConfig,
    on_epoch: &mut dyn FnMut(&EpochReport),
    on_batch: &mut dyn FnMut(usize, usize),
) -> Result<TrainResult, TrainError> {
    check_config(config)?;
    let h = config.hidden;
    let mut net = match init {
        Some(net) if net.hidden != h => return Err(TrainError::HiddenMismatch { config: h, network: net.hidden }),
        Some(net) if net.w1.len() != NUM_FEATURES * h || net.b1.len() != h || net.w2.len() != h => {
            return Err(TrainError::BadNetwork(h))
        }
        Some(net) => net,
        None => Network::random(h, config.seed),
    };
    if data.is_empty() {
        return Err(TrainError::Empty);
    }
    if data.len() > u32::MAX as usize {
        return Err(TrainError::TooManySamples(data.len()));
    }
    check_samples(data)?;
    let n_val = ((data.len() as f64 * config.validation_fraction).round() as usize).max(1);
    if n_val >= data.len() {
        return Err(TrainError::TooFewSamples { samples: data.len(), fraction: config.validation_fraction });
    }
    let features = Features::extract(data, config.loss);

    // Stream 0 of the seed splits; stream 1 orders the batches
    // (Network::random draws from the seed's stream 0 too, a separate use).
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    order.shuffle(&mut rng);
    let (validation, train_set) = order.split_at(n_val);
    let mut train_set = train_set.to_vec();
    rng.set_stream(1);

    let mut grads: Vec<ChunkGrad> =
        (0..config.batch_size.min(train_set.len()).div_ceil(CHUNK)).map(|_| ChunkGrad::new(h)).collect();
    let mut adam = Adam::new(h);
    let mut best: Option<(f32, Network)> = None;
    let mut epochs = Vec::new();
    let mut since_best = 0;
    for epoch in 1..=config.max_epochs {
        let started = Instant::now();
        train_set.shuffle(&mut rng);
        let mut loss = 0.0f64;
        let mut done = 0;
        for batch in train_set.chunks(config.batch_size) {
            let used = batch_gradient(&net, &features, batch, &mut grads);
            loss += grads[..used].iter().map(|g| g.loss).sum::<f64>();
            adam.update(&mut net, &grads[..used], config.learning_rate);
            done += batch.len();
            on_batch(done, train_set.len());
        }
        let train_secs = started.elapsed().as_secs_f64();
        let validation_loss = mean_loss(&net, &features, validation) as f32;
        let improved = validation_loss.is_finite() && best.as_ref().is_none_or(|(b, _)| validation_loss < *b);
        if improved {
            best = Some((validation_loss, net.clone()));
            since_best = 0;
        } else {
            since_best += 1;
        }
        let report = EpochReport {
            epoch,
            train_loss: (loss / train_set.len() as f64) as f32,
            validation_loss,
            best: improved,
            train_samples: train_set.len(),
            validation_samples: validation.len(),
            samples_per_sec: train_set.len() as f64 / train_secs.max(1e-9),
            secs: started.elapsed().as_secs_f64(),
        };
        on_epoch(&report);
        epochs.push(report);
        if since_best >= config.patience {
            break;
        }
    }
    let (best_validation_loss, network) = best.ok_or(TrainError::Diverged)?;
    Ok(TrainResult { network, epochs, best_validation_loss })
}

#[cfg(test)]
mod tests;
