//! A soak of the spread cycle (issue #84): a tiny `cycle --local 2` run is
//! killed with SIGKILL at random moments (a seeded generator picks the
//! moment and the process: process 0, or the copy it started) at least
//! [`KILLS`] times, resumed after each kill, and must end with the files
//! of a run never killed, byte for byte (the records' seconds aside).
//!
//! After each kill nothing may be left running: a killed process 0 takes
//! its copy with it, and a killed copy makes process 0 exit with one
//! `error:` line and status 2, never a hang.
//!
//! About a minute here (2 cores under load), so it is part of `cargo
//! test`.
//!
//! The run uses only `--dir`, `--cycles`, `--local` and flags `cycle` had
//! when it was written (`DIST_CYCLE`). When a run ends before the kills
//! are spent, `--cycles` is raised by one and the run goes on.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const KILLS: usize = 20;

/// A tiny cycle (as `crates/cli/tests/dist.rs` runs it: its recipe).
const DIST_CYCLE: [&str; 5] =
    ["--recipe", concat!(env!("CARGO_MANIFEST_DIR"), "/tests/recipes/dist.toml"), "--quiet", "--threads", "1"];

fn cycle(dir: &Path, cycles: usize, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hatetris"));
    c.args(["cycle", "--dir", dir.to_str().unwrap(), "--cycles", &cycles.to_string()]);
    c.args(DIST_CYCLE).args(extra).stdout(Stdio::null()).stderr(Stdio::piped());
    c
}

/// splitmix64: the soak's moments and victims, the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The live children of `pid` (zombies excluded).
fn children(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(p) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) else { continue };
        // pid (comm) state ppid ...: the fields after the last ')'.
        let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, r)| r).split_whitespace().collect();
        if fields.get(1).and_then(|s| s.parse::<u32>().ok()) == Some(pid) && fields.first() != Some(&"Z") {
            found.push(p);
        }
    }
    found
}

/// Whether `pid` runs (a zombie does not).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| s.rsplit_once(')').map_or("", |(_, r)| r).split_whitespace().next() != Some("Z"))
        .unwrap_or(false)
}

fn kill(pid: u32) {
    // SAFETY: signalling a process this test started (or its copy).
    unsafe { libc::kill(pid as i32, libc::SIGKILL) };
}

/// Waits up to `limit` for `child`; its status code and standard error.
fn wait(child: &mut Child, limit: Duration) -> Option<(Option<i32>, String)> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            use std::io::Read;
            child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
            return Some((status.code(), err));
        }
        if started.elapsed() > limit {
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Every file under `dir` but `skip`, by path relative to `dir`.
fn files(dir: &Path, skip: &str) -> Vec<PathBuf> {
    fn walk(root: &Path, at: &Path, skip: &str, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(at).unwrap().flatten() {
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().to_path_buf();
            if rel == Path::new(skip) {
                continue;
            }
            if p.is_dir() {
                walk(root, &p, skip, out);
            } else {
                out.push(rel);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, skip, &mut out);
    out.sort();
    out
}

/// A record without its times (seconds differ between any two runs).
fn timeless(v: serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(m) => serde_json::Value::Object(
            m.into_iter()
                .filter(|(k, _)| !(k.contains("secs") || k.contains("seconds") || k.contains("_ms_")))
                .map(|(k, v)| (k, timeless(v)))
                .collect(),
        ),
        serde_json::Value::Array(a) => serde_json::Value::Array(a.into_iter().map(timeless).collect()),
        v => v,
    }
}

/// The generations table without its times (search s, refine s,
/// core-hours: the fifth to seventh cells of a row).
fn timeless_table(bytes: &[u8]) -> Vec<Vec<String>> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|l| {
            let cells: Vec<String> = l.split('|').map(|c| c.trim().to_string()).collect();
            // A row is "", then its cells, then "" (leading and trailing bars).
            if cells.len() >= 9 {
                cells.iter().enumerate().filter(|(i, _)| !(5..=7).contains(i)).map(|(_, c)| c.clone()).collect()
            } else {
                cells
            }
        })
        .collect()
}

/// `a` and `b` hold the same files with the same bytes: records (JSON and
/// JSON lines, the generations table) compared without their times
/// (`refine.json` is its step's seconds alone), the plots (drawn from
/// them) by name only.
fn same_run(a: &Path, b: &Path, skip: &str) {
    let (fa, fb) = (files(a, skip), files(b, skip));
    assert_eq!(fa, fb, "{} and {} hold other files", a.display(), b.display());
    for f in fa {
        let name = f.to_string_lossy();
        let (x, y) = (std::fs::read(a.join(&f)).unwrap(), std::fs::read(b.join(&f)).unwrap());
        if name.ends_with(".png") {
            continue;
        }
        if name.ends_with(".json") || name.ends_with(".jsonl") {
            let records = |bytes: &[u8]| -> Vec<serde_json::Value> {
                String::from_utf8_lossy(bytes).lines().map(|l| timeless(serde_json::from_str(l).unwrap())).collect()
            };
            if name.ends_with(".jsonl") {
                assert_eq!(records(&x), records(&y), "{name}");
            } else if name.ends_with("refine.json") {
                // The refine step's seconds, nothing else.
                let secs = |bytes: &[u8]| serde_json::from_slice::<f64>(bytes).is_ok();
                assert!(secs(&x) && secs(&y), "{name}");
            } else {
                let v = |bytes: &[u8]| timeless(serde_json::from_slice(bytes).unwrap());
                assert_eq!(v(&x), v(&y), "{name}");
            }
        } else if name.ends_with("generations.md") {
            assert_eq!(timeless_table(&x), timeless_table(&y), "{name}");
        } else {
            assert!(x == y, "{name} differs between {} and {}", a.display(), b.display());
        }
    }
}

#[test]
fn a_spread_cycle_killed_at_random_moments_ends_with_the_files_of_a_run_never_killed() {
    let started = Instant::now();
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let mut rng = Rng(84);
    let mut cycles = 4;
    let mut kills = 0;
    let mut victims = [0usize; 2];
    let mut attempts = 0;
    loop {
        attempts += 1;
        assert!(attempts < 200, "the soak makes no progress");
        let mut zero = cycle(&run, cycles, &["--local", "2", "--connect-timeout", "20"]).spawn().unwrap();
        if kills >= KILLS {
            let (status, err) = wait(&mut zero, Duration::from_secs(300)).expect("the last run ends");
            assert_eq!(status, Some(0), "{err}");
            break;
        }
        let moment = Duration::from_secs_f64(0.1 + 1.9 * rng.unit());
        let pick = rng.next() % 2;
        let at = Instant::now();
        while at.elapsed() < moment && zero.try_wait().unwrap().is_none() {
            std::thread::sleep(Duration::from_millis(5));
        }
        if let Some(status) = zero.try_wait().unwrap() {
            // The run ended before the kill: it goes on for one cycle more.
            let (_, err) = wait(&mut zero, Duration::ZERO).unwrap();
            assert!(status.success(), "{err}");
            cycles += 1;
            continue;
        }
        let copy = children(zero.id()).into_iter().next();
        let victim = match (pick, copy) {
            (1, Some(copy)) => {
                kill(copy);
                1
            }
            _ => {
                kill(zero.id());
                0
            }
        };
        victims[victim] += 1;
        kills += 1;
        // Nothing is left running: a killed copy ends process 0 with one
        // line; a killed process 0 takes its copy with it.
        let (status, err) = wait(&mut zero, Duration::from_secs(60))
            .unwrap_or_else(|| panic!("kill {kills} (process {victim}): process 0 hangs"));
        if victim == 1 && status != Some(0) {
            assert_eq!(status, Some(2), "kill {kills}: {err}");
            assert_eq!(err.lines().count(), 1, "kill {kills}: {err}");
            assert!(err.starts_with("error: "), "kill {kills}: {err}");
        }
        if let Some(copy) = copy {
            let gone = Instant::now();
            while running(copy) {
                assert!(gone.elapsed() < Duration::from_secs(10), "kill {kills}: process 1 outlives process 0");
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
    let killed_for = started.elapsed();
    let never = tmp.path().join("never");
    let out = cycle(&never, cycles, &[]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    same_run(&never, &run, "process-1");
    same_run(&never, &run.join("process-1"), "");
    eprintln!(
        "soak: {kills} kills ({} of process 0, {} of process 1) over {attempts} starts and {cycles} cycles in {:.1?}; \
         {:.1?} in all",
        victims[0],
        victims[1],
        killed_for,
        started.elapsed()
    );
}
