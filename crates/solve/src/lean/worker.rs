//! One worker's depth-first search through the shared table.

use super::table::{Slot, Table};
use super::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// A well on a worker's search path. Its unvisited children are
/// `pending[next..]` (its own start at `kids`), `best` the most found so
/// far. A worker *owns* the wells it put in the table as busy and marks
/// them solved; a frame it does not own is *help* for a well another worker
/// has on its path: the same value, computed again rather than waited for.
pub(super) struct Frame {
    pub(super) key: Key,
    pub(super) slot: usize,
    pub(super) kids: usize,
    pub(super) next: usize,
    pub(super) best: u32,
    pub(super) owned: bool,
    /// Children at `next` put back because another worker had them busy.
    pub(super) skipped: usize,
}

/// Why a worker stopped without a value.
pub(super) enum Stop {
    Error(LeanError),
    /// Another worker failed.
    Abandoned,
}

impl From<LeanError> for Stop {
    fn from(e: LeanError) -> Stop {
        Stop::Error(e)
    }
}

/// The graph: a well's landings as (the well made, None when the game is
/// over; lines cleared), appended to the vector.
pub(super) type Children<'a> = dyn Fn(Key, &mut Vec<(Option<Key>, u8)>) + Sync + 'a;

/// What every worker shares.
pub(super) struct Shared<'a> {
    pub(super) table: Table,
    /// A well's landings: (the well it makes, or None when the game is
    /// over; the lines it clears), appended to the vector.
    pub(super) children: &'a Children<'a>,
    /// Set when a worker fails, so that the others stop.
    pub(super) failed: AtomicBool,
    /// Wells solved, as last flushed by the workers.
    pub(super) done: AtomicU64,
    /// Worker 0's search depth, for progress.
    pub(super) depth: AtomicUsize,
    /// Help expansions, as last flushed.
    pub(super) helped: AtomicU64,
}

/// One worker's depth-first search.
pub(super) struct Worker<'a> {
    pub(super) id: usize,
    pub(super) shared: &'a Shared<'a>,
    /// Scratch for the children of one well.
    pub(super) buf: Vec<(Option<Key>, u8)>,
    pub(super) stack: Vec<Frame>,
    pub(super) pending: Vec<Child>,
    /// Landings of the wells this worker owned.
    pub(super) landings: u64,
    /// Counts not yet flushed to `shared`.
    pub(super) done: u64,
    pub(super) inserted: u64,
    pub(super) helped: u64,
}

/// Counts are flushed to the shared atomics this often.
pub(super) const FLUSH_EVERY: u64 = 4096;

impl Worker<'_> {
    /// Pushes the frame of `key` (busy in the table at `slot`): game-over
    /// landings and children already solved are valued now, the rest wait
    /// in `pending`, in this worker's order.
    pub(super) fn expand(&mut self, key: Key, slot: usize, owned: bool) {
        let shards = &self.shared.table.shards;
        self.buf.clear();
        (self.shared.children)(key, &mut self.buf);
        if owned {
            self.landings += self.buf.len() as u64;
        }
        let kids = self.pending.len();
        let mut best = 0u32;
        for &(child, lines) in &self.buf {
            match child {
                None => best = best.max(lines as u32),
                Some(key) => {
                    shards[key.bottom as usize].prefetch(key.rest);
                    self.pending.push(Child { key, lines });
                }
            }
        }
        // Workers visit children in different orders so that they meet less.
        if self.id % 2 == 1 {
            self.pending[kids..].reverse();
        }
        if self.id >= 2 {
            let r = self.id / 2 % (self.pending.len() - kids).max(1);
            self.pending[kids..].rotate_left(r);
        }
        let mut keep = kids;
        for i in kids..self.pending.len() {
            let c = self.pending[i];
            match shards[c.key.bottom as usize].lock().find(c.key.rest) {
                Slot::Found(_, tag) if tag != BUSY => best = best.max(c.lines as u32 + tag as u32 - 1),
                _ => {
                    self.pending[keep] = c;
                    keep += 1;
                }
            }
        }
        self.pending.truncate(keep);
        self.stack.push(Frame { key, slot, kids, next: kids, best, owned, skipped: 0 });
    }

    pub(super) fn cycle(&self) -> Stop {
        Stop::Error(LeanError::Cycle { wells: self.shared.table.wells.load(Ordering::Relaxed) + self.inserted })
    }

    pub(super) fn flush(&mut self) {
        self.shared.done.fetch_add(std::mem::take(&mut self.done), Ordering::Relaxed);
        self.shared.table.wells.fetch_add(std::mem::take(&mut self.inserted), Ordering::Relaxed);
        self.shared.helped.fetch_add(std::mem::take(&mut self.helped), Ordering::Relaxed);
        if self.id == 0 {
            self.shared.depth.store(self.stack.len(), Ordering::Relaxed);
        }
    }

    /// Searches until the bottom frame is solved; returns its value.
    pub(super) fn run(&mut self) -> Result<u32, Stop> {
        let shards = &self.shared.table.shards;
        loop {
            if self.shared.failed.load(Ordering::Relaxed) {
                return Err(Stop::Abandoned);
            }
            let top = self.stack.len() - 1;
            let f = &mut self.stack[top];
            if f.next < self.pending.len() {
                let c = self.pending[f.next];
                let b = c.key.bottom as usize;
                let mut sub = shards[b].lock();
                match sub.find(c.key.rest) {
                    Slot::Found(_, BUSY) => {
                        drop(sub);
                        if self.stack.iter().any(|g| g.key == c.key) {
                            return Err(self.cycle());
                        }
                        // Another worker has it on its path: first the other
                        // children, then help with it.
                        let f = &mut self.stack[top];
                        if f.skipped + 1 < self.pending.len() - f.next {
                            self.pending[f.next..].rotate_left(1);
                            f.skipped += 1;
                        } else {
                            f.next += 1;
                            f.skipped = 0;
                            self.helped += 1;
                            self.expand(c.key, usize::MAX, false);
                        }
                    }
                    Slot::Found(_, tag) => {
                        f.best = f.best.max(c.lines as u32 + tag as u32 - 1);
                        f.next += 1;
                        f.skipped = 0;
                    }
                    Slot::Absent(at) => {
                        let at = self.shared.table.insert(b, &mut sub, at, c.key.rest, BUSY);
                        drop(sub);
                        self.inserted += 1;
                        let f = &mut self.stack[top];
                        f.next += 1;
                        f.skipped = 0;
                        self.expand(c.key, at?, true);
                    }
                }
                continue;
            }
            // Every child valued: this well is solved.
            let f = self.stack.pop().expect("top frame");
            if f.best > MAX_VALUE {
                return Err(Stop::Error(LeanError::ValueTooLarge { value: f.best }));
            }
            if f.owned {
                let b = f.key.bottom as usize;
                let mut sub = shards[b].lock();
                let busy = f.key.rest << 4 | BUSY;
                // The frame's slot is stale if its sub-table grew since.
                let slot = if sub.slots.as_slice().get(f.slot) == Some(&busy) {
                    f.slot
                } else {
                    match sub.find(f.key.rest) {
                        Slot::Found(at, BUSY) => at,
                        other => unreachable!("an owned well is busy in the table: {other:?}"),
                    }
                };
                sub.slots.as_mut_slice()[slot] = f.key.rest << 4 | (f.best as u64 + 1);
                drop(sub);
                self.done += 1;
                if self.done >= FLUSH_EVERY {
                    self.flush();
                }
            }
            self.pending.truncate(f.kids);
            match self.stack.last_mut() {
                None => {
                    self.flush();
                    return Ok(f.best);
                }
                Some(p) => {
                    let lines = self.pending[p.next - 1].lines as u32;
                    p.best = p.best.max(lines + f.best);
                }
            }
        }
    }
}
