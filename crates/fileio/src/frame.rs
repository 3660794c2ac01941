//! One frame for the engine's binary files: a 4-byte magic, a format
//! version (u32), the body's length (u64), the body, and a CRC32 of all
//! that precedes it, little-endian throughout. Each format keeps its own
//! body; the frame gives every one the same checks and the same errors.

/// What a damaged or foreign file is, named for the user.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FrameError {
    #[error("not a {what} file (it does not start with {magic:?})")]
    Magic { what: &'static str, magic: String },
    #[error("{what} file version {found} is not one this build reads ({supported})")]
    Version { what: &'static str, found: u32, supported: String },
    #[error("{what} file is truncated ({len} bytes)")]
    Truncated { what: &'static str, len: usize },
    #[error("{what} file is damaged (checksum mismatch)")]
    Checksum { what: &'static str },
    #[error("{what} file has {extra} bytes after its end")]
    Trailing { what: &'static str, extra: usize },
}

const HEADER: usize = 4 + 4 + 8;

/// `body` framed as format `version` of the file kind `magic`.
pub fn encode(magic: &[u8; 4], version: u32, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + body.len() + 4);
    out.extend_from_slice(magic);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(body);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The version and body of a frame of kind `magic` (`what` names the kind
/// in errors) whose version is one of `versions`.
pub fn decode<'a>(bytes: &'a [u8], magic: &[u8; 4], what: &'static str, versions: &[u32]) -> Result<(u32, &'a [u8]), FrameError> {
    if bytes.len() < 4 || &bytes[..4] != magic {
        return Err(FrameError::Magic { what, magic: String::from_utf8_lossy(magic).into_owned() });
    }
    if bytes.len() < HEADER + 4 {
        return Err(FrameError::Truncated { what, len: bytes.len() });
    }
    let version = u32::from_le_bytes(bytes[4..8].try_into().unwrap());
    let len = u64::from_le_bytes(bytes[8..16].try_into().unwrap());
    let end = (HEADER as u64).checked_add(len).filter(|&e| e + 4 <= bytes.len() as u64);
    let Some(end) = end.map(|e| e as usize) else {
        return Err(FrameError::Truncated { what, len: bytes.len() });
    };
    let crc = u32::from_le_bytes(bytes[end..end + 4].try_into().unwrap());
    if crc32fast::hash(&bytes[..end]) != crc {
        return Err(FrameError::Checksum { what });
    }
    if end + 4 != bytes.len() {
        return Err(FrameError::Trailing { what, extra: bytes.len() - end - 4 });
    }
    if !versions.contains(&version) {
        let supported = versions.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ");
        return Err(FrameError::Version { what, found: version, supported });
    }
    Ok((version, &bytes[HEADER..end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_every_damage_is_named() {
        let bytes = encode(b"TEST", 3, b"hello body");
        assert_eq!(decode(&bytes, b"TEST", "test", &[2, 3]), Ok((3, &b"hello body"[..])));
        assert!(matches!(decode(&bytes, b"OTHR", "test", &[3]), Err(FrameError::Magic { .. })));
        let err = decode(&bytes, b"TEST", "test", &[1, 2]).unwrap_err();
        assert_eq!(err.to_string(), "test file version 3 is not one this build reads (1, 2)");
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut], b"TEST", "test", &[3]).is_err(), "cut at {cut}");
        }
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut bad = bytes.clone();
                bad[i] ^= 1 << bit;
                assert!(decode(&bad, b"TEST", "test", &[3]).is_err(), "byte {i} bit {bit}");
            }
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(decode(&long, b"TEST", "test", &[3]), Err(FrameError::Trailing { extra: 1, .. })));
    }
}
