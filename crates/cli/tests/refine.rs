//! `hatetris refine`: a cycle's refine step on its own writes the cycle's
//! data set byte for byte, on one process and on two; written to the
//! cycle's own file it is the cycle's step, which the run resumed skips;
//! bad paths and a peer that never comes up are one line and status 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn hatetris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hatetris")).args(args).output().expect("the hatetris binary runs")
}

fn ok(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn refused(out: &Output, says: &str) {
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: ") && stderr.contains(says), "{stderr}");
    assert!(out.stdout.is_empty());
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A one-cycle run of sampled children with the joint target (one
/// lookahead beam per family, targets scaled over all the wells).
fn tiny_run(dir: &Path) -> PathBuf {
    let run = dir.join("run");
    let recipe = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/recipes/joint.toml");
    let out = hatetris(&["cycle", "--dir", s(&run), "--cycles", "1", "--recipe", recipe, "--quiet"]);

    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    run
}

fn refine(run: &Path, out: &Path, more: &[&str]) -> Output {
    let mut args = vec!["refine", "--run", s(run), "--cycle", "1", "--out", s(out), "--quiet"];
    args.extend(more);
    hatetris(&args)
}

#[test]
fn one_and_two_processes_write_the_cycles_refined_data_set() {
    let dir = tempfile::tempdir().unwrap();
    let run = tiny_run(dir.path());
    let cycles = std::fs::read(run.join("cycle-001/refined.htds")).unwrap();
    let one = dir.path().join("one.htds");
    let m = ok(&refine(&run, &one, &[]));
    assert_eq!(std::fs::read(&one).unwrap(), cycles, "one process");
    assert_eq!(m["processes"], 1);
    assert_eq!(m["cycle_step_done"], false);
    let wells = m["wells"].as_u64().unwrap();
    assert!(wells > 100, "{wells} wells");
    let two = dir.path().join("two.htds");
    let m = ok(&refine(&run, &two, &["--local", "2", "--connect-timeout", "20"]));
    assert_eq!(std::fs::read(&two).unwrap(), cycles, "two processes");
    assert_eq!((m["processes"].as_u64(), m["wells"].as_u64()), (Some(2), Some(wells)));
}

#[test]
fn written_to_the_cycles_own_file_it_is_the_cycles_step_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let run = tiny_run(dir.path());
    let c1 = run.join("cycle-001");
    let refined = c1.join("refined.htds");
    let cycles = std::fs::read(&refined).unwrap();
    // Done already: refused, and so are the run's inputs.
    refused(&refine(&run, &refined, &[]), "already done");
    refused(&refine(&run, &c1.join("samples.htds"), &[]), "is also read");
    refused(&refine(&run, &run.join("net-000.hnet"), &[]), "is also read");
    let other = hatetris(&["refine", "--run", s(&run), "--cycle", "2", "--out", s(&dir.path().join("x.htds"))]);
    refused(&other, "search step");
    let none = hatetris(&["refine", "--run", s(dir.path()), "--cycle", "1", "--out", s(&dir.path().join("x.htds"))]);
    refused(&none, "no config.json");
    // The run as killed right after its search step.
    for f in ["refined.htds", "refine.json", "net.hnet", "train.json"] {
        std::fs::remove_file(c1.join(f)).unwrap();
    }
    std::fs::remove_file(run.join("metrics.jsonl")).unwrap();
    let m = ok(&refine(&run, &refined, &["--local", "2", "--connect-timeout", "20"]));
    assert_eq!(m["cycle_step_done"], true);
    assert_eq!(std::fs::read(&refined).unwrap(), cycles);
    assert!(c1.join("refine.json").exists());
    let out = hatetris(&["cycle", "--dir", s(&run), "--cycles", "1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cycle 1: refine already done, skipped"), "{stderr}");
    assert!(c1.join("net.hnet").exists() && run.join("metrics.jsonl").exists());
}

/// A host file whose ports nobody listens on.
fn lonely_hostfile(dir: &Path) -> PathBuf {
    let ports: Vec<std::net::TcpListener> =
        (0..2).map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap()).collect();
    let text: String = ports.iter().map(|l| format!("{}\n", l.local_addr().unwrap())).collect();
    drop(ports);
    let path = dir.join("hosts");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_peer_that_never_comes_up_is_one_line_and_status_2_within_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let run = tiny_run(dir.path());
    let hosts = lonely_hostfile(dir.path());
    let out_file = dir.path().join("refined.htds");
    // Process 1 dials process 0; process 0 waits for process 1.
    for process in ["1", "0"] {
        let started = Instant::now();
        let out = refine(
            &run,
            &out_file,
            &["--processes", "2", "--process", process, "--hostfile", s(&hosts), "--connect-timeout", "2"],
        );
        let took = started.elapsed();
        refused(&out, "within 2 s");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: process"));
        assert!(took < Duration::from_secs(15), "process {process} took {took:?}");
        assert!(!out_file.exists(), "nothing written");
    }
}
