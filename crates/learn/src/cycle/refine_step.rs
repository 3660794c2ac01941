//! A cycle's refine step read from its run folder, so that `hatetris
//! refine` can run it elsewhere and hand it back.

use super::config::{stored_config, CycleConfig};
use super::error::CycleError;
use super::files::{cycle_dir, network_for, network_name, read_json, write_json};
use super::refine::RefineConfig;
use super::search::SearchRecord;
use crate::dataset::{read_dataset, write_dataset, Sample};
use hatetris_eval::{Evaluator, Network, QuantizedNetwork};
use hatetris_game::{Rules, Well};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A cycle's refine step as [`super::run_cycles`] takes it, read from the run's
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
    pub(super) fn read(config: &CycleConfig, rules: Rules, dir: &Path, cycle: usize) -> Result<RefineStep, CycleError> {
        let cdir = cycle_dir(dir, cycle);
        let samples = cdir.join("samples.htds");
        // The search may have kept only the refine's wells (sample_only_refined).
        let record: SearchRecord = read_json(&cdir.join("search.json"))?;
        let stride = record.refine_stride(config.refine.every)?;
        let read: Vec<Sample> = read_dataset(&samples)?.into_iter().step_by(stride).collect();
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
