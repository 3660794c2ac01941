//! `hatetris search` over processes: the same replay as one process, and
//! a peer that never comes up, or is lost mid-run, is one line and status
//! 2; a run killed mid-game resumes to the same replay.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn hatetris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hatetris")).args(args).output().expect("the hatetris binary runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn two_local_processes_write_the_replay_of_one() {
    let common =
        ["search", "--width", "2000", "--max-depth", "40", "--eval", "baseline", "--seed", "7", "--json", "--quiet"];
    let one = json(&hatetris(&common));
    let mut spread = common.to_vec();
    spread.extend(["--local", "2", "--connect-timeout", "20"]);
    let two = json(&hatetris(&spread));
    assert_eq!(two["replay"], one["replay"]);
    assert_eq!(two["score"], one["score"]);
    assert_eq!(two["expanded"], one["expanded"]);
    assert_eq!(two["processes"], 2);
}

/// A host file whose ports nobody listens on.
fn lonely_hostfile(dir: &tempfile::TempDir) -> String {
    let path = dir.path().join("hosts");
    std::fs::write(&path, free_ports(2).join("\n") + "\n").unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn a_peer_that_never_comes_up_is_one_line_and_status_2_within_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = lonely_hostfile(&dir);
    let out_file = dir.path().join("replay.txt");
    // Process 1 dials process 0; process 0 waits for process 1.
    for process in ["1", "0"] {
        let started = Instant::now();
        let out = hatetris(&[
            "search",
            "--eval",
            "baseline",
            "--width",
            "10",
            "--processes",
            "2",
            "--process",
            process,
            "--hostfile",
            &hosts,
            "--connect-timeout",
            "2",
            "--out",
            out_file.to_str().unwrap(),
        ]);
        let took = started.elapsed();
        assert_eq!(out.status.code(), Some(2), "process {process}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "process {process}: {stderr}");
        assert!(stderr.starts_with("error: process"), "{stderr}");
        assert!(stderr.contains("within 2 s"), "{stderr}");
        assert!(out.stdout.is_empty(), "process {process}");
        assert!(took < Duration::from_secs(15), "process {process} took {took:?}");
        assert!(!out_file.exists(), "nothing written");
    }
}

#[test]
fn a_spread_search_killed_mid_game_resumes_to_the_replay_never_killed() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck");
    let ck_s = ck.to_str().unwrap();
    let common = ["--width", "3000", "--max-depth", "150", "--seed", "7", "--json", "--quiet", "--threads", "1"];
    let mut whole = vec!["search"];
    whole.extend(common);
    let never_killed = json(&hatetris(&whole));

    let mut spread = whole.clone();
    spread.extend(["--local", "2", "--connect-timeout", "20", "--checkpoint", ck_s, "--checkpoint-every", "5"]);
    let mut run = Command::new(env!("CARGO_BIN_EXE_hatetris")).args(&spread).spawn().unwrap();
    // Killed once both processes hold two checkpoints (depth 10 or more).
    let saved = |d: &std::path::Path| d.join("checkpoint.prev.htck").exists();
    let started = Instant::now();
    while !(saved(&ck) && saved(&ck.join("process-1"))) {
        assert!(run.try_wait().unwrap().is_none(), "the run ended before it could be killed");
        assert!(started.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(5));
    }
    run.kill().unwrap(); // SIGKILL to process 0; process 1 then loses its peer
    run.wait().unwrap();
    std::thread::sleep(Duration::from_millis(500));

    let resumed = json(&hatetris(&[
        "search",
        "--resume",
        ck_s,
        "--local",
        "2",
        "--connect-timeout",
        "20",
        "--json",
        "--quiet",
        "--threads",
        "1",
    ]));
    assert_eq!(resumed["replay"], never_killed["replay"]);
    assert_eq!(resumed["score"], never_killed["score"]);
    assert_eq!(resumed["expanded"], never_killed["expanded"]);
}

#[test]
fn a_peer_lost_mid_run_is_one_line_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let hostfile = lonely_hostfile(&dir);
    let args = |p: &'static str| {
        vec![
            "search".to_string(),
            "--width".into(),
            "3000".into(),
            "--threads".into(),
            "1".into(),
            "--quiet".into(),
            "--processes".into(),
            "2".into(),
            "--process".into(),
            p.into(),
            "--hostfile".into(),
            hostfile.clone(),
        ]
    };
    let exe = env!("CARGO_BIN_EXE_hatetris");
    let mut zero = Command::new(exe).args(args("0")).stderr(std::process::Stdio::piped()).spawn().unwrap();
    let mut one = Command::new(exe).args(args("1")).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(zero.try_wait().unwrap().is_none(), "still searching");
    one.kill().unwrap();
    one.wait().unwrap();
    let started = Instant::now();
    let out = zero.wait_with_output().unwrap();
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("lost"), "{stderr}");
}

/// `n` addresses on 127.0.0.1 free now.
fn free_ports(n: usize) -> Vec<String> {
    let ports: Vec<std::net::TcpListener> =
        (0..n).map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap()).collect();
    ports.iter().map(|l| l.local_addr().unwrap().to_string()).collect()
}

/// A tiny cycle's recipe and flags (record chains, no band: a band is not spread).
const TINY_CYCLE: [&str; 6] = [
    "--recipe",
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/recipes/dist.toml"),
    "--quiet",
    "--threads",
    "1",
    "--connect-timeout=20",
];

fn cycle(dir: &std::path::Path, cycles: &str, extra: &[&str]) {
    let mut args = vec!["cycle", "--dir", dir.to_str().unwrap(), "--cycles", cycles];
    args.extend(TINY_CYCLE);
    args.extend(extra);
    let out = hatetris(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn same_bytes(a: &std::path::Path, b: &std::path::Path) {
    assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap(), "{} and {} differ", a.display(), b.display());
}

#[test]
fn a_cycle_over_two_processes_writes_the_bytes_of_one_and_resumes_where_all_can() {
    let tmp = tempfile::tempdir().unwrap();
    let (alone, spread) = (tmp.path().join("alone"), tmp.path().join("spread"));
    cycle(&alone, "3", &[]);
    cycle(&spread, "2", &["--local", "2"]);
    // Killed as process 1 was refining cycle 2 while process 0 had
    // finished it: process 1 lacks the refine record and what follows.
    let one = spread.join("process-1");
    for f in ["cycle-002/refine.json", "cycle-002/net.hnet", "cycle-002/train.json"] {
        std::fs::remove_file(one.join(f)).unwrap();
    }
    let metrics = std::fs::read_to_string(one.join("metrics.jsonl")).unwrap();
    std::fs::write(one.join("metrics.jsonl"), metrics.lines().next().unwrap().to_string() + "\n").unwrap();
    cycle(&spread, "3", &["--local", "2"]);
    for f in ["cycle-001/samples.htds", "cycle-001/refined.htds", "cycle-002/net.hnet", "cycle-003/net.hnet"] {
        same_bytes(&alone.join(f), &spread.join(f));
        same_bytes(&alone.join(f), &one.join(f));
    }
    let lines = |d: &std::path::Path| std::fs::read_to_string(d.join("metrics.jsonl")).unwrap().lines().count();
    assert_eq!((lines(&spread), lines(&one)), (3, 3));
}

#[test]
fn sample_over_two_processes_writes_the_bytes_of_one() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a.htds"), tmp.path().join("b.htds"));
    let common = ["sample", "--width", "2000", "--samples", "32", "--quiet", "--threads", "1"];
    let mut one = common.to_vec();
    one.extend(["--out", a.to_str().unwrap()]);
    json(&hatetris(&one));
    let mut two = common.to_vec();
    two.extend(["--out", b.to_str().unwrap(), "--local", "2", "--connect-timeout", "20"]);
    json(&hatetris(&two));
    same_bytes(&a, &b);
}

#[test]
fn a_hunt_over_two_processes_makes_the_searches_of_one() {
    let tmp = tempfile::tempdir().unwrap();
    let (alone, spread) = (tmp.path().join("alone"), tmp.path().join("spread"));
    let hunt = |dir: &std::path::Path, extra: &[&str]| {
        let mut args = vec!["hunt", "--dir", dir.to_str().unwrap(), "--iterations", "4", "--widths", "300,1000"];
        args.extend(["--threads", "1", "--quiet"]);
        args.extend(extra);
        let out = hatetris(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    hunt(&alone, &[]);
    hunt(&spread, &["--local", "2", "--connect-timeout", "20"]);
    // The searches (position, width, lines, pieces), not their seconds.
    let searches = |d: &std::path::Path| -> Vec<String> {
        let text = std::fs::read_to_string(d.join("metrics.jsonl")).unwrap();
        text.lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                format!("{} {} {} {}", v["node"], v["width"], v["lines"], v["pieces"])
            })
            .collect()
    };
    assert_eq!(searches(&alone).len(), 4);
    for d in [spread.clone(), spread.join("process-1")] {
        assert_eq!(searches(&alone), searches(&d));
        same_bytes(&alone.join("best.b2048"), &d.join("best.b2048"));
    }
}

#[test]
fn a_spread_cycle_whose_folders_are_far_apart_is_refused_with_a_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    // Two cycles alone, then a second process whose folder is new.
    cycle(&run, "2", &[]);
    let mut args = vec!["cycle", "--dir", run.to_str().unwrap(), "--cycles", "3"];
    args.extend(TINY_CYCLE);
    args.extend(["--local", "2"]);
    let out = hatetris(&args);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("too far apart"), "{stderr}");
    // Process 0's run is untouched, and goes on once its folder is copied.
    let lines = |d: &std::path::Path| std::fs::read_to_string(d.join("metrics.jsonl")).unwrap().lines().count();
    assert_eq!(lines(&run), 2);
}
