//! Issue #48, "nothing lost, nothing poisoned": every command checks its
//! inputs before it works and never writes over what it reads. Each
//! refusal is one `error:` line with exit status 2, and leaves the files
//! as they were.

use hatetris_learn::dataset::{write_dataset, Sample};
use std::path::Path;
use std::process::{Command, Output};

fn hatetris() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hatetris"))
}

fn run(args: &[&str]) -> Output {
    hatetris().args(args).output().unwrap()
}

/// A refusal: status 2, one `error:` line containing every one of `says`.
#[track_caller]
fn refused(out: &Output, says: &[&str]) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    for s in says {
        assert!(err.contains(s), "{s:?} not in {err}");
    }
    err
}

#[track_caller]
fn succeeded(out: &Output) {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn dataset(path: &Path, n: u16) {
    let wells: Vec<Sample> = (0..n).map(|i| Sample::new(&[0, i % 1023, 1022 - i % 1000], 0.5)).collect();
    write_dataset(path, "wells", &wells).unwrap();
}

#[test]
fn an_output_that_is_also_an_input_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("d.htds");
    dataset(&data, 200);
    let before = std::fs::read(&data).unwrap();
    // The same file under another spelling is still the same file.
    let alias = dir.path().join("sub/../d.htds");
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let out = run(&["train", "--data", s(&data), "--out", s(&alias), "--hidden", "8", "--quiet"]);
    refused(&out, &["--out", "--data"]);
    let out = run(&["label", "--teacher", "baseline", "--data", s(&data), "--out", s(&data)]);
    refused(&out, &["--out", "--data"]);
    assert_eq!(std::fs::read(&data).unwrap(), before);
    // The loss plot would land on the network just trained.
    let png = dir.path().join("x.png");
    let out = run(&["train", "--data", s(&data), "--out", s(&png), "--hidden", "8", "--quiet"]);
    refused(&out, &["--plot", "--out"]);
    assert!(!png.exists());

    // A replay searched on from piece 10 and written over itself.
    let replay = dir.path().join("r.b2048");
    let out =
        run(&["search", "--eval", "baseline", "--width", "5", "--max-depth", "18", "--quiet", "--out", s(&replay)]);
    succeeded(&out);
    let before = std::fs::read(&replay).unwrap();
    let out =
        run(&["search", "--eval", "baseline", "--width", "5", "--from", s(&replay), "--at", "10", "--out", s(&replay)]);
    refused(&out, &["--out", "--from"]);
    assert_eq!(std::fs::read(&replay).unwrap(), before);

    // A network read as the evaluator is not written over either.
    let net = dir.path().join("n.hnet");
    hatetris_eval::Network::random(8, 1).save(&net).unwrap();
    let before = std::fs::read(&net).unwrap();
    let eval = format!("mean=baseline,{}", s(&net));
    refused(&run(&["search", "--eval", &eval, "--width", "5", "--out", s(&net)]), &["--out", "--eval"]);
    let eval = format!("net={}", s(&net));
    refused(&run(&["sample", "--eval", &eval, "--width", "5", "--out", s(&net)]), &["--out", "--eval"]);
    refused(&run(&["label", "--teacher", &eval, "--data", s(&data), "--out", s(&net)]), &["--out", "--teacher"]);
    assert_eq!(std::fs::read(&net).unwrap(), before);
}

#[test]
fn an_output_that_cannot_be_written_is_found_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/dir/r.b2048");
    // Width 10^6 from the empty well would take minutes: the refusal is at once.
    let started = std::time::Instant::now();
    let out = run(&["search", "--eval", "baseline", "--width", "1000000", "--out", s(&missing)]);
    refused(&out, &["--out", "cannot write"]);
    assert!(out.stdout.is_empty());
    assert!(started.elapsed().as_secs() < 30);
    let data = dir.path().join("d.htds");
    dataset(&data, 50);
    let out = run(&["label", "--teacher", "baseline", "--data", s(&data), "--out", s(&missing)]);
    refused(&out, &["--out"]);
    // A suite whose --skip is past the game's end is refused, not written empty.
    let replay = dir.path().join("r.b2048");
    let out =
        run(&["search", "--eval", "baseline", "--width", "5", "--max-depth", "12", "--quiet", "--out", s(&replay)]);
    succeeded(&out);
    let suite = dir.path().join("s.htsu");
    let out = run(&["suite", "--from", s(&replay), "--every", "2", "--skip", "500", "--out", s(&suite)]);
    refused(&out, &["--skip 500"]);
    assert!(!suite.exists());
}

const TINY_CYCLE: [&str; 4] =
    ["--cycles", "1", "--recipe", concat!(env!("CARGO_MANIFEST_DIR"), "/tests/recipes/tiny.toml")];

#[test]
fn a_cycle_refused_at_start_stores_nothing_and_a_resume_must_be_the_same_run() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("R");
    let tiny = std::fs::read_to_string(TINY_CYCLE[3]).unwrap();
    // A recipe: the tiny one with `more` added to its settings.
    let recipe = |name: &str, more: &str| {
        let path = dir.path().join(name);
        // Keys of `more` replace the tiny recipe's own.
        let keys: Vec<&str> = more.lines().filter_map(|l| l.split('=').next()).map(str::trim).collect();
        let kept: Vec<&str> =
            tiny.lines().filter(|l| !keys.iter().any(|k| l.split('=').next().map(str::trim) == Some(*k))).collect();
        let text = kept.join("\n").replace("[settings]", &format!("[settings]\n{more}"));
        std::fs::write(&path, text + "\n").unwrap();
        path
    };
    let cycle_with = |recipe: &std::path::Path, extra: &[&str]| {
        hatetris().args(["cycle", "--dir", s(&runs), "--quiet", "--recipe", s(recipe)]).args(extra).output().unwrap()
    };
    let damaged = dir.path().join("damaged.htds");
    std::fs::write(&damaged, b"not a data set").unwrap();
    let missing = dir.path().join("missing.htds");
    // A data set whose header is whole and whose end is cut off.
    let cut = dir.path().join("cut.htds");
    let wells: Vec<hatetris_learn::dataset::Sample> =
        (0..50u16).map(|i| hatetris_learn::dataset::Sample::new(&[0, i % 1023, 1022 - i], 0.5)).collect();
    hatetris_learn::dataset::write_dataset(&cut, "anchor", &wells).unwrap();
    let bytes = std::fs::read(&cut).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() - 7]).unwrap();
    let cases: [(String, &str); 16] = [
        (format!("anchor = [\"{}\"]", s(&cut)), "cut.htds"),
        ("master_from_end = 100001".into(), "master_from_end"),
        ("master_from_end = -1".into(), "master_from_end"),
        ("sample_only_refined = 2".into(), "sample_only_refined"),
        ("batch = 0".into(), "batch size 0"),
        ("refine_quiescence = 101".into(), "chain depths"),
        ("lr = 0.0".into(), "learning rate"),
        ("lr = nan".into(), "learning rate"),
        ("refine_every = 0".into(), "refine-every"),
        ("refine_every = 2\nsample_children = true".into(), "children"),
        ("max_epochs = 0".into(), "epochs"),
        ("colour = 3".into(), "colour"),
        (format!("anchor = [\"{}\"]", s(&missing)), "missing.htds"),
        (format!("anchor = [\"{}\"]", s(&damaged)), "damaged.htds"),
        (format!("starts = \"{}\"", s(&missing)), "missing.htds"),
        (format!("starts = \"{}\"", s(&damaged)), "damaged.htds"),
    ];
    for (i, (more, says)) in cases.iter().enumerate() {
        refused(&cycle_with(&recipe(&format!("bad{i}.toml"), more), &["--cycles", "1"]), &[says]);
        assert!(!runs.join("config.json").exists(), "{more} stored");
        assert!(!runs.join("recipe.toml").exists(), "{more} stored");
    }
    for (flags, says) in [
        (&["--cycles", "0"][..], "--cycles"),
        (&["--cycles", "1000000"][..], "--cycles"),
        (&["--cycles=-1"][..], "--cycles"),
        (&["--width", "0"][..], "--width"),
        (&["--width", "1000000000000"][..], "--width"),
        (&["--stop-after", "0"][..], "--stop-after"),
        (&["--stop-after=-5m"][..], "--stop-after"),
        (&["--stop-after", "99999999h"][..], "--stop-after"),
        (&["--generation", "1000000000"][..], "--generation"),
        (&["--generation=-1"][..], "--generation"),
        (&["--max-depth", "1000000000000"][..], "--max-depth"),
        (&["--seed=-1"][..], "--seed"),
        (&["--recipe", "/nonexistent/r.toml"][..], "/nonexistent/r.toml"),
    ] {
        let out = hatetris().args(["cycle", "--dir", s(&runs), "--quiet"]).args(flags).output().unwrap();
        refused(&out, &[says]);
        assert!(!runs.exists(), "{flags:?} wrote");
    }
    // The folder a refused start left starts cleanly.
    let tiny_path = std::path::PathBuf::from(TINY_CYCLE[3]);
    succeeded(&cycle_with(&tiny_path, &["--cycles", "1"]));
    assert!(runs.join("cycle-001/net.hnet").exists() && runs.join("recipe.toml").exists());

    // On resume another recipe, or a flag that changes it, is refused, naming the key and both values.
    let out = cycle_with(&recipe("wide.toml", "history = 2"), &["--cycles", "2"]);
    refused(&out, &["history 3 -> 2", "--retune"]);
    let out = hatetris().args(["cycle", "--dir", s(&runs), "--cycles", "2", "--width", "60"]).output().unwrap();
    refused(&out, &["width 8 -> 60"]);
    assert!(!runs.join("cycle-002").exists());
    // A damaged stored recipe is refused.
    let stored = std::fs::read_to_string(runs.join("recipe.toml")).unwrap();
    std::fs::write(runs.join("recipe.toml"), stored.replace("width = 8", "width = 9")).unwrap();
    refused(&hatetris().args(["cycle", "--dir", s(&runs), "--cycles", "2"]).output().unwrap(), &["checksum"]);
    std::fs::write(runs.join("recipe.toml"), &stored).unwrap();
    // The same recipe again, or none, goes on (one cycle is done: nothing to do).
    let stale = runs.join("cycle-001/.hatetris-killed.tmp");
    std::fs::write(&stale, b"half").unwrap();
    std::fs::write(runs.join(".hatetris-x1.tmp"), b"half").unwrap();
    succeeded(&cycle_with(&tiny_path, &["--cycles", "1"]));
    succeeded(&hatetris().args(["cycle", "--dir", s(&runs), "--quiet"]).output().unwrap());
    assert!(!stale.exists() && !runs.join(".hatetris-x1.tmp").exists(), "stale temporaries are removed");

    // --retune lets the settings a schedule may change change (for the
    // steps not yet run), refuses the others by name, and never starts a run.
    let out = hatetris().args(["cycle", "--dir", s(&runs), "--retune", "--seed", "9"]).output().unwrap();
    refused(&out, &["--retune may not change seed"]);
    let out = cycle_with(&recipe("suite.toml", "suite_pieces = 7\nheight = 12"), &["--retune"]);
    refused(&out, &["--retune may not change", "height", "suite_pieces"]);
    let fresh = dir.path().join("fresh");
    let out = hatetris().args(["cycle", "--dir", s(&fresh), "--retune", "--quiet"]).args(TINY_CYCLE).output().unwrap();
    refused(&out, &["--retune"]);
    assert!(!fresh.exists());
    let retuned = cycle_with(
        &recipe("retuned.toml", "history = 2\nlr = 0.0005"),
        &["--retune", "--width", "12", "--cycles", "2"],
    );
    succeeded(&retuned);
    let config = std::fs::read_to_string(runs.join("config.json")).unwrap();
    let stored: serde_json::Value = serde_json::from_str(&config).unwrap();
    assert_eq!((&stored["width"], &stored["history"]), (&serde_json::json!(12), &serde_json::json!(2)), "{config}");
    assert_eq!(stored["train"]["learning_rate"], serde_json::json!(0.0005), "{config}");
    let metrics = std::fs::read_to_string(runs.join("metrics.jsonl")).unwrap();
    let widths: Vec<serde_json::Value> =
        metrics.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["width"].clone()).collect();
    assert_eq!(widths, [serde_json::json!(8), serde_json::json!(12)]);
    // The retuned recipe is the run's now: given again without --retune it goes on.
    succeeded(
        &hatetris().args(["cycle", "--dir", s(&runs), "--quiet", "--width", "12", "--cycles", "2"]).output().unwrap(),
    );
}

#[test]
fn threads_counts_and_widths_past_the_machine_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let huge = "1000000000000";
    let data = dir.path().join("d.htds");
    dataset(&data, 20);
    let out = dir.path().join("o");
    let o = s(&out);
    let r = s(dir.path());
    for args in [
        &["search", "--threads", huge][..],
        &["strength", "--eval", "baseline", "--threads", huge],
        &["hunt", "--dir", r, "--threads", huge],
        &["label", "--teacher", "baseline", "--data", s(&data), "--out", o, "--threads", huge],
        &["train", "--data", s(&data), "--out", o, "--threads", huge],
    ] {
        refused(&run(args), &["--threads", "at most"]);
    }
    for (args, flag) in [
        (&["games", "--games", huge][..], "--games"),
        (&["cycle", "--dir", o, "--cycles", huge], "--cycles"),
        (&["sample", "--out", o, "--openings", huge], "--openings"),
        (&["sample", "--out", o, "--samples", huge], "--samples"),
        (&["search", "--width", huge], "--width"),
        (&["hunt", "--dir", o, "--widths", &format!("10,{huge}")], "--widths"),
    ] {
        refused(&run(args), &[flag, "at most"]);
    }
    // Zero is refused, not silently made something else.
    refused(&run(&["search", "--threads", "0"]), &["--threads must be at least 1"]);
    refused(&run(&["strength", "--eval", "baseline", "--threads", "0"]), &["--threads must be at least 1"]);
    refused(&run(&["search", "--twins", "0"]), &["--twins must be at least 1"]);
    assert!(!out.exists(), "nothing written");
}

#[test]
fn argument_errors_are_one_line_with_status_2_and_help_is_not_an_error() {
    for (args, says) in [
        (&["search", "--bogus"][..], "--bogus"),
        (&["search", "--width", "many"], "--width"),
        (&["search", "--width", "-1"], "--width must be a whole number"),
        (&["search", "--width=-1"], "--width must be a whole number"),
        (&["games", "--games", "-5"], "--games must be a whole number"),
        (&["cycle"], "--dir"),
        (&["train", "--out", "x"], "--data"),
        (&["nosuchcommand"], "nosuchcommand"),
        (&[], "command"),
        (&["search", "--width", "99999999999999999999999"], "too large"),
    ] {
        refused(&run(args), &[says]);
    }
    for args in [&["--help"][..], &["search", "--help"], &["--version"]] {
        let out = run(args);
        assert!(out.status.success(), "{args:?}");
        assert!(!out.stdout.is_empty());
    }
}

#[test]
fn a_hunt_cleans_its_folder_and_writes_a_deleted_best_line_again() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("H");
    let hunt = |iterations: &str, extra: &[&str]| {
        hatetris()
            .args(["hunt", "--dir", s(&runs), "--quiet", "--eval", "baseline", "--widths", "20", "--iterations"])
            .arg(iterations)
            .args(extra)
            .output()
            .unwrap()
    };
    refused(&hunt("1", &["--stride", "0"]), &["--stride must be at least 1"]);
    assert!(!runs.join("book.htbk").exists());
    succeeded(&hunt("1", &["--stride", "6"]));
    let best = runs.join("best.b2048");
    let line = std::fs::read_to_string(&best).unwrap();
    std::fs::remove_file(&best).unwrap();
    let stale = runs.join(".hatetris-abc123.tmp");
    std::fs::write(&stale, b"half").unwrap();
    // Its one search is done: nothing is searched, the best line comes back.
    let out = hunt("1", &[]);
    succeeded(&out);
    assert_eq!(std::fs::read_to_string(&best).unwrap(), line);
    assert!(!stale.exists());
    refused(&hunt("1", &["--stride", "7"]), &["--stride 6", "7"]);

    // A search's checkpoint folder is cleaned as well.
    let ck = dir.path().join("ck");
    std::fs::create_dir(&ck).unwrap();
    std::fs::write(ck.join(".hatetris-old.tmp"), b"half").unwrap();
    let out =
        run(&["search", "--eval", "baseline", "--width", "5", "--max-depth", "6", "--quiet", "--checkpoint", s(&ck)]);
    succeeded(&out);
    assert!(!ck.join(".hatetris-old.tmp").exists());
}

#[test]
fn a_damaged_network_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let net = dir.path().join("bad.hnet");
    std::fs::write(&net, b"HNETxxxxxxxxxxxxxxxxxxxxxxxx").unwrap();
    let data = dir.path().join("d.htds");
    dataset(&data, 20);
    let out = dir.path().join("o.htds");
    let teacher = format!("net={}", s(&net));
    refused(&run(&["label", "--teacher", &teacher, "--data", s(&data), "--out", s(&out)]), &["bad.hnet"]);
    let o = dir.path().join("o.hnet");
    refused(&run(&["train", "--init", s(&net), "--data", s(&data), "--out", s(&o), "--quiet"]), &["bad.hnet"]);
}

/// A temporary file a killed writer left beside an output, untouched for
/// an hour, is removed when a command next writes there; a fresh one (a
/// writer at work) and other files are kept.
#[test]
fn a_killed_writers_temporary_beside_an_output_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    let stale = dir.path().join(".hatetris-AbCdEf.tmp");
    let fresh = dir.path().join(".hatetris-GhIjKl.tmp");
    for p in [&stale, &fresh] {
        std::fs::write(p, b"half").unwrap();
    }
    let hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 3600);
    std::fs::File::options().write(true).open(&stale).unwrap().set_modified(hours_ago).unwrap();
    let replay = dir.path().join("r.b2048");
    let out =
        run(&["search", "--eval", "baseline", "--width", "5", "--max-depth", "12", "--quiet", "--out", s(&replay)]);
    succeeded(&out);
    assert!(replay.exists());
    assert!(!stale.exists(), "the killed writer's temporary file is gone");
    assert!(fresh.exists(), "a writer at work keeps its file");
}

#[test]
fn a_search_refused_for_its_start_leaves_no_checkpoint_folder() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck");
    let missing = dir.path().join("missing.b2048");
    let out = run(&[
        "search",
        "--eval",
        "baseline",
        "--width",
        "5",
        "--from",
        missing.to_str().unwrap(),
        "--checkpoint",
        ck.to_str().unwrap(),
    ]);
    refused(&out, &["missing.b2048"]);
    assert!(!ck.exists(), "the refused start made {}", ck.display());
}
