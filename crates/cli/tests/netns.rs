//! Faults between hosts (issue #84): a search spread over three network
//! namespaces, each its own host with an address of the benchmarking range
//! 198.18.0.0/15 (the only addresses any process is given), joined by veth
//! pairs on a bridge in a fourth namespace. It checks that
//!
//! - the three processes write the replay of one;
//! - a link taken down mid-run (`ip link set eth0 down` in a peer's
//!   namespace: no socket closes) makes every process exit with one
//!   `error:` line and status 2 within `--connect-timeout` plus [`BOUND`];
//! - a peer frozen with SIGSTOP makes the two others do the same (and the
//!   frozen one too, once it is let go);
//! - after each fault, `--resume` on the three writes the replay of the
//!   run never interrupted.
//!
//! It needs root and `ip netns`; without them it says so and passes. The
//! namespaces' names hold this test's PID (`htf<PID><letter>`); they are
//! deleted on the way out, even on failure, and those of a test run that
//! was killed are deleted at the next start. It takes about a minute.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `--connect-timeout` of the spread runs: also how long a peer may stay
/// silent mid-run.
const TIMEOUT: u64 = 5;
/// What a process may take past `TIMEOUT` to notice the fault and exit:
/// the depth it is computing, and the exit itself.
const BOUND: Duration = Duration::from_secs(15);

/// The search, as one process runs it (the net's game of width 1,500
/// ends before the cap only if it loses; 150 pieces either way).
const SEARCH: [&str; 11] =
    ["search", "--width", "1500", "--max-depth", "150", "--seed", "7", "--threads", "1", "--quiet", "--json"];

const HOSTS: usize = 3;

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_hatetris")
}

fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip").args(args).output().map_err(|e| format!("ip: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("ip {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()))
    }
}

/// The namespaces of one test run, and the processes started in them;
/// dropping it kills the processes and deletes the namespaces.
struct Net {
    hosts: Vec<String>,
    hub: String,
    running: Vec<Child>,
}

impl Net {
    /// Three hosts 198.18.0.1-3 on a bridge, or why they cannot be made.
    fn make() -> Result<Net, String> {
        remove_stale_namespaces();
        let prefix = format!("htf{}", std::process::id());
        let mut net = Net { hosts: Vec::new(), hub: format!("{prefix}h"), running: Vec::new() };
        ip(&["netns", "add", &net.hub])?;
        ip(&["-n", &net.hub, "link", "add", "br0", "type", "bridge"])?;
        ip(&["-n", &net.hub, "link", "set", "br0", "up"])?;
        for i in 0..HOSTS {
            let ns = format!("{prefix}{}", (b'a' + i as u8) as char);
            ip(&["netns", "add", &ns])?;
            net.hosts.push(ns.clone());
            let port = format!("p{i}");
            ip(&["-n", &ns, "link", "add", "eth0", "type", "veth", "peer", "name", &port, "netns", &net.hub])?;
            ip(&["-n", &net.hub, "link", "set", &port, "master", "br0", "up"])?;
            ip(&["-n", &ns, "addr", "add", &format!("198.18.0.{}/24", i + 1), "dev", "eth0"])?;
            ip(&["-n", &ns, "link", "set", "eth0", "up"])?;
            ip(&["-n", &ns, "link", "set", "lo", "up"])?;
        }
        Ok(net)
    }

    /// Starts `args` as process `i` of the three in its namespace.
    fn start(&mut self, i: usize, hostfile: &Path, args: &[&str]) -> usize {
        let child = Command::new("ip")
            .args(["netns", "exec", &self.hosts[i], exe()])
            .args(args)
            .args(["--processes", &HOSTS.to_string(), "--process", &i.to_string()])
            .arg("--hostfile")
            .arg(hostfile)
            .args(["--connect-timeout", &TIMEOUT.to_string()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ip netns exec runs");
        self.running.push(child);
        self.running.len() - 1
    }

    /// Runs `args` on the three hosts to the end; process 0's output.
    fn run_all(&mut self, hostfile: &Path, args: &[&str]) -> serde_json::Value {
        let ids: Vec<usize> = (0..HOSTS).map(|i| self.start(i, hostfile, args)).collect();
        let mut first = None;
        for (i, id) in ids.into_iter().enumerate() {
            let (status, out, err) = self.wait(id, Duration::from_secs(120)).expect("the spread run ends");
            assert!(status == Some(0), "process {i}: {status:?} {err}");
            first.get_or_insert(out);
        }
        serde_json::from_str(&first.unwrap()).expect("process 0 prints one JSON object")
    }

    /// Waits up to `limit` for a process started here: its status code,
    /// standard output and error; `None` if it is still running.
    fn wait(&mut self, id: usize, limit: Duration) -> Option<(Option<i32>, String, String)> {
        let started = Instant::now();
        let child = &mut self.running[id];
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                let (mut out, mut err) = (String::new(), String::new());
                child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
                child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
                return Some((status.code(), out, err));
            }
            if started.elapsed() > limit {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn pid(&self, id: usize) -> i32 {
        self.running[id].id() as i32
    }
}

impl Drop for Net {
    fn drop(&mut self) {
        for child in &mut self.running {
            // SAFETY: signalling a child of this test.
            unsafe { libc::kill(child.id() as i32, libc::SIGCONT) };
            let _ = child.kill();
            let _ = child.wait();
        }
        for ns in self.hosts.iter().chain(std::iter::once(&self.hub)) {
            let _ = ip(&["netns", "del", ns]);
        }
    }
}

/// Deletes the namespaces of test runs whose process is gone.
fn remove_stale_namespaces() {
    let Ok(out) = Command::new("ip").args(["netns", "list"]).output() else { return };
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let name = line.split_whitespace().next().unwrap_or("");
        let Some(rest) = name.strip_prefix("htf") else { continue };
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let Ok(pid) = digits.parse::<i32>() else { continue };
        // SAFETY: signal 0 only asks whether the process exists.
        if rest.len() == digits.len() + 1 && unsafe { libc::kill(pid, 0) } != 0 {
            let _ = ip(&["netns", "del", name]);
        }
    }
}

/// A host file of the three hosts on `port`, 198.18.0.0/15 only.
fn hostfile(dir: &Path, port: u16) -> PathBuf {
    let path = dir.join(format!("hosts-{port}"));
    let text: String = (1..=HOSTS).map(|i| format!("198.18.0.{i}:{port}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path
}

fn one_process() -> serde_json::Value {
    let out: Output = Command::new(exe()).args(SEARCH).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn same_game(a: &serde_json::Value, b: &serde_json::Value) {
    assert_eq!(a["replay"], b["replay"]);
    assert_eq!((&a["score"], &a["expanded"]), (&b["score"], &b["expanded"]));
}

/// Starts the checkpointed search on the three hosts; once every process
/// holds two checkpoints (depth 10 or more), `fault` strikes; the processes
/// `live` must then each exit with one error line and status 2 in time.
fn fault_then_resume(
    net: &mut Net,
    dir: &Path,
    port: u16,
    never_interrupted: &serde_json::Value,
    live: &[usize],
    fault: &dyn Fn(&Net, &[usize]),
    after: &dyn Fn(&mut Net, &[usize]),
) {
    let ck = dir.join(format!("ck-{port}"));
    let mut args: Vec<&str> = SEARCH.to_vec();
    args.extend(["--checkpoint", ck.to_str().unwrap(), "--checkpoint-every", "5"]);
    let hosts = hostfile(dir, port);
    let ids: Vec<usize> = (0..HOSTS).map(|i| net.start(i, &hosts, &args)).collect();
    let folder = |i: usize| if i == 0 { ck.clone() } else { ck.join(format!("process-{i}")) };
    let started = Instant::now();
    while !(0..HOSTS).all(|i| folder(i).join("checkpoint.prev.htck").exists()) {
        for &id in &ids {
            assert!(net.running[id].try_wait().unwrap().is_none(), "a process ended before the fault");
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no checkpoints");
        std::thread::sleep(Duration::from_millis(10));
    }
    fault(net, &ids);
    let struck = Instant::now();
    for &i in live {
        let limit = Duration::from_secs(TIMEOUT) + BOUND;
        let waited = net.wait(ids[i], limit + Duration::from_secs(30));
        let took = struck.elapsed();
        let (status, out, err) = waited.unwrap_or_else(|| panic!("process {i} hangs after the fault"));
        assert_eq!(status, Some(2), "process {i}: {err}");
        assert_eq!(err.lines().count(), 1, "process {i}: {err}");
        assert!(err.starts_with("error: process"), "process {i}: {err}");
        assert!(out.is_empty(), "process {i} printed {out}");
        assert!(took <= limit, "process {i} took {took:?}, more than {limit:?}");
        eprintln!("process {i} exited {took:.1?} after the fault: {}", err.trim());
    }
    after(net, &ids);
    // The settings given again are the checkpoint's: accepted.
    let mut resume: Vec<&str> = SEARCH.to_vec();
    resume.extend(["--resume", ck.to_str().unwrap()]);
    let resumed = net.run_all(&hostfile(dir, port + 1), &resume);
    same_game(&resumed, never_interrupted);
}

#[test]
fn faults_between_hosts_end_every_live_process_in_time_and_resume_to_the_same_replay() {
    let mut net = match Net::make() {
        Ok(net) => net,
        Err(why) => {
            eprintln!("skipped: cannot make network namespaces here ({why}); run as root with `ip netns`");
            return;
        }
    };
    let started = Instant::now();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let alone = one_process();
    // The same replay as one process.
    let spread = net.run_all(&hostfile(dir, 2101), &SEARCH);
    same_game(&spread, &alone);
    assert_eq!(spread["processes"], 3);

    // A link taken down: the three are cut off from each other, and no
    // socket closes. Every one exits; the link comes back for the resume.
    let down = |net: &Net, _: &[usize]| ip(&["-n", &net.hosts[2], "link", "set", "eth0", "down"]).unwrap();
    let up = |net: &mut Net, _: &[usize]| ip(&["-n", &net.hosts[2], "link", "set", "eth0", "up"]).unwrap();
    fault_then_resume(&mut net, dir, 2201, &alone, &[0, 1, 2], &down, &up);

    // A peer frozen: its kernel keeps its connections open. The two others
    // exit; let go, the frozen one finds its peers gone and exits too.
    let freeze = |net: &Net, ids: &[usize]| {
        // SAFETY: signalling a child of this test.
        assert_eq!(unsafe { libc::kill(net.pid(ids[1]), libc::SIGSTOP) }, 0);
    };
    let thaw = |net: &mut Net, ids: &[usize]| {
        // SAFETY: as above.
        assert_eq!(unsafe { libc::kill(net.pid(ids[1]), libc::SIGCONT) }, 0);
        let (status, _, err) = net.wait(ids[1], Duration::from_secs(30)).expect("the thawed process exits");
        assert_eq!(status, Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    };
    fault_then_resume(&mut net, dir, 2301, &alone, &[0, 2], &freeze, &thaw);
    eprintln!("faults between hosts: {:.1?} in all", started.elapsed());
}
