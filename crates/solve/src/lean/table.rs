//! The concurrent table: one open-addressed sub-table of `u64` entries per
//! bottom row, each behind its own lock, growing under a memory cap.

use super::slab::Slab;
use super::*;
use std::sync::atomic::{AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// A finder's verdict on one key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    /// Not there; this empty slot is where it would go.
    Absent(usize),
    /// There, at this slot, with this tag.
    Found(usize, u64),
}

/// One bottom row's wells.
pub(super) struct SubTable {
    pub(super) slots: Slab,
    pub(super) len: usize,
}

#[inline]
pub(super) fn mix(key: u64) -> u64 {
    // The splitmix64 finaliser.
    let mut z = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The home slot of `rest` among `n`: the hash scaled to 0..n.
#[inline]
pub(super) fn home(rest: u64, n: usize) -> usize {
    ((mix(rest) as u128 * n as u128) >> 64) as usize
}

impl SubTable {
    #[inline]
    pub(super) fn find(&self, rest: u64) -> Slot {
        let slots = self.slots.as_slice();
        let mut i = home(rest, slots.len());
        loop {
            let e = slots[i];
            if e == 0 {
                return Slot::Absent(i);
            }
            if e >> 4 == rest {
                return Slot::Found(i, e & 15);
            }
            i += 1;
            if i == slots.len() {
                i = 0;
            }
        }
    }
}

/// One sub-table behind its lock, with an unlocked hint of where its slots
/// are (for prefetching only: a stale hint costs a wasted prefetch, and a
/// prefetch never faults). Aligned so that two locks never share a line.
#[repr(align(64))]
pub(super) struct Shard {
    pub(super) sub: Mutex<SubTable>,
    pub(super) hint_ptr: AtomicPtr<u64>,
    pub(super) hint_len: AtomicUsize,
}

impl Shard {
    pub(super) fn lock(&self) -> MutexGuard<'_, SubTable> {
        // A poisoned lock means a worker panicked; the panic is re-raised when joined.
        self.sub.lock().unwrap_or_else(|e| e.into_inner())
    }

    #[inline]
    pub(super) fn prefetch(&self, rest: u64) {
        let ptr = self.hint_ptr.load(Ordering::Relaxed);
        let len = self.hint_len.load(Ordering::Relaxed);
        let p = ptr.wrapping_add(home(rest, len));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint that never faults, whatever the address.
        unsafe {
            std::arch::x86_64::_mm_prefetch(p as *const i8, std::arch::x86_64::_MM_HINT_T0)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let _ = p;
    }
}

/// Every sub-table, with the memory they map and the cap on it.
pub(super) struct Table {
    pub(super) shards: Vec<Shard>,
    pub(super) bytes: AtomicU64,
    pub(super) limit: u64,
    /// Wells inserted, as last flushed by the workers.
    pub(super) wells: AtomicU64,
}

impl Table {
    pub(super) fn new(limit: u64) -> Result<Table, LeanError> {
        let bytes = (TABLES * MIN_SLOTS * 8) as u64;
        if bytes > limit {
            return Err(LeanError::MemoryCap { limit_bytes: limit, wells: 0 });
        }
        let shards = (0..TABLES)
            .map(|_| {
                let slots = Slab::new(MIN_SLOTS).ok_or(LeanError::Map { bytes: MIN_SLOTS as u64 * 8 })?;
                Ok(Shard {
                    hint_ptr: AtomicPtr::new(slots.ptr),
                    hint_len: AtomicUsize::new(slots.len),
                    sub: Mutex::new(SubTable { slots, len: 0 }),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Table { shards, bytes: AtomicU64::new(bytes), limit, wells: AtomicU64::new(0) })
    }

    /// Puts `rest` at the empty slot `at` of the locked sub-table `sub`
    /// (shard `b`) with `tag`, growing the sub-table if that fills it past
    /// the load limit; returns the slot it ends in.
    pub(super) fn insert(
        &self,
        b: usize,
        sub: &mut SubTable,
        at: usize,
        rest: u64,
        tag: u64,
    ) -> Result<usize, LeanError> {
        sub.slots.as_mut_slice()[at] = rest << 4 | tag;
        sub.len += 1;
        if sub.len as f64 <= sub.slots.len as f64 * MAX_LOAD {
            return Ok(at);
        }
        let old = sub.slots.len;
        let want = ((old as f64 * GROWTH) as usize).div_ceil(MIN_SLOTS) * MIN_SLOTS;
        // Both the old and the new slots are mapped while the entries move;
        // near the cap a sub-table grows by what is left, at least a page.
        let mut new = 0;
        let took = self.bytes.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
            let room = self.limit.saturating_sub(b) / 8;
            new = want.min(room as usize / MIN_SLOTS * MIN_SLOTS);
            (new > old).then_some(b + new as u64 * 8)
        });
        if took.is_err() {
            if sub.len as f64 <= old as f64 * SQUEEZE_LOAD {
                return Ok(at);
            }
            return Err(LeanError::MemoryCap { limit_bytes: self.limit, wells: self.wells.load(Ordering::Relaxed) });
        }
        let add = new as u64 * 8;
        let mut slots = Slab::new(new).ok_or(LeanError::Map { bytes: add })?;
        let dst = slots.as_mut_slice();
        for &e in sub.slots.as_slice() {
            if e != 0 {
                let mut i = home(e >> 4, new);
                while dst[i] != 0 {
                    i += 1;
                    if i == new {
                        i = 0;
                    }
                }
                dst[i] = e;
            }
        }
        let shard = &self.shards[b];
        shard.hint_ptr.store(slots.ptr, Ordering::Relaxed);
        shard.hint_len.store(slots.len, Ordering::Relaxed);
        sub.slots = slots;
        self.bytes.fetch_sub(old as u64 * 8, Ordering::Relaxed);
        match sub.find(rest) {
            Slot::Found(at, _) => Ok(at),
            Slot::Absent(_) => unreachable!("just inserted"),
        }
    }
}
