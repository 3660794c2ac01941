//! A plain breadth-first search over (x, y, o), cell by cell, the way the
//! official game does it. It is the yardstick the bit-parallel sweep is
//! tested and benchmarked against, and it finds key paths for replays.

use crate::key::Key;
use crate::piece::Piece;
use crate::sweep::start_row;
use crate::well::{Rules, Well};
use std::collections::VecDeque;

/// A position of the falling piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub x: i32,
    pub y: i32,
    pub o: u8,
}

/// The result of one key on a falling piece.
pub enum Step {
    Moved(Position),
    Stayed,
    Locked,
}

/// Applies one key to a falling piece as the official `getNextState` does.
pub fn step(well: &Well, rules: Rules, piece: Piece, at: Position, key: Key) -> Step {
    let mut next = at;
    match key {
        Key::L => next.x -= 1,
        Key::R => next.x += 1,
        Key::D => next.y += 1,
        Key::U => next.o = (next.o + 1) % 4,
    }
    if well.fits(rules, piece.shape(next.o), next.x, next.y) {
        Step::Moved(next)
    } else if key == Key::D {
        Step::Locked
    } else {
        Step::Stayed
    }
}

/// Every lock position, in the official breadth-first order (with repeats
/// removed: each position locks once).
pub fn reference_lock_positions(well: &Well, rules: Rules, piece: Piece) -> Vec<Position> {
    let start = Position { x: 3, y: start_row(well, rules) as i32, o: 0 };
    let mut seen = std::collections::HashSet::new();
    seen.insert(start);
    let mut queue = VecDeque::from([start]);
    let mut locks = Vec::new();
    while let Some(at) = queue.pop_front() {
        for key in Key::ALL {
            match step(well, rules, piece, at, key) {
                Step::Moved(next) => {
                    if seen.insert(next) {
                        queue.push_back(next);
                    }
                }
                Step::Locked => locks.push(at),
                Step::Stayed => {}
            }
        }
    }
    locks
}

/// Every landing well in official order, duplicates included, as the enemy sees them.
pub fn reference_landing_wells(well: &Well, rules: Rules, piece: Piece) -> Vec<Well> {
    reference_lock_positions(well, rules, piece)
        .into_iter()
        .map(|p| {
            let mut w = *well;
            w.lock(piece.shape(p.o), p.x, p.y);
            w
        })
        .collect()
}

/// A shortest key sequence from the spawn that locks the piece at `target`
/// (its final key is the locking D), or None if it cannot be reached.
pub fn key_path(well: &Well, rules: Rules, piece: Piece, target: Position) -> Option<Vec<Key>> {
    let spawn = Position { x: 3, y: 0, o: 0 };
    if !well.fits(rules, piece.shape(0), spawn.x, spawn.y) {
        return None;
    }
    let mut came_from = std::collections::HashMap::new();
    came_from.insert(spawn, None);
    let mut queue = VecDeque::from([spawn]);
    while let Some(at) = queue.pop_front() {
        if at == target {
            if !matches!(step(well, rules, piece, at, Key::D), Step::Locked) {
                return None;
            }
            let mut keys = vec![Key::D];
            let mut cur = at;
            while let Some(&Some((prev, key))) = came_from.get(&cur) {
                keys.push(key);
                cur = prev;
            }
            keys.reverse();
            return Some(keys);
        }
        for key in Key::ALL {
            if let Step::Moved(next) = step(well, rules, piece, at, key) {
                if let std::collections::hash_map::Entry::Vacant(e) = came_from.entry(next) {
                    e.insert(Some((at, key)));
                    queue.push_back(next);
                }
            }
        }
    }
    None
}

/// The official enemy, written as literally as the game's code: every landing
/// of every piece from the breadth-first search, then the sort by loops,
/// peak and letter. `seen` is the memory count after the current well was
/// counted (`|_| 0` for Mild).
pub fn reference_choose_piece(well: &Well, rules: Rules, seen: impl Fn(&Well) -> u32) -> Piece {
    let mut evaluations: Vec<(u32, u8, usize)> = Piece::ALL
        .iter()
        .map(|&piece| {
            let wells = reference_landing_wells(well, rules, piece);
            let loops = wells.iter().map(&seen).max().unwrap_or(0);
            let peak = wells.iter().map(|w| w.rating(rules)).max().unwrap_or(0);
            (loops, peak, piece.index())
        })
        .collect();
    evaluations.sort();
    Piece::from_index(evaluations[0].2)
}
