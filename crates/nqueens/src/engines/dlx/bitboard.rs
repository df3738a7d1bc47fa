//! The exact cover search of method `dlx`, on one machine word per row: first solutions of
//! boards with blocked squares up to n = 64.
//!
//! # Why a third engine
//!
//! A board with blocked squares is answered by a search in the declared order, and most of
//! its answers are proofs that there is no solution: the whole tree, tens of millions of
//! nodes on the hardest boards of the ASP competitions' set (BENCHMARKS.md, "Blocked
//! boards"). The exact cover crate's bit engine visits that tree at about one word per row
//! and per column a node. This engine visits **the same tree** (the same nodes, in the same
//! order, so the same first solution and the same node count) in about half the time, because
//! it knows that the items are rows and columns of a board.
//!
//! # The data structure, and the invariant
//!
//! Level `d` of the search owns `levels[d]`: for every row, the squares still *live* in it
//! (open, and attacked by none of the `d` queens placed so far), as one `u64` (bit `c` for
//! column `c`); rows already filled hold 0. `rows[d]` and `cols[d]` hold the lines still to
//! fill. Placing a queen at (r, c) writes level `d + 1` as level `d` with row r cleared and,
//! in every other row r′, the three squares the queen attacks there (columns c and
//! c ± |r′ − r|) removed. Nothing at level `d` changes, so backing up is free.
//!
//! # A node, and what it costs
//!
//! One pass over the rows writes the next level and gathers what the choice of a line needs:
//! the rows left with no live square or with one, and, by column, the live squares counted in
//! bit slices (1, 2, 4, and "reached 8"), separately for the rows of each residue mod 4. A
//! line with none ends the node; a line with one is forced. Only when neither happens (one
//! node in seven on the hard boards) is the least count found: the rows' by population count,
//! the columns' by adding the four counters slice-wise (one square at a time when every row
//! has 8 or more). The line to branch on is, as in the exact cover engines, the one with the
//! fewest live squares, ties going to the line declared first (the caller gives the order:
//! `dlx`'s organ-pipe order, `r⌊n/2⌋`, `c⌊n/2⌋`, …); a forced line is the least of the forced
//! ones in that order, which is what their rule picks too. Squares are tried in the order the
//! exact cover options list them: by column in a row, by row in a column. The node budget of
//! [`Limits`] counts nodes as the exact cover engines count them.
//!
//! With AVX2 the pass handles four rows at once: the three attacked squares come from
//! variable shifts of the queen's column bit by |r′ − r|, and the empty and single rows from
//! two comparisons whose signs are gathered with one move-mask each; on the hardest n = 56
//! boards it takes a node in a little over half the bit engine's time (BENCHMARKS.md). The
//! scalar pass computes the same, and checked and debug builds run it beside the AVX2 one and
//! assert that both wrote the same level. Processors without AVX2 keep the bit engine
//! ([`BoardSearch::new`] says `None`), which is faster than the scalar pass.

use crate::board::{Problem, Solution};
use crate::engine::{Budget, LimitReached, Limits};

/// The largest board one word per row holds.
pub const MAX_N: u32 = 64;

/// Not a row: the "queen" of the pass that writes the root level.
const NO_LINE: usize = 64;

/// One level: the live squares of every row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(32))]
struct Level([u64; 64]);

/// What a pass found about the level it wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Summary {
    /// Rows with no live square (filled rows and rows past the board included).
    empty_rows: u64,
    /// Rows with at most one live square.
    single_rows: u64,
    /// Live squares by column, counted apart for the rows of each residue mod 4 (the four
    /// lanes of the AVX2 pass): per lane, bit slices 1, 2 and 4 of the count, and a fourth
    /// word for the columns whose count reached 8 there.
    lanes: [[u64; 4]; 4],
}

impl Summary {
    /// The columns with at least one live square, and those with at least two.
    fn columns_seen(&self) -> (u64, u64) {
        let (mut seen, mut multi) = (0u64, 0u64);
        for [b0, b1, b2, eight] in self.lanes {
            let any = b0 | b1 | b2 | eight;
            multi |= (seen & any) | b1 | b2 | eight;
            seen |= any;
        }
        (seen, multi)
    }

    /// The least count up to `limit` among `cols` whose counts stayed under 8 in every
    /// lane, with the columns that have it; `None` when no such column counts `limit` or
    /// fewer.
    fn fewest_columns(&self, cols: u64, limit: u32) -> Option<(u32, u64)> {
        let mut total = [0u64; 5];
        let mut eight = 0u64;
        for [b0, b1, b2, e] in self.lanes {
            total = add_slices(total, [b0, b1, b2, 0, 0]);
            eight |= e;
        }
        let candidates = cols & !eight;
        (0..=limit.min(31)).find_map(|k| {
            let mut equal = candidates;
            for (bit, slice) in total.iter().enumerate() {
                equal &= if k >> bit & 1 == 1 { *slice } else { !*slice };
            }
            (equal != 0).then_some((k, equal))
        })
    }
}

/// The sum of two bit-sliced numbers (five slices, so sums up to 31), one per bit position.
fn add_slices(a: [u64; 5], b: [u64; 5]) -> [u64; 5] {
    let mut sum = [0u64; 5];
    let mut carry = 0u64;
    for i in 0..5 {
        sum[i] = a[i] ^ b[i] ^ carry;
        carry = (a[i] & b[i]) | (carry & (a[i] ^ b[i]));
    }
    sum
}

/// What the search does at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    /// A line has no live square left.
    DeadEnd,
    /// Every line is filled.
    Solved,
    /// Branch on this row's live squares.
    Row(usize),
    /// Branch on this column's live squares.
    Column(usize),
}

/// The search; see the module documentation.
#[derive(Clone, Debug)]
pub struct BoardSearch {
    /// Groups of four rows the passes read: ⌈n / 4⌉.
    groups: usize,
    levels: Vec<Level>,
    rows: Vec<u64>,
    cols: Vec<u64>,
    /// By row, its place in the exact cover declaration order; by column the same.
    row_place: [u32; 64],
    col_place: [u32; 64],
    /// Whether the passes use AVX2.
    simd: bool,
    /// The queens placed on the current path (row, column), fixed queens not included.
    path: Vec<(usize, usize)>,
    /// Columns of the fixed queens by row (`u32::MAX` for none).
    fixed: Vec<u32>,
    nodes: u64,
}

impl BoardSearch {
    /// The search for `problem`, where it runs faster than the bit engine: n ≤ [`MAX_N`] on a
    /// processor with AVX2. `None` elsewhere. The exact cover items were declared as row
    /// `lines[0]`, column `lines[0]`, row `lines[1]`, … (a permutation of 0..n).
    pub fn new(problem: &Problem, lines: &[u32]) -> Option<Self> {
        (problem.n() <= MAX_N && has_avx2()).then(|| BoardSearch::with_simd(problem, lines, true))
    }

    /// The search with the scalar pass (`simd` false) or the AVX2 one (the caller checked
    /// that the processor has it).
    fn with_simd(problem: &Problem, lines: &[u32], simd: bool) -> Self {
        let n = problem.n() as usize;
        assert!(n <= MAX_N as usize, "one word per row holds n ≤ 64");
        let mut row_place = [u32::MAX; 64];
        let mut col_place = [u32::MAX; 64];
        assert_eq!(lines.len(), n, "one line of each number");
        for (k, &line) in lines.iter().enumerate() {
            row_place[line as usize] = 2 * k as u32;
            col_place[line as usize] = 2 * k as u32 + 1;
        }
        let every = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut root = Level([0; 64]);
        for (r, live) in root.0.iter_mut().enumerate().take(n) {
            *live = every;
            for c in 0..n {
                if problem.is_blocked(r as u32, c as u32) {
                    *live &= !(1u64 << c);
                }
            }
        }
        let (mut rows, mut cols) = (every, every);
        let mut fixed = vec![u32::MAX; n];
        for q in problem.fixed() {
            let (r, c) = (q.row as usize, q.col as usize);
            fixed[r] = q.col;
            rows &= !(1u64 << r);
            cols &= !(1u64 << c);
            for (r2, live) in root.0.iter_mut().enumerate().take(n) {
                *live &= !attacked(r, c, r2);
            }
        }
        let mut search = BoardSearch {
            groups: n.div_ceil(4),
            levels: vec![Level([0; 64]); n + 2],
            rows: vec![0; n + 2],
            cols: vec![0; n + 2],
            row_place,
            col_place,
            simd,
            path: Vec::with_capacity(n),
            fixed,
            nodes: 0,
        };
        search.levels[0] = root;
        search.rows[0] = rows;
        search.cols[0] = cols;
        search
    }

    /// Search nodes so far, counted as the exact cover engines count them: one per line
    /// branched on (a line with no live square included), none for a solution.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The first solution in the declared order, `None` when there is none, or the limit that
    /// ended the search first (the node budget counts [`BoardSearch::nodes`]).
    pub fn solve(&mut self, limits: &Limits) -> Result<Option<Solution>, LimitReached> {
        let mut budget = Budget::start(limits);
        budget.check_now()?;
        self.nodes = 0;
        self.path.clear();
        if self.descend(0, NO_LINE, 0, &mut budget)? {
            let mut columns = self.fixed.clone();
            for &(r, c) in &self.path {
                columns[r] = c as u32;
            }
            debug_assert!(columns.iter().all(|&c| c != u32::MAX));
            return Ok(Some(Solution::from_columns(columns)));
        }
        Ok(None)
    }

    /// Places a queen at (`r`, `c`) on level `d` (none for `r` = [`NO_LINE`]), then searches
    /// level `d + 1`; true when it holds a solution (the path then leads to it).
    fn descend(
        &mut self,
        d: usize,
        r: usize,
        c: usize,
        budget: &mut Budget,
    ) -> Result<bool, LimitReached> {
        let choice = self.step(d, r, c);
        if choice == Choice::Solved {
            return Ok(true);
        }
        self.nodes += 1;
        budget.check(self.nodes)?;
        let next = &self.levels[d + 1].0;
        match choice {
            Choice::DeadEnd | Choice::Solved => Ok(false),
            Choice::Row(row) => self.try_each(d + 1, next[row], |col| (row, col), budget),
            Choice::Column(col) => {
                let rows_with = self.rows_with(d + 1, col);
                self.try_each(d + 1, rows_with, |row| (row, col), budget)
            }
        }
    }

    /// Tries the squares of one line on level `d`, in order: `square` turns each set bit of
    /// `bits` into its (row, column).
    fn try_each(
        &mut self,
        d: usize,
        bits: u64,
        square: impl Fn(usize) -> (usize, usize),
        budget: &mut Budget,
    ) -> Result<bool, LimitReached> {
        for (r, c) in set_bits(bits).map(square) {
            self.path.push((r, c));
            if self.descend(d, r, c, budget)? {
                return Ok(true);
            }
            self.path.pop();
        }
        Ok(false)
    }

    /// Writes level `d + 1` from level `d` with a queen at (`r`, `c`) and picks what to do
    /// there.
    fn step(&mut self, d: usize, r: usize, c: usize) -> Choice {
        let (mut rows, mut cols) = (self.rows[d], self.cols[d]);
        if r != NO_LINE {
            rows &= !(1u64 << r);
            cols &= !(1u64 << c);
        }
        self.rows[d + 1] = rows;
        self.cols[d + 1] = cols;
        if rows == 0 {
            return Choice::Solved;
        }
        let summary = self.pass(d, r, c);
        let (seen, multi) = summary.columns_seen();
        if summary.empty_rows & rows != 0 || cols & !seen != 0 {
            return Choice::DeadEnd;
        }
        let forced_rows = summary.single_rows & rows;
        let forced_cols = cols & !multi;
        if forced_rows | forced_cols != 0 {
            return self.least_place(forced_rows, forced_cols);
        }
        // A branching node (one in seven on the hard boards): the exact least count.
        let next = &self.levels[d + 1].0;
        #[cfg(target_arch = "x86_64")]
        let (fewest, fewest_rows) = if self.simd {
            // SAFETY: `simd` is only set where `has_avx2` saw POPCNT (and AVX2).
            unsafe { fewest_rows_popcnt(next, rows) }
        } else {
            fewest_rows(next, rows)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let (fewest, fewest_rows) = fewest_rows(next, rows);
        let fewest_cols = if fewest < 8 {
            summary.fewest_columns(cols, fewest)
        } else {
            // Columns may count 8 or more in a lane: count them one square at a time.
            fewest_columns_exactly(next, rows, cols, fewest)
        };
        match fewest_cols {
            Some((count, columns)) if count < fewest => self.least_place(0, columns),
            Some((_, columns)) => self.least_place(fewest_rows, columns),
            None => self.least_place(fewest_rows, 0),
        }
    }

    /// The line of `rows` and `cols` declared first.
    fn least_place(&self, rows: u64, cols: u64) -> Choice {
        let row = set_bits(rows).min_by_key(|&r| self.row_place[r]);
        let col = set_bits(cols).min_by_key(|&c| self.col_place[c]);
        match (row, col) {
            (Some(r), Some(c)) if self.row_place[r] < self.col_place[c] => Choice::Row(r),
            (_, Some(c)) => Choice::Column(c),
            (Some(r), None) => Choice::Row(r),
            (None, None) => Choice::DeadEnd,
        }
    }

    /// Writes level `d + 1` and summarises it, with the AVX2 pass where chosen (checked
    /// against the scalar one in debug builds).
    fn pass(&mut self, d: usize, r: usize, c: usize) -> Summary {
        #[cfg(not(target_arch = "x86_64"))]
        debug_assert!(!self.simd, "AVX2 is an x86-64 feature");
        #[cfg(target_arch = "x86_64")]
        if self.simd {
            // SAFETY: `simd` is only set where `has_avx2` saw the processor support AVX2.
            let summary = unsafe { self.pass_avx2(d, r, c) };
            #[cfg(debug_assertions)]
            {
                let written = self.levels[d + 1];
                let scalar = self.pass_scalar(d, r, c);
                assert_eq!(summary, scalar, "the AVX2 pass summarised differently");
                assert_eq!(
                    written,
                    self.levels[d + 1],
                    "the AVX2 pass wrote differently"
                );
            }
            return summary;
        }
        self.pass_scalar(d, r, c)
    }

    /// The rows with a live square in column `col` on level `d`.
    fn rows_with(&self, d: usize, col: usize) -> u64 {
        let level = &self.levels[d].0;
        #[cfg(target_arch = "x86_64")]
        if self.simd {
            // SAFETY: `simd` is only set where `has_avx2` saw the processor support AVX2.
            let rows = unsafe { rows_with_avx2(level, self.groups, col) };
            debug_assert_eq!(rows, rows_with_scalar(level, self.groups, col));
            return rows;
        }
        rows_with_scalar(level, self.groups, col)
    }

    /// The pass, one row at a time (each row counted in the lane of its residue mod 4).
    fn pass_scalar(&mut self, d: usize, r: usize, c: usize) -> Summary {
        let (lower, upper) = self.levels.split_at_mut(d + 1);
        let (now, next) = (&lower[d].0, &mut upper[0].0);
        let mut s = Summary {
            empty_rows: 0,
            single_rows: 0,
            lanes: [[0; 4]; 4],
        };
        for r2 in 0..4 * self.groups {
            let live = now[r2] & !if r == NO_LINE { 0 } else { attacked(r, c, r2) };
            next[r2] = live;
            s.empty_rows |= u64::from(live == 0) << r2;
            s.single_rows |= u64::from(live & live.wrapping_sub(1) == 0) << r2;
            count_into(&mut s.lanes[r2 % 4], live);
        }
        s
    }

    /// The pass, four rows at a time.
    ///
    /// # Safety
    /// The processor must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn pass_avx2(&mut self, d: usize, r: usize, c: usize) -> Summary {
        use std::arch::x86_64::*;
        let (lower, upper) = self.levels.split_at_mut(d + 1);
        let (now, next) = (&lower[d].0, &mut upper[0].0);
        let queen_bit = _mm256_set1_epi64x(if r == NO_LINE { 0 } else { 1i64 << c });
        let queen_row = _mm256_set1_epi64x(r as i64);
        let zero = _mm256_setzero_si256();
        let minus_one = _mm256_set1_epi64x(-1);
        let four = _mm256_set1_epi64x(4);
        let mut row = _mm256_setr_epi64x(0, 1, 2, 3);
        let (mut b0, mut b1, mut b2, mut eight) = (zero, zero, zero, zero);
        let (mut empty_rows, mut single_rows) = (0u64, 0u64);
        for g in 0..self.groups {
            // |r′ − r| for the four rows, then the squares the queen attacks in them (shifts
            // by 64 or more give 0), and all of the queen's own row.
            let diff = _mm256_sub_epi64(row, queen_row);
            let distance = _mm256_blendv_epi8(
                _mm256_sub_epi64(zero, diff),
                diff,
                _mm256_cmpgt_epi64(diff, minus_one),
            );
            let attacked = _mm256_or_si256(
                _mm256_or_si256(queen_bit, _mm256_cmpeq_epi64(row, queen_row)),
                _mm256_or_si256(
                    _mm256_sllv_epi64(queen_bit, distance),
                    _mm256_srlv_epi64(queen_bit, distance),
                ),
            );
            // SAFETY: `g < groups ≤ 16`, so words 4g..4g + 4 lie inside the 64-word level,
            // and `Level`'s `repr(align(32))` aligns them for this load.
            let before = unsafe { _mm256_load_si256(now.as_ptr().add(4 * g) as *const __m256i) };
            let live = _mm256_andnot_si256(attacked, before);
            // SAFETY: as for the load, in the next level.
            unsafe { _mm256_store_si256(next.as_mut_ptr().add(4 * g) as *mut __m256i, live) };
            let is_empty = _mm256_cmpeq_epi64(live, zero);
            let is_single = _mm256_cmpeq_epi64(
                _mm256_and_si256(live, _mm256_add_epi64(live, minus_one)),
                zero,
            );
            empty_rows |= (_mm256_movemask_pd(_mm256_castsi256_pd(is_empty)) as u64) << (4 * g);
            single_rows |= (_mm256_movemask_pd(_mm256_castsi256_pd(is_single)) as u64) << (4 * g);
            // The lane counters, as `count_into` keeps them.
            let carry = _mm256_and_si256(b0, live);
            b0 = _mm256_xor_si256(b0, live);
            let carry = {
                let next_carry = _mm256_and_si256(b1, carry);
                b1 = _mm256_xor_si256(b1, carry);
                next_carry
            };
            eight = _mm256_or_si256(eight, _mm256_and_si256(b2, carry));
            b2 = _mm256_xor_si256(b2, carry);
            row = _mm256_add_epi64(row, four);
        }
        let mut slices = [[0u64; 4]; 4];
        // SAFETY: each array is four words, one 256-bit unaligned store.
        unsafe {
            for (slice, v) in slices.iter_mut().zip([b0, b1, b2, eight]) {
                _mm256_storeu_si256(slice.as_mut_ptr() as *mut __m256i, v);
            }
        }
        let mut lanes = [[0u64; 4]; 4];
        for (lane, counters) in lanes.iter_mut().enumerate() {
            for (slice, word) in counters.iter_mut().enumerate() {
                *word = slices[slice][lane];
            }
        }
        Summary {
            empty_rows,
            single_rows,
            lanes,
        }
    }
}

/// The positions of the set bits of `mask`, lowest first.
fn set_bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            bit
        })
    })
}

/// [`Summary::fewest_columns`] counted square by square: the least number of live squares in
/// a column of `cols` up to `limit`, with the columns that have it.
fn fewest_columns_exactly(
    level: &[u64; 64],
    rows: u64,
    cols: u64,
    limit: u32,
) -> Option<(u32, u64)> {
    let mut counts = [0u32; 64];
    for r in set_bits(rows) {
        for c in set_bits(level[r]) {
            counts[c] += 1;
        }
    }
    let fewest = set_bits(cols).map(|c| counts[c]).min()?;
    let which = set_bits(cols)
        .filter(|&c| counts[c] == fewest)
        .fold(0, |m, c| m | 1 << c);
    (fewest <= limit).then_some((fewest, which))
}

/// The least number of live squares in a row of `rows`, and the rows that have it.
#[inline(always)]
fn fewest_rows(level: &[u64; 64], rows: u64) -> (u32, u64) {
    let (mut fewest, mut which) = (u32::MAX, 0u64);
    for r in set_bits(rows) {
        let count = level[r].count_ones();
        if count < fewest {
            (fewest, which) = (count, 0);
        }
        if count == fewest {
            which |= 1 << r;
        }
    }
    (fewest, which)
}

/// [`fewest_rows`] with the POPCNT instruction.
///
/// # Safety
/// The processor must support POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn fewest_rows_popcnt(level: &[u64; 64], rows: u64) -> (u32, u64) {
    fewest_rows(level, rows)
}

/// The rows of the first `4 * groups` of `level` with bit `col` set.
fn rows_with_scalar(level: &[u64; 64], groups: usize, col: usize) -> u64 {
    (0..4 * groups).fold(0, |rows, r| rows | ((level[r] >> col) & 1) << r)
}

/// [`rows_with_scalar`], four rows at a time: each row shifted so that bit `col` becomes its
/// sign, and the signs gathered by a move-mask.
///
/// # Safety
/// The processor must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn rows_with_avx2(level: &[u64; 64], groups: usize, col: usize) -> u64 {
    use std::arch::x86_64::*;
    let shift = _mm_set_epi64x(0, 63 - col as i64);
    let mut rows = 0u64;
    for g in 0..groups {
        // SAFETY: `g < groups ≤ 16`: words 4g..4g + 4 lie inside the level (unaligned load).
        let words = unsafe { _mm256_loadu_si256(level.as_ptr().add(4 * g) as *const __m256i) };
        let signs = _mm256_castsi256_pd(_mm256_sll_epi64(words, shift));
        rows |= (_mm256_movemask_pd(signs) as u64) << (4 * g);
    }
    rows
}

/// Adds one to the counters of `lane` (bit slices 1, 2, 4 and "reached 8") at the columns
/// of `live`.
fn count_into(lane: &mut [u64; 4], live: u64) {
    let [b0, b1, b2, eight] = lane;
    let carry = *b0 & live;
    *b0 ^= live;
    let carry2 = *b1 & carry;
    *b1 ^= carry;
    *eight |= *b2 & carry2;
    *b2 ^= carry2;
}

/// The squares of row `r2` that a queen at (`r`, `c`) attacks: all of its own row, else its
/// column and the two diagonals.
fn attacked(r: usize, c: usize, r2: usize) -> u64 {
    if r2 == r {
        return u64::MAX;
    }
    let bit = 1u64 << c;
    let distance = r.abs_diff(r2) as u32;
    bit | bit.checked_shl(distance).unwrap_or(0) | bit.checked_shr(distance).unwrap_or(0)
}

/// Whether this processor runs the AVX2 pass (and has POPCNT, as every AVX2 processor does).
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Queen, naive, verify::verify};
    use nqueens_support::SplitMix64;

    /// A board of size `n` with about `blocked` per mille of its squares blocked and up to
    /// `fixed` queens fixed that attack no other (on open squares).
    fn random_board(rng: &mut SplitMix64, n: u32, blocked: u32, fixed: usize) -> Problem {
        let mut queens: Vec<Queen> = Vec::new();
        for _ in 0..fixed {
            let q = Queen::new(rng.below(n), rng.below(n));
            let clash = queens.iter().any(|p| {
                p.row == q.row
                    || p.col == q.col
                    || p.row + p.col == q.row + q.col
                    || p.row + q.col == q.row + p.col
            });
            if !clash {
                queens.push(q);
            }
        }
        let mut blocks = Vec::new();
        for r in 0..n {
            for c in 0..n {
                let square = Queen::new(r, c);
                if !queens.contains(&square) && rng.below(1000) < blocked {
                    blocks.push(square);
                }
            }
        }
        Problem::with_blocks(n, queens, blocks).expect("fixed queens apart, blocks off them")
    }

    /// Rows and columns in plain order.
    fn plain(n: u32) -> Vec<u32> {
        (0..n).collect()
    }

    /// The scalar pass finds a valid solution exactly where brute force finds one, and the
    /// AVX2 pass (where the processor has it) the same solution with the same nodes. The
    /// tree against the bit engine's is tested with the `dlx` method (tests/integration/dlx.rs).
    #[test]
    fn the_passes_agree_with_brute_force() {
        let mut rng = SplitMix64::new(0xB10C);
        for round in 0..300 {
            let n = 1 + rng.below(8);
            let problem = random_board(&mut rng, n, [0, 150, 300, 450][round % 4], round % 3);
            let mut scalar = BoardSearch::with_simd(&problem, &plain(n), false);
            let found = scalar.solve(&Limits::none()).unwrap();
            assert_eq!(
                found.is_some(),
                !naive::solutions(&problem).is_empty(),
                "round {round}"
            );
            if let Some(solution) = &found {
                assert_eq!(verify(&problem, solution), Ok(()), "round {round}");
            }
            if let Some(mut simd) = BoardSearch::new(&problem, &plain(n)) {
                assert_eq!(simd.solve(&Limits::none()).unwrap(), found, "round {round}");
                assert_eq!(simd.nodes(), scalar.nodes(), "round {round}");
            }
        }
    }

    /// A node budget ends the search with the nodes it allowed.
    #[test]
    fn a_node_budget_stops_the_search() {
        let mut rng = SplitMix64::new(7);
        let problem = random_board(&mut rng, 40, 500, 0);
        let mut unlimited = BoardSearch::with_simd(&problem, &plain(40), false);
        unlimited.solve(&Limits::none()).unwrap();
        assert!(unlimited.nodes() > 5, "the board needs more than 5 nodes");
        let mut search = BoardSearch::with_simd(&problem, &plain(40), false);
        let limits = Limits {
            nodes: Some(5),
            ..Limits::default()
        };
        assert_eq!(search.solve(&limits), Err(LimitReached::Nodes));
        assert_eq!(search.nodes(), 5);
    }
}
