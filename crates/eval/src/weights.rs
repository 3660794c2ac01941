//! The network file format (`.hnet`), all little-endian:
//!
//! ```text
//! b"HTNN"  u32 version (1)  u32 hidden  u32 row features (1023)  u32 window features (4096)
//! w1: NUM_FEATURES * hidden f32 (feature-major)   b1: hidden f32   w2: hidden f32   b2: f32
//! u32 CRC32 of every byte before it (the frame of `hatetris_fileio::frame`)
//! ```
//!
//! Reading never panics: every defect is a [`WeightsError`].

use crate::features::{NUM_FEATURES, ROW_FEATURES, WINDOW_FEATURES};
use crate::network::Network;
use hatetris_fileio::frame::{self, FrameError};
use std::path::{Path, PathBuf};

pub const MAGIC: [u8; 4] = *b"HTNN";
pub const VERSION: u32 = 1;
const HEADER_LEN: usize = 4 + 4 * 4;
/// Hidden sizes above this are refused, so a corrupt header cannot request
/// a huge allocation.
pub const MAX_HIDDEN: u32 = 4096;

#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    #[error("cannot {action} network file {path}: {source}")]
    Io { action: &'static str, path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    Frame(#[from] FrameError),
    #[error("truncated network file: {len} bytes, expected {expected}")]
    Truncated { len: usize, expected: usize },
    #[error("network file has {len} bytes, expected {expected} (trailing data)")]
    WrongLength { len: usize, expected: usize },
    #[error(
        "network file has {rows} row + {windows} window features, this build uses {ROW_FEATURES} + {WINDOW_FEATURES}"
    )]
    FeatureMismatch { rows: u32, windows: u32 },
    #[error("invalid hidden size {0} in network file (must be a positive multiple of 8, at most {MAX_HIDDEN})")]
    BadHidden(u32),
    #[error("network has inconsistent array sizes for hidden size {0}")]
    BadShape(usize),
    /// A file's contents refused: the error names the file.
    #[error("{}: {source}", path.display())]
    InFile { path: PathBuf, source: Box<WeightsError> },
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn file_len(hidden: usize) -> usize {
    HEADER_LEN + 4 * (NUM_FEATURES * hidden + 2 * hidden + 1) + 4
}

/// Is `len` the length of a whole file for some valid hidden size?
fn complete_length(len: usize) -> bool {
    let per_hidden = 4 * (NUM_FEATURES + 2);
    let fixed = file_len(0);
    len > fixed && (len - fixed).is_multiple_of(per_hidden) && ((len - fixed) / per_hidden).is_multiple_of(8)
}

impl Network {
    /// The `.hnet` encoding of the network.
    /// The CRC32 a `.hnet` file of these weights stores (over everything
    /// before it): names the weights in checkpoints and logs. (The CRC of a
    /// whole file, checksum included, is the same constant for every file.)
    pub fn checksum(&self) -> u32 {
        let bytes = self.to_bytes();
        u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap())
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let h = self.hidden;
        assert!(
            self.w1.len() == NUM_FEATURES * h && self.b1.len() == h && self.w2.len() == h,
            "network arrays do not match hidden size {h}"
        );
        let mut out = Vec::with_capacity(file_len(h) - 12);
        for v in [h as u32, ROW_FEATURES as u32, WINDOW_FEATURES as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for &x in self.w1.iter().chain(&self.b1).chain(&self.w2).chain(std::iter::once(&self.b2)) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        frame::encode(&MAGIC, VERSION, &out)
    }

    /// Decodes a `.hnet` file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, WeightsError> {
        let short = || WeightsError::Truncated { len: bytes.len(), expected: HEADER_LEN + 4 };
        if bytes.len() < 4 || (bytes[..4] == MAGIC && bytes.len() < HEADER_LEN + 4) {
            return Err(short());
        }
        // The checksum comes first (a corrupted header field reads as
        // corruption, not as a strange hidden size); a failed one is called
        // truncation when the header promises more bytes than there are,
        // unless the length is exactly that of a complete file of another
        // size (then a header byte was corrupted).
        let body = match frame::decode(bytes, &MAGIC, "network", &[VERSION]) {
            Ok((_, body)) => body,
            Err(e @ FrameError::Checksum { .. }) if u32_at(bytes, 4) == VERSION => {
                let hidden = u32_at(bytes, 8);
                if hidden > 0 && hidden <= MAX_HIDDEN {
                    let expected = file_len(hidden as usize);
                    if bytes.len() < expected && !complete_length(bytes.len()) {
                        return Err(WeightsError::Truncated { len: bytes.len(), expected });
                    }
                }
                return Err(e.into());
            }
            Err(FrameError::Truncated { .. }) => return Err(short()),
            Err(e) => return Err(e.into()),
        };
        let (hidden, rows, windows) = (u32_at(body, 0), u32_at(body, 4), u32_at(body, 8));
        if rows as usize != ROW_FEATURES || windows as usize != WINDOW_FEATURES {
            return Err(WeightsError::FeatureMismatch { rows, windows });
        }
        if hidden == 0 || hidden % 8 != 0 || hidden > MAX_HIDDEN {
            return Err(WeightsError::BadHidden(hidden));
        }
        let h = hidden as usize;
        let expected = file_len(h);
        if bytes.len() != expected {
            return Err(WeightsError::WrongLength { len: bytes.len(), expected });
        }
        let mut floats = body[HEADER_LEN - 8..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap()));
        let w1: Vec<f32> = floats.by_ref().take(NUM_FEATURES * h).collect();
        let b1: Vec<f32> = floats.by_ref().take(h).collect();
        let w2: Vec<f32> = floats.by_ref().take(h).collect();
        let b2 = floats.next().ok_or(WeightsError::BadShape(h))?;
        Ok(Network { hidden: h, w1, b1, w2, b2 })
    }

    /// Writes the network atomically: a temporary file in the same directory,
    /// synced, then renamed over `path`, so readers never see a partial file.
    pub fn save(&self, path: &Path) -> Result<(), WeightsError> {
        let h = self.hidden;
        if self.w1.len() != NUM_FEATURES * h || self.b1.len() != h || self.w2.len() != h {
            return Err(WeightsError::BadShape(h));
        }
        let io = |action, source| WeightsError::Io { action, path: path.to_path_buf(), source };
        hatetris_fileio::write_atomically(path, &self.to_bytes()).map_err(|e| io("write", e))
    }

    /// Reads a `.hnet` file.
    pub fn load(path: &Path) -> Result<Network, WeightsError> {
        let bytes = std::fs::read(path).map_err(|source| WeightsError::Io {
            action: "read",
            path: path.to_path_buf(),
            source,
        })?;
        Network::from_bytes(&bytes).map_err(|e| WeightsError::InFile { path: path.to_path_buf(), source: Box::new(e) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net() -> Network {
        Network::random(8, 11)
    }

    fn recrc(bytes: &mut [u8]) {
        let n = bytes.len();
        let crc = crc32fast::hash(&bytes[..n - 4]);
        bytes[n - 4..].copy_from_slice(&crc.to_le_bytes());
    }

    #[test]
    fn round_trip_through_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("net.hnet");
        let n = Network::random(16, 5);
        n.save(&path).unwrap();
        assert_eq!(Network::load(&path).unwrap(), n);
        // Overwriting leaves no temporary files behind.
        net().save(&path).unwrap();
        assert_eq!(Network::load(&path).unwrap(), net());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        assert_eq!(n.to_bytes().len(), file_len(16));
    }

    #[test]
    fn wrong_magic() {
        let mut b = net().to_bytes();
        b[..4].copy_from_slice(b"GIF8");
        let e = Network::from_bytes(&b).unwrap_err();
        assert!(matches!(e, WeightsError::Frame(FrameError::Magic { .. })));
        assert!(e.to_string().contains("not a network file"), "{e}");
    }

    #[test]
    fn wrong_version() {
        let mut b = net().to_bytes();
        b[4..8].copy_from_slice(&2u32.to_le_bytes());
        recrc(&mut b);
        let e = Network::from_bytes(&b).unwrap_err();
        assert!(matches!(e, WeightsError::Frame(FrameError::Version { found: 2, .. })), "{e}");
        assert!(e.to_string().contains("version 2"), "{e}");
    }

    #[test]
    fn truncated_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cut.hnet");
        let b = net().to_bytes();
        for len in [0, 3, 10, 24, 1000, b.len() - 1] {
            std::fs::write(&path, &b[..len]).unwrap();
            let e = Network::load(&path).unwrap_err();
            assert!(e.to_string().contains("cut.hnet"), "the file is named: {e}");
            let WeightsError::InFile { source: e, .. } = e else { panic!("{e}") };
            assert!(matches!(*e, WeightsError::Truncated { .. }), "{len}: {e}");
            assert!(e.to_string().contains("truncated"), "{e}");
        }
    }

    #[test]
    fn corrupted_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.hnet");
        let good = net().to_bytes();
        for at in [8, 12, 100, good.len() / 2, good.len() - 6, good.len() - 1] {
            let mut b = good.clone();
            b[at] ^= 0x10;
            std::fs::write(&path, &b).unwrap();
            let e = Network::load(&path).unwrap_err();
            assert!(e.to_string().contains("bad.hnet"), "the file is named: {e}");
            let WeightsError::InFile { source: e, .. } = e else { panic!("{e}") };
            assert!(matches!(*e, WeightsError::Frame(FrameError::Checksum { .. })), "byte {at}: {e}");
            assert!(e.to_string().contains("checksum mismatch"), "{e}");
        }
    }

    #[test]
    fn other_defects_are_errors() {
        let mut b = net().to_bytes();
        b.extend_from_slice(&[0; 8]);
        recrc(&mut b);
        assert!(matches!(Network::from_bytes(&b).unwrap_err(), WeightsError::WrongLength { .. }));

        let mut b = net().to_bytes();
        b[8..12].copy_from_slice(&12u32.to_le_bytes());
        recrc(&mut b);
        assert!(matches!(Network::from_bytes(&b).unwrap_err(), WeightsError::BadHidden(12)));

        let mut b = net().to_bytes();
        b[12..16].copy_from_slice(&1024u32.to_le_bytes());
        recrc(&mut b);
        assert!(matches!(Network::from_bytes(&b).unwrap_err(), WeightsError::FeatureMismatch { .. }));

        let e = Network::load(Path::new("/nonexistent/dir/x.hnet")).unwrap_err();
        assert!(matches!(e, WeightsError::Io { .. }) && e.to_string().contains("/nonexistent/dir/x.hnet"), "{e}");
        assert!(matches!(net().save(Path::new("/nonexistent/dir/x.hnet")), Err(WeightsError::Io { .. })));
    }
}
