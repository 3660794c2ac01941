//! The files of a run folder: JSON records written atomically and read
//! back, and where each cycle keeps its files and its network.

use super::error::{io, CycleError};
use hatetris_eval::Network;
use hatetris_fileio::write_atomically;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Writes `value` to `path` as pretty JSON, atomically.
pub(super) fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), CycleError> {
    let text = serde_json::to_string_pretty(value).expect("serialisable");
    write_atomically(path, text.as_bytes()).map_err(io(path))
}

/// Removes `path` if it is there.
pub(super) fn remove_file_if_any(path: &Path) -> Result<(), CycleError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(CycleError::Io { path: path.to_path_buf(), source: e })
        }
        _ => Ok(()),
    }
}

/// Reads the JSON record at `path`.
pub(super) fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, CycleError> {
    let text = std::fs::read_to_string(path).map_err(io(path))?;
    serde_json::from_str(&text).map_err(|e| CycleError::Malformed { path: path.into(), what: e.to_string() })
}

/// The folder of cycle `cycle` in the run `run`.
pub(super) fn cycle_dir(run: &Path, cycle: usize) -> PathBuf {
    run.join(format!("cycle-{cycle:03}"))
}

/// The name that identifies the network of cycle `cycle` to the peers of
/// a spread run (its weights, not its path).
pub(super) fn network_name(cycle: usize, net: &Network) -> String {
    format!("cycle {cycle} network {:08x}", net.checksum())
}

/// The network that plays cycle `cycle` (the previous cycle's result).
pub(super) fn network_for(run: &Path, cycle: usize) -> PathBuf {
    if cycle == 1 {
        run.join("net-000.hnet")
    } else {
        cycle_dir(run, cycle - 1).join("net.hnet")
    }
}
