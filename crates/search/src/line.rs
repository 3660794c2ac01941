//! Lines of moves and the keys of the official game: the search's line as
//! keys (checking on the way that the real enemy gives every piece the
//! search assumed), a replay's keys as moves, and a line replayed move by
//! move with the real enemy's choices.

use crate::moves::Move;
use hatetris_game::reference::key_path;
use hatetris_game::replay::{self, Format};
use hatetris_game::{for_each_lock_position, next_piece, Enemy, Game, Key, Piece, Rules, SeenWells, Well};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LineError {
    #[error("piece {index}: the search assumed {assumed} but the game gives {actual}")]
    EnemyMismatch { index: usize, assumed: Piece, actual: Piece },
    #[error("piece {index}: no key path reaches the landing at x={x} y={y} o={o}")]
    Unreachable { index: usize, x: i8, y: i8, o: u8 },
    #[error("piece {index}: the game ended before the line did")]
    GameOver { index: usize },
    #[error("the line ends in game over after {pieces} pieces: no position to search from")]
    EndsInGameOver { pieces: usize },
    #[error("the written replay does not decode: {0}")]
    Decode(String),
}

/// A line as a replay the official game reads, with what the engine makes
/// of that replay: decoded again (as a reader would) and played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedReplay {
    pub replay: String,
    pub score: u32,
    pub pieces: usize,
    pub game_over: bool,
    /// The well after each lock of that play, for what is measured on the
    /// game (e.g. `hatetris_game::frozen`) without playing it again.
    pub wells: Vec<Well>,
}

/// Turns `moves` into keys (checking the enemy's every piece), encodes them
/// in `format`, decodes that text and plays it: the score returned is the
/// engine's verdict on what is written, never the search's belief.
pub fn verified_replay(
    rules: Rules,
    enemy: Enemy,
    moves: &[Move],
    format: Format,
) -> Result<VerifiedReplay, LineError> {
    let keys = keys_for_line(rules, enemy, moves)?;
    let replay = replay::encode(&keys, format);
    let decoded = replay::decode(&replay).map_err(|e| LineError::Decode(e.to_string()))?;
    let mut wells = Vec::with_capacity(moves.len());
    let out = hatetris_game::play(rules, enemy, &decoded, |game, _| wells.push(*game.well()));
    Ok(VerifiedReplay { replay, score: out.score, pieces: out.pieces as usize, game_over: out.game_over, wells })
}

/// Plays `moves` in the engine and returns the keys, failing at the first
/// piece where the engine's enemy disagrees with the search.
pub fn keys_for_line(rules: Rules, enemy: Enemy, moves: &[Move]) -> Result<Vec<Key>, LineError> {
    let mut game = Game::new(rules, enemy);
    let mut keys = Vec::new();
    for (index, mv) in moves.iter().enumerate() {
        if game.is_over() {
            return Err(LineError::GameOver { index });
        }
        if game.piece() != mv.piece {
            return Err(LineError::EnemyMismatch { index, assumed: mv.piece, actual: game.piece() });
        }
        let path = key_path(game.well(), rules, mv.piece, mv.position()).ok_or(LineError::Unreachable {
            index,
            x: mv.x,
            y: mv.y,
            o: mv.o,
        })?;
        for &k in &path {
            game.press(k);
        }
        keys.extend(path);
    }
    Ok(keys)
}

/// The moves of a replay: the piece and the position of every lock, in
/// order (a lock is the D that finds the piece blocked; the piece locks
/// where it stood before that key). Keys after game over are ignored, as
/// the game ignores them.
pub fn moves_for_keys(rules: Rules, enemy: Enemy, keys: &[Key]) -> Vec<Move> {
    let mut game = Game::new(rules, enemy);
    let mut moves = Vec::new();
    for &key in keys {
        if game.is_over() {
            break;
        }
        let (piece, at) = (game.piece(), game.position());
        if game.press(key).is_some() {
            moves.push(Move { piece, x: at.x as i8, y: at.y as i8, o: at.o });
        }
    }
    moves
}

/// Where a replayed line ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineEnd {
    pub well: Well,
    pub score: u32,
    pub game_over: bool,
}

/// Plays `moves` from the empty well with the enemy's own choices (its
/// memory kept as the game keeps it, so loops count), checking that each
/// move's piece is the one the enemy gives and that the piece can lock
/// there. `after(move, well, score)` sees each move with the well and
/// score it leads to. Cheaper than [`keys_for_line`] (no key paths): a
/// lock position is legal when the landing sweep, proven equal to the
/// game's breadth-first search, finds it.
pub fn replay_line(
    rules: Rules,
    enemy: Enemy,
    moves: &[Move],
    mut after: impl FnMut(&Move, &Well, u32),
) -> Result<LineEnd, LineError> {
    let mut memory = SeenWells::default();
    let mut well = Well::EMPTY;
    let mut score = 0;
    let mut piece = next_piece(enemy, &well, rules, &mut memory);
    for (index, mv) in moves.iter().enumerate() {
        if well.is_game_over() {
            return Err(LineError::GameOver { index });
        }
        if piece != mv.piece {
            return Err(LineError::EnemyMismatch { index, assumed: mv.piece, actual: piece });
        }
        let target = (mv.x as i32, mv.y as i32, mv.o);
        let mut legal = false;
        for_each_lock_position(&well, rules, piece, |x, y, o| legal |= (x, y, o) == target);
        if !legal {
            return Err(LineError::Unreachable { index, x: mv.x, y: mv.y, o: mv.o });
        }
        score += well.lock(piece.shape(mv.o), mv.x as i32, mv.y as i32);
        after(mv, &well, score);
        if !well.is_game_over() {
            piece = next_piece(enemy, &well, rules, &mut memory);
        }
    }
    Ok(LineEnd { well, score, game_over: well.is_game_over() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hatetris_game::fixtures::known_replays;

    /// Every known replay, as moves, replays to the engine's own score and
    /// well, and its moves turn back into keys that do too.
    #[test]
    fn replays_become_moves_and_back() {
        for r in known_replays().into_iter().filter(|r| r.encoding == "Base2048") {
            let enemy: Enemy = r.enemy.parse().unwrap();
            let keys = replay::decode(&r.replay).unwrap();
            let out = hatetris_game::play(Rules::STANDARD, enemy, &keys, |_, _| {});
            let moves = moves_for_keys(Rules::STANDARD, enemy, &keys);
            assert_eq!(moves.len(), out.pieces as usize, "{}", r.name);
            let end = replay_line(Rules::STANDARD, enemy, &moves, |_, _, _| {}).unwrap();
            assert_eq!((end.score, end.well, end.game_over), (out.score, out.well, out.game_over), "{}", r.name);
            let again = keys_for_line(Rules::STANDARD, enemy, &moves).unwrap();
            let replayed = hatetris_game::play(Rules::STANDARD, enemy, &again, |_, _| {});
            assert_eq!((replayed.score, replayed.pieces), (out.score, out.pieces), "{}", r.name);
        }
    }

    #[test]
    fn a_verified_replay_scores_what_the_game_scores() {
        let r = known_replays().into_iter().find(|r| r.name == "knewjade (5)").unwrap();
        let keys = replay::decode(&r.replay).unwrap();
        let moves = moves_for_keys(Rules::STANDARD, Enemy::Hatetris, &keys);
        let v = verified_replay(Rules::STANDARD, Enemy::Hatetris, &moves, Format::Base2048).unwrap();
        let out = hatetris_game::play(Rules::STANDARD, Enemy::Hatetris, &keys, |_, _| {});
        assert_eq!((v.score, v.pieces, v.game_over), (out.score, out.pieces as usize, out.game_over));
        let again = replay::decode(&v.replay).unwrap();
        assert_eq!(moves_for_keys(Rules::STANDARD, Enemy::Hatetris, &again), moves);
    }

    #[test]
    fn a_wrong_piece_or_an_unreachable_lock_is_caught() {
        let r = known_replays().into_iter().find(|r| r.name == "knewjade (5)").unwrap();
        let keys = replay::decode(&r.replay).unwrap();
        let mut moves = moves_for_keys(Rules::STANDARD, Enemy::Hatetris, &keys);
        moves.truncate(40);
        let mut wrong = moves.clone();
        wrong[7].piece = if wrong[7].piece == Piece::T { Piece::L } else { Piece::T };
        assert!(matches!(
            replay_line(Rules::STANDARD, Enemy::Hatetris, &wrong, |_, _, _| {}),
            Err(LineError::EnemyMismatch { index: 7, .. })
        ));
        let mut floating = moves.clone();
        floating[9].y = 2;
        assert!(matches!(
            replay_line(Rules::STANDARD, Enemy::Hatetris, &floating, |_, _, _| {}),
            Err(LineError::Unreachable { index: 9, .. })
        ));
    }
}
