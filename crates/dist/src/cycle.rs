//! A learning cycle spread over processes: [`ClusterSpread`] runs the
//! cycle's searches (and its refine step) on the cluster for
//! `hatetris_learn::cycle::run_cycles_on`, which every process calls with
//! the same settings in a run folder of its own (see
//! `hatetris_learn::cycle::spread`).

use crate::beam::Event;
use crate::net::Cluster;
use crate::run::{execute, Exchanger};
use hatetris_eval::Evaluator;
use hatetris_game::{Rules, Well};
use hatetris_learn::cycle::spread::Spread;
use hatetris_learn::cycle::{CycleError, RefineConfig};
use hatetris_search::{BeamState, SearchConfig};
use std::sync::Arc;
use std::time::Duration;

/// How long a step after the first waits for its peers: they may still be
/// training or measuring (local steps whose length differs between
/// machines). A peer lost during a step is noticed at once regardless.
const STEP_WAIT: Duration = Duration::from_secs(600);

/// The cluster, as a cycle's [`Spread`].
pub struct ClusterSpread {
    cluster: Cluster,
    steps: usize,
}

impl ClusterSpread {
    pub fn new(cluster: Cluster) -> Self {
        ClusterSpread { cluster, steps: 0 }
    }

    /// The cluster for the next step: the first waits `--connect-timeout`
    /// for the peers, later ones [`STEP_WAIT`] at least.
    fn next(&mut self) -> Cluster {
        let mut c = self.cluster.clone();
        if self.steps > 0 {
            c.connect_timeout = c.connect_timeout.max(STEP_WAIT);
        }
        self.steps += 1;
        c
    }
}

fn spread_error(e: anyhow::Error) -> CycleError {
    CycleError::Spread(format!("{e:#}"))
}

impl Spread for ClusterSpread {
    fn processes(&self) -> usize {
        self.cluster.processes()
    }

    fn search(
        &mut self,
        state: &mut BeamState,
        config: &SearchConfig,
        eval: &Arc<dyn Evaluator>,
        eval_name: &str,
        on_depth: &mut dyn FnMut(&BeamState) -> bool,
    ) -> Result<(), CycleError> {
        // Every depth's whole state is gathered on every process: the
        // sampler reads the whole beam, and the same samples are then
        // drawn everywhere.
        let cluster = self.next();
        let mut last = None;
        crate::search(&cluster, config, Arc::clone(eval), eval_name, vec![state.clone()], 1, &mut |e| {
            if let Event::Checkpoint(s) = e {
                on_depth(&s);
                last = Some(*s);
            }
        })
        .map_err(spread_error)?;
        if let Some(s) = last {
            *state = s;
        }
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
        Ok(hatetris_learn::cycle::refine_targets(wells, families, rules, config, eval.as_ref(), seed, progress))
    }

    fn least(&mut self, point: u64) -> Result<u64, CycleError> {
        let cluster = self.next();
        let fingerprint = 0x6c65_6173_7400_0001 ^ cluster.processes() as u64; // "least"
        execute(&cluster, fingerprint, &mut |_: ()| {}, move |worker, _| {
            let mut ex = Exchanger::<u64>::new(worker);
            ex.all_gather(worker, point).into_iter().min().expect("at least this process")
        })
        .map_err(spread_error)
    }
}
