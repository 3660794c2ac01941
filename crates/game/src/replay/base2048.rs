//! qntm's Base2048: 11 bits per character, most significant bit first.
//!
//! The alphabet is the one of the `base2048` npm package (v3) that the game
//! uses; the `base2048` crate on crates.io has a different alphabet. A final
//! group of 1..=3 bits is padded with 1 bits to 3 bits and written with the
//! 8-character secondary repertoire `0`..`7`; a final group of 4..=10 bits is
//! padded with 1 bits to 11 bits and written with the primary repertoire.

use std::sync::OnceLock;

use super::{Format, ReplayError};

const BITS_PER_CHAR: u32 = 11;
const SECONDARY_BITS: u32 = 3;

/// Inclusive code point ranges of the 2048 primary characters, in order:
/// the n-th character of the concatenation encodes the 11-bit value n.
#[rustfmt::skip]
const PRIMARY_RANGES: &[(u32, u32)] = &[
    (0x0038, 0x0039), (0x0041, 0x005A), (0x0061, 0x007A), (0x00C6, 0x00C6), (0x00D0, 0x00D0),
    (0x00D8, 0x00D8), (0x00DE, 0x00DF), (0x00E6, 0x00E6), (0x00F0, 0x00F0), (0x00F8, 0x00F8),
    (0x00FE, 0x00FE), (0x0110, 0x0111), (0x0126, 0x0127), (0x0131, 0x0131), (0x0138, 0x0138),
    (0x0141, 0x0142), (0x014A, 0x014B), (0x0152, 0x0153), (0x0166, 0x0167), (0x0180, 0x019F),
    (0x01A2, 0x01AE), (0x01B1, 0x01C3), (0x01DD, 0x01DD), (0x01E4, 0x01E5), (0x01F6, 0x01F7),
    (0x021C, 0x021D), (0x0220, 0x0225), (0x0234, 0x02AF), (0x0370, 0x0373), (0x0376, 0x0377),
    (0x037B, 0x037D), (0x037F, 0x037F), (0x0391, 0x03A1), (0x03A3, 0x03A9), (0x03B1, 0x03C9),
    (0x03CF, 0x03CF), (0x03D7, 0x03EF), (0x03F3, 0x03F3), (0x03F7, 0x03F8), (0x03FA, 0x03FF),
    (0x0402, 0x0402), (0x0404, 0x0406), (0x0408, 0x040B), (0x040F, 0x0418), (0x041A, 0x0438),
    (0x043A, 0x044F), (0x0452, 0x0452), (0x0454, 0x0456), (0x0458, 0x045B), (0x045F, 0x0475),
    (0x0478, 0x0481), (0x048A, 0x04C0), (0x04C3, 0x04CF), (0x04D4, 0x04D5), (0x04D8, 0x04D9),
    (0x04E0, 0x04E1), (0x04E8, 0x04E9), (0x04F6, 0x04F7), (0x04FA, 0x052F), (0x0531, 0x0556),
    (0x0561, 0x0586), (0x05D0, 0x05EA), (0x05F0, 0x05F2), (0x0620, 0x0621), (0x0627, 0x063F),
    (0x0641, 0x064A), (0x0660, 0x0669), (0x066E, 0x066F), (0x0671, 0x0674), (0x0679, 0x06BF),
    (0x06C1, 0x06C1), (0x06C3, 0x06D2), (0x06D5, 0x06D5), (0x06EE, 0x06FC), (0x06FF, 0x06FF),
    (0x0710, 0x0710), (0x0712, 0x072F), (0x074D, 0x07A5), (0x07B1, 0x07B1), (0x07C0, 0x07EA),
    (0x0800, 0x0815), (0x0840, 0x0858), (0x0860, 0x086A), (0x08A0, 0x08B4), (0x08B6, 0x08BD),
    (0x0904, 0x0928), (0x092A, 0x0930), (0x0932, 0x0933), (0x0935, 0x0939), (0x093D, 0x093D),
    (0x0950, 0x0950), (0x0960, 0x0961), (0x0966, 0x096F), (0x0972, 0x0980), (0x0985, 0x098C),
    (0x098F, 0x0990), (0x0993, 0x09A8), (0x09AA, 0x09B0), (0x09B2, 0x09B2), (0x09B6, 0x09B9),
    (0x09BD, 0x09BD), (0x09CE, 0x09CE), (0x09E0, 0x09E1), (0x09E6, 0x09F1), (0x09F4, 0x09F9),
    (0x09FC, 0x09FC), (0x0A05, 0x0A0A), (0x0A0F, 0x0A10), (0x0A13, 0x0A28), (0x0A2A, 0x0A30),
    (0x0A32, 0x0A32), (0x0A35, 0x0A35), (0x0A38, 0x0A39), (0x0A5C, 0x0A5C), (0x0A66, 0x0A6F),
    (0x0A72, 0x0A74), (0x0A85, 0x0A8D), (0x0A8F, 0x0A91), (0x0A93, 0x0AA8), (0x0AAA, 0x0AB0),
    (0x0AB2, 0x0AB3), (0x0AB5, 0x0AB9), (0x0ABD, 0x0ABD), (0x0AD0, 0x0AD0), (0x0AE0, 0x0AE1),
    (0x0AE6, 0x0AEF), (0x0AF9, 0x0AF9), (0x0B05, 0x0B0C), (0x0B0F, 0x0B10), (0x0B13, 0x0B28),
    (0x0B2A, 0x0B30), (0x0B32, 0x0B33), (0x0B35, 0x0B39), (0x0B3D, 0x0B3D), (0x0B5F, 0x0B61),
    (0x0B66, 0x0B6F), (0x0B71, 0x0B77), (0x0B83, 0x0B83), (0x0B85, 0x0B8A), (0x0B8E, 0x0B90),
    (0x0B92, 0x0B93), (0x0B95, 0x0B95), (0x0B99, 0x0B9A), (0x0B9C, 0x0B9C), (0x0B9E, 0x0B9F),
    (0x0BA3, 0x0BA4), (0x0BA8, 0x0BAA), (0x0BAE, 0x0BB9), (0x0BD0, 0x0BD0), (0x0BE6, 0x0BF2),
    (0x0C05, 0x0C0C), (0x0C0E, 0x0C10), (0x0C12, 0x0C28), (0x0C2A, 0x0C39), (0x0C3D, 0x0C3D),
    (0x0C58, 0x0C5A), (0x0C60, 0x0C61), (0x0C66, 0x0C6F), (0x0C78, 0x0C7E), (0x0C80, 0x0C80),
    (0x0C85, 0x0C8C), (0x0C8E, 0x0C90), (0x0C92, 0x0CA8), (0x0CAA, 0x0CB3), (0x0CB5, 0x0CB9),
    (0x0CBD, 0x0CBD), (0x0CDE, 0x0CDE), (0x0CE0, 0x0CE1), (0x0CE6, 0x0CEF), (0x0CF1, 0x0CF2),
    (0x0D05, 0x0D0C), (0x0D0E, 0x0D10), (0x0D12, 0x0D3A), (0x0D3D, 0x0D3D), (0x0D4E, 0x0D4E),
    (0x0D54, 0x0D56), (0x0D58, 0x0D61), (0x0D66, 0x0D78), (0x0D7A, 0x0D7F), (0x0D85, 0x0D96),
    (0x0D9A, 0x0DB1), (0x0DB3, 0x0DBB), (0x0DBD, 0x0DBD), (0x0DC0, 0x0DC6), (0x0DE6, 0x0DEF),
    (0x0E01, 0x0E30), (0x0E32, 0x0E32), (0x0E40, 0x0E45), (0x0E50, 0x0E59), (0x0E81, 0x0E82),
    (0x0E84, 0x0E84), (0x0E87, 0x0E88), (0x0E8A, 0x0E8A), (0x0E8D, 0x0E8D), (0x0E94, 0x0E97),
    (0x0E99, 0x0E9F), (0x0EA1, 0x0EA3), (0x0EA5, 0x0EA5), (0x0EA7, 0x0EA7), (0x0EAA, 0x0EAB),
    (0x0EAD, 0x0EB0), (0x0EB2, 0x0EB2), (0x0EBD, 0x0EBD), (0x0EC0, 0x0EC4), (0x0ED0, 0x0ED9),
    (0x0EDE, 0x0EDF), (0x0F00, 0x0F00), (0x0F20, 0x0F33), (0x0F40, 0x0F42), (0x0F44, 0x0F47),
    (0x0F49, 0x0F4C), (0x0F4E, 0x0F51), (0x0F53, 0x0F56), (0x0F58, 0x0F5B), (0x0F5D, 0x0F68),
    (0x0F6A, 0x0F6C), (0x0F88, 0x0F8C), (0x1000, 0x1025), (0x1027, 0x102A), (0x103F, 0x1049),
    (0x1050, 0x1055),
];

/// The 8 secondary characters, `0`..=`7`, encoding a final 3-bit value.
const SECONDARY_RANGE: (u32, u32) = (0x30, 0x37);

/// Marks a code point in [`Tables::decode`] that is in neither repertoire.
const NONE: u16 = u16::MAX;
/// Flags a secondary character's value in [`Tables::decode`].
const SECONDARY_FLAG: u16 = 0x8000;

struct Tables {
    primary: Vec<char>,
    secondary: Vec<char>,
    /// Indexed by code point (every character is below U+1100): the 11-bit
    /// value, the 3-bit value with `SECONDARY_FLAG`, or `NONE`.
    decode: Vec<u16>,
}

fn chars_of(ranges: &[(u32, u32)]) -> Vec<char> {
    ranges
        .iter()
        .flat_map(|&(first, last)| first..=last)
        .map(|cp| char::from_u32(cp).expect("alphabet code points are scalar values"))
        .collect()
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let primary = chars_of(PRIMARY_RANGES);
        let secondary = chars_of(&[SECONDARY_RANGE]);
        assert_eq!(primary.len(), 1 << BITS_PER_CHAR);
        assert_eq!(secondary.len(), 1 << SECONDARY_BITS);
        let top = primary.iter().chain(&secondary).map(|&c| c as usize).max().unwrap_or(0);
        let mut decode = vec![NONE; top + 1];
        for (z, &c) in primary.iter().enumerate() {
            decode[c as usize] = z as u16;
        }
        for (z, &c) in secondary.iter().enumerate() {
            decode[c as usize] = SECONDARY_FLAG | z as u16;
        }
        Tables { primary, secondary, decode }
    })
}

/// `(bits, value)` of a character of either repertoire.
fn lookup(c: char) -> Option<(u32, u32)> {
    match tables().decode.get(c as usize).copied() {
        None | Some(NONE) => None,
        Some(v) if v & SECONDARY_FLAG != 0 => Some((SECONDARY_BITS, u32::from(v & !SECONDARY_FLAG))),
        Some(v) => Some((BITS_PER_CHAR, u32::from(v))),
    }
}

/// Whether `c` is a character of the Base2048 alphabet (either repertoire).
#[cfg(test)]
pub(super) fn is_alphabet_char(c: char) -> bool {
    lookup(c).is_some()
}

pub(super) fn encode(bytes: &[u8]) -> String {
    let t = tables();
    let mut out = String::with_capacity(bytes.len() * 3);
    // Pending bits, most significant first; never more than 10 + 8 of them.
    let (mut acc, mut n) = (0u32, 0u32);
    for &b in bytes {
        acc = (acc << 8) | u32::from(b);
        n += 8;
        while n >= BITS_PER_CHAR {
            n -= BITS_PER_CHAR;
            out.push(t.primary[(acc >> n) as usize]);
            acc &= (1 << n) - 1;
        }
    }
    if n > 0 {
        let (width, repertoire) =
            if n <= SECONDARY_BITS { (SECONDARY_BITS, &t.secondary) } else { (BITS_PER_CHAR, &t.primary) };
        let pad = width - n;
        out.push(repertoire[((acc << pad) | ((1 << pad) - 1)) as usize]);
    }
    out
}

/// Decodes like the npm package: every character must be in the alphabet, a
/// secondary character only last, and the leftover bits (fewer than 8) must
/// be the all-1 padding; anything else means a truncated or mangled string.
pub(super) fn decode(text: &str) -> Result<Vec<u8>, ReplayError> {
    let mut out = Vec::with_capacity(text.len());
    let (mut acc, mut n) = (0u32, 0u32);
    let mut chars = text.chars().enumerate().peekable();
    while let Some((position, ch)) = chars.next() {
        let (bits, z) = lookup(ch).ok_or(ReplayError::UnrecognisedChar { format: Format::Base2048, ch, position })?;
        if bits == SECONDARY_BITS && chars.peek().is_some() {
            return Err(ReplayError::SecondaryBeforeEnd { format: Format::Base2048, ch, position });
        }
        acc = (acc << bits) | z;
        n += bits;
        while n >= 8 {
            n -= 8;
            out.push((acc >> n) as u8);
            acc &= (1 << n) - 1;
        }
    }
    if acc != (1 << n) - 1 {
        return Err(ReplayError::PaddingMismatch { bits: n });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn alphabet_is_2048_plus_8_distinct_characters() {
        let t = tables();
        let mut all: Vec<char> = t.primary.iter().chain(&t.secondary).copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2048 + 8);
        // The first primary characters are ASCII `8`, `9`, `A`...
        assert_eq!(&t.primary[..3], &['8', '9', 'A']);
        assert_eq!(t.primary[2047], '\u{1055}');
    }

    #[test]
    fn final_partial_groups_use_the_right_repertoire() {
        assert_eq!(encode(&[]), "");
        // 8 bits + 3 one-bits = 0b00000000111 = 7 -> primary[7] = 'F'.
        assert_eq!(encode(&[0]), "F");
        // 16 bits = 11 + 5; 5 bits padded with 6 ones.
        assert_eq!(decode(&encode(&[1, 2])).unwrap(), vec![1, 2]);
        // 88 bits = 8 characters exactly, 96 bits = 8 + 8 bits (primary),
        // 32 bits = 2 * 11 + 10, 24 bits = 2 * 11 + 2 (secondary, padded with one 1).
        assert_eq!(encode(&[0xFF; 11]).chars().count(), 8);
        let three = encode(&[0xAB, 0xCD, 0xEF]);
        assert!(('0'..='7').contains(&three.chars().last().unwrap()), "{three}");
    }

    proptest! {
        #[test]
        fn bytes_round_trip(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            prop_assert_eq!(decode(&encode(&bytes)).unwrap(), bytes);
        }
    }
}
