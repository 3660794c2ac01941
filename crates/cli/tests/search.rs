//! `hatetris search` and `hatetris play` as a user runs them: the replay
//! written is the one whose score is printed, a random-weight network file
//! plugs in, and a search killed mid-run resumes to the same replay.

use std::process::{Command, Output};

fn hatetris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hatetris")).args(args).output().expect("the hatetris binary runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn verified_score(replay_file: &std::path::Path) -> u64 {
    json(&hatetris(&["verify", replay_file.to_str().unwrap()]))["score"].as_u64().unwrap()
}

#[test]
fn the_printed_score_is_the_written_replays() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("replay.txt");
    let v = json(&hatetris(&[
        "search",
        "--width",
        "30",
        "--eval",
        "baseline",
        "--json",
        "--quiet",
        "--out",
        out_file.to_str().unwrap(),
    ]));
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(v["replay"].as_str().unwrap(), written.trim());
    assert_eq!(v["score"].as_u64().unwrap(), verified_score(&out_file));
    assert!(v["pieces"].as_u64().unwrap() > 10);
}

#[test]
fn a_random_network_file_plugs_in() {
    let dir = tempfile::tempdir().unwrap();
    let net = dir.path().join("random.hnet");
    hatetris_eval::Network::random(16, 7).save(&net).unwrap();
    let spec = format!("net={}", net.display());
    let v = json(&hatetris(&["search", "--width", "10", "--eval", &spec, "--json", "--quiet"]));
    assert!(v["eval"].as_str().unwrap().contains("random.hnet"));

    // A damaged network file is one clear line and status 2.
    let mut bytes = std::fs::read(&net).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&net, bytes).unwrap();
    let out = hatetris(&["search", "--width", "10", "--eval", &spec, "--quiet"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: ") && err.contains("checksum"), "{err}");

    // A missing one names the file and the cause once.
    let out = hatetris(&["search", "--width", "10", "--eval", "net=/no/such.hnet", "--quiet"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("/no/such.hnet"), "{err}");
    assert_eq!(err.matches("os error 2").count(), 1, "{err}");
}

#[test]
fn a_mean_of_evaluators_plugs_in_and_a_bad_one_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let net = dir.path().join("random.hnet");
    hatetris_eval::Network::random(16, 7).save(&net).unwrap();
    let spec = format!("mean=net,baseline,{}", net.display());
    let v = json(&hatetris(&["search", "--width", "10", "--eval", &spec, "--json", "--quiet"]));
    assert!(v["eval"].as_str().unwrap().starts_with("mean:net:embedded:"), "{}", v["eval"]);
    for (bad, says) in [("mean=net", "unknown evaluator"), ("mean=net,/no/such.hnet", "/no/such.hnet")] {
        let out = hatetris(&["search", "--width", "10", "--eval", bad, "--quiet"]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: ") && err.contains(says) && err.trim_end().lines().count() == 1, "{err}");
    }
}

#[test]
fn a_search_killed_at_any_moment_resumes_to_the_same_replay() {
    let args = ["search", "--width", "400", "--eval", "baseline", "--seed", "4", "--json", "--quiet"];
    let whole = json(&hatetris(&args));
    let mut resumed_runs = 0;
    for kill_after_ms in [150, 300, 600] {
        let dir = tempfile::tempdir().unwrap();
        let ck = dir.path().join("ck");
        let mut child = Command::new(env!("CARGO_BIN_EXE_hatetris"))
            .args(args)
            .args(["--checkpoint", ck.to_str().unwrap(), "--checkpoint-every", "1"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(kill_after_ms));
        child.kill().unwrap();
        child.wait().unwrap();
        if !ck.join("checkpoint.htck").exists() {
            continue; // killed before its first save: nothing to resume
        }
        let resumed = json(&hatetris(&["search", "--resume", ck.to_str().unwrap(), "--json", "--quiet"]));
        assert_eq!(resumed["replay"], whole["replay"], "killed after {kill_after_ms} ms");
        assert_eq!(resumed["score"], whole["score"]);
        resumed_runs += 1;
    }
    assert!(resumed_runs > 0, "no run lived long enough to save a checkpoint");
}

#[test]
fn play_prints_a_score_and_a_replay_that_verifies_to_it() {
    let out = hatetris(&["play", "--width", "8", "--quiet"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    let score: u64 = lines.next().unwrap().strip_prefix("score ").unwrap().parse().unwrap();
    let replay = lines.next().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("r.txt");
    std::fs::write(&f, replay).unwrap();
    assert_eq!(verified_score(&f), score);
}

/// `play --width 8` with `play_flags` and `search --width 8` with
/// `search_flags` write the same replay; the search's JSON.
fn play_plays_searchs_game(play_flags: &[&str], search_flags: &[&str]) -> serde_json::Value {
    let out = hatetris(&[&["play", "--width", "8", "--quiet"][..], play_flags].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("r.txt");
    let s = json(&hatetris(
        &[&["search", "--width", "8", "--json", "--out", f.to_str().unwrap()][..], search_flags].concat(),
    ));
    assert_eq!(text.lines().nth(1).unwrap(), s["replay"].as_str().unwrap());
    s
}

#[test]
fn play_is_a_search_with_the_default_network_and_damped_record_chains() {
    let s = play_plays_searchs_game(
        &[],
        &["--eval", "net", "--quiescence", "4", "--chain-rule", "record", "--chain-blend", "0.5"],
    );
    assert!(s["eval"].as_str().unwrap().starts_with("net:embedded:"), "{s}");
    // `--eval` and the chains' flags still reach `play`'s search.
    let plain = ["--eval", "baseline", "--quiescence", "0"];
    let s = play_plays_searchs_game(&plain, &plain);
    assert_eq!(s["eval"].as_str().unwrap(), "baseline", "{s}");
}

#[test]
fn play_with_another_evaluator_plays_searchs_game_and_refuses_an_unknown_one() {
    play_plays_searchs_game(
        &["--eval", "baseline"],
        &["--eval", "baseline", "--quiescence", "4", "--chain-blend", "0.5"],
    );
    let bad = hatetris(&["play", "--width", "8", "--eval", "nett", "--quiet"]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("unknown evaluator") && err.trim().lines().count() == 1, "{err}");
}

#[test]
fn a_resume_with_other_weights_under_the_same_path_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (net, ck) = (dir.path().join("n.hnet"), dir.path().join("ck"));
    hatetris_eval::Network::random(16, 1).save(&net).unwrap();
    let spec = format!("net={}", net.display());
    let args = ["search", "--width", "10", "--eval", &spec, "--quiet", "--checkpoint", ck.to_str().unwrap()];
    assert!(hatetris(&args).status.success());
    assert!(ck.join("checkpoint.htck").exists());
    hatetris_eval::Network::random(16, 2).save(&net).unwrap();
    let out = hatetris(&["search", "--resume", ck.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not available now"), "{err}");
}

/// A search from piece 200 of the 289-line game writes the whole game: its
/// replay verifies from the empty well to the score printed, at least the
/// score the game had there; a piece past the game's end is refused.
#[test]
fn a_search_from_a_games_position_writes_the_whole_game() {
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/data/knewjade-289.b2048");
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("from.txt");
    let v = json(&hatetris(&[
        "search",
        "--from",
        game,
        "--at",
        "200",
        "--width",
        "20",
        "--max-depth",
        "10",
        "--eval",
        "baseline",
        "--json",
        "--quiet",
        "--out",
        out_file.to_str().unwrap(),
    ]));
    assert_eq!(v["pieces"].as_u64().unwrap(), 210);
    let score = v["score"].as_u64().unwrap();
    assert_eq!(score, verified_score(&out_file));
    assert!(score >= 73, "the game had 73 lines after 200 pieces, the search {score}");
    let out = hatetris(&["search", "--from", game, "--at", "5000", "--width", "5", "--quiet"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--at 5000"));
}

#[test]
fn a_reader_that_stops_early_is_no_panic() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hatetris"))
        .args(["search", "--width", "10", "--eval", "baseline", "--json", "--quiet"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
}
