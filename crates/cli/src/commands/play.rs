//! `hatetris play`: the main job. A full game from the empty well with the
//! default network, printed as a score and a Base2048 replay to paste into
//! the official game.

use crate::commands::search::{load_evaluator, run_search};
use anyhow::{bail, Result};
use clap::Args;
use hatetris_game::replay::Format;
use hatetris_game::{Enemy, Rules};
use hatetris_search::{BeamState, SearchConfig};

/// `play`'s defaults: the default network (gen-b's generation 34) with
/// damped record chains (depth 4, blend 0.5) at width 9,000: 120 lines in
/// about 61 s on two cores. From the empty well, where `play` always
/// starts, that network plays longer with those chains than a plain beam
/// given the same time (`docs/runs/default34/`); every other command keeps
/// chains off unless asked.
#[derive(Args, Debug)]
#[command(mut_arg("quiescence", |a| a.default_value("4")), mut_arg("chain_blend", |a| a.default_value("0.5")))]
pub struct PlayArgs {
    /// Beam width: wider usually plays longer and takes longer (the default
    /// takes about 61 seconds and 75 MB on two cores with nothing else
    /// running). One game is one draw: the README lists the lines each
    /// width gives.
    #[arg(long, default_value_t = 9_000)]
    pub width: usize,
    /// Seed for tie-breaks: the same seed and width give the same game.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The evaluator, named as `search --eval` names it (default: `net`,
    /// the embedded default network; `play` is gen-b's generation 25, which
    /// this command used before).
    #[arg(long, default_value = "net")]
    pub eval: String,
    /// The chains, as every searching command takes them, with `play`'s
    /// defaults (set on the struct; `--quiescence 0` turns them off).
    #[command(flatten)]
    pub chains: crate::commands::ChainArgs,
    /// No progress output.
    #[arg(long)]
    pub quiet: bool,
}

pub fn play(args: &PlayArgs) -> Result<()> {
    if args.width == 0 {
        bail!("--width must be at least 1");
    }
    crate::checks::width("width", args.width)?;
    let chains = args.chains.chains()?;
    let (eval, name) = load_evaluator(&args.eval)?;
    let config = SearchConfig {
        width: args.width,
        seed: args.seed,
        rules: Rules::STANDARD,
        enemy: Enemy::Hatetris,
        quiescence: chains.depth,
        chain_rule: chains.rule,
        chain_band: chains.band,
        chain_blend: chains.blend,
        chain_follow: chains.follow,
        ..SearchConfig::default()
    };
    let done = run_search(&config, eval.as_ref(), &name, BeamState::new(), None, args.quiet, Format::Base2048)?;
    println!("score {}", done.verified_score);
    println!("{}", done.replay);
    Ok(())
}
