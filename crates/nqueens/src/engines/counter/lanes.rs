//! The counting loop run on eight boards at once: the same tree as [`super::kernel`]'s
//! loop, searched level by level in batches, with eight placements per step in the lanes of
//! one 256-bit register (AVX2), chosen at run time when the CPU has AVX2 and BMI2.
//!
//! # Why levels and lanes
//!
//! The one-board loop spends some seventy instructions per queen (the four-row lookahead among
//! them) around a branch that depends on the board. Here the nodes of one row are
//! kept in a *level buffer* (structure of arrays: used columns, the two diagonal masks, and a
//! link to the parent in the level above), and a step takes the next untried square of eight
//! nodes at once: it places the eight queens, checks the next four rows of the eight children
//! (the rows' masks are the same for every node of a level, so they are constants of the
//! loop), and appends the children that survive to the next level's buffer, packed (a
//! *compress*: a permutation built with `pext` from the survivors' mask). A lane whose node
//! has no square left takes the next node of the level (an *expand*: `pdep` spreads the next
//! nodes over the idle lanes). No branch in a step depends on the board, so a step costs about
//! the same whatever the eight lanes hold: the loop runs about 23.5 instructions per queen
//! placed, against the one-board loop's 71 (callgrind, n = 14; BENCHMARKS.md).
//!
//! # The invariant and what it costs
//!
//! Level `d` holds nodes with rows `0..d` filled, each of which passed the lookahead of its
//! parent (so row `d` still has a free square). When level `d + 1` holds [`BATCH`] nodes or
//! level `d` runs dry, level `d + 1` is searched to the end (recursively) and emptied, so the
//! search is depth-first over batches and each level needs [`CAPACITY`] entries: 8 KB per
//! level, 270 KB for all 32, whatever n. A node's parent stays in its buffer until
//! all its descendants are done, so the link is a plain index: the path of a solution is
//! read back through the links (the column of row `r` is the one bit in which a node's
//! columns differ from its parent's). Level `n − 1` is never stored: a child that reaches it
//! has a free square in the last row (the lookahead checked it) and so is a solution.
//!
//! The tree is exactly the one-board loop's: the same squares are tried, the same lookahead
//! prunes them, and the node count (queens placed) is the same number, which the tests check
//! task by task. Symmetry is handled as there: a solution with no queen on a *tie square*
//! counts eight; the link carries one bit, set once a node has a queen on a tie square of
//! rows `b1` or `n − 1 − b1`, and such solutions (and those whose last queen is on the last
//! row's tie square) are read back and checked exactly, as the one-board loop does.
//!
//! A stop flag is read each time a level's batch is searched (every few microseconds, a load
//! per batch of up to [`BATCH`] nodes, nothing per step): once it is raised, every level
//! returns at once and the search answers `None`.
//!
//! Masks are `u32` (n ≤ 32, the counter's limit). The lanes idea follows the GPU counters
//! (one board per thread, all in lockstep); compress and expand through `pext`/`pdep` on lane
//! indices are a known AVX2 idiom (AVX-512 has them as instructions); batching by level, so
//! that the lanes never wait for each other and the row masks are constants, is this module's.

use std::sync::atomic::AtomicBool;

use super::attacks::{State, TaskTies};

/// Nodes a level collects before the level below it is searched.
pub(crate) const BATCH: usize = 512;

/// Entries per level: a batch, the most one step can add past it (8), and room for the full
/// eight-lane loads and stores at the end (8).
pub(crate) const CAPACITY: usize = BATCH + 16;

/// Levels the buffers hold (rows 0..32).
const LEVELS: usize = 32;

/// The link's flag bit: the node has a queen on a tie square.
const TIED: u32 = 1 << 31;

/// Whether this CPU runs the lanes loop.
pub(crate) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The level buffers, one set per worker, reused from task to task.
pub(crate) struct Levels {
    columns: Vec<u32>,
    left: Vec<u32>,
    right: Vec<u32>,
    link: Vec<u32>,
}

impl Default for Levels {
    fn default() -> Self {
        let size = LEVELS * CAPACITY;
        Levels {
            columns: vec![0; size],
            left: vec![0; size],
            right: vec![0; size],
            link: vec![0; size],
        }
    }
}

/// What one task's search found.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Found {
    /// Solutions with no queen on a tie square.
    pub eightfold: u64,
    /// Queens placed.
    pub nodes: u64,
}

/// The board of one task, in the form the lanes loop wants.
pub(crate) struct Board<'a> {
    pub n: usize,
    /// `blocked[r]`: the squares of row r not allowed, with the bits at or above n set.
    pub blocked: &'a [u32],
    /// The task's first rows.
    pub prefix: &'a [u8],
    pub start: State,
    pub ties: TaskTies,
}

/// Counts the completions of `board` (see the module essay); calls `on_tied` with the columns
/// of every solution that has a queen on a tie square; `None` if `stop` was raised before the
/// end. Needs [`available`] and `board.prefix.len() + 2 <= board.n <= 32`.
pub(crate) fn count(
    board: &Board,
    levels: &mut Levels,
    stop: &AtomicBool,
    on_tied: &mut dyn FnMut(&[u8]),
) -> Option<Found> {
    assert!(available(), "the lanes loop needs AVX2 and BMI2");
    assert!(board.n <= LEVELS && board.prefix.len() + 2 <= board.n);
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `available()` has just checked that the CPU has AVX2 and BMI2, the
        // features `avx2::count` is compiled for.
        unsafe { avx2::count(board, levels, stop, on_tied) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (levels, stop, on_tied);
        unreachable!("available() is false off x86-64")
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::{BATCH, Board, CAPACITY, Found, Levels, TIED};

    /// The search of one task, its constants and its running totals.
    struct Search<'a, 'b> {
        board: &'a Board<'a>,
        levels: &'b mut Levels,
        /// Entries in each level's buffer.
        len: [usize; super::LEVELS],
        /// `tie_squares[r]`: the squares of row r that set a node's tie flag.
        tie_squares: [u32; super::LEVELS],
        found: Found,
        on_tied: &'b mut dyn FnMut(&[u8]),
        stop: &'b AtomicBool,
        /// Set once `stop` was seen raised: every level returns at once.
        stopped: bool,
    }

    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    pub(super) fn count(
        board: &Board,
        levels: &mut Levels,
        stop: &AtomicBool,
        on_tied: &mut dyn FnMut(&[u8]),
    ) -> Option<Found> {
        let n = board.n;
        let p = board.prefix.len();
        let mut tie_squares = [0u32; super::LEVELS];
        for &row in &board.ties.side_rows {
            tie_squares[row] = board.ties.side_squares as u32;
        }
        let outside = outside_bits(n);
        // The root: the task's prefix, tied if one of its queens is on a tie square.
        let tied = board
            .prefix
            .iter()
            .enumerate()
            .any(|(row, &col)| tie_squares[row] >> col & 1 == 1);
        let base = p * CAPACITY;
        levels.columns[base] = board.start.columns as u32 | outside;
        levels.left[base] = board.start.left as u32;
        levels.right[base] = board.start.right as u32;
        levels.link[base] = if tied { TIED } else { 0 };
        let mut search = Search {
            board,
            levels,
            len: [0; super::LEVELS],
            tie_squares,
            found: Found::default(),
            on_tied,
            stop,
            stopped: false,
        };
        search.len[p] = 1;
        search.run(p);
        (!search.stopped).then_some(search.found)
    }

    fn outside_bits(n: usize) -> u32 {
        if n >= 32 { 0 } else { !((1u32 << n) - 1) }
    }

    /// Lane indices of the set bits of `mask` (8 bits), packed to the front: lane i of the
    /// result names the lane of the i-th set bit (a compress permutation).
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    fn compress_indices(mask: u32) -> __m256i {
        let bytes = _pdep_u64(u64::from(mask), 0x0101_0101_0101_0101) * 0xff;
        let packed = _pext_u64(0x0706_0504_0302_0100, bytes);
        _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(packed as i64))
    }

    /// For each set bit of `mask` (8 bits), how many set bits come before it: lane i of the
    /// result is the rank of lane i among the set lanes (an expand permutation; lanes not in
    /// the mask get 0).
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    fn expand_indices(mask: u32) -> __m256i {
        let bytes = _pdep_u64(u64::from(mask), 0x0101_0101_0101_0101) * 0xff;
        let spread = _pdep_u64(0x0706_0504_0302_0100, bytes);
        _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(spread as i64))
    }

    #[target_feature(enable = "avx2")]
    fn lane_mask(v: __m256i) -> u32 {
        _mm256_movemask_ps(_mm256_castsi256_ps(v)) as u32
    }

    /// Entries `at..at + 8` of `buffer` (bounds checked: the only cost is one compare, which
    /// measured as noise).
    #[target_feature(enable = "avx2")]
    fn load8(buffer: &[u32], at: usize) -> __m256i {
        let eight: &[u32; 8] = buffer[at..at + 8].try_into().expect("a slice of eight");
        // SAFETY: `eight` is 32 readable bytes; an unaligned load needs nothing more.
        unsafe { _mm256_loadu_si256(eight.as_ptr().cast()) }
    }

    /// Writes `x` to entries `at..at + 8` of `buffer` (bounds checked).
    #[target_feature(enable = "avx2")]
    fn store8(buffer: &mut [u32], at: usize, x: __m256i) {
        let eight: &mut [u32; 8] = (&mut buffer[at..at + 8])
            .try_into()
            .expect("a slice of eight");
        // SAFETY: `eight` is 32 writable bytes, borrowed mutably here; an unaligned store
        // needs nothing more.
        unsafe { _mm256_storeu_si256(eight.as_mut_ptr().cast(), x) }
    }

    /// The lanes whose child (`columns`, `left`, `right`: the masks after its queen) leaves
    /// one of the next `K` rows (their blocked squares in `below`) without a free square: the
    /// lookahead, inlined into [`Search::expand`].
    #[inline]
    #[target_feature(enable = "avx2")]
    fn dead_ahead<const K: usize>(
        columns: __m256i,
        left: __m256i,
        right: __m256i,
        below: &[__m256i; 4],
    ) -> __m256i {
        let ones = _mm256_set1_epi32(-1);
        let row_full = |k: usize, l: __m256i, r: __m256i| {
            _mm256_cmpeq_epi32(
                _mm256_or_si256(_mm256_or_si256(columns, l), _mm256_or_si256(r, below[k])),
                ones,
            )
        };
        let mut dead = row_full(0, left, right);
        if K > 1 {
            let l = _mm256_slli_epi32::<1>(left);
            let r = _mm256_srli_epi32::<1>(right);
            dead = _mm256_or_si256(dead, row_full(1, l, r));
        }
        if K > 2 {
            let l = _mm256_slli_epi32::<2>(left);
            let r = _mm256_srli_epi32::<2>(right);
            dead = _mm256_or_si256(dead, row_full(2, l, r));
        }
        if K > 3 {
            let l = _mm256_slli_epi32::<3>(left);
            let r = _mm256_srli_epi32::<3>(right);
            dead = _mm256_or_si256(dead, row_full(3, l, r));
        }
        dead
    }

    impl Search<'_, '_> {
        /// Searches every node of level `d` to the end (or until the stop flag is seen).
        #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
        fn run(&mut self, d: usize) {
            if self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
                return;
            }
            match (self.board.n - 1 - d).min(4) {
                4 => self.expand::<4>(d),
                3 => self.expand::<3>(d),
                2 => self.expand::<2>(d),
                _ => self.expand::<1>(d),
            }
        }

        /// Places the queens of row `d` for every node of level `d`, looking `K` rows ahead
        /// (K = 1: row `d + 1` is the last row, and every surviving child is a solution).
        #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
        fn expand<const K: usize>(&mut self, d: usize) {
            let n = self.board.n;
            let last_level = d + 2 == n;
            let here = d * CAPACITY;
            let next = (d + 1) * CAPACITY;
            let zero = _mm256_setzero_si256();
            let ones = _mm256_set1_epi32(-1);
            let tied_bit = _mm256_set1_epi32(TIED as i32);
            let row_blocked = _mm256_set1_epi32(self.board.blocked[d] as i32);
            let below: [__m256i; 4] = std::array::from_fn(|k| {
                let row = d + 1 + k;
                _mm256_set1_epi32(if row < n {
                    self.board.blocked[row] as i32
                } else {
                    0
                })
            });
            let tie_here = _mm256_set1_epi32(self.tie_squares[d] as i32);
            let last_tie = _mm256_set1_epi32(self.board.ties.last_square as i32);

            let mut avail = zero;
            let mut columns = zero;
            let mut left = zero;
            let mut right = zero;
            let mut link = zero;
            let mut taken_nodes = 0usize;
            let len = self.len[d];
            loop {
                // Idle lanes take the next nodes of the level.
                let idle = lane_mask(_mm256_cmpeq_epi32(avail, zero));
                if idle != 0 {
                    if taken_nodes < len {
                        let left_in_level = len - taken_nodes;
                        let rank = expand_indices(idle);
                        let take = _mm256_and_si256(
                            _mm256_cmpeq_epi32(avail, zero),
                            _mm256_cmpgt_epi32(_mm256_set1_epi32(left_in_level as i32), rank),
                        );
                        let load = |v: &[u32]| {
                            let level = &v[here..here + CAPACITY];
                            _mm256_permutevar8x32_epi32(load8(level, taken_nodes), rank)
                        };
                        let new_columns = load(&self.levels.columns);
                        let new_left = load(&self.levels.left);
                        let new_right = load(&self.levels.right);
                        let new_link = _mm256_or_si256(
                            _mm256_and_si256(load(&self.levels.link), tied_bit),
                            _mm256_add_epi32(_mm256_set1_epi32(taken_nodes as i32), rank),
                        );
                        let new_avail = _mm256_andnot_si256(
                            _mm256_or_si256(
                                _mm256_or_si256(new_columns, new_left),
                                _mm256_or_si256(new_right, row_blocked),
                            ),
                            ones,
                        );
                        avail = _mm256_blendv_epi8(avail, new_avail, take);
                        columns = _mm256_blendv_epi8(columns, new_columns, take);
                        left = _mm256_blendv_epi8(left, new_left, take);
                        right = _mm256_blendv_epi8(right, new_right, take);
                        link = _mm256_blendv_epi8(link, new_link, take);
                        taken_nodes += (idle.count_ones() as usize).min(left_in_level);
                    } else if idle == 0xff {
                        break;
                    }
                }

                // One queen per lane: the lowest untried square.
                let bit = _mm256_and_si256(avail, _mm256_sub_epi32(zero, avail));
                avail = _mm256_xor_si256(avail, bit);
                let empty = _mm256_cmpeq_epi32(bit, zero);
                let child_columns = _mm256_or_si256(columns, bit);
                let child_left = _mm256_slli_epi32::<1>(_mm256_or_si256(left, bit));
                let child_right = _mm256_srli_epi32::<1>(_mm256_or_si256(right, bit));
                // A child dies if one of the next K rows has no free square.
                let dead = _mm256_or_si256(
                    empty,
                    dead_ahead::<K>(child_columns, child_left, child_right, &below),
                );
                self.found.nodes += u64::from((!lane_mask(empty) & 0xff).count_ones());
                let survivors = !lane_mask(dead) & 0xff;
                // The child's link: its parent's index and tie flag, and the flag of this queen.
                let tie = _mm256_and_si256(
                    _mm256_sub_epi32(zero, _mm256_and_si256(bit, tie_here)),
                    tied_bit,
                );
                let child_link = _mm256_or_si256(link, tie);

                if last_level {
                    if survivors == 0 {
                        continue;
                    }
                    // Each survivor is a solution; its last queen is the last row's free square.
                    let last_queen = _mm256_andnot_si256(
                        _mm256_or_si256(
                            _mm256_or_si256(child_columns, child_left),
                            _mm256_or_si256(child_right, below[0]),
                        ),
                        ones,
                    );
                    let tied = _mm256_or_si256(
                        _mm256_cmpgt_epi32(zero, child_link),
                        _mm256_cmpeq_epi32(last_queen, last_tie),
                    );
                    let tied = lane_mask(tied) & survivors;
                    self.found.nodes += u64::from(survivors.count_ones());
                    self.found.eightfold += u64::from((survivors & !tied).count_ones());
                    if tied != 0 {
                        self.read_back(d, tied, bit, last_queen, child_link);
                    }
                    continue;
                }

                if survivors != 0 {
                    let order = compress_indices(survivors);
                    let at = self.len[d + 1];
                    let store = |v: &mut [u32], x: __m256i| {
                        let level = &mut v[next..next + CAPACITY];
                        store8(level, at, _mm256_permutevar8x32_epi32(x, order))
                    };
                    store(&mut self.levels.columns, child_columns);
                    store(&mut self.levels.left, child_left);
                    store(&mut self.levels.right, child_right);
                    store(&mut self.levels.link, child_link);
                    self.len[d + 1] += survivors.count_ones() as usize;
                    if self.len[d + 1] >= BATCH {
                        self.run(d + 1);
                        self.len[d + 1] = 0;
                        if self.stopped {
                            return;
                        }
                    }
                }
            }
            if !last_level && self.len[d + 1] > 0 {
                self.run(d + 1);
                self.len[d + 1] = 0;
            }
        }

        /// Reads back the solutions of the lanes in `lanes` (a survivors' mask at the last
        /// level `d = n − 2`) through the links, and hands each to `on_tied`.
        #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
        fn read_back(
            &mut self,
            d: usize,
            lanes: u32,
            bit: __m256i,
            last_queen: __m256i,
            link: __m256i,
        ) {
            let to_array = |v: __m256i| {
                let mut out = [0u32; 8];
                store8(&mut out, 0, v);
                out
            };
            let (bit, last_queen, link) = (to_array(bit), to_array(last_queen), to_array(link));
            let n = self.board.n;
            let p = self.board.prefix.len();
            let mut columns = [0u8; 32];
            columns[..p].copy_from_slice(self.board.prefix);
            let mut lanes = lanes;
            while lanes != 0 {
                let lane = lanes.trailing_zeros() as usize;
                lanes &= lanes - 1;
                columns[n - 1] = last_queen[lane].trailing_zeros() as u8;
                columns[d] = bit[lane].trailing_zeros() as u8;
                // Node `index` of level `level` has rows 0..level filled.
                let mut index = (link[lane] & !TIED) as usize;
                for level in (p + 1..=d).rev() {
                    let at = level * CAPACITY + index;
                    let parent = (self.levels.link[at] & !TIED) as usize;
                    let above = (level - 1) * CAPACITY + parent;
                    let queen = self.levels.columns[at] ^ self.levels.columns[above];
                    columns[level - 1] = queen.trailing_zeros() as u8;
                    index = parent;
                }
                (self.on_tied)(&columns[..n]);
            }
        }
    }
}
