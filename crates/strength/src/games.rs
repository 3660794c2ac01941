//! Full games from the empty well, many of them: the yardstick for what the
//! suite cannot see. The suite's starts all come after piece 100 of the
//! public games, but a game of ours is mostly decided between pieces 25
//! and 50 (`docs/experiments.md`, mc), and one game at one width swings by
//! a quarter. Here game `i` opens with `open` pieces of a search over the
//! evaluator's values with seeded noise (`Noisy`, salt from `seed` and
//! `i`), so the games differ, and is searched on without noise until it
//! ends. Two evaluators' games are not paired (their openings differ), so
//! they are compared by Welch's interval.

use crate::stats::{mean, t_975};
use crate::suite::{ENEMY, RULES};
use hatetris_eval::{Evaluator, Noisy};
use hatetris_game::frozen::{freezing_rate, HOLD};
use hatetris_game::replay::Format;
use hatetris_game::Well;
use hatetris_search::{run, verified_replay, BeamState, Chains, LineError, Move, SearchConfig};

/// How the games are played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GamesConfig {
    pub games: usize,
    pub width: usize,
    /// Pieces of each game's noisy opening.
    pub open: usize,
    /// The noise's amplitude: values move by up to this much.
    pub noise: f32,
    pub seed: u64,
    /// The clear chains of the searches.
    pub chains: Chains,
}

/// One game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    pub pieces: usize,
    pub lines: u32,
    /// Rows frozen per 100 pieces (`hatetris_game::frozen`).
    pub frozen_per_100: Option<f64>,
    pub line: Vec<Move>,
    /// The line as a Base2048 replay, the one the engine played to score it.
    pub replay: String,
    /// The well the game ended in.
    pub last_well: Well,
}

/// The salt of game `i`'s noise (and its search's tie-break seed): distinct
/// per game and per seed.
pub fn game_salt(seed: u64, i: usize) -> u64 {
    (seed ^ 0x05EE_D0F6_A4E5).wrapping_add((i as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D))
}

/// The moves of an opening: `pieces` pieces of a beam (`config`'s width
/// and settings) over `eval`'s values plus seeded noise of `noise`. A beam,
/// not a greedy line: a line of width 1 dies within a few dozen pieces
/// against this enemy, noise or not. No pieces, no moves (a `max_depth` of
/// 0 would mean the whole game).
pub fn noisy_opening(eval: &dyn Evaluator, config: &SearchConfig, pieces: usize, noise: f32, salt: u64) -> Vec<Move> {
    if pieces == 0 {
        return Vec::new();
    }
    let opening = SearchConfig { max_depth: pieces, seed: salt, ..config.clone() };
    let mut line = BeamState::new();
    run(&mut line, &opening, &Noisy::new(eval, noise, salt), &mut |_| true);
    line.result().moves
}

/// Plays `config.games` games (one after another, each search on every
/// thread), calling `progress(done, total)` after each.
pub fn play_games(
    eval: &dyn Evaluator,
    config: &GamesConfig,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<GameResult>, LineError> {
    let mut out = Vec::with_capacity(config.games);
    for i in 0..config.games {
        let salt = game_salt(config.seed, i);
        let search = SearchConfig {
            width: config.width,
            rules: RULES,
            enemy: ENEMY,
            seed: salt,
            quiescence: config.chains.depth,
            chain_rule: config.chains.rule,
            chain_band: config.chains.band,
            chain_blend: config.chains.blend,
            chain_follow: config.chains.follow,
            ..Default::default()
        };
        let opening = noisy_opening(eval, &search, config.open, config.noise, salt);
        let mut state = BeamState::from_moves(&opening, RULES, ENEMY)?;
        run(&mut state, &search, eval, &mut |_| true);
        let line = state.result().moves;
        let verified = verified_replay(RULES, ENEMY, &line, Format::Base2048)?;
        out.push(GameResult {
            pieces: line.len(),
            lines: verified.score,
            frozen_per_100: freezing_rate(&verified.wells, HOLD),
            last_well: verified.wells.last().copied().unwrap_or_default(),
            replay: verified.replay,
            line,
        });
        progress(i + 1, config.games);
    }
    Ok(out)
}

/// The means of a set of games.
#[derive(Clone, Debug, PartialEq)]
pub struct GamesSummary {
    pub mean_lines: f64,
    pub mean_pieces: f64,
    /// Over the games long enough to have a rate (NaN if none is).
    pub mean_frozen_per_100: f64,
    /// Games that end alike (the same well after the same pieces and
    /// lines) count once: they merged on the way. After their noisy
    /// openings, a network's searches fall into a few lines of its own
    /// (boot 16: 40 games, 17 endings), so the mean is over fewer
    /// different games than `games` says.
    pub distinct: usize,
}

fn lines(games: &[GameResult]) -> Vec<f64> {
    games.iter().map(|g| g.lines as f64).collect()
}

fn pieces(games: &[GameResult]) -> Vec<f64> {
    games.iter().map(|g| g.pieces as f64).collect()
}

pub fn summarize_games(games: &[GameResult]) -> GamesSummary {
    let frozen: Vec<f64> = games.iter().filter_map(|g| g.frozen_per_100).collect();
    GamesSummary {
        mean_lines: mean(&lines(games)),
        mean_pieces: mean(&pieces(games)),
        mean_frozen_per_100: mean(&frozen),
        distinct: games
            .iter()
            .map(|g| (g.last_well, g.pieces, g.lines))
            .collect::<std::collections::HashSet<_>>()
            .len(),
    }
}

/// Two evaluators' games compared, `a` minus `b`: (pieces, lines).
pub fn compare_games(a: &[GameResult], b: &[GameResult]) -> (Unpaired, Unpaired) {
    (welch(&pieces(a), &pieces(b)), welch(&lines(a), &lines(b)))
}

/// Two independent samples' difference of means, `a` minus `b`, with
/// Welch's 95% interval (Welch-Satterthwaite degrees of freedom).
#[derive(Clone, Debug, PartialEq)]
pub struct Unpaired {
    pub mean_a: f64,
    pub mean_b: f64,
    pub diff: f64,
    /// NaN with fewer than two values on a side.
    pub ci95: (f64, f64),
}

pub fn welch(a: &[f64], b: &[f64]) -> Unpaired {
    let var = |v: &[f64], m: f64| v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() as f64 - 1.0);
    let (ma, mb) = (mean(a), mean(b));
    let diff = ma - mb;
    let ci95 = if a.len() >= 2 && b.len() >= 2 {
        let (sa, sb) = (var(a, ma) / a.len() as f64, var(b, mb) / b.len() as f64);
        let se = (sa + sb).sqrt();
        let df = if se > 0.0 {
            (sa + sb).powi(2) / (sa * sa / (a.len() - 1) as f64 + sb * sb / (b.len() - 1) as f64)
        } else {
            (a.len() + b.len() - 2) as f64
        };
        let half = t_975((df.floor() as usize).max(1)) * se;
        (diff - half, diff + half)
    } else {
        (f64::NAN, f64::NAN)
    };
    Unpaired { mean_a: ma, mean_b: mb, diff, ci95 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hatetris_eval::Network;
    use hatetris_search::replay_line;

    #[test]
    fn welch_on_a_worked_example() {
        // a: mean 3, variance 2.5; b: mean 1, variance 0.625; n 5 each.
        let a = [1.0, 2.0, 3.0, 4.0, 5.0];
        let b = [0.0, 0.5, 1.0, 1.5, 2.0];
        let u = welch(&a, &b);
        let (va, vb): (f64, f64) = (2.5 / 5.0, 0.625 / 5.0);
        let df = (va + vb) * (va + vb) / (va * va / 4.0 + vb * vb / 4.0);
        let half = t_975(df.floor() as usize) * (va + vb).sqrt();
        assert!((u.diff - 2.0).abs() < 1e-12);
        assert!((u.ci95.0 - (2.0 - half)).abs() < 1e-12 && (u.ci95.1 - (2.0 + half)).abs() < 1e-12, "{u:?}");
        assert!(welch(&[1.0], &b).ci95.0.is_nan());
    }

    /// The same seed gives the same games; another seed other openings;
    /// every line replays and the records agree with it.
    #[test]
    fn games_are_reproducible_from_the_seed() {
        let net = Network::embedded_default();
        let config = GamesConfig { games: 3, width: 20, open: 8, noise: 0.5, seed: 4, chains: Chains::default() };
        let a = play_games(&net, &config, &mut |_, _| {}).unwrap();
        let b = play_games(&net, &config, &mut |_, _| {}).unwrap();
        assert_eq!(a, b);
        assert!(a[0].line != a[1].line, "the noise differs per game");
        let c = play_games(&net, &GamesConfig { seed: 5, ..config }, &mut |_, _| {}).unwrap();
        let plain = play_games(&net, &GamesConfig { open: 0, games: 1, ..config }, &mut |_, _| {}).unwrap();
        let beam = hatetris_search::search(
            &SearchConfig { width: 20, seed: game_salt(4, 0), ..Default::default() },
            &net,
            &mut |_| {},
        );
        assert_eq!(plain[0].line, beam.moves, "no opening: the plain search of the game's seed");
        let chained = play_games(
            &net,
            &GamesConfig { open: 0, games: 1, chains: Chains { depth: 1, ..Chains::default() }, ..config },
            &mut |_, _| {},
        )
        .unwrap();
        let beam = hatetris_search::search(
            &SearchConfig { width: 20, seed: game_salt(4, 0), quiescence: 1, ..Default::default() },
            &net,
            &mut |_| {},
        );
        assert_eq!(chained[0].line, beam.moves, "the chains' depth reaches the search");
        assert!(c.iter().zip(&a).any(|(x, y)| x.line[..8] != y.line[..8]), "another seed, other openings");
        for g in &a {
            let mut last = Well::default();
            let end = replay_line(RULES, ENEMY, &g.line, |_, w, _| last = *w).unwrap();
            assert_eq!((g.pieces, g.lines, g.last_well), (g.line.len(), end.score, last));
            let keys = hatetris_game::replay::decode(&g.replay).unwrap();
            assert_eq!(hatetris_search::moves_for_keys(RULES, ENEMY, &keys), g.line, "the replay is the line");
        }
    }

    /// Games count as one when they end alike, whatever their openings.
    #[test]
    fn distinct_counts_games_that_end_alike_once() {
        let net = Network::embedded_default();
        let config = GamesConfig { games: 2, width: 20, open: 8, noise: 0.5, seed: 4, chains: Chains::default() };
        let mut games = play_games(&net, &config, &mut |_, _| {}).unwrap();
        assert_ne!(games[0].last_well, games[1].last_well);
        assert_eq!(summarize_games(&games).distinct, 2);
        let mut merged = games[1].clone();
        merged.line = games[0].line.clone();
        merged.last_well = games[0].last_well;
        (merged.pieces, merged.lines) = (games[0].pieces, games[0].lines);
        games.push(merged);
        assert_eq!(summarize_games(&games).distinct, 2);
        games[2].pieces += 1;
        assert_eq!(summarize_games(&games).distinct, 3, "the same well after other pieces is another ending");
    }
}
