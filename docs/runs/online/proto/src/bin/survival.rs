// Diagnostic: do the refine step's values tell which of a depth's beam
// entries the master search itself keeps alive H pieces later?
use hatetris_eval::{Evaluator, Network, QuantizedNetwork};
use hatetris_game::{Rules, Well};
use hatetris_learn::cycle::{refine_pairs, RefineConfig};
use hatetris_search::BeamState;
use online::{arg, master_search};
use rand::seq::index::sample;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

/// P(score of a survivor > score of a non-survivor), ties half; None
/// without both kinds.
fn auc(scores: &[(f32, bool)]) -> Option<(f64, usize)> {
    let pos: Vec<f32> = scores.iter().filter(|s| s.1).map(|s| s.0).collect();
    let neg: Vec<f32> = scores.iter().filter(|s| !s.1).map(|s| s.0).collect();
    if pos.is_empty() || neg.is_empty() {
        return None;
    }
    let mut wins = 0.0;
    for p in &pos {
        for n in &neg {
            wins += if p > n {
                1.0
            } else if p == n {
                0.5
            } else {
                0.0
            };
        }
    }
    let pairs = pos.len() * neg.len();
    Some((wins / pairs as f64, pairs))
}

fn main() {
    let net_path = arg("--net", concat!(env!("CARGO_MANIFEST_DIR"), "/../../../../crates/eval/nets/play.hnet"));
    let width: usize = arg("--width", "20000").parse().unwrap();
    let seed: u64 = arg("--seed", "2654435776").parse().unwrap();
    let per_depth: usize = arg("--per-depth", "128").parse().unwrap();
    let horizons: Vec<usize> = arg("--horizons", "10,25,50").split(',').map(|h| h.parse().unwrap()).collect();
    let threads: usize = arg("--threads", "1").parse().unwrap();
    rayon::ThreadPoolBuilder::new().num_threads(threads).build_global().unwrap();
    let rules = Rules::with_height(16).unwrap();
    let net = Network::load(std::path::Path::new(&net_path)).unwrap();
    let q = QuantizedNetwork::new(&net);
    let cfg = master_search(width, rules, seed);
    // With --value-nets: only each network's own value of the same
    // samples (no lookahead), to compare networks on one search's beams;
    // loaded before the search, so that a wrong path fails at once.
    let value_nets: Vec<(String, QuantizedNetwork)> = arg("--value-nets", "")
        .split(',')
        .filter(|p| !p.is_empty())
        .map(|p| (p.to_string(), QuantizedNetwork::new(&Network::load(std::path::Path::new(p)).unwrap())))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = BeamState::new();
    // Per depth: the sampled wells.
    let mut sampled: Vec<Vec<Well>> = vec![Vec::new()];
    // Per horizon, per depth: the wells whose lines are in the beam H later.
    let mut alive: Vec<Vec<HashSet<u64>>> = vec![vec![HashSet::new()]; horizons.len()];
    while !state.is_finished(&cfg) {
        state.step(&cfg, &q);
        if state.beam.is_empty() {
            break;
        }
        let d = state.depth;
        let k = per_depth.min(state.beam.len());
        sampled.push(sample(&mut rng, state.beam.len(), k).into_iter().map(|i| state.beam[i].well).collect());
        for (hi, &h) in horizons.iter().enumerate() {
            alive[hi].push(HashSet::new());
            if d > h {
                let set: HashSet<u64> = state
                    .beam
                    .iter()
                    .map(|e| state.tree.node(state.tree.ancestor_at(e.node, (d - h) as u32)).well_hash)
                    .collect();
                alive[hi][d - h] = set;
            }
        }
    }
    let last = state.depth;
    eprintln!("game: {} lines, {} pieces", state.best_score, state.pieces_survived());
    let hmax = *horizons.iter().max().unwrap();
    let upto = last.saturating_sub(hmax + 1);
    let thirds = [(1, upto / 3), (upto / 3 + 1, 2 * upto / 3), (2 * upto / 3 + 1, upto)];
    if !value_nets.is_empty() {
        println!("network\thorizon\tdepths\tauc_value");
        for (path, v) in &value_nets {
            for (hi, &h) in horizons.iter().enumerate() {
                for band in thirds {
                    let (mut sum, mut weight) = (0.0f64, 0.0f64);
                    for d in band.0..=band.1 {
                        let scored: Vec<(f32, bool)> = sampled[d]
                            .iter()
                            .map(|w| (v.evaluate(&w.playable(rules)), alive[hi][d].contains(&w.hash64())))
                            .collect();
                        if let Some((a, pairs)) = auc(&scored) {
                            sum += a * pairs as f64;
                            weight += pairs as f64;
                        }
                    }
                    println!("{path}\t{h}\t{}-{}\t{:.3}", band.0, band.1, sum / weight);
                }
            }
        }
        return;
    }
    // The lookahead of every sampled well up to the last labelled depth.
    let rc = RefineConfig { width: 512, depth: 10, ..Default::default() };
    let wells: Vec<Well> = sampled[1..=upto].iter().flatten().copied().collect();
    let pairs = refine_pairs(&wells, rules, &rc, &q, seed, &mut |_| {});
    println!("horizon\tdepths\tshare_alive\tauc_value\tauc_lookahead\tauc_target");
    for (hi, &h) in horizons.iter().enumerate() {
        for band in thirds {
            let mut i = 0;
            let mut sums = [0.0f64; 3];
            let mut weight = 0.0f64;
            let (mut alive_n, mut total) = (0usize, 0usize);
            for (d, wells_d) in sampled.iter().enumerate().take(upto + 1).skip(1) {
                let n = wells_d.len();
                if d >= band.0 && d <= band.1 {
                    let labels: Vec<bool> = wells_d.iter().map(|w| alive[hi][d].contains(&w.hash64())).collect();
                    alive_n += labels.iter().filter(|&&l| l).count();
                    total += n;
                    let p = &pairs[i..i + n];
                    let x: Vec<(f32, bool)> = p.iter().zip(&labels).map(|(p, &l)| (p.0, l)).collect();
                    let y: Vec<(f32, bool)> = p.iter().zip(&labels).map(|(p, &l)| (p.1, l)).collect();
                    let t: Vec<(f32, bool)> =
                        p.iter().zip(&labels).map(|(p, &l)| (p.0 + 0.5 * (p.1 - p.0), l)).collect();
                    if let (Some(a), Some(b), Some(c)) = (auc(&x), auc(&y), auc(&t)) {
                        let w = a.1 as f64;
                        sums[0] += a.0 * w;
                        sums[1] += b.0 * w;
                        sums[2] += c.0 * w;
                        weight += w;
                    }
                }
                i += n;
            }
            println!(
                "{h}\t{}-{}\t{:.3}\t{:.3}\t{:.3}\t{:.3}",
                band.0,
                band.1,
                alive_n as f64 / total.max(1) as f64,
                sums[0] / weight,
                sums[1] / weight,
                sums[2] / weight
            );
        }
    }
}
