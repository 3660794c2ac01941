//! The clears each `ChainRule` allows from a well: the S/Z sweep, the
//! record engine's choice of piece, and the enemy's piece.

use super::rule::ChainRule;
use hatetris_game::{
    choose_piece_memoryless_and_clears, for_each_completing_lock, for_each_completing_s_lock,
    for_each_completing_sz_lock, memoryless_piece_cannot_clear, sz_completable_rows, Piece, Rules, Well,
};
use std::cell::Cell;

/// Calls `reached(k, next)` for each well `next` that a clear `rule` allows
/// in `wells[k]` leaves, unless the game ends. Each `k` is visited in one
/// run of calls, in increasing order of `k` for the record and enemy rules.
pub fn for_each_clear(wells: &[Well], rules: Rules, rule: ChainRule, mut reached: impl FnMut(usize, Well)) {
    match rule {
        ChainRule::Sz => sz_clears(wells, rules, |k, _, next, _| reached(k, next)),
        ChainRule::Record => record_clears(wells, rules, false, reached),
        ChainRule::Forced => record_clears(wells, rules, true, reached),
        ChainRule::Enemy => {
            for (k, well) in wells.iter().enumerate() {
                // In two wells of five the enemy's piece provably cannot
                // clear: no sweep.
                if memoryless_piece_cannot_clear(well, rules) {
                    continue;
                }
                // The sweep that finds the enemy's piece keeps its clears.
                let mut locks = Vec::new();
                let piece = choose_piece_memoryless_and_clears(well, rules, |x, y, o| locks.push((x, y, o)));
                clears_of_locks(well, piece, &locks, |next, _| reached(k, next));
            }
        }
    }
}

/// Every S and Z clear of each of `wells`, once per set of cells placed,
/// with the lines it clears: `reached(k, piece, next, lines)`.
pub(super) fn sz_clears(wells: &[Well], rules: Rules, reached: impl FnMut(usize, Piece, Well, u32)) {
    wells_clears(wells, rules, false, reached)
}

/// `sz_clears`, or with `s_only` the S clears alone.
fn wells_clears(wells: &[Well], rules: Rules, s_only: bool, mut reached: impl FnMut(usize, Piece, Well, u32)) {
    // Only the wells where some S or Z could complete a row are swept.
    let (mut swept, mut owners) = SWEPT.take();
    swept.clear();
    owners.clear();
    for (i, well) in wells.iter().enumerate() {
        if sz_might_clear(well, rules) {
            swept.push(*well);
            owners.push(i);
        }
    }
    let mut visit = |k: usize, piece: Piece, x, y, o| {
        let mut next = swept[k];
        let lines = next.lock(piece.shape(o), x, y);
        if lines > 0 && !next.is_game_over() {
            reached(owners[k], piece, next, lines);
        }
    };
    if s_only {
        for_each_completing_s_lock(&swept, rules, |k, x, y, o| visit(k, Piece::S, x, y, o));
    } else {
        for_each_completing_sz_lock(&swept, rules, visit);
    }
    SWEPT.set((swept, owners));
}

/// A clear: the well it came from (an index), the piece, the well it
/// leaves and the lines it clears.
type Clear = (usize, Piece, Well, u32);

thread_local! {
    // Buffers the sweeps of every layer of every call need, lent to one
    // call at a time (taken and given back: a nested call finds them
    // taken and makes its own). Allocated per call they cost a few
    // percent of a chained search.
    static SWEPT: Cell<(Vec<Well>, Vec<usize>)> = Cell::default();
    static CLEARS: Cell<Vec<Clear>> = Cell::default();
    static SORTED: Cell<Vec<Clear>> = Cell::default();
    static STARTS: Cell<Vec<usize>> = Cell::default();
}

/// The record engine's rule for each of `wells` (see `ChainRule::Record`);
/// `forced`: only in wells where every piece can clear (`ChainRule::Forced`).
fn record_clears(wells: &[Well], rules: Rules, forced: bool, reached: impl FnMut(usize, Well)) {
    if forced {
        record_clears_sz(wells, rules, true, reached)
    } else {
        s_first_clears(wells, rules, reached)
    }
}

/// `record_clears` from one S/Z sweep of every well that could clear.
pub(super) fn record_clears_sz(wells: &[Well], rules: Rules, forced: bool, mut reached: impl FnMut(usize, Well)) {
    // S's clears decide most wells: S is the piece unless it can clear two
    // lines, and where S cannot clear the chain stops, so one S/Z sweep of
    // the wells that could clear at all does nearly all the work.
    let mut sz: Vec<Clear> = Vec::new();
    sz_clears(wells, rules, |k, piece, next, lines| sz.push((k, piece, next, lines)));
    // The sweep interleaves four wells: grouped by well, S before Z, each
    // piece's clears in their order (a counting sort; the comparison sort
    // took 5% of a chained search).
    let mut by_well = Vec::new();
    group_by_well(&sz, wells.len(), &mut by_well);
    let mut rest = Vec::new();
    for group in by_well.chunk_by(|a, b| a.0 == b.0) {
        let k = group[0].0;
        let (s, z) = group.split_at(group.partition_point(|c| c.1 == Piece::S));
        if forced && (s.is_empty() || z.is_empty() || !others_clear(&wells[k], rules)) {
            continue;
        }
        for c in record_choice(&wells[k], rules, s, z, &mut rest) {
            reached(k, c.2);
        }
    }
}

/// The record rule without `forced`: S is the enemy's piece in nearly
/// every well (it has no clear, or only one-line clears), so the wells are
/// swept for S alone, eight to a sweep, and for Z (and the rest in order)
/// only where an S clears two lines. The same wells, in the same order,
/// as `record_clears_sz`.
pub(super) fn s_first_clears(wells: &[Well], rules: Rules, mut reached: impl FnMut(usize, Well)) {
    let mut s = CLEARS.take();
    s.clear();
    wells_clears(wells, rules, true, |k, piece, next, lines| s.push((k, piece, next, lines)));
    let mut sorted = SORTED.take();
    group_by_well(&s, wells.len(), &mut sorted);
    CLEARS.set(s);
    let mut rest = Vec::new();
    for group in sorted.chunk_by(|a, b| a.0 == b.0) {
        let k = group[0].0;
        if single(group) {
            for c in group {
                reached(k, c.2);
            }
            continue;
        }
        // Rare: an S clears two lines. This well's S and Z clears as the
        // S/Z sweep gives them (S before Z), and the rule's choice.
        let mut sz = Vec::new();
        sz_clears(std::slice::from_ref(&wells[k]), rules, |_, piece, next, lines| sz.push((0, piece, next, lines)));
        let mut by_well = Vec::new();
        group_by_well(&sz, 1, &mut by_well);
        let (s, z) = by_well.split_at(by_well.partition_point(|c| c.1 == Piece::S));
        for c in record_choice(&wells[k], rules, s, z, &mut rest) {
            reached(k, c.2);
        }
    }
    SORTED.set(sorted);
}

/// Do all of `clears` clear one line?
fn single(clears: &[Clear]) -> bool {
    clears.iter().all(|c| c.3 == 1)
}

/// The clears of the piece the record rule picks in `well`, given S's
/// clears `s` and Z's `z` (the rest are found here when both clear two
/// lines, into `rest`). A piece with no clear is the enemy's and ends the
/// chain.
fn record_choice<'a>(
    well: &Well,
    rules: Rules,
    s: &'a [Clear],
    z: &'a [Clear],
    rest: &'a mut Vec<Clear>,
) -> &'a [Clear] {
    if s.is_empty() || single(s) {
        return s;
    }
    if z.is_empty() || single(z) {
        return z;
    }
    // S and Z both clear two lines: the rest in order. No random stack of
    // near-full rows tried (two million) reached this.
    rest.clear();
    let k = s[0].0;
    for piece in [Piece::O, Piece::I, Piece::L, Piece::J, Piece::T] {
        let mut clears = Vec::new();
        piece_clears(well, rules, piece, |next, lines| clears.push((k, piece, next, lines)));
        if single(&clears) {
            *rest = clears;
            break;
        }
    }
    rest
}

/// `clears` ordered by well, S before Z, each piece's in their order,
/// into `sorted`.
fn group_by_well(clears: &[Clear], wells: usize, sorted: &mut Vec<Clear>) {
    let key = |c: &Clear| c.0 * 2 + usize::from(c.1 != Piece::S);
    let mut at = STARTS.take();
    at.clear();
    at.resize(wells * 2 + 1, 0);
    for c in clears {
        at[key(c) + 1] += 1;
    }
    for i in 0..wells * 2 {
        at[i + 1] += at[i];
    }
    sorted.clear();
    sorted.extend_from_slice(clears);
    for c in clears {
        sorted[at[key(c)]] = *c;
        at[key(c)] += 1;
    }
    STARTS.set(at);
}

/// Can each of O, I, L, J and T clear a line in `well` (without ending
/// the game)?
fn others_clear(well: &Well, rules: Rules) -> bool {
    [Piece::O, Piece::I, Piece::L, Piece::J, Piece::T].into_iter().all(|piece| {
        let mut any = false;
        for_each_completing_lock(well, rules, &[piece], |piece, x, y, o| {
            if !any {
                let mut next = *well;
                any = next.lock(piece.shape(o), x, y) > 0 && !next.is_game_over();
            }
        });
        any
    })
}

/// The clears `piece` can make in `well`, once per well they leave, with
/// the lines each clears.
fn piece_clears(well: &Well, rules: Rules, piece: Piece, reached: impl FnMut(Well, u32)) {
    let mut locks = Vec::new();
    for_each_completing_lock(well, rules, &[piece], |_, x, y, o| locks.push((x, y, o)));
    clears_of_locks(well, piece, &locks, reached)
}

/// The clears of `piece`'s completing `locks` in `well`, once per well
/// they leave, with the lines each clears.
fn clears_of_locks(well: &Well, piece: Piece, locks: &[(i32, i32, u8)], mut reached: impl FnMut(Well, u32)) {
    let mut placed: Vec<Well> = Vec::new();
    for &(x, y, o) in locks {
        let mut next = *well;
        let lines = next.lock(piece.shape(o), x, y);
        if lines > 0 && !next.is_game_over() && !placed.contains(&next) {
            placed.push(next);
            reached(next, lines);
        }
    }
}

/// Can some S or Z placement possibly complete a row? Exact as a
/// necessary condition (see `sz_completable_rows`), and a few bit
/// operations against the sweep it saves.
#[inline]
pub(super) fn sz_might_clear(well: &Well, rules: Rules) -> bool {
    sz_completable_rows(well, rules) != 0
}
