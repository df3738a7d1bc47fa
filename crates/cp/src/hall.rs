//! Bounds consistency for "all different" over integer intervals, by Hall intervals.
//!
//! Given intervals `[lo_i, hi_i]`, a *Hall interval* is an interval `[a, b]` that contains as many
//! of them as it has values (`b − a + 1`): those variables use up every value of `[a, b]`, so no
//! other variable may take one, and a variable whose lower bound falls inside `[a, b]` but whose
//! upper bound does not must start above `b` (symmetrically for upper bounds). An interval holding
//! *more* variables than values means no assignment exists. Applying every such rule gives
//! bounds consistency: each bound then belongs to some assignment of distinct values with every
//! variable inside its interval (Leconte 1996; Puget 1998).
//!
//! [`HallIntervals::narrow`] follows A. López-Ortiz, C.-G. Quimper, J. Tromp and P. van Beek, *A
//! fast and simple algorithm for bounds consistency of the alldifferent constraint*, IJCAI 2003.
//! The distinct values `lo_i` and `hi_i + 1` cut the line into buckets. The lower-bound pass takes
//! the variables by increasing `hi` and gives each one a value from the first bucket at or after
//! its `lo` that still has room (the greedy matching that is optimal for intervals); a union-find
//! forest over buckets (`tree`) skips full buckets, and a second forest (`hall`) links the buckets
//! that lie in a Hall interval found so far, so a variable whose `lo` lands in one is pushed past
//! its end. The upper-bound pass is the mirror image. With the variables already sorted both ways,
//! a call costs O(k α(k)) for k intervals (path compression on both forests).
//!
//! The caller sorts: [`crate::alldiff`] keeps the orders from one call to the next and repairs
//! them by insertion, which is O(k) when few bounds moved, as in a search where one decision moves
//! a handful of bounds.

use crate::store::Conflict;

/// Scratch arrays for [`HallIntervals::narrow`], kept to avoid allocating per call.
#[derive(Clone, Debug, Default)]
pub(crate) struct HallIntervals {
    /// Sorted distinct cut points, with a sentinel at each end.
    cuts: Vec<i32>,
    /// Per interval (indexed like `lo`/`hi`): index in `cuts` of `lo` and of `hi + 1`.
    lo_rank: Vec<u32>,
    hi_rank: Vec<u32>,
    /// Union-find over buckets with no room left.
    tree: Vec<u32>,
    /// Union-find over buckets inside Hall intervals.
    hall: Vec<u32>,
    /// Room left per bucket.
    room: Vec<i32>,
}

/// Follows `forest` upwards (to larger indices) from `i` to the root.
#[inline]
fn path_max(forest: &[u32], mut i: u32) -> u32 {
    while forest[i as usize] > i {
        i = forest[i as usize];
    }
    i
}

/// Follows `forest` downwards (to smaller indices) from `i` to the root.
#[inline]
fn path_min(forest: &[u32], mut i: u32) -> u32 {
    while forest[i as usize] < i {
        i = forest[i as usize];
    }
    i
}

/// Points every node on the path from `start` to `end` (exclusive) at `to`.
#[inline]
fn path_set(forest: &mut [u32], start: u32, end: u32, to: u32) {
    let mut node = start;
    while node != end {
        let next = forest[node as usize];
        forest[node as usize] = to;
        node = next;
    }
}

impl HallIntervals {
    /// Narrows the intervals `[lo[i], hi[i]]` for the `i` listed in `by_lo` (sorted by `lo`) and
    /// `by_hi` (the same indices sorted by `hi`) to bounds consistency. Entries of `lo` and `hi`
    /// not listed are left alone. Fails when the intervals admit no distinct values.
    ///
    /// The arrays must be sorted: ties in any order. Values must stay 2 away from `i32` limits.
    pub(crate) fn narrow(
        &mut self,
        lo: &mut [i32],
        hi: &mut [i32],
        by_lo: &[u32],
        by_hi: &[u32],
    ) -> Result<(), Conflict> {
        let k = by_lo.len();
        debug_assert_eq!(k, by_hi.len());
        if k == 0 {
            return Ok(());
        }
        debug_assert!(
            by_lo
                .windows(2)
                .all(|w| lo[w[0] as usize] <= lo[w[1] as usize])
        );
        debug_assert!(
            by_hi
                .windows(2)
                .all(|w| hi[w[0] as usize] <= hi[w[1] as usize])
        );
        if self.lo_rank.len() < lo.len() {
            self.lo_rank.resize(lo.len(), 0);
            self.hi_rank.resize(lo.len(), 0);
        }

        // Merge the lower bounds and the (upper bounds + 1) into the sorted cut points.
        let cuts = &mut self.cuts;
        cuts.clear();
        cuts.push(lo[by_lo[0] as usize] - 2);
        let (mut i, mut j) = (0, 0);
        loop {
            if i < k && lo[by_lo[i] as usize] <= hi[by_hi[j] as usize] + 1 {
                let value = lo[by_lo[i] as usize];
                if value != *cuts.last().expect("sentinel") {
                    cuts.push(value);
                }
                self.lo_rank[by_lo[i] as usize] = (cuts.len() - 1) as u32;
                i += 1;
            } else {
                let value = hi[by_hi[j] as usize] + 1;
                if value != *cuts.last().expect("sentinel") {
                    cuts.push(value);
                }
                self.hi_rank[by_hi[j] as usize] = (cuts.len() - 1) as u32;
                j += 1;
                if j == k {
                    break;
                }
            }
        }
        let last = cuts.len() - 1;
        cuts.push(cuts[last] + 2);
        let buckets = cuts.len();
        self.tree.resize(buckets, 0);
        self.hall.resize(buckets, 0);
        self.room.resize(buckets, 0);

        self.raise_lower_bounds(lo, by_hi)?;
        self.lower_upper_bounds(hi, by_lo)
    }

    /// Bucket `b` is `[cuts[b − 1], cuts[b])`.
    fn raise_lower_bounds(&mut self, lo: &mut [i32], by_hi: &[u32]) -> Result<(), Conflict> {
        let (cuts, tree, hall, room) = (&self.cuts, &mut self.tree, &mut self.hall, &mut self.room);
        let buckets = cuts.len();
        tree[0] = 0;
        hall[0] = 0;
        room[0] = 0;
        for b in 1..buckets {
            tree[b] = b as u32 - 1;
            hall[b] = b as u32 - 1;
            room[b] = cuts[b] - cuts[b - 1];
        }
        for &var in by_hi {
            let x = self.lo_rank[var as usize];
            let y = self.hi_rank[var as usize];
            // The first bucket at or after lo with room; `first` is where its run of full
            // buckets begins.
            let mut z = path_max(tree, x + 1);
            let first = tree[z as usize];
            room[z as usize] -= 1;
            if room[z as usize] == 0 {
                tree[z as usize] = z + 1;
                z = path_max(tree, tree[z as usize]);
                tree[z as usize] = first;
            }
            path_set(tree, x + 1, z, z);
            let span = cuts[z as usize] - cuts[y as usize];
            if room[z as usize] < span {
                return Err(Conflict);
            }
            if hall[x as usize] > x {
                let end = path_max(hall, hall[x as usize]);
                lo[var as usize] = cuts[end as usize];
                path_set(hall, x, end, end);
            }
            if room[z as usize] == span {
                let start = hall[y as usize];
                path_set(hall, start, first - 1, y);
                hall[y as usize] = first - 1;
            }
        }
        Ok(())
    }

    /// Bucket `b` is `[cuts[b], cuts[b + 1])`.
    fn lower_upper_bounds(&mut self, hi: &mut [i32], by_lo: &[u32]) -> Result<(), Conflict> {
        let (cuts, tree, hall, room) = (&self.cuts, &mut self.tree, &mut self.hall, &mut self.room);
        let buckets = cuts.len();
        for b in 0..buckets - 1 {
            tree[b] = b as u32 + 1;
            hall[b] = b as u32 + 1;
            room[b] = cuts[b + 1] - cuts[b];
        }
        tree[buckets - 1] = buckets as u32 - 1;
        hall[buckets - 1] = buckets as u32 - 1;
        room[buckets - 1] = 0;
        for &var in by_lo.iter().rev() {
            let x = self.hi_rank[var as usize];
            let y = self.lo_rank[var as usize];
            let mut z = path_min(tree, x - 1);
            let first = tree[z as usize];
            room[z as usize] -= 1;
            if room[z as usize] == 0 {
                tree[z as usize] = z - 1;
                z = path_min(tree, tree[z as usize]);
                tree[z as usize] = first;
            }
            path_set(tree, x - 1, z, z);
            let span = cuts[y as usize] - cuts[z as usize];
            if room[z as usize] < span {
                return Err(Conflict);
            }
            if hall[x as usize] < x {
                let end = path_min(hall, hall[x as usize]);
                hi[var as usize] = cuts[end as usize] - 1;
                path_set(hall, x, end, end);
            }
            if room[z as usize] == span {
                let start = hall[y as usize];
                path_set(hall, start, first + 1, y);
                hall[y as usize] = first + 1;
            }
        }
        Ok(())
    }
}

/// Whether the intervals `[lo[i], hi[i]]` for `i` in `vars` are bounds consistent, checked from
/// scratch in O(k² log k): no interval `[a, b]` holds more of them than it has values, and none
/// whose `lo` or `hi` falls in a Hall interval sticks out of it. The debug check of the fast
/// algorithm.
#[cfg(any(test, debug_assertions))]
pub(crate) fn is_bounds_consistent(lo: &[i32], hi: &[i32], vars: &[u32]) -> bool {
    let mut starts: Vec<i32> = vars.iter().map(|&v| lo[v as usize]).collect();
    starts.sort_unstable();
    starts.dedup();
    let mut inside: Vec<i32> = Vec::with_capacity(vars.len());
    for &a in &starts {
        inside.clear();
        inside.extend(
            vars.iter()
                .filter(|&&v| lo[v as usize] >= a)
                .map(|&v| hi[v as usize]),
        );
        inside.sort_unstable();
        for (count, &b) in inside.iter().enumerate() {
            let count = count as i64 + 1;
            let width = i64::from(b) - i64::from(a) + 1;
            if count > width {
                return false;
            }
            // Every variable inside [a, b] is counted once b reaches the last of their highs.
            let is_last = inside.get(count as usize).is_none_or(|&next| next > b);
            if count == width && is_last {
                let sticks_out = vars.iter().any(|&v| {
                    let (l, h) = (lo[v as usize], hi[v as usize]);
                    let contained = l >= a && h <= b;
                    !contained && ((a..=b).contains(&l) || (a..=b).contains(&h))
                });
                if sticks_out {
                    return false;
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Whether the intervals, with `fixed` forced to `value`, admit distinct values: simple
    /// augmenting-path bipartite matching.
    fn has_matching(intervals: &[(i32, i32)], fixed: usize, value: i32) -> bool {
        let mut owner: std::collections::HashMap<i32, usize> = Default::default();
        owner.insert(value, fixed);
        fn augment(
            var: usize,
            intervals: &[(i32, i32)],
            owner: &mut std::collections::HashMap<i32, usize>,
            seen: &mut Vec<i32>,
            fixed: usize,
        ) -> bool {
            let (lo, hi) = intervals[var];
            for v in lo..=hi {
                if seen.contains(&v) {
                    continue;
                }
                seen.push(v);
                match owner.get(&v).copied() {
                    None => {
                        owner.insert(v, var);
                        return true;
                    }
                    Some(other)
                        if other != fixed && augment(other, intervals, owner, seen, fixed) =>
                    {
                        owner.insert(v, var);
                        return true;
                    }
                    Some(_) => {}
                }
            }
            false
        }
        (0..intervals.len()).filter(|&i| i != fixed).all(|i| {
            let mut seen = Vec::new();
            augment(i, intervals, &mut owner, &mut seen, fixed)
        })
    }

    /// Bounds consistency by brute force: each interval shrinks to its smallest and largest
    /// value that belongs to some matching; `None` when there is no matching at all.
    fn brute_force(intervals: &[(i32, i32)]) -> Option<Vec<(i32, i32)>> {
        intervals
            .iter()
            .enumerate()
            .map(|(i, &(lo, hi))| {
                let supported: Vec<i32> = (lo..=hi)
                    .filter(|&v| has_matching(intervals, i, v))
                    .collect();
                Some((*supported.first()?, *supported.last()?))
            })
            .collect()
    }

    fn run(intervals: &[(i32, i32)]) -> Option<Vec<(i32, i32)>> {
        let mut lo: Vec<i32> = intervals.iter().map(|i| i.0).collect();
        let mut hi: Vec<i32> = intervals.iter().map(|i| i.1).collect();
        let mut by_lo: Vec<u32> = (0..intervals.len() as u32).collect();
        let mut by_hi = by_lo.clone();
        by_lo.sort_by_key(|&i| lo[i as usize]);
        by_hi.sort_by_key(|&i| hi[i as usize]);
        let mut hall = HallIntervals::default();
        hall.narrow(&mut lo, &mut hi, &by_lo, &by_hi).ok()?;
        Some(lo.into_iter().zip(hi).collect())
    }

    #[test]
    fn pushes_a_variable_out_of_a_hall_interval() {
        assert_eq!(
            run(&[(1, 2), (1, 2), (1, 3)]),
            Some(vec![(1, 2), (1, 2), (3, 3)])
        );
        assert_eq!(
            run(&[(1, 2), (1, 2), (1, 4), (3, 3)]),
            Some(vec![(1, 2), (1, 2), (4, 4), (3, 3)])
        );
        assert_eq!(run(&[(1, 2), (1, 2), (2, 2)]), None);
        assert_eq!(run(&[(5, 5)]), Some(vec![(5, 5)]));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// One call reaches bounds consistency, exactly as brute force defines it.
        #[test]
        fn one_call_equals_brute_force(
            intervals in prop::collection::vec((0i32..9, 0i32..5), 1..8)
        ) {
            let intervals: Vec<(i32, i32)> =
                intervals.into_iter().map(|(lo, width)| (lo, lo + width)).collect();
            let fast = run(&intervals);
            prop_assert_eq!(&fast, &brute_force(&intervals), "{:?}", intervals);
            if let Some(narrowed) = fast {
                let lo: Vec<i32> = narrowed.iter().map(|i| i.0).collect();
                let hi: Vec<i32> = narrowed.iter().map(|i| i.1).collect();
                let all: Vec<u32> = (0..lo.len() as u32).collect();
                prop_assert!(is_bounds_consistent(&lo, &hi, &all));
            }
        }
    }
}
