//! `hatetris games`: many full games from the empty well, each opened with
//! seeded noise so that they differ; their mean lines, pieces and rows
//! frozen per 100 pieces, and with `--vs` the difference from another
//! evaluator's games (Welch's interval: the games are not paired).

use crate::commands::search::load_evaluator;
use crate::commands::strength::number;
use anyhow::{bail, Context, Result};
use clap::Args;
use hatetris_eval::Evaluator;
use hatetris_strength::games::{compare_games, play_games, summarize_games, GameResult, GamesConfig, Unpaired};
use serde_json::{json, Value};
use std::time::Instant;

#[derive(Args, Debug)]
pub struct GamesArgs {
    /// The evaluator: `baseline`, `net`, `net=PATH`, `mirror:E` or `mean=A,B,...`, as `search --eval`.
    #[arg(long, default_value = "net")]
    pub eval: String,
    /// A second evaluator whose games are compared with the first's.
    #[arg(long)]
    pub vs: Option<String>,
    /// Games per evaluator.
    #[arg(long, default_value_t = 40)]
    pub games: usize,
    /// Beam width of every game.
    #[arg(long, default_value_t = 10_000)]
    pub width: usize,
    /// Pieces of each game's noisy opening.
    #[arg(long, default_value_t = 20)]
    pub open: usize,
    /// Amplitude of the opening's noise on the values.
    #[arg(long, default_value_t = 0.3)]
    pub noise: f64,
    /// Seeds the openings' noise: the same seed gives the same games.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[command(flatten)]
    pub chains: crate::commands::ChainArgs,
    /// Print one JSON object (with every game's replay) instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub run: crate::commands::RunArgs,
}

/// Games per evaluator past which a run is a typo (each is a whole search).
const MAX_GAMES: usize = 100_000;

struct Played {
    name: String,
    games: Vec<GameResult>,
}

pub fn games(args: &GamesArgs) -> Result<()> {
    if args.games == 0 || args.width == 0 {
        bail!("--games and --width must be at least 1");
    }
    crate::checks::count("games", args.games, MAX_GAMES)?;
    crate::checks::width("width", args.width)?;
    if !(args.noise.is_finite() && args.noise >= 0.0) {
        bail!("--noise must be a number at least 0");
    }
    args.run.start_pool()?;
    let mut evals = vec![load_evaluator(&args.eval)?];
    if let Some(vs) = &args.vs {
        evals.push(load_evaluator(vs)?);
    }
    let config = GamesConfig {
        games: args.games,
        width: args.width,
        open: args.open,
        noise: args.noise as f32,
        seed: args.seed,
        chains: args.chains.chains()?,
    };
    let mut played = Vec::new();
    for (eval, name) in &evals {
        played.push(Played { name: name.clone(), games: play(eval.as_ref(), name, &config, args.run.quiet)? });
    }
    let compared = (played.len() == 2).then(|| compare_games(&played[0].games, &played[1].games));
    if args.json {
        println!("{}", to_json(args, &played, compared.as_ref()));
    } else {
        print_text(args, &played, compared.as_ref());
    }
    Ok(())
}

fn play(eval: &dyn Evaluator, name: &str, config: &GamesConfig, quiet: bool) -> Result<Vec<GameResult>> {
    let started = Instant::now();
    let mut last_log = Instant::now();
    play_games(eval, config, &mut |done, total| {
        if !quiet && (done == total || last_log.elapsed().as_secs() >= 5) {
            eprintln!("games {name}: {done}/{total}, {:.1}s", started.elapsed().as_secs_f64());
            last_log = Instant::now();
        }
    })
    .context("a game's line does not replay")
}

fn unpaired_json(u: &Unpaired) -> Value {
    json!({ "a": number(u.mean_a), "b": number(u.mean_b), "diff": number(u.diff), "ci95": [number(u.ci95.0), number(u.ci95.1)] })
}

fn to_json(args: &GamesArgs, played: &[Played], compared: Option<&(Unpaired, Unpaired)>) -> Value {
    let mut evals = Vec::new();
    for p in played {
        let mut games = Vec::new();
        for g in &p.games {
            games.push(json!({
                "pieces": g.pieces,
                "lines": g.lines,
                "frozen_per_100": g.frozen_per_100.map_or(Value::Null, number),
                "replay": g.replay,
            }));
        }
        let summary = summarize_games(&p.games);
        evals.push(json!({
            "eval": p.name,
            "mean_pieces": number(summary.mean_pieces),
            "mean_lines": number(summary.mean_lines),
            "mean_frozen_per_100": number(summary.mean_frozen_per_100),
            "distinct": summary.distinct,
            "games": games,
        }));
    }
    let mut out = json!({
        "games": args.games,
        "width": args.width,
        "open": args.open,
        "noise": args.noise,
        "seed": args.seed,
        "quiescence": args.chains.quiescence,
        "chain_rule": args.chains.chain_rule.name(),
        "chain_band": args.chains.chain_band,
        "chain_blend": args.chains.chain_blend,
        "chain_follow": args.chains.chain_follow,
        "evals": evals,
    });
    if let Some((pieces, lines)) = compared {
        out["welch"] = json!({ "pieces": unpaired_json(pieces), "lines": unpaired_json(lines) });
    }
    out
}

fn print_text(args: &GamesArgs, played: &[Played], compared: Option<&(Unpaired, Unpaired)>) {
    for p in played {
        println!(
            "{}: {} games at width {}, each opened by {} pieces with noise {} (seed {})",
            p.name, args.games, args.width, args.open, args.noise, args.seed
        );
        let lines: Vec<String> = p.games.iter().map(|g| g.lines.to_string()).collect();
        println!("lines {}", lines.join(" "));
        let summary = summarize_games(&p.games);
        println!(
            "{} distinct endings (games that end in the same well after the same pieces count once)",
            summary.distinct
        );
        println!(
            "mean lines {:.2}, mean pieces {:.1}, rows frozen per 100 pieces {:.2}",
            summary.mean_lines, summary.mean_pieces, summary.mean_frozen_per_100
        );
        println!();
    }
    if let Some((pieces, lines)) = compared {
        for (what, u) in [("lines", lines), ("pieces", pieces)] {
            println!(
                "{what} {:.2} against {:.2}: {:+.2} [{:+.2}, {:+.2}] (Welch, 95%)",
                u.mean_a, u.mean_b, u.diff, u.ci95.0, u.ci95.1
            );
        }
    }
}
