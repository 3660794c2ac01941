//! `hatetris verify` as a user runs it: every official score and both
//! lock-by-lock traces reproduce through the binary, and bad input exits 2
//! with one clear line.

use hatetris_game::fixtures::{known_replays, read_fixture};
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn hatetris(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hatetris"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the hatetris binary runs");
    // A process that fails on its arguments may exit before reading: a
    // broken pipe here is its answer, not the test's failure.
    match child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.unwrap(),
    }
    child.wait_with_output().unwrap()
}

fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

#[test]
fn every_known_replay_scores_as_the_official_game() {
    let replays = known_replays();
    assert_eq!(replays.len(), 44, "known-replays.tsv has 44 replays");
    for r in replays {
        let out = hatetris(&["verify", "--enemy", &r.enemy, "-"], &r.replay);
        assert!(out.status.success(), "{} ({}): {}", r.name, r.encoding, String::from_utf8_lossy(&out.stderr));
        let v = &json_lines(&out)[0];
        assert_eq!(v["score"], r.expected_score, "{} ({}, {})", r.name, r.encoding, r.enemy);
        assert_eq!(v["well"].as_array().unwrap().len(), 20);
        assert!(v["keys_used"].as_u64() <= v["keys"].as_u64());
        // One piece for each filled row of the last well, each within the game.
        let filled = v["well"].as_array().unwrap().iter().rev().take_while(|r| r.as_u64() != Some(0)).count();
        let frozen = v["rows_frozen_at"].as_array().unwrap();
        assert_eq!(frozen.len(), filled, "{}", r.name);
        assert!(frozen.iter().all(|p| (1..=v["pieces"].as_u64().unwrap()).contains(&p.as_u64().unwrap())), "{v}");
    }
}

fn check_trace(fixture: &str, replay_name: &str) {
    let replay = known_replays()
        .into_iter()
        .find(|r| r.name == replay_name && r.encoding == "Base2048")
        .unwrap_or_else(|| panic!("no Base2048 replay named {replay_name}"));
    let out = hatetris(&["verify", "--trace"], &replay.replay);
    assert!(out.status.success());
    let got = json_lines(&out);
    let want: Vec<Value> = read_fixture(fixture).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(got.len(), want.len(), "{fixture}: number of lines");
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "{fixture}: line {}", i + 1);
    }
}

#[test]
fn david_felipe_trace_matches_lock_by_lock() {
    check_trace("trace-david-felipe-86.jsonl", "David & Felipe (1)");
}

#[test]
fn knewjade_loop_trace_matches_lock_by_lock() {
    check_trace("trace-knewjade-loop-basis-107.jsonl", "knewjade loop basis");
}

fn assert_clear_failure(out: &Output, needle: &str) {
    assert_eq!(out.status.code(), Some(2), "exit status");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "one line on stderr: {err}");
    assert!(err.starts_with("error: ") && err.contains(needle), "{err}");
    assert!(!err.contains("panicked"));
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_input_exits_2_with_one_clear_line() {
    assert_clear_failure(&hatetris(&["verify"], ""), "empty");
    assert_clear_failure(&hatetris(&["verify"], "   \n"), "empty");
    assert_clear_failure(&hatetris(&["verify"], "LLDD\u{1F600}"), "unrecognised");
    assert_clear_failure(&hatetris(&["verify", "/no/such/replay.txt"], ""), "does not exist");
    let atypical = known_replays().into_iter().find(|r| r.name == "Atypical" && r.encoding == "Base2048").unwrap();
    let mut chars: Vec<char> = atypical.replay.chars().collect();
    chars.pop();
    assert_clear_failure(&hatetris(&["verify"], &chars.iter().collect::<String>()), "truncated");
    // A bad flag is a usage error: clap's message and a hint to --help.
    let out = hatetris(&["verify", "--enemy", "nice"], "LL");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown enemy 'nice'"));
}

#[test]
fn show_draws_the_final_well() {
    let out = hatetris(&["show"], &known_replays()[3].replay);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().filter(|l| l.starts_with('|')).count(), 20);
    assert!(text.contains("score 11"), "{text}");
}
