//! What a run folder says of the run, rewritten as each generation ends:
//! `best.b2048` (the longest master game so far, its replay played again
//! to its score first), `latest.hnet` (the last network), `nets/` (every
//! generation's network named by the hash of its bytes) and
//! `generations.md` (one row a generation). Every file is written
//! atomically, and none holds a path: a folder copied elsewhere says the
//! same.

use super::error::{io, CycleError};
use super::files::{cycle_dir, network_for};
use super::metrics::{CycleMetrics, SuiteRecord};
use hatetris_fileio::write_atomically;
use hatetris_game::{Enemy, Rules};
use std::fmt::Write as _;
use std::path::Path;

/// 64-bit FNV-1a of a file's bytes, as 16 hex digits: a network's name in
/// `nets/`, the same on every machine and build.
pub fn hash16(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Copies the network at `from` to `nets/<hash16>.hnet` (unless there) and
/// returns its name there.
fn keep_network(dir: &Path, from: &Path) -> Result<String, CycleError> {
    let bytes = std::fs::read(from).map_err(io(from))?;
    let name = format!("{}.hnet", hash16(&bytes));
    let nets = dir.join("nets");
    std::fs::create_dir_all(&nets).map_err(io(&nets))?;
    let path = nets.join(&name);
    if !path.exists() {
        write_atomically(&path, &bytes).map_err(io(&path))?;
    }
    Ok(name)
}

/// Rewrites the folder's summary files after cycle `metrics.last()`:
/// `first_generation` is the generation of the run's starting network.
pub(super) fn update(
    dir: &Path,
    rules: Rules,
    first_generation: usize,
    metrics: &[CycleMetrics],
    initial_suite: Option<&SuiteRecord>,
) -> Result<(), CycleError> {
    let Some(last) = metrics.last() else { return Ok(()) };
    // The networks: the start's and each generation's, by hash.
    let mut names = vec![keep_network(dir, &network_for(dir, 1))?];
    for m in metrics {
        names.push(keep_network(dir, &cycle_dir(dir, m.cycle).join("net.hnet"))?);
    }
    let latest = cycle_dir(dir, last.cycle).join("net.hnet");
    let bytes = std::fs::read(&latest).map_err(io(&latest))?;
    write_atomically(&dir.join("latest.hnet"), &bytes).map_err(io(dir))?;
    // The longest master game, its replay played again first.
    if let Some(best) = metrics.iter().rev().max_by_key(|m| m.lines) {
        let keys = hatetris_game::replay::decode(&best.replay)
            .map_err(|e| CycleError::Invalid(format!("cycle {}'s replay does not decode: {e}", best.cycle)))?;
        let out = hatetris_game::play(rules, Enemy::Hatetris, &keys, |_, _| {});
        if out.score != best.lines {
            return Err(CycleError::Invalid(format!(
                "cycle {}'s replay plays to {} lines, not the {} recorded",
                best.cycle, out.score, best.lines
            )));
        }
        let path = dir.join("best.b2048");
        write_atomically(&path, best.replay.as_bytes()).map_err(io(&path))?;
    }
    let path = dir.join("generations.md");
    write_atomically(&path, table(first_generation, metrics, &names, initial_suite).as_bytes()).map_err(io(&path))
}

/// The generations table (markdown), the columns of gen-b's README table.
fn table(first: usize, metrics: &[CycleMetrics], names: &[String], initial: Option<&SuiteRecord>) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "# Generations\n\nGeneration k's master game is searched by generation k-1's network; the suite measures \
         the network generation k trained, without chains. Networks are in `nets/`, by the hash of their bytes; \
         `best.b2048` is the longest master game.\n"
    );
    let _ = writeln!(
        t,
        "| generation | master width, chains | master game (lines, pieces; replay verified) | rows frozen per 100 pieces \
         | search s | refine s | core-hours so far | trained network's suite (pieces, lines) \
         | steady suite (pieces, rows frozen per 100) | network | its `games` (lines) |"
    );
    let _ = writeln!(t, "|---|---|---|---|---|---|---|---|---|---|---|");
    if let Some(s) = initial {
        let _ = writeln!(
            t,
            "| {first} (start) | | | | | | | {:.1}, {:.1} | {} | {} | |",
            s.mean_pieces,
            s.mean_lines,
            steady(s.steady_pieces, s.steady_frozen_per_100),
            names[0]
        );
    }
    let mut core_secs = 0.0;
    let mut core_known = true;
    for (m, name) in metrics.iter().zip(&names[1..]) {
        match m.core_secs {
            Some(c) => core_secs += c,
            None => core_known = false,
        }
        let chains = match (m.chains, m.chain_rule) {
            (Some((0, _)), _) | (None, _) => "no chains".to_string(),
            (Some((depth, band)), rule) => {
                let rule = rule.map(|r| r.to_string()).unwrap_or_else(|| "sz".into());
                let blend = m.chain_blend.map(|b| format!(", blend {b}")).unwrap_or_default();
                format!("{rule} depth {depth}, band {band}{blend}")
            }
        };
        let width = m.width.map(|w| w.to_string()).unwrap_or_else(|| "?".into());
        let frozen = m.frozen_per_100.map(|f| format!("{f:.2}")).unwrap_or_default();
        let core = if core_known { format!("{:.1}", core_secs / 3600.0) } else { String::new() };
        let suite = match (m.suite_pieces, m.suite_lines) {
            (Some(p), Some(l)) => format!("{p:.1}, {l:.1}"),
            _ => String::new(),
        };
        let _ = writeln!(
            t,
            "| {} | {width}, {chains} | {}, {} | {frozen} | {:.0} | {:.0} | {core} | {suite} | {} | {name} | |",
            first + m.cycle,
            m.lines,
            m.pieces,
            m.search_secs,
            m.refine_secs,
            steady(m.steady_pieces, m.steady_frozen_per_100),
        );
    }
    t
}

/// The steady suite's cell: pieces, and rows frozen where measured.
fn steady(pieces: Option<f64>, frozen: Option<f64>) -> String {
    match (pieces, frozen) {
        (Some(p), Some(f)) => format!("{p:.1}, {f:.2}"),
        (Some(p), None) => format!("{p:.1}, -"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_fnv1a_64() {
        assert_eq!(hash16(b""), "cbf29ce484222325");
        assert_eq!(hash16(b"a"), "af63dc4c8601ec8c");
    }
}
