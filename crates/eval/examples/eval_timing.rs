//! Rough ns per evaluation: `cargo run --release -p hatetris-eval --example eval_timing`
//! (`ONLY_BASELINE=1` for the baseline alone, e.g. under perf). The real
//! benchmark is `hatetris bench`; this is a quick check.

use hatetris_eval::{active_features, Baseline, Evaluator, Network};
use std::hint::black_box;
use std::time::Instant;

/// A few realistic mid-game wells (16 playable rows, top first), drawn as
/// text: '#' filled, '.' empty; missing top rows are empty.
fn wells() -> Vec<Vec<u16>> {
    let drawings: [&[&str]; 6] = [
        &[],
        &["........##", "#.....####", "##.#######"],
        &[
            "...##.....",
            "..####..#.",
            "######.###",
            "####.#####",
            "#.########",
        ],
        &[
            ".#........",
            "##....##..",
            "###..####.",
            "#########.",
            ".#########",
            "####.#####",
            "##.#######",
        ],
        &[
            "....#.....",
            "...###....",
            "#.#####..#",
            "######.###",
            "#.########",
            "####.#####",
            "#######.##",
            "##.#######",
            "#########.",
        ],
        &[
            "#.........",
            "##.....#..",
            "###.#####.",
            "#.#######.",
            "#########.",
            "##.#######",
            ".#########",
            "####.#####",
            "#.########",
            "#######.##",
            "###.######",
            "########.#",
        ],
    ];
    drawings
        .iter()
        .map(|d| {
            let mut rows = vec![0u16; 16 - d.len()];
            rows.extend(d.iter().map(|s| {
                s.bytes()
                    .enumerate()
                    .filter(|&(_, c)| c == b'#')
                    .map(|(i, _)| 1u16 << i)
                    .sum::<u16>()
            }));
            rows
        })
        .collect()
}

fn time(name: &str, iters: usize, wells: &[Vec<u16>], mut f: impl FnMut(&[u16]) -> f32) {
    let mut sink = 0.0;
    for w in wells {
        sink += f(w); // warm up
    }
    let start = Instant::now();
    for _ in 0..iters {
        for w in wells {
            sink += f(black_box(w));
        }
    }
    let ns = start.elapsed().as_nanos() as f64 / (iters * wells.len()) as f64;
    println!("{name:<40} {ns:>10.1} ns/eval   (checksum {sink:.3})");
}

fn main() {
    let wells = wells();
    let net = Network::embedded_default();
    let net24 = Network::random(24, 1);
    time("baseline", 2_000_000, &wells, |w| Baseline.evaluate(w));
    time("network h48 evaluate(rows)", 200_000, &wells, |w| {
        net.evaluate(w)
    });
    time("network h24 evaluate(rows)", 200_000, &wells, |w| {
        net24.evaluate(w)
    });
    if std::env::var("ONLY_BASELINE").is_ok() {
        time("baseline", 20_000_000, &wells, |w| Baseline.evaluate(w));
        return;
    }
    for (i, w) in wells.iter().enumerate() {
        let stack = w.iter().filter(|&&r| r != 0).count();
        time(
            &format!("  h48 evaluate, well {i} ({stack} rows)"),
            500_000,
            std::slice::from_ref(w),
            |w| net.evaluate(w),
        );
    }
    {
        let refs: Vec<&[u16]> = wells.iter().map(|w| &w[..]).collect();
        let mut out = vec![0.0; refs.len()];
        let iters = 200_000;
        let start = Instant::now();
        let mut sink = 0.0;
        for _ in 0..iters {
            net.evaluate_batch(black_box(&refs), &mut out);
            sink += out[0];
        }
        let ns = start.elapsed().as_nanos() as f64 / (iters * refs.len()) as f64;
        println!(
            "{:<40} {ns:>10.1} ns/eval   (checksum {sink:.3})",
            "network h48 evaluate_batch"
        );
    }
    let mut feats = Vec::with_capacity(160);
    time("active_features only", 500_000, &wells, |w| {
        feats.clear();
        active_features(w, &mut feats);
        feats.len() as f32
    });
    time(
        "network h48 features + forward_features",
        200_000,
        &wells,
        |w| {
            feats.clear();
            active_features(w, &mut feats);
            net.forward_features(&feats)
        },
    );
    time("network h48 reference_forward", 500, &wells, |w| {
        net.reference_forward(w)
    });
    for w in &wells {
        println!(
            "  eval baseline {:+.4}  net {:+.4}  ref {:+.4}",
            Baseline.evaluate(w),
            net.evaluate(w),
            net.reference_forward(w)
        );
    }
}
