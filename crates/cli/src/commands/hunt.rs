//! `hatetris hunt`: a record hunt that restarts searches from a book of its
//! best lines (UCB1), resumable at any moment.

use crate::commands::progress::DepthProgress;
use crate::commands::search::load_evaluator;
use anyhow::{bail, Context, Result};
use clap::Args;
use hatetris_dist::spread::ClusterSpread;
use hatetris_eval::{EvalSpec, Evaluator};
use hatetris_hunt::{Budget, HuntConfig, HuntEvent, HuntState};
use hatetris_search::runner::{Alone, Runner};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args, Debug, Clone)]
pub struct HuntArgs {
    /// The run directory: created if new, continued if it holds a hunt.
    #[arg(long)]
    pub dir: PathBuf,
    /// `baseline`, `net` (the embedded network), `net=PATH`, `mirror:E` or `mean=A,B,...`
    /// [default: net].
    #[arg(long)]
    pub eval: Option<String>,
    /// Stop when the hunt has run this many minutes in all (every run added).
    #[arg(long, conflicts_with = "iterations")]
    pub minutes: Option<f64>,
    /// Stop when the hunt has made this many searches in all.
    #[arg(long)]
    pub iterations: Option<usize>,
    /// Beam width of the first, second, ... search from one position (a
    /// position is searched once at each) [default: 1000,10000,100000].
    #[arg(long, value_delimiter = ',')]
    pub widths: Option<Vec<usize>>,
    /// Seed of the searches' tie-breaks [default: 0].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Pieces between the book's positions on a line [default: 10].
    #[arg(long)]
    pub stride: Option<u32>,
    /// Weight of UCB1's exploration term [default: 0.3].
    #[arg(long)]
    pub explore: Option<f64>,
    /// Line-clear chain depth of the searches [default: 0].
    #[arg(long)]
    pub quiescence: Option<u32>,
    /// Which clears the chains follow, as `search --chain-rule` [default: record].
    #[arg(long)]
    pub chain_rule: Option<hatetris_search::ChainRule>,
    /// Chain only this many times the width of best candidates, as
    /// `search --chain-band` [default: 0, all].
    #[arg(long)]
    pub chain_band: Option<u32>,
    /// How much of a chain's rise counts, as `search --chain-blend`
    /// [default: 1].
    #[arg(long)]
    pub chain_blend: Option<hatetris_search::Blend>,
    /// How many wells a chain goes on from after each clear, as `search
    /// --chain-follow` [default: 0, every one].
    #[arg(long)]
    pub chain_follow: Option<u32>,
    #[command(flatten)]
    pub run: crate::commands::RunArgs,
    /// Spread each search over processes: every process keeps the hunt in
    /// a folder of its own (process I > 0 in DIR/process-I), the same book
    /// in each.
    #[command(flatten)]
    pub dist: crate::commands::dist::DistArgs,
}

pub fn hunt(args: &HuntArgs) -> Result<()> {
    let spread = args.dist.spread();
    let process = args.dist.process_index();
    let args = &HuntArgs { dir: args.dist.own_folder(&args.dir), ..args.clone() };
    args.run.start_pool()?;
    if args.minutes.is_some_and(|m| m.is_nan() || m <= 0.0) {
        bail!("--minutes must be positive");
    }
    if args.explore.is_some_and(|c| !c.is_finite() || c < 0.0) {
        bail!("--explore must be a number at least 0");
    }
    if let Some(q) = args.quiescence {
        crate::commands::chain_depth("quiescence", q)?;
    }
    if args.chain_band.is_some_and(|b| b > crate::commands::MAX_BAND) {
        bail!("--chain-band must be at most {}", crate::commands::MAX_BAND);
    }
    if args.chain_follow.is_some_and(|f| f > crate::commands::MAX_FOLLOW) {
        bail!("--chain-follow must be at most {}", crate::commands::MAX_FOLLOW);
    }
    if args.stride == Some(0) {
        bail!("--stride must be at least 1");
    }
    for &w in args.widths.iter().flatten() {
        if w == 0 {
            bail!("--widths must each be at least 1");
        }
        crate::checks::width("widths", w)?;
    }
    let mut state = match HuntState::load(&args.dir)? {
        Some(saved) => {
            let c = &saved.config;
            for (name, given, stored) in [
                ("widths", args.widths.as_ref().map(|w| format!("{w:?}")), format!("{:?}", c.widths)),
                ("seed", args.seed.map(|v| v.to_string()), c.seed.to_string()),
                ("stride", args.stride.map(|v| v.to_string()), c.stride.to_string()),
                ("explore", args.explore.map(|v| v.to_string()), c.explore.to_string()),
                ("quiescence", args.quiescence.map(|v| v.to_string()), c.quiescence.to_string()),
                ("chain-rule", args.chain_rule.map(|v| v.to_string()), c.chain_rule.to_string()),
                ("chain-band", args.chain_band.map(|v| v.to_string()), c.chain_band.to_string()),
                ("chain-blend", args.chain_blend.map(|v| v.to_string()), c.chain_blend.to_string()),
                ("chain-follow", args.chain_follow.map(|v| v.to_string()), c.chain_follow.to_string()),
            ] {
                if let Some(g) = given.filter(|g| *g != stored) {
                    bail!("{} was started with --{name} {stored}; it cannot go on with {g}", args.dir.display());
                }
            }
            if !args.run.quiet {
                eprintln!(
                    "hunt: continuing {} after {} searches, best {} lines",
                    args.dir.display(),
                    saved.history.len(),
                    saved.book.best_lines
                );
            }
            saved
        }
        None => HuntState::new(HuntConfig {
            eval: String::new(),
            widths: args.widths.clone().unwrap_or_else(|| vec![1000, 10000, 100000]),
            seed: args.seed.unwrap_or(0),
            stride: args.stride.unwrap_or(10),
            explore: args.explore.unwrap_or(0.3),
            quiescence: args.quiescence.unwrap_or(hatetris_search::quiescence::DEFAULT_CHAIN),
            chain_rule: args.chain_rule.unwrap_or_default(),
            chain_band: args.chain_band.unwrap_or(0),
            chain_blend: args.chain_blend.unwrap_or_default(),
            chain_follow: args.chain_follow.unwrap_or(0),
        })?,
    };
    // A hunt stores its evaluator's identity (a network with its CRC32):
    // a resumed hunt must find the very same weights.
    let eval = if state.config.eval.is_empty() {
        let (eval, identity) = load_evaluator(args.eval.as_deref().unwrap_or("net"))?;
        state.config.eval = identity;
        eval
    } else {
        let stored = EvalSpec::from_identity(&state.config.eval)?;
        if let Some(given) = &args.eval {
            if given.parse::<EvalSpec>()? != stored {
                bail!("{} was started with --eval {stored}; it cannot go on with {given}", args.dir.display());
            }
        }
        EvalSpec::reload(&state.config.eval).with_context(|| format!("cannot continue {}", args.dir.display()))?
    };

    let budget = Budget { iterations: args.iterations, seconds: args.minutes.map(|m| m * 60.0) };
    let mut progress: Option<DepthProgress> = None;
    let quiet = args.run.quiet;
    let eval: Arc<dyn Evaluator> = eval.into();
    let cluster = if spread { Some(args.dist.cluster()?) } else { None };
    let mut runner: Box<dyn Runner> = match &cluster {
        Some((c, _)) => Box::new(ClusterSpread::new(c.clone())),
        None => Box::new(Alone),
    };
    let name = state.config.eval.clone();
    state.run_on(runner.as_mut(), &args.dir, &eval, &name, budget, &mut |event| match event {
        HuntEvent::Start { iteration, choice, width } => {
            progress = Some(DepthProgress::new(quiet, &format!("hunt #{iteration} from piece {} at width {width}", choice.depth)));
        }
        HuntEvent::Depth(r) => {
            if let Some(p) = progress.as_mut() {
                p.update(r);
            }
        }
        HuntEvent::Done(i) => {
            if let Some(mut p) = progress.take() {
                p.finish_quietly();
            }
            if !quiet {
                eprintln!(
                    "hunt #{}: from piece {} at width {}: {} lines ({} pieces) in {:.1}s; best {} lines; {:.1} min in all",
                    i.iteration, i.node_depth, i.width, i.lines, i.pieces, i.search_seconds, i.best_lines, i.seconds / 60.0
                );
            }
        }
        HuntEvent::NewBest { lines, path } => {
            if !quiet {
                eprintln!("hunt: new best {lines} lines, written to {}", path.display());
            }
        }
        HuntEvent::Exhausted => {
            if !quiet {
                eprintln!("hunt: every position of the book has been searched at every width (a longer --widths would go on)");
            }
        }
        HuntEvent::PlotFailed(e) => eprintln!("warning: {e}"),
    })?;
    if let Some(mut p) = progress.take() {
        p.finish_quietly();
    }
    if let Some((_, Some(copies))) = cluster {
        copies.wait()?;
    }
    if process > 0 {
        return Ok(());
    }
    let best = args.dir.join("best.b2048");
    println!(
        "best {} lines after {} searches ({:.1} min): {}",
        state.book.best_lines,
        state.history.len(),
        state.history.last().map_or(0.0, |i| i.seconds) / 60.0,
        best.display()
    );
    Ok(())
}
