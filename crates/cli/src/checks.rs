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
