//! `hatetris suite`, `hatetris strength` and `hatetris games` as a user
//! runs them: the embedded default suite is what the suite command builds
//! from the public games, a small comparison prints the JSON it promises
//! (games: with replays the engine scores as reported, the same for the
//! same seed), and bad input exits 2 with one line.

use hatetris_game::fixtures::known_replays;
use std::path::Path;
use std::process::{Command, Output};

fn hatetris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hatetris")).args(args).output().expect("the hatetris binary runs")
}

fn one_line_error(out: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "one line on stderr: {err}");
    assert!(err.starts_with("error: ") && err.contains(needle), "{err}");
}

/// Writes the Base2048 replay of the known game `name` to `dir/file`.
fn write_replay(dir: &Path, name: &str, file: &str) -> String {
    let r = known_replays()
        .into_iter()
        .find(|r| r.name == name && r.encoding == "Base2048")
        .unwrap_or_else(|| panic!("no Base2048 replay named {name}"));
    let path = dir.join(file);
    std::fs::write(&path, &r.replay).unwrap();
    path.to_str().unwrap().to_string()
}

/// `crates/strength/data/default.htsu` (embedded) is `hatetris suite --every 25 --skip 100`
/// over the three long public games, byte for byte.
#[test]
fn the_default_suite_is_rebuilt_from_the_public_games() {
    let dir = tempfile::tempdir().unwrap();
    let kj = write_replay(dir.path(), "knewjade (5)", "knewjade-289.b2048");
    let tim = write_replay(dir.path(), "Tim (2)", "tim-232.b2048");
    let df = write_replay(dir.path(), "David & Felipe (2)", "df-148.b2048");
    let out_file = dir.path().join("default.htsu");
    let out = hatetris(&[
        "suite",
        "--from",
        &kj,
        "--from",
        &tim,
        "--from",
        &df,
        "--every",
        "25",
        "--skip",
        "100",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("wrote 61 starts"));
    let built = std::fs::read(&out_file).unwrap();
    assert!(built == include_bytes!("../../strength/data/default.htsu"), "the embedded suite differs from a rebuild");
}

/// The steady-state suite is rebuilt from gen-b's three longest master
/// games, and `--suite steady` names it.
#[test]
fn the_steady_suite_is_rebuilt_from_the_lineages_master_games() {
    let dir = tempfile::tempdir().unwrap();
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/runs/gen-b");
    let out_file = dir.path().join("steady.htsu");
    let mut args = vec!["suite".to_string()];
    for n in [381, 329, 310] {
        args.extend(["--from".to_string(), games.join(format!("master-{n}.b2048")).display().to_string()]);
    }
    args.extend(["--every", "25", "--skip", "500", "--out", out_file.to_str().unwrap()].map(String::from));
    let out = hatetris(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("wrote 48 starts"));
    let built = std::fs::read(&out_file).unwrap();
    assert!(
        built == include_bytes!("../../strength/data/steady.htsu"),
        "the embedded steady suite differs from a rebuild"
    );
    let out = hatetris(&[
        "strength", "--eval", "baseline", "--suite", "steady", "--width", "3", "--pieces", "2", "--json", "--quiet",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["suite"].as_str(), v["evals"][0]["starts"].as_array().map(Vec::len)), (Some("steady"), Some(48)));
    assert!(v["evals"][0]["starts"][0].get("frozen_per_100").is_some(), "{v}");
}

#[test]
fn a_small_comparison_prints_its_json() {
    let dir = tempfile::tempdir().unwrap();
    let replay = write_replay(dir.path(), "Atypical", "atypical.b2048");
    let suite = dir.path().join("s.htsu");
    let s = suite.to_str().unwrap();
    let out = hatetris(&["suite", "--from", &replay, "--every", "40", "--skip", "10", "--out", s, "--source", "at"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // --until keeps the starts up to a piece: here the first alone.
    let until = dir.path().join("until.htsu");
    let u = until.to_str().unwrap();
    let out = hatetris(&["suite", "--from", &replay, "--every", "40", "--skip", "10", "--until", "49", "--out", u]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("wrote 1 starts"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = hatetris(&[
        "strength", "--eval", "baseline", "--vs", "net", "--suite", s, "--width", "5", "--pieces", "4", "--json",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "--quiet");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!((v["width"].as_u64(), v["pieces"].as_u64(), v["seed"].as_u64()), (Some(5), Some(4), Some(0)));
    let evals = v["evals"].as_array().unwrap();
    assert_eq!(evals.len(), 2);
    assert_eq!(evals[0]["eval"], "baseline");
    let starts = evals[0]["starts"].as_array().unwrap();
    assert_eq!(starts.iter().map(|s| s["piece"].as_u64().unwrap()).collect::<Vec<_>>(), [10, 50]);
    for s in starts {
        assert_eq!(s["source"], "at");
        assert!(s["pieces"].as_u64().unwrap() <= 4 && s["lines"].is_u64() && s["value"].is_f64());
    }
    for key in ["pieces", "lines"] {
        let p = &v["paired"][key];
        assert_eq!(p["n"], 2);
        let total = p["wins"].as_u64().unwrap() + p["losses"].as_u64().unwrap() + p["ties"].as_u64().unwrap();
        assert_eq!(total, 2);
        assert_eq!(p["ci95"].as_array().unwrap().len(), 2);
    }
}

#[test]
fn bad_input_exits_2_with_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "LLDD\u{1F600}").unwrap();
    let out_file = dir.path().join("s.htsu");
    let out = out_file.to_str().unwrap();
    one_line_error(
        &hatetris(&["suite", "--from", bad.to_str().unwrap(), "--every", "5", "--out", out]),
        "unrecognised",
    );
    one_line_error(&hatetris(&["suite", "--from", "/no/such/replay", "--every", "5", "--out", out]), "does not exist");
    let replay = write_replay(dir.path(), "Atypical", "atypical.b2048");
    one_line_error(&hatetris(&["suite", "--from", &replay, "--every", "0", "--out", out]), "--every");
    one_line_error(&hatetris(&["suite", "--from", &replay, "--every", "5", "--until", "0", "--out", out]), "--until");
    one_line_error(
        &hatetris(&["suite", "--from", &replay, "--every", "5", "--skip", "20", "--until", "10", "--out", out]),
        "at least --skip (20)",
    );
    one_line_error(&hatetris(&["suite", "--from", &replay, "--every", "5", "--until", "-3", "--out", out]), "-3");
    assert!(!out_file.exists());
    assert!(hatetris(&["suite", "--from", &replay, "--every", "20", "--out", out]).status.success());
    let good = std::fs::read(&out_file).unwrap();
    let damaged = dir.path().join("damaged.htsu");
    let d = damaged.to_str().unwrap();
    let mut flipped = good.clone();
    flipped[good.len() / 2] ^= 0x10;
    std::fs::write(&damaged, &flipped).unwrap();
    one_line_error(&hatetris(&["strength", "--eval", "baseline", "--suite", d]), "checksum mismatch");
    std::fs::write(&damaged, &good[..good.len() - 7]).unwrap();
    one_line_error(&hatetris(&["strength", "--eval", "baseline", "--suite", d]), "truncated");
    one_line_error(&hatetris(&["strength", "--eval", "baseline", "--suite", "/no/such.htsu"]), "/no/such.htsu");
    one_line_error(&hatetris(&["strength", "--eval", "nonsense", "--suite", out]), "unknown evaluator");
    one_line_error(&hatetris(&["strength", "--eval", "baseline", "--chain-blend", "1.5"]), "chain blend");
    one_line_error(&hatetris(&["games", "--eval", "baseline", "--chain-blend", "0.1234"]), "three places");
}

/// `hatetris compare` pairs measurements written by `strength --json`:
/// the two sides of a `--vs` file give what `--vs` printed, a file against
/// itself with one piece taken off every start gives +1 everywhere, rows
/// frozen pair only the starts both measured, and suites pool; unpaired or
/// mismatched files exit 2 with one line.
#[test]
fn compare_pairs_stored_measurements() {
    let dir = tempfile::tempdir().unwrap();
    let replay = write_replay(dir.path(), "Atypical", "atypical.b2048");
    let suite = dir.path().join("s.htsu");
    let s = suite.to_str().unwrap();
    let out = hatetris(&["suite", "--from", &replay, "--every", "40", "--skip", "10", "--out", s]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = hatetris(&[
        "strength", "--eval", "baseline", "--vs", "net", "--suite", s, "--width", "5", "--pieces", "4", "--json",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let ab = dir.path().join("ab.json");
    std::fs::write(&ab, &out.stdout).unwrap();
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ab = ab.to_str().unwrap();
    let same = hatetris(&["compare", &format!("{ab}#0"), &format!("{ab}#1"), "--json"]);
    assert!(same.status.success(), "{}", String::from_utf8_lossy(&same.stderr));
    let c: serde_json::Value = serde_json::from_slice(&same.stdout).unwrap();
    assert_eq!(c["pooled"], v["paired"]);
    assert_eq!(c["pairs"][0]["paired"], v["paired"]);

    // b: every start of the baseline's side survived one piece fewer and
    // froze half a row per 100 pieces less, where both measured (a's first
    // start too short to measure).
    for st in v["evals"][0]["starts"].as_array_mut().unwrap() {
        st["frozen_per_100"] = 1.0.into();
    }
    v["evals"][0]["starts"][0]["frozen_per_100"] = serde_json::Value::Null;
    let a = dir.path().join("a.json");
    std::fs::write(&a, v.to_string()).unwrap();
    for st in v["evals"][0]["starts"].as_array_mut().unwrap() {
        st["pieces"] = (st["pieces"].as_u64().unwrap() - 1).into();
        st["frozen_per_100"] = 0.5.into();
    }
    let b = dir.path().join("b.json");
    std::fs::write(&b, v.to_string()).unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let out = hatetris(&["compare", a, b, a, b, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let c: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(c["pairs"].as_array().unwrap().len(), 2);
    assert_eq!(c["pairs"][0]["paired"]["pieces"]["mean"], 1.0);
    assert_eq!(c["pooled"]["pieces"]["n"], 4);
    assert_eq!(c["pooled"]["pieces"]["wins"], 4);
    assert_eq!(c["pooled"]["lines"]["ties"], 4);
    assert_eq!(c["pooled"]["frozen_per_100"]["n"], 2);
    assert_eq!(c["pooled"]["frozen_per_100"]["mean"], 0.5);
    assert_eq!(c["pairs"][0]["a"]["mean_frozen_per_100"], 1.0);
    let text = hatetris(&["compare", a, b, a, b]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("pooled, 4 starts"), "{text}");
    assert!(text.contains("rows frozen per 100 pieces (2 starts): +0.50"), "{text}");
    // The 4-piece lines of the `--vs` file are too short to measure.
    let text = hatetris(&["compare", &format!("{ab}#0"), &format!("{ab}#1")]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("rows frozen per 100 pieces: no start measured"));

    one_line_error(&hatetris(&["compare", a, b, a]), "in pairs");
    one_line_error(&hatetris(&["compare", a, "missing.json"]), "cannot read missing.json");
    one_line_error(&hatetris(&["compare", a, &format!("{b}#2")]), "no index 2");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "not json").unwrap();
    one_line_error(&hatetris(&["compare", a, bad.to_str().unwrap()]), "not a `hatetris strength --json` result");
}

#[test]
fn games_prints_its_json_and_replays_that_verify() {
    let args = ["games", "--eval", "net", "--vs", "baseline", "--games", "3", "--width", "20", "--open", "6", "--json"];
    let out = hatetris(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["games"].as_u64(), v["width"].as_u64(), v["open"].as_u64()), (Some(3), Some(20), Some(6)));
    assert_eq!(v["quiescence"].as_u64(), Some(0), "no S/Z chains unless asked");
    let evals = v["evals"].as_array().unwrap();
    assert_eq!(evals.len(), 2);
    for e in evals {
        let games = e["games"].as_array().unwrap();
        assert_eq!(games.len(), 3);
        let mean = games.iter().map(|g| g["lines"].as_f64().unwrap()).sum::<f64>() / 3.0;
        assert!((e["mean_lines"].as_f64().unwrap() - mean).abs() < 1e-9);
        assert!((1..=3).contains(&e["distinct"].as_u64().unwrap()));
        for g in games {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("g.b2048");
            std::fs::write(&path, g["replay"].as_str().unwrap()).unwrap();
            let verified = hatetris(&["verify", path.to_str().unwrap()]);
            let r: serde_json::Value = serde_json::from_slice(&verified.stdout).unwrap();
            assert_eq!(r["score"], g["lines"]);
            assert_eq!(r["pieces"], g["pieces"]);
        }
    }
    let w = &v["welch"]["lines"];
    assert_eq!(w["a"], evals[0]["mean_lines"]);
    assert!(w["ci95"][0].as_f64().unwrap() <= w["diff"].as_f64().unwrap());
    let again = hatetris(&args);
    assert_eq!(out.stdout, again.stdout, "the same seed gives the same games");
}

#[test]
fn games_refuses_bad_input_with_one_line() {
    one_line_error(&hatetris(&["games", "--games", "0"]), "--games");
    one_line_error(&hatetris(&["games", "--width", "0"]), "--width");
    one_line_error(&hatetris(&["games", "--noise=-0.5"]), "--noise");
    one_line_error(&hatetris(&["games", "--eval", "nonsense"]), "unknown evaluator");
}
