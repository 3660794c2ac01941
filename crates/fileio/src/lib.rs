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
    builder.prefix(".hatetris-").suffix(".tmp");
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
