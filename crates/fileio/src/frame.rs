//! One frame for the engine's binary files: a 4-byte magic, a format
//! version (u32, little-endian), the body, and a CRC32 (little-endian) of
//! every byte before it. Each format keeps its own body; the frame gives
//! every one the same checks and the same errors. A streamed format (data
//! sets) writes the same frame piece by piece and checks its header with
//! [`check_header`].

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
}

/// Magic and version.
pub const HEADER: usize = 8;

/// A little-endian cursor over a frame's body. Every read past the end is
/// `None`, so a truncated or malformed body is an error the format names,
/// never a panic.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    pub fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }
    pub fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.array()?))
    }
    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.array()?))
    }
    pub fn f32(&mut self) -> Option<f32> {
        Some(f32::from_le_bytes(self.array()?))
    }
    pub fn f64(&mut self) -> Option<f64> {
        Some(f64::from_le_bytes(self.array()?))
    }
    /// A u32 length, then that many bytes of UTF-8.
    pub fn str(&mut self) -> Option<String> {
        let n = self.u32()? as usize;
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }
    /// A u64 count of records of at least `size` bytes each, refused when
    /// the bytes left cannot hold them (a damaged count asks for no huge
    /// allocation).
    pub fn count(&mut self, size: usize) -> Option<usize> {
        let n = usize::try_from(self.u64()?).ok()?;
        (n <= (self.bytes.len() - self.at) / size.max(1)).then_some(n)
    }
    /// Has every byte been read?
    pub fn is_done(&self) -> bool {
        self.at == self.bytes.len()
    }
}

/// `body` framed as format `version` of the file kind `magic`.
pub fn encode(magic: &[u8; 4], version: u32, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + body.len() + 4);
    out.extend_from_slice(&header(magic, version));
    out.extend_from_slice(body);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The first bytes of a frame.
pub fn header(magic: &[u8; 4], version: u32) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..4].copy_from_slice(magic);
    h[4..].copy_from_slice(&version.to_le_bytes());
    h
}

fn check_magic(bytes: &[u8], magic: &[u8; 4], what: &'static str) -> Result<(), FrameError> {
    if bytes.len() < 4 || &bytes[..4] != magic {
        return Err(FrameError::Magic { what, magic: String::from_utf8_lossy(magic).into_owned() });
    }
    Ok(())
}

/// The version in the first [`HEADER`] bytes of a frame of kind `magic`
/// (`what` names the kind in errors), if it is one of `versions`.
pub fn check_header(bytes: &[u8], magic: &[u8; 4], what: &'static str, versions: &[u32]) -> Result<u32, FrameError> {
    check_magic(bytes, magic, what)?;
    if bytes.len() < HEADER {
        return Err(FrameError::Truncated { what, len: bytes.len() });
    }
    let version = u32::from_le_bytes(bytes[4..8].try_into().unwrap());
    if !versions.contains(&version) {
        let supported = versions.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ");
        return Err(FrameError::Version { what, found: version, supported });
    }
    Ok(version)
}

/// The version and body of a whole frame of kind `magic` whose version is
/// one of `versions`. The checksum is checked before the version, so a
/// damaged file is called damaged.
pub fn decode<'a>(
    bytes: &'a [u8],
    magic: &[u8; 4],
    what: &'static str,
    versions: &[u32],
) -> Result<(u32, &'a [u8]), FrameError> {
    check_magic(bytes, magic, what)?;
    if bytes.len() < HEADER + 4 {
        return Err(FrameError::Truncated { what, len: bytes.len() });
    }
    let end = bytes.len() - 4;
    let crc = u32::from_le_bytes(bytes[end..].try_into().unwrap());
    if crc32fast::hash(&bytes[..end]) != crc {
        return Err(FrameError::Checksum { what });
    }
    let version = check_header(bytes, magic, what, versions)?;
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
        assert_eq!(&bytes[..8], &header(b"TEST", 3));
        assert_eq!(check_header(&bytes, b"TEST", "test", &[3]), Ok(3));
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
        assert!(matches!(decode(&long, b"TEST", "test", &[3]), Err(FrameError::Checksum { .. })));
    }
}
