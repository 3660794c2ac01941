//! Running cycles, each step resumable.

use super::config::{retune_config, stored_config, CycleConfig};
use super::error::{io, CycleError};
use super::events::{CycleEvent, Step};
use super::files::{cycle_dir, network_for, network_name, read_json, remove_file_if_any, write_json};
use super::folder;
use super::metrics::{plot_progress, read_metrics, write_metrics, CycleMetrics, SuiteRecord};
use super::parts::{refine_in_parts, remove_parts, PART_WELLS};
use super::recipe::Recipe;
use super::refine::targets_from_pairs;
use super::refine_step::RefineStep;
use super::resume;
use super::search::{check_first_game, master_prefix, search_step, SearchRecord};
use super::spread::{Alone, PartSettings, Spread};
use super::starts::load_starts;
use super::stop::stop_requested;
use super::suite::suite_step;
use crate::dataset::read_dataset;
use crate::distill::label_with_mean;
use crate::train::{train, TrainConfig};
use hatetris_eval::{Evaluator, Network, QuantizedNetwork};
use hatetris_fileio::write_atomically;
use hatetris_game::Rules;
use rand::seq::index::sample;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// A place in a run, ordered as the run goes (see `run_cycles_on`).
fn point(cycle: usize, step: Step) -> u64 {
    cycle as u64 * 3 + step as u64
}

/// Removes the temporary files a killed run left in `dir` and its cycle
/// directories.
fn remove_stale_temps(dir: &Path) -> Result<(), CycleError> {
    let mut dirs = vec![dir.to_path_buf()];
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let entry = entry.map_err(io(dir))?;
        if entry.file_name().to_string_lossy().starts_with("cycle-") && entry.path().is_dir() {
            dirs.push(entry.path());
        }
    }
    for d in dirs {
        hatetris_fileio::remove_stale_temps(&d).map_err(io(&d))?;
    }
    Ok(())
}

/// Starts or continues the run in `dir` until `cycles` cycles are done.
/// `config` is used only when the run is new (else RUN/config.json rules);
/// `initial` is the starting network for a new run. `stop_after` ends the
/// process early after a given step (for tests of resumption).
pub fn run_cycles(
    dir: &Path,
    cycles: usize,
    config: &CycleConfig,
    initial: &Network,
    stop_after: Option<(usize, Step)>,
    on_event: &mut dyn FnMut(CycleEvent),
) -> Result<Vec<CycleMetrics>, CycleError> {
    run_cycles_on(&mut Alone, dir, cycles, config, initial, stop_after, on_event)
}

/// [`run_cycles`] with the searches and the refine step run by `spread`
/// (see [`super::spread`]): every process of a spread run calls it with
/// the same settings, each with its own `dir`.
pub fn run_cycles_on(
    spread: &mut dyn Spread,
    dir: &Path,
    cycles: usize,
    config: &CycleConfig,
    initial: &Network,
    stop_after: Option<(usize, Step)>,
    on_event: &mut dyn FnMut(CycleEvent),
) -> Result<Vec<CycleMetrics>, CycleError> {
    let start = Start { initial, first_game: None };
    stopped_or(dir, drive(spread, dir, cycles, config, None, start, stop_after, on_event))
}

/// [`run_cycles_on`] following `recipe`: a new run keeps it (`recipe.toml`,
/// before its config.json), and each cycle runs with the recipe's settings
/// for its generation (config.json rewritten, as `--retune` does, when the
/// schedule changes them). A run stopped at a save (`stop::request_stop`)
/// returns the cycles done.
///
/// `first_game`, for a new run: the game (a replay) its first master
/// search goes on from, `master_from_end` pieces before its end, as a later
/// cycle goes on from the cycle before's; the game the network `initial`
/// came from, when a lineage goes on in a new run. Kept as
/// [`FIRST_GAME`]; a run that exists keeps its own.
pub fn run_recipe_on(
    spread: &mut dyn Spread,
    dir: &Path,
    cycles: usize,
    recipe: &Recipe,
    initial: &Network,
    first_game: Option<&str>,
    on_event: &mut dyn FnMut(CycleEvent),
) -> Result<Vec<CycleMetrics>, CycleError> {
    let config = recipe.config_for_cycle(1);
    let start = Start { initial, first_game };
    stopped_or(dir, drive(spread, dir, cycles, &config, Some(recipe), start, None, on_event))
}

/// The file of a run's first game (`run_recipe_on`'s `first_game`).
pub const FIRST_GAME: &str = "game-000.b2048";

/// What a new run starts from: its network and the game it goes on from.
#[derive(Clone, Copy)]
struct Start<'a> {
    initial: &'a Network,
    first_game: Option<&'a str>,
}

/// A run's result, a stop at a save being the cycles done so far.
fn stopped_or(dir: &Path, result: Result<Vec<CycleMetrics>, CycleError>) -> Result<Vec<CycleMetrics>, CycleError> {
    match result {
        Err(CycleError::Stopped) => read_metrics(&dir.join("metrics.jsonl")),
        other => other,
    }
}

/// A stop asked for, taken between steps.
fn check_stop() -> Result<(), CycleError> {
    if stop_requested() {
        Err(CycleError::Stopped)
    } else {
        Ok(())
    }
}

#[allow(clippy::too_many_arguments)]
fn drive(
    spread: &mut dyn Spread,
    dir: &Path,
    cycles: usize,
    config: &CycleConfig,
    recipe: Option<&Recipe>,
    Start { initial, first_game }: Start,
    stop_after: Option<(usize, Step)>,
    on_event: &mut dyn FnMut(CycleEvent),
) -> Result<Vec<CycleMetrics>, CycleError> {
    // Everything is checked before anything is written: a setting refused
    // is never stored, and a folder left by a refused start starts again.
    let config_path = dir.join("config.json");
    let net0 = dir.join("net-000.hnet");
    let game0 = dir.join(FIRST_GAME);
    let mut config: CycleConfig = match stored_config(dir)? {
        Some(stored) => {
            stored.validate()?;
            remove_stale_temps(dir)?;
            if let Some(recipe) = recipe {
                recipe.store(dir)?;
            }
            stored
        }
        None => {
            let rules = config.validate()?;
            if let Some(game) = first_game {
                check_first_game(config, rules, game)?;
            }
            std::fs::create_dir_all(dir).map_err(io(dir))?;
            remove_stale_temps(dir)?;
            // The settings last: until they are written the run is new.
            initial.save(&net0)?;
            match first_game {
                Some(game) => write_atomically(&game0, game.trim().as_bytes()).map_err(io(&game0))?,
                None => remove_file_if_any(&game0)?,
            }
            if let Some(recipe) = recipe {
                recipe.store(dir)?;
            }
            write_json(&config_path, config)?;
            config.clone()
        }
    };
    let first_generation = recipe.map_or(0, |r| r.first_generation);
    if !net0.exists() {
        initial.save(&net0)?;
    }
    let first_game = match std::fs::read_to_string(&game0) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(CycleError::Io { path: game0, source: e }),
    };
    let metrics_path = dir.join("metrics.jsonl");
    let mut metrics = read_metrics(&metrics_path)?;
    let rules = Rules::with_height(config.height).ok_or_else(|| CycleError::Malformed {
        path: config_path.clone(),
        what: format!("height {} (1 to 16)", config.height),
    })?;
    let starts = match &config.starts {
        Some(path) => Some(load_starts(path, rules)?),
        None => None,
    };
    // Spread, a process may have finished a step its peers had not when
    // the run was killed: all go back to the first spread step one of
    // them has not finished, and run the spread steps from there again
    // (the same bytes; local steps already done are kept).
    let spread_from = if spread.processes() > 1 {
        let first = metrics.len() + 1;
        let done = |c: usize, name: &str, record: &str| {
            cycle_dir(dir, c).join(name).exists() && cycle_dir(dir, c).join(record).exists()
        };
        let mine = if !done(first, "samples.htds", "search.json") {
            point(first, Step::Search)
        } else if !done(first, "refined.htds", "refine.json") {
            point(first, Step::Refine)
        } else {
            point(first, Step::Learn)
        };
        let least = spread.least(mine).map_err(CycleError::Spread)?;
        let most = u64::MAX - spread.least(u64::MAX - mine).map_err(CycleError::Spread)?;
        // A kill leaves the folders at most two points apart (none passes
        // a spread step alone); farther means a folder was lost, or made
        // by a run alone, and redoing the steps between would take hours.
        if most - least > 2 {
            let at = |p: u64| format!("cycle {} {}", p / 3, ["search", "refine", "learn"][(p % 3) as usize]);
            return Err(CycleError::Spread(format!(
                "the processes' run folders are too far apart ({} and {}): one was lost or run alone; \
                 copy process 0's folder (DIR) over the others' (DIR/process-I) and start again",
                at(least),
                at(most)
            )));
        }
        metrics.truncate(least as usize / 3 - 1);
        least
    } else {
        u64::MAX
    };
    let rerun = |cycle: usize, step: Step| point(cycle, step) >= spread_from;
    let processes = spread.processes();
    for cycle in metrics.len() + 1..=cycles {
        check_stop()?;
        // The recipe's settings for this cycle's generation (the schedule).
        if let Some(recipe) = recipe {
            let wanted = recipe.config_for_cycle(cycle);
            if wanted != config {
                retune_config(dir, &wanted)?;
                config = wanted;
            }
        }
        let config = &config;
        let started = Instant::now();
        let cdir = cycle_dir(dir, cycle);
        std::fs::create_dir_all(&cdir).map_err(io(&cdir))?;
        let net = Network::load(&network_for(dir, cycle))?;
        // Search and refine evaluate as `hatetris search` does: the i16
        // first layer, about twice as fast as f32 and within 2e-3 of it.
        let qnet: Arc<dyn Evaluator> = Arc::new(QuantizedNetwork::new(&net));
        let net_name = network_name(cycle, &net);
        let seed = config.cycle_seed(cycle);

        // Search.
        let samples_path = cdir.join("samples.htds");
        let step = (cycle, Step::Search);
        let again = rerun(cycle, Step::Search);
        let search_here = Instant::now();
        let record: SearchRecord =
            resumable(step, &samples_path, &cdir.join("search.json"), again, on_event, |on_event| {
                let before = match metrics.last() {
                    Some(last) if config.retry_below > 0.0 => {
                        let previous = Network::load(&network_for(dir, cycle - 1))?;
                        let name = network_name(cycle - 1, &previous);
                        let q: Arc<dyn Evaluator> = Arc::new(QuantizedNetwork::new(&previous));
                        Some((q, name, last.lines))
                    }
                    _ => None,
                };
                let retry = before.as_ref().map(|(net, name, lines)| ((net, name.as_str()), *lines));
                let net = (&qnet, net_name.as_str());
                let path = &samples_path;
                let last = metrics.last().map(|m| m.replay.as_str()).or(first_game.as_deref());
                let prefix = master_prefix(config, rules, last)?;
                let starts = starts.as_ref();
                search_step(spread, config, rules, starts, &prefix, net, retry, seed, cycle, path, on_event)
            })?;
        // The cycle's time spent by earlier processes (a resumed run): the
        // steps keep their own (the search in its saves, the refine in its
        // parts); a learn or suite step an earlier process ended is not counted.
        let mut earlier_secs = (record.search_secs - search_here.elapsed().as_secs_f64()).max(0.0);
        resume::remove(&cdir)?;
        if stop_after == Some(step) {
            return Ok(metrics);
        }
        check_stop()?;

        // Refine.
        let refined_path = cdir.join("refined.htds");
        let step = (cycle, Step::Refine);
        let again = rerun(cycle, Step::Refine);
        let refine_here = Instant::now();
        let refine_secs: f64 =
            resumable(step, &refined_path, &cdir.join("refine.json"), again, on_event, |on_event| {
                let t = Instant::now();
                let step = RefineStep::read(config, rules, dir, cycle)?;
                let total = step.wells.len();
                let families = step.families.as_deref();
                let settings = PartSettings { rules, config: &step.config, eval: &qnet, eval_name: &net_name, seed };
                let (pairs, kept_secs) =
                    refine_in_parts(spread, &cdir, &step.wells, families, &settings, PART_WELLS, &mut |done| {
                        on_event(CycleEvent::RefineProgress { cycle, done, total })
                    })?;
                step.write(&refined_path, &targets_from_pairs(pairs, families, &step.config))?;
                Ok(t.elapsed().as_secs_f64() + kept_secs)
            })?;
        earlier_secs += (refine_secs - refine_here.elapsed().as_secs_f64()).max(0.0);
        remove_parts(&cdir)?;
        if stop_after == Some(step) {
            return Ok(metrics);
        }
        check_stop()?;

        // Learn.
        let net_path = cdir.join("net.hnet");
        let step = (cycle, Step::Learn);
        let (train_loss, validation_loss, epochs): (f64, f64, usize) =
            resumable(step, &net_path, &cdir.join("train.json"), false, on_event, |on_event| {
                let first = |window: usize| cycle.saturating_sub(window.max(1) - 1).max(1);
                let mut data = Vec::new();
                for c in first(config.history)..=cycle {
                    data.extend(read_dataset(&cycle_dir(dir, c).join("refined.htds"))?);
                }
                let mut anchor = Vec::new();
                for path in &config.anchor {
                    anchor.extend(read_dataset(path)?);
                }
                if config.anchor_samples > 0 && config.anchor_samples < anchor.len() {
                    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xA5C4);
                    let picks = sample(&mut rng, anchor.len(), config.anchor_samples);
                    data.extend(picks.iter().map(|i| anchor[i]));
                } else {
                    data.extend(anchor);
                }
                let mut tc = config.train.clone();
                tc.hidden = net.hidden;
                tc.seed = seed;
                let mut epoch = |r: &_| on_event(CycleEvent::Epoch { cycle, report: r });
                let mut result = train(&data, Some(net.clone()), &tc, &mut epoch)?;
                if config.students > 0 {
                    // The own fit and each student are kept as they are
                    // fitted: a learn step resumed after a kill refits only
                    // the missing ones, and later cycles' windows read them.
                    result.network.save(&cdir.join(OWN_FILE))?;
                    for k in 1..=config.students {
                        let path = cdir.join(student_file(k));
                        if !path.exists() {
                            let sc = TrainConfig {
                                seed: seed ^ (k as u64).wrapping_mul(0xD1B5_4A32_D192_ED03),
                                ..tc.clone()
                            };
                            train(&data, None, &sc, &mut epoch)?.network.save(&path)?;
                        }
                    }
                    // The teachers: every kept network of the window's
                    // cycles; the wells: the window's and the history's.
                    let mut members = Vec::new();
                    for c in first(config.teacher_window)..=cycle {
                        let cd = cycle_dir(dir, c);
                        for name in std::iter::once(OWN_FILE.to_string()).chain((1..=config.students).map(student_file))
                        {
                            let path = cd.join(name);
                            if !path.exists() {
                                return Err(CycleError::Malformed {
                                    path,
                                    what: format!(
                                        "missing: the teacher window of cycle {cycle} reaches cycle {c}, \
                                         which kept no networks of {} students",
                                        config.students
                                    ),
                                });
                            }
                            members.push(QuantizedNetwork::new(&Network::load(&path)?));
                        }
                    }
                    let mut wells = data;
                    for c in first(config.teacher_window)..first(config.history) {
                        wells.extend(read_dataset(&cycle_dir(dir, c).join("refined.htds"))?);
                    }
                    let teachers: Vec<&dyn Evaluator> = members.iter().map(|m| m as &dyn Evaluator).collect();
                    let (labelled, _) = label_with_mean(&wells, &teachers);
                    result = train(&labelled, Some(net.clone()), &tc, &mut epoch)?;
                }
                let best = result.epochs.iter().rev().find(|e| e.best).or(result.epochs.last());
                let summary = (
                    best.map(|e| e.train_loss as f64).unwrap_or(f64::NAN),
                    result.best_validation_loss as f64,
                    result.epochs.len(),
                );
                result.network.save(&net_path)?;
                Ok(summary)
            })?;
        if stop_after == Some(step) {
            return Ok(metrics);
        }
        check_stop()?;

        // Suite: the strength of what was learned (and, once, of the start).
        if cycle == 1 {
            suite_step(config, &dir.join("suite-000.json"), &network_for(dir, 1), on_event)?;
        }
        let suite = suite_step(config, &cdir.join("suite.json"), &net_path, on_event)?;

        let refined = record.wells_sampled.div_ceil(record.refine_stride(config.refine.every)?);
        let wall_secs = started.elapsed().as_secs_f64() + earlier_secs;
        let m = CycleMetrics {
            cycle,
            lines: record.lines,
            pieces: record.pieces,
            replay: record.replay,
            wells_sampled: record.wells_sampled,
            search_secs: record.search_secs,
            refine_secs,
            refine_ms_per_well: refine_secs * 1000.0 / refined.max(1) as f64,
            train_loss,
            validation_loss,
            epochs,
            wall_secs,
            suite_pieces: suite.as_ref().map(|s| s.mean_pieces),
            steady_pieces: suite.as_ref().and_then(|s| s.steady_pieces),
            steady_frozen_per_100: suite.as_ref().and_then(|s| s.steady_frozen_per_100),
            suite_lines: suite.as_ref().map(|s| s.mean_lines),
            starts_pieces: record.starts_pieces,
            opening_lines: record.opening_lines.clone(),
            retry_lines: record.retry_lines,
            from_piece: record.from_piece,
            frozen_per_100: record.frozen_per_100,
            width: record.width,
            chains: record.chains,
            chain_rule: record.chain_rule,
            chain_blend: record.chain_blend,
            chain_follow: record.chain_follow,
            core_secs: Some(wall_secs * (rayon::current_num_threads() * processes) as f64),
        };
        metrics.push(m.clone());
        write_metrics(&metrics_path, &metrics)?;
        let initial_suite: Option<SuiteRecord> =
            if config.suite_width > 0 { Some(read_json(&dir.join("suite-000.json"))?) } else { None };
        plot_progress(dir, &metrics, initial_suite.as_ref())?;
        folder::update(dir, rules, first_generation, &metrics, initial_suite.as_ref())?;
        on_event(CycleEvent::CycleDone { metrics: &m });
    }
    Ok(metrics)
}

/// A learn step's own fit with students, in its cycle's directory (later
/// cycles' teacher windows read it back).
const OWN_FILE: &str = "own.hnet";

/// A learn step's k-th student (from 1), in its cycle's directory.
fn student_file(k: usize) -> String {
    format!("student-{k:02}.hnet")
}

/// Runs one step of a cycle unless it is already done (and not to be run
/// `again`). A step is done when its output file and its record (written
/// last, atomically) both exist; then the record is read back instead.
fn resumable<T: Serialize + for<'de> Deserialize<'de>>(
    (cycle, step): (usize, Step),
    output: &Path,
    record: &Path,
    again: bool,
    on_event: &mut dyn FnMut(CycleEvent),
    run: impl FnOnce(&mut dyn FnMut(CycleEvent)) -> Result<T, CycleError>,
) -> Result<T, CycleError> {
    if output.exists() && record.exists() && !again {
        on_event(CycleEvent::StepSkipped { cycle, step });
        return read_json(record);
    }
    on_event(CycleEvent::StepStarted { cycle, step });
    let value = run(on_event)?;
    write_json(record, &value)?;
    Ok(value)
}

#[cfg(test)]
mod tests;
