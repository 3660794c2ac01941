//! What a cycle refuses or fails on, and the I/O error helper every file
//! of the cycle shares.

use std::path::{Path, PathBuf};

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
    /// A stop was asked for (`stop::request_stop`) and the run stopped at a
    /// save; `run_cycles` returns the cycles done instead.
    #[error("stopped at a save, as asked")]
    Stopped,
}

/// Maps an I/O error on `path` to [`CycleError::Io`].
pub(super) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> CycleError + '_ {
    move |source| CycleError::Io { path: path.to_path_buf(), source }
}
