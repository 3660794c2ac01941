//! Where a command's searches run: in this process ([`Alone`]), or spread
//! over processes (`hatetris_dist::spread::ClusterSpread`). Commands that
//! run many searches (a cycle, a hunt) take a [`Runner`], so that they
//! hold no networking and give the same results either way.

use crate::beam::{run, BeamState, DepthReport, SearchConfig, SearchResult};
use hatetris_eval::Evaluator;
use std::sync::Arc;

pub trait Runner {
    /// How many processes take part (1 alone).
    fn processes(&self) -> usize;

    /// Runs the search from `state` until it ends. `on_depth` sees each
    /// depth's report and, if `every_state`, the whole state (alone it
    /// always does); its `false` stops a search alone and is ignored
    /// spread (the peers cannot be stopped mid-depth). With `every_state`
    /// (or alone) `state` ends as the search's last state.
    fn search(
        &mut self,
        state: &mut BeamState,
        config: &SearchConfig,
        eval: &Arc<dyn Evaluator>,
        eval_name: &str,
        every_state: bool,
        on_depth: &mut dyn FnMut(&DepthReport, Option<&BeamState>) -> bool,
    ) -> Result<SearchResult, String>;

    /// The least of every process's `value` (every process calls it at
    /// the same place): agreeing where to resume, or whether to go on.
    fn least(&mut self, value: u64) -> Result<u64, String>;
}

/// This process alone.
pub struct Alone;

impl Runner for Alone {
    fn processes(&self) -> usize {
        1
    }

    fn search(
        &mut self,
        state: &mut BeamState,
        config: &SearchConfig,
        eval: &Arc<dyn Evaluator>,
        _eval_name: &str,
        _every_state: bool,
        on_depth: &mut dyn FnMut(&DepthReport, Option<&BeamState>) -> bool,
    ) -> Result<SearchResult, String> {
        run(state, config, eval.as_ref(), &mut |s| on_depth(&s.report(), Some(s)));
        Ok(state.result())
    }

    fn least(&mut self, value: u64) -> Result<u64, String> {
        Ok(value)
    }
}
