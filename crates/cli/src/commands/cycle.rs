//! `hatetris cycle`: generations of search → refine → learn as a recipe
//! says (`--recipe`, TOML; `docs/recipes.md`), resumable step by step.

use crate::commands::progress::DepthProgress;
use anyhow::{bail, Context, Result};
use clap::Args;
use hatetris_dist::spread::ClusterSpread;
use hatetris_eval::Network;
use hatetris_learn::cycle::spread::Alone;
use hatetris_learn::cycle::{
    config_differences, request_stop, retunable_names, retune_config, run_cycles_on, run_recipe_on, stop_requested,
    stored_config, CycleConfig, CycleEvent, Recipe, Step, FIRST_GAME, MAX_GENERATION, RETUNABLE,
};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Args, Debug, Clone)]
pub struct CycleArgs {
    /// The run folder: created if new, continued if it exists. It holds no
    /// absolute path: a folder copied elsewhere (cp -r, tar) goes on there.
    #[arg(long, required_unless_present = "print_config")]
    pub dir: Option<PathBuf>,
    /// The recipe (TOML, docs/recipes.md): every setting of a generation
    /// and a schedule. Default: the run's own, or for a new run `record`
    /// (recipes/record.toml, gen-b's lineage). A run keeps its recipe;
    /// another one is refused on resume unless --retune.
    #[arg(long)]
    pub recipe: Option<PathBuf>,
    /// Run until this many cycles (generations of this run) are done in
    /// total (1 to 1,000).
    #[arg(long, default_value_t = 1)]
    pub cycles: usize,
    /// The network the first cycle searches with (default: the embedded
    /// bootstrap, trained on solved small wells).
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// A new run's first master search goes on from this game (a replay
    /// file), `master_from_end` pieces before its end, as each later
    /// generation goes on from the one before's: the game --init's network
    /// came from, when a lineage goes on in a new folder. Kept in the run
    /// (game-000.b2048); on resume it must be the same game.
    #[arg(long, value_name = "FILE")]
    pub last_game: Option<PathBuf>,
    /// The generation --init's network is (default 0; a run from before
    /// recipes: found from its seed): cycle k of the run is generation
    /// G + k, with that generation's seed and schedule.
    #[arg(long)]
    pub generation: Option<usize>,
    /// The master search's beam width in every generation, in place of the
    /// recipe's (and its schedule's).
    #[arg(long)]
    pub width: Option<usize>,
    /// The recipe's seed in place of its own (generation G searches with
    /// seed + G x 0x9E3779B9).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop each master search after this many pieces (0: the game's end),
    /// in place of the recipe's.
    #[arg(long)]
    pub max_depth: Option<usize>,
    /// On resume, let the recipe (or --width) differ from the run's in the
    /// settings a schedule may change, for the steps not yet run; other
    /// keys are refused, by name.
    #[arg(long)]
    pub retune: bool,
    /// Print generation G's settings as JSON (the recipe given, else the
    /// run's own with --dir, else `record`; with --width, --seed and
    /// --max-depth applied) and run nothing: what a new run from
    /// generation G-1 would search with, for scripts that must not guess.
    #[arg(long, value_name = "G", conflicts_with_all = ["init", "last_game", "generation", "retune", "stop_after"])]
    pub print_config: Option<usize>,
    /// Stop at the first save after this long (e.g. 90m, 8h, 1h30m, 45s);
    /// SIGTERM stops there too. `cycle --dir DIR` goes on from it.
    #[arg(long, value_parser = parse_duration)]
    pub stop_after: Option<Duration>,
    /// Spread the searches and the refine step over processes: every
    /// process runs the whole cycle in a run folder of its own (process
    /// I > 0 in DIR/process-I), the same bytes in each.
    #[command(flatten)]
    pub dist: crate::commands::dist::DistArgs,
    #[command(flatten)]
    pub run: crate::commands::RunArgs,
}

/// The most cycles one command runs (a cycle of the record recipe takes
/// hours; a run goes on with `--cycles` raised).
pub const MAX_CYCLES: usize = 1000;

/// The longest --stop-after (a year).
const MAX_STOP_AFTER: u64 = 366 * 24 * 3600;

/// A duration as `--stop-after` takes it: whole numbers with units h, m,
/// s (`1h30m`, `90m`, `45s`), or seconds alone.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let bad = || format!("'{text}' is not a duration (e.g. 90m, 8h, 1h30m, 45s)");
    let t = text.trim();
    if t.is_empty() || t.starts_with('-') {
        return Err(bad());
    }
    if let Ok(secs) = t.parse::<u64>() {
        return check_duration(secs, text);
    }
    let (mut total, mut number) = (0u64, String::new());
    for ch in t.chars() {
        if ch.is_ascii_digit() {
            number.push(ch);
            continue;
        }
        let unit = match ch {
            'h' => 3600,
            'm' => 60,
            's' => 1,
            _ => return Err(bad()),
        };
        let n: u64 = number.parse().map_err(|_| bad())?;
        total = n.checked_mul(unit).and_then(|x| total.checked_add(x)).ok_or_else(bad)?;
        number.clear();
    }
    if !number.is_empty() {
        return Err(bad());
    }
    check_duration(total, text)
}

fn check_duration(secs: u64, text: &str) -> Result<Duration, String> {
    if secs == 0 {
        return Err(format!("'{text}': the time must be above 0"));
    }
    if secs > MAX_STOP_AFTER {
        return Err(format!("'{text}' is more than a year"));
    }
    Ok(Duration::from_secs(secs))
}

fn step_name(step: Step) -> &'static str {
    match step {
        Step::Search => "search",
        Step::Refine => "refine",
        Step::Learn => "learn",
    }
}

/// Reads a recipe file, its errors naming it.
fn read_recipe(path: &Path) -> Result<Recipe> {
    let text = std::fs::read_to_string(path).with_context(|| format!("--recipe {}: cannot read it", path.display()))?;
    Recipe::parse(&text).map_err(|e| anyhow::anyhow!("--recipe {}: {}", path.display(), e.replace('\n', " ")))
}

impl CycleArgs {
    /// `recipe` with the settings given on the line in place of its own.
    fn overridden(&self, mut recipe: Recipe) -> Recipe {
        if let Some(w) = self.width {
            recipe.settings.width = Some(w);
            for s in recipe.from.values_mut() {
                s.width = None;
            }
            recipe.from.retain(|_, s| *s != Default::default());
        }
        if let Some(seed) = self.seed {
            recipe.seed = seed;
        }
        if let Some(d) = self.max_depth {
            recipe.settings.max_depth = Some(d);
        }
        recipe
    }

    /// The flags checked alone, before any file is read.
    fn check(&self) -> Result<()> {
        if self.cycles == 0 || self.cycles > MAX_CYCLES {
            bail!(
                "--cycles must be at least 1 and at most {MAX_CYCLES} (got {}); a run goes on with --cycles raised",
                self.cycles
            );
        }
        if let Some(w) = self.width {
            if w == 0 {
                bail!("--width must be at least 1");
            }
            crate::checks::width("width", w)?;
        }
        if let Some(g) = self.generation {
            if g > MAX_GENERATION {
                bail!("--generation must be at most {MAX_GENERATION} (got {g})");
            }
        }
        if let Some(d) = self.max_depth {
            crate::checks::count("max-depth", d, hatetris_game::MAX_DEPTH)?;
        }
        self.run.start_pool()
    }
}

/// Cycles a run has finished (metrics.jsonl's lines).
fn cycles_done(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("metrics.jsonl")).map_or(0, |t| t.lines().filter(|l| !l.trim().is_empty()).count())
}

/// Names the differences (`width 100000 -> 200000`) for a refusal.
fn said(diffs: &[(String, String)]) -> String {
    diffs.iter().map(|(k, d)| format!("{k} {d}")).collect::<Vec<_>>().join(", ")
}

/// Refuses a difference between a run's settings and the asked ones
/// unless --retune is given and every key is retunable.
fn allow(dir: &Path, diffs: &[(String, String)], retune: bool, fixed: Vec<String>) -> Result<()> {
    if diffs.is_empty() {
        return Ok(());
    }
    if !retune {
        bail!(
            "{} follows another recipe: {} (--retune to change settings a schedule may change)",
            dir.display(),
            said(diffs)
        );
    }
    if !fixed.is_empty() {
        bail!("--retune may not change {} (only {})", fixed.join(", "), retunable_names());
    }
    Ok(())
}

/// The keys of `diffs` that `--retune` may not change.
fn not_retunable(diffs: &[(String, String)]) -> Vec<String> {
    diffs.iter().map(|(k, _)| k.clone()).filter(|k| !RETUNABLE.iter().any(|(name, _)| name == k)).collect()
}

/// How the command runs: a recipe, or (a run from before recipes, asked
/// for nothing else) its config.json alone.
#[allow(clippy::large_enum_variant)]
enum Plan {
    Recipe(Recipe),
    Config(CycleConfig),
}

/// Stops the run at its next save on SIGTERM.
fn stop_on_sigterm() {
    #[cfg(unix)]
    {
        extern "C" fn on_term(_: libc::c_int) {
            request_stop();
        }
        // SAFETY: the handler only stores to an atomic.
        unsafe {
            libc::signal(libc::SIGTERM, on_term as extern "C" fn(libc::c_int) as libc::sighandler_t);
        }
    }
}

/// What [`Recipe::check`] refuses in the recipe as the flags change it.
fn check_recipe(recipe: &Recipe) -> Result<()> {
    recipe.check().map_err(|e| anyhow::anyhow!("the recipe with the flags given: {e}"))
}

/// `--print-config G`: generation G's settings, nothing written.
fn print_config(args: &CycleArgs, generation: usize) -> Result<()> {
    if generation == 0 || generation > MAX_GENERATION {
        bail!("--print-config must be a generation from 1 to {MAX_GENERATION} (got {generation})");
    }
    let recipe = match (&args.recipe, &args.dir) {
        (Some(path), _) => read_recipe(path)?,
        (None, Some(dir)) if dir.join("config.json").exists() => {
            Recipe::stored(dir)?.with_context(|| format!("{} follows no recipe; give --recipe", dir.display()))?
        }
        _ => Recipe::record(),
    };
    let mut recipe = args.overridden(recipe);
    recipe.first_generation = generation - 1;
    check_recipe(&recipe)?;
    let config = recipe.config_for(generation);
    println!("{}", serde_json::to_string_pretty(&config)?);
    Ok(())
}

pub fn cycle(args: &CycleArgs, matches: &clap::ArgMatches) -> Result<()> {
    let _ = matches;
    if let Some(g) = args.print_config {
        args.check()?;
        return print_config(args, g);
    }
    let spread = args.dist.spread();
    let dir = args.dist.own_folder(args.dir.as_deref().expect("clap requires --dir without --print-config"));
    args.check()?;
    let given = args.recipe.as_deref().map(read_recipe).transpose()?;
    let initial = match &args.init {
        Some(p) => Network::load(p).with_context(|| format!("cannot load network {}", p.display()))?,
        None => Network::embedded_bootstrap(),
    };
    let last_game = match &args.last_game {
        Some(p) => Some(
            std::fs::read_to_string(p)
                .with_context(|| format!("--last-game {}: cannot read it", p.display()))?
                .trim()
                .to_string(),
        ),
        None => None,
    };
    let quiet = args.run.quiet;
    // Everything is checked before anything is written.
    let plan = match stored_config(&dir)? {
        None => {
            if args.retune {
                bail!("--retune changes a run that exists; {} holds none", dir.display());
            }
            let mut recipe = args.overridden(given.unwrap_or_else(Recipe::record));
            recipe.first_generation = args.generation.unwrap_or(0);
            check_recipe(&recipe)?;
            recipe.config_for_cycle(1).validate()?;
            Plan::Recipe(recipe)
        }
        Some(stored) => {
            if args.init.is_some() {
                let net0 = dir.join("net-000.hnet");
                if Network::load(&net0)? != initial {
                    bail!(
                        "{} was started from another network ({}); it cannot go on from --init as given",
                        dir.display(),
                        net0.display()
                    );
                }
            }
            if let Some(game) = &last_game {
                let stored = dir.join(FIRST_GAME);
                match std::fs::read_to_string(&stored) {
                    Ok(own) if own.trim() == game => {}
                    Ok(_) => bail!(
                        "{} goes on from another first game ({}); it cannot go on from --last-game as given",
                        dir.display(),
                        stored.display()
                    ),
                    Err(_) => bail!("{} was started without --last-game; it cannot go on from one", dir.display()),
                }
            }
            let next = cycles_done(&dir) + 1;
            match Recipe::stored(&dir)? {
                Some(own) => {
                    let mut asked = args.overridden(given.unwrap_or_else(|| own.clone()));
                    asked.first_generation = args.generation.unwrap_or(own.first_generation);
                    check_recipe(&asked)?;
                    let diffs = own.differences(&asked);
                    allow(&dir, &diffs, args.retune, own.retune_to(&asked).err().unwrap_or_default())?;
                    if !diffs.is_empty() && !quiet {
                        eprintln!("retuned {} for the steps not yet run: {}", dir.display(), said(&diffs));
                    }
                    Plan::Recipe(asked)
                }
                None => match given {
                    // A run from before recipes goes on under one: its
                    // generation from its seed, its settings the recipe's
                    // for the cycle it goes on with.
                    Some(recipe) => {
                        let mut recipe = args.overridden(recipe);
                        let first = match args.generation {
                            Some(g) => g,
                            None => recipe.generation_of_seed(stored.seed).with_context(|| {
                                format!(
                                    "{}'s seed {} is not the recipe's (seed {}) at any generation: give --generation G",
                                    dir.display(),
                                    stored.seed,
                                    recipe.seed
                                )
                            })?,
                        };
                        recipe.first_generation = first;
                        check_recipe(&recipe)?;
                        let wanted = recipe.config_for_cycle(next);
                        let mut diffs = config_differences(&stored, &wanted);
                        if diffs.is_empty() && wanted != stored {
                            diffs.push(("settings".into(), "(not named by a key) differ".into()));
                        }
                        allow(&dir, &diffs, args.retune, not_retunable(&diffs))?;
                        if !quiet {
                            eprintln!(
                                "{} goes on under the recipe from generation {} (its cycle {next})",
                                dir.display(),
                                first + next
                            );
                        }
                        Plan::Recipe(recipe)
                    }
                    None => {
                        if last_game.is_some() {
                            bail!("--last-game needs a run that follows a recipe; {} has none", dir.display());
                        }
                        let mut wanted = stored.clone();
                        if let Some(w) = args.width {
                            wanted.width = w;
                        }
                        if let Some(s) = args.seed {
                            wanted.seed = s;
                        }
                        if let Some(d) = args.max_depth {
                            wanted.max_depth = d;
                        }
                        let diffs = config_differences(&stored, &wanted);
                        allow(&dir, &diffs, args.retune, not_retunable(&diffs))?;
                        if !diffs.is_empty() {
                            retune_config(&dir, &wanted)?;
                        }
                        Plan::Config(wanted)
                    }
                },
            }
        }
    };
    if !quiet && dir.join("config.json").exists() {
        eprintln!("continuing the run in {}", dir.display());
    }
    stop_on_sigterm();
    if let Some(after) = args.stop_after {
        std::thread::spawn(move || {
            std::thread::sleep(after);
            request_stop();
        });
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
        CycleEvent::SearchSaved { cycle, depth, lines, pieces, rows_held } => {
            if !quiet {
                let rows: Vec<String> = rows_held.iter().map(|t| t.to_string()).collect();
                let rows = if rows.is_empty() { "none".to_string() } else { rows.join(", ") };
                eprintln!(
                    "cycle {cycle} search: saved at depth {depth}; best line {lines} lines, {pieces} pieces, \
                     bottom rows held since pieces {rows}"
                );
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
    let mut run = |spread: &mut dyn hatetris_learn::cycle::spread::Spread| match &plan {
        Plan::Recipe(recipe) => {
            run_recipe_on(spread, &dir, args.cycles, recipe, &initial, last_game.as_deref(), &mut on_event)
        }
        Plan::Config(config) => run_cycles_on(spread, &dir, args.cycles, config, &initial, None, &mut on_event),
    };
    let metrics = if spread {
        let (cluster, copies) = args.dist.cluster()?;
        let mut on = ClusterSpread::new(cluster);
        let metrics = run(&mut on)?;
        if let Some(copies) = copies {
            copies.wait()?;
        }
        metrics
    } else {
        run(&mut Alone)?
    };
    if stop_requested() && metrics.len() < args.cycles {
        let first = match &plan {
            Plan::Recipe(r) => r.first_generation,
            Plan::Config(_) => 0,
        };
        let next = metrics.len() + 1;
        eprintln!(
            "stopped at a save in cycle {next} (generation {}); `hatetris cycle --dir {} --cycles {}` goes on from there",
            first + next,
            dir.display(),
            args.cycles
        );
        return Ok(());
    }
    if !quiet {
        if let Some(best) = metrics.iter().max_by_key(|m| m.lines) {
            eprintln!(
                "{} cycles done; best search: cycle {} with {} lines ({})",
                metrics.len(),
                best.cycle,
                best.lines,
                dir.join("best.b2048").display()
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The command stays lean: at most 25 options, --help included.
    #[test]
    fn the_command_lists_at_most_25_options() {
        let cmd = <CycleArgs as clap::Args>::augment_args(clap::Command::new("cycle"));
        let n = cmd.get_arguments().count() + 1;
        assert!(n <= 25, "{n} options");
    }

    #[test]
    fn durations_read_as_said_and_nonsense_is_refused() {
        assert_eq!(parse_duration("90m").unwrap(), Duration::from_secs(5400));
        assert_eq!(parse_duration("1h30m").unwrap(), Duration::from_secs(5400));
        assert_eq!(parse_duration("45s").unwrap(), Duration::from_secs(45));
        assert_eq!(parse_duration("120").unwrap(), Duration::from_secs(120));
        for bad in ["0", "0m", "-5m", "5x", "m", "1h30", "", "9999999h", "99999999999999999999999s"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
