//! Variables, views `x + c`, and their bitset domains.
//!
//! A variable created with the range `lo..=hi` owns `⌈(hi − lo + 1)/64⌉` words in one arena of
//! `u64`s shared by all variables; bit `i` stands for the value `lo + i`. Next to the bits each
//! variable keeps `min`, `max` and `size`, and the domain is *the set bits inside `min..=max`*:
//! bits outside the bounds are dead, whatever they say. That makes bound changes and assignments
//! O(1) (they move `min`/`max` and never touch the bits) and keeps undo exact with two kinds of
//! trail entry (see [`crate::store`]). `size` is always the number of live bits.
//!
//! Costs, for a domain of `d` values: membership O(1); removing one value O(1), plus a scan to
//! the next live bit when the value was a bound (O(d/64) at worst, amortised over the removals
//! it skips); raising `min` or lowering `max` by `k` values O(k/64); assigning O(1).
//!
//! Domains hold up to [`MAX_DOMAIN_SIZE`] values (8 MiB of bits). Memory is one bit per initial
//! value per variable, so n = 10,000 queens use 10,000 × 10,000 bits = 12.5 MB. Values, view
//! offsets and view values all lie within ±[`VALUE_LIMIT`], so `value + offset` and
//! `value − offset` never overflow an `i32`.

use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::error::Error;

pub use crate::bounds::{MAX_DOMAIN_SIZE, VALUE_LIMIT};

/// An integer variable: an index into the solver's domains, stamped with the solver that made
/// it, so that a variable of another solver is refused ([`crate::Error::ForeignVariable`])
/// instead of meaning this solver's variable of the same index. A clone of a solver takes the
/// variables of the original.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub(crate) u32, pub(crate) SolverId);

/// Which solver made a variable: a number no other solver of the process has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct SolverId(u32);

impl SolverId {
    /// A number no solver made before had.
    fn fresh() -> Self {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        SolverId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

impl fmt::Debug for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Var({})", self.0)
    }
}

impl Var {
    /// The variable's index: variables are numbered 0, 1, 2, ... in order of creation.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The view `self + offset`.
    pub fn plus(self, offset: i32) -> View {
        View { var: self, offset }
    }

    /// The view `self − offset`.
    pub fn minus(self, offset: i32) -> View {
        View {
            var: self,
            offset: offset.wrapping_neg(),
        }
    }
}

/// The view `var + offset`: a variable seen through a shift, so that constraints over `x + i`
/// need no auxiliary variable. Its value is the variable's value plus `offset`.
///
/// ```
/// # use nqueens_cp::{Solver, View};
/// let mut solver = Solver::new();
/// let x = solver.new_var(0, 7).unwrap();
/// let view: View = x.plus(3).minus(1);
/// assert_eq!((view.var, view.offset), (x, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct View {
    /// The variable seen.
    pub var: Var,
    /// The shift added to its value.
    pub offset: i32,
}

impl View {
    /// The view shifted further by `offset`.
    pub fn plus(self, offset: i32) -> View {
        View {
            var: self.var,
            offset: self.offset.wrapping_add(offset),
        }
    }

    /// The view shifted further by `−offset`.
    pub fn minus(self, offset: i32) -> View {
        self.plus(offset.wrapping_neg())
    }
}

impl From<Var> for View {
    fn from(var: Var) -> View {
        View { var, offset: 0 }
    }
}

/// What a domain change did, as a bit set. A change that fixes a variable also changes its
/// bounds, and every change is a [`Event::DOMAIN`] change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Event(pub(crate) u8);

impl Event {
    /// Nothing changed.
    pub(crate) const NONE: Event = Event(0);
    /// Some value was removed.
    pub(crate) const DOMAIN: Event = Event(1);
    /// `min` or `max` moved.
    pub(crate) const BOUNDS: Event = Event(2 | 1);
    /// One value is left.
    pub(crate) const FIXED: Event = Event(4 | 2 | 1);

    /// What a propagator listens to, one bit each: wake when the variable becomes fixed...
    pub(crate) const ON_FIXED: Event = Event(4);
    /// ... when its bounds move (which includes becoming fixed)...
    pub(crate) const ON_BOUNDS: Event = Event(2);

    pub(crate) fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Whether the bounds moved (also true when the variable became fixed).
    pub(crate) fn bounds(self) -> bool {
        self.0 & 2 != 0
    }

    /// Whether the variable became fixed.
    pub(crate) fn fixed(self) -> bool {
        self.0 & 4 != 0
    }

    pub(crate) fn union(self, other: Event) -> Event {
        Event(self.0 | other.0)
    }

    pub(crate) fn intersects(self, other: Event) -> bool {
        self.0 & other.0 != 0
    }
}

/// The bookkeeping of one domain.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Domain {
    /// Index of the first word in the arena.
    pub(crate) first_word: usize,
    /// The value of bit 0 (the initial lower bound).
    pub(crate) base: i32,
    /// Smallest live value.
    pub(crate) min: i32,
    /// Largest live value.
    pub(crate) max: i32,
    /// Number of live values.
    pub(crate) size: u32,
}

/// All domains: the bookkeeping per variable and the shared word arena. Changes go through
/// [`crate::store::Store`], which trails them; this type only answers questions and flips bits.
#[derive(Clone, Debug)]
pub(crate) struct Domains {
    pub(crate) meta: Vec<Domain>,
    pub(crate) words: Vec<u64>,
    /// The solver these domains belong to, stamped in every variable made here.
    pub(crate) owner: SolverId,
}

impl Default for Domains {
    fn default() -> Self {
        Domains {
            meta: Vec::new(),
            words: Vec::new(),
            owner: SolverId::fresh(),
        }
    }
}

impl Domains {
    /// Adds a variable with the full range `lo..=hi`.
    pub(crate) fn push(&mut self, lo: i64, hi: i64) -> Result<Var, Error> {
        if lo > hi {
            return Err(Error::EmptyDomain { lo, hi });
        }
        let limit = i64::from(VALUE_LIMIT);
        for value in [lo, hi] {
            if !(-limit..=limit).contains(&value) {
                return Err(Error::ValueOutOfRange { value });
            }
        }
        let size = (hi - lo + 1) as u64;
        if size > MAX_DOMAIN_SIZE {
            return Err(Error::DomainTooLarge { lo, hi, size });
        }
        let index = u32::try_from(self.meta.len()).expect("fewer than 2^32 variables");
        let first_word = self.words.len();
        let word_count = size.div_ceil(64) as usize;
        self.words.resize(first_word + word_count, u64::MAX);
        if size % 64 != 0 {
            *self.words.last_mut().expect("at least one word") = (1u64 << (size % 64)) - 1;
        }
        self.meta.push(Domain {
            first_word,
            base: lo as i32,
            min: lo as i32,
            max: hi as i32,
            size: size as u32,
        });
        Ok(Var(index, self.owner))
    }

    /// Panics unless these domains made `var`: for the calls that answer a plain value.
    #[track_caller]
    pub(crate) fn expect_own(&self, var: Var) {
        assert!(
            var.1 == self.owner,
            "variable {} was made by another solver, not this one",
            var.0
        );
    }

    pub(crate) fn len(&self) -> usize {
        self.meta.len()
    }

    #[inline]
    pub(crate) fn get(&self, var: Var) -> &Domain {
        &self.meta[var.index()]
    }

    /// The word index and bit mask of `value` in `domain` (which must lie in its initial range).
    #[inline]
    pub(crate) fn locate(domain: &Domain, value: i32) -> (usize, u64) {
        let offset = (value - domain.base) as usize;
        (domain.first_word + offset / 64, 1u64 << (offset % 64))
    }

    /// Whether `value` is in the domain of `var`.
    #[inline]
    pub(crate) fn contains(&self, var: Var, value: i32) -> bool {
        let d = self.get(var);
        if value < d.min || value > d.max {
            return false;
        }
        let (word, mask) = Self::locate(d, value);
        self.words[word] & mask != 0
    }

    /// The smallest set bit of `domain` at or above `from`, and at or below `to`.
    pub(crate) fn next_set(&self, domain: &Domain, from: i32, to: i32) -> Option<i32> {
        if from > to {
            return None;
        }
        let start = (from - domain.base) as usize;
        let end = (to - domain.base) as usize;
        let (mut w, last_w) = (start / 64, end / 64);
        let mut bits = self.words[domain.first_word + w] & (u64::MAX << (start % 64));
        loop {
            if bits != 0 {
                let offset = w * 64 + bits.trailing_zeros() as usize;
                return (offset <= end).then(|| domain.base + offset as i32);
            }
            w += 1;
            if w > last_w {
                return None;
            }
            bits = self.words[domain.first_word + w];
        }
    }

    /// The largest set bit of `domain` at or below `from`, and at or above `to`.
    pub(crate) fn prev_set(&self, domain: &Domain, from: i32, to: i32) -> Option<i32> {
        if from < to {
            return None;
        }
        let start = (from - domain.base) as usize;
        let end = (to - domain.base) as usize;
        let (mut w, first_w) = (start / 64, end / 64);
        let mut bits = self.words[domain.first_word + w] & (u64::MAX >> (63 - start % 64));
        loop {
            if bits != 0 {
                let offset = w * 64 + 63 - bits.leading_zeros() as usize;
                return (offset >= end).then(|| domain.base + offset as i32);
            }
            if w == first_w {
                return None;
            }
            w -= 1;
            bits = self.words[domain.first_word + w];
        }
    }

    /// The number of set bits of `domain` in `from..=to` (bits, live or dead).
    pub(crate) fn count_set(&self, domain: &Domain, from: i32, to: i32) -> u32 {
        if from > to {
            return 0;
        }
        let start = (from - domain.base) as usize;
        let end = (to - domain.base) as usize;
        let (first_w, last_w) = (start / 64, end / 64);
        let mut count = 0;
        for w in first_w..=last_w {
            let mut bits = self.words[domain.first_word + w];
            if w == first_w {
                bits &= u64::MAX << (start % 64);
            }
            if w == last_w {
                bits &= u64::MAX >> (63 - end % 64);
            }
            count += bits.count_ones();
        }
        count
    }

    /// The live values of `var`, in increasing order.
    pub(crate) fn values(&self, var: Var) -> impl Iterator<Item = i32> + '_ {
        let d = *self.get(var);
        let mut next = Some(d.min);
        std::iter::from_fn(move || {
            let value = self.next_set(&d, next?, d.max)?;
            next = value.checked_add(1).filter(|&v| v <= d.max);
            Some(value)
        })
    }

    /// Recounts `var`'s live values and checks `min`/`max` are live: the invariant of this
    /// module, for debug checks. O(d/64).
    pub(crate) fn is_consistent(&self, var: Var) -> bool {
        let d = self.get(var);
        d.min <= d.max
            && self.contains(var, d.min)
            && self.contains(var, d.max)
            && self.count_set(d, d.min, d.max) == d.size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_find_the_neighbouring_set_bits() {
        let mut domains = Domains::default();
        let var = domains.push(-5, 200).unwrap();
        let d = *domains.get(var);
        for value in [-5, -3, 58, 59, 60, 130, 200] {
            let (w, m) = Domains::locate(&d, value);
            domains.words[w] &= !m;
        }
        let d = *domains.get(var);
        assert_eq!(domains.next_set(&d, -5, 200), Some(-4));
        assert_eq!(domains.next_set(&d, 58, 200), Some(61));
        assert_eq!(domains.next_set(&d, 58, 60), None);
        assert_eq!(domains.prev_set(&d, 200, -5), Some(199));
        assert_eq!(domains.prev_set(&d, 60, -5), Some(57));
        assert_eq!(domains.prev_set(&d, 60, 58), None);
        assert_eq!(domains.count_set(&d, -5, 200), 206 - 7);
        assert_eq!(domains.count_set(&d, 57, 61), 2);
    }

    #[test]
    fn bad_ranges_are_refused() {
        let mut domains = Domains::default();
        assert_eq!(
            domains.push(3, 2).unwrap_err(),
            Error::EmptyDomain { lo: 3, hi: 2 }
        );
        assert!(matches!(
            domains.push(0, 1 << 27),
            Err(Error::DomainTooLarge { .. })
        ));
        assert!(matches!(
            domains.push(-(1 << 29), 0),
            Err(Error::ValueOutOfRange { .. })
        ));
        let var = domains.push(0, 63).unwrap();
        assert_eq!(domains.words.len(), 1);
        assert_eq!(domains.values(var).count(), 64);
    }
}
