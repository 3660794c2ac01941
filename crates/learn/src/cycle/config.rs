//! A run's settings (RUN/config.json): what they are, their defaults,
//! what is refused before a run starts, and what `--retune` may change.

use super::error::CycleError;
use super::files::{read_json, write_json};
use super::refine::RefineConfig;
use super::starts::load_starts;
use crate::train::TrainConfig;
use hatetris_game::Rules;
use hatetris_search::{Blend, ChainRule};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The settings of a run, fixed when it starts (RUN/config.json) but for
/// its search budget ([`retune_config`]).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CycleConfig {
    /// Beam width of the search step.
    pub width: usize,
    /// Wells sampled from the beam at every depth.
    pub samples_per_depth: usize,
    pub refine: RefineConfig,
    /// Cycles of data the learn step trains on.
    pub history: usize,
    /// Clear-chain depth of the search step (0: off).
    pub quiescence: u32,
    /// Which clears the search step's chains follow; runs from before the
    /// rules existed followed every S and Z clear.
    #[serde(default = "sz_rule")]
    pub chain_rule: ChainRule,
    /// Chain only this many times the width of best candidates (0: all).
    #[serde(default)]
    pub chain_band: u32,
    /// How much of a chain's rise the search step counts (1: all, as runs
    /// from before the setting searched).
    #[serde(default)]
    pub chain_blend: Blend,
    /// How many wells the search step's chains go on from after each clear
    /// (0: every one; stored only when not 0, so that runs from before the
    /// setting read and write as they did).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub chain_follow: u32,
    pub seed: u64,
    /// Stop the search step after this many pieces (0: until the game ends).
    pub max_depth: usize,
    /// Search the master game on from the last cycle's master game this
    /// many pieces before its end (0, and in a run's first cycle: from the
    /// empty well). Its early pieces are learned already and re-searching
    /// them costs most of a long game's search, so a generation then costs
    /// about the same however long its game, and its samples lie where
    /// games die. The game is the last one's first pieces and the search's.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub master_from_end: usize,
    pub train: TrainConfig,
    /// Sample the children of the sampled beam entries (every landing of
    /// the piece the enemy gives there that does not end the game) instead
    /// of the entries: the wells among which the search must choose, the
    /// ones it would otherwise pick by the network's guesses about wells it
    /// never learned from.
    #[serde(default)]
    pub sample_children: bool,
    /// With `sample_children`: keep only the children whose search value
    /// reaches the next depth's cut minus this share of that beam's value
    /// range (0: keep all). The beam's decisions are made at its cut, and
    /// most landings of a piece lie far below it; the wells a search drops
    /// there are where the network disagrees with its own lookahead
    /// (docs/experiments.md, "the cut").
    #[serde(default)]
    pub sample_band: f32,
    /// Write only the sampled wells the refine step takes (every
    /// `refine.every`-th, counted over all the search step would sample):
    /// the refine's wells and targets are the same, and the samples file
    /// and every search save hold a `refine.every`-th of them. Stored only
    /// when on, so that runs from before the setting read as they did.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sample_only_refined: bool,
    /// Beam width of the per-cycle strength measurement on the embedded
    /// suite (0: not measured).
    #[serde(default)]
    pub suite_width: usize,
    /// Pieces searched from each suite start.
    #[serde(default)]
    pub suite_pieces: usize,
    /// Playable rows of the search and refine games (16 is the official
    /// game). In a lower well every long game is played near the ceiling,
    /// the regime of the long public games, and outcomes come sooner; the
    /// features do not depend on the height, and the suite is always played
    /// at 16.
    #[serde(default = "standard_height")]
    pub height: usize,
    /// Data sets mixed into every learn step (for instance the solved small
    /// wells the bootstrap learned from), so that a cycle's few thousand
    /// wells of one game do not overwrite what the network knew.
    #[serde(default)]
    pub anchor: Vec<PathBuf>,
    /// Samples drawn (seeded, without replacement) from the anchor sets
    /// each learn step (0: all of them).
    #[serde(default)]
    pub anchor_samples: usize,
    /// Start positions of the network's own games (a suite file, `.htsu`):
    /// the search step also searches on from each of them for
    /// `start_pieces` pieces and samples those beams as it samples the
    /// game's. Their wells are tall and late, where searches die, which a
    /// game from the empty well reaches only once, at its end. Public games
    /// measure, they do not teach: a start on the line of one of the
    /// embedded strength suite's games is refused.
    #[serde(default)]
    pub starts: Option<PathBuf>,
    /// Pieces searched from each start (0: to the end of the game).
    #[serde(default)]
    pub start_pieces: usize,
    /// Students of the learn step (0: none). Besides the network fitted
    /// from the last one, this many networks are fitted to the same
    /// targets from random weights; the cycle's network is then fitted,
    /// from the last one again, to their mean value on the same wells.
    /// Networks fitted to the same targets from different starts differ by
    /// up to 15 suite pieces and their mean errs less than any of them
    /// (docs/experiments.md, ens-a).
    #[serde(default)]
    pub students: usize,
    /// Cycles whose networks teach each learn step with students (at least
    /// 1): the own fit and the students of this cycle and of the cycles
    /// before it label the wells of all of them (and of the history's),
    /// and the cycle's network is fitted to their mean. A mean over
    /// several cycles' targets climbed where one cycle's did not
    /// (docs/experiments.md, roll).
    #[serde(default = "one")]
    pub teacher_window: usize,
    /// Exploratory games of the search step besides the one from the empty
    /// well (0: none). Each opens with `opening_pieces` pieces of a search
    /// at `opening_width` whose values carry seeded noise of `opening_noise`
    /// (another salt for each game and cycle), whose best line is then
    /// searched on without noise to its end and sampled `opening_samples` a
    /// depth. As a run's networks converge so do its games (boot's cycles
    /// 17 and 18 shared two thirds of their line), and its cycles then
    /// learn one game's wells again and again.
    #[serde(default)]
    pub openings: usize,
    #[serde(default = "twenty")]
    pub opening_pieces: usize,
    #[serde(default = "three_tenths")]
    pub opening_noise: f32,
    /// Beam width of the openings' searches (0: `width`).
    #[serde(default)]
    pub opening_width: usize,
    /// Wells sampled a depth in each opening's search (0: `samples_per_depth`).
    #[serde(default)]
    pub opening_samples: usize,
    /// When the search step's game makes fewer lines than this share of
    /// the last cycle's game (0: never), the network before (the one that
    /// played that game) searches the cycle's game again, and both games'
    /// beams are sampled. A network can value some well it never saw
    /// far too high (a tower to the ceiling, valued 1.0) and a wide beam
    /// finds it: the game then dies within a few dozen pieces, and a cycle
    /// that learns from that game alone loses what the network knew
    /// (docs/experiments.md, trap).
    #[serde(default)]
    pub retry_below: f32,
    /// Beam entries the master search expands between two saves of the
    /// search step (`cycle-NNN/search.htsc`; 0: never saved): every
    /// `max(1, this / width)` depths, about four minutes on this machine
    /// by default. Only how much a kill loses; the results are the same.
    #[serde(default = "checkpoint_entries", skip_serializing_if = "is_default_checkpoint")]
    pub checkpoint_entries: u64,
}

const CHECKPOINT_ENTRIES: u64 = 4_000_000;

/// The widest beam a recipe may ask for (the command line refuses a width
/// past this machine's memory before that).
const MAX_WIDTH: usize = 100_000_000;

/// The deepest clear chains (`hatetris_search`'s checkpoints keep a depth in 8 bits).
const MAX_CHAIN: u32 = 100;

/// The widest chain band (in a checkpoint's 16 bits).
const MAX_BAND: u32 = 1000;

fn checkpoint_entries() -> u64 {
    CHECKPOINT_ENTRIES
}

fn is_default_checkpoint(entries: &u64) -> bool {
    *entries == CHECKPOINT_ENTRIES
}

fn twenty() -> usize {
    20
}

fn three_tenths() -> f32 {
    0.3
}

fn sz_rule() -> ChainRule {
    ChainRule::Sz
}

pub(super) fn one() -> usize {
    1
}

pub(super) fn is_one(v: &usize) -> bool {
    *v == 1
}

fn standard_height() -> usize {
    hatetris_game::STANDARD_HEIGHT
}

impl Default for CycleConfig {
    fn default() -> Self {
        CycleConfig {
            width: 1000,
            samples_per_depth: 4096,
            refine: RefineConfig::default(),
            history: 3,
            quiescence: hatetris_search::quiescence::DEFAULT_CHAIN,
            chain_rule: ChainRule::default(),
            chain_band: 0,
            chain_blend: Blend::FULL,
            chain_follow: 0,
            seed: 0,
            max_depth: 0,
            master_from_end: 0,
            train: TrainConfig::default(),
            sample_children: false,
            sample_band: 0.0,
            sample_only_refined: false,
            suite_width: 300,
            suite_pieces: 150,
            height: standard_height(),
            anchor: Vec::new(),
            anchor_samples: 0,
            starts: None,
            start_pieces: 100,
            students: 0,
            teacher_window: 1,
            openings: 0,
            opening_pieces: twenty(),
            opening_noise: three_tenths(),
            opening_width: 0,
            opening_samples: 0,
            retry_below: 0.0,
            checkpoint_entries: CHECKPOINT_ENTRIES,
        }
    }
}

impl CycleConfig {
    /// Refuses, before anything is written or searched, a setting a run
    /// would fail on later (after hours of search and refine): sizes of 0,
    /// shares out of range, training settings, and anchor and starts files
    /// that are missing or damaged. Gives the run's rules.
    pub fn validate(&self) -> Result<Rules, CycleError> {
        let rules = self.check_values()?;
        // Read whole: a file damaged past its header would fail only in
        // the first learn step, after hours of search and refine.
        for path in &self.anchor {
            for sample in crate::dataset::DatasetReader::open(path)? {
                sample?;
            }
        }
        if let Some(path) = &self.starts {
            load_starts(path, rules)?;
        }
        Ok(rules)
    }

    /// [`CycleConfig::validate`] without its files: the values alone (what
    /// a recipe is checked for when it is read), and the run's rules.
    pub fn check_values(&self) -> Result<Rules, CycleError> {
        let bad = |what: &str| Err(CycleError::Invalid(what.to_string()));
        if self.width > MAX_WIDTH || self.refine.width > MAX_WIDTH || self.suite_width > MAX_WIDTH {
            return bad("the widths must be at most 100,000,000");
        }
        if self.quiescence > MAX_CHAIN || self.refine.quiescence > MAX_CHAIN {
            return Err(CycleError::Invalid(format!("the chain depths must be at most {MAX_CHAIN}")));
        }
        if self.chain_band > MAX_BAND {
            return Err(CycleError::Invalid(format!("the chain band must be at most {MAX_BAND}")));
        }
        if self.students > 100 || self.openings > 10_000 {
            return bad("students must be at most 100 and openings at most 10,000");
        }
        if self.width == 0 || self.samples_per_depth == 0 || self.history == 0 {
            return bad("the width, the samples per depth and the history must be at least 1");
        }
        let rules = self.refine_rules()?;
        if self.teacher_window == 0 || (self.teacher_window > 1 && self.students == 0) {
            return bad("the teacher window must be at least 1, and more than 1 only with students");
        }
        if self.openings > 0
            && (self.opening_pieces == 0 || !(self.opening_noise >= 0.0 && self.opening_noise.is_finite()))
        {
            return bad("openings need at least 1 opening piece and an opening noise of 0 or more");
        }
        if !(self.retry_below >= 0.0 && self.retry_below.is_finite()) {
            return bad("retry-below must be 0 or more");
        }
        if self.master_from_end > MAX_FROM_END {
            return bad(&format!("master_from_end is at most {MAX_FROM_END} pieces"));
        }
        if !(self.sample_band >= 0.0 && self.sample_band.is_finite()) {
            return bad("the sample band must be 0 or more");
        }
        if self.sample_band > 0.0 && !self.sample_children {
            return bad("a sample band needs sampled children");
        }
        if self.train.learning_rate.is_nan() || self.train.learning_rate > 1.0 {
            return bad("the learning rate (lr) must be above 0 and at most 1");
        }
        // The learn step's hidden size is its network's: any valid one checks the rest.
        TrainConfig { hidden: 8, ..self.train.clone() }.validate()?;
        Ok(rules)
    }

    /// The refine step's part of [`CycleConfig::validate`] (what
    /// `RefineStep::open` checks, the run's other files unread): its
    /// sizes and shares, its targets' families, and the rules of the run's
    /// height.
    pub(super) fn refine_rules(&self) -> Result<Rules, CycleError> {
        let bad = |what: &str| Err(CycleError::Invalid(what.to_string()));
        if self.refine.width == 0 || self.refine.depth == 0 || self.refine.every == 0 {
            return bad("the refine width and depth and refine-every must be at least 1");
        }
        // Sampled children are refined and compared by family, which a
        // share of the wells would cut apart.
        if self.refine.every > 1 && self.sample_children {
            return bad("refine-every above 1 needs sampled entries, not children");
        }
        // Written so that NaN fails too.
        let in_range =
            self.refine.gamma > 0.0 && self.refine.gamma < 1.0 && self.refine.step > 0.0 && self.refine.step <= 1.0;
        if !in_range {
            return bad("gamma must be in (0, 1) and the refine step in (0, 1]");
        }
        let families = matches!(
            self.refine.target,
            super::TargetKind::Relative | super::TargetKind::Family | super::TargetKind::Joint
        );
        if families && !self.sample_children {
            return bad("the relative, family and joint targets need sampled children");
        }
        Rules::with_height(self.height)
            .filter(|_| self.height >= 4)
            .ok_or_else(|| CycleError::Invalid(format!("height {} (must be 4 to 16)", self.height)))
    }

    /// Depths of the master search between two saves (0: never).
    pub(super) fn checkpoint_depths(&self) -> usize {
        match self.checkpoint_entries {
            0 => 0,
            n => (n / self.width.max(1) as u64).max(1) as usize,
        }
    }

    /// The seed of cycle `cycle`'s search, refine and learn steps.
    pub(super) fn cycle_seed(&self, cycle: usize) -> u64 {
        self.seed.wrapping_add(cycle as u64 * 0x9E37_79B9)
    }
}

/// The settings a run in `dir` was started with (None if it is new).
pub fn stored_config(dir: &Path) -> Result<Option<CycleConfig>, CycleError> {
    let path = dir.join("config.json");
    if path.exists() {
        read_json(&path).map(Some)
    } else {
        Ok(None)
    }
}

/// Takes one retunable setting of `from` into `to`.
pub type Retune = fn(&mut CycleConfig, &CycleConfig);

/// The settings `cycle --retune` may change, by the names `config.json`
/// and the command line give them, each with how it is taken over: only
/// the budgets (knewjade widened the master beam when the games levelled
/// off) — the search step's width, samples, the chains' depth, rule,
/// band and blend, the refine lookahead's width, share of the wells and
/// chains, whether the search writes only the refine's share, where the
/// master search starts, the learn
/// step's most epochs (the record engine passes over a generation's wells
/// once) and how many cycles' wells it reads (so that a refine made
/// another way is not mixed with the last one's). Every other
/// setting shapes what the cycles already done mean. The one list both
/// [`retune_config`] and the command line's resume check read, so that a
/// setting made retunable in one is retunable in both.
pub const RETUNABLE: [(&str, Retune); 15] = [
    ("width", |to, from| to.width = from.width),
    ("samples", |to, from| to.samples_per_depth = from.samples_per_depth),
    ("refine_width", |to, from| to.refine.width = from.refine.width),
    ("refine_every", |to, from| to.refine.every = from.refine.every),
    // Only what is stored: each cycle's search record says what it kept.
    ("sample_only_refined", |to, from| to.sample_only_refined = from.sample_only_refined),
    ("master_from_end", |to, from| to.master_from_end = from.master_from_end),
    ("refine_quiescence", |to, from| {
        to.refine.quiescence = from.refine.quiescence;
        to.refine.chain_rule = from.refine.chain_rule;
        to.refine.chain_blend = from.refine.chain_blend;
        to.refine.chain_follow = from.refine.chain_follow;
    }),
    ("history", |to, from| to.history = from.history),
    ("quiescence", |to, from| to.quiescence = from.quiescence),
    ("chain_rule", |to, from| to.chain_rule = from.chain_rule),
    ("chain_band", |to, from| to.chain_band = from.chain_band),
    ("chain_blend", |to, from| to.chain_blend = from.chain_blend),
    ("chain_follow", |to, from| to.chain_follow = from.chain_follow),
    ("max_epochs", |to, from| to.train.max_epochs = from.train.max_epochs),
    ("lr", |to, from| to.train.learning_rate = from.train.learning_rate),
];

/// The command-line flag of a setting by its stored name (`chain_rule`:
/// `--chain-rule`), as refusals and the retune's report name it.
pub fn flag_of(name: &str) -> String {
    format!("--{}", name.replace('_', "-"))
}

/// Stores `config` as the settings of the run in `dir` for the steps it
/// has not run yet (`cycle --retune`). Refused, and nothing written, for
/// a folder that holds no run or a change to a setting not in
/// [`RETUNABLE`].
pub fn retune_config(dir: &Path, config: &CycleConfig) -> Result<(), CycleError> {
    let Some(stored) = stored_config(dir)? else {
        return Err(CycleError::Invalid(format!("{} holds no run (no config.json)", dir.display())));
    };
    let mut budget_only = config.clone();
    for (_, retune) in RETUNABLE {
        retune(&mut budget_only, &stored);
    }
    if budget_only != stored {
        let names: Vec<String> = RETUNABLE.iter().map(|(name, _)| flag_of(name)).collect();
        return Err(CycleError::Invalid(format!("only {} of a run may be retuned", names.join(", "))));
    }
    config.validate()?;
    write_json(&dir.join("config.json"), config)
}

/// For `skip_serializing_if`: a setting left at 0 is not written.
pub(crate) fn is_zero<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

fn is_false(v: &bool) -> bool {
    !v
}

/// The most pieces before the last game's end a master search may go on
/// from (the longest game known is 9,309 pieces).
pub const MAX_FROM_END: usize = 100_000;
