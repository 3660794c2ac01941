//! A cluster of copies of this program on 127.0.0.1, for a quick try:
//! `--local N` makes this process process 0 and starts N-1 copies of the
//! same command as processes 1..N, with a host file of free ports.
//!
//! The copies end with this process (Linux: their parent-death signal is
//! SIGKILL), and this process stops waiting for a copy that ended. The
//! host file, `hatetris-hosts-PID-PORT` in the temp folder, is removed on
//! the way out (an error, or SIGINT, SIGTERM or SIGHUP, included); one
//! whose process is dead (killed with SIGKILL) is removed at the next
//! `--local` start.

use crate::net::{free_local_addresses, Cluster, Gone};
use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// At most this many processes on one machine: a machine's cores, four
/// times over, and never above 64.
pub fn max_local() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (4 * cores).min(64)
}

/// The copies' children, by process index (1..N).
type Copies = Arc<Mutex<Vec<Child>>>;

/// The copies started by [`start`]; dropping it ends any still running.
pub struct LocalCluster {
    children: Copies,
    hostfile: PathBuf,
}

const HOSTS_PREFIX: &str = "hatetris-hosts-";

/// Starts `n - 1` copies of this program with `args` (the command line
/// after the program's name, `--local` already removed) plus `--processes
/// n --process i --hostfile F` (and `--quiet`); their standard output is dropped.
/// Returns this process's place in the cluster (process 0).
pub fn start(n: usize, args: &[OsString], connect_timeout: Duration) -> Result<(Cluster, LocalCluster)> {
    if n == 0 {
        bail!("--local must be at least 1");
    }
    let max = max_local();
    if n > max {
        bail!("--local {n} is too many: at most {max} on this machine (4 x its cores, at most 64)");
    }
    let temp = std::env::temp_dir();
    remove_stale_hostfiles(&temp);
    let addresses = free_local_addresses(n)?;
    let hostfile = temp.join(format!("{HOSTS_PREFIX}{}-{}", std::process::id(), addresses[0].replace(':', "_")));
    std::fs::write(&hostfile, addresses.join("\n") + "\n")
        .with_context(|| format!("cannot write the host file {}", hostfile.display()))?;
    #[cfg(unix)]
    on_signal::remove_at_exit(&hostfile);
    let children: Copies = Arc::new(Mutex::new(Vec::new()));
    let local = LocalCluster { children: Arc::clone(&children), hostfile: hostfile.clone() };
    let exe = std::env::current_exe().context("cannot find this program to start its copies")?;
    let quiet = args.iter().any(|a| a == "--quiet");
    for process in 1..n {
        let mut command = Command::new(&exe);
        command.args(args);
        if !quiet {
            command.arg("--quiet");
        }
        command
            .arg("--processes")
            .arg(n.to_string())
            .arg("--process")
            .arg(process.to_string())
            .arg("--hostfile")
            .arg(&hostfile)
            .stdin(Stdio::null())
            .stdout(Stdio::null());
        die_with_parent(&mut command);
        let child = command.spawn().with_context(|| format!("cannot start process {process}"))?;
        children.lock().unwrap_or_else(|p| p.into_inner()).push(child);
    }
    let mut cluster = Cluster::new(addresses, 0, connect_timeout);
    let watched = Arc::clone(&children);
    cluster.gone = Gone(Some(Arc::new(move || {
        let mut children = watched.lock().unwrap_or_else(|p| p.into_inner());
        children.iter_mut().enumerate().find_map(|(i, c)| match c.try_wait() {
            Ok(Some(status)) => Some(format!("process {} (a copy --local started) ended ({status})", i + 1)),
            _ => None,
        })
    })));
    Ok((cluster, local))
}

/// The copy gets SIGKILL when the thread that started it ends (the main
/// thread here: with the process): a run killed leaves no copy behind.
fn die_with_parent(command: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: prctl and getppid are async-signal-safe; nothing else runs
        // between fork and exec.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The parent may have died before the call above.
                if libc::getppid() != parent {
                    libc::_exit(2);
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

/// Removes the host files in `dir` whose process (the PID in the name) is
/// dead: runs killed with SIGKILL left them. Errors are ignored (another
/// run may remove the same file at once).
pub fn remove_stale_hostfiles(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(hostfile_pid) else { continue };
        if !alive(pid) && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The PID in a host file's name `hatetris-hosts-PID-PORT`.
fn hostfile_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(HOSTS_PREFIX)?;
    let (pid, _) = rest.split_once('-')?;
    pid.parse().ok()
}

/// Whether a process `pid` exists (on this machine's PID namespace).
fn alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
        if pid <= 0 {
            return false;
        }
        // SAFETY: signal 0 only checks that the process exists.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
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
    pub fn wait(self) -> Result<()> {
        let mut failed = None;
        let mut children = self.children.lock().unwrap_or_else(|p| p.into_inner());
        for (i, child) in children.iter_mut().enumerate() {
            let status = child.wait().with_context(|| format!("cannot wait for process {}", i + 1))?;
            if !status.success() && failed.is_none() {
                failed = Some((i + 1, status));
            }
        }
        children.clear();
        drop(children);
        if let Some((i, status)) = failed {
            bail!("process {i} failed ({status})");
        }
        Ok(())
    }

    /// The host file the copies read.
    pub fn hostfile(&self) -> &Path {
        &self.hostfile
    }
}

impl Drop for LocalCluster {
    fn drop(&mut self) {
        let mut children = self.children.lock().unwrap_or_else(|p| p.into_inner());
        for child in children.iter_mut() {
            if let Ok(None) = child.try_wait() {
                let _ = child.kill();
            }
            let _ = child.wait();
        }
        let _ = std::fs::remove_file(&self.hostfile);
        #[cfg(unix)]
        on_signal::forget();
    }
}

/// The host file removed when a signal ends this process (SIGINT, SIGTERM,
/// SIGHUP): the handler unlinks it, then lets the signal end the process as
/// it would have.
#[cfg(unix)]
mod on_signal {
    use std::path::Path;
    use std::sync::atomic::{AtomicPtr, Ordering};

    static PATH: AtomicPtr<libc::c_char> = AtomicPtr::new(std::ptr::null_mut());

    extern "C" fn handler(signal: libc::c_int) {
        let path = PATH.swap(std::ptr::null_mut(), Ordering::SeqCst);
        // SAFETY: unlink, signal and raise are async-signal-safe; `path` is
        // a leaked C string, never freed.
        unsafe {
            if !path.is_null() {
                libc::unlink(path);
            }
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }

    /// Removes `path` if a signal ends the process (one file at a time).
    pub fn remove_at_exit(path: &Path) {
        use std::os::unix::ffi::OsStrExt;
        let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else { return };
        PATH.store(c.into_raw(), Ordering::SeqCst);
        static INSTALL: std::sync::Once = std::sync::Once::new();
        INSTALL.call_once(|| {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                // SAFETY: installing a handler that only does
                // async-signal-safe work.
                unsafe {
                    libc::signal(signal, handler as *const () as libc::sighandler_t);
                }
            }
        });
    }

    /// The file is gone already: a signal now removes nothing.
    pub fn forget() {
        PATH.store(std::ptr::null_mut(), Ordering::SeqCst);
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

    #[test]
    fn too_many_or_no_local_processes_are_refused_before_any_start() {
        let t = Duration::from_secs(1);
        let e = start(1_000_000, &[], t).err().expect("refused").to_string();
        assert_eq!(
            e,
            format!("--local 1000000 is too many: at most {} on this machine (4 x its cores, at most 64)", max_local())
        );
        assert!(start(0, &[], t).is_err());
    }

    #[test]
    fn host_files_of_dead_processes_are_removed_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        // A PID that is surely dead: a child that has been waited for.
        let mut child = Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let stale = dir.path().join(format!("{HOSTS_PREFIX}{dead}-127.0.0.1_4000"));
        let live = dir.path().join(format!("{HOSTS_PREFIX}{}-127.0.0.1_4001", std::process::id()));
        let other = dir.path().join("hatetris-hosts-notes");
        for f in [&stale, &live, &other] {
            std::fs::write(f, "127.0.0.1:4000\n").unwrap();
        }
        assert_eq!(remove_stale_hostfiles(dir.path()), 1);
        assert!(!stale.exists() && live.exists() && other.exists());
    }
}
