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
    /// The master search saved at `depth`. Its best line so far: score,
    /// pieces, and when each of its bottom rows last changed, from the
    /// floor up while the row has held for `HOLD` pieces or more (the
    /// rows it has frozen so far, as `hatetris verify` counts them).
    SearchSaved {
        cycle: usize,
        depth: usize,
        lines: u32,
        pieces: usize,
        rows_held: Vec<usize>,
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
