//! The enemy's memory of seen wells, as the enemy asks it: by the well's
//! `hash64`, first through a cheap filter that rules out most wells, then
//! exactly.

use crate::well::Well;
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::hash::BuildHasher;

/// What the enemy remembers: how often it has seen each well.
pub trait Memory {
    /// How many times `well` was seen; `hash` is its `hash64`, given so that
    /// a memory keyed by hash need not compute it.
    fn times_seen(&self, well: &Well, hash: u64) -> u32;

    /// False only if no well with this `hash64` was seen. The enemy asks it
    /// of every landing first, and builds the landing's well only when it
    /// says true.
    #[inline]
    fn may_have(&self, _hash: u64) -> bool {
        true
    }
}

/// A plain map of counts (the solvers' memory, which they also un-count).
impl<S: BuildHasher> Memory for HashMap<Well, u32, S> {
    fn times_seen(&self, well: &Well, _hash: u64) -> u32 {
        self.get(well).copied().unwrap_or(0)
    }
}

/// A set of hashes as a bitset, one bit a hash picked by its top bits, with
/// 64 to 128 bits per hash: at most about one hash in 64 not in the set
/// passes.
#[derive(Clone, Debug)]
pub struct HashFilter {
    bits: Vec<u64>,
    /// 64 - log2 of the bit count.
    shift: u32,
    /// Every hash inserted, to spread them again when the bitset grows.
    hashes: Vec<u64>,
}

impl Default for HashFilter {
    fn default() -> Self {
        HashFilter::with_words(64)
    }
}

impl HashFilter {
    fn with_words(words: usize) -> HashFilter {
        debug_assert!(words.is_power_of_two());
        let log2_bits = (words * 64).trailing_zeros();
        HashFilter { bits: vec![0; words], shift: 64 - log2_bits, hashes: Vec::new() }
    }

    #[inline]
    fn set(&mut self, hash: u64) {
        let bit = (hash >> self.shift) as usize;
        self.bits[bit / 64] |= 1 << (bit % 64);
    }

    pub fn insert(&mut self, hash: u64) {
        self.hashes.push(hash);
        if self.hashes.len() > self.bits.len() {
            let hashes = std::mem::take(&mut self.hashes);
            *self = HashFilter::with_words(2 * self.bits.len());
            self.hashes = hashes;
            for i in 0..self.hashes.len() {
                self.set(self.hashes[i]);
            }
        } else {
            self.set(hash);
        }
    }

    /// False only if `hash` was never inserted.
    #[inline]
    pub fn may_have(&self, hash: u64) -> bool {
        let bit = (hash >> self.shift) as usize;
        self.bits[bit / 64] >> (bit % 64) & 1 == 1
    }
}

/// The enemy's memory along one game: how often each well has been seen.
#[derive(Clone, Default, Debug)]
pub struct SeenWells {
    counts: FxHashMap<Well, u32>,
    filter: HashFilter,
}

impl SeenWells {
    pub fn count(&self, well: &Well) -> u32 {
        self.counts.get(well).copied().unwrap_or(0)
    }

    pub fn record(&mut self, well: &Well) {
        let count = self.counts.entry(*well).or_insert(0);
        if *count == 0 {
            self.filter.insert(well.hash64());
        }
        *count += 1;
    }

    pub fn len(&self) -> usize {
        self.counts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }
}

impl Memory for SeenWells {
    #[inline]
    fn times_seen(&self, well: &Well, _hash: u64) -> u32 {
        self.count(well)
    }

    #[inline]
    fn may_have(&self, hash: u64) -> bool {
        self.filter.may_have(hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_keeps_every_hash_as_it_grows() {
        let mut filter = HashFilter::default();
        let hashes: Vec<u64> = (1..5000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17)).collect();
        for (n, &h) in hashes.iter().enumerate() {
            filter.insert(h);
            if n % 500 == 0 {
                assert!(hashes[..=n].iter().all(|&h| filter.may_have(h)));
            }
        }
        assert!(hashes.iter().all(|&h| filter.may_have(h)));
        // About one in 64 others passes; allow four times that.
        let strangers = (0..10_000u64).map(|i| (i ^ 0xDEAD_BEEF).wrapping_mul(0xBF58_476D_1CE4_E5B9));
        let passed = strangers.filter(|&h| filter.may_have(h)).count();
        assert!(passed < 10_000 * 4 / 64, "{passed} false positives");
    }
}
