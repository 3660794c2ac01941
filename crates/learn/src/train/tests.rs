//! Tests of the trainer.

use super::*;
use rand::Rng;

/// Random wells of 1..=16 rows, bottoms fuller than tops, with targets
/// from a simple rule (the share of filled cells, rescaled), so a
/// network can learn them.
fn synthetic(n: usize, seed: u64) -> Vec<Sample> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let h = rng.gen_range(1..=16);
            let rows: Vec<u16> = (0..h)
                .map(|i| {
                    let density = (i + 1) as f64 / h as f64 * 0.7;
                    let mut r = 0u16;
                    for c in 0..10 {
                        if rng.gen_bool(density) {
                            r |= 1 << c;
                        }
                    }
                    if r == 1023 {
                        r &= !(1 << rng.gen_range(0..10));
                    }
                    r
                })
                .collect();
            let filled: u32 = rows.iter().map(|r| r.count_ones()).sum();
            let target = (filled as f32 / (10.0 * h as f32)) * 1.6 - 0.8;
            Sample::new(&rows, target)
        })
        .collect()
}

/// The batch loss in f64 with exact math, from the network's weights.
fn loss_f64(net: &Network, w1: &[f64], b1: &[f64], w2: &[f64], b2: f64, data: &[Sample], kind: Loss) -> f64 {
    let h = net.hidden;
    let mut total = 0.0;
    for s in data {
        let mut feats = Vec::new();
        active_features(s.rows(), &mut feats);
        let mut z = b1.to_vec();
        for &f in &feats {
            for j in 0..h {
                z[j] += w1[f as usize * h + j];
            }
        }
        let out: f64 = b2 + (0..h).map(|j| w2[j] * z[j] * z[j].exp().tanh()).sum::<f64>();
        let err = match kind {
            Loss::Mse => out.tanh() - s.target as f64,
            Loss::Logit => out - (s.target.clamp(-LOGIT_CLAMP, LOGIT_CLAMP) as f64).atanh(),
        };
        total += err * err;
    }
    total / data.len() as f64
}

#[test]
fn gradient_matches_finite_differences() {
    gradient_check(Loss::Mse);
}

#[test]
fn logit_gradient_matches_finite_differences() {
    gradient_check(Loss::Logit);
}

fn gradient_check(kind: Loss) {
    let mut data = synthetic(40, 1);
    // Targets at and near the ends, where the logit loss clamps.
    data[0].target = -1.0;
    data[1].target = 0.9995;
    data[2].target = -0.99;
    let mut net = Network::random(16, 2);
    // Biases and a wider w1 put pre-activations across the curve.
    net.w1.iter_mut().for_each(|w| *w *= 3.0);
    net.b1.iter_mut().enumerate().for_each(|(j, b)| *b = (j as f32 - 8.0) * 0.2);
    net.b2 = 0.1;
    let features = Features::extract(&data, kind);
    let batch: Vec<u32> = (0..data.len() as u32).collect();
    // Two chunks' worth would need > CHUNK samples; one chunk is the
    // kernel, the reduction is checked in the determinism test.
    let mut grads = vec![ChunkGrad::new(16)];
    let used = batch_gradient(&net, &features, &batch, &mut grads);
    assert_eq!(used, 1);
    let g = &grads[0];

    let h = net.hidden;
    let w1: Vec<f64> = net.w1.iter().map(|&x| x as f64).collect();
    let b1: Vec<f64> = net.b1.iter().map(|&x| x as f64).collect();
    let w2: Vec<f64> = net.w2.iter().map(|&x| x as f64).collect();
    let b2 = net.b2 as f64;
    let eps = 1e-5;
    let check = |analytic: f32, plus: f64, minus: f64, what: &str| {
        let numeric = (plus - minus) / (2.0 * eps);
        let tol = 2e-4 * numeric.abs().max(analytic.abs() as f64) + 2e-6;
        assert!((analytic as f64 - numeric).abs() <= tol, "{what}: analytic {analytic}, numeric {numeric}");
    };
    let loss = |w1: &[f64], b1: &[f64], w2: &[f64], b2: f64| loss_f64(&net, w1, b1, w2, b2, &data, kind);

    // Every touched w1 row (the first few lanes of each), plus rows the
    // batch never touched, whose gradient must be zero.
    assert!(g.touched.len() > 20);
    for &f in g.touched.iter().take(40) {
        let mut row = vec![0.0f32; h];
        g.add_row(f as usize, &mut row);
        for j in [0, 5, 11] {
            let i = f as usize * h + j;
            let (mut p, mut m) = (w1.clone(), w1.clone());
            p[i] += eps;
            m[i] -= eps;
            check(row[j], loss(&p, &b1, &w2, b2), loss(&m, &b1, &w2, b2), &format!("w1[{f}][{j}]"));
        }
    }
    let untouched = (0..NUM_FEATURES).find(|&f| g.slot[f] == UNTOUCHED).unwrap();
    let mut row = vec![0.0f32; h];
    g.add_row(untouched, &mut row);
    assert!(row.iter().all(|&x| x == 0.0));
    for j in 0..h {
        let (mut p, mut m) = (b1.clone(), b1.clone());
        p[j] += eps;
        m[j] -= eps;
        check(g.b1[j], loss(&w1, &p, &w2, b2), loss(&w1, &m, &w2, b2), &format!("b1[{j}]"));
        let (mut p, mut m) = (w2.clone(), w2.clone());
        p[j] += eps;
        m[j] -= eps;
        check(g.w2[j], loss(&w1, &b1, &p, b2), loss(&w1, &b1, &m, b2), &format!("w2[{j}]"));
    }
    check(g.b2, loss(&w1, &b1, &w2, b2 + eps), loss(&w1, &b1, &w2, b2 - eps), "b2");
    // The chunk's loss is the sum of squared errors.
    let mean = g.loss / data.len() as f64;
    assert!((mean - loss(&w1, &b1, &w2, b2)).abs() < 1e-5, "{mean}");
}

fn small_config() -> TrainConfig {
    TrainConfig { hidden: 16, seed: 5, batch_size: 256, learning_rate: 3e-3, max_epochs: 8, ..TrainConfig::default() }
}

#[test]
fn training_lowers_the_loss() {
    let data = synthetic(6000, 3);
    let mut reports = Vec::new();
    let r = train(&data, None, &small_config(), &mut |e| reports.push(e.clone())).unwrap();
    assert_eq!(r.epochs, reports);
    let first = &r.epochs[0];
    let last = r.epochs.last().unwrap();
    assert!(last.train_loss < first.train_loss * 0.5, "{first:?} -> {last:?}");
    assert!(r.best_validation_loss < first.validation_loss, "{}", r.best_validation_loss);
    assert!(r.best_validation_loss < 0.01, "{}", r.best_validation_loss);
    assert_eq!(first.validation_samples, 600);
    assert_eq!(first.train_samples, 5400);
}

/// Same seed, same result, with 1 or 2 threads; batches span several
/// chunks so the cross-chunk reduction is exercised.
#[test]
fn deterministic_for_a_seed_and_any_thread_count() {
    let data = synthetic(3000, 4);
    let config = TrainConfig { batch_size: 1500, max_epochs: 3, ..small_config() };
    let run = |threads: usize, config: &TrainConfig| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| train(&data, None, config, &mut |_| {}).unwrap())
    };
    let (one, two) = (run(1, &config), run(2, &config));
    assert_eq!(one.network, two.network);
    assert_eq!(one.best_validation_loss, two.best_validation_loss);
    let other = run(2, &TrainConfig { seed: 6, ..config.clone() });
    assert_ne!(one.network, other.network);
}

#[test]
fn early_stopping_keeps_the_best_epoch() {
    // A learning rate far too high makes the validation loss bounce, so
    // some epoch is worse than an earlier one.
    let data = synthetic(2000, 7);
    let config = TrainConfig { learning_rate: 0.5, max_epochs: 30, patience: 2, ..small_config() };
    let r = train(&data, None, &config, &mut |_| {}).unwrap();
    let best = r.epochs.iter().rfind(|e| e.best).unwrap();
    assert_eq!(best.validation_loss, r.best_validation_loss);
    let min = r.epochs.iter().map(|e| e.validation_loss).fold(f32::INFINITY, f32::min);
    assert_eq!(min, r.best_validation_loss);
    // Stopped `patience` epochs after the best one (or at the limit).
    let last = r.epochs.last().unwrap().epoch;
    assert!(last == best.epoch + 2 || last == 30, "best {}, last {last}", best.epoch);
    assert!(r.epochs.len() < 30, "never stopped early");
    // The returned weights are the best epoch's: their loss is its loss.
    let features = Features::extract(&data, Loss::Mse);
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(config.seed));
    let v = mean_loss(&r.network, &features, &order[..200]) as f32;
    assert_eq!(v, r.best_validation_loss);
}

#[test]
fn continuing_training_and_hidden_mismatch() {
    let data = synthetic(1000, 8);
    let config = TrainConfig { max_epochs: 2, ..small_config() };
    let first = train(&data, None, &config, &mut |_| {}).unwrap();
    let again = train(&data, Some(first.network.clone()), &config, &mut |_| {}).unwrap();
    assert!(again.best_validation_loss < first.best_validation_loss);
    let err = train(&data, Some(Network::random(24, 0)), &config, &mut |_| {}).unwrap_err();
    assert!(matches!(err, TrainError::HiddenMismatch { config: 16, network: 24 }), "{err}");
}

#[test]
fn bad_inputs_are_errors() {
    let c = small_config();
    assert!(matches!(train(&[], None, &c, &mut |_| {}), Err(TrainError::Empty)));
    let one = synthetic(1, 0);
    assert!(matches!(train(&one, None, &c, &mut |_| {}), Err(TrainError::TooFewSamples { .. })));
    let mut bad = synthetic(10, 0);
    bad[3].rows[0] = 1023;
    bad[3].len = bad[3].len.max(1);
    assert!(matches!(train(&bad, None, &c, &mut |_| {}), Err(TrainError::BadSample { index: 3, .. })));
    bad[3] = Sample { rows: [0; 16], len: 0, target: 0.0 };
    assert!(matches!(train(&bad, None, &c, &mut |_| {}), Err(TrainError::BadSample { index: 3, .. })));
    for config in [
        TrainConfig { hidden: 12, ..c.clone() },
        TrainConfig { hidden: MAX_HIDDEN + 8, ..c.clone() },
        TrainConfig { batch_size: 0, ..c.clone() },
        TrainConfig { learning_rate: f32::NAN, ..c.clone() },
        TrainConfig { validation_fraction: 1.0, ..c.clone() },
        TrainConfig { patience: 0, ..c.clone() },
    ] {
        let err = train(&synthetic(100, 0), None, &config, &mut |_| {}).unwrap_err();
        assert!(matches!(err, TrainError::BadConfig(_)), "{err}");
    }
}

#[test]
fn a_corrupted_data_file_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.htds");
    crate::dataset::write_dataset(&path, "t", &synthetic(50, 0)).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let err = crate::dataset::read_dataset(&path).unwrap_err().to_string();
    assert!(err.contains("d.htds"), "{err}");
}

#[test]
fn losses_parse_print_and_read() {
    for (name, loss) in [("mse", Loss::Mse), ("logit", Loss::Logit)] {
        assert_eq!(name.parse::<Loss>().unwrap(), loss);
        assert_eq!(loss.to_string(), name);
    }
    assert!("bce".parse::<Loss>().unwrap_err().to_string().contains("'bce'"));
    let c: TrainConfig = serde_json::from_str(r#"{"loss": "logit"}"#).unwrap();
    assert_eq!(c.loss, Loss::Logit);
}

/// Spearman's rank correlation of the network's values with the targets.
fn rank_correlation(net: &Network, data: &[Sample]) -> f64 {
    let ranks = |v: Vec<f64>| {
        let mut idx: Vec<usize> = (0..v.len()).collect();
        idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
        let mut r = vec![0.0; v.len()];
        idx.iter().enumerate().for_each(|(k, &i)| r[i] = k as f64);
        r
    };
    let values = data.iter().map(|s| net.reference_forward(s.rows())).map(f64::from).collect();
    let (a, b) = (ranks(values), ranks(data.iter().map(|s| s.target as f64).collect()));
    let n = a.len() as f64;
    let d2: f64 = a.iter().zip(&b).map(|(x, y)| (x - y) * (x - y)).sum();
    1.0 - 6.0 * d2 / (n * (n * n - 1.0))
}

/// Targets all within 0.02 of -1: the squared error of the value leaves
/// their order nearly unlearned, the logit loss learns it.
#[test]
fn logit_loss_orders_targets_near_minus_one() {
    let mut data = synthetic(2000, 11);
    data.iter_mut().for_each(|s| s.target = -1.0 + 0.02 * (s.target + 0.8) / 1.6);
    let fit = |loss: Loss| {
        let config = TrainConfig { learning_rate: 0.01, max_epochs: 40, patience: 3, loss, ..small_config() };
        rank_correlation(&train(&data, None, &config, &mut |_| {}).unwrap().network, &data)
    };
    let (mse, logit) = (fit(Loss::Mse), fit(Loss::Logit));
    assert!(logit > 0.75 && logit > mse + 0.2, "rank correlation: logit {logit}, mse {mse}");
}

#[test]
fn config_reads_with_missing_fields() {
    let c: TrainConfig = serde_json::from_str(r#"{"hidden": 32}"#).unwrap();
    assert_eq!(c, TrainConfig { hidden: 32, ..TrainConfig::default() });
}

/// Throughput on ~1M random wells at H = 48:
/// `cargo test --release -p hatetris-learn -- --ignored --nocapture throughput`.
#[test]
#[ignore]
fn throughput() {
    let data = synthetic(1_000_000, 9);
    let features = Features::extract(&data, Loss::Mse);
    let counts: usize = features.feats.iter().map(|p| p.1 as usize).sum();
    println!("{} features, {} distinct per sample", counts as f64 / 1e6, features.feats.len() as f64 / 1e6);
    let config = TrainConfig { max_epochs: 2, patience: 5, ..TrainConfig::default() };
    train(&data, None, &config, &mut |e| println!("{}", serde_json::to_string(e).unwrap())).unwrap();
}
