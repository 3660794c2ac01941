//! The steps of a cycle and the progress events a run reports.

use super::metrics::CycleMetrics;

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
