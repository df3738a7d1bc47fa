//! The store: domains, pending events, and a trail that undoes every change exactly.
//!
//! Every change pushes one [`Entry`] recording what undoes it:
//!
//! - removing one value pushes `Removed { var, value }`; undo sets the bit again, adds one to
//!   `size`, and widens `min`/`max` to include the value. Because entries are undone in reverse
//!   order, the bounds found after undoing are the bounds that held just before the removal;
//! - moving bounds or assigning pushes `Bounds` with the old `min`, `max` and `size`; the bits are
//!   untouched (they are dead outside the bounds, see [`crate::domain`]), so undo restores three
//!   numbers;
//! - a propagator that removes one value from many variables at once (all-different taking a
//!   value) pushes one `Take` entry and a bit mask of the variables that really lost the value,
//!   in the propagator's own order; undo hands the entry back to the propagator, which restores
//!   those values and its own state. This keeps the trail at O(n²/64) words, not O(n²) entries,
//!   on a board of n queens (a gigabyte at n = 10,000 otherwise).
//!
//! A choice point is a trail length ([`Store::mark`]); backtracking pops entries down to it. Each
//! change and its undo cost O(1), except moving a bound by `k` values (O(k/64) to count the
//! values dropped) and a `Take` over f variables (O(f/64) plus the values restored).
//! Propagators never store anything that undo could miss: what they must know after
//! backtracking is restored through their `Take` entries; the rest is scratch or a hint.
//!
//! The store also collects *events*: for each variable changed since the last dispatch, the union
//! of what happened to it, filtered by what some propagator listens to. The solver hands them to
//! the listening propagators after each propagator run.

use crate::domain::{Domains, Event, Var};

/// A failed propagation: some domain became empty or a constraint cannot hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Conflict;

/// The outcome of a change: what happened, or a conflict.
pub(crate) type Change = Result<Event, Conflict>;

/// One undo record.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Entry {
    /// `value` was removed from `var`.
    Removed { var: Var, value: i32 },
    /// `var`'s bounds and size before they were narrowed.
    Bounds {
        var: Var,
        min: i32,
        max: i32,
        size: u32,
    },
    /// A propagator's bulk removal, undone by the propagator.
    Take(Take),
}

/// An all-different propagator took `position` (which sat at `index` of its free list) and
/// removed its value from the free positions marked in the undo bits from word `bits` on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Take {
    pub(crate) prop: u32,
    pub(crate) position: u32,
    pub(crate) index: u32,
    pub(crate) bits: u32,
}

/// A position in the trail to come back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Mark(usize);

/// Domains, reversible state, the trail and pending events.
#[derive(Clone, Debug, Default)]
pub(crate) struct Store {
    pub(crate) domains: Domains,
    trail: Vec<Entry>,
    /// Bit masks of `Take` entries, a stack in step with the trail.
    undo_bits: Vec<u64>,
    /// Per variable: the events some propagator listens to.
    interest: Vec<Event>,
    /// Per variable: events since the last dispatch.
    pending: Vec<Event>,
    /// Variables with pending events, each once.
    changed: Vec<Var>,
}

impl Store {
    /// Adds a variable (see [`Domains::push`]).
    pub(crate) fn new_var(&mut self, lo: i64, hi: i64) -> Result<Var, crate::Error> {
        let var = self.domains.push(lo, hi)?;
        self.interest.push(Event::NONE);
        self.pending.push(Event::NONE);
        Ok(var)
    }

    /// Records that some propagator listens to `events` on `var`.
    pub(crate) fn listen(&mut self, var: Var, events: Event) {
        let slot = &mut self.interest[var.index()];
        *slot = slot.union(events);
    }

    pub(crate) fn mark(&self) -> Mark {
        Mark(self.trail.len())
    }

    /// Pops the newest entry if the trail is longer than `mark`.
    #[inline]
    pub(crate) fn pop_above(&mut self, mark: Mark) -> Option<Entry> {
        if self.trail.len() > mark.0 {
            self.trail.pop()
        } else {
            None
        }
    }

    /// Undoes a domain entry (not a `Take`, which its propagator undoes).
    #[inline]
    pub(crate) fn undo(&mut self, entry: Entry) {
        match entry {
            Entry::Removed { var, value } => self.restore(var, value),
            Entry::Bounds {
                var,
                min,
                max,
                size,
            } => {
                let d = &mut self.domains.meta[var.index()];
                d.min = min;
                d.max = max;
                d.size = size;
            }
            Entry::Take(_) => unreachable!("a propagator undoes its own take"),
        }
    }

    /// Puts `value` back into `var` (which lost it by a removal now being undone).
    #[inline]
    pub(crate) fn restore(&mut self, var: Var, value: i32) {
        let d = &mut self.domains.meta[var.index()];
        let (word, mask) = Domains::locate(d, value);
        debug_assert_eq!(
            self.domains.words[word] & mask,
            0,
            "restoring a present value"
        );
        d.size += 1;
        d.min = d.min.min(value);
        d.max = d.max.max(value);
        self.domains.words[word] |= mask;
    }

    /// Pushes a `Take` entry with `len` zeroed undo bits; returns the index of their first word.
    pub(crate) fn push_take(&mut self, prop: u32, position: u32, index: u32, len: u32) -> u32 {
        let bits = u32::try_from(self.undo_bits.len()).expect("fewer than 2^32 undo words");
        self.undo_bits
            .resize(self.undo_bits.len() + (len as usize).div_ceil(64), 0);
        self.trail.push(Entry::Take(Take {
            prop,
            position,
            index,
            bits,
        }));
        bits
    }

    /// Sets undo bit `i` of the `Take` whose bits start at word `bits`.
    #[inline]
    pub(crate) fn set_undo_bit(&mut self, bits: u32, i: u32) {
        self.undo_bits[bits as usize + i as usize / 64] |= 1u64 << (i % 64);
    }

    /// The undo bits of the newest `Take` (starting at word `bits`), handed to `each` as
    /// indices; then drops them.
    pub(crate) fn drain_undo_bits(&mut self, bits: u32, mut each: impl FnMut(&mut Store, u32)) {
        let first = bits as usize;
        for w in first..self.undo_bits.len() {
            let mut word = self.undo_bits[w];
            while word != 0 {
                let i = (w - first) * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                each(self, i as u32);
            }
        }
        self.undo_bits.truncate(first);
    }

    /// Notes `event` on `var` for dispatch, if anyone listens.
    #[inline]
    fn note(&mut self, var: Var, event: Event) {
        let event = Event(event.0 & self.interest[var.index()].0);
        if event.is_none() {
            return;
        }
        let slot = &mut self.pending[var.index()];
        if slot.is_none() {
            self.changed.push(var);
        }
        *slot = slot.union(event);
    }

    /// Takes the pending events, in the order the variables first changed, into `out`.
    pub(crate) fn take_events(&mut self, out: &mut Vec<(Var, Event)>) {
        out.clear();
        for var in self.changed.drain(..) {
            out.push((var, std::mem::take(&mut self.pending[var.index()])));
        }
    }

    pub(crate) fn clear_events(&mut self) {
        for var in self.changed.drain(..) {
            self.pending[var.index()] = Event::NONE;
        }
    }

    // ---- domain changes ----

    /// Removes `value` from `var`. O(1), plus a scan when `value` was a bound.
    #[inline]
    pub(crate) fn remove(&mut self, var: Var, value: i32) -> Change {
        let change = self.remove_untrailed(var, value);
        if change != Ok(Event::NONE) {
            self.trail.push(Entry::Removed { var, value });
        }
        change
    }

    /// [`Store::remove`] without the trail entry: the caller records the removal (in a `Take`)
    /// whenever this returns anything but `Ok(Event::NONE)`.
    #[inline(always)]
    pub(crate) fn remove_untrailed(&mut self, var: Var, value: i32) -> Change {
        let d = &mut self.domains.meta[var.index()];
        if value < d.min || value > d.max {
            return Ok(Event::NONE);
        }
        let (word, mask) = Domains::locate(d, value);
        if self.domains.words[word] & mask == 0 {
            return Ok(Event::NONE);
        }
        self.domains.words[word] &= !mask;
        d.size -= 1;
        if d.size == 0 {
            return Err(Conflict);
        }
        let mut event = Event::DOMAIN;
        if value == d.min {
            let d = *d;
            let min = self.domains.next_set(&d, value + 1, d.max);
            self.domains.meta[var.index()].min = min.expect("a non-empty domain has a minimum");
            event = Event::BOUNDS;
        } else if value == d.max {
            let d = *d;
            let max = self.domains.prev_set(&d, value - 1, d.min);
            self.domains.meta[var.index()].max = max.expect("a non-empty domain has a maximum");
            event = Event::BOUNDS;
        }
        if self.domains.meta[var.index()].size == 1 {
            event = Event::FIXED;
        }
        self.note(var, event);
        Ok(event)
    }

    /// Removes the values of `var` below `lo`. O(k/64) for k values dropped.
    pub(crate) fn set_min(&mut self, var: Var, lo: i32) -> Change {
        let d = *self.domains.get(var);
        if lo <= d.min {
            return Ok(Event::NONE);
        }
        let min = self.domains.next_set(&d, lo, d.max).ok_or(Conflict)?;
        let dropped = self.domains.count_set(&d, d.min, min - 1);
        self.narrow(var, d, min, d.max, d.size - dropped)
    }

    /// Removes the values of `var` above `hi`. O(k/64) for k values dropped.
    pub(crate) fn set_max(&mut self, var: Var, hi: i32) -> Change {
        let d = *self.domains.get(var);
        if hi >= d.max {
            return Ok(Event::NONE);
        }
        let max = self.domains.prev_set(&d, hi, d.min).ok_or(Conflict)?;
        let dropped = self.domains.count_set(&d, max + 1, d.max);
        self.narrow(var, d, d.min, max, d.size - dropped)
    }

    /// Reduces `var` to `value`. O(1).
    pub(crate) fn assign(&mut self, var: Var, value: i32) -> Change {
        if !self.domains.contains(var, value) {
            return Err(Conflict);
        }
        let d = *self.domains.get(var);
        if d.size == 1 {
            return Ok(Event::NONE);
        }
        self.narrow(var, d, value, value, 1)
    }

    fn narrow(
        &mut self,
        var: Var,
        old: crate::domain::Domain,
        min: i32,
        max: i32,
        size: u32,
    ) -> Change {
        self.trail.push(Entry::Bounds {
            var,
            min: old.min,
            max: old.max,
            size: old.size,
        });
        let d = &mut self.domains.meta[var.index()];
        d.min = min;
        d.max = max;
        d.size = size;
        let event = if size == 1 {
            Event::FIXED
        } else {
            Event::BOUNDS
        };
        self.note(var, event);
        Ok(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The live values of every variable, for comparing states.
    fn snapshot(store: &Store) -> Vec<Vec<i32>> {
        (0..store.domains.len() as u32)
            .map(|v| store.domains.values(Var(v, store.domains.owner)).collect())
            .collect()
    }

    fn undo_to(store: &mut Store, mark: Mark) {
        while let Some(entry) = store.pop_above(mark) {
            store.undo(entry);
        }
        store.clear_events();
    }

    #[test]
    fn undo_restores_every_domain_exactly() {
        let mut store = Store::default();
        let x = store.new_var(0, 99).unwrap();
        let y = store.new_var(-3, 3).unwrap();
        let before = snapshot(&store);
        let mark = store.mark();

        assert_eq!(store.remove(x, 0), Ok(Event::BOUNDS));
        assert_eq!(store.remove(x, 50), Ok(Event::DOMAIN));
        assert_eq!(store.remove(x, 50), Ok(Event::NONE));
        assert_eq!(store.set_min(x, 40), Ok(Event::BOUNDS));
        assert_eq!(store.domains.get(x).size, 59);
        assert_eq!(store.set_max(x, 51), Ok(Event::BOUNDS));
        assert_eq!(store.domains.get(x).max, 51);
        assert_eq!(store.domains.get(x).size, 11);
        assert!(store.domains.is_consistent(x));
        let middle = store.mark();
        assert_eq!(store.assign(y, 2), Ok(Event::FIXED));
        assert_eq!(store.remove(y, 2), Err(Conflict));
        undo_to(&mut store, middle);
        assert_eq!(store.domains.values(y).count(), 7);
        assert_eq!(store.set_max(x, 39), Err(Conflict));
        undo_to(&mut store, mark);
        assert_eq!(snapshot(&store), before);
        assert!(store.domains.is_consistent(x) && store.domains.is_consistent(y));
    }

    #[test]
    fn undo_bits_come_back_in_order() {
        let mut store = Store::default();
        let first = store.push_take(0, 0, 0, 70);
        store.set_undo_bit(first, 3);
        store.set_undo_bit(first, 69);
        let second = store.push_take(0, 1, 0, 5);
        store.set_undo_bit(second, 4);
        let mut seen = Vec::new();
        store.drain_undo_bits(second, |_, i| seen.push(i));
        store.drain_undo_bits(first, |_, i| seen.push(i));
        assert_eq!(seen, [4, 3, 69]);
    }

    #[test]
    fn removing_down_to_one_value_fixes() {
        let mut store = Store::default();
        let x = store.new_var(1, 3).unwrap();
        store.listen(x, Event::FIXED);
        assert_eq!(store.remove(x, 2), Ok(Event::DOMAIN));
        assert_eq!(store.remove(x, 3), Ok(Event::FIXED));
        assert_eq!(store.domains.get(x).min, 1);
        assert_eq!(store.domains.get(x).max, 1);
        let mut events = Vec::new();
        store.take_events(&mut events);
        assert_eq!(events, [(x, Event::FIXED)]);
    }
}
