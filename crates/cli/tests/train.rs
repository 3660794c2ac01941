//! `hatetris train` end to end: JSON lines, weights, plot; a damaged data
//! file is one `error:` line and exit status 2.

use hatetris_eval::Network;
use hatetris_learn::dataset::{write_dataset, Sample};
use std::process::Command;

/// Small wells whose target is their share of filled cells, rescaled.
fn samples(n: usize) -> Vec<Sample> {
    (0..n)
        .map(|i| {
            let h = 1 + i % 16;
            let rows: Vec<u16> = (0..h).map(|r| ((i * 7919 + r * 104_729) % 1023) as u16 & 0x3FF).collect();
            let filled: u32 = rows.iter().map(|r| r.count_ones()).sum();
            Sample::new(&rows, filled as f32 / (10.0 * h as f32) - 0.5)
        })
        .collect()
}

fn hatetris() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hatetris"))
}

#[test]
fn trains_and_writes_weights_lines_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.htds"), dir.path().join("b.htds"));
    let all = samples(3000);
    write_dataset(&a, "a", &all[..2000]).unwrap();
    write_dataset(&b, "b", &all[2000..]).unwrap();
    let out = dir.path().join("net.hnet");
    let run = hatetris()
        .args(["train", "--hidden", "16", "--batch", "256", "--max-epochs", "3", "--quiet", "--data"])
        .args([&a, &b])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stdout = String::from_utf8(run.stdout).unwrap();
    let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["epoch"], 1);
    assert_eq!(lines[0]["train_samples"], 2700);
    assert!(lines[2]["validation_loss"].as_f64().unwrap() < lines[0]["validation_loss"].as_f64().unwrap());
    assert_eq!(Network::load(&out).unwrap().hidden, 16);
    assert_eq!(&std::fs::read(dir.path().join("net.png")).unwrap()[1..4], b"PNG");
    assert!(run.stderr.is_empty());
}

#[test]
fn a_damaged_data_file_is_one_error_line_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.htds");
    write_dataset(&path, "d", &samples(100)).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    let run =
        hatetris().args(["train", "--data"]).arg(&path).arg("--out").arg(dir.path().join("net.hnet")).output().unwrap();
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: data set ") && stderr.contains("d.htds"), "{stderr}");
    assert!(!dir.path().join("net.hnet").exists());
}
