// Prototype: learning during the master search.
use hatetris_eval::{Evaluator, Network, QuantizedNetwork};
use hatetris_game::{Rules, Well};
use hatetris_learn::cycle::{refine_pairs, targets_from_pairs, RefineConfig};
use hatetris_learn::dataset::Sample;
use hatetris_learn::train::{train, TrainConfig};
use hatetris_search::{verified_replay, BeamState};
use online::{arg, master_search};
use rand::seq::index::sample;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let net_path = arg("--net", concat!(env!("CARGO_MANIFEST_DIR"), "/../../../../crates/eval/nets/play.hnet"));
    let width: usize = arg("--width", "20000").parse().unwrap();
    let every: usize = arg("--every", "0").parse().unwrap();
    let seed: u64 = arg("--seed", "7").parse().unwrap();
    let per_depth: usize = arg("--per-depth", "128").parse().unwrap();
    let lr: f32 = arg("--lr", "0.001").parse().unwrap();
    let epochs: usize = arg("--epochs", "100").parse().unwrap();
    let window: usize = arg("--window", "0").parse().unwrap();
    let start_at: usize = arg("--start", "0").parse().unwrap();
    let threads: usize = arg("--threads", "1").parse().unwrap();
    rayon::ThreadPoolBuilder::new().num_threads(threads).build_global().unwrap();
    let rules = Rules::with_height(16).unwrap();
    let mut net = Network::load(std::path::Path::new(&net_path)).unwrap();
    let mut q: Arc<dyn Evaluator> = Arc::new(QuantizedNetwork::new(&net));
    let cfg = master_search(width, rules, seed);
    let rc = RefineConfig { width: 512, depth: 10, ..Default::default() };
    // gen-b's learn step: the training defaults (batch 8,192, patience 3,
    // a tenth held out, squared error) with this run's step and epochs.
    let tc = TrainConfig { hidden: net.hidden, seed, learning_rate: lr, max_epochs: epochs, ..TrainConfig::default() };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = BeamState::new();
    let mut pending: Vec<Well> = Vec::new();
    let mut data: Vec<Vec<Sample>> = Vec::new();
    let t = Instant::now();
    let (mut search_s, mut refine_s, mut learn_s) = (0.0, 0.0, 0.0);
    while !state.is_finished(&cfg) {
        let t0 = Instant::now();
        state.step(&cfg, q.as_ref());
        search_s += t0.elapsed().as_secs_f64();
        if state.beam.is_empty() {
            break;
        }
        let k = per_depth.min(state.beam.len());
        for i in sample(&mut rng, state.beam.len(), k) {
            pending.push(state.beam[i].well);
        }
        if state.depth % 10 == 0 {
            eprintln!("depth {} lines {} t {:.0}s", state.depth, state.best_score, t.elapsed().as_secs_f64());
        }
        if every > 0 && state.depth % every == 0 && state.depth >= start_at {
            let t1 = Instant::now();
            let pairs = refine_pairs(&pending, rules, &rc, q.as_ref(), seed, &mut |_| {});
            let targets = targets_from_pairs(pairs, None, &rc);
            data.push(pending.iter().zip(targets).map(|(w, t)| Sample::new(w.playable(rules), t)).collect());
            pending.clear();
            refine_s += t1.elapsed().as_secs_f64();
            let t2 = Instant::now();
            let from = if window > 0 { data.len().saturating_sub(window) } else { 0 };
            let all: Vec<Sample> = data[from..].iter().flatten().copied().collect();
            let r = train(&all, Some(net.clone()), &tc, &mut |_| {}).unwrap();
            learn_s += t2.elapsed().as_secs_f64();
            eprintln!(
                "depth {} learned on {} wells: {} epochs, validation {:.5} ({:.0}s refine, {:.0}s learn)",
                state.depth,
                all.len(),
                r.epochs.len(),
                r.best_validation_loss,
                t1.elapsed().as_secs_f64() - t2.elapsed().as_secs_f64(),
                t2.elapsed().as_secs_f64()
            );
            net = r.network;
            q = Arc::new(QuantizedNetwork::new(&net));
        } else if every > 0 && state.depth < start_at {
            pending.clear();
        }
    }
    let result = state.result();
    let v = verified_replay(rules, cfg.enemy, &result.moves, hatetris_game::replay::Format::Base2048).unwrap();
    println!(
        "width {} every {} seed {} lr {} window {} start {}: {} lines, {} pieces; search {:.0}s refine {:.0}s learn {:.0}s total {:.0}s",
        width, every, seed, lr, window, start_at, v.score, result.moves.len(), search_s, refine_s, learn_s,
        t.elapsed().as_secs_f64()
    );
    println!("replay {}", v.replay);
    let out = arg("--save", "");
    if !out.is_empty() {
        net.save(std::path::Path::new(&out)).unwrap();
    }
}
