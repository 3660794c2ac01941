//! Suites of start positions: the `.htsu` file format.
//!
//! Layout, little-endian:
//!
//! ```text
//! b"HTSU"  u32 version (1)  u32 starts
//! per start: u16 n, n bytes of UTF-8 source name, u32 piece, u32 score,
//!            20 x u16 well rows (top first), u32 moves, moves x u16 (`Move::pack`)
//! trailer: u32 CRC32 of every byte before it
//! ```
//!
//! Every start is a position of the official game (standard well, the
//! HATETRIS enemy) with the whole line that reached it, since the enemy's
//! memory, and so the pieces it gives from there, depends on the wells the
//! line showed it. A file is read whole: magic, version, the body, the
//! checksum, then every start's line is replayed and must reach its stored
//! well and score, so a damaged file is always an error, never a silently
//! different yardstick.

use hatetris_fileio::frame::{self, FrameError};
use hatetris_game::{Enemy, Key, Rules, Well, FULL_ROW};
use hatetris_search::{moves_for_keys, replay_line, Move};
use std::path::Path;

pub const MAGIC: [u8; 4] = *b"HTSU";
pub const VERSION: u32 = 1;

/// Suites are positions of the official game.
pub const RULES: Rules = Rules::STANDARD;
pub const ENEMY: Enemy = Enemy::Hatetris;

/// One start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    /// The game it comes from (a name, not a path).
    pub source: String,
    /// Pieces played before it.
    pub piece: u32,
    /// Lines cleared before it.
    pub score: u32,
    pub well: Well,
    /// The line from the empty well (`piece` moves): what the enemy's
    /// memory is made of.
    pub moves: Vec<Move>,
}

/// The start positions a strength measurement searches from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Suite {
    pub starts: Vec<Start>,
}

#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    // Not `source`: the message holds the I/O error once, where a source
    // would be printed again after it in an error chain.
    #[error("suite {name}: {error}")]
    Io { name: String, error: std::io::Error },
    #[error("suite {name}: {source}")]
    Frame { name: String, source: FrameError },
    #[error("suite {name}: truncated (ends inside {what})")]
    Truncated { name: String, what: String },
    #[error("suite {name}: damaged ({what})")]
    Damaged { name: String, what: String },
    #[error("suite {name}: damaged (checksum mismatch: stored {stored:08x}, computed {computed:08x})")]
    Checksum { name: String, stored: u32, computed: u32 },
    #[error("suite {name}: start {index} ({source_name}, piece {piece}): {what}")]
    BadStart { name: String, index: usize, source_name: String, piece: u32, what: String },
}

/// The default suite: every 25th piece after the first 100 of three long
/// public games (knewjade's 289 lines, Tim's 232, David & Felipe's 148),
/// built by `hatetris suite` (a test of the command rebuilds it from the
/// fixtures, byte for byte).
const DEFAULT_SUITE: &[u8] = include_bytes!("../data/default.htsu");

/// The steady-state suite: every 25th piece after piece 500 of gen-b's
/// three longest master games (`docs/runs/gen-b/master-{381,329,310}.b2048`),
/// where the lineage's own games bury their well and die; built by
/// `hatetris suite --every 25 --skip 500` (a test rebuilds it).
const STEADY_SUITE: &[u8] = include_bytes!("../data/steady.htsu");

impl Suite {
    /// An embedded suite by name: `default` or `steady`.
    pub fn embedded(name: &str) -> Option<Suite> {
        match name {
            "default" => Some(Suite::embedded_default()),
            "steady" => Some(Suite::from_bytes(STEADY_SUITE).expect("the embedded steady suite is valid (tested)")),
            _ => None,
        }
    }

    /// The embedded default suite (the yardstick of `hatetris strength`
    /// and of the cycle's per-cycle measurement).
    pub fn embedded_default() -> Suite {
        Suite::from_bytes(DEFAULT_SUITE).expect("the embedded suite is valid (tested)")
    }

    /// Starts from one replay: the position after every `every`-th piece
    /// from piece `skip` on (piece counts p with p >= skip and
    /// (p - skip) % every == 0), while the game is still on (p below the
    /// replay's pieces, so no start is a game over).
    pub fn from_replay(source: &str, keys: &[Key], every: usize, skip: usize) -> Suite {
        assert!(every > 0, "a suite takes a start every 1 or more pieces");
        let moves = moves_for_keys(RULES, ENEMY, keys);
        let mut starts = Vec::new();
        let mut take = |p: usize, well: &Well, score: u32| {
            if p >= skip && (p - skip).is_multiple_of(every) && p < moves.len() {
                starts.push(Start {
                    source: source.to_string(),
                    piece: p as u32,
                    score,
                    well: *well,
                    moves: moves[..p].to_vec(),
                });
            }
        };
        take(0, &Well::EMPTY, 0);
        let mut p = 0;
        replay_line(RULES, ENEMY, &moves, |_, well, score| {
            p += 1;
            take(p, well, score);
        })
        .expect("a replay's own locks replay");
        Suite { starts }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&(self.starts.len() as u32).to_le_bytes());
        for s in &self.starts {
            let name = &s.source.as_bytes()[..s.source.len().min(u16::MAX as usize)];
            b.extend_from_slice(&(name.len() as u16).to_le_bytes());
            b.extend_from_slice(name);
            b.extend_from_slice(&s.piece.to_le_bytes());
            b.extend_from_slice(&s.score.to_le_bytes());
            for r in s.well.rows {
                b.extend_from_slice(&r.to_le_bytes());
            }
            b.extend_from_slice(&(s.moves.len() as u32).to_le_bytes());
            for m in &s.moves {
                b.extend_from_slice(&(m.pack() as u16).to_le_bytes());
            }
        }
        frame::encode(&MAGIC, VERSION, &b)
    }

    /// A suite from a file's bytes, checked whole (see the module comment).
    pub fn from_bytes(bytes: &[u8]) -> Result<Suite, SuiteError> {
        parse(bytes, "(in memory)")
    }

    /// Writes the suite atomically (temporary file beside `path`, synced, renamed).
    pub fn save(&self, path: &Path) -> Result<(), SuiteError> {
        hatetris_fileio::write_atomically(path, &self.to_bytes())
            .map_err(|error| SuiteError::Io { name: path.display().to_string(), error })
    }

    pub fn load(path: &Path) -> Result<Suite, SuiteError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|error| SuiteError::Io { name: name.clone(), error })?;
        parse(&bytes, &name)
    }
}

/// Reads the body front to back; running out is truncation.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    name: &'a str,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &dyn Fn() -> String) -> Result<&'a [u8], SuiteError> {
        if self.bytes.len() - self.at < n {
            return Err(SuiteError::Truncated { name: self.name.into(), what: what() });
        }
        self.at += n;
        Ok(&self.bytes[self.at - n..self.at])
    }

    fn u16(&mut self, what: &dyn Fn() -> String) -> Result<u16, SuiteError> {
        Ok(u16::from_le_bytes(self.take(2, what)?.try_into().unwrap()))
    }

    fn u32(&mut self, what: &dyn Fn() -> String) -> Result<u32, SuiteError> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().unwrap()))
    }

    fn damaged(&self, what: String) -> SuiteError {
        SuiteError::Damaged { name: self.name.into(), what }
    }
}

fn parse(bytes: &[u8], name: &str) -> Result<Suite, SuiteError> {
    // The frame's header, then the body read front to back, then the
    // checksum: a file cut short says where it ends.
    let header = || "the header".to_string();
    if bytes.len() < frame::HEADER {
        return Err(SuiteError::Truncated { name: name.into(), what: header() });
    }
    frame::check_header(bytes, &MAGIC, "suite", &[VERSION])
        .map_err(|source| SuiteError::Frame { name: name.into(), source })?;
    let mut r = Reader { bytes, at: frame::HEADER, name };
    let count = r.u32(&header)?;
    // Each start takes at least 54 bytes: a damaged count cannot ask for a
    // huge allocation.
    let mut starts = Vec::with_capacity((count as usize).min(bytes.len() / 54));
    for index in 0..count as usize {
        let what = || format!("start {index}");
        let len = r.u16(&what)? as usize;
        let source = std::str::from_utf8(r.take(len, &what)?)
            .map_err(|_| r.damaged(format!("start {index}: a source name that is not UTF-8")))?
            .to_string();
        let piece = r.u32(&what)?;
        let score = r.u32(&what)?;
        let mut well = Well::EMPTY;
        for row in well.rows.iter_mut() {
            *row = r.u16(&what)?;
            if *row >= FULL_ROW {
                return Err(r.damaged(format!("start {index}: row value {row}")));
            }
        }
        let n = r.u32(&what)?;
        if n != piece {
            return Err(r.damaged(format!("start {index}: {n} moves for piece {piece}")));
        }
        let packed = r.take(2 * n as usize, &|| format!("start {index}'s moves"))?;
        let moves = packed.chunks_exact(2).map(|c| Move::unpack(u16::from_le_bytes([c[0], c[1]]) as u32)).collect();
        starts.push(Start { source, piece, score, well, moves });
    }
    let body = r.at;
    let stored = r.u32(&|| "the checksum".to_string())?;
    if r.at != bytes.len() {
        return Err(r.damaged(format!("{} bytes after the checksum", bytes.len() - r.at)));
    }
    let computed = crc32fast::hash(&bytes[..body]);
    if stored != computed {
        return Err(SuiteError::Checksum { name: name.into(), stored, computed });
    }
    for (index, s) in starts.iter().enumerate() {
        check_start(s).map_err(|what| SuiteError::BadStart {
            name: name.into(),
            index,
            source_name: s.source.clone(),
            piece: s.piece,
            what,
        })?;
    }
    Ok(Suite { starts })
}

/// A start's line must be the official game's and reach its well and score
/// with the game still on.
fn check_start(s: &Start) -> Result<(), String> {
    let end = replay_line(RULES, ENEMY, &s.moves, |_, _, _| {}).map_err(|e| e.to_string())?;
    if end.game_over {
        return Err("its line ends in game over".into());
    }
    if end.score != s.score {
        return Err(format!("its line reaches score {}, the file says {}", end.score, s.score));
    }
    if end.well != s.well {
        return Err("its line reaches another well than the file's".into());
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use hatetris_game::fixtures::known_replays;

    /// The keys of a known Base2048 replay.
    pub(crate) fn replay_keys(name: &str) -> Vec<Key> {
        let r = known_replays()
            .into_iter()
            .find(|r| r.name == name && r.encoding == "Base2048")
            .unwrap_or_else(|| panic!("no Base2048 replay named {name}"));
        hatetris_game::replay::decode(&r.replay).unwrap()
    }

    #[test]
    fn starts_are_taken_every_n_pieces_after_the_skip_while_the_game_is_on() {
        let keys = replay_keys("knewjade (5)");
        let out = hatetris_game::play(RULES, ENEMY, &keys, |_, _| {});
        assert!(out.game_over);
        let suite = Suite::from_replay("kj", &keys, 100, 50);
        let pieces: Vec<u32> = suite.starts.iter().map(|s| s.piece).collect();
        let want: Vec<u32> = (50..out.pieces).step_by(100).collect();
        assert_eq!(pieces, want);
        // The score and well after p pieces, as the game plays the keys.
        let mut after = vec![(0, Well::EMPTY)];
        hatetris_game::play(RULES, ENEMY, &keys, |g, _| after.push((g.score(), *g.well())));
        for s in &suite.starts {
            assert_eq!((s.score, s.well), after[s.piece as usize]);
            assert_eq!(s.moves.len(), s.piece as usize);
            assert_eq!(s.source, "kj");
            check_start(s).unwrap();
        }
        let every_piece = Suite::from_replay("kj", &keys, 1, 0);
        assert_eq!(every_piece.starts.len(), out.pieces as usize);
        assert_eq!(every_piece.starts[0].well, Well::EMPTY);
    }

    fn small_suite() -> Suite {
        let mut suite = Suite::from_replay("a", &replay_keys("David & Felipe (1)"), 60, 20);
        suite.starts.extend(Suite::from_replay("kj-289", &replay_keys("knewjade (5)"), 300, 100).starts);
        suite
    }

    #[test]
    fn round_trip() {
        let suite = small_suite();
        assert!(suite.starts.len() >= 5);
        assert_eq!(Suite::from_bytes(&suite.to_bytes()).unwrap(), suite);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.htsu");
        suite.save(&path).unwrap();
        assert_eq!(Suite::load(&path).unwrap(), suite);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        assert_eq!(Suite::from_bytes(&Suite::default().to_bytes()).unwrap(), Suite::default());
    }

    #[test]
    fn every_damage_is_a_clear_error() {
        let suite = Suite::from_replay("a", &replay_keys("Atypical"), 30, 10);
        let good = suite.to_bytes();
        for cut in 0..good.len() {
            let err = Suite::from_bytes(&good[..cut]).expect_err("a truncated file is refused");
            assert!(matches!(err, SuiteError::Truncated { .. }), "cut at {cut}: {err}");
        }
        for i in 0..good.len() {
            for bit in [0x01, 0x80] {
                let mut b = good.clone();
                b[i] ^= bit;
                assert!(Suite::from_bytes(&b).is_err(), "byte {i} bit {bit:#x}");
            }
        }
        let mut b = good.clone();
        b[0] = b'X';
        assert_eq!(
            Suite::from_bytes(&b).unwrap_err().to_string(),
            "suite (in memory): not a suite file (it does not start with \"HTSU\")"
        );
        let mut b = good.clone();
        b[4..8].copy_from_slice(&2u32.to_le_bytes());
        assert_eq!(
            Suite::from_bytes(&b).unwrap_err().to_string(),
            "suite (in memory): suite file version 2 is not one this build reads (1)"
        );
        let mut b = good.clone();
        b[20] ^= 4;
        assert!(Suite::from_bytes(&b).unwrap_err().to_string().contains("checksum mismatch"));
        let mut longer = good.clone();
        longer.push(0);
        assert!(Suite::from_bytes(&longer).unwrap_err().to_string().contains("after the checksum"));
        let dir = tempfile::tempdir().unwrap();
        let err = Suite::load(&dir.path().join("missing.htsu")).unwrap_err();
        assert!(matches!(err, SuiteError::Io { .. }) && err.to_string().contains("missing.htsu"), "{err}");
    }

    /// A file whose checksum is right but whose start does not match its
    /// line (written by other code, say) is refused too.
    #[test]
    fn a_start_must_be_what_its_line_reaches() {
        let suite = small_suite();
        let mut wrong_score = suite.clone();
        wrong_score.starts[2].score += 1;
        let err = Suite::from_bytes(&wrong_score.to_bytes()).unwrap_err();
        assert!(matches!(err, SuiteError::BadStart { index: 2, .. }), "{err}");
        assert!(err.to_string().contains("reaches score"), "{err}");
        let mut wrong_well = suite.clone();
        wrong_well.starts[1].well.rows[19] ^= 1;
        assert!(matches!(Suite::from_bytes(&wrong_well.to_bytes()), Err(SuiteError::BadStart { index: 1, .. })));
        let mut wrong_piece = suite.clone();
        let mv = &mut wrong_piece.starts[0].moves[5];
        mv.piece = if mv.piece == hatetris_game::Piece::I { hatetris_game::Piece::O } else { hatetris_game::Piece::I };
        let err = Suite::from_bytes(&wrong_piece.to_bytes()).unwrap_err();
        assert!(err.to_string().contains("piece 5: the search assumed"), "{err}");
    }
}
