//! `hatetris cycle` end to end at a tiny size: a cycle with the survival
//! target, children sampling, an opening game and an anchor set searches, refines, learns
//! (on its wells and the anchor's, with a student), measures the learned
//! network on the suite and reports it; a widened start keeps its width;
//! bad flags exit 2.

use hatetris_learn::dataset::{write_dataset, Sample};
use std::process::Command;

fn hatetris() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hatetris"))
}

#[test]
fn a_tiny_learning_run_goes_end_to_end_and_measures_its_network() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    // A small anchor set, mixed into the learn step.
    let anchor = dir.path().join("anchor.htds");
    let wells: Vec<Sample> = (0..50u16).map(|i| Sample::new(&[0, i % 1023, 1022 - i], 0.5)).collect();
    write_dataset(&anchor, "anchor", &wells).unwrap();
    let out = hatetris()
        .args(["cycle", "--dir", run.to_str().unwrap(), "--cycles", "1", "--width", "8", "--samples", "2"])
        .args(["--sample-children", "--target", "survival", "--refine-width", "4", "--refine-depth", "3"])
        .args(["--refine-step", "1.0", "--max-depth", "12", "--max-epochs", "1", "--batch", "64"])
        .args(["--suite-width", "2", "--suite-pieces", "2", "--quiet"])
        .args(["--anchor", anchor.to_str().unwrap(), "--anchor-samples", "20"])
        // The bootstrap's 48 hidden units widened, as a run may start.
        .args(["--hidden", "56"])
        .args(["--students", "1"])
        // One noisy opening game beside the game from the empty well.
        .args(["--openings", "1", "--opening-pieces", "2"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = String::from_utf8(out.stdout).unwrap();
    let m: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(m["cycle"], 1);
    let pieces = m["suite_pieces"].as_f64().expect("the learned network was measured");
    assert!((0.0..=2.0).contains(&pieces), "{pieces}");
    for f in [
        "config.json",
        "metrics.jsonl",
        "suite-000.json",
        "cycle-001/suite.json",
        "cycle-001/net.hnet",
        "cycle-001/student-01.hnet",
        "progress-suite.png",
    ] {
        assert!(run.join(f).exists(), "{f} missing");
    }
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("config.json")).unwrap()).unwrap();
    assert_eq!(config["refine"]["target"], "survival");
    assert_eq!(config["sample_children"], true);
    assert_eq!(config["anchor_samples"], 20);
    assert_eq!(config["students"], 1);
    assert_eq!((config["openings"].as_u64(), config["opening_pieces"].as_u64()), (Some(1), Some(2)));
    for net in ["net-000.hnet", "cycle-001/net.hnet", "cycle-001/student-01.hnet"] {
        let net = hatetris_eval::Network::load(&run.join(net)).unwrap();
        assert_eq!(net.hidden, 56);
    }
}

#[test]
fn a_bad_target_discount_or_band_is_one_line_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let cases = [
        (&["--target", "bogus"][..], "target"),
        (&["--gamma", "1.5"][..], "gamma"),
        // Family targets and the band choose among children, so they need them.
        (&["--target", "family"][..], "--sample-children"),
        (&["--sample-band", "0.5"][..], "--sample-children"),
        (&["--sample-children", "--sample-band=-1"][..], "--sample-band"),
        // Widening only: the bootstrap has 48 hidden units.
        (&["--hidden", "40"][..], "--hidden"),
        (&["--hidden", "60"][..], "--hidden"),
        (&["--openings", "2", "--opening-pieces", "0"][..], "--openings"),
        (&["--openings", "2", "--opening-noise=-0.1"][..], "--openings"),
        (&["--retry-below=-1"][..], "--retry-below"),
    ];
    for (bad, says) in cases {
        let out = hatetris().args(["cycle", "--dir", run.to_str().unwrap()]).args(bad).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        // The first line says what is wrong (clap adds a hint below its own).
        assert!(err.lines().next().is_some_and(|l| l.contains(says)), "{err}");
        assert!(!run.join("config.json").exists(), "nothing is written on bad flags");
    }
}

/// Two generations as `docs/runs/gen-a/run.sh` runs them, at a tiny size:
/// the master search chains clears by the record engine's rule over a
/// band, refine does not, each generation trains from the last one's
/// network, and each master game's replay verifies to its lines.
#[test]
fn tiny_generations_with_the_record_engines_chains_go_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let init = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../eval/nets/default.hnet");
    let out = hatetris()
        .args(["cycle", "--dir", run.to_str().unwrap(), "--cycles", "2", "--width", "16", "--samples", "2"])
        .args(["--init", init.to_str().unwrap()])
        .args(["--quiescence", "3", "--chain-rule", "record", "--chain-band", "2"])
        .args(["--refine-width", "4", "--refine-depth", "3", "--history", "2", "--retry-below", "0.5"])
        .args(["--max-depth", "30", "--max-epochs", "1", "--batch", "64"])
        .args(["--suite-width", "2", "--suite-pieces", "2", "--quiet"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("config.json")).unwrap()).unwrap();
    assert_eq!(config["chain_rule"], "record");
    assert_eq!((config["quiescence"].as_u64(), config["chain_band"].as_u64()), (Some(3), Some(2)));
    let metrics = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = metrics.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    for m in &lines {
        let replay = dir.path().join("game.b2048");
        std::fs::write(&replay, m["replay"].as_str().unwrap()).unwrap();
        let v = hatetris().args(["verify", replay.to_str().unwrap()]).output().unwrap();
        assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));
        let verified: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap();
        assert_eq!(verified["score"], m["lines"], "generation {}", m["cycle"]);
    }
    assert!(run.join("cycle-002/net.hnet").exists());
    // The README gives a generation's master game as a `hatetris search`
    // command (the network that searched it, the cycle's seed, the same
    // chain settings): that command must play the cycle's game exactly.
    for (m, net) in lines.iter().zip([init.clone(), run.join("cycle-001/net.hnet")]) {
        let cycle = m["cycle"].as_u64().unwrap();
        let seed = (cycle * 0x9E37_79B9).to_string();
        let out = hatetris()
            .args(["search", "--eval", &format!("net={}", net.to_str().unwrap()), "--width", "16"])
            .args(["--seed", &seed, "--quiescence", "3", "--chain-rule", "record", "--chain-band", "2"])
            .args(["--max-depth", "30", "--threads", "2", "--json", "--quiet"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let searched: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(searched["replay"], m["replay"], "cycle {cycle}'s master game from `hatetris search`");
    }
}
