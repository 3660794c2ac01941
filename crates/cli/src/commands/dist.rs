//! The cluster flags of the commands that spread over processes
//! (`hatetris-dist`): timely's `-n`, `-p` and `-h` as `--processes`,
//! `--process` and `--hostfile`, and `--local N` for N processes on
//! 127.0.0.1.

use anyhow::Result;
use hatetris_dist::local::{self, LocalCluster};
use hatetris_dist::Cluster;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug, Clone)]
pub struct DistArgs {
    /// Spread the work over this many processes (timely's -n); every
    /// process runs the same command with its own --process.
    #[arg(long, default_value_t = 1)]
    pub processes: usize,
    /// This process's index, 0 to --processes - 1 (timely's -p); only
    /// process 0 prints and writes.
    #[arg(long, default_value_t = 0)]
    pub process: usize,
    /// Host file: one `host:port` a line, process 0 first (timely's -h;
    /// default 127.0.0.1 from port 2101).
    #[arg(long)]
    pub hostfile: Option<PathBuf>,
    /// Run as N processes on 127.0.0.1: this one and N-1 copies of it.
    #[arg(long, conflicts_with_all = ["processes", "process", "hostfile"])]
    pub local: Option<usize>,
    /// Seconds to wait for the other processes at the start.
    #[arg(long, default_value_t = 30.0)]
    pub connect_timeout: f64,
    /// Write each depth's cost on this process (seconds, bytes sent) as
    /// JSON lines to this file, suffixed `.pI` for process I.
    #[arg(long)]
    pub dist_costs: Option<PathBuf>,
}

impl DistArgs {
    /// Whether the command runs over processes at all.
    pub fn spread(&self) -> bool {
        self.processes > 1 || self.local.is_some_and(|n| n > 1)
    }

    /// This process's index (0 alone, and for the process `--local` runs in).
    pub fn process_index(&self) -> usize {
        if self.spread() {
            self.local.map_or(self.process, |_| 0)
        } else {
            0
        }
    }

    /// The folder this process keeps its files in when a command's folder
    /// is `dir`: `dir` itself for process 0 (or alone), `dir/process-I`
    /// for process I > 0, so that processes on one machine never share
    /// files and each machine's folder is complete.
    pub fn own_folder(&self, dir: &std::path::Path) -> PathBuf {
        match self.process_index() {
            0 => dir.to_path_buf(),
            i => dir.join(format!("process-{i}")),
        }
    }

    /// This process's cluster, the copies `--local` started, if any.
    pub fn cluster(&self) -> Result<(Cluster, Option<LocalCluster>)> {
        if !(self.connect_timeout > 0.0 && self.connect_timeout.is_finite()) {
            anyhow::bail!("--connect-timeout must be a positive number of seconds");
        }
        let timeout = Duration::from_secs_f64(self.connect_timeout);
        match self.local {
            Some(n) => {
                let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
                let (cluster, copies) = local::start(n, &local::without_local(&args), timeout)?;
                Ok((cluster, Some(copies)))
            }
            None => {
                Ok((Cluster::from_settings(self.processes, self.process, self.hostfile.as_deref(), timeout)?, None))
            }
        }
    }
}
