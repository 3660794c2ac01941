//! Atomic writes for the files the engine produces (networks, data sets,
//! checkpoints): a temporary file in the destination's directory, synced,
//! then renamed over the destination, so that a reader or a crash sees
//! either the old file or the whole new one. `tempfile` does the naming
//! and the clean-up (a temporary file not persisted is removed when
//! dropped); this crate adds the permissions and the sync.
//!
//! [`frame`]: the magic, version and checksum framing of binary files.

pub mod frame;

use std::io::Write;
use std::path::Path;
pub use tempfile::NamedTempFile;

/// A new temporary file beside `path`, with the permissions a plain
/// `File::create` would give (tempfile's default, 0600, would leave a
/// network or data set unreadable to other users).
pub fn temp_beside(path: &Path) -> std::io::Result<NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX).suffix(TEMP_SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Masked by the umask at creation, as `File::create` is.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}

/// Syncs `file` and renames it over `path`.
pub fn persist(file: NamedTempFile, path: &Path) -> std::io::Result<()> {
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = temp_beside(path)?;
    f.write_all(bytes)?;
    persist(f, path)
}

/// Temporary files of this crate start and end so (`temp_beside`).
const TEMP_PREFIX: &str = ".hatetris-";
const TEMP_SUFFIX: &str = ".tmp";

/// Removes the temporary files a killed writer left in `dir` (not in its
/// subdirectories) and returns how many. Only for directories a command
/// owns (a run or checkpoint directory): a writer at work in `dir` at the
/// same time would lose its file.
pub fn remove_stale_temps(dir: &Path) -> std::io::Result<usize> {
    remove_temps(dir, |_| true)
}

/// Removes the temporary files in `dir` (not in its subdirectories) that
/// no writer has touched for `idle` and returns how many: for the folder
/// of an output, which other commands may share. A writer streams into its
/// temporary file until it renames it, so one left untouched that long was
/// left by a killed writer.
pub fn remove_idle_temps(dir: &Path, idle: std::time::Duration) -> std::io::Result<usize> {
    remove_temps(dir, |meta| meta.modified().ok().and_then(|m| m.elapsed().ok()).is_some_and(|age| age >= idle))
}

/// Removes this crate's temporary files in `dir` whose metadata `stale`
/// accepts.
fn remove_temps(dir: &Path, stale: impl Fn(&std::fs::Metadata) -> bool) -> std::io::Result<usize> {
    let mut removed = 0;
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)) {
            continue;
        }
        let meta = entry.metadata()?;
        if meta.is_file() && stale(&meta) {
            std::fs::remove_file(entry.path())?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// The path `path` names once symbolic links and `..` are resolved; for a
/// file that does not exist yet, its resolved directory joined with its
/// name. Two paths name one file when their targets are equal.
pub fn canonical_target(path: &Path) -> std::io::Result<std::path::PathBuf> {
    match path.canonicalize() {
        Ok(p) => Ok(p),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let name = path.file_name().ok_or(e)?;
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            Ok(dir.canonicalize()?.join(name))
        }
        Err(e) => Err(e),
    }
}

/// Do `a` and `b` name the same file (existing or to be written)? Paths
/// that cannot be resolved are taken as different (reading or writing
/// them fails on its own).
pub fn same_file(a: &Path, b: &Path) -> bool {
    matches!((canonical_target(a), canonical_target(b)), (Ok(x), Ok(y)) if x == y)
}

/// Checks, before any work, that `path` can be written as
/// `write_atomically` writes it: not a directory, and a temporary file can
/// be made beside it (created and removed at once).
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    if path.is_dir() {
        return Err(std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a directory"));
    }
    if path.file_name().is_none() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "names no file"));
    }
    drop(temp_beside(path)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_temporaries_are_removed_and_fresh_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join(".hatetris-old.tmp");
        let fresh = dir.path().join(".hatetris-new.tmp");
        let other = dir.path().join("keep.tmp");
        for p in [&old, &fresh, &other] {
            std::fs::write(p, b"x").unwrap();
        }
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        std::fs::File::options().write(true).open(&old).unwrap().set_modified(hour_ago).unwrap();
        assert_eq!(remove_idle_temps(dir.path(), std::time::Duration::from_secs(600)).unwrap(), 1);
        assert!(!old.exists() && fresh.exists() && other.exists());
    }

    #[test]
    fn writes_whole_files_and_leaves_no_temporary_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.bin");
        write_atomically(&path, b"first").unwrap();
        write_atomically(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["out.bin"]);
        // Dropped before persisting: nothing is left.
        drop(temp_beside(&dir.path().join("other.bin")).unwrap());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn files_get_the_usual_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("net.hnet");
        write_atomically(&path, b"x").unwrap();
        let plain = dir.path().join("plain");
        std::fs::File::create(&plain).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), mode(&plain));
    }

    #[test]
    fn stale_temporaries_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let stale = temp_beside(&dir.path().join("net.hnet")).unwrap();
        let (_, stale_path) = stale.keep().unwrap();
        std::fs::write(dir.path().join("keep.tmp"), b"x").unwrap();
        std::fs::write(dir.path().join(".hatetris-notes"), b"x").unwrap();
        assert_eq!(remove_stale_temps(dir.path()).unwrap(), 1);
        assert!(!stale_path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
        assert_eq!(remove_stale_temps(&dir.path().join("missing")).unwrap(), 0);
    }

    #[test]
    fn same_file_sees_through_dots_and_new_names() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.htds");
        std::fs::write(&a, b"x").unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        assert!(same_file(&a, &dir.path().join("sub/../a.htds")));
        assert!(!same_file(&a, &dir.path().join("b.htds")));
        assert!(same_file(&dir.path().join("new.hnet"), &dir.path().join("sub/../new.hnet")));
        assert!(check_writable(&dir.path().join("new.hnet")).is_ok());
        assert!(check_writable(&dir.path().join("missing/new.hnet")).is_err());
        assert!(check_writable(&dir.path().join("sub")).is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
