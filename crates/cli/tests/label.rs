//! `hatetris label` (and `sample`, which writes its wells) as a user runs
//! it: the wells of data sets, once each, with the mean of the teachers'
//! values; bad input exits 2 with one line.

use hatetris_eval::{Baseline, EvalSpec, Evaluator};
use hatetris_learn::dataset::{read_dataset, write_dataset, Sample};
use std::process::{Command, Output};

fn hatetris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hatetris")).args(args).output().expect("the hatetris binary runs")
}

#[test]
fn labels_are_the_teachers_mean_over_distinct_wells() {
    let dir = tempfile::tempdir().unwrap();
    let a = Sample::new(&[0; 16], 0.5);
    let mut rows = [0u16; 16];
    rows[14] = 0b0111111110;
    rows[15] = 0b1111011111;
    let b = Sample::new(&rows, -1.0);
    let small = Sample::new(&[0, 0b11, 0b111], 0.0);
    let (d1, d2, out) = (dir.path().join("one.htds"), dir.path().join("two.htds"), dir.path().join("mean.htds"));
    write_dataset(&d1, "one", &[a, b]).unwrap();
    write_dataset(&d2, "two", &[b, small, a]).unwrap();
    let o = hatetris(&[
        "label",
        "--teacher",
        "baseline",
        "net",
        "--data",
        d1.to_str().unwrap(),
        d2.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["wells"], 3);
    assert_eq!(report["repeats_dropped"], 2);

    let net = "net".parse::<EvalSpec>().unwrap().load().unwrap().0;
    let labelled = read_dataset(&out).unwrap();
    assert_eq!(labelled.iter().map(|s| s.rows()).collect::<Vec<_>>(), [a.rows(), b.rows(), small.rows()]);
    for s in &labelled {
        let mean = (Baseline.evaluate(s.rows()) + net.evaluate(s.rows())) / 2.0;
        assert!((s.target - mean).abs() < 1e-6, "{} against {mean}", s.target);
    }
}

#[test]
fn bad_input_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("d.htds");
    write_dataset(&data, "d", &[Sample::new(&[0; 16], 0.0)]).unwrap();
    let out = dir.path().join("o.htds");
    let cases: [(Vec<&str>, &str); 3] = [
        (vec!["--teacher", "nett", "--data", data.to_str().unwrap()], "unknown evaluator"),
        (vec!["--teacher", "net", "--data", "/nonexistent.htds"], "nonexistent"),
        (vec!["--teacher", "net=/nonexistent.hnet", "--data", data.to_str().unwrap()], "nonexistent"),
    ];
    for (args, needle) in cases {
        let mut all = vec!["label"];
        all.extend(args);
        all.extend(["--out", out.to_str().unwrap()]);
        let o = hatetris(&all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.contains(needle), "{err}");
    }
    assert!(!out.exists(), "nothing written on bad input");
}

#[test]
fn sample_writes_a_searched_games_wells_reproducibly_for_label() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two, out) = (dir.path().join("one.htds"), dir.path().join("two.htds"), dir.path().join("lab.htds"));
    let run = |path: &std::path::Path| {
        let args = ["sample", "--eval", "baseline", "--width", "40", "--samples", "5", "--seed", "3", "--quiet"];
        let o = hatetris(&[&args[..], &["--out", path.to_str().unwrap()]].concat());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let (r1, r2) = (run(&one), run(&two));
    assert_eq!(r1["replay"], r2["replay"], "the same seed plays the same game");
    let wells = read_dataset(&one).unwrap();
    assert_eq!(wells.len() as u64, r1["wells"].as_u64().unwrap());
    let pieces = r1["pieces"].as_u64().unwrap() as usize;
    assert!(!wells.is_empty() && wells.len() <= 5 * (pieces + 1), "{} wells from {pieces} pieces", wells.len());
    assert_eq!(
        wells.iter().map(|s| s.rows()).collect::<Vec<_>>(),
        read_dataset(&two).unwrap().iter().map(|s| s.rows()).collect::<Vec<_>>(),
        "the same seed samples the same wells"
    );
    let o = hatetris(&["label", "--teacher", "net", "--data", one.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    assert_eq!(r1["opening_lines"].as_array().map(Vec::len), Some(0));

    // Opened games add their own wells after the game from the empty well.
    let opened = dir.path().join("opened.htds");
    let args = ["sample", "--eval", "baseline", "--width", "40", "--samples", "5", "--seed", "3", "--quiet"];
    let more = ["--openings", "2", "--opening-pieces", "6", "--opening-noise", "1", "--out", opened.to_str().unwrap()];
    let o = hatetris(&[&args[..], &more[..]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r3: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r3["replay"], r1["replay"], "the game from the empty well is the same");
    assert_eq!(r3["opening_lines"].as_array().map(Vec::len), Some(2));
    let all = read_dataset(&opened).unwrap();
    assert_eq!(all.len() as u64, r3["wells"].as_u64().unwrap());
    assert!(all.len() > wells.len());
    assert_eq!(
        all[..wells.len()].iter().map(|s| s.rows()).collect::<Vec<_>>(),
        wells.iter().map(|s| s.rows()).collect::<Vec<_>>(),
        "the first game's wells come first, unchanged"
    );

    for bad in [&["--width", "0"][..], &["--openings", "1", "--opening-noise=-1"][..]] {
        let o = hatetris(&[&["sample", "--out", out.to_str().unwrap()][..], bad].concat());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
    }
}
