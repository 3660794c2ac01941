//! The self-improvement cycle: search → refine → learn.
//!
//! Each cycle, the current network plays one whole game with a wide beam
//! (search), keeping a random sample of the beam's wells at every depth;
//! each sampled well is checked by a small lookahead beam (refine), which
//! moves its value halfway toward what the lookahead found; the network is
//! then trained on the refined values of the last cycles (learn), and the
//! result plays the next cycle.
//!
//! A run lives in one directory:
//!
//! ```text
//! RUN/recipe.toml          the recipe the run follows (`recipe`; a run from before recipes has none)
//! RUN/config.json          the settings of the cycle at hand (the recipe's for its generation)
//! RUN/net-000.hnet         the starting network
//! RUN/game-000.b2048       the game the first master search goes on from, if given
//! RUN/cycle-001/samples.htds   search: sampled wells, target = network value x
//! RUN/cycle-001/search.htsc    search: the master game's beam and samples,
//!                              saved every few depths until search.json is
//!                              written (a run killed mid-search goes on from it)
//! RUN/cycle-001/search.json    search: score, replay, timings (written last)
//! RUN/cycle-001/refine-part-0000.htrp  refine: each part's pairs, kept
//!                              until refined.htds is written (a run killed
//!                              in refine goes on from its last part)
//! RUN/cycle-001/refined.htds   refine: the scaled targets t
//! RUN/cycle-001/net.hnet       learn: the next network
//! RUN/metrics.jsonl        one line per finished cycle
//! RUN/progress-*.png       lines, loss and suite per cycle
//! RUN/generations.md       the generations table (`folder`)
//! RUN/best.b2048           the longest master game so far, replayed first
//! RUN/latest.hnet          the last cycle's network
//! RUN/nets/HASH.hnet       every cycle's network, by the hash of its bytes
//! ```
//!
//! Every file is written to a temporary name and renamed, and a step counts
//! as done only when its last file exists, so a run killed at any moment
//! continues from the last finished step; asked to stop (`stop`), it stops
//! at its next save. No file holds the folder's path: a copied run goes on.

mod config;
mod error;
mod events;
mod files;
mod folder;
mod metrics;
mod parts;
mod recipe;
mod refine;
mod refine_step;
mod resume;
mod run;
mod search;
pub mod spread;
mod starts;
mod stop;
mod suite;

pub use config::{flag_of, retune_config, stored_config, CycleConfig, RETUNABLE};
pub use error::CycleError;
pub use events::{CycleEvent, Step};
pub use folder::hash16;
pub use metrics::CycleMetrics;
pub use recipe::{
    config_differences, retunable_names, setting_values, Recipe, Settings, MAX_GENERATION, RECIPE_FILE, RECORD,
    SEED_STEP,
};
pub use refine::{
    blocks, lookahead_pairs, refine_pairs, refine_targets, survival_value, targets_from_pairs, RefineConfig, TargetKind,
};
pub use refine_step::RefineStep;
pub use run::{run_cycles, run_cycles_on, run_recipe_on, FIRST_GAME};
pub use search::{sample_game, SearchRecord};
pub use spread::PartSettings;
pub use stop::{clear_stop, request_stop, stop_requested};
