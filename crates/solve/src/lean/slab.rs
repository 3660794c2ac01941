//! The table's memory: `u64`s, zeroed. On Unix an anonymous private map
//! (the kernel zeroes it lazily, so a large, sparsely touched sub-table
//! costs only the pages it uses), advised on Linux to use transparent huge
//! pages, since the table's probes are random. Elsewhere a zeroed heap
//! allocation.

/// `len` zeroed `u64`s, owned.
pub(super) struct Slab {
    pub(super) ptr: *mut u64,
    pub(super) len: usize,
}

// The slab owns its memory exclusively.
unsafe impl Send for Slab {}
unsafe impl Sync for Slab {}

impl Slab {
    #[cfg(unix)]
    pub(super) fn new(len: usize) -> Option<Slab> {
        let bytes = len * 8;
        // SAFETY: a fresh anonymous mapping; the result is checked.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return None;
        }
        #[cfg(target_os = "linux")]
        if bytes >= 4 << 20 {
            // Advice only: without transparent huge pages it is just slower.
            // SAFETY: the range is the mapping just made.
            unsafe { libc::madvise(ptr, bytes, libc::MADV_HUGEPAGE) };
        }
        Some(Slab { ptr: ptr as *mut u64, len })
    }

    #[cfg(not(unix))]
    pub(super) fn new(len: usize) -> Option<Slab> {
        let mut v = Vec::new();
        v.try_reserve_exact(len).ok()?;
        v.resize(len, 0u64);
        let ptr = Box::into_raw(v.into_boxed_slice()) as *mut u64;
        Some(Slab { ptr, len })
    }

    pub(super) fn as_slice(&self) -> &[u64] {
        // SAFETY: `len` u64s, read-write, zero-initialised, owned by self.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    pub(super) fn as_mut_slice(&mut self) -> &mut [u64] {
        // SAFETY: as above, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl Drop for Slab {
    fn drop(&mut self) {
        #[cfg(unix)]
        // SAFETY: the mapping made in `new`, unmapped once.
        unsafe {
            libc::munmap(self.ptr as *mut libc::c_void, self.len * 8)
        };
        #[cfg(not(unix))]
        // SAFETY: the boxed slice leaked in `new`, freed once.
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(self.ptr, self.len)) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slab_is_zeroed_and_writable() {
        let mut s = Slab::new(1 << 20).unwrap();
        assert!(s.as_slice().iter().all(|&v| v == 0));
        s.as_mut_slice()[12345] = 7;
        assert_eq!(s.as_slice()[12345], 7);
    }
}
