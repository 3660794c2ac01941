//! Reading a replay from a file or standard input.

use anyhow::{bail, Context, Result};
use hatetris_game::replay;
use hatetris_game::Key;
use std::io::Read;
use std::path::Path;

/// The text of FILE, or of standard input for `-` or no file.
pub fn read_text(file: Option<&Path>) -> Result<String> {
    match file {
        Some(p) if p != Path::new("-") => {
            if !p.exists() {
                bail!("replay file {} does not exist", p.display());
            }
            std::fs::read_to_string(p).with_context(|| format!("cannot read replay file {}", p.display()))
        }
        _ => {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s).context("cannot read the replay from standard input")?;
            Ok(s)
        }
    }
}

/// Decodes a replay in any of the game's four forms.
pub fn read_replay(file: Option<&Path>) -> Result<Vec<Key>> {
    let text = read_text(file)?;
    replay::decode(&text).map_err(|e| anyhow::anyhow!("bad replay: {e}"))
}
