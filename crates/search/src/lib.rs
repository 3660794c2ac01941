//! Beam search through whole HATETRIS games.
//!
//! - [`beam`]: the search (expansion, merging, selection);
//! - [`path`]: the shared tree of paths that is every entry's memory;
//! - [`quiescence`]: values through chains of line clears, by a `ChainRule`;
//! - [`line`]: the line found, as keys, re-checked against the engine; a
//!   replay as moves, and a line replayed with the real enemy's choices;
//! - [`checkpoint`]: saving and resuming a search;
//! - [`moves`]: the packed move;
//! - [`lookahead`]: an evaluator that values a well by a small beam's best value a few pieces on;
//! - [`runner`]: where a command's searches run (here, or over processes).
//!
//! Search sees evaluation only through `hatetris_eval::Evaluator`.

pub mod beam;
pub mod checkpoint;
pub mod line;
pub mod lookahead;
pub mod moves;
pub mod path;
pub mod quiescence;
pub mod runner;

pub use beam::{run, search, BeamState, DepthReport, Entry, SearchConfig, SearchResult};
pub use line::{keys_for_line, moves_for_keys, replay_line, verified_replay, LineEnd, LineError, VerifiedReplay};
pub use lookahead::Lookahead;
pub use moves::Move;
pub use quiescence::{Blend, ChainRule, Chains};
