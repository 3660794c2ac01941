//! The breaks of issue #84, each mended: `search --resume` refuses a
//! changed setting naming both values; no output may be a file of the run
//! or checkpoint being read; `--dist-costs` only where it is written, and
//! never over another file; process counts bounded with one short line on
//! every command; `--local`'s host files removed on the way out, and when
//! stale at the next start. Every refusal is one `error:` line and status
//! 2, with nothing written.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn hatetris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hatetris")).args(args).output().expect("the hatetris binary runs")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// One `error:` line naming `says`, status 2, nothing on standard output.
fn refused(out: &Output, says: &str) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: ") && stderr.contains(says), "wanted {says:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    stderr
}

fn ok(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut all = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                all.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    all.sort();
    all
}

const SMALL: [&str; 12] = [
    "search",
    "--width",
    "50",
    "--max-depth",
    "30",
    "--eval",
    "baseline",
    "--quiescence",
    "2",
    "--quiet",
    "--json",
    "--threads",
];

/// A search of width 50, saved every 10 depths, and its replay.
fn checkpointed(dir: &Path) -> (PathBuf, serde_json::Value) {
    let ck = dir.join("ck");
    let full: Vec<&str> = [&SMALL[..], &["1", "--checkpoint", s(&ck), "--checkpoint-every", "10"]].concat();
    let whole = ok(&hatetris(&full));
    (ck, whole)
}

#[test]
fn search_resume_refuses_a_changed_setting_naming_both_values() {
    let tmp = tempfile::tempdir().unwrap();
    let (ck, whole) = checkpointed(tmp.path());
    let before = snapshot(&ck);
    let resume = |more: &[&str]| {
        let mut args = vec!["search", "--resume", s(&ck), "--quiet", "--json"];
        args.extend(more);
        hatetris(&args)
    };
    for (flag, value, was) in [
        ("--width", "100", "50"),
        ("--eval", "net", "baseline"),
        ("--seed", "1", "0"),
        ("--quiescence", "3", "2"),
        ("--chain-rule", "sz", "record"),
        ("--chain-band", "3", "0"),
        ("--chain-blend", "0.5", "1"),
        ("--chain-follow", "1", "0"),
        ("--twins", "2", "1"),
        ("--enemy", "mild", "hatetris"),
        ("--max-depth", "31", "30"),
    ] {
        let line = refused(&resume(&[flag, value]), &format!("was started with {flag} {was}; it cannot go on with"));
        assert!(line.contains(value), "{line}");
    }
    refused(&resume(&["--no-quiescence"]), "was started with --quiescence 2; it cannot go on with 0");
    assert_eq!(snapshot(&ck), before, "a refused resume changes nothing");
    // The same values given again are accepted, and the game is the one
    // never interrupted.
    let again = ok(&resume(&[
        "--width",
        "50",
        "--eval",
        "baseline",
        "--max-depth",
        "30",
        "--seed",
        "0",
        "--quiescence",
        "2",
        "--threads",
        "1",
    ]));
    assert_eq!(again["replay"], whole["replay"]);
}

#[test]
fn no_output_lands_on_the_checkpoint_it_resumes_or_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let (ck, _) = checkpointed(tmp.path());
    let before = snapshot(&ck);
    for out in ["checkpoint.htck", "checkpoint.prev.htck", "replay.b2048"] {
        let out = ck.join(out);
        refused(&hatetris(&["search", "--resume", s(&ck), "--out", s(&out), "--quiet"]), "is inside --resume");
    }
    let fresh = tmp.path().join("fresh");
    std::fs::create_dir(&fresh).unwrap();
    let args = ["search", "--width", "5", "--max-depth", "3", "--eval", "baseline", "--checkpoint", s(&fresh)];
    refused(&hatetris(&[&args[..], &["--out", s(&fresh.join("checkpoint.htck"))]].concat()), "is inside --checkpoint");
    assert_eq!(snapshot(&ck), before);
    assert!(snapshot(&fresh).is_empty());
}

#[test]
fn dist_costs_is_a_spread_searchs_and_never_lands_on_another_file() {
    let tmp = tempfile::tempdir().unwrap();
    let costs = tmp.path().join("costs");
    let search = ["search", "--width", "20", "--max-depth", "5", "--eval", "baseline", "--quiet"];
    // Alone there are no costs by process: refused, not ignored.
    refused(&hatetris(&[&search[..], &["--dist-costs", s(&costs)]].concat()), "runs alone");
    // Over processes, each process's file may be neither the replay read
    // nor the one written.
    let from = tmp.path().join("costs.p0");
    let replay =
        ok(&hatetris(&["search", "--width", "20", "--max-depth", "5", "--eval", "baseline", "--quiet", "--json"]));
    std::fs::write(&from, format!("{}\n", replay["replay"].as_str().unwrap())).unwrap();
    let from_bytes = std::fs::read(&from).unwrap();
    let local = ["--local", "2", "--connect-timeout", "20"];
    let out = hatetris(&[&search[..], &local[..], &["--dist-costs", s(&costs), "--from", s(&from)]].concat());
    refused(&out, "is also read (--from");
    assert_eq!(std::fs::read(&from).unwrap(), from_bytes);
    let written = tmp.path().join("other.p1");
    let costs = tmp.path().join("other");
    let out = hatetris(&[&search[..], &local[..], &["--dist-costs", s(&costs), "--out", s(&written)]].concat());
    refused(&out, "is also read (--out");
    assert!(!written.exists());
    // refine has no depths: its help does not offer --dist-costs, and it is
    // refused as any unknown flag.
    let help = hatetris(&["refine", "--help"]);
    assert!(!String::from_utf8_lossy(&help.stdout).contains("dist-costs"));
    let run = tmp.path().join("run");
    let out = hatetris(&["refine", "--run", s(&run), "--cycle", "1", "--out", s(&costs), "--dist-costs", s(&costs)]);
    refused(&out, "--dist-costs");
    // Given to a spread search it is written, one file a process.
    let out = ok(&hatetris(&[&search[..], &local[..], &["--json", "--dist-costs", s(&costs)]].concat()));
    assert_eq!(out["processes"], 2);
    for p in ["p0", "p1"] {
        let text = std::fs::read_to_string(tmp.path().join(format!("other.{p}"))).unwrap();
        assert_eq!(text.lines().count(), 5, "{p}");
    }
}

/// The commands with cluster flags, each with what else it needs.
fn commands(dir: &Path) -> Vec<Vec<String>> {
    let d = |name: &str| dir.join(name).to_str().unwrap().to_string();
    [
        vec!["refine", "--run", &d("run"), "--cycle", "1", "--out", &d("r.htds")],
        vec!["search", "--out", &d("s.b2048")],
        vec!["sample", "--out", &d("s.htds")],
        vec!["cycle", "--dir", &d("cycle")],
        vec!["hunt", "--dir", &d("hunt")],
    ]
    .into_iter()
    .map(|c| c.into_iter().map(String::from).collect())
    .collect()
}

#[test]
fn process_counts_are_bounded_with_one_short_line_on_every_command() {
    let tmp = tempfile::tempdir().unwrap();
    for command in commands(tmp.path()) {
        for (flags, says) in [
            (&["--local", "1000000"][..], "--local"),
            (&["--local", "0"][..], "at least 1"),
            (&["--processes", "1000000000000"][..], "at most 256"),
            (&["--processes", "0"][..], "at least 1"),
            (&["--processes", "100000", "--connect-timeout", "1"][..], "at most 256"),
            (&["--processes", "2", "--process", "2"][..], "--process 2 is not below --processes 2"),
            (&["--process", "3"][..], "--process 3 is not below --processes 1"),
            (&["--local", "2", "--connect-timeout", "1e300"][..], "a day"),
            (&["--processes", "2", "--connect-timeout", "0"][..], "positive"),
        ] {
            let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
            args.extend(flags);
            let started = Instant::now();
            let out = hatetris(&args);
            let line = refused(&out, says);
            assert!(line.len() < 300, "{} characters: {line}", line.len());
            assert!(started.elapsed() < Duration::from_secs(10), "{args:?}");
        }
    }
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0, "nothing written");
}

#[test]
fn a_silent_peer_list_is_cut_short() {
    // 256 processes, all but this one missing: the line names a few.
    let tmp = tempfile::tempdir().unwrap();
    let hosts = tmp.path().join("hosts");
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let text: String = (0..256).map(|i| format!("127.0.0.1:{}\n", port as u32 + i)).collect();
    std::fs::write(&hosts, text).unwrap();
    let out = hatetris(&[
        "search",
        "--width",
        "5",
        "--eval",
        "baseline",
        "--processes",
        "256",
        "--process",
        "0",
        "--hostfile",
        s(&hosts),
        "--connect-timeout",
        "1",
    ]);
    let line = refused(&out, "heard from no process 1, 2, 3, 4, 5, ... (255 in all)");
    assert!(line.len() < 300, "{line}");
}

/// The host files of `--local` runs in `temp`.
fn hostfiles(temp: &Path) -> Vec<String> {
    std::fs::read_dir(temp)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("hatetris-hosts-"))
        .collect()
}

#[test]
fn local_host_files_are_removed_on_the_way_out_and_when_stale() {
    let temp = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_hatetris");
    let search = ["search", "--width", "20", "--max-depth", "5", "--eval", "baseline", "--quiet", "--local", "2"];
    let out = Command::new(exe).args(search).env("TMPDIR", temp.path()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(hostfiles(temp.path()).is_empty(), "removed on the way out");
    // Ended by a signal mid-run (SIGTERM, or SIGINT at a terminal): its
    // file is removed on the way out. Killed with SIGKILL, its file stays.
    let long = ["search", "--width", "3000", "--eval", "baseline", "--quiet", "--threads", "1", "--local", "2"];
    for signal in [libc::SIGTERM, libc::SIGKILL] {
        let mut run = Command::new(exe).args(long).env("TMPDIR", temp.path()).spawn().unwrap();
        let started = Instant::now();
        while hostfiles(temp.path()).is_empty() {
            assert!(started.elapsed() < Duration::from_secs(20));
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(Duration::from_millis(500));
        // SAFETY: signalling a child of this test.
        unsafe { libc::kill(run.id() as i32, signal) };
        let status = run.wait().unwrap();
        assert!(!status.success(), "ended by signal {signal}");
        let left = hostfiles(temp.path()).len();
        assert_eq!(left, usize::from(signal == libc::SIGKILL), "signal {signal}");
    }
    // The next start removes it (its process is dead), and its own.
    let out = Command::new(exe).args(search).env("TMPDIR", temp.path()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(hostfiles(temp.path()).is_empty(), "the stale file is removed");
}

#[test]
fn refine_writes_nothing_inside_its_run_but_the_cycles_own_data_set() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let out = hatetris(&[
        "cycle",
        "--dir",
        s(&run),
        "--cycles",
        "1",
        "--recipe",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/recipes/tiny.toml"),
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let before = snapshot(&run);
    for out in ["cycle-001/net.hnet", "metrics.jsonl", "cycle-001/new.htds", "other.htds", "cycle-002/refined.htds"] {
        let out = run.join(out);
        let args = ["refine", "--run", s(&run), "--cycle", "1", "--out", s(&out), "--quiet"];
        refused(&hatetris(&args), "is inside --run");
    }
    assert_eq!(snapshot(&run), before, "the run is untouched");
}
