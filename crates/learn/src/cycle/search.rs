//! A cycle's search step: the master game at the run's width, its beams
//! sampled depth by depth, saved as it goes so that a killed search goes
//! on from its last save.

use super::config::CycleConfig;
use super::error::CycleError;
use super::events::CycleEvent;
use super::resume::{self, SamplerState};
use super::spread::Spread;
use crate::dataset::{DatasetWriter, Sample};
use hatetris_eval::Evaluator;
use hatetris_game::frozen::{freezing_rate, rows_frozen_at, HOLD};
use hatetris_game::{choose_piece_and_landings, Enemy, Rules, Well};
use hatetris_search::{
    moves_for_keys, quiescence::chain_values, verified_replay, BeamState, Blend, ChainRule, Chains, Move, SearchConfig,
};
use hatetris_strength::games::noisy_opening;
use hatetris_strength::Suite;
use rand::seq::index::sample;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// The search step's record (search.json), and what `sample_game` returns.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SearchRecord {
    /// Lines of the searched game (its replay verified).
    pub lines: u32,
    pub pieces: usize,
    /// The game's Base2048 replay.
    pub replay: String,
    /// Wells written to the samples file.
    pub wells_sampled: usize,
    /// Every how many sampled wells one was written (`sample_only_refined`:
    /// the refine's `every`; 1 when all were).
    #[serde(default = "super::config::one", skip_serializing_if = "super::config::is_one")]
    pub sampled_every: usize,
    pub search_secs: f64,
    #[serde(default)]
    pub starts_pieces: Option<f64>,
    /// Lines of each opening's game (`openings`).
    #[serde(default)]
    pub opening_lines: Vec<u32>,
    /// The piece the master search went on from (`master_from_end`: the
    /// game's first pieces are the last cycle's game's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_piece: Option<usize>,
    /// Lines of the game the network before searched again (`retry_below`).
    #[serde(default)]
    pub retry_lines: Option<u32>,
    /// Rows the game froze per 100 pieces (`hatetris_game::frozen`).
    #[serde(default)]
    pub frozen_per_100: Option<f64>,
    /// The beam width of the searched game.
    #[serde(default)]
    pub width: Option<usize>,
    /// Its chains' depth and band.
    #[serde(default)]
    pub chains: Option<(u32, u32)>,
    /// Its chains' rule.
    #[serde(default)]
    pub chain_rule: Option<ChainRule>,
    /// Its chains' blend.
    #[serde(default)]
    pub chain_blend: Option<Blend>,
    /// Its chains' follow, when not 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_follow: Option<u32>,
}

impl SearchRecord {
    /// The refine's wells among the `wells_sampled` written, every
    /// `every`-th of all sampled: every `every / sampled_every`-th written.
    /// Err when `every` is not a multiple of the stride written (a refine
    /// retuned to take wells the search did not keep).
    pub fn refine_stride(&self, every: usize) -> Result<usize, CycleError> {
        let kept = self.sampled_every.max(1);
        if !every.is_multiple_of(kept) {
            return Err(CycleError::Invalid(format!(
                "the search kept every {kept}th sampled well (sample_only_refined), so refine_every must be a multiple of {kept}, not {every}"
            )));
        }
        Ok(every / kept)
    }
}

/// The moves the master search goes on from: the last cycle's game
/// (`last_replay`) but for its last `master_from_end` pieces; none with
/// the setting at 0, in a run's first cycle, or when that game was not
/// longer.
pub(super) fn master_prefix(
    config: &CycleConfig,
    rules: Rules,
    last_replay: Option<&str>,
) -> Result<Vec<Move>, CycleError> {
    let (n, Some(replay)) = (config.master_from_end, last_replay) else {
        return Ok(Vec::new());
    };
    if n == 0 {
        return Ok(Vec::new());
    }
    let keys = hatetris_game::replay::decode(replay)
        .map_err(|e| CycleError::Invalid(format!("the game the master search goes on from does not decode: {e}")))?;
    let mut moves = moves_for_keys(rules, Enemy::Hatetris, &keys);
    moves.truncate(moves.len().saturating_sub(n));
    Ok(moves)
}

/// Refuses a run's first game (`run_recipe_on`) that its first master
/// search would not go on from: `master_from_end` at 0 in the run's first
/// generation, a text that is not a replay, or a game not longer than
/// `master_from_end` pieces.
/// `rules` are the run's (`CycleConfig::validate`'s).
pub(super) fn check_first_game(config: &CycleConfig, rules: Rules, game: &str) -> Result<(), CycleError> {
    let n = config.master_from_end;
    if n == 0 {
        return Err(CycleError::Invalid(
            "a first game is gone on from only with master_from_end set in the run's first generation".into(),
        ));
    }
    let prefix = master_prefix(config, rules, Some(game))?;
    if prefix.is_empty() {
        return Err(CycleError::Invalid(format!("the first game is not longer than master_from_end ({n} pieces)")));
    }
    BeamState::from_moves(&prefix, rules, Enemy::Hatetris)
        .map_err(|e| CycleError::Invalid(format!("the first game does not replay: {e}")))?;
    Ok(())
}

/// A cycle's search step on its own: one game from the empty well (the
/// official 16 rows, the HATETRIS enemy) at `config.width`, with up to
/// `config.samples_per_depth` of each depth's beam entries written to `out`
/// as a data set, as the cycle samples them, and `config.openings` games
/// opened with noise besides it (as the cycle's `openings`). Distillation
/// (`label`) needs wells and not targets, so any evaluator's wells serve,
/// and wells of the kind a cycle samples come from a network file alone
/// (the same bytes as a cycle's only at that cycle's seed). Only the
/// search step's fields of `config` are read.
pub fn sample_game(
    spread: &mut dyn Spread,
    eval: &Arc<dyn Evaluator>,
    eval_name: &str,
    config: &CycleConfig,
    out: &Path,
    on_depth: &mut dyn FnMut(&hatetris_search::DepthReport),
) -> Result<SearchRecord, CycleError> {
    let mut on_event = |e: CycleEvent| {
        if let CycleEvent::SearchDepth { report, .. } = e {
            on_depth(report)
        }
    };
    let net = (eval, eval_name);
    // One search, saved nowhere: its folder is the user's, not a run's.
    let config = CycleConfig { checkpoint_entries: 0, ..config.clone() };
    search_step(spread, &config, Rules::STANDARD, None, &[], net, None, config.seed, 0, out, &mut on_event)
}

/// Draws the search step's samples from each depth's beam.
struct Sampler<'a> {
    config: &'a CycleConfig,
    /// The search's evaluator, to value children as the search does.
    net: &'a dyn Evaluator,
    /// With `sample_band`: the children sampled at the last depth, with
    /// their family's number and search value, until the next depth's cut
    /// is known.
    pending: Vec<(Well, f32, f32)>,
    /// Families (sampled entries whose children were taken) so far.
    families: u32,
    /// The run's rules: the game's and the starts' (both 16 rows with starts).
    rules: Rules,
    rng: ChaCha8Rng,
    /// Wells a depth of the search being sampled.
    per_depth: usize,
    writer: DatasetWriter,
    /// Write one sampled well in this many (`sample_only_refined`), and
    /// the wells sampled so far, written or not.
    stride: u64,
    seen: u64,
    /// Every sample written, for the step's saves (tens of MB at the
    /// record engine's scale).
    kept: Vec<Sample>,
    error: Option<CycleError>,
}

impl Sampler<'_> {
    /// Samples `state`'s beam; false stops the search after a write error.
    fn take(&mut self, state: &BeamState) -> bool {
        let rules = self.rules;
        let band = self.config.sample_children && self.config.sample_band > 0.0;
        if band {
            let pending = std::mem::take(&mut self.pending);
            let values = state.beam.iter().map(|e| e.value);
            if let (Some(cut), Some(top)) = (values.clone().reduce(f32::min), values.reduce(f32::max)) {
                let floor = cut - self.config.sample_band * (top - cut);
                for (w, family, _) in pending.into_iter().filter(|&(_, _, v)| v >= floor) {
                    if !self.write(&w, family) {
                        return false;
                    }
                }
            }
        }
        let k = self.per_depth.min(state.beam.len());
        let mut picks = sample(&mut self.rng, state.beam.len(), k).into_vec();
        picks.sort_unstable();
        for i in picks {
            let e = &state.beam[i];
            // A child's value is refine's business: its sample carries the
            // number of its family (the children of one entry, written
            // together), which the relative, family and joint targets
            // need. Numbers stay exact
            // in an f32 up to 2^24 families a cycle.
            let wells: Vec<(Well, f32)> = if self.config.sample_children {
                self.families += 1;
                let family = self.families as f32;
                let memory = state.tree.memory_at(e.node);
                // The landings are distinct wells already.
                let (_, landings) = choose_piece_and_landings(&e.well, rules, Some(&memory));
                landings.into_iter().filter(|l| !l.well.is_game_over()).map(|l| (l.well, family)).collect()
            } else {
                vec![(e.well, e.value)]
            };
            if band {
                let children: Vec<Well> = wells.iter().map(|&(w, _)| w).collect();
                let mut values = vec![0.0; children.len()];
                let chains = Chains {
                    rule: self.config.chain_rule,
                    depth: self.config.quiescence,
                    band: 0,
                    blend: self.config.chain_blend,
                    follow: self.config.chain_follow,
                };
                chain_values(self.net, rules, Some(&e.well), &children, chains, &mut values);
                self.pending.extend(wells.into_iter().zip(values).map(|((w, family), v)| (w, family, v)));
                continue;
            }
            for (w, value) in wells {
                if !self.write(&w, value) {
                    return false;
                }
            }
        }
        true
    }

    /// Writes one sample; false (the error kept) if the write failed.
    fn write(&mut self, well: &Well, value: f32) -> bool {
        self.seen += 1;
        if !(self.seen - 1).is_multiple_of(self.stride) {
            return true;
        }
        let sample = Sample::new(well.playable(self.rules), value);
        if let Err(err) = self.writer.push(&sample) {
            self.error = Some(err.into());
            return false;
        }
        self.kept.push(sample);
        true
    }

    /// The state a save keeps.
    fn state(&self, secs: f64) -> SamplerState {
        SamplerState {
            secs,
            word_pos: self.rng.get_word_pos(),
            families: self.families,
            seen: self.seen,
            stride: self.stride,
            pending: self.pending.clone(),
            samples: self.kept.clone(),
        }
    }

    /// Takes up a saved state: the samples written again, the stream and
    /// the families where they were.
    fn restore(&mut self, saved: SamplerState) -> Result<(), CycleError> {
        for sample in &saved.samples {
            self.writer.push(sample)?;
        }
        self.kept = saved.samples;
        self.rng.set_word_pos(saved.word_pos);
        self.families = saved.families;
        self.seen = saved.seen;
        self.pending = saved.pending;
        Ok(())
    }
}

/// An evaluator and the name that identifies it to the peers of a spread run.
pub(super) type Named<'a> = (&'a Arc<dyn Evaluator>, &'a str);

#[allow(clippy::too_many_arguments)]
pub(super) fn search_step(
    spread: &mut dyn Spread,
    config: &CycleConfig,
    rules: Rules,
    starts: Option<&Suite>,
    prefix: &[Move],
    (net, net_name): Named,
    retry: Option<(Named, u32)>,
    seed: u64,
    cycle: usize,
    samples_path: &Path,
    on_event: &mut dyn FnMut(CycleEvent),
) -> Result<SearchRecord, CycleError> {
    let search = SearchConfig {
        width: config.width,
        rules,
        enemy: hatetris_game::Enemy::Hatetris,
        quiescence: config.quiescence,
        chain_rule: config.chain_rule,
        chain_band: config.chain_band,
        chain_blend: config.chain_blend,
        chain_follow: config.chain_follow,
        seed,
        twins: 1,
        max_depth: config.max_depth,
    };
    let mut sampler = Sampler {
        config,
        net: net.as_ref(),
        pending: Vec::new(),
        families: 0,
        rules,
        rng: ChaCha8Rng::seed_from_u64(seed),
        per_depth: config.samples_per_depth,
        writer: DatasetWriter::create(samples_path, &format!("search cycle {cycle}"))?,
        stride: if config.sample_only_refined { config.refine.every.max(1) as u64 } else { 1 },
        seen: 0,
        kept: Vec::new(),
        error: None,
    };
    // The master game goes on from the last save every process holds.
    let dir = samples_path.parent().unwrap_or(Path::new("."));
    let every = config.checkpoint_depths();
    // A save of a search from another start is another search's.
    let save_name = if prefix.is_empty() { net_name.to_string() } else { format!("{net_name} from {}", prefix.len()) };
    let mut saves = if every > 0 { resume::load(dir, &search, &save_name) } else { Vec::new() };
    // A save that kept another share of the samples is another search's.
    saves.retain(|s| s.sampler.stride == sampler.stride);
    let mine = saves.first().map_or(0, |s| s.search.state.depth as u64 + 1);
    let agreed = spread.least(mine).map_err(CycleError::Spread)?;
    let at = saves.iter().position(|s| s.search.state.depth as u64 + 1 == agreed);
    let all_hold = spread.least(at.is_some() as u64).map_err(CycleError::Spread)? == 1;
    let (mut state, secs_before) = match at {
        Some(k) if all_hold => {
            let saved = saves.swap_remove(k);
            let secs = saved.sampler.secs;
            sampler.restore(saved.sampler)?;
            let (depth, lines) = (saved.search.state.depth, saved.search.state.best_score);
            on_event(CycleEvent::SearchResumed { cycle, depth, lines });
            (saved.search.state, secs)
        }
        _ => (BeamState::from_moves(prefix, rules, search.enemy)?, 0.0),
    };
    drop(saves);
    let alone = spread.processes() == 1;
    let t = Instant::now();
    let secs = |t: Instant| secs_before + t.elapsed().as_secs_f64();
    // A search whose beams are sampled, depth by depth, with progress; the
    // master game's (`save`) saved every `every` depths and at its end.
    let mut sampled =
        |state: &mut BeamState, sampler: &mut Sampler, search: &SearchConfig, (eval, name): Named, save: bool| {
            if state.depth == 0 || !save {
                sampler.pending.clear();
            }
            spread
                .search(state, search, eval, name, true, &mut |report, s| {
                    on_event(CycleEvent::SearchDepth { cycle, report });
                    let s = s.expect("every state was asked for");
                    if !sampler.take(s) {
                        return false;
                    }
                    if save && every > 0 && (s.depth % every == 0 || s.is_finished(search)) {
                        if let Err(e) = resume::save(dir, search, &save_name, s, &sampler.state(secs(t))) {
                            sampler.error = Some(e);
                            return false;
                        }
                        if let Some(saved) = saved_event(cycle, rules, search.enemy, s) {
                            on_event(saved);
                        }
                        // A stop asked for is taken at a save (alone: spread
                        // peers would wait for this process's beam).
                        if alone && !s.is_finished(search) && super::stop::stop_requested() {
                            sampler.error = Some(CycleError::Stopped);
                            return false;
                        }
                    }
                    true
                })
                .map_err(CycleError::Spread)?;
            Ok::<u32, CycleError>(state.best_score)
        };
    let lines = sampled(&mut state, &mut sampler, &search, (net, net_name), true)?;
    if let Some(e) = sampler.error.take() {
        return Err(e);
    }
    let mut retry_lines = None;
    if let Some((before, last_lines)) = retry {
        if (lines as f32) < config.retry_below * last_lines as f32 {
            let mut s = BeamState::from_moves(prefix, rules, search.enemy)?;
            retry_lines = Some(sampled(&mut s, &mut sampler, &search, before, false)?);
        }
    }
    let mut starts_pieces = None;
    if let Some(suite) = starts {
        let from_start = SearchConfig { max_depth: config.start_pieces, ..search.clone() };
        let mut total = 0usize;
        for start in &suite.starts {
            if sampler.error.is_some() {
                break;
            }
            let mut s = BeamState::from_moves(&start.moves, rules, search.enemy)?;
            sampled(&mut s, &mut sampler, &from_start, (net, net_name), false)?;
            total += s.pieces_survived();
        }
        starts_pieces = Some(total as f64 / suite.starts.len() as f64);
    }
    let mut opening_lines = Vec::new();
    for k in 1..=config.openings {
        if sampler.error.is_some() {
            break;
        }
        let salt = seed ^ (k as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
        let width = if config.opening_width > 0 { config.opening_width } else { config.width };
        let on = SearchConfig { width, seed: salt, ..search.clone() };
        let moves = noisy_opening(net.as_ref(), &on, config.opening_pieces, config.opening_noise, salt);
        let mut s = BeamState::from_moves(&moves, rules, search.enemy)?;
        sampler.per_depth = if config.opening_samples > 0 { config.opening_samples } else { config.samples_per_depth };
        opening_lines.push(sampled(&mut s, &mut sampler, &on, (net, net_name), false)?);
    }
    if let Some(e) = sampler.error {
        return Err(e);
    }
    sampler.writer.finish()?;
    let result = state.result();
    let verified = verified_replay(rules, search.enemy, &result.moves, hatetris_game::replay::Format::Base2048)?;
    Ok(SearchRecord {
        lines: verified.score,
        pieces: result.moves.len(),
        replay: verified.replay,
        wells_sampled: sampler.kept.len(),
        sampled_every: sampler.stride as usize,
        search_secs: secs(t),
        starts_pieces,
        opening_lines,
        retry_lines,
        from_piece: (!prefix.is_empty()).then_some(prefix.len()),
        frozen_per_100: freezing_rate(&verified.wells, HOLD),
        width: Some(config.width),
        chains: Some((config.quiescence, config.chain_band)),
        chain_rule: Some(config.chain_rule),
        chain_blend: Some(config.chain_blend),
        chain_follow: (config.chain_follow > 0).then_some(config.chain_follow),
    })
}

/// What a save reports of the best line so far (`CycleEvent::SearchSaved`):
/// a few milliseconds of replay every few minutes, so that a long master
/// search shows early where it buries its well. None if the line does not
/// replay, which the search's own end reports as an error.
fn saved_event(cycle: usize, rules: Rules, enemy: Enemy, s: &BeamState) -> Option<CycleEvent<'static>> {
    let best = s.result();
    let wells = verified_replay(rules, enemy, &best.moves, hatetris_game::replay::Format::Base2048).ok()?.wells;
    let pieces = wells.len();
    let rows_held = rows_frozen_at(&wells).into_iter().take_while(|&t| t + HOLD <= pieces).collect();
    Some(CycleEvent::SearchSaved { cycle, depth: s.depth, lines: best.score, pieces, rows_held })
}
