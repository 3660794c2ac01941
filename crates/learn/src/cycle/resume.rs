//! The search step's checkpoint (`cycle-NNN/search.htsc`): the master
//! game's search state with the sampler's, saved every few depths, so that
//! a run killed mid-search goes on from its last save instead of from the
//! first piece. At the record engine's scale the master search takes hours
//! (a 200,000-wide game of 450 pieces is about two), longer than a session.
//!
//! One file holds both halves (a search checkpoint, as `hatetris search`
//! writes, and the sampler: its random stream's position, its families,
//! its pending children and every sample written so far), so they cannot
//! disagree. The search is deterministic and so is the sampler given its
//! state, so a resumed step writes the bytes of an uninterrupted one.
//!
//! Layout (little-endian, in the frame of `hatetris_fileio::frame`, CRC
//! checked): u64 n, n bytes of the search checkpoint; f64 seconds searched
//! before; u128 the random stream's word position; u32 families; u64 wells
//! sampled and u64 the stride of those written (version 2); u64 n,
//! n pending children (rows, family, value); u64 n, n samples (u8 rows,
//! rows x u16, f32 target).
//!
//! The save before the last is kept (`search.prev.htsc`): spread, the
//! processes save the same depths, a kill can leave one of them a save
//! ahead, and they resume together from the last save all of them hold.

use super::error::CycleError;
use super::files::remove_file_if_any;
use crate::dataset::Sample;
use hatetris_fileio::frame;
use hatetris_game::{Well, MAX_DEPTH};
use hatetris_search::checkpoint::{self, Restored};
use hatetris_search::{BeamState, SearchConfig};
use std::path::{Path, PathBuf};

pub const FILE: &str = "search.htsc";
pub const PREVIOUS: &str = "search.prev.htsc";
const MAGIC: &[u8; 4] = b"HTSC";
/// Version 2 added the sampler's count of wells sampled and its stride.
const VERSION: u32 = 2;

/// The sampler's side of a checkpoint.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SamplerState {
    /// Seconds the step had searched when saved.
    pub secs: f64,
    /// Position in the sampler's ChaCha8 stream (its seed is the cycle's).
    pub word_pos: u128,
    pub families: u32,
    /// Wells sampled so far, written or not, and one written in `stride`
    /// (`sample_only_refined`; a version-1 save wrote every one).
    pub seen: u64,
    pub stride: u64,
    /// Children sampled at the last depth, waiting for the next cut.
    pub pending: Vec<(Well, f32, f32)>,
    /// Every sample written so far, in order.
    pub samples: Vec<Sample>,
}

/// A saved search step.
pub struct Saved {
    pub search: Restored,
    pub sampler: SamplerState,
}

fn encode(config: &SearchConfig, evaluator: &str, state: &BeamState, s: &SamplerState) -> Vec<u8> {
    let search = checkpoint::to_bytes(config, evaluator, state);
    let mut o = Vec::with_capacity(search.len() + 64 + s.pending.len() * 40 + s.samples.len() * 24);
    o.extend_from_slice(&(search.len() as u64).to_le_bytes());
    o.extend_from_slice(&search);
    o.extend_from_slice(&s.secs.to_le_bytes());
    o.extend_from_slice(&s.word_pos.to_le_bytes());
    o.extend_from_slice(&s.families.to_le_bytes());
    o.extend_from_slice(&s.seen.to_le_bytes());
    o.extend_from_slice(&s.stride.to_le_bytes());
    o.extend_from_slice(&(s.pending.len() as u64).to_le_bytes());
    for (well, family, value) in &s.pending {
        for r in well.rows {
            o.extend_from_slice(&r.to_le_bytes());
        }
        o.extend_from_slice(&family.to_le_bytes());
        o.extend_from_slice(&value.to_le_bytes());
    }
    o.extend_from_slice(&(s.samples.len() as u64).to_le_bytes());
    for sample in &s.samples {
        o.push(sample.len);
        for r in sample.rows() {
            o.extend_from_slice(&r.to_le_bytes());
        }
        o.extend_from_slice(&sample.target.to_le_bytes());
    }
    frame::encode(MAGIC, VERSION, &o)
}

fn decode(bytes: &[u8], path: &Path) -> Result<Saved, CycleError> {
    let (version, body) = frame::decode(bytes, MAGIC, "search step checkpoint", &[1, VERSION])
        .map_err(|e| CycleError::Malformed { path: path.to_path_buf(), what: e.to_string() })?;
    let bad = |what: &str| CycleError::Malformed { path: path.to_path_buf(), what: what.to_string() };
    let mut i = frame::Reader::new(body);
    let n = i.count(1).ok_or_else(|| bad("search length"))?;
    let search = checkpoint::from_bytes(i.take(n).expect("counted"), path).map_err(|e| bad(&e.to_string()))?;
    let mut s = SamplerState {
        secs: i.f64().ok_or_else(|| bad("seconds"))?,
        word_pos: u128::from_le_bytes(i.array().ok_or_else(|| bad("stream position"))?),
        families: i.u32().ok_or_else(|| bad("families"))?,
        stride: 1,
        ..SamplerState::default()
    };
    if version >= 2 {
        s.seen = i.u64().ok_or_else(|| bad("wells sampled"))?;
        s.stride = i.u64().filter(|&k| k >= 1).ok_or_else(|| bad("stride"))?;
    }
    let n = i.count(MAX_DEPTH * 2 + 8).ok_or_else(|| bad("pending length"))?;
    for _ in 0..n {
        let mut rows = [0u16; MAX_DEPTH];
        for r in rows.iter_mut() {
            *r = u16::from_le_bytes(i.array().expect("counted"));
        }
        let (family, value) = (i.f32().expect("counted"), i.f32().expect("counted"));
        s.pending.push((Well::from_rows(rows), family, value));
    }
    let n = i.count(7).ok_or_else(|| bad("samples length"))?;
    s.samples.reserve(n);
    for _ in 0..n {
        let len = i.take(1).ok_or_else(|| bad("samples"))?[0] as usize;
        if !(1..=16).contains(&len) {
            return Err(bad("sample rows"));
        }
        let rows: Vec<u16> =
            (0..len).map(|_| i.array().map(u16::from_le_bytes)).collect::<Option<_>>().ok_or_else(|| bad("samples"))?;
        let target = i.f32().ok_or_else(|| bad("samples"))?;
        s.samples.push(Sample::new(&rows, target));
    }
    if !i.is_done() {
        return Err(bad("trailing bytes"));
    }
    if version == 1 {
        s.seen = s.samples.len() as u64;
    }
    Ok(Saved { search, sampler: s })
}

/// Saves the step in `dir`, keeping the save before as [`PREVIOUS`].
pub fn save(
    dir: &Path,
    config: &SearchConfig,
    evaluator: &str,
    state: &BeamState,
    sampler: &SamplerState,
) -> Result<(), CycleError> {
    let path = dir.join(FILE);
    let io = |path: &PathBuf, source| CycleError::Io { path: path.clone(), source };
    if path.exists() {
        let previous = dir.join(PREVIOUS);
        std::fs::rename(&path, &previous).map_err(|e| io(&previous, e))?;
    }
    hatetris_fileio::write_atomically(&path, &encode(config, evaluator, state, sampler)).map_err(|e| io(&path, e))
}

/// The saves in `dir` of the search `config` by `evaluator`, the last
/// first. A save that is damaged or of another search (a retuned width,
/// another network) is passed over, as a lost one would be: the step then
/// searches from an earlier save or from the first piece.
pub fn load(dir: &Path, config: &SearchConfig, evaluator: &str) -> Vec<Saved> {
    [FILE, PREVIOUS]
        .iter()
        .filter_map(|name| {
            let path = dir.join(name);
            let saved = decode(&std::fs::read(&path).ok()?, &path).ok()?;
            let same =
                format!("{:?}", saved.search.config) == format!("{config:?}") && saved.search.evaluator == evaluator;
            same.then_some(saved)
        })
        .collect()
}

/// Removes the saves from `dir` once the step's record is written.
pub fn remove(dir: &Path) -> Result<(), CycleError> {
    for name in [FILE, PREVIOUS] {
        remove_file_if_any(&dir.join(name))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_save_reads_back_whole_and_every_damage_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let config = SearchConfig { width: 7, ..SearchConfig::default() };
        let state = BeamState::new();
        let mut well = Well::EMPTY;
        well.rows[MAX_DEPTH - 1] = 0b11_0000_0000;
        let sampler = SamplerState {
            secs: 12.5,
            word_pos: 1 << 70 | 99,
            families: 3,
            seen: 9,
            stride: 4,
            pending: vec![(well, 2.0, 0.25)],
            samples: vec![Sample::new(&[1, 2, 3], 0.5), Sample::new(&[7], -1.0)],
        };
        save(dir.path(), &config, "net", &state, &sampler).unwrap();
        let back = load(dir.path(), &config, "net");
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].sampler, sampler);
        assert_eq!(back[0].search.state.depth, 0);
        // Another search's save is passed over.
        assert!(load(dir.path(), &SearchConfig { width: 8, ..config.clone() }, "net").is_empty());
        assert!(load(dir.path(), &config, "other").is_empty());
        // A second save keeps the first as the previous one.
        save(dir.path(), &config, "net", &state, &SamplerState { families: 4, ..sampler.clone() }).unwrap();
        let back = load(dir.path(), &config, "net");
        assert_eq!(back.iter().map(|s| s.sampler.families).collect::<Vec<_>>(), [4, 3]);
        // Every truncation and a flipped byte are errors, never other data.
        let bytes = std::fs::read(dir.path().join(FILE)).unwrap();
        let path = dir.path().join(FILE);
        for cut in [0, 4, 12, bytes.len() / 2, bytes.len() - 1] {
            assert!(decode(&bytes[..cut], &path).is_err(), "cut at {cut}");
        }
        let mut flipped = bytes.clone();
        flipped[bytes.len() / 2] ^= 1;
        let e = decode(&flipped, &path).err().expect("a flipped byte must fail");
        assert!(e.to_string().contains(FILE), "{e}");
        remove(dir.path()).unwrap();
        assert!(load(dir.path(), &config, "net").is_empty());
        remove(dir.path()).unwrap();
    }

    #[test]
    fn a_version_1_save_reads_as_one_that_wrote_every_sampled_well() {
        let config = SearchConfig { width: 7, ..SearchConfig::default() };
        let sampler = SamplerState {
            secs: 1.0,
            word_pos: 5,
            families: 2,
            seen: 2,
            stride: 1,
            pending: Vec::new(),
            samples: vec![Sample::new(&[1, 2], 0.5), Sample::new(&[3], 0.25)],
        };
        let v2 = encode(&config, "net", &BeamState::new(), &SamplerState { seen: 77, stride: 3, ..sampler.clone() });
        // Version 1: the same body without the count and the stride.
        let (_, body) = frame::decode(&v2, MAGIC, "t", &[VERSION]).unwrap();
        let n = u64::from_le_bytes(body[..8].try_into().unwrap()) as usize;
        let families_end = 8 + n + 8 + 16 + 4;
        let v1_body = [&body[..families_end], &body[families_end + 16..]].concat();
        let v1 = frame::encode(MAGIC, 1, &v1_body);
        let path = Path::new(FILE);
        assert_eq!(decode(&v1, path).unwrap().sampler, sampler);
        assert_eq!(decode(&v2, path).unwrap().sampler.stride, 3);
    }
}
