//! Hex replays (the game's old form): each hex digit is two keys, `4 * first
//! + second`, written in groups of four digits separated by spaces.

use super::{Format, ReplayError};
use crate::key::Key;

const DIGITS: &[u8; 16] = b"0123456789ABCDEF";

/// An odd-length sequence is completed with a `D`, as the game does.
///
/// One departure from the game's writer: a hex text of at most four digits
/// that are all `D` (keys `U R` repeated) is also valid raw text, and the
/// game reads raw first, so `URUR` written as `DD` would come back as `DD`.
/// Such a text is prefixed with `#`, which hex readers ignore.
pub(super) fn encode(keys: &[Key]) -> String {
    let digits: Vec<u8> = keys
        .chunks(2)
        .map(|pair| {
            let second = pair.get(1).copied().unwrap_or(Key::D);
            DIGITS[usize::from(4 * pair[0].code() + second.code())]
        })
        .collect();
    let mut out = String::with_capacity(digits.len() * 5 / 4 + 1);
    if digits.len() <= 4 && !digits.is_empty() && digits.iter().all(|&d| d == b'D') {
        out.push('#');
    }
    for (i, group) in digits.chunks(4).enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.extend(group.iter().map(|&d| char::from(d)));
    }
    out
}

fn digit_value(ch: char) -> Option<u8> {
    // Uppercase only: the game only reads a text as hex if it matches
    // `^[0123456789ABCDEF# ]+$`, so lowercase digits never reach its decoder.
    DIGITS.iter().position(|&d| char::from(d) == ch).map(|v| v as u8)
}

/// Hex digits; spaces and `#` are ignored. Anything else is an error (the
/// game's decoder skips it, but its detection never hands it such a text).
pub(super) fn decode(text: &str) -> Result<Vec<Key>, ReplayError> {
    let mut keys = Vec::with_capacity(text.len() * 2);
    for (position, ch) in text.chars().enumerate() {
        if ch == ' ' || ch == '#' {
            continue;
        }
        let v = digit_value(ch).ok_or(ReplayError::UnrecognisedChar { format: Format::Hex, ch, position })?;
        keys.extend([Key::from_code(v >> 2), Key::from_code(v & 3)]);
    }
    Ok(keys)
}

/// Whether the game would read `text` (trimmed, non-empty, not raw) as hex.
pub(super) fn looks_like(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c == ' ' || c == '#' || digit_value(c).is_some())
}
