//! The `starts` setting's suite: positions of the network's own games the
//! search step also searches on from.

use super::error::CycleError;
use hatetris_game::Rules;
use hatetris_strength::{Start, Suite};
use rustc_hash::FxHashSet;
use std::path::Path;

/// Moves a start must share with a public game's line to be refused as one
/// of its positions: more than any two different games share by chance.
const PUBLIC_PREFIX: usize = 50;

/// Reads the --starts suite and checks that it can teach: positions of the
/// official game (so the run's height must be 16) and none of them a start
/// of the embedded strength suite, the public games that only measure.
pub(super) fn load_starts(path: &Path, rules: Rules) -> Result<Suite, CycleError> {
    let bad = |what: String| CycleError::Starts { path: path.to_path_buf(), what };
    if rules != hatetris_strength::suite::RULES {
        return Err(bad(format!("starts are positions of the 16-row game; this run is {} rows", rules.height())));
    }
    let suite = Suite::load(path)?;
    if suite.starts.is_empty() {
        return Err(bad("no starts".into()));
    }
    // The embedded suite's lines are the public games' first 100 to 275
    // moves: a start that shares their first PUBLIC_PREFIX moves is a
    // position of one of those games (or of a suite made from them, as the
    // denser one), not of the engine's own.
    let opening = |s: &Start| -> Option<Vec<u32>> {
        (s.moves.len() >= PUBLIC_PREFIX).then(|| s.moves[..PUBLIC_PREFIX].iter().map(|m| m.pack()).collect())
    };
    let public: FxHashSet<Vec<u32>> = Suite::embedded_default().starts.iter().filter_map(opening).collect();
    if let Some(s) = suite.starts.iter().find(|s| opening(s).is_some_and(|o| public.contains(&o))) {
        return Err(bad(format!(
            "start {} piece {} is a position of a public game of the strength suite (public games measure, they do not teach)",
            s.source, s.piece
        )));
    }
    Ok(suite)
}
