//! `hatetris play`: the main job. A full game from the empty well with the
//! default network, printed as a score and a Base2048 replay to paste into
//! the official game.

use crate::commands::search::{load_evaluator, run_search};
use anyhow::{bail, Result};
use clap::Args;
use hatetris_game::replay::Format;
use hatetris_game::{Enemy, Rules};
use hatetris_search::{BeamState, SearchConfig};

/// `play`'s defaults: the default network without chains at width 63,000
/// (132 lines in about 100 s and 360 MB on two cores). From the empty well,
/// where `play` always starts, that network plays longer without chains
/// than with them for the same time (`docs/runs/play/plain29/`), so the
/// chains stay off here as in every other command.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Beam width: wider usually plays longer and takes longer (the default
    /// takes about 100 seconds and 360 MB on two cores with nothing else
    /// running). One game is one draw: the README lists the lines each
    /// width gives.
    #[arg(long, default_value_t = 63_000)]
    pub width: usize,
    /// Seed for tie-breaks: the same seed and width give the same game.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The evaluator, named as `search --eval` names it (default: `net`,
    /// the embedded default network; `play` is the network this command
    /// used with chains before, gen-b's generation 25).
    #[arg(long, default_value = "net")]
    pub eval: String,
    /// The chains, as every searching command takes them (off by default).
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
        ..SearchConfig::default()
    };
    let done = run_search(&config, eval.as_ref(), &name, BeamState::new(), None, args.quiet, Format::Base2048)?;
    println!("score {}", done.verified_score);
    println!("{}", done.replay);
    Ok(())
}
