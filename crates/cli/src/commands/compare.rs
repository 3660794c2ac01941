//! `hatetris compare`: paired differences of stored `strength --json`
//! results, per suite and pooled over all the suites given.

use crate::commands::strength::{number, paired_json};
use anyhow::{bail, Context, Result};
use clap::Args;
use hatetris_strength::compare::{compare, Comparison, Measurement};
use hatetris_strength::stats::Paired;
use serde_json::{json, Value};
use std::path::Path;

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// `strength --json` outputs in pairs, A then B (A minus B is reported):
    /// `a.json b.json [a2.json b2.json ...]`, each pair measured on one suite
    /// with the same settings. `FILE#1` reads a file's second evaluator
    /// (the `--vs` side).
    #[arg(required = true, num_args = 2..)]
    pub files: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `FILE` or `FILE#N`; a path that exists as written is never split.
fn read(arg: &str) -> Result<Measurement> {
    let (path, index) = match arg.rsplit_once('#') {
        Some((p, n)) if !Path::new(arg).exists() => {
            (p, n.parse::<usize>().with_context(|| format!("{arg}: the index after # is not a number"))?)
        }
        _ => (arg, 0),
    };
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    Ok(Measurement::parse(arg, &text, index)?)
}

const NO_FROZEN: &str =
    "no start measured on both sides (lines too short, or a file written before strength reported them)";

fn side(m: &Measurement) -> Value {
    json!({
        "file": m.name,
        "eval": m.eval,
        "mean_pieces": number(m.mean_pieces()),
        "mean_lines": number(m.mean_lines()),
        "mean_frozen_per_100": number(m.mean_frozen_per_100()),
    })
}

/// The paired differences as `strength --vs` writes them.
fn paired_all(c: &Comparison) -> Value {
    json!({"pieces": paired_json(&c.pieces), "lines": paired_json(&c.lines), "frozen_per_100": paired_json(&c.frozen)})
}

pub fn compare_files(args: &CompareArgs) -> Result<()> {
    if !args.files.len().is_multiple_of(2) {
        bail!("{} files given: compare takes them in pairs, A then B", args.files.len());
    }
    let mut pairs = Vec::new();
    for chunk in args.files.chunks(2) {
        pairs.push((read(&chunk[0])?, read(&chunk[1])?));
    }
    // `compare` checks that each pair can be paired.
    let each: Vec<Comparison> = pairs.iter().map(|p| compare(std::slice::from_ref(p))).collect::<Result<_, _>>()?;
    let pooled = compare(&pairs)?;
    if args.json {
        let rows: Vec<_> = pairs
            .iter()
            .zip(&each)
            .map(|((a, b), c)| {
                json!({
                    "a": side(a),
                    "b": side(b),
                    "suite": a.suite,
                    "paired": paired_all(c),
                })
            })
            .collect();
        let out = json!({"pairs": rows, "pooled": paired_all(&pooled)});
        println!("{out}");
        return Ok(());
    }
    let line = |p: &Paired| {
        format!(
            "{:+.2} [{:+.2}, {:+.2}] (wins {}, losses {}, ties {})",
            p.mean_diff, p.ci95.0, p.ci95.1, p.wins, p.losses, p.ties
        )
    };
    for ((a, b), c) in pairs.iter().zip(&each) {
        println!("{} ({}) minus {} ({}), suite {}, {} starts:", a.name, a.eval, b.name, b.eval, a.suite, c.pieces.n);
        println!("  pieces survived {:.2} against {:.2}: {}", a.mean_pieces(), b.mean_pieces(), line(&c.pieces));
        println!("  lines added {:.2} against {:.2}: {}", a.mean_lines(), b.mean_lines(), line(&c.lines));
        if c.frozen.n == 0 {
            println!("  rows frozen per 100 pieces: {NO_FROZEN}");
        } else {
            println!(
                "  rows frozen per 100 pieces {:.3} against {:.3} (each side's measured starts); paired over the {} both measured: {}",
                a.mean_frozen_per_100(),
                b.mean_frozen_per_100(),
                c.frozen.n,
                line(&c.frozen)
            );
        }
    }
    if pairs.len() > 1 {
        println!("pooled, {} starts:", pooled.pieces.n);
        println!("  pieces survived {}", line(&pooled.pieces));
        println!("  lines added {}", line(&pooled.lines));
        if pooled.frozen.n == 0 {
            println!("  rows frozen per 100 pieces: {NO_FROZEN}");
        } else {
            println!("  rows frozen per 100 pieces ({} starts): {}", pooled.frozen.n, line(&pooled.frozen));
        }
    }
    Ok(())
}
