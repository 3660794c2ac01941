//! The cluster flags of the commands that spread over processes
//! (`hatetris-dist`): timely's `-n`, `-p` and `-h` as `--processes`,
//! `--process` and `--hostfile`, and `--local N` for N processes on
//! 127.0.0.1. Counts are bounded as the flags are read, so that every
//! command (refine, search, sample, cycle, hunt) refuses the same way.

use anyhow::Result;
use hatetris_dist::local::{self, LocalCluster};
use hatetris_dist::net::MAX_PROCESSES;
use hatetris_dist::Cluster;
use std::path::PathBuf;
use std::time::Duration;

/// The longest `--connect-timeout`: a day.
pub const MAX_CONNECT_TIMEOUT: f64 = 86_400.0;

#[derive(clap::Args, Debug, Clone)]
pub struct DistArgs {
    /// Spread the work over this many processes (timely's -n, at most
    /// 256); every process runs the same command with its own --process.
    #[arg(long, default_value_t = 1, value_parser = processes)]
    pub processes: usize,
    /// This process's index, 0 to --processes - 1 (timely's -p); only
    /// process 0 prints and writes.
    #[arg(long, default_value_t = 0)]
    pub process: usize,
    /// Host file: one `host:port` a line, process 0 first (timely's -h;
    /// default 127.0.0.1 from port 2101).
    #[arg(long)]
    pub hostfile: Option<PathBuf>,
    /// Run as N processes on 127.0.0.1: this one and N-1 copies of it (at
    /// most 4 x the cores, and 64).
    #[arg(long, conflicts_with_all = ["processes", "process", "hostfile"], value_parser = local_count)]
    pub local: Option<usize>,
    /// Seconds to wait for the other processes at the start; mid-run, a
    /// peer silent this long (at least 2 s: no heartbeat heard, as when it
    /// is frozen or its link is down) ends the run with an error.
    #[arg(long, default_value_t = 30.0, value_parser = connect_timeout)]
    pub connect_timeout: f64,
}

/// `--processes`: 1 to [`MAX_PROCESSES`].
fn processes(s: &str) -> Result<usize, String> {
    let n: usize = s.parse().map_err(|e| format!("{e}"))?;
    match n {
        0 => Err("must be at least 1".into()),
        n if n > MAX_PROCESSES => Err(format!("{n} is too many: at most {MAX_PROCESSES}")),
        n => Ok(n),
    }
}

/// `--local`: 1 to [`local::max_local`].
fn local_count(s: &str) -> Result<usize, String> {
    let n: usize = s.parse().map_err(|e| format!("{e}"))?;
    let max = local::max_local();
    match n {
        0 => Err("must be at least 1".into()),
        n if n > max => Err(format!("{n} is too many: at most {max} on this machine (4 x its cores, at most 64)")),
        n => Ok(n),
    }
}

/// `--connect-timeout`: a positive number of seconds, at most a day.
fn connect_timeout(s: &str) -> Result<f64, String> {
    let t: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if !(t > 0.0 && t <= MAX_CONNECT_TIMEOUT) {
        return Err(format!("must be a positive number of seconds, at most {MAX_CONNECT_TIMEOUT} (a day)"));
    }
    Ok(t)
}

impl DistArgs {
    /// The flags together, checked before any work (`main` calls it for
    /// every command that has them): a `--process` past `--processes` is
    /// refused even when the run is one process.
    pub fn check(&self) -> Result<()> {
        if self.process >= self.processes {
            anyhow::bail!("--process {} is not below --processes {}", self.process, self.processes);
        }
        Ok(())
    }

    /// Whether the command runs over processes at all.
    pub fn spread(&self) -> bool {
        self.processes > 1 || self.local.is_some_and(|n| n > 1)
    }

    /// How many processes the run has.
    pub fn count(&self) -> usize {
        self.local.unwrap_or(self.processes).max(1)
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
        self.check()?;
        // Checked as the flag was read.
        let timeout = Duration::from_secs_f64(self.connect_timeout.clamp(1e-3, MAX_CONNECT_TIMEOUT));
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
