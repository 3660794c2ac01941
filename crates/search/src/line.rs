//! Turning the search's line into keys the official game accepts, checking
//! on the way that the real enemy gives every piece the search assumed.

use crate::moves::Move;
use hatetris_game::reference::key_path;
use hatetris_game::{Enemy, Game, Key, Piece, Rules};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LineError {
    #[error("piece {index}: the search assumed {assumed} but the game gives {actual}")]
    EnemyMismatch { index: usize, assumed: Piece, actual: Piece },
    #[error("piece {index}: no key path reaches the landing at x={x} y={y} o={o}")]
    Unreachable { index: usize, x: i8, y: i8, o: u8 },
    #[error("piece {index}: the game ended before the line did")]
    GameOver { index: usize },
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
        let path = key_path(game.well(), rules, mv.piece, mv.position())
            .ok_or(LineError::Unreachable { index, x: mv.x, y: mv.y, o: mv.o })?;
        for &k in &path {
            game.press(k);
        }
        keys.extend(path);
    }
    Ok(keys)
}
