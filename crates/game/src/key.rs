//! The four keys of a replay.

use std::fmt;

/// A key press. The discriminants are the replay codecs' 2-bit codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    L = 0,
    R = 1,
    D = 2,
    U = 3,
}

impl Key {
    pub const ALL: [Key; 4] = [Key::L, Key::R, Key::D, Key::U];

    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(code: u8) -> Key {
        Key::ALL[(code & 3) as usize]
    }

    pub fn letter(self) -> char {
        b"LRDU"[self as usize] as char
    }

    pub fn from_letter(c: char) -> Option<Key> {
        match c {
            'L' => Some(Key::L),
            'R' => Some(Key::R),
            'D' => Some(Key::D),
            'U' => Some(Key::U),
            _ => None,
        }
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Keys as the raw letters, e.g. "LLDU".
pub fn keys_to_string(keys: &[Key]) -> String {
    keys.iter().map(|k| k.letter()).collect()
}
