//! Quiescence: the one hand-made idea the method keeps. A well from which
//! the enemy's S or Z could clear lines is worth at least the best well at
//! the end of such a chain of clears, since clearing is what the enemy
//! offers last and the network sees only the well in front of it.

use hatetris_eval::Evaluator;
use hatetris_game::{for_each_lock_position, Piece, Rules, Well};

/// How many clears deep a chain is followed. Each clear lowers the stack,
/// so chains are short; the cap bounds the worst case.
pub const MAX_CHAIN: u32 = 4;

/// The value of `well`: its own, or with `chain > 0` the best along the
/// chains of line clears that S or Z can give from it.
pub fn quiescent_value(eval: &dyn Evaluator, rules: Rules, well: &Well, chain: u32) -> f32 {
    let mut best = eval.evaluate(well.playable(rules));
    if chain == 0 {
        return best;
    }
    for piece in [Piece::S, Piece::Z] {
        for_each_lock_position(well, rules, piece, |x, y, o| {
            let mut next = *well;
            if next.lock(piece.shape(o), x, y) > 0 && !next.is_game_over() {
                best = best.max(quiescent_value(eval, rules, &next, chain - 1));
            }
        });
    }
    best
}
