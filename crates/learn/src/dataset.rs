//! Data sets of (well, target) pairs: the `.htds` file format.
//!
//! Layout, little-endian:
//!
//! ```text
//! b"HTDS"  u32 version (1)  u32 n  n bytes of UTF-8 description
//! records: u8 rows (1..=16), rows x u16 (playable rows, top first), f32 target
//! trailer: b"END!"  u64 record count  u32 CRC32 of every byte before the CRC
//! ```
//!
//! That is the frame of `hatetris_fileio::frame`, written and checked as a
//! stream. Records are variable-length so a height-4 well costs 13 bytes, not 37.
//! Written as a stream to a temporary file beside the destination, synced,
//! then renamed: a crash leaves either no file or a whole one. Read as a
//! stream too; the checksum and count are checked when the trailer is
//! reached, so a damaged file is always an error, never silent data.

use hatetris_fileio::frame::{self, FrameError};
use hatetris_fileio::NamedTempFile;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

pub const MAGIC: [u8; 4] = *b"HTDS";
pub const VERSION: u32 = 1;
const TRAILER: [u8; 4] = *b"END!";
/// Descriptions longer than this are refused when read, so a damaged length
/// cannot ask for a huge allocation.
const MAX_DESCRIPTION: u32 = 1 << 16;

/// One training pair: a well as its playable rows (top first, `len` of them;
/// the rest zero) and the value the network should give it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub rows: [u16; 16],
    pub len: u8,
    pub target: f32,
}

impl Sample {
    /// A sample from playable rows (1..=16 of them, top first).
    pub fn new(playable: &[u16], target: f32) -> Sample {
        assert!((1..=16).contains(&playable.len()), "a well has 1 to 16 playable rows");
        let mut rows = [0u16; 16];
        rows[..playable.len()].copy_from_slice(playable);
        Sample { rows, len: playable.len() as u8, target }
    }

    /// The playable rows.
    pub fn rows(&self) -> &[u16] {
        &self.rows[..self.len as usize]
    }

    /// The well of these playable rows (standard rules: the rows sit
    /// just below the bar).
    pub fn well(&self) -> hatetris_game::Well {
        use hatetris_game::{Well, BAR};
        let mut w = Well::EMPTY;
        w.rows[BAR..BAR + self.len as usize].copy_from_slice(self.rows());
        w
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    #[error("data set {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: {source}")]
    Frame { path: PathBuf, source: FrameError },
    #[error("data set {path}: truncated (ends inside {what})")]
    Truncated { path: PathBuf, what: &'static str },
    #[error("data set {path}: damaged ({what})")]
    Damaged { path: PathBuf, what: String },
    #[error("data set {path}: damaged (checksum mismatch: stored {stored:08x}, computed {computed:08x})")]
    Checksum { path: PathBuf, stored: u32, computed: u32 },
    #[error("data set {path}: invalid sample ({what})")]
    BadSample { path: PathBuf, what: String },
}

/// Writes a data set as a stream; nothing appears at the destination until
/// [`DatasetWriter::finish`].
pub struct DatasetWriter {
    path: PathBuf,
    tmp: PathBuf,
    /// The temporary file (tempfile deletes it if the writer is dropped
    /// unfinished: no half-written file is left behind).
    out: Option<BufWriter<NamedTempFile>>,
    crc: crc32fast::Hasher,
    count: u64,
}

impl DatasetWriter {
    pub fn create(path: &Path, description: &str) -> Result<DatasetWriter, DatasetError> {
        let file = hatetris_fileio::temp_beside(path)
            .map_err(|source| DatasetError::Io { path: path.to_path_buf(), source })?;
        let tmp = file.path().to_path_buf();
        let mut w = DatasetWriter {
            path: path.to_path_buf(),
            tmp,
            out: Some(BufWriter::with_capacity(1 << 20, file)),
            crc: crc32fast::Hasher::new(),
            count: 0,
        };
        let description = &description.as_bytes()[..description.len().min(MAX_DESCRIPTION as usize)];
        w.put(&frame::header(&MAGIC, VERSION))?;
        w.put(&(description.len() as u32).to_le_bytes())?;
        w.put(description)?;
        Ok(w)
    }

    fn put(&mut self, bytes: &[u8]) -> Result<(), DatasetError> {
        self.crc.update(bytes);
        let out = self.out.as_mut().expect("writer is open until finish");
        out.write_all(bytes).map_err(|source| DatasetError::Io { path: self.tmp.clone(), source })
    }

    pub fn push(&mut self, s: &Sample) -> Result<(), DatasetError> {
        if !(1..=16).contains(&s.len) || !s.target.is_finite() {
            return Err(DatasetError::BadSample {
                path: self.path.clone(),
                what: format!("{} rows, target {}", s.len, s.target),
            });
        }
        let mut buf = [0u8; 1 + 32 + 4];
        let n = s.len as usize;
        buf[0] = s.len;
        for (i, r) in s.rows().iter().enumerate() {
            buf[1 + 2 * i..3 + 2 * i].copy_from_slice(&r.to_le_bytes());
        }
        buf[1 + 2 * n..5 + 2 * n].copy_from_slice(&s.target.to_le_bytes());
        self.put(&buf[..5 + 2 * n])?;
        self.count += 1;
        Ok(())
    }

    pub fn len(&self) -> u64 {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Writes the trailer, syncs and renames into place.
    pub fn finish(mut self) -> Result<(), DatasetError> {
        self.put(&TRAILER)?;
        self.put(&self.count.to_le_bytes())?;
        let crc = std::mem::take(&mut self.crc).finalize();
        let mut out = self.out.take().expect("writer is open until finish");
        let io = |source| DatasetError::Io { path: self.tmp.clone(), source };
        out.write_all(&crc.to_le_bytes()).map_err(io)?;
        let file = out.into_inner().map_err(|e| io(e.into_error()))?;
        hatetris_fileio::persist(file, &self.path)
            .map_err(|source| DatasetError::Io { path: self.path.clone(), source })
    }
}

/// Reads a data set as a stream of samples. Iteration yields `Err` once, at
/// the first defect, and then stops.
pub struct DatasetReader {
    path: PathBuf,
    input: BufReader<File>,
    crc: crc32fast::Hasher,
    count: u64,
    pub description: String,
    done: bool,
}

impl DatasetReader {
    pub fn open(path: &Path) -> Result<DatasetReader, DatasetError> {
        let file = File::open(path).map_err(|source| DatasetError::Io { path: path.to_path_buf(), source })?;
        let mut r = DatasetReader {
            path: path.to_path_buf(),
            input: BufReader::with_capacity(1 << 20, file),
            crc: crc32fast::Hasher::new(),
            count: 0,
            description: String::new(),
            done: false,
        };
        let mut header = [0u8; frame::HEADER];
        r.read_into(&mut header, "the header")?;
        frame::check_header(&header, &MAGIC, "data set", &[VERSION])
            .map_err(|source| DatasetError::Frame { path: r.path.clone(), source })?;
        let n = r.u32("the header")?;
        if n > MAX_DESCRIPTION {
            return Err(DatasetError::Damaged { path: r.path, what: format!("description length {n}") });
        }
        let mut text = vec![0u8; n as usize];
        r.read_into(&mut text, "the description")?;
        r.description = String::from_utf8_lossy(&text).into_owned();
        Ok(r)
    }

    fn read_into(&mut self, buf: &mut [u8], what: &'static str) -> Result<(), DatasetError> {
        self.input.read_exact(buf).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => DatasetError::Truncated { path: self.path.clone(), what },
            _ => DatasetError::Io { path: self.path.clone(), source: e },
        })?;
        self.crc.update(buf);
        Ok(())
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, DatasetError> {
        let mut b = [0u8; 4];
        self.read_into(&mut b, what)?;
        Ok(u32::from_le_bytes(b))
    }

    fn next_sample(&mut self) -> Result<Option<Sample>, DatasetError> {
        let mut tag = [0u8; 1];
        self.read_into(&mut tag, "a record")?;
        let len = tag[0];
        if len == TRAILER[0] {
            return self.trailer().map(|_| None);
        }
        if !(1..=16).contains(&len) {
            return Err(DatasetError::Damaged { path: self.path.clone(), what: format!("a record of {len} rows") });
        }
        let mut buf = [0u8; 36];
        let n = len as usize;
        self.read_into(&mut buf[..2 * n + 4], "a record")?;
        let mut rows = [0u16; 16];
        for (i, r) in rows.iter_mut().take(n).enumerate() {
            *r = u16::from_le_bytes([buf[2 * i], buf[2 * i + 1]]);
            if *r >= hatetris_game::FULL_ROW {
                return Err(DatasetError::Damaged { path: self.path.clone(), what: format!("row value {r}") });
            }
        }
        let target = f32::from_le_bytes(buf[2 * n..2 * n + 4].try_into().unwrap());
        if !target.is_finite() {
            return Err(DatasetError::Damaged {
                path: self.path.clone(),
                what: "a target that is not a number".into(),
            });
        }
        self.count += 1;
        Ok(Some(Sample { rows, len, target }))
    }

    fn trailer(&mut self) -> Result<(), DatasetError> {
        let mut rest = [0u8; 3];
        self.read_into(&mut rest, "the trailer")?;
        if rest != TRAILER[1..] {
            return Err(DatasetError::Damaged { path: self.path.clone(), what: "bad trailer".into() });
        }
        let mut count = [0u8; 8];
        self.read_into(&mut count, "the trailer")?;
        let computed = std::mem::take(&mut self.crc).finalize();
        let mut stored = [0u8; 4];
        self.input
            .read_exact(&mut stored)
            .map_err(|_| DatasetError::Truncated { path: self.path.clone(), what: "the checksum" })?;
        let stored = u32::from_le_bytes(stored);
        if stored != computed {
            return Err(DatasetError::Checksum { path: self.path.clone(), stored, computed });
        }
        let count = u64::from_le_bytes(count);
        if count != self.count {
            return Err(DatasetError::Damaged {
                path: self.path.clone(),
                what: format!("{} records, trailer says {count}", self.count),
            });
        }
        let mut extra = [0u8; 1];
        match self.input.read(&mut extra) {
            Ok(0) => Ok(()),
            Ok(_) => {
                Err(DatasetError::Damaged { path: self.path.clone(), what: "trailing bytes after the checksum".into() })
            }
            Err(source) => Err(DatasetError::Io { path: self.path.clone(), source }),
        }
    }
}

impl Iterator for DatasetReader {
    type Item = Result<Sample, DatasetError>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_sample() {
            Ok(Some(s)) => Some(Ok(s)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// Every sample of a data set.
pub fn read_dataset(path: &Path) -> Result<Vec<Sample>, DatasetError> {
    DatasetReader::open(path)?.collect()
}

/// Writes `samples` as a data set.
pub fn write_dataset(path: &Path, description: &str, samples: &[Sample]) -> Result<(), DatasetError> {
    let mut w = DatasetWriter::create(path, description)?;
    for s in samples {
        w.push(s)?;
    }
    w.finish()
}

/// A random `n` of `samples` (all of them if fewer), in their original
/// order; the same seed picks the same ones.
pub fn subsample(samples: Vec<Sample>, n: usize, seed: u64) -> Vec<Sample> {
    use rand::SeedableRng;
    if n >= samples.len() {
        return samples;
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5u64.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut picks = rand::seq::index::sample(&mut rng, samples.len(), n).into_vec();
    picks.sort_unstable();
    picks.into_iter().map(|i| samples[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<Sample> {
        vec![Sample::new(&[0, 1, 2, 1022], 0.5), Sample::new(&[7; 16], -1.0), Sample::new(&[3], 1.0)]
    }

    #[test]
    fn round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.htds");
        write_dataset(&path, "test set", &samples()).unwrap();
        let r = DatasetReader::open(&path).unwrap();
        assert_eq!(r.description, "test set");
        assert_eq!(r.collect::<Result<Vec<_>, _>>().unwrap(), samples());
        // Nothing but the file itself is left in the folder.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn an_unfinished_writer_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.htds");
        let mut w = DatasetWriter::create(&path, "").unwrap();
        w.push(&samples()[0]).unwrap();
        drop(w);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn every_damage_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.htds");
        write_dataset(&path, "x", &samples()).unwrap();
        let good = std::fs::read(&path).unwrap();
        let bad = dir.path().join("bad.htds");
        // Every truncation and every single flipped bit is caught.
        for cut in 0..good.len() {
            std::fs::write(&bad, &good[..cut]).unwrap();
            assert!(read_dataset(&bad).is_err(), "truncated at {cut}");
        }
        for i in 0..good.len() {
            for bit in [0x01, 0x80] {
                let mut b = good.clone();
                b[i] ^= bit;
                std::fs::write(&bad, &b).unwrap();
                let err = read_dataset(&bad).expect_err("flipped bit must be caught");
                assert!(err.to_string().contains("bad.htds"), "{err}");
            }
        }
        let mut longer = good.clone();
        longer.push(0);
        std::fs::write(&bad, &longer).unwrap();
        assert!(read_dataset(&bad).unwrap_err().to_string().contains("trailing"));
        std::fs::write(&bad, b"HTNN....").unwrap();
        assert!(matches!(read_dataset(&bad), Err(DatasetError::Frame { source: FrameError::Magic { .. }, .. })));
        assert!(matches!(read_dataset(&dir.path().join("missing")), Err(DatasetError::Io { .. })));
    }

    #[test]
    fn subsampling_is_seeded_and_keeps_order() {
        let all: Vec<Sample> = (0..100).map(|i| Sample::new(&[i as u16], i as f32)).collect();
        let a = subsample(all.clone(), 10, 7);
        assert_eq!(a.len(), 10);
        assert!(a.windows(2).all(|w| w[0].target < w[1].target));
        assert_eq!(a, subsample(all.clone(), 10, 7));
        assert_ne!(a, subsample(all.clone(), 10, 8));
        assert_eq!(subsample(all.clone(), 500, 7), all);
    }

    #[test]
    fn invalid_samples_are_refused_when_written() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = DatasetWriter::create(&dir.path().join("d.htds"), "").unwrap();
        assert!(w.push(&Sample { rows: [0; 16], len: 0, target: 0.0 }).is_err());
        assert!(w.push(&Sample::new(&[1], f32::NAN)).is_err());
    }
}
