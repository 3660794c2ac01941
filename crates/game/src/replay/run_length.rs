//! The byte form under Base65536 and Base2048: runs of at most four equal
//! keys, each a nybble `key << 2 | (length - 1)`, two to a byte, high first.

use crate::key::Key;

const MAX_RUN: usize = 4;

/// The runs `(key, length)` the game's run-length encoder makes: greedy,
/// a new run whenever the key changes or the run is full.
pub(super) fn runs(keys: &[Key]) -> Vec<(Key, usize)> {
    let mut runs: Vec<(Key, usize)> = Vec::new();
    for &key in keys {
        match runs.last_mut() {
            Some((k, n)) if *k == key && *n < MAX_RUN => *n += 1,
            _ => runs.push((key, 1)),
        }
    }
    runs
}

/// An odd number of runs gets a zero nybble: one extra `L` when decoded.
pub(super) fn to_bytes(keys: &[Key]) -> Vec<u8> {
    let nybbles: Vec<u8> = runs(keys).into_iter().map(|(k, n)| k.code() << 2 | (n - 1) as u8).collect();
    nybbles.chunks(2).map(|p| p[0] << 4 | p.get(1).copied().unwrap_or(0)).collect()
}

/// Every byte is valid: each nybble is some key repeated 1..=4 times.
pub(super) fn from_bytes(bytes: &[u8]) -> Vec<Key> {
    let mut keys = Vec::with_capacity(bytes.len() * 5);
    for nybble in bytes.iter().flat_map(|&b| [b >> 4, b & 0xF]) {
        let run = Key::from_code(nybble >> 2);
        keys.extend(std::iter::repeat_n(run, usize::from(nybble & 3) + 1));
    }
    keys
}
