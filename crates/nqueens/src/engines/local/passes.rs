//! The O(n) passes of the search: each looks at the limits every [`ROWS_PER_LOOK`] rows
//! ([`each_row`]), and the shuffle deals a random permutation in two cache-friendly passes
//! ([`shuffle`], after Sanders 1998).

use nqueens_support::{Budget, LimitReached, SplitMix64};

/// Rows an O(n) pass of the search (a shuffle, a start, a rescan) handles between two looks at
/// its limits: a few milliseconds.
pub(super) const ROWS_PER_LOOK: usize = 1 << 20;

/// Calls `visit` with each of the rows `0..len` of an O(n) pass, in order, looking at the
/// budget's clock and stop flag before every [`ROWS_PER_LOOK`] of them.
#[inline(always)]
pub(super) fn each_row(
    len: usize,
    budget: &Budget,
    mut visit: impl FnMut(usize),
) -> Result<(), LimitReached> {
    let mut row = 0;
    while row < len {
        budget.check_now()?;
        let end = len.min(row + ROWS_PER_LOOK);
        while row < end {
            visit(row);
            row += 1;
        }
    }
    Ok(())
}

/// Writes a uniformly random permutation of `source(0..out.len())` into `out`, in two passes
/// that stay in cache however long `out` is (Sanders, "Random permutations on distributed,
/// external and hierarchical memory", *IPL* 67, 1998): deal every element into one of `B`
/// buckets chosen at random, writing each bucket as a sequential stream, then Fisher–Yates
/// shuffle each bucket, which fits in the L2 cache. Every permutation is equally likely: an
/// assignment to buckets and an order inside each bucket determine it uniquely, and both are
/// uniform. The bucket sizes come from a first pass over a copy of the random stream.
pub(super) fn shuffle(
    out: &mut [u32],
    source: impl Fn(usize) -> u32,
    rng: &mut SplitMix64,
    budget: &Budget,
) -> Result<(), LimitReached> {
    /// Elements per bucket, on average: 16 Ki of 4 bytes, well inside L2.
    const BUCKET: usize = 1 << 14;
    let len = out.len();
    let buckets = len.div_ceil(BUCKET).clamp(1, 1024);
    let mut ends = vec![0usize; buckets + 1];
    let mut sizes = rng.clone();
    each_row(len, budget, |_| {
        ends[sizes.below_u64(buckets as u64) as usize + 1] += 1;
    })?;
    for b in 0..buckets {
        ends[b + 1] += ends[b];
    }
    let mut next = ends.clone();
    each_row(len, budget, |k| {
        let bucket = rng.below_u64(buckets as u64) as usize;
        out[next[bucket]] = source(k);
        next[bucket] += 1;
    })?;
    for b in 0..buckets {
        budget.check_now()?;
        let bucket = &mut out[ends[b]..ends[b + 1]];
        for k in (1..bucket.len()).rev() {
            bucket.swap(k, rng.below_u64(k as u64 + 1) as usize);
        }
    }
    Ok(())
}
