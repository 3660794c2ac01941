//! `hatetris search` over processes: the same replay as one process, and
//! a peer that never comes up is one line and status 2 within the timeout.

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
    let ports: Vec<std::net::TcpListener> =
        (0..2).map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap()).collect();
    let text: String = ports.iter().map(|l| format!("{}\n", l.local_addr().unwrap())).collect();
    drop(ports);
    let path = dir.path().join("hosts");
    std::fs::write(&path, text).unwrap();
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
