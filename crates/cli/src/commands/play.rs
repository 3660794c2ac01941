//! `hatetris play`: the main job. A full game with the embedded network,
//! printed as a score and a Base2048 replay to paste into the official game.

use crate::commands::search::{load_evaluator, run_search};
use anyhow::{bail, Result};
use clap::Args;
use hatetris_game::replay::Format;
use hatetris_game::{Enemy, Rules};
use hatetris_search::{BeamState, SearchConfig};

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Beam width: wider plays longer games on average and takes longer
    /// (the default takes about 70 seconds and 220 MB on two cores with
    /// nothing else running, inside the two minutes a game may take;
    /// 100,000 takes about 105 seconds and 120,000 over two minutes; width
    /// 10,000 takes 5). The README lists the lines each width gives.
    #[arg(long, default_value_t = 60_000)]
    pub width: usize,
    /// Seed for tie-breaks: the same seed and width give the same game.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The evaluator, named as `search --eval` names it (default: the
    /// embedded network).
    #[arg(long, default_value = "net")]
    pub eval: String,
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
