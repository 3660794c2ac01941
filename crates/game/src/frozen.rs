//! How fast a game buries its well.
//!
//! `frozen(t)` counts the bottom rows that stay exactly as they are from
//! lock `t` to lock `t + hold` (a clear above them does not move them).
//! A game that lives keeps its well open to the floor and re-opens what it
//! covers; one that dies freezes rows until too few are left to play in.
//! The long public games freeze under one row per 100 pieces (knewjade's
//! 289 lines: 0.75); the engine's games 3 or more, and die with 6-7 frozen
//! (`docs/experiments.md`, frozen). The rate is the least-squares slope of
//! `frozen(t)` over the game, in rows per 100 pieces.

use crate::well::Well;

/// Locks a row must stay unchanged to count as frozen.
pub const HOLD: usize = 50;

/// `frozen(t)` of the wells after each lock of a game (`wells[t]` after
/// lock `t + 1`): the bottom rows equal in all of `wells[t..t + hold]`,
/// which must lie in the game.
pub fn frozen_at(wells: &[Well], t: usize, hold: usize) -> usize {
    let span = &wells[t..t + hold];
    let rows = wells[t].rows.len();
    (0..rows).take_while(|&k| span.iter().all(|w| w.rows[rows - 1 - k] == wells[t].rows[rows - 1 - k])).count()
}

/// Rows frozen per 100 pieces: the slope of `frozen(t)` for every `t` with
/// `hold` locks after it; `None` for a game too short to have two.
pub fn freezing_rate(wells: &[Well], hold: usize) -> Option<f64> {
    let n = wells.len().checked_sub(hold).filter(|&n| n >= 2)?;
    let ys: Vec<f64> = (0..n).map(|t| frozen_at(wells, t, hold) as f64).collect();
    let mx = (n - 1) as f64 / 2.0;
    let my = ys.iter().sum::<f64>() / n as f64;
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (x, y) in ys.iter().enumerate() {
        let dx = x as f64 - mx;
        sxy += dx * (y - my);
        sxx += dx * dx;
    }
    Some(100.0 * sxy / sxx)
}

/// For each bottom row that is filled at all at the game's end, from the
/// floor up, the lock after which it never changed again (1 for a row
/// that never did). A game that dies has buried these rows one by one;
/// when each was buried says where its search lost the well, which a
/// single rate averages away.
pub fn rows_frozen_at(wells: &[Well]) -> Vec<usize> {
    let Some(last) = wells.last() else { return Vec::new() };
    let rows = last.rows.len();
    (0..rows)
        .map(|k| rows - 1 - k)
        .take_while(|&r| last.rows[r] != 0)
        .map(|r| wells.iter().rposition(|w| w.rows[r] != last.rows[r]).map_or(1, |t| t + 2))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::well::MAX_DEPTH;

    fn well(bottom: &[u16]) -> Well {
        let mut rows = [0; MAX_DEPTH];
        for (k, &r) in bottom.iter().enumerate() {
            rows[MAX_DEPTH - 1 - k] = r;
        }
        Well::from_rows(rows)
    }

    /// Row 0 never changes, row 1 changes at lock 3, row 2 at lock 1, and
    /// row 3 (the surface) at every lock.
    fn game() -> Vec<Well> {
        (0..8u16)
            .map(|t| well(&[0b1, if t < 3 { 0b10 } else { 0b110 }, if t < 1 { 0b100 } else { 0b1100 }, t]))
            .collect()
    }

    #[test]
    fn frozen_counts_the_bottom_rows_that_hold() {
        let g = game();
        assert_eq!(frozen_at(&g, 0, 2), 2, "row 2 changes at lock 1");
        assert_eq!(frozen_at(&g, 0, 3), 2);
        assert_eq!(frozen_at(&g, 0, 4), 1, "row 1 changes at lock 3");
        assert_eq!(frozen_at(&g, 3, 5), 3, "from lock 3 on only the surface moves");
    }

    #[test]
    fn each_filled_row_is_frozen_from_its_last_change() {
        let g = game();
        // wells[t] is after lock t + 1: row 1 last changed at wells[3]
        // (lock 4), row 2 at wells[1] (lock 2), the surface at every lock.
        assert_eq!(rows_frozen_at(&g), vec![1, 4, 2, 8]);
        let mut g = g;
        g.push(well(&[0b1, 0b110]));
        assert_eq!(rows_frozen_at(&g), vec![1, 4], "an empty row ends the list");
        assert_eq!(rows_frozen_at(&[]), Vec::<usize>::new());
    }

    #[test]
    fn the_rate_is_the_slope_per_hundred_pieces() {
        let g = game();
        let ys: Vec<usize> = (0..6).map(|t| frozen_at(&g, t, 2)).collect();
        assert_eq!(ys, vec![2, 3, 1, 3, 3, 3]);
        let r = freezing_rate(&g, 2).unwrap();
        // Least squares over x = 0..6: mean x 2.5, mean y 15/6, sxx 17.5.
        let (mx, my) = (2.5, 15.0 / 6.0);
        let sxy: f64 = ys.iter().enumerate().map(|(x, &y)| (x as f64 - mx) * (y as f64 - my)).sum();
        assert!((r - 100.0 * sxy / 17.5).abs() < 1e-9, "{r}");
        assert_eq!(freezing_rate(&g[..3], 2), None, "one t only");
    }

    /// knewjade's 289-line game freezes 0.75 rows per 100 pieces (the
    /// figure `docs/runs/tall/frozen.py` gives from its trace).
    #[test]
    fn the_record_game_freezes_slowly() {
        use crate::{fixtures::known_replays, play, replay::decode, Enemy, Rules};
        let known = known_replays().into_iter().find(|k| k.expected_score == 289).expect("the 289-line game");
        let keys = decode(&known.replay).unwrap();
        let mut wells = Vec::new();
        play(Rules::STANDARD, Enemy::Hatetris, &keys, |g, _| wells.push(*g.well()));
        assert_eq!(wells.len(), 752);
        let r = freezing_rate(&wells, HOLD).unwrap();
        assert!((r - 0.75).abs() < 0.005, "{r}");
        // Its bottom rows were buried from piece 243 on, one every 60-140
        // pieces (docs/runs/gen-b/README.md has the table).
        assert_eq!(rows_frozen_at(&wells)[..4], [243, 316, 453, 576]);
    }
}
