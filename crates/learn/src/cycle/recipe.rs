//! A recipe: every setting of a generation and a schedule (from generation
//! N on, these settings), as `hatetris cycle --recipe FILE` reads it (TOML;
//! `docs/recipes.md`). A run keeps the recipe it follows in its folder
//! (`recipe.toml`, with a version and a checksum in its first line), and
//! each cycle's settings (config.json) are the recipe's for that cycle's
//! generation.

use super::config::{CycleConfig, RETUNABLE};
use super::error::{io, CycleError};
use super::refine::TargetKind;
use hatetris_fileio::write_atomically;
use hatetris_search::{Blend, ChainRule};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Generation G's seed is the recipe's seed plus G times this.
pub const SEED_STEP: u64 = 0x9E37_79B9;

/// The recipe file a run keeps.
pub const RECIPE_FILE: &str = "recipe.toml";

/// The first line of a stored recipe, before its checksum.
const STORED_HEADER: &str = "# hatetris run recipe, format 1, crc32 ";

/// Generations a schedule may name (far beyond any run: one takes hours).
pub const MAX_GENERATION: usize = 100_000;

/// The settings of a generation, each optional: what a recipe's
/// `[settings]` and each `[from.N]` table may set. Unknown keys are refused.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Master search: beam width.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<usize>,
    /// Wells sampled from each depth's beam.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub samples: Option<usize>,
    /// Clear-chain depth of the master search (0: off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quiescence: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chain_rule: Option<ChainRule>,
    /// Chain the best `chain_band` x width candidates (0: every one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chain_band: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chain_blend: Option<Blend>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chain_follow: Option<u32>,
    /// Stop the master search after this many pieces (0: the game's end).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<usize>,
    /// Search the master game on from the last one this many pieces before
    /// its end (0: from the empty well).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub master_from_end: Option<usize>,
    /// Search again with the network before when a game makes fewer lines
    /// than this share of the last one's (0: never).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_below: Option<f32>,
    /// Refine: lookahead width, depth, every k-th well, chains, step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refine_width: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refine_depth: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refine_every: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refine_quiescence: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refine_step: Option<f32>,
    /// Learn: generations of wells read, most epochs, batch, Adam step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_epochs: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batch: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lr: Option<f32>,
    /// The suite measurement of each trained network (width 0: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suite_width: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suite_pieces: Option<usize>,
    /// Playable rows of the searched and refined games (16: official).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<usize>,
    /// Write only the sampled wells the refine step takes (the same
    /// targets, a `refine_every`-th of the samples and of the saves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample_only_refined: Option<bool>,
    /// Entries the master search expands between two saves (0: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checkpoint_entries: Option<u64>,
    // Experiments that lost (docs/experiments.md): kept as recipe keys
    // only, off by default; no shipped recipe sets them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<TargetKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gamma: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample_children: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample_band: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub students: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub teacher_window: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openings: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening_pieces: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening_noise: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening_width: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening_samples: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor: Option<Vec<PathBuf>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor_samples: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starts: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_pieces: Option<usize>,
}

macro_rules! apply {
    ($s:expr, $c:expr, $($key:ident => $($field:ident).+),* $(,)?) => {
        $(if let Some(v) = &$s.$key { $c.$($field).+ = v.clone(); })*
    };
}

impl Settings {
    /// `config` with the settings this table gives.
    fn apply(&self, c: &mut CycleConfig) {
        apply!(self, c,
            width => width, samples => samples_per_depth, quiescence => quiescence,
            chain_rule => chain_rule, chain_band => chain_band, chain_blend => chain_blend,
            chain_follow => chain_follow, max_depth => max_depth, retry_below => retry_below,
            refine_width => refine.width, refine_depth => refine.depth, refine_every => refine.every,
            refine_quiescence => refine.quiescence, refine_step => refine.step,
            history => history, max_epochs => train.max_epochs, batch => train.batch_size,
            lr => train.learning_rate, suite_width => suite_width, suite_pieces => suite_pieces,
            height => height, checkpoint_entries => checkpoint_entries,
            sample_only_refined => sample_only_refined, master_from_end => master_from_end,
            target => refine.target, gamma => refine.gamma, sample_children => sample_children,
            sample_band => sample_band, students => students, teacher_window => teacher_window,
            openings => openings, opening_pieces => opening_pieces, opening_noise => opening_noise,
            opening_width => opening_width, opening_samples => opening_samples,
            anchor_samples => anchor_samples, start_pieces => start_pieces,
        );
        if let Some(a) = &self.anchor {
            c.anchor = a.clone();
        }
        if let Some(s) = &self.starts {
            c.starts = Some(s.clone());
        }
    }

    /// The keys this table sets, by name.
    pub fn keys(&self) -> Vec<String> {
        match toml::Value::try_from(self) {
            Ok(toml::Value::Table(t)) => t.keys().cloned().collect(),
            _ => Vec::new(),
        }
    }
}

/// A recipe: the seed, the generation the run's first network is, the
/// settings, and the schedule.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Recipe {
    /// What the recipe is for (free text, not compared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<String>,
    /// Generation G's seed is `seed + G x 0x9E3779B9` (gen-b: 81).
    #[serde(default)]
    pub seed: u64,
    /// The generation of the network the run starts from (0: the embedded
    /// bootstrap; `cycle --init NET --generation G`): cycle k of the run is
    /// generation `first_generation + k`, with that generation's seed and
    /// schedule.
    #[serde(default)]
    pub first_generation: usize,
    /// Every generation's settings (the defaults of `CycleConfig` for
    /// those not given).
    #[serde(default)]
    pub settings: Settings,
    /// The schedule: `[from.N]` tables, the settings that change from
    /// generation N on (only the settings `--retune` may change).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub from: BTreeMap<String, Settings>,
}

/// The record recipe (`recipes/record.toml`), what `cycle` runs by default.
pub const RECORD: &str = include_str!("../../../../recipes/record.toml");

impl Recipe {
    /// The embedded record recipe.
    pub fn record() -> Recipe {
        Recipe::parse(RECORD).expect("recipes/record.toml is a valid recipe")
    }

    /// Reads a recipe from its TOML text: unknown keys, a schedule naming no
    /// generation or changing a setting `--retune` may not change, and
    /// settings a run would refuse (sizes of 0, shares out of range) are
    /// refused, each naming what is wrong.
    pub fn parse(text: &str) -> Result<Recipe, String> {
        let recipe: Recipe = toml::from_str(text).map_err(|e| match e.span() {
            // The line it is on, so that a bad value names its key.
            Some(span) => {
                let line = text[..span.start.min(text.len())].matches('\n').count();
                let said = text.lines().nth(line).unwrap_or("").trim();
                format!("line {} ({said}): {}", line + 1, e.message())
            }
            None => e.message().to_string(),
        })?;
        recipe.check()?;
        Ok(recipe)
    }

    /// The schedule's stages in order: (generation, settings).
    fn stages(&self) -> Result<Vec<(usize, &Settings)>, String> {
        let mut stages = Vec::new();
        for (key, s) in &self.from {
            let generation: usize = key
                .parse()
                .ok()
                .filter(|g| (1..=MAX_GENERATION).contains(g))
                .ok_or_else(|| format!("[from.{key}]: a schedule names a generation from 1 to {MAX_GENERATION}"))?;
            stages.push((generation, s));
        }
        stages.sort_by_key(|(g, _)| *g);
        Ok(stages)
    }

    /// What [`Recipe::parse`] refuses.
    pub fn check(&self) -> Result<(), String> {
        if self.first_generation > MAX_GENERATION {
            return Err(format!("first_generation {} (at most {MAX_GENERATION})", self.first_generation));
        }
        for (generation, s) in self.stages()? {
            let fixed: Vec<String> =
                s.keys().into_iter().filter(|k| !RETUNABLE.iter().any(|(name, _)| name == k)).collect();
            if !fixed.is_empty() {
                return Err(format!(
                    "[from.{generation}] sets {}: a schedule changes only {}",
                    fixed.join(", "),
                    retunable_names()
                ));
            }
        }
        // Every stage's settings as a run would check them (files aside).
        let mut generations = vec![self.first_generation + 1];
        generations.extend(self.stages()?.iter().map(|(g, _)| *g));
        for g in generations {
            self.config_for(g).check_values().map_err(|e| format!("generation {g}: {e}"))?;
        }
        Ok(())
    }

    /// The settings of generation `generation`: the defaults, the recipe's
    /// settings, then each `[from.N]` with N at most `generation`, in order.
    pub fn config_for(&self, generation: usize) -> CycleConfig {
        let mut c = CycleConfig::default();
        self.settings.apply(&mut c);
        for (g, s) in self.stages().unwrap_or_default() {
            if g <= generation {
                s.apply(&mut c);
            }
        }
        // The seed whose cycle k is generation first + k's.
        c.seed = self.seed.wrapping_add(self.first_generation as u64 * SEED_STEP);
        // A chained lookahead chains as the master search does; a plain
        // one keeps the defaults (as the command line always did).
        if c.refine.quiescence > 0 {
            c.refine.chain_rule = c.chain_rule;
            c.refine.chain_blend = c.chain_blend;
            c.refine.chain_follow = c.chain_follow;
        }
        c
    }

    /// The settings of the run's cycle `cycle` (from 1).
    pub fn config_for_cycle(&self, cycle: usize) -> CycleConfig {
        self.config_for(self.first_generation + cycle)
    }

    /// The recipe as TOML (every key it sets, in a fixed order).
    pub fn to_text(&self) -> String {
        toml::to_string(self).expect("a recipe serialises")
    }

    /// Each key that differs between `self` and `other`, with both values
    /// (`width 100000 -> 200000`, `from.12.width (none) -> 200000`); the
    /// free text `about` is not compared.
    pub fn differences(&self, other: &Recipe) -> Vec<(String, String)> {
        let (a, b) = (flatten(self), flatten(other));
        let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
        keys.sort();
        keys.dedup();
        // A setting left out is its default.
        let defaults = setting_values(&CycleConfig::default());
        let value = |side: &BTreeMap<String, String>, k: &str| -> String {
            side.get(k).cloned().unwrap_or_else(|| {
                defaults.iter().find(|(name, _)| *name == k).map_or("(none)".to_string(), |(_, v)| v.clone())
            })
        };
        keys.into_iter()
            .filter(|k| a.get(*k) != b.get(*k))
            .map(|k| (k.clone(), (value(&a, k), value(&b, k))))
            .filter(|(_, (x, y))| x != y)
            .map(|(k, (x, y))| (k, format!("{x} -> {y}")))
            .collect()
    }

    /// Whether `--retune` may make `self` (a run's) into `other`: only the
    /// retunable settings and the schedule may differ. Err: the keys that
    /// may not change.
    pub fn retune_to(&self, other: &Recipe) -> Result<(), Vec<String>> {
        let fixed: Vec<String> = self
            .differences(other)
            .into_iter()
            .map(|(k, _)| k)
            .filter(|k| !k.starts_with("from.") && !RETUNABLE.iter().any(|(name, _)| name == k))
            .collect();
        if fixed.is_empty() {
            Ok(())
        } else {
            Err(fixed)
        }
    }

    /// The recipe a run in `dir` keeps (None: a run from before recipes,
    /// or no run). A damaged file (its checksum or format wrong) is refused.
    pub fn stored(dir: &Path) -> Result<Option<Recipe>, CycleError> {
        let path = dir.join(RECIPE_FILE);
        if !path.exists() {
            return Ok(None);
        }
        let text = std::fs::read_to_string(&path).map_err(io(&path))?;
        let bad = |what: String| CycleError::Malformed { path: path.clone(), what };
        let (first, body) = text.split_once('\n').ok_or_else(|| bad("empty".into()))?;
        let sum = first
            .strip_prefix(STORED_HEADER)
            .ok_or_else(|| bad("not a stored recipe of this version (its first line is not the format's)".into()))?;
        if format!("{:08x}", crc32fast::hash(body.as_bytes())) != sum.trim() {
            return Err(bad("damaged: its checksum does not match".into()));
        }
        Recipe::parse(body).map(Some).map_err(bad)
    }

    /// Keeps the recipe in `dir`, atomically, with its checksum.
    pub fn store(&self, dir: &Path) -> Result<(), CycleError> {
        let path = dir.join(RECIPE_FILE);
        let body = self.to_text();
        let text = format!("{STORED_HEADER}{:08x}\n{body}", crc32fast::hash(body.as_bytes()));
        write_atomically(&path, text.as_bytes()).map_err(io(&path))
    }

    /// The generation a run's first network is, from its seed (runs from
    /// before recipes stored `seed + G x 0x9E3779B9`, gen-b's run.sh
    /// convention): None when the run's seed is not this recipe's at any
    /// generation up to [`MAX_GENERATION`].
    pub fn generation_of_seed(&self, run_seed: u64) -> Option<usize> {
        let d = run_seed.wrapping_sub(self.seed);
        d.is_multiple_of(SEED_STEP).then_some((d / SEED_STEP) as usize).filter(|g| *g <= MAX_GENERATION)
    }
}

/// The names of the settings a schedule and `--retune` may change.
pub fn retunable_names() -> String {
    RETUNABLE.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(", ")
}

/// A value as [`setting_values`] writes it (strings bare, floats short).
fn plain(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Array(a) => a.iter().map(plain).collect::<Vec<_>>().join(" "),
        other => other.to_string(),
    }
}

/// A recipe's keys and values, `settings.` dropped (`width`, `seed`,
/// `from.12.width`).
fn flatten(r: &Recipe) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let value = toml::Value::try_from(r).expect("a recipe serialises");
    let toml::Value::Table(top) = value else { return out };
    for (k, v) in top {
        match (k.as_str(), v) {
            ("about", _) => {}
            ("settings", toml::Value::Table(t)) => {
                for (k, v) in t {
                    out.insert(k, plain(&v));
                }
            }
            ("from", toml::Value::Table(stages)) => {
                for (g, t) in stages {
                    if let toml::Value::Table(t) = t {
                        for (k, v) in t {
                            out.insert(format!("from.{g}.{k}"), plain(&v));
                        }
                    }
                }
            }
            (k, v) => {
                out.insert(k.to_string(), plain(&v));
            }
        }
    }
    out
}

/// A setting's value in `config` by its recipe key, for the keys a run
/// compares on resume (`width` -> "200000").
pub fn setting_values(c: &CycleConfig) -> Vec<(&'static str, String)> {
    let paths = |p: &[PathBuf]| p.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" ");
    vec![
        ("width", c.width.to_string()),
        ("samples", c.samples_per_depth.to_string()),
        ("quiescence", c.quiescence.to_string()),
        ("chain_rule", c.chain_rule.to_string()),
        ("chain_band", c.chain_band.to_string()),
        ("chain_blend", c.chain_blend.to_string()),
        ("chain_follow", c.chain_follow.to_string()),
        ("max_depth", c.max_depth.to_string()),
        ("master_from_end", c.master_from_end.to_string()),
        ("retry_below", c.retry_below.to_string()),
        ("refine_width", c.refine.width.to_string()),
        ("refine_depth", c.refine.depth.to_string()),
        ("refine_every", c.refine.every.to_string()),
        ("refine_quiescence", c.refine.quiescence.to_string()),
        ("refine_step", c.refine.step.to_string()),
        ("sample_only_refined", c.sample_only_refined.to_string()),
        ("history", c.history.to_string()),
        ("max_epochs", c.train.max_epochs.to_string()),
        ("batch", c.train.batch_size.to_string()),
        ("lr", c.train.learning_rate.to_string()),
        ("suite_width", c.suite_width.to_string()),
        ("suite_pieces", c.suite_pieces.to_string()),
        ("height", c.height.to_string()),
        ("checkpoint_entries", c.checkpoint_entries.to_string()),
        ("seed", c.seed.to_string()),
        ("target", format!("{:?}", c.refine.target).to_lowercase()),
        ("gamma", c.refine.gamma.to_string()),
        ("sample_children", c.sample_children.to_string()),
        ("sample_band", c.sample_band.to_string()),
        ("students", c.students.to_string()),
        ("teacher_window", c.teacher_window.to_string()),
        ("openings", c.openings.to_string()),
        ("opening_pieces", c.opening_pieces.to_string()),
        ("opening_noise", c.opening_noise.to_string()),
        ("opening_width", c.opening_width.to_string()),
        ("opening_samples", c.opening_samples.to_string()),
        ("anchor", paths(&c.anchor)),
        ("anchor_samples", c.anchor_samples.to_string()),
        ("starts", c.starts.as_ref().map(|p| p.display().to_string()).unwrap_or_default()),
        ("start_pieces", c.start_pieces.to_string()),
    ]
}

/// The settings that differ between two configs, by recipe key, with
/// both values (`width 100000 -> 200000`).
pub fn config_differences(was: &CycleConfig, is: &CycleConfig) -> Vec<(String, String)> {
    setting_values(was)
        .into_iter()
        .zip(setting_values(is))
        .filter(|((_, a), (_, b))| a != b)
        .map(|((k, a), (_, b))| (k.to_string(), format!("{a} -> {b}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gen-b's run r36 (started before recipes from generation 35's
    /// network, `docs/runs/gen-b/current.env`): its config.json as the old
    /// binary wrote it.
    const R36: &str = include_str!("gen-b-r36-config.json");

    #[test]
    fn the_record_recipe_gives_gen_b_r36_its_settings_exactly() {
        let record = Recipe::record();
        let r36: CycleConfig = serde_json::from_str(R36).unwrap();
        let first = record.generation_of_seed(r36.seed).expect("r36's seed is the record's at some generation");
        assert_eq!(first, 35);
        let adopted = Recipe { first_generation: first, ..record };
        // Its cycle 1 is generation 36, and every later one keeps them but
        // for writing only the refined share of the samples and searching
        // on from the last game's end from 37 on (400 pieces before it,
        // 500 from 38, 700 from 45, the empty well at 46, 700 from 47),
        // twice as wide from 49, and every 16th well refined from 53.
        assert_eq!(adopted.config_for_cycle(1), r36);
        for (cycle, n) in [(2, 400), (3, 500), (9, 500), (10, 700), (11, 0), (12, 700), (13, 700)] {
            let only = CycleConfig { sample_only_refined: true, master_from_end: n, ..r36.clone() };
            assert_eq!(adopted.config_for_cycle(cycle), only, "cycle {cycle}");
        }
        let wide = CycleConfig { sample_only_refined: true, master_from_end: 700, width: 400_000, ..r36.clone() };
        for cycle in [14, 17] {
            assert_eq!(adopted.config_for_cycle(cycle), wide, "cycle {cycle}");
        }
        let mut quarter = wide.clone();
        quarter.refine.every = 16;
        for cycle in [18, 20] {
            assert_eq!(adopted.config_for_cycle(cycle), quarter, "cycle {cycle}");
        }
        assert_eq!(adopted.config_for_cycle(1).cycle_seed(1), 81 + 36 * SEED_STEP);
    }

    #[test]
    fn the_schedule_switches_at_the_generations_it_names() {
        let record = Recipe::record();
        let at = |g| record.config_for(g);
        assert_eq!((at(11).width, at(12).width), (100_000, 200_000));
        assert_eq!((at(12).chain_band, at(13).chain_band), (3, 0));
        assert_eq!((at(23).refine.width, at(24).refine.width), (50, 512));
        assert_eq!((at(23).refine.every, at(24).refine.every, at(28).refine.every), (1, 16, 4));
        assert_eq!((at(23).history, at(24).history), (2, 1));
        assert_eq!((at(24).chain_blend, at(25).chain_blend), (Blend::FULL, Blend::from_thousandths(500).unwrap()));
        // From the bootstrap, cycle k is generation k, seed 81 + k x step.
        assert_eq!(at(1).cycle_seed(1), 81 + SEED_STEP);
        // gen-b's restarts (config-from-020.json: from generation 19's network).
        let from_020: CycleConfig =
            serde_json::from_str(include_str!("../../../../docs/runs/gen-b/config-from-020.json")).unwrap();
        let r = Recipe { first_generation: 19, ..record.clone() };
        assert_eq!(record.generation_of_seed(from_020.seed), Some(19));
        let c = r.config_for_cycle(5);
        assert_eq!((c.width, c.chain_band, c.refine.width, c.refine.every, c.history), (200_000, 0, 512, 16, 1));
    }

    #[test]
    fn a_recipe_refuses_unknown_keys_bad_schedules_and_bad_values() {
        let cases = [
            ("[settings]\nwidht = 5\n", "widht"),
            ("colour = 1\n", "colour"),
            ("[from.0]\nwidth = 5\n", "generation"),
            ("[from.x]\nwidth = 5\n", "generation"),
            ("[from.3]\nheight = 8\n", "height"),
            ("[settings]\nwidth = 0\n", "width"),
            ("[settings]\nrefine_every = 0\n", "refine"),
            ("[settings]\nlr = -1.0\n", "learning rate"),
            ("[settings]\nwidth = -5\n", "width"),
            ("[settings]\nwidth = 1000000000000\n", "widths"),
            ("[settings]\nchain_blend = 7.0\n", "blend"),
            ("seed = \"x\"\n", "seed"),
        ];
        for (text, says) in cases {
            let err = Recipe::parse(text).unwrap_err();
            assert!(err.contains(says), "{text:?}: {err}");
        }
        Recipe::parse(include_str!("../../../../recipes/quick.toml")).unwrap();
    }

    #[test]
    fn a_stored_recipe_reads_back_and_a_damaged_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Recipe::stored(dir.path()).unwrap(), None);
        let r = Recipe { first_generation: 35, ..Recipe::record() };
        r.store(dir.path()).unwrap();
        assert_eq!(Recipe::stored(dir.path()).unwrap(), Some(r.clone()));
        let path = dir.path().join(RECIPE_FILE);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("200000", "300000")).unwrap();
        assert!(Recipe::stored(dir.path()).unwrap_err().to_string().contains("checksum"));
        std::fs::write(&path, "width = 5\n").unwrap();
        assert!(Recipe::stored(dir.path()).unwrap_err().to_string().contains("format"));
    }

    #[test]
    fn differences_name_each_key_and_retune_refuses_the_fixed_ones() {
        let a = Recipe::record();
        let mut b = a.clone();
        b.settings.width = Some(5000);
        b.settings.suite_width = Some(10);
        b.from.remove("25");
        let diffs: Vec<String> = a.differences(&b).into_iter().map(|(k, d)| format!("{k} {d}")).collect();
        assert!(diffs.contains(&"width 100000 -> 5000".to_string()), "{diffs:?}");
        assert!(diffs.iter().any(|d| d.starts_with("from.25.chain_blend 0.5 -> (none)")), "{diffs:?}");
        assert_eq!(a.retune_to(&b), Err(vec!["suite_width".to_string()]));
        b.settings.suite_width = a.settings.suite_width;
        assert_eq!(a.retune_to(&b), Ok(()));
    }
}
