//! A cluster of copies of this program on 127.0.0.1, for a quick try:
//! `--local N` makes this process process 0 and starts N-1 copies of the
//! same command as processes 1..N, with a host file of free ports.

use crate::net::{free_local_addresses, Cluster};
use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The copies started by [`start`]; dropping it ends any still running.
pub struct LocalCluster {
    children: Vec<Child>,
    hostfile: PathBuf,
}

/// Starts `n - 1` copies of this program with `args` (the command line
/// after the program's name, `--local` already removed) plus `--processes
/// n --process i --hostfile F` (and `--quiet`); their standard output is dropped.
/// Returns this process's place in the cluster (process 0).
pub fn start(n: usize, args: &[OsString], connect_timeout: Duration) -> Result<(Cluster, LocalCluster)> {
    if n == 0 {
        bail!("--local must be at least 1");
    }
    let addresses = free_local_addresses(n)?;
    let hostfile =
        std::env::temp_dir().join(format!("hatetris-hosts-{}-{}", std::process::id(), addresses[0].replace(':', "_")));
    std::fs::write(&hostfile, addresses.join("\n") + "\n")
        .with_context(|| format!("cannot write the host file {}", hostfile.display()))?;
    let exe = std::env::current_exe().context("cannot find this program to start its copies")?;
    let mut local = LocalCluster { children: Vec::new(), hostfile: hostfile.clone() };
    let quiet = args.iter().any(|a| a == "--quiet");
    for process in 1..n {
        let mut command = Command::new(&exe);
        command.args(args);
        if !quiet {
            command.arg("--quiet");
        }
        let child = command
            .arg("--processes")
            .arg(n.to_string())
            .arg("--process")
            .arg(process.to_string())
            .arg("--hostfile")
            .arg(&hostfile)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start process {process}"))?;
        local.children.push(child);
    }
    Ok((Cluster { addresses, process: 0, connect_timeout }, local))
}

/// `args` without `--local N` (or `--local=N`).
pub fn without_local(args: &[OsString]) -> Vec<OsString> {
    let mut out = Vec::with_capacity(args.len());
    let mut skip = false;
    for a in args {
        if skip {
            skip = false;
            continue;
        }
        let s = a.to_string_lossy();
        if s == "--local" {
            skip = true;
        } else if !s.starts_with("--local=") {
            out.push(a.clone());
        }
    }
    out
}

impl LocalCluster {
    /// Waits for every copy; an error names the first that failed.
    pub fn wait(mut self) -> Result<()> {
        let mut failed = None;
        for (i, child) in self.children.iter_mut().enumerate() {
            let status = child.wait().with_context(|| format!("cannot wait for process {}", i + 1))?;
            if !status.success() && failed.is_none() {
                failed = Some((i + 1, status));
            }
        }
        self.children.clear();
        if let Some((i, status)) = failed {
            bail!("process {i} failed ({status})");
        }
        Ok(())
    }
}

impl Drop for LocalCluster {
    fn drop(&mut self) {
        for child in &mut self.children {
            if let Ok(None) = child.try_wait() {
                let _ = child.kill();
            }
            let _ = child.wait();
        }
        let _ = std::fs::remove_file(&self.hostfile);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_is_taken_out_of_the_command_line_in_both_forms() {
        let args: Vec<OsString> =
            ["search", "--local", "2", "--width", "9", "--local=3", "--json"].iter().map(OsString::from).collect();
        let kept: Vec<String> = without_local(&args).iter().map(|a| a.to_string_lossy().into_owned()).collect();
        assert_eq!(kept, ["search", "--width", "9", "--json"]);
    }
}
