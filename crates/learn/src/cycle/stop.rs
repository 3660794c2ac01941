//! Stopping a run at its next save: a request (the command line's SIGTERM
//! handler, its `--stop-after` timer) that the cycle reads after each save
//! of the search, after each refine part and after each step.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Asks the run to stop at its next save (safe from a signal handler: one
/// atomic store).
pub fn request_stop() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Whether a stop was asked for.
pub fn stop_requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// Withdraws a request (for tests that run several runs in one process).
pub fn clear_stop() {
    REQUESTED.store(false, Ordering::SeqCst);
}
