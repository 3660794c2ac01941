//! `hatetris strength`: how far an evaluator's beam gets from the starts of
//! a suite, and with `--vs` whether it beats another evaluator on the same
//! starts (paired differences and their 95% interval).

use crate::commands::search::load_evaluator;
use anyhow::{bail, Result};
use clap::Args;
use hatetris_eval::Evaluator;
use hatetris_strength::stats::{paired, paired_where_both, Paired};
use hatetris_strength::{measure, summarize, StartResult, Suite, Summary};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct StrengthArgs {
    /// The evaluator measured: `baseline`, `net`, `net=PATH`, `mirror:E` or `mean=A,B,...`,
    /// as `search --eval`.
    #[arg(long)]
    pub eval: String,
    /// A second evaluator, measured on the same starts and compared.
    #[arg(long)]
    pub vs: Option<String>,
    /// The suite: `default` (embedded: every 25th piece of three long public games),
    /// `steady` (embedded: every 25th piece after piece 500 of gen-b's three longest
    /// master games, where its games bury their well), or a suite file (`./steady` for a
    /// file of that name).
    #[arg(long, default_value = "default")]
    pub suite: PathBuf,
    /// Beam width of each search.
    #[arg(long, default_value_t = 1000)]
    pub width: usize,
    /// Pieces searched from each start at most.
    #[arg(long, default_value_t = 250)]
    pub pieces: usize,
    #[command(flatten)]
    pub chains: crate::commands::ChainArgs,
    /// Seed for tie-breaks.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub run: crate::commands::RunArgs,
}

/// Two evaluators' paired differences, start by start.
struct Pairs {
    pieces: Paired,
    lines: Paired,
    frozen: Paired,
}

/// One evaluator's measurement.
struct Measured {
    name: String,
    results: Vec<StartResult>,
    summary: Summary,
}

pub fn strength(args: &StrengthArgs) -> Result<()> {
    if args.width == 0 || args.pieces == 0 {
        bail!("--width and --pieces must be at least 1");
    }
    crate::checks::width("width", args.width)?;
    args.chains.chains()?;
    args.run.start_pool()?;
    let suite_name = args.suite.display().to_string();
    let suite = match Suite::embedded(&suite_name) {
        Some(suite) => suite,
        None => Suite::load(&args.suite)?,
    };
    if suite.starts.is_empty() {
        bail!("suite {suite_name} has no starts");
    }
    // Both evaluators load before either measures: a bad --vs fails at once.
    let mut evals = vec![load_evaluator(&args.eval)?];
    if let Some(vs) = &args.vs {
        evals.push(load_evaluator(vs)?);
    }
    let measured: Vec<Measured> = evals.iter().map(|(eval, name)| run_one(&suite, eval.as_ref(), name, args)).collect();
    let pairs = (measured.len() == 2).then(|| {
        let (a, b) = (&measured[0].results, &measured[1].results);
        let pieces = |r: &[StartResult]| r.iter().map(|r| r.pieces_survived as f64).collect::<Vec<_>>();
        let lines = |r: &[StartResult]| r.iter().map(|r| r.lines_added as f64).collect::<Vec<_>>();
        // Rows frozen: the starts where both lines are long enough to measure.
        let frozen = |r: &[StartResult]| r.iter().map(|r| r.frozen_per_100).collect::<Vec<_>>();
        Pairs {
            pieces: paired(&pieces(a), &pieces(b)),
            lines: paired(&lines(a), &lines(b)),
            frozen: paired_where_both(&frozen(a), &frozen(b)),
        }
    });
    if args.json {
        println!("{}", to_json(&suite, &suite_name, args, &measured, pairs.as_ref()));
    } else {
        print_text(&suite, &suite_name, args, &measured, pairs.as_ref());
    }
    Ok(())
}

fn run_one(suite: &Suite, eval: &dyn Evaluator, name: &str, args: &StrengthArgs) -> Measured {
    let started = Instant::now();
    let mut last_log = Instant::now();
    let quiet = args.run.quiet;
    let results =
        measure(suite, eval, args.width, args.pieces, args.chains.unchecked(), args.seed, &mut |done, total| {
            if !quiet && (done == total || last_log.elapsed().as_secs() >= 5) {
                eprintln!("strength {name}: {done}/{total} starts, {:.1}s", started.elapsed().as_secs_f64());
                last_log = Instant::now();
            }
        });
    let summary = summarize(&results);
    Measured { name: name.to_string(), results, summary }
}

/// JSON has no NaN: an undefined statistic is null.
pub(crate) fn number(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

pub(crate) fn paired_json(p: &Paired) -> Value {
    json!({
        "n": p.n,
        "mean": number(p.mean_diff),
        "ci95": [number(p.ci95.0), number(p.ci95.1)],
        "wins": p.wins,
        "losses": p.losses,
        "ties": p.ties,
    })
}

fn to_json(
    suite: &Suite,
    suite_name: &str,
    args: &StrengthArgs,
    measured: &[Measured],
    pairs: Option<&Pairs>,
) -> Value {
    let evals: Vec<Value> = measured
        .iter()
        .map(|m| {
            let starts: Vec<Value> = suite
                .starts
                .iter()
                .zip(&m.results)
                .map(|(s, r)| {
                    json!({
                        "source": s.source,
                        "piece": s.piece,
                        "score": s.score,
                        "pieces": r.pieces_survived,
                        "lines": r.lines_added,
                        "value": number(r.value as f64),
                        "frozen_per_100": r.frozen_per_100.map_or(Value::Null, number),
                    })
                })
                .collect();
            json!({
                "eval": m.name,
                "mean_pieces": number(m.summary.mean_pieces),
                "mean_lines": number(m.summary.mean_lines),
                "lines_per_piece": number(m.summary.lines_per_piece),
                "rank_correlation": number(m.summary.rank_correlation),
                "mean_frozen_per_100": number(m.summary.mean_frozen_per_100),
                "frozen_starts": m.summary.frozen_starts,
                "starts": starts,
            })
        })
        .collect();
    let mut out = json!({
        "suite": suite_name,
        "width": args.width,
        "pieces": args.pieces,
        "quiescence": args.chains.quiescence,
        "chain_rule": args.chains.chain_rule.name(),
        "chain_band": args.chains.chain_band,
        "chain_blend": args.chains.chain_blend,
        "chain_follow": args.chains.chain_follow,
        "seed": args.seed,
        "evals": evals,
    });
    if let Some(p) = pairs {
        out["paired"] = json!({
            "pieces": paired_json(&p.pieces),
            "lines": paired_json(&p.lines),
            "frozen_per_100": paired_json(&p.frozen),
        });
    }
    out
}

fn print_text(suite: &Suite, suite_name: &str, args: &StrengthArgs, measured: &[Measured], pairs: Option<&Pairs>) {
    for m in measured {
        println!(
            "{}: suite {suite_name} ({} starts), width {}, at most {} pieces, chains {} {}, seed {}",
            m.name,
            suite.starts.len(),
            args.width,
            args.pieces,
            args.chains.chain_rule,
            args.chains.quiescence,
            args.seed
        );
        println!("{:<16} {:>6} {:>9} {:>6} {:>7}", "source", "piece", "survived", "lines", "frozen");
        for (s, r) in suite.starts.iter().zip(&m.results) {
            let frozen = r.frozen_per_100.map_or("-".to_string(), |f| format!("{f:.2}"));
            println!("{:<16} {:>6} {:>9} {:>6} {:>7}", s.source, s.piece, r.pieces_survived, r.lines_added, frozen);
        }
        let sm = &m.summary;
        println!("mean pieces survived {:.2}", sm.mean_pieces);
        println!("mean lines added {:.2}", sm.mean_lines);
        println!("lines a piece {:.4}", sm.lines_per_piece);
        println!(
            "rows frozen per 100 pieces {:.3} (mean over the {} starts whose line is long enough to measure)",
            sm.mean_frozen_per_100, sm.frozen_starts
        );
        println!("rank correlation of the start's value with pieces survived {:.3}", sm.rank_correlation);
        println!();
    }
    if let Some(pairs) = pairs {
        println!("paired differences, {} minus {} ({} starts):", measured[0].name, measured[1].name, pairs.pieces.n);
        let frozen = format!("rows frozen per 100 pieces ({} starts)", pairs.frozen.n);
        for (what, p) in
            [("pieces survived", &pairs.pieces), ("lines added", &pairs.lines), (frozen.as_str(), &pairs.frozen)]
        {
            println!(
                "{what}: mean {:+.2}, 95% CI [{:+.2}, {:+.2}], wins {} losses {} ties {}",
                p.mean_diff, p.ci95.0, p.ci95.1, p.wins, p.losses, p.ties
            );
            println!(
                "{what}: {}",
                if p.excludes_zero() {
                    "the interval excludes 0 (a difference at the 5% level)"
                } else {
                    "the interval includes 0 (no difference shown)"
                }
            );
        }
    }
}
