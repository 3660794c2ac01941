//! Where a cycle's searches run: in this process alone ([`Alone`]), or
//! spread over processes (`hatetris_dist::cycle` implements [`Spread`] on
//! timely; this crate holds no networking).
//!
//! Spread, every process runs the whole cycle in its own run folder: the
//! searches and the refine step are shared, every process sees every
//! depth's whole beam, so the samples, the refined wells and the trained
//! networks (training is the same for any thread count) are the same bytes
//! in every folder. Nothing but the spread steps crosses the network.

use super::run::CycleError;
use super::RefineConfig;
use hatetris_eval::Evaluator;
use hatetris_game::{Rules, Well};
use hatetris_search::{run, BeamState, SearchConfig};
use std::sync::Arc;

pub trait Spread {
    /// How many processes take part (1 alone).
    fn processes(&self) -> usize;

    /// Runs the search from `state` until it ends; `on_depth` sees the
    /// whole state after each depth (its `false` stops a search alone, and
    /// is ignored spread: the peers cannot be stopped mid-depth).
    fn search(
        &mut self,
        state: &mut BeamState,
        config: &SearchConfig,
        eval: &Arc<dyn Evaluator>,
        eval_name: &str,
        on_depth: &mut dyn FnMut(&BeamState) -> bool,
    ) -> Result<(), CycleError>;

    /// The refine step's targets for `wells`, the same as
    /// [`super::refine_targets`] gives alone.
    #[allow(clippy::too_many_arguments)]
    fn refine(
        &mut self,
        wells: &[Well],
        families: Option<&[u32]>,
        rules: Rules,
        config: &RefineConfig,
        eval: &Arc<dyn Evaluator>,
        eval_name: &str,
        seed: u64,
        progress: &mut dyn FnMut(usize),
    ) -> Result<Vec<f32>, CycleError>;

    /// The least of every process's `point` (every process calls it at
    /// the same place): where a run killed on some processes resumes.
    fn least(&mut self, point: u64) -> Result<u64, CycleError>;
}

/// This process alone.
pub struct Alone;

impl Spread for Alone {
    fn processes(&self) -> usize {
        1
    }

    fn search(
        &mut self,
        state: &mut BeamState,
        config: &SearchConfig,
        eval: &Arc<dyn Evaluator>,
        _eval_name: &str,
        on_depth: &mut dyn FnMut(&BeamState) -> bool,
    ) -> Result<(), CycleError> {
        run(state, config, eval.as_ref(), on_depth);
        Ok(())
    }

    fn refine(
        &mut self,
        wells: &[Well],
        families: Option<&[u32]>,
        rules: Rules,
        config: &RefineConfig,
        eval: &Arc<dyn Evaluator>,
        _eval_name: &str,
        seed: u64,
        progress: &mut dyn FnMut(usize),
    ) -> Result<Vec<f32>, CycleError> {
        Ok(super::refine_targets(wells, families, rules, config, eval.as_ref(), seed, progress))
    }

    fn least(&mut self, point: u64) -> Result<u64, CycleError> {
        Ok(point)
    }
}
