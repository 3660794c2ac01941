//! `hatetris hunt` end to end at a tiny size: the written best replay
//! verifies to the printed score; a hunt killed at a random moment and
//! continued makes the same searches as one that ran straight through;
//! a damaged book or changed settings exit 2 with one line.

use std::process::{Command, Stdio};
use std::time::Duration;

fn hatetris() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hatetris"))
}

const SMALL: [&str; 6] = ["--eval", "baseline", "--widths", "20,60,120", "--stride", "6"];

fn hunt(dir: &std::path::Path, iterations: usize) -> std::process::Output {
    hatetris()
        .args(["hunt", "--dir", dir.to_str().unwrap(), "--iterations", &iterations.to_string(), "--quiet"])
        .args(SMALL)
        .output()
        .unwrap()
}

/// (node, width, lines, pieces) of every search in metrics.jsonl.
fn searches(dir: &std::path::Path) -> Vec<(u64, u64, u64, u64)> {
    std::fs::read_to_string(dir.join("metrics.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let m: serde_json::Value = serde_json::from_str(l).unwrap();
            let f = |k: &str| m[k].as_u64().unwrap();
            (f("node"), f("width"), f("lines"), f("pieces"))
        })
        .collect()
}

#[test]
fn the_best_replay_verifies_and_a_killed_hunt_goes_on_as_if_never_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let straight = dir.path().join("straight");
    let out = hunt(&straight, 10);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let best: u32 = text.split_whitespace().nth(1).unwrap().parse().unwrap();
    let verify = hatetris().args(["verify", straight.join("best.b2048").to_str().unwrap()]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&verify.stdout).unwrap();
    assert_eq!(v["score"].as_u64(), Some(best as u64));
    for f in ["book.htbk", "metrics.jsonl", "progress.png"] {
        assert!(straight.join(f).exists(), "{f} missing");
    }

    let killed = dir.path().join("killed");
    let mut child = hatetris()
        .args(["hunt", "--dir", killed.to_str().unwrap(), "--quiet"])
        .args(SMALL)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    child.kill().unwrap();
    child.wait().unwrap();
    let done = if killed.join("metrics.jsonl").exists() { searches(&killed).len() } else { 0 };
    let out = hunt(&killed, 10.max(done));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (a, b) = (searches(&straight), searches(&killed));
    assert_eq!(a[..], b[..a.len()], "killed after {done} searches");
}

#[test]
fn a_damaged_book_or_other_settings_are_one_line_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    assert!(hunt(&run, 1).status.success());
    let other = hatetris()
        .args(["hunt", "--dir", run.to_str().unwrap(), "--iterations", "2", "--widths", "10,20"])
        .output()
        .unwrap();
    assert_eq!(other.status.code(), Some(2));
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(err.contains("--widths") && err.lines().count() == 1, "{err}");

    let book = run.join("book.htbk");
    let mut bytes = std::fs::read(&book).unwrap();
    let at = bytes.len() / 3;
    bytes[at] ^= 1;
    std::fs::write(&book, &bytes).unwrap();
    let out = hunt(&run, 2);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("book.htbk") && err.contains("checksum") && err.lines().count() == 1, "{err}");
}
