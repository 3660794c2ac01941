//! `hatetris search`: a beam search through one game, written as a replay
//! the official game accepts. The printed score is the engine's replay of
//! the written keys, never the search's own belief.

use crate::commands::progress::DepthProgress;
use anyhow::{bail, Context, Result};
use clap::Args;
use hatetris_dist::Event;
use hatetris_eval::{EvalSpec, Evaluator};
use hatetris_game::replay::Format;
use hatetris_game::{Enemy, Rules};
use hatetris_search::{checkpoint, moves_for_keys, run, verified_replay, BeamState, SearchConfig};
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Entries kept per depth.
    #[arg(long, default_value_t = 1000)]
    pub width: usize,
    /// `baseline`, `net` (the embedded network), `net=PATH`, `mirror:E` (E
    /// on the mirror image) or `mean=A,B,...` (the mean value of those, each
    /// `net`, `baseline`, `mirror:E` or a path); networks evaluate with their first layer in i16
    /// (`QuantizedNetwork`).
    #[arg(long, default_value = "net")]
    pub eval: String,
    #[arg(long, default_value = "hatetris")]
    pub enemy: Enemy,
    /// Seed for tie-breaks: the same seed and width give the same replay.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Where to write the replay.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replay form to write.
    #[arg(long, default_value = "base2048")]
    pub format: Format,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub run: crate::commands::RunArgs,
    #[command(flatten)]
    pub chains: crate::commands::ChainArgs,
    /// Turn off the line-clear chains (same as --quiescence 0).
    #[arg(long)]
    pub no_quiescence: bool,
    /// Entries kept per well whose memories differ.
    #[arg(long, default_value_t = 1)]
    pub twins: usize,
    /// Stop after this many pieces (0: until the game ends).
    #[arg(long, default_value_t = 0)]
    pub max_depth: usize,
    /// Save the beam in DIR every --checkpoint-every depths.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    #[arg(long, default_value_t = 25)]
    pub checkpoint_every: usize,
    /// Continue the search saved in DIR (its settings are used).
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Start from a position of this game (a replay file or `-`), the
    /// enemy's memory included; the written replay is the whole game.
    #[arg(long, conflicts_with = "resume")]
    pub from: Option<PathBuf>,
    /// With --from: the position after this many pieces (default: where
    /// the replay ends).
    #[arg(long, requires = "from")]
    pub at: Option<usize>,
    #[command(flatten)]
    pub dist: crate::commands::dist::DistArgs,
    /// Over processes: write each depth's cost on this process (seconds,
    /// bytes sent) as JSON lines to this file, suffixed `.pI` for process I.
    #[arg(long)]
    pub dist_costs: Option<PathBuf>,
}

#[cfg(test)]
/// The flags whose values a checkpoint holds: `search --resume` refuses
/// another value of any of them given on the command line.
const STORED: [&str; 12] = [
    "width",
    "eval",
    "enemy",
    "seed",
    "quiescence",
    "no_quiescence",
    "chain_rule",
    "chain_band",
    "chain_blend",
    "chain_follow",
    "twins",
    "max_depth",
];

#[cfg(test)]
/// The flags that are not settings of the search (what is written, and
/// where; how it runs): a resumed search may take any value.
const NOT_STORED: [&str; 16] = [
    "out",
    "format",
    "json",
    "threads",
    "quiet",
    "checkpoint",
    "checkpoint_every",
    "resume",
    "from",
    "at",
    "processes",
    "process",
    "hostfile",
    "local",
    "connect_timeout",
    "dist_costs",
];

/// Refuses a setting given with `--resume` that is not the checkpoint's,
/// naming both values, as `cycle` and `hunt` do.
fn check_resume(
    args: &SearchArgs,
    matches: &clap::ArgMatches,
    dir: &Path,
    stored: &SearchConfig,
    eval: &str,
) -> Result<()> {
    let given = |id: &str| matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
    let refuse = |flag: &str, was: String, is: String| -> Result<()> {
        bail!("{} was started with --{flag} {was}; it cannot go on with {is}", dir.display())
    };
    let c = &args.chains;
    let quiescence = if args.no_quiescence { 0 } else { c.quiescence };
    for (id, flag, was, is) in [
        ("width", "width", stored.width.to_string(), args.width.to_string()),
        ("enemy", "enemy", stored.enemy.name().to_string(), args.enemy.name().to_string()),
        ("seed", "seed", stored.seed.to_string(), args.seed.to_string()),
        ("quiescence", "quiescence", stored.quiescence.to_string(), quiescence.to_string()),
        ("no_quiescence", "quiescence", stored.quiescence.to_string(), quiescence.to_string()),
        ("chain_rule", "chain-rule", stored.chain_rule.to_string(), c.chain_rule.to_string()),
        ("chain_band", "chain-band", stored.chain_band.to_string(), c.chain_band.to_string()),
        ("chain_blend", "chain-blend", stored.chain_blend.to_string(), c.chain_blend.to_string()),
        ("chain_follow", "chain-follow", stored.chain_follow.to_string(), c.chain_follow.to_string()),
        ("twins", "twins", stored.twins.to_string(), args.twins.to_string()),
        ("max_depth", "max-depth", stored.max_depth.to_string(), args.max_depth.to_string()),
    ] {
        if given(id) && was != is {
            return refuse(flag, was, is);
        }
    }
    if given("eval") {
        let stored = EvalSpec::from_identity(eval)?;
        if args.eval.parse::<EvalSpec>()? != stored {
            return refuse("eval", stored.to_string(), args.eval.clone());
        }
    }
    Ok(())
}

/// An evaluator chosen on the command line, with its identity (see
/// [`EvalSpec::load`]).
pub fn load_evaluator(spec: &str) -> Result<(Box<dyn Evaluator>, String)> {
    let spec: EvalSpec = spec.parse()?;
    spec.load().with_context(|| format!("cannot load evaluator {spec}"))
}

/// A finished search: the replay and what the engine says it scores.
pub struct Finished {
    pub replay: String,
    pub verified_score: u32,
    pub search_score: u32,
    pub pieces: usize,
    pub expanded: u64,
    pub elapsed_secs: f64,
    pub depth_reached: usize,
    pub peak_tree_nodes: usize,
}

/// Where and how often a search saves its beam.
#[derive(Clone, Copy)]
pub struct Checkpoints<'a> {
    pub dir: &'a Path,
    pub every: usize,
}

/// Runs a search with progress and optional checkpoints, then turns the
/// line into keys and verifies them in the engine.
pub fn run_search(
    config: &SearchConfig,
    eval: &dyn Evaluator,
    eval_name: &str,
    mut state: BeamState,
    checkpoints: Option<Checkpoints>,
    quiet: bool,
    format: Format,
) -> Result<Finished> {
    let mut progress = DepthProgress::new(quiet, "search");
    let mut save_error = None;
    run(&mut state, config, eval, &mut |s| {
        progress.update(&s.report());
        if let Some(c) = checkpoints {
            if s.depth % c.every.max(1) == 0 {
                if let Err(e) = checkpoint::save(c.dir, config, eval_name, s) {
                    save_error = Some(e);
                    return false;
                }
            }
        }
        true
    });
    if let Some(e) = save_error {
        return Err(e.into());
    }
    progress.finish(&state.report());
    if let Some(c) = checkpoints {
        checkpoint::save(c.dir, config, eval_name, &state)?;
    }
    finish(config, state.result(), format)
}

/// A search's result with its line replayed by the engine (the score
/// printed is the replay's, never the search's belief).
fn finish(config: &SearchConfig, result: hatetris_search::SearchResult, format: Format) -> Result<Finished> {
    let verified =
        verified_replay(config.rules, config.enemy, &result.moves, format).context("the line found does not replay")?;
    Ok(Finished {
        replay: verified.replay,
        verified_score: verified.score,
        search_score: result.score,
        pieces: result.moves.len(),
        expanded: result.expanded,
        elapsed_secs: result.elapsed_secs,
        depth_reached: result.depth_reached,
        peak_tree_nodes: result.peak_tree_nodes,
    })
}

pub fn search(args: &SearchArgs, matches: &clap::ArgMatches) -> Result<()> {
    args.run.start_pool()?;
    if args.resume.is_none() {
        if args.width == 0 {
            bail!("--width must be at least 1");
        }
        crate::checks::width("width", args.width)?;
        args.chains.chains()?;
    }
    // The output is checked before the search: a whole search that cannot
    // write its result (or would write it over its --from) is lost work.
    if let Some(out) = &args.out {
        let spec: Option<EvalSpec> = if args.resume.is_none() { Some(args.eval.parse()?) } else { None };
        let nets = spec.iter().flat_map(|s| s.files()).map(|p| ("eval", p));
        crate::checks::not_an_input("out", out, args.from.as_deref().map(|p| ("from", p)).into_iter().chain(nets))?;
        // The checkpoint folder is the search's own: its files, and each
        // process's folder in it, are read on resume.
        for (flag, dir) in [("resume", &args.resume), ("checkpoint", &args.checkpoint)] {
            if let Some(dir) = dir {
                crate::checks::not_inside("out", out, flag, dir)?;
            }
        }
        crate::checks::output("out", out)?;
    }
    check_dist_costs(args)?;
    // Each process of a spread run keeps its own copy of the checkpoint
    // (its machine may share no disk with the others); process 0's is an
    // ordinary checkpoint that one process can resume too.
    let process = args.dist.spread().then(|| args.dist.process_index());
    let own = |dir: &Path| args.dist.own_folder(dir);
    if let Some(dir) = &args.resume {
        let dir = own(dir);
        hatetris_fileio::remove_stale_temps(&dir)
            .with_context(|| format!("cannot remove stale temporary files in {}", dir.display()))?;
    }
    let (config, eval_spec, starts) = if let Some(dir) = &args.resume {
        let mut restored = checkpoint::load_all(&own(dir))?;
        if process.is_none() {
            restored.truncate(1);
        }
        let first = &restored[0];
        check_resume(args, matches, dir, &first.config, &first.evaluator)?;
        if restored
            .iter()
            .any(|r| format!("{:?}", r.config) != format!("{:?}", first.config) || r.evaluator != first.evaluator)
        {
            bail!("the two checkpoints in {} hold different searches", own(dir).display());
        }
        if process.unwrap_or(0) == 0 {
            eprintln!("resuming at depth {} (best score {})", first.state.depth, first.state.best_score);
        }
        let (config, spec) = (first.config.clone(), first.evaluator.clone());
        (config, spec, restored.into_iter().map(|r| r.state).collect::<Vec<_>>())
    } else {
        let chains = args.chains.chains()?;
        if args.twins == 0 {
            bail!("--twins must be at least 1");
        }
        let config = SearchConfig {
            width: args.width,
            rules: Rules::STANDARD,
            enemy: args.enemy,
            quiescence: if args.no_quiescence { 0 } else { chains.depth },
            chain_rule: chains.rule,
            chain_band: chains.band,
            chain_blend: chains.blend,
            chain_follow: chains.follow,
            seed: args.seed,
            twins: args.twins,
            max_depth: args.max_depth,
        };
        let state = match &args.from {
            None => BeamState::new(),
            Some(path) => {
                let keys = crate::input::read_replay(Some(path))?;
                let moves = moves_for_keys(config.rules, config.enemy, &keys);
                let at = args.at.unwrap_or(moves.len());
                if at > moves.len() {
                    bail!("--at {at}: the replay places only {} pieces", moves.len());
                }
                BeamState::from_moves(&moves[..at], config.rules, config.enemy)
                    .with_context(|| format!("cannot start from piece {at} of {}", path.display()))?
            }
        };
        (config, args.eval.clone(), vec![state])
    };
    // A resumed run names its evaluator by identity and must find the same weights.
    let (eval, eval_name) = if args.resume.is_some() {
        (EvalSpec::reload(&eval_spec).context("cannot resume the checkpoint")?, eval_spec)
    } else {
        load_evaluator(&eval_spec)?
    };
    // The checkpoint folder is made once the start and the evaluator are
    // known good: a refused start leaves nothing behind.
    if let Some(dir) = &args.checkpoint {
        let dir = own(dir);
        std::fs::create_dir_all(&dir).with_context(|| format!("--checkpoint {}: cannot create it", dir.display()))?;
        crate::checks::output("checkpoint", &dir.join("checkpoint"))?;
        hatetris_fileio::remove_stale_temps(&dir)
            .with_context(|| format!("cannot remove stale temporary files in {}", dir.display()))?;
    }
    let dir = args.checkpoint.as_deref().or(args.resume.as_deref()).map(own);
    let checkpoints = dir.as_deref().map(|dir| Checkpoints { dir, every: args.checkpoint_every });
    let done = if args.dist.spread() {
        match run_spread(args, &config, eval, &eval_name, starts, checkpoints)? {
            Some(done) => done,
            None => return Ok(()), // not process 0: it prints nothing
        }
    } else {
        let state = starts.into_iter().next().expect("one start");
        run_search(&config, eval.as_ref(), &eval_name, state, checkpoints, args.run.quiet, args.format)?
    };
    if let Some(out) = &args.out {
        if let Err(e) = hatetris_fileio::write_atomically(out, format!("{}\n", done.replay).as_bytes()) {
            // Checked writable at the start, yet refused now: the line found
            // is printed rather than lost.
            println!("{}", done.replay);
            return Err(e).with_context(|| format!("cannot write {} (the replay is printed above)", out.display()));
        }
    }
    if done.verified_score != done.search_score {
        bail!("the engine scores the replay {} but the search expected {}", done.verified_score, done.search_score);
    }
    if args.json {
        println!(
            "{}",
            json!({
                "score": done.verified_score,
                "pieces": done.pieces,
                "width": config.width,
                "eval": eval_name,
                "seed": config.seed,
                "expanded": done.expanded,
                "depth": done.depth_reached,
                "peak_tree_nodes": done.peak_tree_nodes,
                "seconds": done.elapsed_secs,
                "processes": args.dist.count(),
                "replay": done.replay,
            })
        );
    } else {
        println!("score {}", done.verified_score);
        println!("{}", done.replay);
    }
    Ok(())
}

/// The file process `process` writes its costs to: `PATH.pI`.
fn costs_file(path: &Path, process: usize) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".p{process}"));
    PathBuf::from(name)
}

/// `--dist-costs` is a spread search's; each process's file (process 0
/// checks every one under `--local`) may be none of the files the search
/// reads or writes, nor lie in its checkpoint folder.
fn check_dist_costs(args: &SearchArgs) -> Result<()> {
    let Some(path) = &args.dist_costs else { return Ok(()) };
    if !args.dist.spread() {
        bail!("--dist-costs is the costs of a search over processes; this one runs alone (give --processes or --local above 1)");
    }
    let processes =
        if args.dist.local.is_some() { 0..args.dist.count() } else { args.dist.process..args.dist.process + 1 };
    let spec: Option<EvalSpec> = if args.resume.is_none() { Some(args.eval.parse()?) } else { None };
    for p in processes {
        let file = costs_file(path, p);
        let nets = spec.iter().flat_map(|s| s.files()).map(|f| ("eval", f));
        let inputs =
            args.from.as_deref().map(|f| ("from", f)).into_iter().chain(args.out.as_deref().map(|f| ("out", f)));
        crate::checks::not_an_input("dist-costs", &file, inputs.chain(nets))?;
        for (flag, dir) in [("resume", &args.resume), ("checkpoint", &args.checkpoint)] {
            if let Some(dir) = dir {
                crate::checks::not_inside("dist-costs", &file, flag, dir)?;
            }
        }
        crate::checks::output("dist-costs", &file)?;
    }
    Ok(())
}

/// The search spread over the processes `args.dist` names; `None` on every
/// process but 0, which verifies the line as `run_search` does.
fn run_spread(
    args: &SearchArgs,
    config: &SearchConfig,
    eval: Box<dyn Evaluator>,
    eval_name: &str,
    starts: Vec<BeamState>,
    checkpoints: Option<Checkpoints>,
) -> Result<Option<Finished>> {
    let (cluster, copies) = args.dist.cluster()?;
    let process = cluster.process;
    let mut progress = DepthProgress::new(args.run.quiet || process > 0, "search");
    let mut costs = Vec::new();
    let mut last = None;
    let mut save_error = None;
    let every = checkpoints.map_or(0, |c| c.every.max(1));
    let outcome =
        hatetris_dist::search(&cluster, config, eval.into(), eval_name, starts, every, &mut |event| match event {
            Event::Depth(report, cost) => {
                progress.update(&report);
                costs.push(serde_json::to_string(&cost).expect("costs serialize"));
                last = Some(report);
            }
            Event::Checkpoint(state) => {
                let c = checkpoints.expect("checkpoints were asked for");
                if let Err(e) = checkpoint::save_keeping_previous(c.dir, config, eval_name, &state) {
                    save_error.get_or_insert(e);
                }
            }
        })?;
    if let Some(e) = save_error {
        return Err(e.into());
    }
    if let Some(r) = &last {
        progress.finish(r);
    }
    if let Some(path) = &args.dist_costs {
        let name = costs_file(path, process);
        let text: String = costs.iter().map(|l| format!("{l}\n")).collect();
        hatetris_fileio::write_atomically(&name, text.as_bytes())
            .with_context(|| format!("cannot write {}", name.display()))?;
    }
    if let Some(copies) = copies {
        copies.wait()?;
    }
    if process > 0 {
        return Ok(None);
    }
    finish(config, outcome.result, args.format).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every flag of `search` is either compared on resume or named as no
    /// setting of the search: a new flag must be put in one list.
    #[test]
    fn every_search_flag_is_compared_on_resume_or_named_as_no_setting() {
        let cmd = <SearchArgs as clap::Args>::augment_args(clap::Command::new("search"));
        for a in cmd.get_arguments() {
            let id = a.get_id().as_str();
            assert!(STORED.contains(&id) != NOT_STORED.contains(&id), "{id} is in neither list, or in both");
        }
        for id in STORED.iter().chain(NOT_STORED.iter()) {
            assert!(cmd.get_arguments().any(|a| a.get_id() == *id), "{id} is no flag");
        }
    }
}
