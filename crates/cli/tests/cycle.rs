//! `hatetris cycle` end to end at a tiny size: recipes (the experiments'
//! keys included), two generations reproduced byte for byte on 1 and 2
//! threads with the schedule switching where it says, the run folder's
//! summary files, a stop at a save and a run folder moved elsewhere.

use hatetris_learn::dataset::{write_dataset, Sample};
use std::path::{Path, PathBuf};
use std::process::Command;

fn hatetris() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hatetris"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn test_recipe(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recipes").join(name)
}

#[test]
fn a_tiny_learning_run_with_the_experiments_keys_goes_end_to_end_and_measures_its_network() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    // A small anchor set, mixed into the learn step.
    let anchor = dir.path().join("anchor.htds");
    let wells: Vec<Sample> = (0..50u16).map(|i| Sample::new(&[0, i % 1023, 1022 - i], 0.5)).collect();
    write_dataset(&anchor, "anchor", &wells).unwrap();
    let recipe = dir.path().join("r.toml");
    std::fs::write(
        &recipe,
        format!(
            "[settings]\nwidth = 8\nsamples = 2\nsample_children = true\ntarget = \"survival\"\nrefine_width = 4\n\
             refine_depth = 3\nrefine_step = 1.0\nmax_depth = 12\nmax_epochs = 1\nbatch = 64\nsuite_width = 2\n\
             suite_pieces = 2\nanchor = [\"{}\"]\nanchor_samples = 20\nstudents = 1\nopenings = 1\nopening_pieces = 2\n",
            s(&anchor)
        ),
    )
    .unwrap();
    let out = hatetris().args(["cycle", "--dir", s(&run), "--recipe", s(&recipe), "--quiet"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = String::from_utf8(out.stdout).unwrap();
    let m: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(m["cycle"], 1);
    let pieces = m["suite_pieces"].as_f64().expect("the learned network was measured");
    assert!((0.0..=2.0).contains(&pieces), "{pieces}");
    for f in ["config.json", "recipe.toml", "metrics.jsonl", "suite-000.json", "cycle-001/student-01.hnet"] {
        assert!(run.join(f).exists(), "{f} missing");
    }
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("config.json")).unwrap()).unwrap();
    assert_eq!(config["refine"]["target"], "survival");
    assert_eq!(config["sample_children"], true);
    assert_eq!((config["anchor_samples"].as_u64(), config["students"].as_u64()), (Some(20), Some(1)));
    assert_eq!((config["openings"].as_u64(), config["opening_pieces"].as_u64()), (Some(1), Some(2)));
}

#[test]
fn experiments_left_the_command_line_and_a_bad_recipe_is_one_line_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    for gone in ["--target", "--students", "--teacher-window", "--sample-children", "--sample-band", "--openings"] {
        let out = hatetris().args(["cycle", "--dir", s(&run), gone, "1"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{gone}");
    }
    let help = hatetris().args(["cycle", "--help"]).output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let options = help.lines().filter(|l| l.trim_start().starts_with("--") || l.trim_start().starts_with("-h")).count();
    assert!(options <= 25, "{options} options:\n{help}");
    for (text, says) in [
        ("[settings]\ntarget = \"bogus\"\n", "bogus"),
        ("[settings]\ngamma = 1.5\n", "gamma"),
        ("[settings]\ntarget = \"family\"\n", "children"),
        ("[settings]\nsample_band = 0.5\n", "children"),
        ("[settings]\nretry_below = -1.0\n", "retry-below"),
        ("[settings]\nunknown_key = 1\n", "unknown_key"),
        ("[from.3]\nsuite_width = 5\n", "suite_width"),
    ] {
        let recipe = dir.path().join("bad.toml");
        std::fs::write(&recipe, text).unwrap();
        let out = hatetris().args(["cycle", "--dir", s(&run), "--recipe", s(&recipe)]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: ") && err.contains(says), "{text}: {err}");
        assert!(!run.exists(), "nothing is written on a bad recipe");
    }
}

/// Every file of a run folder, by its path inside it.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// Two generations of a tiny recipe from the bootstrap, on 1 thread and
/// on 2: the same networks and master games byte for byte; the schedule
/// switches at generation 2; each master game's replay verifies and
/// `hatetris search` plays it again from the generation's seed.
#[test]
fn two_generations_reproduce_byte_for_byte_on_1_and_2_threads_and_the_schedule_switches() {
    let dir = tempfile::tempdir().unwrap();
    let recipe = test_recipe("two.toml");
    let mut runs = Vec::new();
    for threads in ["1", "2"] {
        let run = dir.path().join(format!("t{threads}"));
        let out = hatetris()
            .args(["cycle", "--dir", s(&run), "--recipe", s(&recipe), "--cycles", "2", "--threads", threads, "--quiet"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        runs.push(run);
    }
    let read = |run: &Path, f: &str| std::fs::read(run.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    for f in ["cycle-001/net.hnet", "cycle-002/net.hnet", "latest.hnet", "best.b2048", "recipe.toml", "config.json"] {
        assert_eq!(read(&runs[0], f), read(&runs[1], f), "{f} differs between 1 and 2 threads");
    }
    let metrics = |run: &Path| -> Vec<serde_json::Value> {
        let text = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    let (m1, m2) = (metrics(&runs[0]), metrics(&runs[1]));
    assert_eq!(m1.len(), 2);
    for (a, b) in m1.iter().zip(&m2) {
        assert_eq!((&a["replay"], &a["lines"]), (&b["replay"], &b["lines"]));
    }
    // The schedule: width 24, band 2 at generation 1; 32, band 0 from 2.
    assert_eq!((&m1[0]["width"], &m1[0]["chains"]), (&serde_json::json!(24), &serde_json::json!([3, 2])));
    assert_eq!((&m1[1]["width"], &m1[1]["chains"]), (&serde_json::json!(32), &serde_json::json!([3, 0])));
    // The folder says what happened.
    let run = &runs[0];
    let names = files(run);
    let nets: Vec<&PathBuf> = names.iter().filter(|p| p.starts_with("nets")).collect();
    assert_eq!(nets.len(), 3, "the start's and two generations' networks: {nets:?}");
    assert_eq!(read(run, "latest.hnet"), read(run, "cycle-002/net.hnet"));
    let hash = hatetris_learn::cycle::hash16(&read(run, "cycle-002/net.hnet"));
    assert!(run.join(format!("nets/{hash}.hnet")).exists());
    for f in ["generations.md", "progress-lines.png", "progress-loss.png", "progress-suite.png"] {
        assert!(run.join(f).exists(), "{f}");
    }
    let table = std::fs::read_to_string(run.join("generations.md")).unwrap();
    assert!(table.contains("| 1 | 24, record depth 3, band 2, blend 0.5 |"), "{table}");
    assert!(table.contains("| 2 | 32, record depth 3, band 0, blend 0.5 |"), "{table}");
    // Each trained network is also measured on the steady suite.
    assert!(table.contains("steady suite (pieces, rows frozen per 100)"), "{table}");
    for m in &m1 {
        assert!(m["steady_pieces"].as_f64().is_some_and(|p| p > 0.0), "{m}");
    }
    let best = m1.iter().max_by_key(|m| m["lines"].as_u64()).unwrap();
    let v = hatetris().args(["verify", s(&run.join("best.b2048"))]).output().unwrap();
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));
    let verified: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap();
    assert_eq!(verified["score"], best["lines"]);
    // Generation G's master game is `hatetris search` with G-1's network and seed 81 + G x 0x9E3779B9.
    let bootstrap = dir.path().join("bootstrap.hnet");
    hatetris_eval::Network::embedded_bootstrap().save(&bootstrap).unwrap();
    for (m, net, width, band) in [(&m1[0], bootstrap, "24", "2"), (&m1[1], run.join("cycle-001/net.hnet"), "32", "0")] {
        let seed = (81 + m["cycle"].as_u64().unwrap() * 0x9E37_79B9).to_string();
        let out = hatetris()
            .args(["search", "--eval", &format!("net={}", s(&net)), "--width", width, "--seed", &seed])
            .args(["--quiescence", "3", "--chain-rule", "record", "--chain-band", band, "--chain-blend", "0.5"])
            .args(["--max-depth", "40", "--threads", "2", "--json", "--quiet"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let searched: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(searched["replay"], m["replay"], "generation {}'s master game from `hatetris search`", m["cycle"]);
    }
}

/// SIGTERM stops a run at a save with status 0 and a line saying how it
/// goes on; the folder, copied elsewhere, goes on there (it holds no path).
#[test]
fn a_run_stopped_by_sigterm_goes_on_and_a_copied_folder_goes_on_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let recipe = test_recipe("tiny.toml");
    let child = hatetris()
        .args(["cycle", "--dir", s(&run), "--recipe", s(&recipe), "--cycles", "1000", "--quiet"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t = std::time::Instant::now();
    while !run.join("cycle-002").exists() {
        assert!(t.elapsed().as_secs() < 120, "no second cycle");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("stopped at a save") && err.contains("goes on from there"), "{err}");
    let done = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap().lines().count();
    assert!(done < 1000);
    // No file of the run names where it is.
    for f in files(&run) {
        let bytes = std::fs::read(run.join(&f)).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(s(dir.path())), "{} holds the run's path", f.display());
    }
    let moved = dir.path().join("elsewhere");
    assert!(Command::new("cp").args(["-r", s(&run), s(&moved)]).status().unwrap().success());
    std::fs::remove_dir_all(&run).unwrap();
    let out = hatetris()
        .args(["cycle", "--dir", s(&moved), "--cycles", &(done + 1).to_string(), "--quiet"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(moved.join("metrics.jsonl")).unwrap().lines().count(), done + 1);
}

/// A run from before recipes (its config.json alone, as gen-b's r36 was
/// started) goes on under the record recipe with the settings it has: its
/// generation found from its seed; another width is refused by name.
#[test]
fn a_run_from_before_recipes_goes_on_under_the_record_recipe_with_its_settings() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("r36");
    std::fs::create_dir_all(&run).unwrap();
    let r36 = include_str!("../../learn/src/cycle/gen-b-r36-config.json");
    std::fs::write(run.join("config.json"), r36).unwrap();
    let record = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../recipes/record.toml");
    // Another recipe's setting is refused, naming it; nothing is written.
    let out =
        hatetris().args(["cycle", "--dir", s(&run), "--recipe", s(&record), "--width", "300000"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("width 200000 -> 300000"), "{err}");
    let quick = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../recipes/quick.toml");
    let out = hatetris().args(["cycle", "--dir", s(&run), "--recipe", s(&quick)]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!run.join("recipe.toml").exists());
    assert_eq!(std::fs::read_to_string(run.join("config.json")).unwrap(), r36);
}

/// A lineage going on in a new folder: `--last-game` hands the first
/// generation the game the network came from, and its master search goes
/// on from it `master_from_end` pieces before its end, as a later
/// generation does from the one before's; what cannot be gone on from is
/// refused in one line, before anything is written.
#[test]
fn a_new_run_goes_on_from_the_last_game_given_and_refuses_what_it_cannot_go_on_from() {
    let dir = tempfile::tempdir().unwrap();
    let out = hatetris().args(["search", "--width", "20", "--max-depth", "20", "--json", "--quiet"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let searched: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let game = dir.path().join("game.b2048");
    std::fs::write(&game, format!("{}\n", searched["replay"].as_str().unwrap())).unwrap();
    let moves = |replay: &str| {
        let keys = hatetris_game::replay::decode(replay).unwrap();
        hatetris_search::moves_for_keys(hatetris_game::Rules::STANDARD, hatetris_game::Enemy::Hatetris, &keys)
    };
    let before = moves(searched["replay"].as_str().unwrap());
    assert_eq!(before.len(), 20);
    let settings = "[settings]\nwidth = 8\nsamples = 2\nrefine_width = 4\nrefine_depth = 3\nmax_depth = 6\n\
                    max_epochs = 1\nbatch = 64\nsuite_width = 2\nsuite_pieces = 2\n";
    let recipe = dir.path().join("r.toml");
    std::fs::write(&recipe, format!("{settings}master_from_end = 5\n")).unwrap();
    let run = dir.path().join("run");
    let cycle = |run: &Path, recipe: &Path, game: &Path| {
        hatetris()
            .args(["cycle", "--dir", s(run), "--recipe", s(recipe), "--last-game", s(game), "--quiet"])
            .output()
            .unwrap()
    };
    let out = cycle(&run, &recipe, &game);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let m: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(m["from_piece"], 15);
    let after = moves(m["replay"].as_str().unwrap());
    assert_eq!(after[..15], before[..15], "the game goes on from the given one's first 15 pieces");
    assert_eq!(std::fs::read_to_string(run.join("game-000.b2048")).unwrap(), searched["replay"].as_str().unwrap());
    // On resume: the same game goes on (or none given); another is refused.
    let raised = hatetris()
        .args(["cycle", "--dir", s(&run), "--cycles", "2", "--last-game", s(&game), "--quiet"])
        .output()
        .unwrap();
    assert!(raised.status.success(), "{}", String::from_utf8_lossy(&raised.stderr));
    let other = dir.path().join("other.b2048");
    let out = hatetris().args(["search", "--width", "10", "--max-depth", "12", "--json", "--quiet"]).output().unwrap();
    let short: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    std::fs::write(&other, short["replay"].as_str().unwrap()).unwrap();
    let refused = |out: std::process::Output, says: &str| {
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{says:?} not in {err}");
    };
    refused(cycle(&run, &recipe, &other), "another first game");
    // A run started without one cannot take one later.
    let plain = dir.path().join("plain");
    let out = hatetris().args(["cycle", "--dir", s(&plain), "--recipe", s(&recipe), "--quiet"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    refused(cycle(&plain, &recipe, &game), "started without --last-game");
    // New runs: no file, not a replay, too short, or no master_from_end.
    let fresh = dir.path().join("fresh");
    refused(cycle(&fresh, &recipe, &dir.path().join("missing.b2048")), "cannot read it");
    let junk = dir.path().join("junk.b2048");
    std::fs::write(&junk, "not a replay at all").unwrap();
    refused(cycle(&fresh, &recipe, &junk), "does not decode");
    let long = dir.path().join("long.toml");
    std::fs::write(&long, format!("{settings}master_from_end = 20\n")).unwrap();
    refused(cycle(&fresh, &long, &game), "not longer than master_from_end (20 pieces)");
    let none = dir.path().join("none.toml");
    std::fs::write(&none, settings).unwrap();
    refused(cycle(&fresh, &none, &game), "master_from_end");
    assert!(!fresh.exists(), "a refused start writes nothing");
}

/// `--print-config G`: generation G's settings as the recipe schedules
/// them (as a new run from G-1 would search), read by scripts instead of
/// parsing the recipe themselves; it needs no run folder, writes nothing,
/// and refuses a generation outside 1..=MAX in one line.
#[test]
fn print_config_gives_a_generations_settings_and_writes_nothing() {
    let record = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../recipes/record.toml");
    let config = |g: &str, extra: &[&str]| {
        let out = hatetris().args(["cycle", "--recipe", s(&record), "--print-config", g]).args(extra).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let from_end = |v: &serde_json::Value| v.get("master_from_end").and_then(|x| x.as_u64()).unwrap_or(0);
    // The record recipe's schedule: 46 from the empty well, 47 from 700
    // pieces before 46's end; each with its own generation's seed.
    let (g46, g47) = (config("46", &[]), config("47", &[]));
    assert_eq!((from_end(&g46), from_end(&g47)), (0, 700));
    assert_eq!(g47["seed"].as_u64().unwrap() - g46["seed"].as_u64().unwrap(), 0x9E37_79B9);
    assert_eq!(config("47", &["--width", "1000"])["width"], 1000);
    // Refusals: one line, status 2, nothing written.
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("r36");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(run.join("config.json"), include_str!("../../learn/src/cycle/gen-b-r36-config.json")).unwrap();
    for (args, said) in [
        (vec!["--print-config", "0"], "from 1 to"),
        (vec!["--print-config", "100001"], "from 1 to"),
        (vec!["--print-config", "-1"], "-1"),
        (vec!["--print-config", "x"], "x"),
        (vec!["--print-config", "47", "--width", "0"], "--width"),
        (vec!["--print-config", "47", "--dir", s(&run)], "follows no recipe"),
        (vec!["--print-config", "47", "--generation", "46"], "--generation"),
        (vec!["--print-config", "47", "--retune"], "--retune"),
    ] {
        let out = hatetris().arg("cycle").args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let names: Vec<_> = std::fs::read_dir(&run).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("config.json")]);
    // Without --print-config a folder is still required.
    let out = hatetris().args(["cycle", "--recipe", s(&record)]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}
