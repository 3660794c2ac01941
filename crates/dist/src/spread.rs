//! Commands of many searches spread over processes: [`ClusterSpread`] runs
//! the searches (and a cycle's refine step) on the cluster for
//! `hatetris_learn::cycle::run_cycles_on`, `sample_game` and
//! `hatetris_hunt::HuntState::run_on`, which every process calls with the
//! same settings, each in a folder of its own (see
//! `hatetris_learn::cycle::spread`).

use crate::beam::Event;
use crate::net::Cluster;
use crate::run::{execute, Exchanger};
use hatetris_eval::Evaluator;
use hatetris_game::Well;
use hatetris_learn::cycle::spread::{Runner, Spread};
use hatetris_learn::cycle::{CycleError, PartSettings};
use hatetris_search::{BeamState, DepthReport, SearchConfig, SearchResult};
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

impl Runner for ClusterSpread {
    fn processes(&self) -> usize {
        self.cluster.processes()
    }

    fn search(
        &mut self,
        state: &mut BeamState,
        config: &SearchConfig,
        eval: &Arc<dyn Evaluator>,
        eval_name: &str,
        every_state: bool,
        on_depth: &mut dyn FnMut(&DepthReport, Option<&BeamState>) -> bool,
    ) -> Result<SearchResult, String> {
        // With `every_state`, each depth's whole state is gathered on
        // every process (a cycle's sampler reads the whole beam, and then
        // draws the same samples everywhere).
        let cluster = self.next();
        let mut last = None;
        let every = usize::from(every_state);
        let start = vec![state.clone()];
        let mut report = None;
        let outcome = crate::search(&cluster, config, Arc::clone(eval), eval_name, start, every, &mut |e| match e {
            Event::Depth(r, _) if every_state => report = Some(r),
            Event::Depth(r, _) => {
                on_depth(&r, None);
            }
            Event::Checkpoint(s) => {
                on_depth(report.as_ref().expect("a depth's report comes before its state"), Some(&s));
                last = Some(*s);
            }
        })
        .map_err(|e| format!("{e:#}"))?;
        if let Some(s) = last {
            *state = s;
        }
        Ok(outcome.result)
    }

    fn least(&mut self, value: u64) -> Result<u64, String> {
        let cluster = self.next();
        let fingerprint = 0x6c65_6173_7400_0001 ^ cluster.processes() as u64; // "least"
        execute(&cluster, fingerprint, &mut |_: ()| {}, move |worker, _| {
            let mut ex = Exchanger::<u64>::new(worker);
            ex.all_gather(worker, value).into_iter().min().expect("at least this process")
        })
        .map_err(|e| format!("{e:#}"))
    }
}

impl Spread for ClusterSpread {
    fn refine_pairs(
        &mut self,
        wells: &[Well],
        families: Option<&[u32]>,
        s: &PartSettings,
        progress: &mut dyn FnMut(usize),
    ) -> Result<Vec<(f32, f32)>, CycleError> {
        // Each process refines its block of the wells (`crate::refine`);
        // progress counts this process's wells, then all of them.
        let cluster = self.next();
        let pairs = crate::refine::refine_pairs(
            &cluster,
            wells,
            families,
            s.rules,
            s.config,
            Arc::clone(s.eval),
            s.eval_name,
            s.seed,
            &mut |done, _| progress(done),
        )
        .map_err(|e| CycleError::Spread(format!("{e:#}")))?;
        progress(wells.len());
        Ok(pairs)
    }
}
