//! qntm's Base65536: 16 bits per character, and a final odd byte written with
//! a 256-character secondary repertoire.
//!
//! Every range of the alphabet is a run of whole 256-code-point blocks, and
//! the npm package (v5) maps the n-th alphabet character to the 16-bit value
//! with its two bytes swapped (the historic quirk). Both together mean: a
//! character's first byte is the low byte of its code point and its second
//! byte is the rank of its block among the 256 blocks of the alphabet.

use std::sync::OnceLock;

use super::{Format, ReplayError};

/// Inclusive code point ranges of the 65536 primary characters, in order.
const PRIMARY_RANGES: &[(u32, u32)] = &[
    (0x3400, 0x4CFF),
    (0x4E00, 0x9EFF),
    (0xA100, 0xA3FF),
    (0xA500, 0xA5FF),
    (0x10600, 0x106FF),
    (0x12000, 0x122FF),
    (0x13000, 0x133FF),
    (0x14400, 0x145FF),
    (0x16800, 0x169FF),
    (0x20000, 0x285FF),
];

/// The block of the secondary repertoire: U+1500 + byte, for a final odd byte.
const SECONDARY_BLOCK: u32 = 0x15;

struct Tables {
    /// First code point of the block of each rank (the second byte).
    block_start: [u32; 256],
    /// Indexed by `code point >> 8`: the block's rank, if it is in the alphabet.
    rank_of_block: Vec<Option<u8>>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let blocks: Vec<u32> = PRIMARY_RANGES.iter().flat_map(|&(first, last)| (first >> 8)..=(last >> 8)).collect();
        assert_eq!(blocks.len(), 256);
        let mut block_start = [0; 256];
        let mut rank_of_block = vec![None; blocks[255] as usize + 1];
        for (rank, &block) in blocks.iter().enumerate() {
            block_start[rank] = block << 8;
            rank_of_block[block as usize] = Some(rank as u8);
        }
        Tables { block_start, rank_of_block }
    })
}

/// Whether `c` is a character of the Base65536 alphabet (either repertoire).
/// The Base2048 alphabet (all below U+1100) shares none of them.
pub(super) fn is_alphabet_char(c: char) -> bool {
    let block = c as u32 >> 8;
    block == SECONDARY_BLOCK || rank(block).is_some()
}

fn rank(block: u32) -> Option<u8> {
    tables().rank_of_block.get(block as usize).copied().flatten()
}

fn char_at(cp: u32) -> char {
    char::from_u32(cp).expect("alphabet code points are scalar values")
}

pub(super) fn encode(bytes: &[u8]) -> String {
    let t = tables();
    let mut out = String::with_capacity(bytes.len() * 2);
    for pair in bytes.chunks(2) {
        out.push(match *pair {
            [first, second] => char_at(t.block_start[usize::from(second)] + u32::from(first)),
            [last] => char_at((SECONDARY_BLOCK << 8) + u32::from(last)),
            _ => unreachable!("chunks(2) yields one or two bytes"),
        });
    }
    out
}

/// Decodes like the npm package: every character must be in the alphabet and
/// a secondary character may only come last. There are no padding bits.
pub(super) fn decode(text: &str) -> Result<Vec<u8>, ReplayError> {
    let mut out = Vec::with_capacity(text.len() / 2);
    let mut chars = text.chars().enumerate().peekable();
    while let Some((position, ch)) = chars.next() {
        let cp = ch as u32;
        let low = (cp & 0xFF) as u8;
        let block = cp >> 8;
        if block == SECONDARY_BLOCK {
            if chars.peek().is_some() {
                return Err(ReplayError::SecondaryBeforeEnd { format: Format::Base65536, ch, position });
            }
            out.push(low);
            continue;
        }
        match rank(block) {
            Some(second) => out.extend([low, second]),
            None => return Err(ReplayError::UnrecognisedChar { format: Format::Base65536, ch, position }),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn byte_swap_quirk() {
        // 0xBB 0xBB (four runs of four Ds) is U+241BB: low byte 0xBB, and the
        // block 0x241 has rank 122 + 0x41 = 0xBB.
        assert_eq!(encode(&[0xBB, 0xBB]), "\u{241BB}");
        assert_eq!(encode(&[0x00, 0x00]), "\u{3400}");
        assert_eq!(encode(&[0xFF, 0xFF]), "\u{285FF}");
        assert_eq!(encode(&[0x12]), "\u{1512}");
    }

    proptest! {
        #[test]
        fn bytes_round_trip(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            prop_assert_eq!(decode(&encode(&bytes)).unwrap(), bytes);
        }
    }
}
