//! Checks every command makes before its first expensive step: outputs
//! writable and distinct from the inputs, threads and sizes within what
//! the machine holds. Each refusal is one line naming the flag and the
//! limit.

use anyhow::{bail, Context, Result};
use std::path::Path;

/// The cores of this machine (1 if unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Threads asked beyond this many only add overhead (or hang starting
/// them): four times the cores.
pub fn max_threads() -> usize {
    4 * cores()
}

/// Refuses a `--threads` above [`max_threads`].
pub fn threads(given: Option<usize>) -> Result<()> {
    if let Some(n) = given {
        if n == 0 {
            bail!("--threads must be at least 1 (leave it out for every core)");
        }
        let max = max_threads();
        if n > max {
            bail!("--threads {n} is more than this machine can use: at most {max} (4 x its {} cores)", cores());
        }
    }
    Ok(())
}

/// The machine's memory in bytes (MemTotal of /proc/meminfo; 64 GiB where
/// it cannot be read).
pub fn total_memory() -> u64 {
    let from_proc = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    });
    from_proc.unwrap_or(64 << 30)
}

/// Bytes a beam search holds per unit of width: a 64-byte entry and its
/// candidates, about 40 of 32 bytes each (hatetris_search::beam).
pub const BYTES_PER_WIDTH: u64 = 64 + 40 * 32;

/// The widest beam the machine's memory can hold.
pub fn max_width() -> usize {
    (total_memory() / BYTES_PER_WIDTH) as usize
}

/// Refuses a beam width the machine's memory cannot hold.
pub fn width(flag: &str, width: usize) -> Result<()> {
    let max = max_width();
    if width > max {
        bail!(
            "--{flag} {width} needs more memory than this machine has ({:.1} GB): at most {max}",
            total_memory() as f64 / 1e9
        );
    }
    Ok(())
}

/// Refuses a count above a stated cap.
pub fn count(flag: &str, n: usize, max: usize) -> Result<()> {
    if n > max {
        bail!("--{flag} {n} is too many: at most {max}");
    }
    Ok(())
}

/// Refuses an output the command cannot write (a missing or read-only
/// directory, a directory in its place), before any work.
pub fn output(flag: &str, path: &Path) -> Result<()> {
    hatetris_fileio::check_writable(path)
        .with_context(|| format!("--{flag} {}: cannot write there", path.display()))?;
    // What a killed writer left beside the target, untouched for an hour
    // (a live writer keeps its temporary file fresh).
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    hatetris_fileio::remove_idle_temps(dir, STALE_AFTER)
        .with_context(|| format!("--{flag} {}: cannot clean the folder's stale temporary files", path.display()))?;
    Ok(())
}

/// How long a temporary file beside an output must lie untouched before it
/// counts as a killed writer's.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(3600);

/// Refuses an output that is also one of the inputs: writing it would
/// destroy what the command reads.
pub fn not_an_input<'a>(
    out_flag: &str,
    out: &Path,
    inputs: impl IntoIterator<Item = (&'a str, &'a Path)>,
) -> Result<()> {
    for (flag, input) in inputs {
        if hatetris_fileio::same_file(out, input) {
            bail!(
                "--{out_flag} {} is also read (--{flag} {}): write it elsewhere, nothing was done",
                out.display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// Whether `path` (existing or to be written) lies inside the folder
/// `dir`, once links and `..` are resolved.
pub fn inside(path: &Path, dir: &Path) -> bool {
    let resolve = |p: &Path| hatetris_fileio::canonical_target(p).or_else(|_| std::path::absolute(p));
    match (resolve(path), resolve(dir)) {
        (Ok(p), Ok(d)) => p != d && p.starts_with(&d),
        _ => false,
    }
}

/// Refuses an output inside a folder the command reads and keeps its own
/// files in (a run, a checkpoint): written there it could replace one of
/// them, now or at the next step.
pub fn not_inside(out_flag: &str, out: &Path, dir_flag: &str, dir: &Path) -> Result<()> {
    if inside(out, dir) {
        bail!(
            "--{out_flag} {} is inside --{dir_flag} {}, whose files the command reads and writes: \
             write it elsewhere, nothing was done",
            out.display(),
            dir.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_inside_a_folder_is_seen_through_dots_and_links() {
        let tmp = tempfile::tempdir().unwrap();
        let run = tmp.path().join("run");
        std::fs::create_dir_all(run.join("cycle-001")).unwrap();
        std::fs::write(run.join("metrics.jsonl"), "").unwrap();
        assert!(inside(&run.join("metrics.jsonl"), &run));
        assert!(inside(&run.join("cycle-001/new.hnet"), &run));
        assert!(inside(&tmp.path().join("run/../run/./x"), &run));
        assert!(!inside(&tmp.path().join("elsewhere.htds"), &run));
        assert!(!inside(&tmp.path().join("run2"), &run), "a sibling whose name starts alike");
        assert!(!inside(&run, &run));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&run, tmp.path().join("link")).unwrap();
            assert!(inside(&tmp.path().join("link/metrics.jsonl"), &run));
        }
        let e = not_inside("out", &run.join("m"), "run", &run).unwrap_err().to_string();
        assert!(e.contains("is inside --run") && e.contains("nothing was done"), "{e}");
    }
}
