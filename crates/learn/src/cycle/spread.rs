//! Where a cycle's searches run: in this process alone ([`Alone`]), or
//! spread over processes (`hatetris_dist::spread::ClusterSpread` implements
//! [`Spread`] on timely; this crate holds no networking).
//!
//! Spread, every process runs the whole cycle in its own run folder: the
//! searches and the refine step are shared, every process sees every
//! depth's whole beam, so the samples, the refined wells and the trained
//! networks (training is the same for any thread count) are the same bytes
//! in every folder. Nothing but the spread steps crosses the network.

use super::error::CycleError;
use super::refine::RefineConfig;
use hatetris_eval::Evaluator;
use hatetris_game::{Rules, Well};
pub use hatetris_search::runner::{Alone, Runner};
use std::sync::Arc;

/// What one refine step needs besides its wells.
pub struct PartSettings<'a> {
    pub rules: Rules,
    pub config: &'a RefineConfig,
    pub eval: &'a Arc<dyn Evaluator>,
    pub eval_name: &'a str,
    pub seed: u64,
}

/// A [`Runner`] that can also share out the refine step.
pub trait Spread: Runner {
    /// The (value, lookahead) pairs of `wells`, the same as
    /// [`super::lookahead_pairs`] gives alone (the cycle refines its wells
    /// in parts, keeping each part's pairs as it ends).
    fn refine_pairs(
        &mut self,
        wells: &[Well],
        families: Option<&[u32]>,
        settings: &PartSettings,
        progress: &mut dyn FnMut(usize),
    ) -> Result<Vec<(f32, f32)>, CycleError>;
}

impl Spread for Alone {
    fn refine_pairs(
        &mut self,
        wells: &[Well],
        families: Option<&[u32]>,
        s: &PartSettings,
        progress: &mut dyn FnMut(usize),
    ) -> Result<Vec<(f32, f32)>, CycleError> {
        Ok(super::lookahead_pairs(wells, families, s.rules, s.config, s.eval.as_ref(), s.seed, progress))
    }
}
