//! The decision order: variables in a binary max-heap keyed by VSIDS activity.
//!
//! Each conflict adds `increment` to the activity of the variables it involved, and
//! `increment` grows by the factor `1/decay` after each conflict, so recent conflicts weigh
//! exponentially more (the "exponential VSIDS" of MiniSat, Eén and Sörensson 2003). When an
//! activity would overflow, all activities and the increment are scaled down together, which
//! keeps the order. Variables below `first_tier` (all of them by default) come before every
//! other variable whatever the activities: the caller's *primary* variables, which decide the
//! rest (for example a formula's problem variables, ahead of the auxiliary variables of its
//! encoding). Without a first tier, equal keys go by index, lowest first: before the first
//! conflicts every activity is 0, and input order is a better guess than the heap's shuffle
//! (measured 2026-11-24 on compact N-Queens n = 300 without primary variables: 4.3 s instead
//! of over 22 min). With one, the heap's own order stays: on the primary variables of
//! N-Queens, deciding in input order fills the board row by row, leftmost first, and took
//! 20,005 conflicts instead of 494 at n = 200 (2026-11-25). The heap holds every unassigned variable (and, lazily, some assigned ones, which
//! the caller skips); `position` makes bumping a variable that is inside O(log n).

use std::cmp::Ordering;
use std::collections::TryReserveError;

use crate::lit::Var;

/// Not in the heap.
const ABSENT: u32 = u32::MAX;

/// Activities above this trigger a rescale.
const RESCALE_ABOVE: f64 = 1e100;

#[derive(Clone, Debug, Default)]
pub(crate) struct VarHeap {
    activity: Vec<f64>,
    /// Heap order: `heap[i]`'s activity is at least that of its children `2i+1`, `2i+2`.
    heap: Vec<Var>,
    /// Index of each variable in `heap`, or `ABSENT`.
    position: Vec<u32>,
    increment: f64,
    /// Variables with a smaller index are popped before all others.
    first_tier: usize,
    /// Equal keys go by index (only when there is no first tier).
    input_order: bool,
}

impl VarHeap {
    #[cfg(test)]
    pub(crate) fn new() -> Self {
        VarHeap::with_first_tier(usize::MAX)
    }

    /// A heap that pops the variables below index `first_tier` before all others.
    pub(crate) fn with_first_tier(first_tier: usize) -> Self {
        VarHeap {
            increment: 1.0,
            first_tier,
            input_order: first_tier == usize::MAX,
            ..VarHeap::default()
        }
    }

    /// The heap order: first tier before the rest, then activity, then (without a first tier)
    /// the lower index, so variables no conflict has bumped yet are decided in input order,
    /// not in whatever order the heap's sifting left them. (Written out rather than as a
    /// tuple comparison, which costs more instructions; activities are never NaN.)
    #[inline]
    fn order(&self, a: Var, b: Var) -> Ordering {
        let (i, j) = (a.index(), b.index());
        let tier = (i < self.first_tier).cmp(&(j < self.first_tier));
        if tier != Ordering::Equal {
            return tier;
        }
        let (x, y) = (self.activity[i], self.activity[j]);
        if x > y {
            Ordering::Greater
        } else if x < y {
            Ordering::Less
        } else if self.input_order {
            j.cmp(&i)
        } else {
            Ordering::Equal
        }
    }

    /// Makes room for `more` variables without aborting when the memory is not to be had.
    pub(crate) fn try_reserve(&mut self, more: usize) -> Result<(), TryReserveError> {
        self.activity.try_reserve(more)?;
        self.heap.try_reserve(more)?;
        self.position.try_reserve(more)
    }

    /// Adds variables up to `count`, each with activity `initial(var)`, into the heap.
    pub(crate) fn grow(&mut self, count: usize, mut initial: impl FnMut(Var) -> f64) {
        while self.activity.len() < count {
            let var = Var::from_index(self.activity.len() as u32);
            self.activity.push(initial(var));
            self.position.push(ABSENT);
            self.insert(var);
        }
    }

    #[cfg(test)]
    pub(crate) fn activity(&self, var: Var) -> f64 {
        self.activity[var.index()]
    }

    pub(crate) fn contains(&self, var: Var) -> bool {
        self.position[var.index()] != ABSENT
    }

    pub(crate) fn insert(&mut self, var: Var) {
        if self.contains(var) {
            return;
        }
        let at = self.heap.len();
        self.heap.push(var);
        self.position[var.index()] = at as u32;
        self.sift_up(at);
    }

    /// Takes `var` out of the heap (nothing when it is not in).
    pub(crate) fn remove(&mut self, var: Var) {
        let at = self.position[var.index()];
        if at == ABSENT {
            return;
        }
        self.position[var.index()] = ABSENT;
        let last = self.heap.pop().expect("nonempty");
        if last != var {
            let at = at as usize;
            self.heap[at] = last;
            self.position[last.index()] = at as u32;
            self.sift_up(at);
            let at = self.position[last.index()] as usize;
            self.sift_down(at);
        }
    }

    /// Removes and returns the most active variable.
    pub(crate) fn pop(&mut self) -> Option<Var> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("nonempty");
        self.position[top.index()] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.position[last.index()] = 0;
            self.sift_down(0);
        }
        Some(top)
    }

    /// Adds the current increment to `var`'s activity.
    pub(crate) fn bump(&mut self, var: Var) {
        let activity = &mut self.activity[var.index()];
        *activity += self.increment;
        if *activity > RESCALE_ABOVE {
            for a in &mut self.activity {
                *a *= 1.0 / RESCALE_ABOVE;
            }
            self.increment *= 1.0 / RESCALE_ABOVE;
        }
        let at = self.position[var.index()];
        if at != ABSENT {
            self.sift_up(at as usize);
        }
    }

    /// Makes later bumps weigh `1/decay` times more.
    pub(crate) fn decay(&mut self, decay: f64) {
        self.increment *= 1.0 / decay;
    }

    fn sift_up(&mut self, mut at: usize) {
        let var = self.heap[at];
        while at > 0 {
            let parent = (at - 1) / 2;
            let above = self.heap[parent];
            if self.order(above, var).is_ge() {
                break;
            }
            self.heap[at] = above;
            self.position[above.index()] = at as u32;
            at = parent;
        }
        self.heap[at] = var;
        self.position[var.index()] = at as u32;
    }

    fn sift_down(&mut self, mut at: usize) {
        let var = self.heap[at];
        let len = self.heap.len();
        loop {
            let left = 2 * at + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len && self.order(self.heap[right], self.heap[left]).is_gt() {
                right
            } else {
                left
            };
            let below = self.heap[child];
            if self.order(below, var).is_le() {
                break;
            }
            self.heap[at] = below;
            self.position[below.index()] = at as u32;
            at = child;
        }
        self.heap[at] = var;
        self.position[var.index()] = at as u32;
    }

    /// Checks the heap property and the position index (debug builds and tests).
    #[cfg(debug_assertions)]
    pub(crate) fn check(&self) {
        for (i, &var) in self.heap.iter().enumerate() {
            assert_eq!(self.position[var.index()], i as u32);
            if i > 0 {
                let parent = self.heap[(i - 1) / 2];
                assert!(self.order(parent, var).is_ge());
            }
        }
        let inside = self.position.iter().filter(|&&p| p != ABSENT).count();
        assert_eq!(inside, self.heap.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_activity_order_after_bumps() {
        let mut heap = VarHeap::new();
        heap.grow(6, |_| 0.0);
        let v = Var::from_index;
        heap.bump(v(3));
        heap.decay(0.5);
        heap.bump(v(5));
        heap.bump(v(3));
        heap.check();
        assert_eq!(heap.pop(), Some(v(3)));
        assert_eq!(heap.pop(), Some(v(5)));
        heap.insert(v(3));
        assert_eq!(heap.pop(), Some(v(3)));
        let mut rest = Vec::new();
        while let Some(x) = heap.pop() {
            rest.push(x.index());
        }
        rest.sort_unstable();
        assert_eq!(rest, [0, 1, 2, 4]);
    }

    #[test]
    fn the_first_tier_pops_before_more_active_variables() {
        let mut heap = VarHeap::with_first_tier(2);
        heap.grow(5, |_| 0.0);
        let v = Var::from_index;
        for _ in 0..3 {
            heap.bump(v(4));
        }
        heap.bump(v(3));
        heap.bump(v(1));
        heap.check();
        let order: Vec<usize> = std::iter::from_fn(|| heap.pop()).map(Var::index).collect();
        assert_eq!(order, [1, 0, 4, 3, 2]);
    }

    #[test]
    fn equal_activities_pop_in_input_order() {
        let mut heap = VarHeap::new();
        heap.grow(9, |_| 0.0);
        let v = Var::from_index;
        heap.bump(v(6));
        assert_eq!(heap.pop(), Some(v(6)));
        let order: Vec<usize> = std::iter::from_fn(|| heap.pop()).map(Var::index).collect();
        assert_eq!(order, [0, 1, 2, 3, 4, 5, 7, 8]);
        for i in [5, 2, 7, 0] {
            heap.insert(v(i));
        }
        heap.check();
        let order: Vec<usize> = std::iter::from_fn(|| heap.pop()).map(Var::index).collect();
        assert_eq!(order, [0, 2, 5, 7]);
    }

    #[test]
    fn rescaling_keeps_the_order() {
        let mut heap = VarHeap::new();
        heap.grow(3, |_| 0.0);
        for _ in 0..2000 {
            heap.decay(0.8);
            heap.bump(Var::from_index(1));
        }
        heap.bump(Var::from_index(2));
        heap.check();
        assert!(heap.activity(Var::from_index(1)) < RESCALE_ABOVE);
        assert_eq!(heap.pop(), Some(Var::from_index(1)));
        assert_eq!(heap.pop(), Some(Var::from_index(2)));
    }
}
