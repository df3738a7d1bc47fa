//! All different over views: value elimination plus bounds consistency by Hall intervals.
//!
//! The propagator works in two steps, each cheap enough to run at every node of a search over
//! 10,000 variables.
//!
//! **Value elimination** (scheduled as soon as a view becomes fixed). Each position is *free* or
//! *taken*. Taking a fixed position moves it out of a sparse set of free positions (`order[..free]`,
//! with `place` its inverse), sets its value in the bit set `taken`, and removes that value from
//! every free position: O(f) for f free positions, and every step O(1). The invariant between
//! steps: no free position's domain holds a taken value. This alone is what the pairwise
//! decomposition into `≠` achieves.
//!
//! Taking is undone as a whole: the trail gets one `Take` entry and a bit per free position that
//! really lost the value, indexed by place in `order[..free]`. Undo runs newest first, so when a
//! take is undone every later take has been, `order` is as the take left it, and the marked
//! positions get their value back; then the position swaps back to where it was. Memory is f
//! bits per take instead of one trail entry per removed value.
//!
//! **Hall intervals** (scheduled when some bound moved, after all cheaper propagation is done).
//! By the invariant, the taken positions and values can be set aside: an assignment of the free
//! positions to distinct *untaken* values, each inside its bounds, extends to a solution of the
//! interval relaxation and back. So the pass maps every free position's bounds to ranks among
//! the untaken values (a prefix count of the `taken` words gives each rank in O(1)), narrows
//! the rank intervals with [`HallIntervals`], and maps changed bounds back. The result is bounds
//! consistency of the whole constraint, fixed positions included, at a cost of
//! O(f α(f) + u/64) for a universe of u values, plus the sort. The two orders by lower and by
//! upper bound are kept between passes (they are hints, not state: nothing breaks if they are
//! stale) and repaired by insertion, which costs O(f) when few bounds moved.
//!
//! Narrowed bounds can land on holes; the domain then snaps to the next value inside and the
//! pass runs again, so one run of the propagator reaches its own fixpoint (it is idempotent).
//! Under `debug_assertions` the result is checked from scratch for small constraints.

use crate::domain::{Event, SolverId, Var, View};
#[cfg(debug_assertions)]
use crate::hall;
use crate::hall::HallIntervals;
use crate::store::{Conflict, Store, Take};

/// Up to this many positions, debug builds recheck each run from scratch.
#[cfg(debug_assertions)]
const DEBUG_CHECK_LIMIT: usize = 48;

/// When a propagator wants to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    /// Cheap work: run before anything at [`Level::Later`].
    Now = 0,
    /// Expensive work: run when nothing cheap is left.
    Later = 1,
}

/// The all-different propagator. See the [module documentation](self).
#[derive(Clone, Debug)]
pub(crate) struct AllDifferent {
    /// This propagator's index in the solver (for its trail entries).
    id: u32,
    /// The views, without the solver's stamp (8 bytes each, not 12: the value-elimination loop
    /// reads one per free view); [`AllDifferent::view`] puts it back.
    views: Vec<Slot>,
    /// The solver the views' variables belong to.
    owner: SolverId,
    /// Whether the Hall-interval step runs (otherwise value elimination only).
    bounds: bool,
    /// The smallest value any view can take.
    universe_lo: i32,
    /// Taken values (bit i: value `universe_lo + i`).
    taken: Vec<u64>,
    /// Sparse set of free positions: `order[..free]`; `place` is the inverse of `order`.
    order: Vec<u32>,
    place: Vec<u32>,
    free: u32,
    /// Fixed positions waiting to be taken.
    pending: Vec<u32>,
    is_pending: Vec<bool>,
    /// Some bound moved since the last Hall-interval pass.
    dirty: bool,
    scratch: Scratch,
}

/// A view as the propagator keeps it: the variable's index and the offset.
#[derive(Clone, Copy, Debug)]
struct Slot {
    var: u32,
    offset: i32,
}

impl Slot {
    #[inline(always)]
    fn view(self, owner: SolverId) -> View {
        View {
            var: Var(self.var, owner),
            offset: self.offset,
        }
    }
}

/// Scratch of the Hall-interval pass.
#[derive(Clone, Debug, Default)]
struct Scratch {
    /// Free positions sorted by lower and by upper rank (hints kept between passes).
    by_lo: Vec<u32>,
    by_hi: Vec<u32>,
    in_hints: Vec<bool>,
    /// Rank bounds per position, before and after narrowing.
    lo: Vec<i32>,
    hi: Vec<i32>,
    lo_before: Vec<i32>,
    hi_before: Vec<i32>,
    /// Untaken values before each word of `taken`.
    untaken_before: Vec<u32>,
    hall: HallIntervals,
    /// Per width k: how many intervals are exactly k wide.
    narrow_count: Vec<u32>,
    /// Narrowed bounds to apply: position, new lower and upper view value.
    changes: Vec<(u32, Option<i32>, Option<i32>)>,
}

impl AllDifferent {
    /// The propagator over `views` (at least one), with or without the Hall-interval step.
    /// `views` must not contain the same view twice (the solver handles that case).
    pub(crate) fn new(id: u32, store: &Store, views: Vec<View>, bounds: bool) -> Self {
        let range = |v: &View| {
            let d = store.domains.get(v.var);
            (d.min + v.offset, d.max + v.offset)
        };
        let universe_lo = views.iter().map(|v| range(v).0).min().expect("some view");
        let universe_hi = views.iter().map(|v| range(v).1).max().expect("some view");
        let universe_words = ((universe_hi - universe_lo) as usize + 1).div_ceil(64);
        let n = views.len();
        let owner = views[0].var.1;
        let views = views
            .iter()
            .map(|v| Slot {
                var: v.var.0,
                offset: v.offset,
            })
            .collect();
        AllDifferent {
            id,
            views,
            owner,
            bounds,
            universe_lo,
            taken: vec![0; universe_words],
            order: (0..n as u32).collect(),
            place: (0..n as u32).collect(),
            free: n as u32,
            pending: Vec::new(),
            is_pending: vec![false; n],
            dirty: false,
            scratch: Scratch {
                in_hints: vec![false; n],
                lo: vec![0; n],
                hi: vec![0; n],
                lo_before: vec![0; n],
                hi_before: vec![0; n],
                ..Scratch::default()
            },
        }
    }

    /// The views, in position order.
    pub(crate) fn views(&self) -> Vec<View> {
        (0..self.views.len() as u32).map(|p| self.view(p)).collect()
    }

    /// The view at `position`.
    #[inline(always)]
    fn view(&self, position: u32) -> View {
        self.views[position as usize].view(self.owner)
    }

    /// Whether the Hall-interval step runs (and so bound changes matter).
    pub(crate) fn uses_bounds(&self) -> bool {
        self.bounds
    }

    /// Prepares a fresh propagation from the current (root) state: every fixed free position is
    /// pending, and a Hall-interval pass is due.
    pub(crate) fn start(&mut self, store: &Store) {
        self.clear();
        for idx in 0..self.free as usize {
            let position = self.order[idx];
            if store.domains.get(self.view(position).var).size == 1 {
                self.pending.push(position);
                self.is_pending[position as usize] = true;
            }
        }
        self.dirty = self.bounds;
    }

    /// Forgets pending work (after a conflict).
    pub(crate) fn clear(&mut self) {
        for &position in &self.pending {
            self.is_pending[position as usize] = false;
        }
        self.pending.clear();
        self.dirty = false;
    }

    /// Takes note of `event` on `position`; says when to run.
    pub(crate) fn notify(&mut self, position: u32, event: Event, from_self: bool) -> Option<Level> {
        let mut wake = None;
        if self.bounds && event.bounds() && !from_self {
            self.dirty = true;
            wake = Some(Level::Later);
        }
        if event.fixed()
            && !self.is_pending[position as usize]
            && self.place[position as usize] < self.free
        {
            self.pending.push(position);
            self.is_pending[position as usize] = true;
            wake = Some(Level::Now);
        }
        wake
    }

    /// Runs at `level`: value elimination always, the Hall-interval pass at [`Level::Later`].
    /// Returns the level to run again at, if any.
    pub(crate) fn propagate(
        &mut self,
        store: &mut Store,
        level: Level,
    ) -> Result<Option<Level>, Conflict> {
        self.eliminate(store)?;
        if !self.dirty {
            #[cfg(debug_assertions)]
            self.debug_check(store);
            return Ok(None);
        }
        if level == Level::Now {
            return Ok(Some(Level::Later));
        }
        while self.dirty {
            self.dirty = false;
            self.narrow_bounds(store)?;
            self.eliminate(store)?;
        }
        #[cfg(debug_assertions)]
        self.debug_check(store);
        Ok(None)
    }

    /// Takes every pending position and removes its value from all free positions.
    fn eliminate(&mut self, store: &mut Store) -> Result<(), Conflict> {
        while let Some(position) = self.pending.pop() {
            self.is_pending[position as usize] = false;
            let view = self.view(position);
            let d = store.domains.get(view.var);
            debug_assert_eq!(d.size, 1, "only fixed positions are pending");
            let value = d.min + view.offset;

            // Move `position` to the end of the free list and out of it; mark its value taken.
            let last = self.free - 1;
            let index = self.place[position as usize];
            let other = self.order[last as usize];
            self.order.swap(index as usize, last as usize);
            self.place[other as usize] = index;
            self.place[position as usize] = last;
            self.free = last;
            let bit = (value - self.universe_lo) as usize;
            self.taken[bit / 64] |= 1u64 << (bit % 64);
            let bits = store.push_take(self.id, position, index, last);

            for i in 0..last {
                let other = self.order[i as usize];
                let view = self.view(other);
                let event = store.remove_untrailed(view.var, value - view.offset);
                match event {
                    Ok(event) if event.is_none() => continue,
                    Ok(event) => {
                        store.set_undo_bit(bits, i);
                        if event.fixed() && !self.is_pending[other as usize] {
                            self.pending.push(other);
                            self.is_pending[other as usize] = true;
                        }
                        if event.bounds() {
                            self.dirty = self.bounds;
                        }
                    }
                    Err(conflict) => {
                        store.set_undo_bit(bits, i);
                        return Err(conflict);
                    }
                }
            }
        }
        Ok(())
    }

    /// Undoes the newest take (see the module documentation).
    pub(crate) fn undo_take(&mut self, store: &mut Store, take: Take) {
        let position = take.position;
        let last = self.free;
        debug_assert_eq!(
            self.place[position as usize], last,
            "takes are undone newest first"
        );
        let view = self.view(position);
        let value = store.domains.get(view.var).min + view.offset;
        let (order, views, owner) = (&self.order, &self.views, self.owner);
        store.drain_undo_bits(take.bits, |store, i| {
            let other = views[order[i as usize] as usize].view(owner);
            store.restore(other.var, value - other.offset);
        });
        let bit = (value - self.universe_lo) as usize;
        self.taken[bit / 64] &= !(1u64 << (bit % 64));
        let other = self.order[take.index as usize];
        self.order.swap(take.index as usize, last as usize);
        self.place[other as usize] = last;
        self.place[position as usize] = take.index;
        self.free = last + 1;
    }

    /// One Hall-interval pass over the free positions. Sets `dirty` when it changed a domain.
    fn narrow_bounds(&mut self, store: &mut Store) -> Result<(), Conflict> {
        let free = self.free as usize;
        if free == 0 {
            return Ok(());
        }
        let taken = &self.taken;
        let s = &mut self.scratch;

        // Untaken values before each word, for ranks.
        s.untaken_before.clear();
        let mut count = 0u32;
        for &word in taken {
            s.untaken_before.push(count);
            count += 64 - word.count_ones();
        }
        s.untaken_before.push(count);
        let universe_lo = self.universe_lo;
        let rank = |value: i32| -> i32 {
            let i = (value - universe_lo) as usize;
            let below = taken[i / 64] & ((1u64 << (i % 64)) - 1);
            (s.untaken_before[i / 64] as usize + i % 64 - below.count_ones() as usize) as i32
        };

        for &position in &self.order[..free] {
            let view = self.views[position as usize].view(self.owner);
            let d = store.domains.get(view.var);
            let (lo, hi) = (rank(d.min + view.offset), rank(d.max + view.offset));
            let p = position as usize;
            (s.lo[p], s.hi[p], s.lo_before[p], s.hi_before[p]) = (lo, hi, lo, hi);
        }

        // A Hall interval of k values (k < free; larger ones prune nothing) holds k intervals,
        // each at most k wide. When for every such k fewer than k intervals are that narrow, the
        // pass would change nothing: skip it (O(f), far cheaper than sorting).
        if !hall_interval_possible(&s.lo, &s.hi, &self.order[..free], &mut s.narrow_count) {
            return Ok(());
        }

        // Repair the sorted orders: drop positions taken since the last pass, add positions
        // freed by backtracking, then sort by insertion (or from scratch after many additions).
        let place = &self.place;
        let in_hints = &mut s.in_hints;
        s.by_lo.retain(|&p| {
            let keep = (place[p as usize] as usize) < free;
            in_hints[p as usize] = keep;
            keep
        });
        s.by_hi.retain(|&p| (place[p as usize] as usize) < free);
        let mut added = 0;
        for &position in &self.order[..free] {
            if !in_hints[position as usize] {
                in_hints[position as usize] = true;
                s.by_lo.push(position);
                s.by_hi.push(position);
                added += 1;
            }
        }
        sort_by_key(&mut s.by_lo, &s.lo, added);
        sort_by_key(&mut s.by_hi, &s.hi, added);

        s.hall.narrow(&mut s.lo, &mut s.hi, &s.by_lo, &s.by_hi)?;

        // Map narrowed ranks back to values, then apply them.
        s.changes.clear();
        for &position in &self.order[..free] {
            let p = position as usize;
            let lo = (s.lo[p] != s.lo_before[p])
                .then(|| select(taken, &s.untaken_before, universe_lo, s.lo[p]));
            let hi = (s.hi[p] != s.hi_before[p])
                .then(|| select(taken, &s.untaken_before, universe_lo, s.hi[p]));
            if lo.is_some() || hi.is_some() {
                s.changes.push((position, lo, hi));
            }
        }
        for &(position, lo, hi) in &self.scratch.changes {
            let view = self.view(position);
            let mut event = Event::NONE;
            if let Some(value) = lo {
                event = event.union(store.set_min(view.var, value - view.offset)?);
            }
            if let Some(value) = hi {
                event = event.union(store.set_max(view.var, value - view.offset)?);
            }
            if !event.is_none() {
                self.dirty = true;
            }
            if event.fixed() && !self.is_pending[position as usize] {
                self.pending.push(position);
                self.is_pending[position as usize] = true;
            }
        }
        Ok(())
    }

    /// From scratch, for small constraints: no free position holds a taken value, and the free
    /// positions' rank intervals are bounds consistent.
    #[cfg(debug_assertions)]
    fn debug_check(&self, store: &Store) {
        let free = self.free as usize;
        if self.views.len() > DEBUG_CHECK_LIMIT {
            return;
        }
        let taken = &self.taken;
        let is_taken = |value: i32| {
            let i = (value - self.universe_lo) as usize;
            taken[i / 64] >> (i % 64) & 1 == 1
        };
        for &position in &self.order[..free] {
            let view = self.view(position);
            for value in store.domains.values(view.var) {
                assert!(
                    !is_taken(value + view.offset),
                    "free position {position} still holds taken value {}",
                    value + view.offset
                );
            }
        }
        for &position in &self.order[free..] {
            let view = self.view(position);
            let d = store.domains.get(view.var);
            assert_eq!(d.size, 1, "taken position {position} is not fixed");
            assert!(is_taken(d.min + view.offset));
        }
        if self.bounds {
            let rank = |value: i32| -> i32 {
                (self.universe_lo..value).filter(|&v| !is_taken(v)).count() as i32
            };
            let n = self.views.len();
            let (mut lo, mut hi) = (vec![0; n], vec![0; n]);
            for &position in &self.order[..free] {
                let view = self.view(position);
                let d = store.domains.get(view.var);
                lo[position as usize] = rank(d.min + view.offset);
                hi[position as usize] = rank(d.max + view.offset);
            }
            assert!(
                hall::is_bounds_consistent(&lo, &hi, &self.order[..free]),
                "all-different is not bounds consistent after its pass"
            );
        }
    }
}

/// Whether some k < `free.len()` has at least k intervals `[lo, hi]` of width at most k: the
/// necessary condition for a Hall interval that prunes, or an interval with too many variables.
fn hall_interval_possible(lo: &[i32], hi: &[i32], free: &[u32], count: &mut Vec<u32>) -> bool {
    let f = free.len();
    count.clear();
    count.resize(f, 0);
    for &position in free {
        let width = (hi[position as usize] - lo[position as usize] + 1) as usize;
        if width < f {
            count[width] += 1;
        }
    }
    let mut narrow = 0;
    for (k, &c) in count.iter().enumerate() {
        narrow += c as usize;
        if k > 0 && narrow >= k {
            return true;
        }
    }
    false
}

/// Sorts `items` by `key[item]`: by insertion when few items were `added` since the last sort
/// (the rest are nearly in order), from scratch otherwise.
fn sort_by_key(items: &mut [u32], key: &[i32], added: usize) {
    if added > 16 + items.len() / 16 {
        items.sort_unstable_by_key(|&i| key[i as usize]);
        return;
    }
    for i in 1..items.len() {
        let item = items[i];
        let k = key[item as usize];
        let mut j = i;
        while j > 0 && key[items[j - 1] as usize] > k {
            items[j] = items[j - 1];
            j -= 1;
        }
        items[j] = item;
    }
}

/// The untaken value of rank `rank`: the word by binary search on the prefix counts, then the
/// bit by scanning the word's zeros.
fn select(taken: &[u64], untaken_before: &[u32], universe_lo: i32, rank: i32) -> i32 {
    let rank = rank as u32;
    // The last word whose count of untaken values before it is at most `rank`.
    let word = untaken_before.partition_point(|&c| c <= rank) - 1;
    let mut left = rank - untaken_before[word];
    let mut free_bits = !taken[word];
    loop {
        let bit = free_bits.trailing_zeros();
        if left == 0 {
            return universe_lo + (word * 64) as i32 + bit as i32;
        }
        free_bits &= free_bits - 1;
        left -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_inverts_rank() {
        let taken = [0b1011u64, u64::MAX, 0b1];
        let mut before = vec![0];
        for w in &taken {
            before.push(before.last().unwrap() + 64 - w.count_ones());
        }
        let untaken: Vec<i32> = (0..192)
            .filter(|&i| taken[i / 64] >> (i % 64) & 1 == 0)
            .map(|i| i as i32 - 10)
            .collect();
        for (rank, &value) in untaken.iter().enumerate() {
            assert_eq!(select(&taken, &before, -10, rank as i32), value);
        }
    }
}
