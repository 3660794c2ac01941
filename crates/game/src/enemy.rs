//! The enemies: HATETRIS (with its memory of seen wells) and HATETRIS Mild.

use crate::memory::{Memory, SeenWells};
use crate::peaks::{peaks, PeakSweep};
use crate::piece::{Piece, Shape};
use crate::sweep::{keep_distinct_wells, Landing};
use crate::well::{LockHasher, Rules, Well, FULL_ROW};
use std::str::FromStr;

/// Which enemy picks the pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Enemy {
    /// The official enemy: avoids pieces that could return to a seen well.
    #[default]
    Hatetris,
    /// The same without memory: loops are possible and scores unbounded.
    Mild,
}

impl Enemy {
    pub fn name(self) -> &'static str {
        match self {
            Enemy::Hatetris => "hatetris",
            Enemy::Mild => "mild",
        }
    }

    pub fn has_memory(self) -> bool {
        self == Enemy::Hatetris
    }
}

impl FromStr for Enemy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "hatetris" => Ok(Enemy::Hatetris),
            "mild" => Ok(Enemy::Mild),
            _ => Err(format!("unknown enemy '{s}' (expected hatetris or mild)")),
        }
    }
}

/// Chooses the next piece for `well`. `memory` must hold the counts *after*
/// the current well has been counted once more (step 1 of the rules); it
/// is asked only when the answer can matter. A memoryless enemy is
/// `choose_piece_memoryless`.
pub fn choose_piece(well: &Well, rules: Rules, memory: &impl Memory) -> Piece {
    // Step 2 in two passes. Peaks are cheap (all seven pieces in one sweep,
    // see `peaks`); memory look-ups less so. A piece loses to any piece with
    // fewer loops, then to a lower peak, then to an earlier letter, so pieces
    // are visited best-(peak, letter)-first: the first one with no loops wins
    // outright, and a later one only needs its look-ups while its loop count
    // stays below the best so far. The second pass reads the lock positions
    // the peaks' sweep kept, one a well where orientations repeat a shape;
    // their wells are hashed, not built.
    PeakSweep::with(well, rules, |sweep| choose_with_sweep(well, rules, memory, sweep))
}

/// The enemy's piece for `well` (`choose_piece`, or with `memory` None
/// `choose_piece_memoryless`) and that piece's `distinct_landings`, found
/// from the one sweep that ranks the pieces: a search needs both for every
/// entry, and the landings would cost a second sweep.
pub fn choose_piece_and_landings(well: &Well, rules: Rules, memory: Option<&impl Memory>) -> (Piece, Vec<Landing>) {
    PeakSweep::with(well, rules, |sweep| {
        let piece = match memory {
            Some(memory) => choose_with_sweep(well, rules, memory, sweep),
            None => memoryless_choice(sweep.peaks),
        };
        let mut landings = Vec::with_capacity(40);
        sweep.for_each_lock(well, rules, piece, |x, y, o| landings.push(Landing::new(well, piece, x, y, o)));
        keep_distinct_wells(&mut landings);
        (piece, landings)
    })
}

/// `choose_piece` once the peaks are known.
#[inline]
fn choose_with_sweep(well: &Well, rules: Rules, memory: &impl Memory, sweep: &PeakSweep) -> Piece {
    let peaks = ranked(sweep.peaks);
    let hasher = LockHasher::new(well);
    let mut best = peaks[0].1;
    let mut best_loops = u32::MAX;
    for &(_, i) in &peaks {
        let piece = Piece::from_index(i);
        let mut loops = 0;
        // Inlined into the sweep's loop: it runs for every landing.
        sweep.for_each_landing(
            well,
            rules,
            piece,
            #[inline(always)]
            |x, y, o| {
                if loops < best_loops {
                    loops = loops.max(times_seen_after_lock(well, &hasher, memory, piece.shape(o), x, y));
                }
            },
        );
        if loops < best_loops {
            best = i;
            best_loops = loops;
            if loops == 0 {
                break;
            }
        }
    }
    Piece::from_index(best)
}

/// How often `memory` saw the well after locking `shape` at (x, y). Most
/// landings are settled by their hash and the memory's filter alone.
#[inline(always)]
fn times_seen_after_lock(well: &Well, hasher: &LockHasher, memory: &impl Memory, shape: &Shape, x: i32, y: i32) -> u32 {
    match hasher.hash_after_lock(shape, x, y) {
        Some(hash) if !memory.may_have(hash) => 0,
        hash => times_seen_built(well, memory, shape, x, y, hash),
    }
}

/// `times_seen_after_lock` with the well built: for a lock that fills a row
/// (`hash` None) or a hash that passed the filter. About one landing in ten
/// in a real game, so kept out of the landing loop.
#[cold]
#[inline(never)]
fn times_seen_built(well: &Well, memory: &impl Memory, shape: &Shape, x: i32, y: i32, hash: Option<u64>) -> u32 {
    let mut w = *well;
    w.lock(shape, x, y);
    let hash = hash.unwrap_or_else(|| w.hash64());
    if !memory.may_have(hash) {
        return 0;
    }
    memory.times_seen(&w, hash)
}

/// The choice of an enemy with no memory (HATETRIS Mild, or any well no
/// landing of which was ever seen): the lowest peak, then the earliest
/// letter. The same as `choose_piece` with an empty memory, without its
/// second sweep.
pub fn choose_piece_memoryless(well: &Well, rules: Rules) -> Piece {
    memoryless_choice(peaks(well, rules))
}

/// True only when the memoryless enemy's piece for `well` has no landing
/// that clears a line: a few bit tests that spare a chain the seven-piece
/// sweep (`choose_piece_memoryless_and_clears`) in about two of five wells
/// of real games. False says nothing.
///
/// Why it holds. Let `R` be the well's rating (its top row). A landing
/// that clears nothing rates at most `R`; one that clears `k` lines rates
/// at least `min(R, t) + k` for the piece's top row `t`. So a clear with
/// the piece at or below row `R` rates above `R`, and if the enemy's piece
/// had one, its peak would be above `R` and so would every other piece's
/// (the enemy's is the lowest): every piece could clear. Hence, when some
/// piece cannot clear at all (tested below for O and I, whose rows are one
/// slice), the enemy's piece can clear only reaching above row `R`. A
/// piece at most four rows tall then completes row `R` with a slice that
/// is not its top one (a run of one to three cells: four is a lying I,
/// one row tall), `R + 1` (three-tall orientations' bottom slices, one or
/// two cells) or `R + 2` (a standing I, one cell); when none of those rows
/// is such a run, it cannot clear.
pub fn memoryless_piece_cannot_clear(well: &Well, rules: Rules) -> bool {
    let depth = rules.depth();
    let top = well.rating(rules) as usize;
    let rows = &well.rows;
    // Is row `j` empty where `empty` is (rows past the floor are not)?
    let free = |j: usize, empty: u16| j < depth && rows[j] & empty == 0;
    let (mut o_may, mut i_may) = (false, false);
    for (i, &row) in rows.iter().enumerate().take(depth).skip(top) {
        let empty = FULL_ROW & !row;
        // Every piece's slice of a row is one run of cells: a row is
        // completed only when its empty cells are one run of one to four.
        // A run of n cells from bit `low` is `low * (2^n - 1)`, so its
        // length is read by comparisons (no popcount in the base x86_64).
        let low = empty & empty.wrapping_neg();
        if empty == 0 || (empty + low) & empty != 0 || empty >= low << 4 {
            continue;
        }
        let high = i - top;
        if high < 3 && empty < low << (3 - high) {
            return false;
        }
        if empty == low {
            // I standing: four empty cells in this column through row i.
            let above = (1..=3).take_while(|&u| free(i - u, empty)).count();
            let below = (1..=3).take_while(|&u| free(i + u, empty)).count();
            i_may |= above + below >= 3;
        } else if empty == low * 3 {
            // O's rows are two cells: its other row above or below.
            o_may |= free(i - 1, empty) || free(i + 1, empty);
        } else if empty == low * 15 {
            // I lying down.
            i_may = true;
        }
    }
    !(o_may && i_may)
}

/// `choose_piece_memoryless`, and `visit(x, y, o)` for each of that
/// piece's locks that complete a row (`for_each_completing_lock` of it
/// alone, in its order): with AVX2 from the one sweep that found the peaks,
/// which kept every piece's completing locks (a chain that follows the
/// enemy's piece asks both of every well it values).
pub fn choose_piece_memoryless_and_clears(well: &Well, rules: Rules, mut visit: impl FnMut(i32, i32, u8)) -> Piece {
    PeakSweep::with(well, rules, |sweep| {
        let piece = memoryless_choice(sweep.peaks);
        sweep.for_each_completing_lock(well, rules, piece, &mut visit);
        piece
    })
}

/// HATETRIS Mild's choice once the peaks are known: the best-ranked piece.
#[inline]
fn memoryless_choice(peaks: [u8; 7]) -> Piece {
    Piece::from_index(ranked(peaks)[0].1)
}

/// (peak, piece index), best for the enemy first.
#[inline]
fn ranked(by_piece: [u8; 7]) -> [(u8, usize); 7] {
    let mut ranked = [(0u8, 0usize); 7];
    for (i, slot) in ranked.iter_mut().enumerate() {
        *slot = (by_piece[i], i);
    }
    ranked.sort_unstable();
    ranked
}

/// Asks `enemy` for the next piece, updating `memory` as the official game does.
pub fn next_piece(enemy: Enemy, well: &Well, rules: Rules, memory: &mut SeenWells) -> Piece {
    match enemy {
        Enemy::Mild => choose_piece_memoryless(well, rules),
        Enemy::Hatetris => {
            memory.record(well);
            choose_piece(well, rules, memory)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::reference_choose_piece;
    use proptest::prelude::*;
    use rustc_hash::FxHashMap;

    fn random_well(seed: u64, rules: Rules) -> Well {
        let mut rng = seed;
        let mut w = Well::EMPTY;
        let stack = (seed % rules.height() as u64) as usize;
        for i in 0..stack {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            w.rows[rules.depth() - 1 - i] = ((rng >> 20) as u16 & 1023) & !(1 << ((rng >> 40) % 10));
        }
        w
    }

    /// The bit test on the wells real games make (the children of the
    /// recorded games' wells): never wrong, and it spares many sweeps.
    #[test]
    fn the_cannot_clear_test_on_recorded_children() {
        let rules = Rules::STANDARD;
        let (mut children, mut spared, mut clearing) = (0, 0, 0);
        for child in crate::fixtures::recorded_hatetris_children(rules, 7) {
            children += 1;
            let mut clears = false;
            choose_piece_memoryless_and_clears(&child, rules, |_, _, _| clears = true);
            clearing += clears as u32;
            if memoryless_piece_cannot_clear(&child, rules) {
                spared += 1;
                assert!(!clears, "{child:?}");
            }
        }
        // Of the children where the enemy's piece cannot clear, the test
        // finds about two in five.
        assert!(spared * 5 > (children - clearing) * 2, "{spared} of {children} ({clearing} can clear)");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// The two-pass choice agrees with the literal one, with and without
        /// loops in the memory.
        #[test]
        fn fast_choice_matches_the_literal_enemy(seed in any::<u64>(), loops_seed in any::<u64>()) {
            let rules = Rules::STANDARD;
            let well = random_well(seed, rules);
            prop_assert_eq!(choose_piece(&well, rules, &SeenWells::default()), reference_choose_piece(&well, rules, |_| 0));
            prop_assert_eq!(choose_piece_memoryless(&well, rules), reference_choose_piece(&well, rules, |_| 0));
            // A memory holding some of this well's landing wells, with counts.
            let mut memory = SeenWells::default();
            let mut unfiltered = FxHashMap::default();
            for piece in Piece::ALL {
                for (k, l) in crate::sweep::landings(&well, rules, piece).iter().enumerate() {
                    if (loops_seed >> ((piece.index() * 5 + k) % 64)) & 1 == 1 {
                        for _ in 0..=(k % 3) {
                            memory.record(&l.well);
                            *unfiltered.entry(l.well).or_insert(0) += 1;
                        }
                    }
                }
            }
            let expected = reference_choose_piece(&well, rules, |w| memory.count(w));
            prop_assert_eq!(choose_piece(&well, rules, &memory), expected);
            // With the landings, from the same sweep.
            let (piece, landings) = choose_piece_and_landings(&well, rules, Some(&memory));
            prop_assert_eq!(piece, expected);
            prop_assert_eq!(landings, crate::sweep::distinct_landings(&well, rules, piece));
            let (piece, landings) = choose_piece_and_landings(&well, rules, None::<&SeenWells>);
            prop_assert_eq!(piece, choose_piece_memoryless(&well, rules));
            prop_assert_eq!(landings, crate::sweep::distinct_landings(&well, rules, piece));
            // A memory with no filter: every landing is built and looked up.
            prop_assert_eq!(choose_piece(&well, rules, &unfiltered), expected);
        }

        /// Where the bit test says the enemy's piece cannot clear, it
        /// cannot: on short stacks of rows one run of one to four cells
        /// short, random rows and empty rows.
        #[test]
        fn the_enemy_piece_cannot_clear_where_the_test_says_so(seed in any::<u64>(), stack in 1usize..10) {
            let rules = Rules::STANDARD;
            let mut well = Well::EMPTY;
            let mut rng = seed;
            let mut step = || {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                rng >> 33
            };
            for i in 0..stack {
                let row = match step() % 10 {
                    0..=5 => {
                        let (at, len) = (step() % 10, 1 + step() % 4);
                        FULL_ROW & !((((1u32 << len) - 1) << at) as u16 & FULL_ROW)
                    }
                    6..=8 => step() as u16 & FULL_ROW,
                    _ => 0,
                };
                well.rows[rules.depth() - 1 - i] = if row == FULL_ROW { 0 } else { row };
            }
            if memoryless_piece_cannot_clear(&well, rules) {
                let piece = crate::reference::reference_choose_piece(&well, rules, |_| 0);
                for l in crate::sweep::landings(&well, rules, piece) {
                    prop_assert!(l.lines == 0 || l.well.is_game_over(), "{:?}", well);
                }
            }
        }

        /// The piece and its completing locks from the one sweep are the
        /// memoryless choice and that piece's own completing locks, in
        /// order, on stacks of rows one to three cells short.
        #[test]
        fn the_choice_and_its_clears_come_from_one_sweep(seed in any::<u64>(), stack in 1usize..12) {
            let rules = Rules::STANDARD;
            let mut well = Well::EMPTY;
            let mut rng = seed;
            for i in 0..stack {
                let mut row = crate::well::FULL_ROW;
                for _ in 0..1 + (rng >> 60) % 3 {
                    rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    row &= !(1 << ((rng >> 33) % 10));
                }
                well.rows[rules.depth() - 1 - i] = row;
            }
            let mut together = Vec::new();
            let piece = choose_piece_memoryless_and_clears(&well, rules, |x, y, o| together.push((x, y, o)));
            prop_assert_eq!(piece, choose_piece_memoryless(&well, rules));
            let mut apart = Vec::new();
            crate::sweep::for_each_completing_lock(&well, rules, &[piece], |_, x, y, o| apart.push((x, y, o)));
            prop_assert_eq!(together, apart);
        }
    }
}
