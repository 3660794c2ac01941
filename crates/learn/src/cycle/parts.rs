//! A cycle's refine step in parts, each part's (value, lookahead) pairs
//! kept in the cycle's folder as it ends (`refine-part-NNNN.htrp`): the
//! step takes 20-40 minutes at the record engine's scale, and a run killed
//! in it goes on from its last part instead of from the first well.
//!
//! A part is the pairs of one of [`blocks`] of the wells (ending on family
//! boundaries), and a well's pair depends on nothing but the well, its
//! family, the network, the settings and the seed (`lookahead_pairs`), so
//! the parts joined are the pairs of the whole, byte for byte. Each part
//! carries a key of all of these; one whose key differs (another network,
//! settings retuned, the samples searched again) is refined again.
//! Spread, the processes agree first on the first part one of them lacks
//! and refine from there together.

use super::error::CycleError;
use super::refine::{blocks, RefineConfig};
use super::spread::{PartSettings, Spread};
use hatetris_fileio::frame;
use hatetris_fileio::write_atomically;
use hatetris_game::Well;
use std::path::{Path, PathBuf};

/// Wells a part holds (about a minute of the record engine's refine on
/// two cores).
pub const PART_WELLS: usize = 32_768;

const MAGIC: &[u8; 4] = b"HTRP";
/// Version 2 added the part's seconds; version 1 parts are still read
/// (their time counts as 0).
const VERSION: u32 = 2;

/// A part's (value, lookahead) pairs and the seconds they took.
type Part = (Vec<(f32, f32)>, f64);

/// The pairs of all `wells` (with their `families`), refined by `spread`
/// in parts of about `part_wells`, each kept in `dir` as it ends and taken
/// from there when it is already done. `progress` counts the wells done.
/// Also the seconds the parts taken from `dir` took when they were made.
pub fn refine_in_parts(
    spread: &mut dyn Spread,
    dir: &Path,
    wells: &[Well],
    families: Option<&[u32]>,
    settings: &PartSettings,
    part_wells: usize,
    progress: &mut dyn FnMut(usize),
) -> Result<Part, CycleError> {
    let parts = wells.len().div_ceil(part_wells.max(1)).max(1);
    let ranges = blocks(wells.len(), families, parts);
    let keys: Vec<u64> = ranges.iter().map(|r| part_key(&wells[r.clone()], r, families, settings)).collect();
    // Each kept part is read once, before the processes agree.
    let mut kept: Vec<Option<Part>> =
        (0..parts).map(|i| read_part(&part_path(dir, i), keys[i], ranges[i].len()).ok()).collect();
    let mine = kept.iter().position(Option::is_none).unwrap_or(parts);
    let from = spread.least(mine as u64).map_err(CycleError::Spread)? as usize;
    let mut pairs = Vec::with_capacity(wells.len());
    let mut kept_secs = 0.0;
    for (i, range) in ranges.iter().enumerate() {
        let part = match kept[i].take() {
            Some((p, secs)) if i < from => {
                kept_secs += secs;
                p
            }
            _ => {
                let done = pairs.len();
                let t = std::time::Instant::now();
                let p = spread.refine_pairs(
                    &wells[range.clone()],
                    families.map(|f| &f[range.clone()]),
                    settings,
                    &mut |d| progress(done + d),
                )?;
                write_part(&part_path(dir, i), keys[i], t.elapsed().as_secs_f64(), &p)?;
                // A stop asked for is taken here, at a save (alone: spread
                // peers would wait for this process's next part).
                if i + 1 < ranges.len() && spread.processes() == 1 && super::stop::stop_requested() {
                    return Err(CycleError::Stopped);
                }
                p
            }
        };
        pairs.extend(part);
        progress(pairs.len());
    }
    Ok((pairs, kept_secs))
}

/// Removes the parts kept in `dir` (once the step's data set and record
/// are written).
pub fn remove_parts(dir: &Path) -> Result<(), CycleError> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(()) };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("refine-part-") && name.ends_with(".htrp") {
            std::fs::remove_file(entry.path()).map_err(|e| CycleError::Io { path: entry.path(), source: e })?;
        }
    }
    Ok(())
}

fn part_path(dir: &Path, i: usize) -> PathBuf {
    dir.join(format!("refine-part-{i:04}.htrp"))
}

/// FNV-1a over everything a part's pairs depend on: a stable hash across
/// builds and machines (std's hashers promise neither), and a short one is
/// enough to tell a part of this step from a stale one.
fn part_key(wells: &[Well], range: &std::ops::Range<usize>, families: Option<&[u32]>, s: &PartSettings) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(format!("{} {:?} {} {} {:?}", key_text(s.config), s.rules, s.eval_name, s.seed, range).as_bytes());
    for w in wells {
        for r in w.rows.iter() {
            eat(&r.to_le_bytes());
        }
    }
    if let Some(f) = families {
        for x in &f[range.clone()] {
            eat(&x.to_le_bytes());
        }
    }
    h
}

/// The refine settings as a part's key reads them: for a plain lookahead
/// the text the settings had before the lookahead could chain (their
/// derived `Debug`), so that parts kept by an older build still count;
/// the chains only where they are on.
fn key_text(c: &RefineConfig) -> String {
    let RefineConfig { width, depth, step, target, gamma, every, quiescence, chain_rule, chain_blend, chain_follow } =
        c;
    let plain =
        format!("RefineConfig {{ width: {width}, depth: {depth}, step: {step:?}, target: {target:?}, gamma: {gamma:?}, every: {every} }}");
    if *quiescence == 0 {
        plain
    } else if *chain_follow == 0 {
        format!("{plain} chains {quiescence} {chain_rule:?} {chain_blend:?}")
    } else {
        format!("{plain} chains {quiescence} {chain_rule:?} {chain_blend:?} follow {chain_follow}")
    }
}

fn write_part(path: &Path, key: u64, secs: f64, pairs: &[(f32, f32)]) -> Result<(), CycleError> {
    let mut body = Vec::with_capacity(24 + pairs.len() * 8);
    body.extend_from_slice(&key.to_le_bytes());
    body.extend_from_slice(&(pairs.len() as u64).to_le_bytes());
    body.extend_from_slice(&secs.to_le_bytes());
    for (x, y) in pairs {
        body.extend_from_slice(&x.to_le_bytes());
        body.extend_from_slice(&y.to_le_bytes());
    }
    write_atomically(path, &frame::encode(MAGIC, VERSION, &body))
        .map_err(|e| CycleError::Io { path: path.into(), source: e })
}

/// The pairs kept at `path` and the seconds they took, if it is a whole
/// part of this step (its key and length): a damaged or stale part is
/// refined again, so why it is not is not needed.
fn read_part(path: &Path, key: u64, len: usize) -> Result<Part, ()> {
    let bytes = std::fs::read(path).map_err(|_| ())?;
    let (version, body) = frame::decode(&bytes, MAGIC, "refine part", &[1, VERSION]).map_err(|_| ())?;
    let word = |i: usize| body.get(i * 8..i * 8 + 8).map(|b| u64::from_le_bytes(b.try_into().unwrap()));
    let head = if version == 1 { 16 } else { 24 };
    if word(0) != Some(key) || word(1) != Some(len as u64) || body.len() != head + len * 8 {
        return Err(());
    }
    let secs = if version == 1 { 0.0 } else { f64::from_bits(word(2).unwrap()) };
    if !secs.is_finite() || secs < 0.0 {
        return Err(());
    }
    let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
    Ok((body[head..].chunks_exact(8).map(|c| (f(&c[..4]), f(&c[4..]))).collect(), secs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cycle::refine::lookahead_pairs;
    use crate::cycle::spread::Alone;
    use hatetris_eval::Evaluator;
    use hatetris_eval::Network;
    use hatetris_game::Rules;
    use std::sync::Arc;

    /// The entries of a small search's last beam.
    fn wells(eval: &dyn Evaluator) -> Vec<Well> {
        let mut state = hatetris_search::BeamState::new();
        let config = hatetris_search::SearchConfig { width: 40, max_depth: 4, ..Default::default() };
        hatetris_search::run(&mut state, &config, eval, &mut |_| true);
        state.beam.iter().map(|e| e.well).collect()
    }

    #[test]
    fn a_plain_refines_key_reads_as_before_the_chains_and_a_chained_ones_differs() {
        let plain = RefineConfig { width: 512, every: 4, ..RefineConfig::default() };
        // The derived `Debug` of the settings before they held chains.
        let before = "RefineConfig { width: 512, depth: 10, step: 0.5, target: Lookahead, gamma: 0.98, every: 4 }";
        assert_eq!(key_text(&plain), before);
        let chained = RefineConfig { quiescence: 4, ..plain.clone() };
        assert_ne!(key_text(&chained), before);
        assert_ne!(key_text(&chained), key_text(&RefineConfig { quiescence: 2, ..plain }));
    }

    #[test]
    fn parts_join_to_the_whole_and_a_killed_step_goes_on_from_its_parts() {
        let dir = tempfile::tempdir().unwrap();
        let rules = Rules::STANDARD;
        let config = RefineConfig { width: 4, depth: 3, ..RefineConfig::default() };
        let eval: Arc<dyn Evaluator> = Arc::new(Network::embedded_bootstrap());
        let w = wells(eval.as_ref());
        assert_eq!(w.len(), 40);
        let settings = PartSettings { rules, config: &config, eval: &eval, eval_name: "boot", seed: 3 };
        let whole = lookahead_pairs(&w, None, rules, &config, eval.as_ref(), 3, &mut |_| {});
        let (parts, kept_secs) = refine_in_parts(&mut Alone, dir.path(), &w, None, &settings, 7, &mut |_| {}).unwrap();
        assert_eq!(parts, whole);
        assert_eq!(kept_secs, 0.0, "nothing was kept before");
        assert!(part_path(dir.path(), 5).exists() && !part_path(dir.path(), 6).exists(), "6 parts of about 7");

        // A part lost and one damaged: from the first of them on the parts
        // are refined again, those before it read; the same pairs.
        std::fs::remove_file(part_path(dir.path(), 4)).unwrap();
        std::fs::write(part_path(dir.path(), 2), b"damaged").unwrap();
        let mut seen = 0;
        // Part 0 says it took 2.5 s and part 1 is version 1's, with no time.
        let ranges = blocks(w.len(), None, 6);
        let (k0, k1) = (keys_of(&w, &settings, ranges[0].clone()), keys_of(&w, &settings, ranges[1].clone()));
        let p0 = read_part(&part_path(dir.path(), 0), k0, ranges[0].len()).unwrap().0;
        write_part(&part_path(dir.path(), 0), k0, 2.5, &p0).unwrap();
        let p1 = read_part(&part_path(dir.path(), 1), k1, ranges[1].len()).unwrap().0;
        write_part_v1(&part_path(dir.path(), 1), k1, &p1);
        let again = refine_in_parts(&mut Alone, dir.path(), &w, None, &settings, 7, &mut |d| seen = seen.max(d));
        let (again, kept_secs) = again.unwrap();
        assert_eq!(again, whole);
        assert_eq!(kept_secs, 2.5, "the kept parts' time: part 0's and none for version 1's part 1");
        assert_eq!(seen, w.len());
        let other = PartSettings { seed: 4, ..settings };
        let key = part_key(&w[0..7], &(0..7), None, &other);
        assert!(read_part(&part_path(dir.path(), 0), key, 7).is_err(), "another seed's key");
        remove_parts(dir.path()).unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    fn keys_of(w: &[Well], s: &PartSettings, r: std::ops::Range<usize>) -> u64 {
        part_key(&w[r.clone()], &r, None, s)
    }

    /// A part as version 1 wrote it: key, length, pairs.
    fn write_part_v1(path: &Path, key: u64, pairs: &[(f32, f32)]) {
        let mut body = Vec::new();
        body.extend_from_slice(&key.to_le_bytes());
        body.extend_from_slice(&(pairs.len() as u64).to_le_bytes());
        for (x, y) in pairs {
            body.extend_from_slice(&x.to_le_bytes());
            body.extend_from_slice(&y.to_le_bytes());
        }
        std::fs::write(path, frame::encode(MAGIC, 1, &body)).unwrap();
    }

    #[test]
    fn a_part_with_a_negative_or_endless_time_is_refined_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = part_path(dir.path(), 0);
        let pairs = [(0.5, 0.25), (-0.5, 1.0)];
        write_part(&path, 7, 1.5, &pairs).unwrap();
        assert_eq!(read_part(&path, 7, 2), Ok((pairs.to_vec(), 1.5)));
        write_part_v1(&path, 7, &pairs);
        assert_eq!(read_part(&path, 7, 2), Ok((pairs.to_vec(), 0.0)));
        for bad in [-1.0, f64::NAN, f64::INFINITY] {
            write_part(&path, 7, bad, &pairs).unwrap();
            assert!(read_part(&path, 7, 2).is_err(), "{bad}");
        }
    }
}
