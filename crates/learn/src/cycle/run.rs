//! Running cycles, each step resumable.

use super::config::{stored_config, CycleConfig};
use super::metrics::{plot_progress, read_metrics, suite_step, write_metrics, CycleMetrics, SuiteRecord};
use super::parts::{refine_in_parts, remove_parts, PartSettings, PART_WELLS};
use super::refine::{targets_from_pairs, RefineConfig};
use super::resume::{self, SamplerState};
use super::spread::{Alone, Spread};
use crate::dataset::{read_dataset, write_dataset, DatasetWriter, Sample};
use crate::distill::label_with_mean;
use crate::train::{train, TrainConfig};
use hatetris_eval::{Evaluator, Network, QuantizedNetwork};
use hatetris_fileio::write_atomically;
use hatetris_game::frozen::{freezing_rate, HOLD};
use hatetris_game::{choose_piece_and_landings, Rules, Well};
use hatetris_search::{quiescence::chain_values, verified_replay, BeamState, Blend, ChainRule, Chains, SearchConfig};
use hatetris_strength::games::noisy_opening;
use hatetris_strength::{Start, Suite};
use rand::seq::index::sample;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashSet;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// A place in a run, ordered as the run goes (see `run_cycles_on`).
fn point(cycle: usize, step: Step) -> u64 {
    cycle as u64 * 3 + step as u64
}

/// The three steps of a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Search,
    Refine,
    Learn,
}

/// Progress events for the command line.
pub enum CycleEvent<'a> {
    StepStarted {
        cycle: usize,
        step: Step,
    },
    StepSkipped {
        cycle: usize,
        step: Step,
    },
    SearchDepth {
        cycle: usize,
        report: &'a hatetris_search::DepthReport,
    },
    /// The master search goes on from its save at `depth` (`lines` so far).
    SearchResumed {
        cycle: usize,
        depth: usize,
        lines: u32,
    },
    RefineProgress {
        cycle: usize,
        done: usize,
        total: usize,
    },
    Epoch {
        cycle: usize,
        report: &'a crate::train::EpochReport,
    },
    SuiteProgress {
        done: usize,
        total: usize,
    },
    CycleDone {
        metrics: &'a CycleMetrics,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum CycleError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{0}")]
    Data(#[from] crate::dataset::DatasetError),
    #[error("{0}")]
    Weights(#[from] hatetris_eval::WeightsError),
    #[error("{0}")]
    Train(#[from] crate::train::TrainError),
    #[error("{path}: malformed ({what})")]
    Malformed { path: PathBuf, what: String },
    #[error("the search's line does not replay: {0}")]
    Line(#[from] hatetris_search::LineError),
    #[error("{0}")]
    Plot(String),
    #[error("{0}")]
    Suite(#[from] hatetris_strength::SuiteError),
    #[error("starts {path}: {what}")]
    Starts { path: PathBuf, what: String },
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Spread(String),
}

/// A cycle's refine step as [`run_cycles`] takes it, read from the run's
/// directory: the sampled wells, their families, the settings, the seed
/// and the network. `hatetris refine` refines the same wells with it
/// elsewhere (over processes), and [`RefineStep::write`] writes the bytes
/// the cycle writes; [`RefineStep::record`] then marks the cycle's step
/// done, so that the run, resumed, goes on to learn from them.
#[derive(Clone, Debug)]
pub struct RefineStep {
    pub cycle: usize,
    pub wells: Vec<Well>,
    /// Each well's family (the entry it is a child of), when the run
    /// samples children; None when it samples the entries themselves.
    pub families: Option<Vec<u32>>,
    pub rules: Rules,
    pub config: RefineConfig,
    pub seed: u64,
    /// The network that refines: the one the cycle searched with (the
    /// cycle before's result, or the run's starting network).
    pub network: PathBuf,
    /// The sampled wells read (`cycle-NNN/samples.htds`).
    pub samples: PathBuf,
    /// Where the cycle writes its refined data set (`cycle-NNN/refined.htds`).
    pub refined: PathBuf,
    /// The step's record (`cycle-NNN/refine.json`), written last.
    record: PathBuf,
}

impl RefineStep {
    /// Cycle `cycle` of the run in `dir`, its settings from `dir`'s
    /// config.json (only the refine step's are checked: the anchor and
    /// starts files need not be here). Refused: a directory that is no run,
    /// and a cycle whose search step has not finished (no search.json).
    pub fn open(dir: &Path, cycle: usize) -> Result<RefineStep, CycleError> {
        let Some(config) = stored_config(dir)? else {
            return Err(CycleError::Invalid(format!("{} holds no run (no config.json)", dir.display())));
        };
        let rules = config
            .refine_rules()
            .map_err(|e| CycleError::Malformed { path: dir.join("config.json"), what: e.to_string() })?;
        if cycle == 0 {
            return Err(CycleError::Invalid("cycles count from 1".into()));
        }
        let cdir = cycle_dir(dir, cycle);
        if !cdir.join("search.json").exists() {
            return Err(CycleError::Invalid(format!(
                "cycle {cycle} of {} has not finished its search step (no {})",
                dir.display(),
                cdir.join("search.json").display()
            )));
        }
        RefineStep::read(&config, rules, dir, cycle)
    }

    /// The step of `config`'s run in `dir`, its samples read.
    fn read(config: &CycleConfig, rules: Rules, dir: &Path, cycle: usize) -> Result<RefineStep, CycleError> {
        let cdir = cycle_dir(dir, cycle);
        let samples = cdir.join("samples.htds");
        let read = config.refine.picked(&read_dataset(&samples)?);
        let wells: Vec<Well> = read.iter().map(Sample::well).collect();
        // Sampled children carry their family's number (Sampler::take).
        let families = config.sample_children.then(|| read.iter().map(|s| s.target as u32).collect());
        Ok(RefineStep {
            cycle,
            wells,
            families,
            rules,
            config: config.refine.clone(),
            seed: config.cycle_seed(cycle),
            network: network_for(dir, cycle),
            samples,
            refined: cdir.join("refined.htds"),
            record: cdir.join("refine.json"),
        })
    }

    /// The network that refines, evaluating as the cycle's does (its first
    /// layer in i16), and the name that identifies it to the peers of a
    /// spread run (its weights).
    pub fn evaluator(&self) -> Result<(Arc<dyn Evaluator>, String), CycleError> {
        let net = Network::load(&self.network)?;
        Ok((Arc::new(QuantizedNetwork::new(&net)), network_name(self.cycle, &net)))
    }

    /// Whether the cycle's refine step is done (its data set and record
    /// both there).
    pub fn done(&self) -> bool {
        self.refined.exists() && self.record.exists()
    }

    /// Writes the wells with `targets` (one per well, in order) to `out`,
    /// as the cycle writes its refined data set.
    pub fn write(&self, out: &Path, targets: &[f32]) -> Result<(), CycleError> {
        assert_eq!(targets.len(), self.wells.len(), "one target per well");
        let refined: Vec<Sample> =
            self.wells.iter().zip(targets).map(|(w, t)| Sample::new(w.playable(self.rules), *t)).collect();
        write_dataset(out, &format!("refine cycle {}", self.cycle), &refined)?;
        Ok(())
    }

    /// Records the step as done in `secs` seconds (refine.json), once
    /// [`RefineStep::write`] has written `refined`: the run, resumed,
    /// skips it.
    pub fn record(&self, secs: f64) -> Result<(), CycleError> {
        if !self.refined.exists() {
            return Err(CycleError::Invalid(format!("{} is not written", self.refined.display())));
        }
        write_json(&self.record, &secs)
    }
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

/// The search step's record (search.json), and what `sample_game` returns.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SearchRecord {
    /// Lines of the searched game (its replay verified).
    pub lines: u32,
    pub pieces: usize,
    /// The game's Base2048 replay.
    pub replay: String,
    /// Wells written to the samples file.
    pub wells_sampled: usize,
    pub search_secs: f64,
    #[serde(default)]
    pub starts_pieces: Option<f64>,
    /// Lines of each opening's game (`openings`).
    #[serde(default)]
    pub opening_lines: Vec<u32>,
    /// Lines of the game the network before searched again (`retry_below`).
    #[serde(default)]
    pub retry_lines: Option<u32>,
    /// Rows the game froze per 100 pieces (`hatetris_game::frozen`).
    #[serde(default)]
    pub frozen_per_100: Option<f64>,
    /// The beam width of the searched game.
    #[serde(default)]
    pub width: Option<usize>,
    /// Its chains' depth and band.
    #[serde(default)]
    pub chains: Option<(u32, u32)>,
    /// Its chains' rule.
    #[serde(default)]
    pub chain_rule: Option<ChainRule>,
    /// Its chains' blend.
    #[serde(default)]
    pub chain_blend: Option<Blend>,
    /// Its chains' follow, when not 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_follow: Option<u32>,
}

/// A cycle's search step on its own: one game from the empty well (the
/// official 16 rows, the HATETRIS enemy) at `config.width`, with up to
/// `config.samples_per_depth` of each depth's beam entries written to `out`
/// as a data set, as the cycle samples them, and `config.openings` games
/// opened with noise besides it (as the cycle's `openings`). Distillation
/// (`label`) needs wells and not targets, so any evaluator's wells serve,
/// and wells of the kind a cycle samples come from a network file alone
/// (the same bytes as a cycle's only at that cycle's seed). Only the
/// search step's fields of `config` are read.
pub fn sample_game(
    spread: &mut dyn Spread,
    eval: &Arc<dyn Evaluator>,
    eval_name: &str,
    config: &CycleConfig,
    out: &Path,
    on_depth: &mut dyn FnMut(&hatetris_search::DepthReport),
) -> Result<SearchRecord, CycleError> {
    let mut on_event = |e: CycleEvent| {
        if let CycleEvent::SearchDepth { report, .. } = e {
            on_depth(report)
        }
    };
    let net = (eval, eval_name);
    // One search, saved nowhere: its folder is the user's, not a run's.
    let config = CycleConfig { checkpoint_entries: 0, ..config.clone() };
    search_step(spread, &config, Rules::STANDARD, None, net, None, config.seed, 0, out, &mut on_event)
}

pub(super) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> CycleError + '_ {
    move |source| CycleError::Io { path: path.to_path_buf(), source }
}

pub(super) fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), CycleError> {
    let text = serde_json::to_string_pretty(value).expect("serialisable");
    write_atomically(path, text.as_bytes()).map_err(io(path))
}

pub(super) fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, CycleError> {
    let text = std::fs::read_to_string(path).map_err(io(path))?;
    serde_json::from_str(&text).map_err(|e| CycleError::Malformed { path: path.into(), what: e.to_string() })
}

fn cycle_dir(run: &Path, cycle: usize) -> PathBuf {
    run.join(format!("cycle-{cycle:03}"))
}

/// The name that identifies the network of cycle `cycle` to the peers of
/// a spread run (its weights, not its path).
fn network_name(cycle: usize, net: &Network) -> String {
    format!("cycle {cycle} network {:08x}", net.checksum())
}

/// The network that plays cycle `cycle` (the previous cycle's result).
fn network_for(run: &Path, cycle: usize) -> PathBuf {
    if cycle == 1 {
        run.join("net-000.hnet")
    } else {
        cycle_dir(run, cycle - 1).join("net.hnet")
    }
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
    // Everything is checked before anything is written: a setting refused
    // is never stored, and a folder left by a refused start starts again.
    let config_path = dir.join("config.json");
    let net0 = dir.join("net-000.hnet");
    let config: CycleConfig = match stored_config(dir)? {
        Some(stored) => {
            stored.validate()?;
            remove_stale_temps(dir)?;
            stored
        }
        None => {
            config.validate()?;
            std::fs::create_dir_all(dir).map_err(io(dir))?;
            remove_stale_temps(dir)?;
            // The settings last: until they are written the run is new.
            initial.save(&net0)?;
            write_json(&config_path, config)?;
            config.clone()
        }
    };
    if !net0.exists() {
        initial.save(&net0)?;
    }
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
    for cycle in metrics.len() + 1..=cycles {
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
                search_step(spread, &config, rules, starts.as_ref(), net, retry, seed, cycle, path, on_event)
            })?;
        resume::remove(&cdir)?;
        if stop_after == Some(step) {
            return Ok(metrics);
        }

        // Refine.
        let refined_path = cdir.join("refined.htds");
        let step = (cycle, Step::Refine);
        let again = rerun(cycle, Step::Refine);
        let refine_secs: f64 =
            resumable(step, &refined_path, &cdir.join("refine.json"), again, on_event, |on_event| {
                let t = Instant::now();
                let step = RefineStep::read(&config, rules, dir, cycle)?;
                let total = step.wells.len();
                let families = step.families.as_deref();
                let settings = PartSettings { rules, config: &step.config, eval: &qnet, eval_name: &net_name, seed };
                let pairs =
                    refine_in_parts(spread, &cdir, &step.wells, families, &settings, PART_WELLS, &mut |done| {
                        on_event(CycleEvent::RefineProgress { cycle, done, total })
                    })?;
                step.write(&refined_path, &targets_from_pairs(pairs, families, &step.config))?;
                Ok(t.elapsed().as_secs_f64())
            })?;
        remove_parts(&cdir)?;
        if stop_after == Some(step) {
            return Ok(metrics);
        }

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

        // Suite: the strength of what was learned (and, once, of the start).
        if cycle == 1 {
            suite_step(&config, &dir.join("suite-000.json"), &network_for(dir, 1), on_event)?;
        }
        let suite = suite_step(&config, &cdir.join("suite.json"), &net_path, on_event)?;

        let m = CycleMetrics {
            cycle,
            lines: record.lines,
            pieces: record.pieces,
            replay: record.replay,
            wells_sampled: record.wells_sampled,
            search_secs: record.search_secs,
            refine_secs,
            refine_ms_per_well: refine_secs * 1000.0 / record.wells_sampled.div_ceil(config.refine.every).max(1) as f64,
            train_loss,
            validation_loss,
            epochs,
            wall_secs: started.elapsed().as_secs_f64(),
            suite_pieces: suite.as_ref().map(|s| s.mean_pieces),
            suite_lines: suite.as_ref().map(|s| s.mean_lines),
            starts_pieces: record.starts_pieces,
            opening_lines: record.opening_lines.clone(),
            retry_lines: record.retry_lines,
            frozen_per_100: record.frozen_per_100,
            width: record.width,
            chains: record.chains,
            chain_rule: record.chain_rule,
            chain_blend: record.chain_blend,
            chain_follow: record.chain_follow,
        };
        metrics.push(m.clone());
        write_metrics(&metrics_path, &metrics)?;
        let initial_suite: Option<SuiteRecord> =
            if config.suite_width > 0 { Some(read_json(&dir.join("suite-000.json"))?) } else { None };
        plot_progress(dir, &metrics, initial_suite.as_ref())?;
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

/// Moves a start must share with a public game's line to be refused as one
/// of its positions: more than any two different games share by chance.
const PUBLIC_PREFIX: usize = 50;

/// Reads the --starts suite and checks that it can teach: positions of the
/// official game (so the run's height must be 16) and none of them a start
/// of the embedded strength suite, the public games that only measure.
pub(super) fn load_starts(path: &Path, rules: Rules) -> Result<Suite, CycleError> {
    let bad = |what: String| CycleError::Starts { path: path.to_path_buf(), what };
    if rules != hatetris_strength::suite::RULES {
        return Err(bad(format!("starts are positions of the 16-row game; this run is {} rows", rules.height())));
    }
    let suite = Suite::load(path)?;
    if suite.starts.is_empty() {
        return Err(bad("no starts".into()));
    }
    // The embedded suite's lines are the public games' first 100 to 275
    // moves: a start that shares their first PUBLIC_PREFIX moves is a
    // position of one of those games (or of a suite made from them, as the
    // denser one), not of the engine's own.
    let opening = |s: &Start| -> Option<Vec<u32>> {
        (s.moves.len() >= PUBLIC_PREFIX).then(|| s.moves[..PUBLIC_PREFIX].iter().map(|m| m.pack()).collect())
    };
    let public: FxHashSet<Vec<u32>> = Suite::embedded_default().starts.iter().filter_map(opening).collect();
    if let Some(s) = suite.starts.iter().find(|s| opening(s).is_some_and(|o| public.contains(&o))) {
        return Err(bad(format!(
            "start {} piece {} is a position of a public game of the strength suite (public games measure, they do not teach)",
            s.source, s.piece
        )));
    }
    Ok(suite)
}

/// Draws the search step's samples from each depth's beam.
struct Sampler<'a> {
    config: &'a CycleConfig,
    /// The search's evaluator, to value children as the search does.
    net: &'a dyn Evaluator,
    /// With `sample_band`: the children sampled at the last depth, with
    /// their family's number and search value, until the next depth's cut
    /// is known.
    pending: Vec<(Well, f32, f32)>,
    /// Families (sampled entries whose children were taken) so far.
    families: u32,
    /// The run's rules: the game's and the starts' (both 16 rows with starts).
    rules: Rules,
    rng: ChaCha8Rng,
    /// Wells a depth of the search being sampled.
    per_depth: usize,
    writer: DatasetWriter,
    /// Every sample written, for the step's saves (tens of MB at the
    /// record engine's scale).
    kept: Vec<Sample>,
    error: Option<CycleError>,
}

impl Sampler<'_> {
    /// Samples `state`'s beam; false stops the search after a write error.
    fn take(&mut self, state: &BeamState) -> bool {
        let rules = self.rules;
        let band = self.config.sample_children && self.config.sample_band > 0.0;
        if band {
            let pending = std::mem::take(&mut self.pending);
            let values = state.beam.iter().map(|e| e.value);
            if let (Some(cut), Some(top)) = (values.clone().reduce(f32::min), values.reduce(f32::max)) {
                let floor = cut - self.config.sample_band * (top - cut);
                for (w, family, _) in pending.into_iter().filter(|&(_, _, v)| v >= floor) {
                    if !self.write(&w, family) {
                        return false;
                    }
                }
            }
        }
        let k = self.per_depth.min(state.beam.len());
        let mut picks = sample(&mut self.rng, state.beam.len(), k).into_vec();
        picks.sort_unstable();
        for i in picks {
            let e = &state.beam[i];
            // A child's value is refine's business: its sample carries the
            // number of its family (the children of one entry, written
            // together), which the relative, family and joint targets
            // need. Numbers stay exact
            // in an f32 up to 2^24 families a cycle.
            let wells: Vec<(Well, f32)> = if self.config.sample_children {
                self.families += 1;
                let family = self.families as f32;
                let memory = state.tree.memory_at(e.node);
                // The landings are distinct wells already.
                let (_, landings) = choose_piece_and_landings(&e.well, rules, Some(&memory));
                landings.into_iter().filter(|l| !l.well.is_game_over()).map(|l| (l.well, family)).collect()
            } else {
                vec![(e.well, e.value)]
            };
            if band {
                let children: Vec<Well> = wells.iter().map(|&(w, _)| w).collect();
                let mut values = vec![0.0; children.len()];
                let chains = Chains {
                    rule: self.config.chain_rule,
                    depth: self.config.quiescence,
                    band: 0,
                    blend: self.config.chain_blend,
                    follow: self.config.chain_follow,
                };
                chain_values(self.net, rules, Some(&e.well), &children, chains, &mut values);
                self.pending.extend(wells.into_iter().zip(values).map(|((w, family), v)| (w, family, v)));
                continue;
            }
            for (w, value) in wells {
                if !self.write(&w, value) {
                    return false;
                }
            }
        }
        true
    }

    /// Writes one sample; false (the error kept) if the write failed.
    fn write(&mut self, well: &Well, value: f32) -> bool {
        let sample = Sample::new(well.playable(self.rules), value);
        if let Err(err) = self.writer.push(&sample) {
            self.error = Some(err.into());
            return false;
        }
        self.kept.push(sample);
        true
    }

    /// The state a save keeps.
    fn state(&self, secs: f64) -> SamplerState {
        SamplerState {
            secs,
            word_pos: self.rng.get_word_pos(),
            families: self.families,
            pending: self.pending.clone(),
            samples: self.kept.clone(),
        }
    }

    /// Takes up a saved state: the samples written again, the stream and
    /// the families where they were.
    fn restore(&mut self, saved: SamplerState) -> Result<(), CycleError> {
        for sample in &saved.samples {
            self.writer.push(sample)?;
        }
        self.kept = saved.samples;
        self.rng.set_word_pos(saved.word_pos);
        self.families = saved.families;
        self.pending = saved.pending;
        Ok(())
    }
}

#[allow(clippy::too_many_arguments)]
/// An evaluator and the name that identifies it to the peers of a spread run.
type Named<'a> = (&'a Arc<dyn Evaluator>, &'a str);

#[allow(clippy::too_many_arguments)]
fn search_step(
    spread: &mut dyn Spread,
    config: &CycleConfig,
    rules: Rules,
    starts: Option<&Suite>,
    (net, net_name): Named,
    retry: Option<(Named, u32)>,
    seed: u64,
    cycle: usize,
    samples_path: &Path,
    on_event: &mut dyn FnMut(CycleEvent),
) -> Result<SearchRecord, CycleError> {
    let search = SearchConfig {
        width: config.width,
        rules,
        enemy: hatetris_game::Enemy::Hatetris,
        quiescence: config.quiescence,
        chain_rule: config.chain_rule,
        chain_band: config.chain_band,
        chain_blend: config.chain_blend,
        chain_follow: config.chain_follow,
        seed,
        twins: 1,
        max_depth: config.max_depth,
    };
    let mut sampler = Sampler {
        config,
        net: net.as_ref(),
        pending: Vec::new(),
        families: 0,
        rules,
        rng: ChaCha8Rng::seed_from_u64(seed),
        per_depth: config.samples_per_depth,
        writer: DatasetWriter::create(samples_path, &format!("search cycle {cycle}"))?,
        kept: Vec::new(),
        error: None,
    };
    // The master game goes on from the last save every process holds.
    let dir = samples_path.parent().unwrap_or(Path::new("."));
    let every = config.checkpoint_depths();
    let mut saves = if every > 0 { resume::load(dir, &search, net_name) } else { Vec::new() };
    let mine = saves.first().map_or(0, |s| s.search.state.depth as u64 + 1);
    let agreed = spread.least(mine).map_err(CycleError::Spread)?;
    let at = saves.iter().position(|s| s.search.state.depth as u64 + 1 == agreed);
    let all_hold = spread.least(at.is_some() as u64).map_err(CycleError::Spread)? == 1;
    let (mut state, secs_before) = match at {
        Some(k) if all_hold => {
            let saved = saves.swap_remove(k);
            let secs = saved.sampler.secs;
            sampler.restore(saved.sampler)?;
            let (depth, lines) = (saved.search.state.depth, saved.search.state.best_score);
            on_event(CycleEvent::SearchResumed { cycle, depth, lines });
            (saved.search.state, secs)
        }
        _ => (BeamState::new(), 0.0),
    };
    drop(saves);
    let t = Instant::now();
    let secs = |t: Instant| secs_before + t.elapsed().as_secs_f64();
    // A search whose beams are sampled, depth by depth, with progress; the
    // master game's (`save`) saved every `every` depths and at its end.
    let mut sampled =
        |state: &mut BeamState, sampler: &mut Sampler, search: &SearchConfig, (eval, name): Named, save: bool| {
            if state.depth == 0 || !save {
                sampler.pending.clear();
            }
            spread
                .search(state, search, eval, name, true, &mut |report, s| {
                    on_event(CycleEvent::SearchDepth { cycle, report });
                    let s = s.expect("every state was asked for");
                    if !sampler.take(s) {
                        return false;
                    }
                    if save && every > 0 && (s.depth % every == 0 || s.is_finished(search)) {
                        if let Err(e) = resume::save(dir, search, name, s, &sampler.state(secs(t))) {
                            sampler.error = Some(e);
                            return false;
                        }
                    }
                    true
                })
                .map_err(CycleError::Spread)?;
            Ok::<u32, CycleError>(state.best_score)
        };
    let lines = sampled(&mut state, &mut sampler, &search, (net, net_name), true)?;
    let mut retry_lines = None;
    if let Some((before, last_lines)) = retry {
        if (lines as f32) < config.retry_below * last_lines as f32 {
            retry_lines = Some(sampled(&mut BeamState::new(), &mut sampler, &search, before, false)?);
        }
    }
    let mut starts_pieces = None;
    if let Some(suite) = starts {
        let from_start = SearchConfig { max_depth: config.start_pieces, ..search.clone() };
        let mut total = 0usize;
        for start in &suite.starts {
            if sampler.error.is_some() {
                break;
            }
            let mut s = BeamState::from_moves(&start.moves, rules, search.enemy)?;
            sampled(&mut s, &mut sampler, &from_start, (net, net_name), false)?;
            total += s.pieces_survived();
        }
        starts_pieces = Some(total as f64 / suite.starts.len() as f64);
    }
    let mut opening_lines = Vec::new();
    for k in 1..=config.openings {
        if sampler.error.is_some() {
            break;
        }
        let salt = seed ^ (k as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
        let width = if config.opening_width > 0 { config.opening_width } else { config.width };
        let on = SearchConfig { width, seed: salt, ..search.clone() };
        let moves = noisy_opening(net.as_ref(), &on, config.opening_pieces, config.opening_noise, salt);
        let mut s = BeamState::from_moves(&moves, rules, search.enemy)?;
        sampler.per_depth = if config.opening_samples > 0 { config.opening_samples } else { config.samples_per_depth };
        opening_lines.push(sampled(&mut s, &mut sampler, &on, (net, net_name), false)?);
    }
    if let Some(e) = sampler.error {
        return Err(e);
    }
    sampler.writer.finish()?;
    let result = state.result();
    let verified = verified_replay(rules, search.enemy, &result.moves, hatetris_game::replay::Format::Base2048)?;
    Ok(SearchRecord {
        lines: verified.score,
        pieces: result.moves.len(),
        replay: verified.replay,
        wells_sampled: sampler.kept.len(),
        search_secs: secs(t),
        starts_pieces,
        opening_lines,
        retry_lines,
        frozen_per_100: freezing_rate(&verified.wells, HOLD),
        width: Some(config.width),
        chains: Some((config.quiescence, config.chain_band)),
        chain_rule: Some(config.chain_rule),
        chain_blend: Some(config.chain_blend),
        chain_follow: (config.chain_follow > 0).then_some(config.chain_follow),
    })
}

#[cfg(test)]
mod tests {
    use super::super::config::retune_config;
    use super::*;
    use hatetris_search::runner::Runner;

    #[test]
    fn a_retune_changes_the_budget_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        assert!(retune_config(dir.path(), &tiny()).unwrap_err().to_string().contains("no config.json"));
        write_json(&dir.path().join("config.json"), &tiny()).unwrap();
        let wider = CycleConfig {
            width: 24,
            samples_per_depth: 9,
            quiescence: 3,
            chain_rule: ChainRule::Enemy,
            chain_band: 2,
            chain_blend: Blend::from_thousandths(500).unwrap(),
            chain_follow: 1,
            refine: RefineConfig {
                width: 8,
                every: 2,
                quiescence: 2,
                chain_rule: ChainRule::Enemy,
                chain_blend: Blend::from_thousandths(500).unwrap(),
                chain_follow: 1,
                ..tiny().refine
            },
            history: 1,
            train: TrainConfig { max_epochs: 1, learning_rate: 5e-4, ..tiny().train },
            ..tiny()
        };
        // Each retunable setting is taken over by its own copy, and the
        // list holds them all.
        let mut taken = tiny();
        for (name, retune) in super::super::config::RETUNABLE {
            let before = taken.clone();
            retune(&mut taken, &wider);
            assert_ne!(taken, before, "{name} took nothing over");
        }
        assert_eq!(taken, wider);
        retune_config(dir.path(), &wider).unwrap();
        assert_eq!(stored_config(dir.path()).unwrap(), Some(wider.clone()));
        for other in [
            CycleConfig { seed: 6, ..wider.clone() },
            CycleConfig { max_depth: 1, ..wider.clone() },
            CycleConfig { refine: RefineConfig { depth: 5, ..wider.refine.clone() }, ..wider.clone() },
            CycleConfig { train: TrainConfig { batch_size: 7, ..wider.train.clone() }, ..wider.clone() },
        ] {
            assert!(retune_config(dir.path(), &other).unwrap_err().to_string().contains("may be retuned"));
            assert_eq!(stored_config(dir.path()).unwrap(), Some(wider.clone()), "unchanged");
        }
    }

    /// A network whose games at a few dozen entries wide live long and
    /// clear lines: d4 (`crates/eval/nets/d4.hnet`). The embedded default
    /// (gen-b's generation 34) was trained on beams of 200,000 and below a
    /// few hundred entries its games end within about 30 pieces.
    fn narrow_beam_network() -> Network {
        Network::from_bytes(include_bytes!("../../../eval/nets/d4.hnet")).expect("d4 is a valid network")
    }

    fn tiny() -> CycleConfig {
        CycleConfig {
            width: 12,
            samples_per_depth: 6,
            refine: RefineConfig { width: 4, depth: 3, ..RefineConfig::default() },
            history: 3,
            quiescence: 1,
            seed: 5,
            max_depth: 24,
            train: TrainConfig { hidden: 8, batch_size: 32, max_epochs: 2, ..TrainConfig::default() },
            suite_width: 2,
            suite_pieces: 3,
            ..CycleConfig::default()
        }
    }

    fn steps(events: &[String], kind: &str) -> Vec<String> {
        events.iter().filter(|e| e.starts_with(kind)).cloned().collect()
    }

    fn run(dir: &Path, cycles: usize, stop: Option<(usize, Step)>) -> (Vec<CycleMetrics>, Vec<String>) {
        let mut events = Vec::new();
        let net = Network::random(8, 1);
        let metrics = run_cycles(dir, cycles, &tiny(), &net, stop, &mut |e| match e {
            CycleEvent::StepStarted { cycle, step } => events.push(format!("started {cycle} {step:?}")),
            CycleEvent::StepSkipped { cycle, step } => events.push(format!("skipped {cycle} {step:?}")),
            _ => {}
        })
        .unwrap();
        (metrics, events)
    }

    /// Runs cycle 1's search step alone; its record, or the run's error.
    fn search_only(dir: &Path, config: &CycleConfig) -> Result<SearchRecord, CycleError> {
        let net = Network::random(8, 1);
        run_cycles(dir, 1, config, &net, Some((1, Step::Search)), &mut |_| {})?;
        Ok(read_json(&cycle_dir(dir, 1).join("search.json")).unwrap())
    }

    #[test]
    fn a_search_killed_midway_goes_on_from_its_save_to_the_same_bytes() {
        let tmp = tempfile::tempdir().unwrap();
        // Children in a band: the pending children cross the saves too.
        let config = CycleConfig { sample_children: true, sample_band: 0.5, checkpoint_entries: 48, ..tiny() };
        assert_eq!(config.checkpoint_depths(), 4);
        let whole = tmp.path().join("whole");
        let record = search_only(&whole, &config).unwrap();
        let samples = std::fs::read(cycle_dir(&whole, 1).join("samples.htds")).unwrap();
        // The saves go once the record is written.
        assert!(!cycle_dir(&whole, 1).join(resume::FILE).exists());
        assert!(!cycle_dir(&whole, 1).join(resume::PREVIOUS).exists());

        let killed = tmp.path().join("killed");
        let net = Network::random(8, 1);
        let kill = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_cycles(&killed, 1, &config, &net, Some((1, Step::Search)), &mut |e| {
                if let CycleEvent::SearchDepth { report, .. } = e {
                    assert!(report.depth < 10, "killed at depth 10");
                }
            })
        }));
        assert!(kill.is_err());
        let cdir = cycle_dir(&killed, 1);
        assert!(!cdir.join("samples.htds").exists() && cdir.join(resume::FILE).exists());
        let resumed_at = |dir: &Path| {
            let mut at = None;
            run_cycles(dir, 1, &config, &net, Some((1, Step::Search)), &mut |e| {
                if let CycleEvent::SearchResumed { depth, .. } = e {
                    at = Some(depth);
                }
            })
            .unwrap();
            let again: SearchRecord = read_json(&cycle_dir(dir, 1).join("search.json")).unwrap();
            assert_eq!(
                (again.lines, &again.replay, again.pieces, again.wells_sampled),
                (record.lines, &record.replay, record.pieces, record.wells_sampled)
            );
            assert_eq!(std::fs::read(cycle_dir(dir, 1).join("samples.htds")).unwrap(), samples);
            at
        };
        // A copy whose last save is damaged goes on from the save before.
        let damaged = tmp.path().join("damaged");
        std::fs::create_dir_all(cycle_dir(&damaged, 1)).unwrap();
        for name in ["config.json", "net-000.hnet"] {
            std::fs::copy(killed.join(name), damaged.join(name)).unwrap();
        }
        let mut bytes = std::fs::read(cdir.join(resume::FILE)).unwrap();
        bytes[100] ^= 1;
        std::fs::write(cycle_dir(&damaged, 1).join(resume::FILE), bytes).unwrap();
        std::fs::copy(cdir.join(resume::PREVIOUS), cycle_dir(&damaged, 1).join(resume::PREVIOUS)).unwrap();
        assert_eq!(resumed_at(&killed), Some(8));
        assert_eq!(resumed_at(&damaged), Some(4));
        // Never saved with 0 entries.
        let never = tmp.path().join("never");
        search_only(&never, &CycleConfig { checkpoint_entries: 0, ..config.clone() }).unwrap();
        let kept = std::fs::read(cycle_dir(&never, 1).join("samples.htds")).unwrap();
        assert_eq!(kept, samples, "saving changes nothing");
    }

    #[test]
    fn a_sampled_game_leaves_nothing_but_its_data_set() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("w.htds");
        let net: Arc<dyn Evaluator> = Arc::new(Network::random(8, 1));
        let config = CycleConfig { checkpoint_entries: 12, ..tiny() };
        let record = sample_game(&mut Alone, &net, "net", &config, &out, &mut |_| {}).unwrap();
        assert!(record.pieces > 2);
        let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["w.htds"]);
    }

    /// One process whose peers answer `least` with the values given, in
    /// order: how a spread step agrees, without the network.
    struct Peers(std::collections::VecDeque<u64>);

    impl Runner for Peers {
        fn processes(&self) -> usize {
            1
        }
        fn search(
            &mut self,
            state: &mut BeamState,
            config: &SearchConfig,
            eval: &Arc<dyn Evaluator>,
            name: &str,
            every: bool,
            on_depth: &mut dyn FnMut(&hatetris_search::DepthReport, Option<&BeamState>) -> bool,
        ) -> Result<hatetris_search::SearchResult, String> {
            Alone.search(state, config, eval, name, every, on_depth)
        }
        fn least(&mut self, value: u64) -> Result<u64, String> {
            Ok(self.0.pop_front().map_or(value, |peer| peer.min(value)))
        }
    }

    impl Spread for Peers {
        fn refine_pairs(
            &mut self,
            wells: &[Well],
            families: Option<&[u32]>,
            settings: &PartSettings,
            progress: &mut dyn FnMut(usize),
        ) -> Result<Vec<(f32, f32)>, CycleError> {
            Alone.refine_pairs(wells, families, settings, progress)
        }
    }

    #[test]
    fn spread_the_search_goes_on_from_the_last_save_every_process_holds() {
        let tmp = tempfile::tempdir().unwrap();
        let config = CycleConfig { checkpoint_entries: 48, ..tiny() };
        let net = Network::random(8, 1);
        let whole = tmp.path().join("whole");
        let record = search_only(&whole, &config).unwrap();
        // A run killed at depth 10 holds saves at depths 4 and 8.
        let killed = tmp.path().join("killed");
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_cycles(&killed, 1, &config, &net, Some((1, Step::Search)), &mut |e| {
                if let CycleEvent::SearchDepth { report, .. } = e {
                    assert!(report.depth < 10, "killed at depth 10");
                }
            })
        }));
        let copy = |name: &str| {
            let to = tmp.path().join(name);
            std::fs::create_dir_all(cycle_dir(&to, 1)).unwrap();
            for f in ["config.json", "net-000.hnet", "cycle-001/search.htsc", "cycle-001/search.prev.htsc"] {
                std::fs::copy(killed.join(f), to.join(f)).unwrap();
            }
            to
        };
        // (peers' answers to "the depth of your last save + 1", then to
        // "do you hold the agreed one"; resumed at)
        for (peers, at) in [(vec![9, 1], Some(8)), (vec![5, 1], Some(4)), (vec![0, 0], None), (vec![9, 0], None)] {
            let dir = copy("spread");
            let mut resumed = None;
            let mut runner = Peers(peers.into());
            run_cycles_on(&mut runner, &dir, 1, &config, &net, Some((1, Step::Search)), &mut |e| {
                if let CycleEvent::SearchResumed { depth, .. } = e {
                    resumed = Some(depth);
                }
            })
            .unwrap();
            assert_eq!(resumed, at);
            let again: SearchRecord = read_json(&cycle_dir(&dir, 1).join("search.json")).unwrap();
            assert_eq!((again.replay, again.wells_sampled), (record.replay.clone(), record.wells_sampled));
            assert_eq!(
                std::fs::read(cycle_dir(&dir, 1).join("samples.htds")).unwrap(),
                std::fs::read(cycle_dir(&whole, 1).join("samples.htds")).unwrap()
            );
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[test]
    fn a_game_short_of_the_last_is_searched_again_by_the_network_before() {
        let tmp = tempfile::tempdir().unwrap();
        // d4's game of 40 pieces clears lines.
        let net = narrow_beam_network();
        let plain = tmp.path().join("plain");
        let base = CycleConfig { max_depth: 40, ..tiny() };
        run_cycles(&plain, 2, &base, &net, Some((2, Step::Search)), &mut |_| {}).unwrap();
        // Any game is short of 100 times a game with lines.
        let config = CycleConfig { retry_below: 100.0, ..base };
        let with = tmp.path().join("with");
        run_cycles(&with, 2, &config, &net, Some((2, Step::Search)), &mut |_| {}).unwrap();
        let first: SearchRecord = read_json(&cycle_dir(&with, 1).join("search.json")).unwrap();
        let a: SearchRecord = read_json(&cycle_dir(&plain, 2).join("search.json")).unwrap();
        let b: SearchRecord = read_json(&cycle_dir(&with, 2).join("search.json")).unwrap();
        assert!(first.retry_lines.is_none(), "cycle 1 has no game before it");
        assert_eq!((a.lines, &a.replay), (b.lines, &b.replay), "the cycle's own game is unchanged");
        assert!(first.lines > 0, "the last game has lines");
        assert!(b.retry_lines.is_some());
        assert!(b.wells_sampled > a.wells_sampled, "both games' beams are sampled");
        assert!(a.retry_lines.is_none());
    }

    /// The record's freezing rate is the one the engine's replay of the
    /// game gives (as `hatetris verify` prints it).
    #[test]
    fn the_game_records_how_fast_it_froze_rows() {
        let tmp = tempfile::tempdir().unwrap();
        let net = narrow_beam_network();
        // Wide enough that the game outlives the freezing rate's hold.
        let config = CycleConfig { max_depth: 70, width: 40, ..tiny() };
        run_cycles(tmp.path(), 1, &config, &net, Some((1, Step::Search)), &mut |_| {}).unwrap();
        let r: SearchRecord = read_json(&cycle_dir(tmp.path(), 1).join("search.json")).unwrap();
        assert!(r.pieces > HOLD + 2, "{} pieces", r.pieces);
        let keys = hatetris_game::replay::decode(&r.replay).unwrap();
        let mut wells = Vec::new();
        hatetris_game::play(Rules::STANDARD, hatetris_game::Enemy::Hatetris, &keys, |g, _| wells.push(*g.well()));
        assert_eq!(r.frozen_per_100, freezing_rate(&wells, HOLD));
        assert!(r.frozen_per_100.is_some());
    }

    #[test]
    fn openings_add_other_games_reproducibly() {
        let tmp = tempfile::tempdir().unwrap();
        let plain = search_only(&tmp.path().join("plain"), &tiny()).unwrap();
        let config = CycleConfig { openings: 2, opening_pieces: 5, opening_noise: 0.5, opening_samples: 3, ..tiny() };
        let with = search_only(&tmp.path().join("with"), &config).unwrap();
        let again = search_only(&tmp.path().join("again"), &config).unwrap();
        assert_eq!((with.lines, &with.replay), (plain.lines, &plain.replay), "the game itself is unchanged");
        assert!(plain.opening_lines.is_empty());
        assert_eq!(with.opening_lines.len(), 2);
        assert!(with.wells_sampled > plain.wells_sampled);
        assert_eq!((with.wells_sampled, &with.opening_lines), (again.wells_sampled, &again.opening_lines));
        let a = read_dataset(&cycle_dir(&tmp.path().join("with"), 1).join("samples.htds")).unwrap();
        let b = read_dataset(&cycle_dir(&tmp.path().join("again"), 1).join("samples.htds")).unwrap();
        assert!(a.iter().zip(&b).all(|(x, y)| x.well() == y.well()), "the same wells from the same seed");
        // The openings' wells are not the game's: other lines were played.
        let own = read_dataset(&cycle_dir(&tmp.path().join("plain"), 1).join("samples.htds")).unwrap();
        let own: FxHashSet<Well> = own.iter().map(Sample::well).collect();
        assert!(a.iter().filter(|s| !own.contains(&s.well())).count() > 10);
    }

    #[test]
    fn starts_add_their_beams_to_the_samples_and_public_positions_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        // An own game: a small search's line, with starts every 5 pieces.
        let search = SearchConfig {
            width: 12,
            rules: Rules::STANDARD,
            enemy: hatetris_game::Enemy::Hatetris,
            quiescence: 0,
            chain_rule: ChainRule::Sz,
            chain_band: 0,
            chain_blend: Blend::FULL,
            chain_follow: 0,
            seed: 1,
            twins: 1,
            max_depth: 20,
        };
        let line = hatetris_search::search(&search, &Network::random(8, 1), &mut |_| {}).moves;
        let keys = hatetris_search::keys_for_line(search.rules, search.enemy, &line).unwrap();
        let own = Suite::from_replay("own", &keys, 5, 5);
        assert!(own.starts.len() >= 3);
        let own_path = tmp.path().join("own.htsu");
        own.save(&own_path).unwrap();

        let plain = search_only(&tmp.path().join("plain"), &tiny()).unwrap();
        let config = CycleConfig { starts: Some(own_path.clone()), start_pieces: 4, ..tiny() };
        let with = search_only(&tmp.path().join("with"), &config).unwrap();
        assert_eq!((with.lines, &with.replay), (plain.lines, &plain.replay), "the game itself is unchanged");
        assert!(with.wells_sampled > plain.wells_sampled);
        assert!(plain.starts_pieces.is_none());
        assert!(with.starts_pieces.is_some_and(|p| p > 0.0 && p <= 4.0));
        let samples = read_dataset(&cycle_dir(&tmp.path().join("with"), 1).join("samples.htds")).unwrap();
        assert_eq!(samples.len(), with.wells_sampled);

        // A position of a public game before the suite's first piece (100),
        // as a denser suite of the same games would hold, is refused too.
        let line = Suite::embedded_default().starts[3].moves[..60].to_vec();
        let end =
            hatetris_search::replay_line(Rules::STANDARD, hatetris_game::Enemy::Hatetris, &line, |_, _, _| {}).unwrap();
        let early = Start { source: "public".into(), piece: 60, score: end.score, well: end.well, moves: line };
        let public = Suite { starts: vec![Suite::embedded_default().starts[3].clone()] };
        let public_early = tmp.path().join("public-early.htsu");
        Suite { starts: vec![early] }.save(&public_early).unwrap();
        let config = CycleConfig { starts: Some(public_early), ..tiny() };
        let err = search_only(&tmp.path().join("public-early"), &config).unwrap_err().to_string();
        assert!(err.contains("strength suite"), "{err}");
        let public_path = tmp.path().join("public.htsu");
        public.save(&public_path).unwrap();
        let config = CycleConfig { starts: Some(public_path), ..tiny() };
        let err = search_only(&tmp.path().join("public"), &config).unwrap_err().to_string();
        assert!(err.contains("strength suite"), "{err}");

        let config = CycleConfig { starts: Some(own_path), height: 11, ..tiny() };
        let err = search_only(&tmp.path().join("low"), &config).unwrap_err().to_string();
        assert!(err.contains("16-row"), "{err}");
    }

    #[test]
    fn the_band_keeps_the_children_near_the_cut_and_leaves_the_game_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let wells = |name: &str, band: f32| {
            let config = CycleConfig { sample_children: true, sample_band: band, ..tiny() };
            let record = search_only(&tmp.path().join(name), &config).unwrap();
            let samples = read_dataset(&cycle_dir(&tmp.path().join(name), 1).join("samples.htds")).unwrap();
            assert_eq!(samples.len(), record.wells_sampled);
            (record, samples.iter().map(Sample::well).collect::<Vec<Well>>())
        };
        let (all, all_wells) = wells("all", 0.0);
        let (wide, wide_wells) = wells("wide", 1e9);
        let (narrow, narrow_wells) = wells("narrow", 0.1);
        assert_eq!((&wide.replay, &narrow.replay), (&all.replay, &all.replay), "the game itself is unchanged");
        // The same entries are sampled: a band only drops children (a very
        // wide one none but those of a last depth whose cut never comes).
        assert!(wide_wells.iter().all(|w| all_wells.contains(w)));
        assert!(narrow_wells.iter().all(|w| wide_wells.contains(w)));
        assert!(!narrow_wells.is_empty() && narrow_wells.len() < wide_wells.len());
    }

    #[test]
    fn students_are_kept_and_a_resumed_learn_step_fits_the_same_network() {
        let tmp = tempfile::tempdir().unwrap();
        let net = Network::random(8, 1);
        let learn = |name: &str, students: usize| {
            let dir = tmp.path().join(name);
            let config = CycleConfig { students, suite_width: 0, ..tiny() };
            run_cycles(&dir, 1, &config, &net, Some((1, Step::Learn)), &mut |_| {}).unwrap();
            dir
        };
        let plain = learn("plain", 0);
        let with = learn("students", 2);
        let c = cycle_dir(&with, 1);
        let files = |d: &Path| std::fs::read(d.join("net.hnet")).unwrap();
        assert!(c.join("student-01.hnet").exists() && c.join("student-02.hnet").exists());
        assert!(!c.join("student-03.hnet").exists() && !cycle_dir(&plain, 1).join("student-01.hnet").exists());
        assert_ne!(files(&c), files(&cycle_dir(&plain, 1)), "the students' mean is another target");
        let students: Vec<Vec<u8>> =
            (1..=2).map(|k| std::fs::read(c.join(format!("student-{k:02}.hnet"))).unwrap()).collect();
        assert_ne!(students[0], students[1], "each student starts from its own weights");

        // Killed in the learn step after the students: the step is redone
        // from the kept students and gives the same network.
        let learned = files(&c);
        std::fs::remove_file(c.join("net.hnet")).unwrap();
        std::fs::remove_file(c.join("train.json")).unwrap();
        learn("students", 2);
        assert_eq!(files(&c), learned);
    }

    #[test]
    fn a_teacher_window_labels_with_the_earlier_cycles_networks_too() {
        let tmp = tempfile::tempdir().unwrap();
        let net = Network::random(8, 1);
        let windowed =
            |window: usize| CycleConfig { students: 1, teacher_window: window, history: 1, suite_width: 0, ..tiny() };
        let learn = |name: &str, window: usize| {
            let dir = tmp.path().join(name);
            run_cycles(&dir, 2, &windowed(window), &net, None, &mut |_| {}).unwrap();
            dir
        };
        let one = learn("one", 1);
        let two = learn("two", 2);
        let file = |d: &Path, c: usize, f: &str| std::fs::read(cycle_dir(d, c).join(f)).unwrap();
        // Cycle 1 has no earlier cycle: the window changes nothing there.
        assert_eq!(file(&one, 1, "net.hnet"), file(&two, 1, "net.hnet"));
        assert_eq!(file(&one, 2, "own.hnet"), file(&two, 2, "own.hnet"));
        assert_ne!(file(&one, 2, "net.hnet"), file(&two, 2, "net.hnet"), "cycle 1's networks teach cycle 2");

        // A window that reaches a cycle without its networks is refused.
        let gap = tmp.path().join("gap");
        let config = windowed(2);
        run_cycles(&gap, 1, &config, &net, None, &mut |_| {}).unwrap();
        std::fs::remove_file(cycle_dir(&gap, 1).join("own.hnet")).unwrap();
        let err = run_cycles(&gap, 2, &config, &net, None, &mut |_| {}).unwrap_err().to_string();
        assert!(err.contains("cycle-001") && err.contains("teacher window"), "{err}");
    }

    #[test]
    fn a_refine_step_done_outside_the_run_is_the_cycles_and_the_run_goes_on_from_it() {
        let tmp = tempfile::tempdir().unwrap();
        // The cycle's own refine step, for comparison.
        let own = tmp.path().join("own");
        run(&own, 1, Some((1, Step::Refine)));
        let dir = tmp.path().join("run");
        assert!(RefineStep::open(&dir, 1).unwrap_err().to_string().contains("no config.json"));
        run(&dir, 1, Some((1, Step::Search)));
        assert!(RefineStep::open(&dir, 2).unwrap_err().to_string().contains("search step"));
        assert!(RefineStep::open(&dir, 0).is_err());
        let step = RefineStep::open(&dir, 1).unwrap();
        assert!(!step.done());
        assert!(step.record(1.0).is_err(), "nothing written yet");
        let (eval, _) = step.evaluator().unwrap();
        let families = step.families.as_deref();
        let targets = super::super::refine_targets(
            &step.wells,
            families,
            step.rules,
            &step.config,
            eval.as_ref(),
            step.seed,
            &mut |_| {},
        );
        step.write(&step.refined, &targets).unwrap();
        step.record(2.5).unwrap();
        assert!(step.done());
        let refined = |d: &Path| std::fs::read(cycle_dir(d, 1).join("refined.htds")).unwrap();
        assert_eq!(refined(&dir), refined(&own));
        let (metrics, events) = run(&dir, 1, None);
        assert_eq!(steps(&events, "skipped"), ["skipped 1 Search", "skipped 1 Refine"]);
        assert_eq!(metrics[0].refine_secs, 2.5);
    }

    #[test]
    fn refine_every_k_refines_every_kth_sampled_well() {
        let tmp = tempfile::tempdir().unwrap();
        let config = CycleConfig { refine: RefineConfig { every: 3, ..tiny().refine }, ..tiny() };
        let net = Network::random(8, 1);
        let metrics = run_cycles(tmp.path(), 1, &config, &net, None, &mut |_| {}).unwrap();
        let c = cycle_dir(tmp.path(), 1);
        let samples = read_dataset(&c.join("samples.htds")).unwrap();
        let refined = read_dataset(&c.join("refined.htds")).unwrap();
        assert!(samples.len() > 6, "enough wells to take a share of");
        let picked: Vec<Well> = samples.iter().step_by(3).map(Sample::well).collect();
        assert_eq!(refined.iter().map(Sample::well).collect::<Vec<_>>(), picked);
        // The refine step alone (`hatetris refine`) takes the same share.
        assert_eq!(RefineStep::open(tmp.path(), 1).unwrap().wells, picked);
        let m = &metrics[0];
        assert_eq!(m.wells_sampled, samples.len());
        assert!((m.refine_ms_per_well - m.refine_secs * 1000.0 / picked.len() as f64).abs() < 1e-9);
        // Children are refined by family: a share would cut families apart.
        let children = CycleConfig { sample_children: true, ..config };
        assert!(children.validate().unwrap_err().to_string().contains("refine-every"));
    }

    #[test]
    fn a_cycle_interrupted_after_refine_resumes_and_leaves_every_file_readable() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let (metrics, events) = run(dir, 2, Some((1, Step::Refine)));
        assert!(metrics.is_empty());
        assert_eq!(steps(&events, "started"), ["started 1 Search", "started 1 Refine"]);
        let c1 = cycle_dir(dir, 1);
        assert!(c1.join("refined.htds").exists() && !c1.join("net.hnet").exists());

        let (metrics, events) = run(dir, 2, None);
        assert_eq!(steps(&events, "skipped"), ["skipped 1 Search", "skipped 1 Refine"]);
        assert_eq!(steps(&events, "started")[0], "started 1 Learn");
        assert_eq!(metrics.len(), 2);

        for (i, m) in metrics.iter().enumerate() {
            let c = cycle_dir(dir, i + 1);
            let samples = read_dataset(&c.join("samples.htds")).unwrap();
            let refined = read_dataset(&c.join("refined.htds")).unwrap();
            assert_eq!(samples.len(), m.wells_sampled);
            assert_eq!(refined.len(), samples.len());
            assert!(refined.iter().all(|s| (-1.0..=1.0).contains(&s.target)));
            Network::load(&c.join("net.hnet")).unwrap();
            let record: SearchRecord = read_json(&c.join("search.json")).unwrap();
            let keys = hatetris_game::replay::decode(&record.replay).unwrap();
            let out = hatetris_game::play(Rules::STANDARD, hatetris_game::Enemy::Hatetris, &keys, |_, _| {});
            assert_eq!(out.score, m.lines, "the recorded replay scores what the metrics say");
        }
        assert_eq!(read_metrics(&dir.join("metrics.jsonl")).unwrap(), metrics);
        // Each learned network, and the first, was measured on the suite.
        assert!(metrics.iter().all(|m| m.suite_pieces.is_some_and(|p| (0.0..=3.0).contains(&p))));
        let first: SuiteRecord = read_json(&dir.join("suite-000.json")).unwrap();
        assert!(first.network.ends_with("net-000.hnet"));
        for png in ["progress-lines.png", "progress-loss.png", "progress-suite.png"] {
            let bytes = std::fs::read(dir.join(png)).unwrap();
            assert_eq!(&bytes[1..4], b"PNG");
        }
        // Nothing half-written is left anywhere.
        let leftovers: Vec<_> =
            walk(dir).into_iter().filter(|p| p.file_name().unwrap().to_string_lossy().contains("tmp")).collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");

        // A finished run asked for no more cycles does nothing.
        let (again, events) = run(dir, 2, None);
        assert_eq!(again, metrics);
        assert!(events.is_empty());
    }

    fn walk(dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
        out
    }

    #[test]
    fn a_refused_setting_is_never_stored_and_the_folder_starts_again() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("run");
        let damaged = tmp.path().join("damaged.htds");
        std::fs::write(&damaged, b"not a data set").unwrap();
        let net = Network::random(8, 1);
        for (bad, says) in [
            (CycleConfig { train: TrainConfig { batch_size: 0, ..tiny().train }, ..tiny() }, "batch"),
            (CycleConfig { train: TrainConfig { max_epochs: 0, ..tiny().train }, ..tiny() }, "epochs"),
            (CycleConfig { anchor: vec![tmp.path().join("missing.htds")], ..tiny() }, "missing.htds"),
            (CycleConfig { anchor: vec![damaged.clone()], ..tiny() }, "damaged.htds"),
            (CycleConfig { starts: Some(tmp.path().join("missing.htsu")), ..tiny() }, "missing.htsu"),
            (CycleConfig { width: 0, ..tiny() }, "width"),
        ] {
            let err = run_cycles(&dir, 1, &bad, &net, Some((1, Step::Search)), &mut |_| {}).unwrap_err().to_string();
            assert!(err.contains(says), "{err}");
            assert!(!dir.join("config.json").exists(), "{says}: stored");
        }
        search_only(&dir, &tiny()).unwrap();
        assert_eq!(stored_config(&dir).unwrap(), Some(tiny()));
    }

    #[test]
    fn a_damaged_file_in_a_run_is_a_clear_error() {
        let tmp = tempfile::tempdir().unwrap();
        run(tmp.path(), 1, Some((1, Step::Refine)));
        let refined = cycle_dir(tmp.path(), 1).join("refined.htds");
        let mut bytes = std::fs::read(&refined).unwrap();
        let n = bytes.len();
        bytes[n / 2] ^= 0x40;
        std::fs::write(&refined, bytes).unwrap();
        let err = run_cycles(tmp.path(), 1, &tiny(), &Network::random(8, 1), None, &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("refined.htds"), "{err}");
    }
}
