//! Playing keys one by one, exactly as the official game does: the state a
//! replay moves through.

use crate::enemy::{next_piece, Enemy};
use crate::key::Key;
use crate::memory::SeenWells;
use crate::piece::Piece;
use crate::reference::{step, Position, Step};
use crate::well::{Rules, Well};

/// What a lock did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lock {
    pub lines: u32,
    pub game_over: bool,
    /// The piece the enemy chose next (None at game over).
    pub next: Option<Piece>,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    enemy: Enemy,
    well: Well,
    score: u32,
    piece: Piece,
    at: Position,
    memory: SeenWells,
    game_over: bool,
    locks: u32,
}

pub const SPAWN: Position = Position { x: 3, y: 0, o: 0 };

impl Game {
    /// A new game: the enemy chooses the first piece for the empty well.
    pub fn new(rules: Rules, enemy: Enemy) -> Game {
        let mut memory = SeenWells::default();
        let well = Well::EMPTY;
        let piece = next_piece(enemy, &well, rules, &mut memory);
        Game { rules, enemy, well, score: 0, piece, at: SPAWN, memory, game_over: false, locks: 0 }
    }

    pub fn well(&self) -> &Well {
        &self.well
    }
    pub fn score(&self) -> u32 {
        self.score
    }
    pub fn is_over(&self) -> bool {
        self.game_over
    }
    /// The falling piece (meaningless once the game is over).
    pub fn piece(&self) -> Piece {
        self.piece
    }
    pub fn position(&self) -> Position {
        self.at
    }
    /// Pieces locked so far.
    pub fn locks(&self) -> u32 {
        self.locks
    }
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Presses one key. Returns what happened if the piece locked. Keys after
    /// game over do nothing.
    pub fn press(&mut self, key: Key) -> Option<Lock> {
        if self.game_over {
            return None;
        }
        match step(&self.well, self.rules, self.piece, self.at, key) {
            Step::Moved(next) => {
                self.at = next;
                None
            }
            Step::Stayed => None,
            Step::Locked => {
                let lines = self.well.lock(self.piece.shape(self.at.o), self.at.x, self.at.y);
                self.score += lines;
                self.locks += 1;
                self.game_over = self.well.is_game_over();
                let next = if self.game_over {
                    None
                } else {
                    let p = next_piece(self.enemy, &self.well, self.rules, &mut self.memory);
                    self.piece = p;
                    self.at = SPAWN;
                    Some(p)
                };
                Some(Lock { lines, game_over: self.game_over, next })
            }
        }
    }
}

/// The outcome of playing a whole replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub score: u32,
    pub game_over: bool,
    pub keys: usize,
    /// Keys pressed up to and including the one that ended the game.
    pub keys_used: usize,
    pub pieces: u32,
    pub well: Well,
}

/// Plays `keys` from the start; `on_lock` sees every lock.
pub fn play(rules: Rules, enemy: Enemy, keys: &[Key], mut on_lock: impl FnMut(&Game, &Lock)) -> Outcome {
    let mut game = Game::new(rules, enemy);
    let mut used = 0;
    for &key in keys {
        if game.is_over() {
            break;
        }
        used += 1;
        if let Some(lock) = game.press(key) {
            on_lock(&game, &lock);
        }
    }
    Outcome {
        score: game.score(),
        game_over: game.is_over(),
        keys: keys.len(),
        keys_used: used,
        pieces: game.locks(),
        well: *game.well(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::known_replays;

    #[test]
    fn raw_mild_fixture_scores_as_the_official_game() {
        let r = known_replays().into_iter().find(|r| r.encoding == "raw").expect("a raw fixture");
        let keys: Vec<Key> = r.replay.trim().chars().map(|c| Key::from_letter(c).unwrap()).collect();
        let enemy: Enemy = r.enemy.parse().unwrap();
        let out = play(Rules::STANDARD, enemy, &keys, |_, _| {});
        assert_eq!(out.score, r.expected_score, "{}", r.name);
    }

    #[test]
    fn first_piece_of_the_empty_well_is_s() {
        assert_eq!(Game::new(Rules::STANDARD, Enemy::Hatetris).piece(), Piece::S);
    }

    #[test]
    fn keys_after_game_over_are_ignored() {
        let keys = vec![Key::D; 400];
        let out = play(Rules::STANDARD, Enemy::Hatetris, &keys, |_, _| {});
        assert!(out.game_over);
        assert!(out.keys_used < out.keys);
        assert_eq!(out.score, 0);
    }
}
