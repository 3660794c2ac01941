//! Raw replays: the key letters themselves, e.g. `LLDDU`.

use super::{Format, ReplayError};
use crate::key::{keys_to_string, Key};

pub(super) fn encode(keys: &[Key]) -> String {
    keys_to_string(keys)
}

/// Only the uppercase letters `L R D U` (the game's `^[ULDR]+$`).
pub(super) fn decode(text: &str) -> Result<Vec<Key>, ReplayError> {
    text.chars()
        .enumerate()
        .map(|(position, ch)| {
            Key::from_letter(ch).ok_or(ReplayError::UnrecognisedChar { format: Format::Raw, ch, position })
        })
        .collect()
}

/// Whether the game would read `text` (trimmed, non-empty) as raw.
pub(super) fn looks_like(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| Key::from_letter(c).is_some())
}
