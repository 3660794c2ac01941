//! `hatetris cycle`: the search → refine → learn loop, resumable step by step.

use crate::commands::progress::DepthProgress;
use anyhow::{bail, Context, Result};
use clap::Args;
use hatetris_dist::spread::ClusterSpread;
use hatetris_eval::Network;
use hatetris_learn::cycle::{
    flag_of, retune_config, run_cycles, run_cycles_on, stored_config, CycleConfig, CycleEvent, RefineConfig, Step,
    TargetKind, RETUNABLE,
};
use hatetris_learn::train::TrainConfig;
use std::path::PathBuf;

/// The search step's games opened with noise, shared by `cycle` and
/// `sample` (`CycleConfig::openings`).
#[derive(Args, Debug, Clone)]
pub struct OpeningArgs {
    /// Exploratory games of each search step besides the one from the empty
    /// well: each opens with --opening-pieces pieces of a search whose
    /// values carry seeded noise, then is searched on to its end (0: none).
    #[arg(long, default_value_t = 0)]
    pub openings: usize,
    /// Pieces of each opened game's noisy opening.
    #[arg(long, default_value_t = 20)]
    pub opening_pieces: usize,
    /// Noise added to the network's value in the openings (values lie in
    /// [-1, 1]).
    #[arg(long, default_value_t = 0.3)]
    pub opening_noise: f32,
    /// Beam width of the openings' searches (0: --width).
    #[arg(long, default_value_t = 0)]
    pub opening_width: usize,
    /// Wells sampled a depth in each opening's search (0: --samples).
    #[arg(long, default_value_t = 0)]
    pub opening_samples: usize,
}

impl OpeningArgs {
    pub fn check(&self) -> Result<()> {
        if self.openings > 0
            && (self.opening_pieces == 0 || !(self.opening_noise >= 0.0 && self.opening_noise.is_finite()))
        {
            bail!("--openings needs --opening-pieces of at least 1 and an --opening-noise of 0 or more");
        }
        Ok(())
    }

    /// `config` with these openings.
    pub fn apply(&self, config: CycleConfig) -> CycleConfig {
        CycleConfig {
            openings: self.openings,
            opening_pieces: self.opening_pieces,
            opening_noise: self.opening_noise,
            opening_width: self.opening_width,
            opening_samples: self.opening_samples,
            ..config
        }
    }
}

#[derive(Args, Debug, Clone)]
pub struct CycleArgs {
    /// The run directory: created if new, continued if it exists.
    #[arg(long)]
    pub dir: PathBuf,
    /// Run until this many cycles are done in total.
    #[arg(long, default_value_t = 1)]
    pub cycles: usize,
    /// Beam width of the search step.
    #[arg(long, default_value_t = 1000)]
    pub width: usize,
    /// Wells sampled from the beam at every depth.
    #[arg(long, default_value_t = 4096)]
    pub samples: usize,
    /// Width of each refine lookahead.
    #[arg(long, default_value_t = 200)]
    pub refine_width: usize,
    /// Pieces each refine lookahead plays.
    #[arg(long, default_value_t = 10)]
    pub refine_depth: usize,
    /// Refine only every K-th sampled well (1: all): a wider lookahead of
    /// fewer wells for the same time.
    #[arg(long, default_value_t = 1)]
    pub refine_every: usize,
    /// Depth of the clear chains in each refine lookahead (0: none, as
    /// knewjade and the record engine refine): the lookahead chains every
    /// candidate by the search step's --chain-rule and --chain-blend, so
    /// that a target says what a chained master search finds from the well.
    #[arg(long, default_value_t = 0)]
    pub refine_quiescence: u32,
    /// What refine moves a value toward: `lookahead` (the network's best
    /// value --refine-depth pieces on, knewjade's) or `survival` (the
    /// discounted pieces a --refine-width beam survives, up to
    /// --refine-depth, then the network's value) or `relative` (the
    /// lookahead within each family of children: with --sample-children,
    /// only the differences between a sampled entry's children move) or
    /// `family` (as relative, from one lookahead beam started from all of
    /// a family's children) or `joint` (knewjade's target from those
    /// family beams).
    #[arg(long, default_value = "lookahead", value_parser = parse_target)]
    pub target: TargetKind,
    /// Discount per piece of the survival target.
    #[arg(long, default_value_t = 0.98)]
    pub gamma: f32,
    /// Share of the way a value moves toward its refined target.
    #[arg(long, default_value_t = 0.5)]
    pub refine_step: f32,
    /// Sample the children of the sampled beam entries (the wells the search
    /// chooses among) instead of the entries themselves.
    #[arg(long)]
    pub sample_children: bool,
    /// With --sample-children: keep only children valued at least the next
    /// depth's cut minus this share of the beam's value range (0: all).
    #[arg(long, default_value_t = 0.0)]
    pub sample_band: f32,
    /// Beam width of the per-cycle measurement on the embedded suite (0: off).
    #[arg(long, default_value_t = 300)]
    pub suite_width: usize,
    /// Pieces searched from each suite start in that measurement.
    #[arg(long, default_value_t = 150)]
    pub suite_pieces: usize,
    /// Playable rows of the games searched and refined (16: the official
    /// game; lower wells play near their ceiling from the start).
    #[arg(long, default_value_t = 16)]
    pub height: usize,
    /// Data sets mixed into every learn step (e.g. solved small wells).
    #[arg(long, num_args = 1..)]
    pub anchor: Vec<PathBuf>,
    /// Samples drawn from the --anchor sets each learn step (0: all).
    #[arg(long, default_value_t = 0)]
    pub anchor_samples: usize,
    /// Start positions of the network's own games (a suite from `hatetris
    /// suite`): the search step also searches on from each for
    /// --start-pieces pieces and samples those beams too (16-row runs only;
    /// positions of the strength suite's public games are refused).
    #[arg(long)]
    pub starts: Option<PathBuf>,
    /// Pieces searched from each --starts position (0: to the game's end).
    #[arg(long, default_value_t = 100)]
    pub start_pieces: usize,
    /// Cycles of refined data each learn step trains on.
    #[arg(long, default_value_t = 3)]
    pub history: usize,
    /// Students of each learn step: this many more networks fitted to the
    /// targets from random weights; the cycle's network is then fitted to
    /// their mean (with the one fitted from the last network) on the same
    /// wells (0: one fit only).
    #[arg(long, default_value_t = 0)]
    pub students: usize,
    /// Cycles whose networks (each one's own fit and students) label the
    /// wells of all of them for the learn step with --students: this one
    /// and the N - 1 before it.
    #[arg(long, default_value_t = 1)]
    pub teacher_window: usize,
    #[command(flatten)]
    pub opening: OpeningArgs,
    /// When a cycle's game makes fewer lines than this share of the last
    /// cycle's (0: never), the network before searches the game again and
    /// both beams are sampled: a network that walks into a well it
    /// overvalues does not leave the cycle one short game to learn from.
    #[arg(long, default_value_t = 0.0)]
    pub retry_below: f32,
    /// On resume, let --width, --samples, --quiescence, --chain-rule,
    /// --chain-band, --refine-width, --refine-every, --refine-quiescence,
    /// --history and --max-epochs take other values than the run's,
    /// for the steps not yet run (as knewjade widened the beam when the
    /// games levelled off); every cycle's metrics name the width and chains
    /// it searched with and the epochs it trained. Other settings stay
    /// fixed.
    #[arg(long)]
    pub retune: bool,
    /// The search step's clear chains (refine's lookaheads chain only with
    /// --refine-quiescence).
    #[command(flatten)]
    pub chains: crate::commands::ChainArgs,
    /// Spread the searches and the refine step over processes: every
    /// process runs the whole cycle in a run folder of its own (process
    /// I > 0 in DIR/process-I), the same bytes in each.
    #[command(flatten)]
    pub dist: crate::commands::dist::DistArgs,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Stop each search after this many pieces (0: until the game ends).
    #[arg(long, default_value_t = 0)]
    pub max_depth: usize,
    /// Most epochs per learn step (early stopping usually ends sooner).
    #[arg(long, default_value_t = 100)]
    pub max_epochs: usize,
    #[arg(long, default_value_t = 8192)]
    pub batch: usize,
    /// The learn step's Adam step size. The record engine's generations
    /// moved their network little (256 steps of 0.0001 each); a smaller
    /// step keeps the next master search nearer the wells the last one
    /// taught.
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f32,
    /// The network the first cycle searches with (default: the embedded
    /// bootstrap network, trained on solved small wells).
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Widen the starting network to this many hidden units (a multiple of
    /// 8, at least its own), keeping its values: the new units start with
    /// zero output weights. Read only when the run is new.
    #[arg(long)]
    pub hidden: Option<usize>,
    #[command(flatten)]
    pub run: crate::commands::RunArgs,
}

impl CycleArgs {
    fn config(&self) -> CycleConfig {
        self.opening.apply(CycleConfig {
            width: self.width,
            samples_per_depth: self.samples,
            refine: RefineConfig {
                width: self.refine_width,
                depth: self.refine_depth,
                step: self.refine_step,
                target: self.target,
                gamma: self.gamma,
                every: self.refine_every,
                // The rule and blend matter only to a chained lookahead;
                // a plain one keeps the defaults, as runs before the flag.
                quiescence: self.refine_quiescence,
                chain_rule: if self.refine_quiescence > 0 { self.chains.chain_rule } else { Default::default() },
                chain_blend: if self.refine_quiescence > 0 { self.chains.chain_blend } else { Default::default() },
                chain_follow: if self.refine_quiescence > 0 { self.chains.chain_follow } else { 0 },
            },
            history: self.history,
            quiescence: self.chains.quiescence,
            chain_rule: self.chains.chain_rule,
            chain_band: self.chains.chain_band,
            chain_blend: self.chains.chain_blend,
            chain_follow: self.chains.chain_follow,
            seed: self.seed,
            max_depth: self.max_depth,
            sample_children: self.sample_children,
            sample_band: self.sample_band,
            suite_width: self.suite_width,
            suite_pieces: self.suite_pieces,
            height: self.height,
            anchor: self.anchor.clone(),
            anchor_samples: self.anchor_samples,
            starts: self.starts.clone(),
            start_pieces: self.start_pieces,
            students: self.students,
            teacher_window: self.teacher_window,
            retry_below: self.retry_below,
            train: TrainConfig {
                max_epochs: self.max_epochs,
                batch_size: self.batch,
                learning_rate: self.lr,
                ..TrainConfig::default()
            },
            ..CycleConfig::default()
        })
    }
}

fn parse_target(s: &str) -> Result<TargetKind, String> {
    match s {
        "lookahead" => Ok(TargetKind::Lookahead),
        "survival" => Ok(TargetKind::Survival),
        "relative" => Ok(TargetKind::Relative),
        "family" => Ok(TargetKind::Family),
        "joint" => Ok(TargetKind::Joint),
        other => Err(format!("unknown target '{other}' (expected lookahead, survival, relative, family or joint)")),
    }
}

fn step_name(step: Step) -> &'static str {
    match step {
        Step::Search => "search",
        Step::Refine => "refine",
        Step::Learn => "learn",
    }
}

/// The settings of `config.json` as the flags name them: on resume a flag
/// given with another value than the run's is refused.
fn stored_flags(c: &CycleConfig) -> Vec<(&'static str, String)> {
    let paths = |p: &[PathBuf]| p.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" ");
    vec![
        ("width", c.width.to_string()),
        ("samples", c.samples_per_depth.to_string()),
        ("refine_width", c.refine.width.to_string()),
        ("refine_depth", c.refine.depth.to_string()),
        ("refine_every", c.refine.every.to_string()),
        ("refine_quiescence", c.refine.quiescence.to_string()),
        ("target", format!("{:?}", c.refine.target).to_lowercase()),
        ("gamma", c.refine.gamma.to_string()),
        ("refine_step", c.refine.step.to_string()),
        ("sample_children", c.sample_children.to_string()),
        ("sample_band", c.sample_band.to_string()),
        ("suite_width", c.suite_width.to_string()),
        ("suite_pieces", c.suite_pieces.to_string()),
        ("height", c.height.to_string()),
        ("anchor", paths(&c.anchor)),
        ("anchor_samples", c.anchor_samples.to_string()),
        ("starts", c.starts.as_ref().map(|p| p.display().to_string()).unwrap_or_default()),
        ("start_pieces", c.start_pieces.to_string()),
        ("history", c.history.to_string()),
        ("students", c.students.to_string()),
        ("teacher_window", c.teacher_window.to_string()),
        ("openings", c.openings.to_string()),
        ("opening_pieces", c.opening_pieces.to_string()),
        ("opening_noise", c.opening_noise.to_string()),
        ("opening_width", c.opening_width.to_string()),
        ("opening_samples", c.opening_samples.to_string()),
        ("retry_below", c.retry_below.to_string()),
        ("quiescence", c.quiescence.to_string()),
        ("chain_rule", c.chain_rule.to_string()),
        ("chain_band", c.chain_band.to_string()),
        ("chain_blend", c.chain_blend.to_string()),
        ("chain_follow", c.chain_follow.to_string()),
        ("seed", c.seed.to_string()),
        ("max_depth", c.max_depth.to_string()),
        ("max_epochs", c.train.max_epochs.to_string()),
        ("batch", c.train.batch_size.to_string()),
        ("lr", c.train.learning_rate.to_string()),
    ]
}

/// Refuses a resumed run any flag given with another value than the one
/// it was started with (as `hunt` does), and a starting network other
/// than its own.
///
/// With `--retune`, returns the run's settings with the budget flags
/// given on the line in place of its own (None: nothing to change).
fn check_resume(
    args: &CycleArgs,
    matches: &clap::ArgMatches,
    stored: &CycleConfig,
    initial: &Network,
) -> Result<Option<CycleConfig>> {
    let given_on_line = |id: &str| matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
    let asked_config = args.config();
    let asked = stored_flags(&asked_config);
    let mut retuned = stored.clone();
    for ((name, stored), (_, given)) in stored_flags(stored).into_iter().zip(asked) {
        if args.retune && given_on_line(name) {
            if let Some((_, retune)) = RETUNABLE.iter().find(|(retunable, _)| *retunable == name) {
                retune(&mut retuned, &asked_config);
                continue;
            }
        }
        if given_on_line(name) && given != stored {
            let flag = flag_of(name);
            let stored = if stored.is_empty() { "(none)".to_string() } else { stored };
            bail!("{} was started with {flag} {stored}; it cannot go on with {given}", args.dir.display());
        }
    }
    if given_on_line("init") || given_on_line("hidden") {
        let net0 = args.dir.join("net-000.hnet");
        let own = Network::load(&net0)?;
        if own != *initial {
            bail!(
                "{} was started from another network ({}); it cannot go on from --init/--hidden as given",
                args.dir.display(),
                net0.display()
            );
        }
    }
    Ok((retuned != *stored).then_some(retuned))
}

/// Caps on counts whose every unit is a whole search or training.
const MAX_STUDENTS: usize = 100;
pub const MAX_OPENINGS: usize = 10_000;

pub fn cycle(args: &CycleArgs, matches: &clap::ArgMatches) -> Result<()> {
    let spread = args.dist.spread();
    let args = &CycleArgs { dir: args.dist.own_folder(&args.dir), ..args.clone() };
    if args.width == 0
        || args.refine_width == 0
        || args.refine_depth == 0
        || args.refine_every == 0
        || args.samples == 0
        || args.history == 0
    {
        bail!("--width, --samples, --refine-width, --refine-depth, --refine-every and --history must be at least 1");
    }
    if args.refine_every > 1 && args.sample_children {
        bail!("--refine-every above 1 needs sampled entries, not --sample-children (families are refined whole)");
    }
    if args.batch == 0 || args.max_epochs == 0 {
        bail!("--batch and --max-epochs must be at least 1");
    }
    if !(args.lr.is_finite() && args.lr > 0.0 && args.lr <= 1.0) {
        bail!("--lr must be above 0 and at most 1 (got {})", args.lr);
    }
    args.chains.chains()?;
    crate::commands::chain_depth("refine-quiescence", args.refine_quiescence)?;
    for (flag, w) in [
        ("width", args.width),
        ("refine-width", args.refine_width),
        ("suite-width", args.suite_width),
        ("opening-width", args.opening.opening_width),
    ] {
        crate::checks::width(flag, w)?;
    }
    crate::checks::count("samples", args.samples, crate::checks::max_width())?;
    crate::checks::count("students", args.students, MAX_STUDENTS)?;
    crate::checks::count("openings", args.opening.openings, MAX_OPENINGS)?;
    crate::checks::count("opening-samples", args.opening.opening_samples, crate::checks::max_width())?;
    if args.teacher_window == 0 || (args.teacher_window > 1 && args.students == 0) {
        bail!("--teacher-window must be at least 1, and more than 1 only with --students");
    }
    if !(4..=16).contains(&args.height) {
        bail!("--height must be 4 to 16");
    }
    // Written so that NaN fails too.
    let in_range = args.gamma > 0.0 && args.gamma < 1.0 && args.refine_step > 0.0 && args.refine_step <= 1.0;
    if !in_range {
        bail!("--gamma must be in (0, 1) and --refine-step in (0, 1]");
    }
    args.opening.check()?;
    if !(args.retry_below >= 0.0 && args.retry_below.is_finite()) {
        bail!("--retry-below must be 0 or more");
    }
    if !(args.sample_band >= 0.0 && args.sample_band.is_finite()) {
        bail!("--sample-band must be 0 or more");
    }
    if matches!(args.target, TargetKind::Relative | TargetKind::Family | TargetKind::Joint) && !args.sample_children {
        bail!("--target relative, family and joint need --sample-children (their families are an entry's children)");
    }
    if args.sample_band > 0.0 && !args.sample_children {
        bail!("--sample-band needs --sample-children (it chooses among the children)");
    }
    args.run.start_pool()?;
    let initial = match &args.init {
        Some(p) => Network::load(p).with_context(|| format!("cannot load network {}", p.display()))?,
        None => Network::embedded_bootstrap(),
    };
    let initial = match args.hidden {
        Some(h) => match initial.widen(h, args.seed) {
            Some(wide) => wide,
            None => {
                bail!("--hidden {h}: must be a multiple of 8 and at least the starting network's {}", initial.hidden)
            }
        },
        None => initial,
    };
    // On resume the flags given must be the run's; a new run's settings are
    // checked (files included) before anything is written.
    match stored_config(&args.dir)? {
        Some(stored) => {
            let retuned = check_resume(args, matches, &stored, &initial)?;
            if let Some(new) = retuned {
                retune_config(&args.dir, &new)?;
                if !args.run.quiet {
                    // Only the settings that changed, by their flags: a
                    // retune may change no other (`RETUNABLE`).
                    let changed: Vec<String> = stored_flags(&stored)
                        .into_iter()
                        .zip(stored_flags(&new))
                        .filter(|((_, was), (_, is))| was != is)
                        .map(|((name, was), (_, is))| format!("{} {was} -> {is}", flag_of(name)))
                        .collect();
                    eprintln!("retuned {} for the steps not yet run: {}", args.dir.display(), changed.join(", "));
                }
            }
            if !args.run.quiet {
                eprintln!("continuing the run in {} (with its config.json)", args.dir.display());
            }
        }
        None if args.retune => bail!("--retune changes a run that exists; {} holds none", args.dir.display()),
        None => args.config().validate()?,
    }
    let quiet = args.run.quiet;
    let mut search_progress: Option<(DepthProgress, hatetris_search::DepthReport)> = None;
    let mut last_refine_log = std::time::Instant::now();
    let mut on_event = |event: CycleEvent| match event {
        CycleEvent::StepStarted { cycle, step } => {
            if step == Step::Search {
                search_progress =
                    Some((DepthProgress::new(quiet, &format!("cycle {cycle} search")), Default::default()));
            } else if !quiet {
                eprintln!("cycle {cycle}: {}", step_name(step));
            }
        }
        CycleEvent::StepSkipped { cycle, step } => {
            if !quiet {
                eprintln!("cycle {cycle}: {} already done, skipped", step_name(step));
            }
        }
        CycleEvent::SearchResumed { cycle, depth, lines } => {
            if !quiet {
                eprintln!("cycle {cycle} search: resumed from its save at depth {depth} ({lines} lines)");
            }
        }
        CycleEvent::SearchDepth { report, .. } => {
            if let Some((p, last)) = search_progress.as_mut() {
                p.update(report);
                *last = report.clone();
            }
        }
        CycleEvent::RefineProgress { cycle, done, total } => {
            if let Some((mut p, last)) = search_progress.take() {
                p.finish(&last);
            }
            if !quiet && (done == total || last_refine_log.elapsed().as_secs() >= 10) {
                eprintln!("cycle {cycle} refine: {done}/{total} wells");
                last_refine_log = std::time::Instant::now();
            }
        }
        CycleEvent::Epoch { cycle, report } => {
            if !quiet {
                eprintln!(
                    "cycle {cycle} learn: epoch {} train {:.5} validation {:.5}{}",
                    report.epoch,
                    report.train_loss,
                    report.validation_loss,
                    if report.best { " (best)" } else { "" }
                );
            }
        }
        CycleEvent::SuiteProgress { done, total } => {
            if !quiet && (done == total || last_refine_log.elapsed().as_secs() >= 10) {
                eprintln!("suite: {done}/{total} starts");
                last_refine_log = std::time::Instant::now();
            }
        }
        CycleEvent::CycleDone { metrics } => {
            println!("{}", serde_json::to_string(metrics).expect("serialisable"));
        }
    };
    let metrics = if spread {
        let (cluster, copies) = args.dist.cluster()?;
        let mut on = ClusterSpread::new(cluster);
        let metrics = run_cycles_on(&mut on, &args.dir, args.cycles, &args.config(), &initial, None, &mut on_event)?;
        if let Some(copies) = copies {
            copies.wait()?;
        }
        metrics
    } else {
        run_cycles(&args.dir, args.cycles, &args.config(), &initial, None, &mut on_event)?
    };
    if !quiet {
        if let Some(best) = metrics.iter().max_by_key(|m| m.lines) {
            eprintln!("{} cycles done; best search: cycle {} with {} lines", metrics.len(), best.cycle, best.lines);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every setting compared on resume is a flag of `cycle` (clap would
    /// find an unknown name never given, and the setting never compared).
    #[test]
    fn every_stored_setting_is_a_cycle_flag() {
        let cmd = <CycleArgs as clap::Args>::augment_args(clap::Command::new("cycle"));
        let flags = stored_flags(&CycleConfig::default());
        for (id, _) in &flags {
            assert!(cmd.get_arguments().any(|a| a.get_id() == id), "{id}");
        }
        // And every flag that sets the run's config is compared. The
        // cluster's are not settings of the run: its bytes are the same on
        // any number of processes, so it may go on with another.
        let cluster = ["processes", "process", "hostfile", "local", "connect_timeout", "dist_costs"];
        let not_stored =
            [&["dir", "cycles", "init", "hidden", "threads", "quiet", "retune"][..], &cluster[..]].concat();
        for a in cmd.get_arguments() {
            let id = a.get_id().as_str();
            assert!(not_stored.contains(&id) || flags.iter().any(|(f, _)| *f == id), "{id} is not compared");
        }
        // A retunable setting the resume check never meets could not be
        // retuned from the command line.
        for (name, _) in RETUNABLE {
            assert!(flags.iter().any(|(f, _)| *f == name), "{name} is retunable but not compared");
        }
    }
}
