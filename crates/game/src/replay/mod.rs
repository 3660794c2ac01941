//! Replay codecs: the four text forms the official game reads.
//!
//! - raw: the key letters, `LLDDU...`;
//! - hex: two keys per hex digit, in groups of four digits;
//! - Base65536 and Base2048: the keys run-length encoded to bytes (see
//!   `run_length`), then written with qntm's alphabets. Base2048 is what the
//!   game writes today, and the default here.
//!
//! [`decode`] reads a text the way the game does, padding keys included: a
//! hex replay of odd length ends with an extra `D`, and a Base65536/Base2048
//! replay with an odd number of runs ends with an extra `L`. The game plays
//! those keys too, so they are kept.

mod base2048;
mod base65536;
mod hex;
mod raw;
mod run_length;

use std::fmt;
use std::str::FromStr;

use crate::key::Key;

/// A replay text form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Format {
    Raw,
    Hex,
    Base65536,
    #[default]
    Base2048,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Raw, Format::Hex, Format::Base65536, Format::Base2048];

    /// The usual name: `raw`, `hex`, `Base65536`, `Base2048` (as in the
    /// fixtures); [`FromStr`] takes it in any case.
    pub fn name(self) -> &'static str {
        match self {
            Format::Raw => "raw",
            Format::Hex => "hex",
            Format::Base65536 => "Base65536",
            Format::Base2048 => "Base2048",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = ReplayError;

    fn from_str(s: &str) -> Result<Format, ReplayError> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ReplayError::UnknownFormat(s.to_string()))
    }
}

/// Why a text is not a replay. Positions count characters (not bytes) from
/// the start of the trimmed text, from 0.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    #[error("empty replay (no keys)")]
    Empty,
    #[error("unrecognised {format} character {ch:?} at position {position}")]
    UnrecognisedChar { format: Format, ch: char, position: usize },
    #[error(
        "truncated or malformed {format} replay: secondary character {ch:?} at position {position} \
         before the end"
    )]
    SecondaryBeforeEnd { format: Format, ch: char, position: usize },
    #[error("truncated or malformed Base2048 replay: padding mismatch (the final {bits} bits are not all 1)")]
    PaddingMismatch { bits: u32 },
    #[error("unknown replay format {0:?} (expected raw, hex, base65536 or base2048)")]
    UnknownFormat(String),
}

/// JavaScript's `String.prototype.trim` set: Rust's `char::is_whitespace`
/// plus U+FEFF (byte order mark), minus U+0085 (next line).
fn is_js_whitespace(c: char) -> bool {
    c == '\u{FEFF}' || (c.is_whitespace() && c != '\u{85}')
}

fn trim(text: &str) -> &str {
    text.trim_matches(is_js_whitespace)
}

/// The form [`decode`] reads `text` as. Like the game: raw if only `L R D U`,
/// hex if only uppercase hex digits, `#` and spaces, else Base65536 if that
/// decodes, else Base2048. The two alphabets share no character, so a text
/// with any Base65536 character counts as Base65536 (its errors are the
/// useful ones). A blank text gives the default, Base2048.
pub fn detect(text: &str) -> Format {
    let text = trim(text);
    if raw::looks_like(text) {
        Format::Raw
    } else if hex::looks_like(text) {
        Format::Hex
    } else if text.chars().any(base65536::is_alphabet_char) {
        Format::Base65536
    } else {
        Format::Base2048
    }
}

/// Reads a replay in whichever form the game would (see [`detect`]).
/// Never panics; a blank text, or one with no keys, is [`ReplayError::Empty`].
pub fn decode(text: &str) -> Result<Vec<Key>, ReplayError> {
    decode_as(text, detect(text))
}

/// Reads a replay in the given form (trimmed first). Raw takes only
/// `L R D U`; hex only uppercase digits, `#` and spaces.
pub fn decode_as(text: &str, format: Format) -> Result<Vec<Key>, ReplayError> {
    let text = trim(text);
    let keys = match format {
        Format::Raw => raw::decode(text)?,
        Format::Hex => hex::decode(text)?,
        Format::Base65536 => run_length::from_bytes(&base65536::decode(text)?),
        Format::Base2048 => run_length::from_bytes(&base2048::decode(text)?),
    };
    if keys.is_empty() {
        return Err(ReplayError::Empty);
    }
    Ok(keys)
}

/// Writes keys as the game would ([`Format::Base2048`] is its current form).
/// No keys give an empty string. Very short Base2048 texts can be all ASCII
/// and then read as raw or hex (e.g. `[L]` is `F`, which reads as hex `UU`);
/// the game has the same collision.
pub fn encode(keys: &[Key], format: Format) -> String {
    match format {
        Format::Raw => raw::encode(keys),
        Format::Hex => hex::encode(keys),
        Format::Base65536 => base65536::encode(&run_length::to_bytes(keys)),
        Format::Base2048 => base2048::encode(&run_length::to_bytes(keys)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::known_replays;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    fn keys_of(s: &str) -> Vec<Key> {
        s.chars().map(|c| Key::from_letter(c).unwrap()).collect()
    }

    /// What decoding `encode(keys, format)` gives, per the game's codecs: hex
    /// adds a `D` to an odd length, the byte forms an `L` to an odd run count.
    fn expected(keys: &[Key], format: Format) -> Vec<Key> {
        let mut out = keys.to_vec();
        match format {
            Format::Raw => {}
            Format::Hex if keys.len() % 2 == 1 => out.push(Key::D),
            Format::Base65536 | Format::Base2048 if run_length::runs(keys).len() % 2 == 1 => out.push(Key::L),
            _ => {}
        }
        out
    }

    /// `keys`, and `keys` without its last key if that could be `format`'s padding.
    fn unpadded(keys: &[Key], format: Format) -> Vec<&[Key]> {
        let pad = match format {
            Format::Raw => None,
            Format::Hex => Some(Key::D),
            Format::Base65536 | Format::Base2048 => Some(Key::L),
        };
        let mut out = vec![keys];
        if keys.len() > 1 && keys.last().copied() == pad {
            out.push(&keys[..keys.len() - 1]);
        }
        out
    }

    fn fixture_format(encoding: &str) -> Format {
        encoding.parse().unwrap_or_else(|e| panic!("fixture encoding: {e}"))
    }

    /// Checks one encoding of `keys`, allowing only the documented collision
    /// of short all-ASCII Base2048 texts with raw/hex.
    fn check_round_trip(keys: &[Key], format: Format) -> Result<(), String> {
        let text = encode(keys, format);
        let want = expected(keys, format);
        let strict = decode_as(&text, format).map_err(|e| format!("{format} {text:?}: {e}"))?;
        if strict != want {
            return Err(format!("decode_as {format} {text:?}: {strict:?} != {want:?}"));
        }
        let detected = detect(&text);
        if detected != format {
            if format == Format::Base2048 && text.is_ascii() {
                return Ok(());
            }
            return Err(format!("{format} {text:?} detected as {detected}"));
        }
        match decode(&text) {
            Ok(got) if got == want => Ok(()),
            other => Err(format!("decode {format} {text:?}: {other:?} != {want:?}")),
        }
    }

    fn arb_keys(max: usize) -> impl Strategy<Value = Vec<Key>> {
        proptest::collection::vec((0u8..4).prop_map(Key::from_code), 1..max)
    }

    /// Strings mixing characters of every form, so that the decoders get past
    /// their first character more often than with arbitrary strings.
    fn arb_replay_like() -> impl Strategy<Value = String> {
        let ch = prop_oneof![
            prop::sample::select(vec!['L', 'R', 'D', 'U', 'A', '0', '7', '8', '#', ' ', '\n', 'a', '!']),
            proptest::char::range('\u{0030}', '\u{1060}'),
            proptest::char::range('\u{14F0}', '\u{1610}'),
            proptest::char::range('\u{241B0}', '\u{241C0}'),
            any::<char>(),
        ];
        proptest::collection::vec(ch, 0..24).prop_map(|v| v.into_iter().collect())
    }

    proptest! {
        #[test]
        fn encode_then_decode_gives_the_keys_back(keys in arb_keys(300)) {
            for format in Format::ALL {
                if let Err(e) = check_round_trip(&keys, format) {
                    prop_assert!(false, "{}", e);
                }
            }
        }

        #[test]
        fn decode_never_panics_on_arbitrary_strings(text in any::<String>()) {
            let _ = decode(&text);
            for format in Format::ALL {
                let _ = decode_as(&text, format);
            }
        }

        #[test]
        fn decode_never_panics_on_replay_like_strings(text in arb_replay_like()) {
            let result = decode(&text);
            // An error message is one line.
            if let Err(e) = result {
                prop_assert!(!e.to_string().contains('\n'));
            }
        }
    }

    #[test]
    fn every_short_sequence_round_trips() {
        // All 4 + 16 + ... + 4^7 sequences: the collisions of short texts live here.
        let mut base2048_collisions = Vec::new();
        for len in 1..=7u32 {
            for n in 0..4usize.pow(len) {
                let keys: Vec<Key> = (0..len).map(|i| Key::from_code((n >> (2 * i)) as u8)).collect();
                for format in Format::ALL {
                    check_round_trip(&keys, format).unwrap();
                }
                let text = encode(&keys, Format::Base2048);
                if detect(&text) != Format::Base2048 {
                    base2048_collisions.push(text);
                }
            }
        }
        // The documented collision exists, and only for very short texts.
        assert!(base2048_collisions.contains(&"F".to_string()));
        assert!(base2048_collisions.iter().all(|t| t.len() <= 2), "{base2048_collisions:?}");
    }

    #[test]
    fn short_base2048_collision_reads_like_the_game() {
        assert_eq!(encode(&[Key::L], Format::Base2048), "F");
        assert_eq!(detect("F"), Format::Hex);
        assert_eq!(decode("F").unwrap(), keys_of("UU"));
    }

    #[test]
    fn hex_that_looks_raw_gets_a_hash() {
        assert_eq!(encode(&keys_of("URUR"), Format::Hex), "#DD");
        assert_eq!(decode("#DD").unwrap(), keys_of("URUR"));
        // The game reads `DD` as raw.
        assert_eq!(decode("DD").unwrap(), keys_of("DD"));
        assert_eq!(encode(&keys_of("URURURURUR"), Format::Hex), "DDDD D");
    }

    #[test]
    fn hex_layout_and_padding() {
        assert_eq!(encode(&keys_of("LRDULLDDU"), Format::Hex), "1B0A E");
        assert_eq!(decode("1B0A E").unwrap(), keys_of("LRDULLDDUD"));
        assert_eq!(encode(&keys_of("DDDDDDDDDD"), Format::Hex), "AAAA A");
        assert_eq!(decode("  #AA AA\n").unwrap(), keys_of("DDDDDDDD"));
    }

    #[test]
    fn formats_parse_in_any_case() {
        for format in Format::ALL {
            assert_eq!(format.name().to_uppercase().parse::<Format>().unwrap(), format);
            assert_eq!(format.name().to_lowercase().parse::<Format>().unwrap(), format);
            assert_eq!(format.to_string(), format.name());
        }
        assert_eq!(Format::default(), Format::Base2048);
        let err = "base64".parse::<Format>().unwrap_err();
        assert!(err.to_string().contains("base64"), "{err}");
    }

    #[test]
    fn qntm_vectors() {
        // hex `AAAA` x 11 then `A2`: 90 Ds, then L and the hex padding D.
        let keys: Vec<Key> = std::iter::repeat_n(Key::D, 90).chain([Key::L]).collect();
        let fixtures: Vec<_> = known_replays().into_iter().filter(|r| r.name == "qntm").collect();
        assert_eq!(fixtures.len(), 3);
        for r in &fixtures {
            let format = fixture_format(&r.encoding);
            assert_eq!(encode(&keys, format), r.replay, "{format}");
            assert_eq!(decode(&r.replay).unwrap(), expected(&keys, format), "{format}");
        }
        assert_eq!(encode(&keys, Format::Base65536), "𤆻𤆻𤆻𤆻𤆻𡚻");
        assert_eq!(encode(&keys, Format::Base2048), "௨ටໃݹ௨ටໃݹठ");
    }

    #[test]
    fn every_fixture_decodes_and_the_game_writes_it_as_we_do() {
        let replays = known_replays();
        assert!(!replays.is_empty());
        for r in &replays {
            let format = fixture_format(&r.encoding);
            assert_eq!(detect(&r.replay), format, "{} ({})", r.name, r.encoding);
            let keys = decode(&r.replay).unwrap_or_else(|e| panic!("{} ({}): {e}", r.name, r.encoding));
            // Our writer gives the fixture text back, for the keys with or
            // without the trailing padding key.
            assert!(
                unpadded(&keys, format).iter().any(|k| encode(k, format) == r.replay),
                "{} ({}) is not re-encoded identically",
                r.name,
                r.encoding
            );
            // Re-encoded in the tool's default form, it reads back the same.
            let again = encode(&keys, Format::Base2048);
            assert_eq!(decode(&again).unwrap(), expected(&keys, Format::Base2048), "{}", r.name);
        }
    }

    /// Two readings of one replay agree if equal, or if the longer has one
    /// extra trailing key: hex's padding `D`, the byte forms' padding `L`, or
    /// an `L` at the end of a hex replay (the historic hex fixtures Atypical
    /// and Ivenris end with one, where the game is already over). The two
    /// byte forms carry the same bytes, so they must be equal.
    fn agree((fa, ka): (Format, &[Key]), (fb, kb): (Format, &[Key])) -> bool {
        let bytes = |f| matches!(f, Format::Base65536 | Format::Base2048);
        if ka == kb || (bytes(fa) && bytes(fb)) {
            return ka == kb;
        }
        let (fl, long, short) = if ka.len() > kb.len() { (fa, ka, kb) } else { (fb, kb, ka) };
        long.len() == short.len() + 1
            && long.starts_with(short)
            && match fl {
                Format::Raw => false,
                Format::Hex => matches!(long[short.len()], Key::D | Key::L),
                Format::Base65536 | Format::Base2048 => long[short.len()] == Key::L,
            }
    }

    #[test]
    fn encodings_of_one_fixture_agree() {
        let mut by_name: BTreeMap<String, Vec<(Format, Vec<Key>)>> = BTreeMap::new();
        for r in known_replays() {
            let keys = decode(&r.replay).unwrap();
            by_name.entry(r.name).or_default().push((fixture_format(&r.encoding), keys));
        }
        let mut compared = 0;
        for (name, forms) in &by_name {
            for (i, (fa, ka)) in forms.iter().enumerate() {
                for (fb, kb) in &forms[i + 1..] {
                    assert!(agree((*fa, ka), (*fb, kb)), "{name}: {fa} and {fb} differ");
                    compared += 1;
                }
            }
        }
        assert!(compared >= 3 * 13, "only {compared} pairs compared");
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert_eq!(decode(""), Err(ReplayError::Empty));
        assert_eq!(decode(" \t\n\u{FEFF}"), Err(ReplayError::Empty));
        assert_eq!(decode("# #"), Err(ReplayError::Empty));

        let e = decode("LLDX!").unwrap_err();
        assert_eq!(e, ReplayError::UnrecognisedChar { format: Format::Base2048, ch: '!', position: 4 });
        assert_eq!(e.to_string(), "unrecognised Base2048 character '!' at position 4");

        // A Base65536 text with a stray character reports the Base65536 error.
        let e = decode("𤆻𤆻x𤆻").unwrap_err();
        assert_eq!(e, ReplayError::UnrecognisedChar { format: Format::Base65536, ch: 'x', position: 2 });

        // The strict readers: lowercase is not hex, and spaces are not raw.
        let e = decode_as("aa", Format::Hex).unwrap_err();
        assert_eq!(e.to_string(), "unrecognised hex character 'a' at position 0");
        assert!(decode_as("LL DD", Format::Raw).is_err());
    }

    #[test]
    fn truncated_or_spliced_base_texts_are_errors() {
        let replays = known_replays();
        let atypical =
            |enc: &str| replays.iter().find(|r| r.name == "Atypical" && r.encoding == enc).unwrap().replay.clone();
        let b2048 = atypical("Base2048");
        let chars: Vec<char> = b2048.chars().collect();

        // Dropping the last character leaves bits that are not the padding.
        let truncated: String = chars[..chars.len() - 1].iter().collect();
        let e = decode(&truncated).unwrap_err();
        assert!(matches!(e, ReplayError::PaddingMismatch { .. }), "{e}");
        assert!(e.to_string().starts_with("truncated or malformed Base2048"), "{e}");

        // A secondary character (`0`..`7`) is only allowed last.
        let mut spliced = chars.clone();
        spliced.insert(5, '3');
        let e = decode(&spliced.iter().collect::<String>()).unwrap_err();
        assert_eq!(e, ReplayError::SecondaryBeforeEnd { format: Format::Base2048, ch: '3', position: 5 });
        assert!(e.to_string().contains("secondary character '3' at position 5 before the end"), "{e}");

        let mut spliced: Vec<char> = atypical("Base65536").chars().collect();
        spliced.insert(2, '\u{1500}');
        let e = decode(&spliced.iter().collect::<String>()).unwrap_err();
        assert_eq!(e, ReplayError::SecondaryBeforeEnd { format: Format::Base65536, ch: '\u{1500}', position: 2 });

        // Some truncations are undetectable (the bits left are whole bytes):
        // they decode to a shorter replay, as in the game.
        let qntm: Vec<char> = "௨ටໃݹ௨ටໃݹठ".chars().collect();
        assert!(decode(&qntm[..8].iter().collect::<String>()).is_ok());
    }

    #[test]
    fn alphabets_are_disjoint() {
        for cp in 0..0x1100u32 {
            if let Some(c) = char::from_u32(cp) {
                assert!(!(base2048::is_alphabet_char(c) && base65536::is_alphabet_char(c)), "{c:?}");
            }
        }
    }
}
