//! Min-conflicts local search for huge boards, after Sosic and Gu.
//!
//! Rok Sosic and Jun Gu ("3,000,000 queens in less than one minute", *SIGART Bulletin* 2(2),
//! 1991; "Efficient local search with conflict minimization", *IEEE TKDE* 6(5), 1994) showed
//! that N-Queens is easy for local search when the queens always form a *permutation*: one queen
//! per row and per column, so only diagonals can clash, and a move swaps the columns of two rows.
//! This module follows that scheme.
//!
//! **State.** `columns[row]` is a permutation of the columns. For each of the 2n − 1 diagonals
//! (`row − col` constant) and 2n − 1 anti-diagonals (`row + col` constant) we keep how many
//! queens stand on it, in a compact form: a bit "occupied" (at least one queen), a bit "crowded"
//! (at least two), and, for crowded lines only, the exact count in a small hash map. That is
//! n bytes for the four bit sets, so a board of 10^7 rows keeps its line counts in 5 MB, inside
//! the processor's cache, while a plain counter array would take 80 MB of random accesses. The
//! *collisions* are Σ (queens on a line − 1) over crowded lines; the board is solved when that is
//! 0. Invariant: the bit sets, the map and the collision total always agree with `columns`
//! (a debug-build walker recounts everything from scratch and compares).
//!
//! **Start.** The movable columns are shuffled once (Fisher–Yates), then rows are filled in
//! order: row `i` takes the first of the next [`GREEDY_TRIES`] unused columns (scanning the
//! shuffled pool in order) whose two diagonals are still empty, and when none is, the next
//! column regardless (a *forced* queen, with a collision). This is Sosic and Gu's greedy
//! initialisation with one change for memory locality: they draw a random unused column for each
//! try, which past 10^6 rows costs a cache miss per try in the 4n-byte column array; scanning a
//! pre-shuffled pool reads it in order, and the pool's front holds the columns rejected so far,
//! which are exactly as random. The greedy start leaves only a few dozen collisions on a board
//! of millions. [`Start::Random`] skips the greedy filter (a random permutation, many
//! collisions), for comparison.
//!
//! **Repair.** While collisions remain, pick a *suspect* (a movable queen on a crowded line) at
//! random, pick a random movable row, and swap their columns if that strictly lowers the
//! collisions (the change is computed by taking both queens off their four lines and putting
//! them on their four new ones, O(1) whatever the overlaps, and undone if it does not pay).
//! The suspect list always holds at least one movable queen of every crowded line: forced queens
//! enter it when placed, swapped queens when they land on a crowded line, and when a queen leaves
//! a line that stays crowded (the only way to lose a witness) the list is rebuilt by one O(n)
//! scan. A queen no longer attacked is dropped when drawn.
//!
//! **Blocked squares** (blocked n-Queens) count as collisions too: a queen on one adds 1 to the
//! total, is *attacked* (a suspect, drawn like any other), and a swap's change counts the
//! blocked squares it leaves and lands on; the greedy start treats a blocked square like a
//! crowded line. The total is 0 only on a board with no clash and no queen on a blocked square,
//! so the search never returns one there. The squares are kept in a hash set; the search is
//! compiled twice (trait `BlockedSquares`), so that the plain board's never looks at one (a test
//! per step cost it 5 % more instructions).
//!
//! **Fixed queens** (the completion variant) are placed first, their columns are taken out of
//! the pool, and their rows are never chosen for a swap, so they never move. A completion may
//! have no solution, and local search cannot prove that: each attempt has a step limit, after
//! which the search restarts from a fresh random start, and after the last restart it gives up
//! with [`Outcome::GaveUp`]. It never returns a wrong answer: a board is only returned when its
//! collision total is 0, and debug builds also pass it through [`crate::verify()`].
//!
//! **Cost.** The start is O(n) (one shuffle, then on average a few tries per row); a repair step
//! is O(1) (eight line updates, each a bit test or a hash-map lookup); a restart is O(n). The
//! random stream is a SplitMix64 generator seeded from [`Local::seed`], so a seed always gives the
//! same solution.

use std::collections::{HashMap, HashSet};

use nqueens_support::{Budget, LimitReached, SplitMix64};

use crate::board::verify::verify_bytes;
use crate::board::{Problem, Solution};
use crate::engine::EngineError;
use crate::engine::{Engine, Job, Limits, Outcome, Progress, ProgressSink, Stats};

/// Rows an O(n) pass of the search (a shuffle, a start, a rescan) handles between two looks at
/// its limits: a few milliseconds.
const ROWS_PER_LOOK: usize = 1 << 20;

/// Calls `visit` with each of the rows `0..len` of an O(n) pass, in order, looking at the
/// budget's clock and stop flag before every [`ROWS_PER_LOOK`] of them.
#[inline(always)]
fn each_row(len: usize, budget: &Budget, mut visit: impl FnMut(usize)) -> Result<(), LimitReached> {
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

/// How many columns of the pool the greedy start tries for a row before forcing one.
pub const GREEDY_TRIES: usize = 64;

/// How the first permutation of each attempt is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Start {
    /// Sosic and Gu's greedy start: each row takes a column whose diagonals are still empty when
    /// one of the next few in the shuffled pool fits (few collisions left to repair).
    #[default]
    Greedy,
    /// A uniformly shuffled permutation (many collisions; slower, for comparison).
    Random,
}

/// Min-conflicts local search. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Local {
    /// Seed of the random stream: the same seed gives the same solution.
    pub seed: u64,
    /// How each attempt starts.
    pub start: Start,
    /// Attempts before giving up (at least 1); `None`: [`Local::default_attempts`].
    pub max_attempts: Option<u32>,
    /// Repair steps per attempt before restarting; `None`: [`Local::default_steps`].
    pub max_steps: Option<u64>,
    /// Where the search reports each finished attempt.
    pub progress: Option<ProgressSink>,
    /// When to give up (time budget, stop flag): looked at every thousand repair steps and
    /// every million rows of the O(n) passes, so a board of 3·10⁹ rows stops within a
    /// fraction of a second.
    pub limits: Limits,
    stats: Stats,
}

impl Default for Local {
    fn default() -> Self {
        Local::new(0)
    }
}

impl Local {
    /// A search with the given seed and the default start and limits.
    pub fn new(seed: u64) -> Self {
        Local {
            seed,
            start: Start::Greedy,
            max_attempts: None,
            max_steps: None,
            progress: None,
            limits: Limits::default(),
            stats: Stats::default(),
        }
    }

    /// The default number of attempts for an n-row board: 1000 for small boards, falling as n
    /// grows so that giving up on an unsatisfiable completion costs about 10^8 row operations
    /// (never fewer than 3 attempts).
    pub fn default_attempts(n: u32) -> u32 {
        (100_000_000 / u64::from(n.max(1))).clamp(3, 1000) as u32
    }

    /// The default repair steps per attempt: 20 per row, at least 1000. The greedy start leaves
    /// so few collisions that a solvable board needs a small fraction of this.
    pub fn default_steps(n: u32) -> u64 {
        (20 * u64::from(n)).max(1000)
    }
}

/// The queens on one family of lines (diagonals or anti-diagonals), 2n − 1 of them.
#[derive(Clone, Debug)]
struct Lines {
    /// Bit `l`: line `l` has at least one queen.
    occupied: Vec<u64>,
    /// Bit `l`: line `l` has at least two queens.
    crowded: Vec<u64>,
    /// For crowded lines only: queens on the line minus one.
    extra: HashMap<usize, u32>,
}

impl Lines {
    fn new(lines: usize) -> Self {
        Lines {
            occupied: vec![0; lines.div_ceil(64)],
            crowded: vec![0; lines.div_ceil(64)],
            extra: HashMap::new(),
        }
    }

    fn clear(&mut self) {
        self.occupied.fill(0);
        self.crowded.fill(0);
        self.extra.clear();
    }

    fn bit(words: &[u64], line: usize) -> bool {
        words[line / 64] >> (line % 64) & 1 == 1
    }

    fn is_free(&self, line: usize) -> bool {
        !Self::bit(&self.occupied, line)
    }

    fn is_crowded(&self, line: usize) -> bool {
        Self::bit(&self.crowded, line)
    }

    /// Queens on the line.
    fn count(&self, line: usize) -> u32 {
        if self.is_crowded(line) {
            1 + self.extra[&line]
        } else {
            u32::from(!self.is_free(line))
        }
    }

    /// Puts a queen on the line; returns the collisions this adds (0 or 1).
    fn add(&mut self, line: usize) -> u64 {
        let (word, bit) = (line / 64, 1u64 << (line % 64));
        if self.occupied[word] & bit == 0 {
            self.occupied[word] |= bit;
            return 0;
        }
        if self.crowded[word] & bit == 0 {
            self.crowded[word] |= bit;
            self.extra.insert(line, 1);
        } else {
            *self
                .extra
                .get_mut(&line)
                .expect("a crowded line has a count") += 1;
        }
        1
    }

    /// Takes a queen off the line; returns the collisions this removes (0 or 1) and whether the
    /// line is still crowded afterwards.
    fn remove(&mut self, line: usize) -> (u64, bool) {
        let (word, bit) = (line / 64, 1u64 << (line % 64));
        debug_assert!(self.occupied[word] & bit != 0, "no queen on line {line}");
        if self.crowded[word] & bit == 0 {
            self.occupied[word] &= !bit;
            return (0, false);
        }
        let extra = self
            .extra
            .get_mut(&line)
            .expect("a crowded line has a count");
        *extra -= 1;
        if *extra == 0 {
            self.extra.remove(&line);
            self.crowded[word] &= !bit;
            (1, false)
        } else {
            (1, true)
        }
    }
}

/// Which rows may move, and the columns they share.
#[derive(Clone, Debug)]
enum Movable {
    /// Every row and every column (no fixed queens).
    All(usize),
    /// These rows, in order, share these columns (the others hold fixed queens).
    Rows {
        rows: Vec<u32>,
        free_columns: Vec<u32>,
    },
}

impl Movable {
    fn len(&self) -> usize {
        match self {
            Movable::All(n) => *n,
            Movable::Rows { rows, .. } => rows.len(),
        }
    }

    /// The k-th movable row.
    fn row(&self, k: usize) -> usize {
        match self {
            Movable::All(_) => k,
            Movable::Rows { rows, .. } => rows[k] as usize,
        }
    }
}

/// Writes a uniformly random permutation of `source(0..out.len())` into `out`, in two passes
/// that stay in cache however long `out` is (Sanders, "Random permutations on distributed,
/// external and hierarchical memory", *IPL* 67, 1998): deal every element into one of `B`
/// buckets chosen at random, writing each bucket as a sequential stream, then Fisher–Yates
/// shuffle each bucket, which fits in the L2 cache. Every permutation is equally likely: an
/// assignment to buckets and an order inside each bucket determine it uniquely, and both are
/// uniform. The bucket sizes come from a first pass over a copy of the random stream.
fn shuffle(
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

/// Work counters of one search.
#[derive(Clone, Copy, Debug, Default)]
struct Counters {
    attempts: u64,
    placements: u64,
    forced: u64,
    start_collisions: u64,
    steps: u64,
    swaps: u64,
    rescans: u64,
}

/// Where queens may not stand: nowhere ([`NoBlocks`], the plain board and completions) or a
/// set of squares ([`Blocks`]). [`Search`] is compiled for each, so the plain board's search
/// has no test at all.
trait BlockedSquares {
    /// Whether the square `row · n + col` is blocked.
    fn contains(&self, square: u64) -> bool;
    /// Whether any square is.
    const ANY: bool;
}

/// No blocked square.
struct NoBlocks;

impl BlockedSquares for NoBlocks {
    #[inline(always)]
    fn contains(&self, _square: u64) -> bool {
        false
    }
    const ANY: bool = false;
}

/// Blocked squares, as `row · n + col`.
struct Blocks(HashSet<u64>);

impl BlockedSquares for Blocks {
    fn contains(&self, square: u64) -> bool {
        self.0.contains(&square)
    }
    const ANY: bool = true;
}

/// The board under repair.
struct Search<B: BlockedSquares> {
    n: usize,
    columns: Vec<u32>,
    /// Diagonals, numbered `row + n − 1 − col`.
    down: Lines,
    /// Anti-diagonals, numbered `row + col`.
    up: Lines,
    movable: Movable,
    blocked: B,
    /// Clashes on lines plus queens on blocked squares (the module essay's collisions).
    collisions: u64,
    /// Movable rows whose queen may be attacked; see the module documentation.
    suspects: Vec<u32>,
    /// A queen left a line that stays crowded, so `suspects` may miss that line.
    witness_lost: bool,
    rng: SplitMix64,
    counters: Counters,
}

impl<B: BlockedSquares> Search<B> {
    /// The search of `problem`, its O(n) arrays filled a million rows at a time between looks
    /// at `budget` (a board of 4·10⁹ rows takes seconds to set up); `Ok(Err(_))` if a limit
    /// came first, an error if the machine has not the memory.
    fn new(
        problem: &Problem,
        blocked: B,
        seed: u64,
        budget: &Budget,
    ) -> Result<Result<Self, LimitReached>, EngineError> {
        let n = problem.n() as usize;
        // The columns (4n bytes), four bit sets of 2n lines (n bytes), for a completion the
        // movable rows and free columns (8n bytes and a flag a column), a blocked square's
        // entry in its set, and the check of the answer: refused at once where the machine
        // has less.
        let n64 = n as u64;
        let completion = if problem.is_completion() { 9 * n64 } else { 0 };
        let bytes = 4 * n64
            + n64
            + completion
            + 48 * problem.blocked().len() as u64
            + verify_bytes(problem.n());
        crate::engines::construct::check_memory("local", problem.n(), bytes)?;
        let out_of_memory = || EngineError::OutOfMemory {
            method: "local",
            n: problem.n(),
            bytes,
        };
        let mut columns: Vec<u32> = Vec::new();
        columns.try_reserve_exact(n).map_err(|_| out_of_memory())?;
        let movable = if problem.is_completion() {
            let mut column_used = vec![false; n];
            for q in problem.fixed() {
                column_used[q.col as usize] = true;
            }
            let movable = n - problem.fixed().len();
            let (mut free_columns, mut rows) = (Vec::new(), Vec::new());
            free_columns
                .try_reserve_exact(movable)
                .and_then(|()| rows.try_reserve_exact(movable))
                .map_err(|_| out_of_memory())?;
            let filled = each_row(n, budget, |i| {
                if !column_used[i] {
                    free_columns.push(i as u32);
                }
                let fixed = problem.fixed_column(i as u32);
                if fixed.is_none() {
                    rows.push(i as u32);
                }
                columns.push(fixed.unwrap_or(0));
            });
            if let Err(reached) = filled {
                return Ok(Err(reached));
            }
            Movable::Rows { rows, free_columns }
        } else {
            while columns.len() < n {
                if let Err(reached) = budget.check_now() {
                    return Ok(Err(reached));
                }
                columns.resize(n.min(columns.len() + ROWS_PER_LOOK), 0);
            }
            Movable::All(n)
        };
        let lines = (2 * n).saturating_sub(1);
        Ok(Ok(Search {
            n,
            columns,
            down: Lines::new(lines),
            up: Lines::new(lines),
            movable,
            blocked,
            collisions: 0,
            suspects: Vec::new(),
            witness_lost: false,
            rng: SplitMix64::new(seed),
            counters: Counters::default(),
        }))
    }

    fn down_line(&self, row: usize, col: u32) -> usize {
        row + self.n - 1 - col as usize
    }

    fn up_line(row: usize, col: u32) -> usize {
        row + col as usize
    }

    fn put(&mut self, row: usize, col: u32) -> u64 {
        let (d, u) = (self.down_line(row, col), Self::up_line(row, col));
        self.down.add(d) + self.up.add(u)
    }

    fn take(&mut self, row: usize, col: u32) -> u64 {
        let (d, u) = (self.down_line(row, col), Self::up_line(row, col));
        let (down, down_crowded) = self.down.remove(d);
        let (up, up_crowded) = self.up.remove(u);
        self.witness_lost |= down_crowded || up_crowded;
        down + up
    }

    /// 1 if the square is blocked, else 0.
    #[inline(always)]
    fn blocked_at(&self, row: usize, col: u32) -> u64 {
        u64::from(
            B::ANY
                && self
                    .blocked
                    .contains(row as u64 * self.n as u64 + u64::from(col)),
        )
    }

    /// The change in queens on blocked squares if rows `a` and `b` swapped columns.
    #[inline(always)]
    fn blocked_change(&self, a: usize, b: usize) -> i64 {
        if !B::ANY {
            return 0;
        }
        let (ca, cb) = (self.columns[a], self.columns[b]);
        (self.blocked_at(a, cb) + self.blocked_at(b, ca)) as i64
            - (self.blocked_at(a, ca) + self.blocked_at(b, cb)) as i64
    }

    /// Whether the queen of `row` stands on a crowded line or a blocked square.
    fn is_attacked(&self, row: usize) -> bool {
        let col = self.columns[row];
        self.down.is_crowded(self.down_line(row, col))
            || self.up.is_crowded(Self::up_line(row, col))
            || self.blocked_at(row, col) == 1
    }

    /// A fresh first permutation: fixed queens in place, the movable columns shuffled among the
    /// movable rows and, for the greedy start, reordered row by row to avoid collisions.
    fn start(
        &mut self,
        start: Start,
        problem: &Problem,
        budget: &Budget,
    ) -> Result<(), LimitReached> {
        self.down.clear();
        self.up.clear();
        self.collisions = 0;
        self.suspects.clear();
        self.witness_lost = false;
        for q in problem.fixed() {
            self.put(q.row as usize, q.col);
        }
        let m = self.movable.len();
        match &self.movable {
            Movable::All(_) => shuffle(&mut self.columns, |k| k as u32, &mut self.rng, budget)?,
            Movable::Rows { rows, free_columns } => {
                let mut order = vec![0; m];
                shuffle(&mut order, |k| free_columns[k], &mut self.rng, budget)?;
                for (&row, col) in rows.iter().zip(order) {
                    self.columns[row as usize] = col;
                }
            }
        }
        let mut cursor = 0;
        each_row(m, budget, |k| {
            let row = self.movable.row(k);
            if start == Start::Greedy {
                cursor = self.choose_column(row, k, cursor.max(k));
            }
            let added = self.put(row, self.columns[row]) + self.blocked_at(row, self.columns[row]);
            if added > 0 {
                self.collisions += added;
                self.counters.forced += 1;
                self.suspects.push(row as u32);
            }
        })?;
        self.witness_lost = false;
        self.counters.start_collisions = self.collisions;
        self.check_consistency();
        Ok(())
    }

    /// The greedy choice for `row`, the k-th movable row. The unused columns are those of the
    /// movable rows `k..m`; `cursor` (in `k..m`) is where the scan goes on from the last row, so
    /// that columns rejected recently are not tried again at once. Takes the first column with
    /// both diagonals empty, looking at most [`GREEDY_TRIES`] columns; when none is, the one
    /// that adds the fewest collisions, avoiding crowded lines. Returns the new cursor.
    fn choose_column(&mut self, row: usize, k: usize, cursor: usize) -> usize {
        let m = self.movable.len();
        let tries = GREEDY_TRIES.min(m - k);
        let next = |pos: usize| if pos + 1 == m { k } else { pos + 1 };
        let mut pos = cursor;
        for t in 0..tries {
            let other = self.movable.row(pos);
            let col = self.columns[other];
            // `&`, not `&&`: both lookups start at once and there is one branch, not two.
            if self.down.is_free(self.down_line(row, col))
                & self.up.is_free(Self::up_line(row, col))
                && self.blocked_at(row, col) == 0
            {
                self.columns.swap(row, other);
                self.counters.placements += t as u64 + 1;
                return next(pos);
            }
            pos = next(pos);
        }
        self.counters.placements += tries as u64;
        let cost = |line: usize, lines: &Lines| {
            u32::from(!lines.is_free(line)) + 2 * u32::from(lines.is_crowded(line))
        };
        let (mut best, mut best_cost, mut pos) = (cursor, u32::MAX, cursor);
        for _ in 0..tries {
            let col = self.columns[self.movable.row(pos)];
            let c = cost(self.down_line(row, col), &self.down)
                + cost(Self::up_line(row, col), &self.up)
                + 3 * self.blocked_at(row, col) as u32;
            if c < best_cost {
                (best, best_cost) = (pos, c);
            }
            pos = next(pos);
        }
        let other = self.movable.row(best);
        self.columns.swap(row, other);
        next(best)
    }

    /// The change in collisions if rows `a` and `b` swapped columns, without making the move.
    fn swap_change(&self, a: usize, b: usize) -> i64 {
        let (ca, cb) = (self.columns[a], self.columns[b]);
        let down = [
            (self.down_line(a, ca), -1),
            (self.down_line(b, cb), -1),
            (self.down_line(a, cb), 1),
            (self.down_line(b, ca), 1),
        ];
        let up = [
            (Self::up_line(a, ca), -1),
            (Self::up_line(b, cb), -1),
            (Self::up_line(a, cb), 1),
            (Self::up_line(b, ca), 1),
        ];
        Self::family_change(&self.down, down)
            + Self::family_change(&self.up, up)
            + self.blocked_change(a, b)
    }

    /// The change in collisions of one family when queens leave and join these lines.
    fn family_change(lines: &Lines, moves: [(usize, i64); 4]) -> i64 {
        let mut change = 0;
        for (i, &(line, _)) in moves.iter().enumerate() {
            if moves[..i].iter().any(|&(seen, _)| seen == line) {
                continue;
            }
            let net: i64 = moves.iter().filter(|m| m.0 == line).map(|m| m.1).sum();
            if net != 0 {
                let before = i64::from(lines.count(line));
                change += (before + net - 1).max(0) - (before - 1).max(0);
            }
        }
        change
    }

    /// Rebuilds the suspect list: every movable queen on a crowded line. O(n).
    fn rescan(&mut self, budget: &Budget) -> Result<(), LimitReached> {
        self.counters.rescans += 1;
        self.suspects.clear();
        each_row(self.movable.len(), budget, |k| {
            let row = self.movable.row(k);
            if self.is_attacked(row) {
                self.suspects.push(row as u32);
            }
        })?;
        self.witness_lost = false;
        Ok(())
    }

    /// Repairs until no collision is left (true) or `max_steps` steps were spent (false).
    fn repair(&mut self, max_steps: u64, budget: &mut Budget) -> Result<bool, LimitReached> {
        let m = self.movable.len();
        let mut steps = 0u64;
        while self.collisions > 0 {
            if steps == max_steps || m < 2 {
                self.counters.steps += steps;
                return Ok(false);
            }
            if let Err(reached) = budget.check(steps) {
                self.counters.steps += steps;
                return Err(reached);
            }
            steps += 1;
            if self.witness_lost || self.suspects.is_empty() {
                self.rescan(budget)?;
            }
            let pick = self.rng.below_u64(self.suspects.len() as u64) as usize;
            let row = self.suspects[pick] as usize;
            if !self.is_attacked(row) {
                self.suspects.swap_remove(pick);
                continue;
            }
            let other = self.movable.row(self.rng.below_u64(m as u64) as usize);
            if other == row {
                continue;
            }
            if self.swap_change(row, other) >= 0 {
                continue;
            }
            let (a, b) = (self.columns[row], self.columns[other]);
            let blocked = self.blocked_change(row, other);
            let removed = self.take(row, a) + self.take(other, b);
            let added = self.put(row, b) + self.put(other, a);
            debug_assert!((added as i64 + blocked) < removed as i64);
            self.columns[row] = b;
            self.columns[other] = a;
            self.collisions = self.collisions + added - removed;
            if B::ANY {
                self.collisions = self.collisions.wrapping_add_signed(blocked);
            }
            self.counters.swaps += 1;
            if self.is_attacked(other) {
                self.suspects.push(other as u32);
            }
            if self.n <= 64 {
                self.check_consistency();
            }
        }
        self.counters.steps += steps;
        self.check_consistency();
        Ok(true)
    }

    /// Debug builds: recounts every line from `columns` and compares with the compact counts,
    /// the collision total and the suspect invariant. O(n).
    fn check_consistency(&self) {
        if !cfg!(debug_assertions) {
            return;
        }
        let lines = (2 * self.n).saturating_sub(1);
        let mut down = vec![0u32; lines];
        let mut up = vec![0u32; lines];
        for (row, &col) in self.columns.iter().enumerate() {
            down[self.down_line(row, col)] += 1;
            up[Self::up_line(row, col)] += 1;
        }
        let mut collisions = 0u64;
        for line in 0..lines {
            assert_eq!(self.down.count(line), down[line], "diagonal {line}");
            assert_eq!(self.up.count(line), up[line], "anti-diagonal {line}");
            collisions += u64::from(down[line].saturating_sub(1) + up[line].saturating_sub(1));
        }
        for (row, &col) in self.columns.iter().enumerate() {
            collisions += self.blocked_at(row, col);
        }
        assert_eq!(self.collisions, collisions, "collision total");
        for k in 0..self.movable.len() {
            let row = self.movable.row(k);
            assert!(
                self.blocked_at(row, self.columns[row]) == 0
                    || self.suspects.contains(&(row as u32)),
                "the queen of row {row} is on a blocked square and no suspect"
            );
        }
        if !self.witness_lost {
            // Every crowded line has a suspect on it.
            let mut witnessed = HashSet::new();
            for &row in &self.suspects {
                let (row, col) = (row as usize, self.columns[row as usize]);
                witnessed.insert((0, self.down_line(row, col)));
                witnessed.insert((1, Self::up_line(row, col)));
            }
            for line in 0..lines {
                assert!(
                    down[line] < 2 || witnessed.contains(&(0, line)),
                    "diagonal {line}"
                );
                assert!(
                    up[line] < 2 || witnessed.contains(&(1, line)),
                    "anti-diagonal {line}"
                );
            }
        }
    }
}

impl Engine for Local {
    fn name(&self) -> &'static str {
        "local"
    }

    fn jobs(&self) -> &'static [Job] {
        &[Job::Solve]
    }

    fn takes_blocks(&self) -> bool {
        true
    }

    fn check(&self, job: Job, _problem: &Problem) -> Result<(), EngineError> {
        if job != Job::Solve {
            return Err(EngineError::Unsupported {
                method: self.name(),
                job,
                reason: "local search finds one solution at a time and cannot prove there are \
                         no more; use a search method to list or count"
                    .into(),
            });
        }
        Ok(())
    }

    fn solve(&mut self, problem: &Problem) -> Result<Outcome, EngineError> {
        self.check(Job::Solve, problem)?;
        let n = problem.n();
        let attempts = self
            .max_attempts
            .unwrap_or_else(|| Self::default_attempts(n))
            .max(1);
        let max_steps = self.max_steps.unwrap_or_else(|| Self::default_steps(n));
        let mut budget = Budget::start(&self.limits);
        let gave_up = |reached: LimitReached| Outcome::GaveUp {
            reason: reached.to_string(),
        };
        if problem.blocked().is_empty() {
            match Search::new(problem, NoBlocks, self.seed, &budget)? {
                Ok(search) => self.run(search, problem, attempts, max_steps, &mut budget),
                Err(reached) => Ok(gave_up(reached)),
            }
        } else {
            let squares = problem
                .blocked()
                .iter()
                .map(|q| u64::from(q.row) * u64::from(n) + u64::from(q.col));
            let blocks = Blocks(squares.collect());
            match Search::new(problem, blocks, self.seed, &budget)? {
                Ok(search) => self.run(search, problem, attempts, max_steps, &mut budget),
                Err(reached) => Ok(gave_up(reached)),
            }
        }
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

impl Local {
    /// [`Engine::solve`] with the search built.
    fn run<B: BlockedSquares>(
        &mut self,
        mut search: Search<B>,
        problem: &Problem,
        attempts: u32,
        max_steps: u64,
        budget: &mut Budget,
    ) -> Result<Outcome, EngineError> {
        let mut solved = false;
        let mut reached = None;
        for attempt in 1..=attempts {
            search.counters.attempts = u64::from(attempt);
            let tried = search
                .start(self.start, problem, budget)
                .and_then(|()| search.repair(max_steps, budget));
            solved = match tried {
                Ok(solved) => solved,
                Err(limit) => {
                    reached = Some(limit);
                    false
                }
            };
            if let Some(sink) = &self.progress {
                sink.report(&Progress {
                    done: u64::from(attempt),
                    total: Some(u64::from(attempts)),
                    solutions: u128::from(solved),
                    nodes: u128::from(search.counters.steps),
                    ..Progress::default()
                });
            }
            if solved || reached.is_some() {
                break;
            }
        }
        let c = search.counters;
        self.stats = Stats::default();
        self.stats.set("attempts", u128::from(c.attempts));
        self.stats.set("placements", u128::from(c.placements));
        self.stats.set("forced", u128::from(c.forced));
        self.stats
            .set("start_collisions", u128::from(c.start_collisions));
        self.stats.set("steps", u128::from(c.steps));
        self.stats.set("swaps", u128::from(c.swaps));
        self.stats.set("rescans", u128::from(c.rescans));
        if let Some(reached) = reached {
            return Ok(Outcome::GaveUp {
                reason: reached.to_string(),
            });
        }
        if !solved {
            return Ok(Outcome::GaveUp {
                reason: format!(
                    "gave up after {attempts} attempts of {max_steps} repair steps each"
                ),
            });
        }
        let solution = Solution::from_columns(search.columns);
        debug_assert_eq!(crate::verify(problem, &solution), Ok(()));
        Ok(Outcome::Found(solution))
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::*;
    use crate::board::Queen;
    use crate::verify;

    fn found(outcome: Outcome) -> Solution {
        match outcome {
            Outcome::Found(s) => s,
            other => panic!("expected a solution, got {other:?}"),
        }
    }

    #[test]
    fn a_hundred_seeds_on_eight_give_valid_and_varied_solutions() {
        let p = Problem::new(8).unwrap();
        let mut distinct = HashSet::new();
        for seed in 0..100 {
            let s = found(Local::new(seed).solve(&p).unwrap());
            assert_eq!(verify(&p, &s), Ok(()), "seed {seed}");
            distinct.insert(s);
        }
        // 92 solutions exist; random restarts should reach a good share of them.
        assert!(distinct.len() >= 20, "only {} distinct", distinct.len());
    }

    #[test]
    fn the_same_seed_gives_the_same_solution() {
        let p = Problem::new(1000).unwrap();
        let a = found(Local::new(7).solve(&p).unwrap());
        let b = found(Local::new(7).solve(&p).unwrap());
        let c = found(Local::new(8).solve(&p).unwrap());
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn every_size_is_solved_with_both_starts() {
        for n in (4..=80).chain([1, 500, 2001]) {
            let p = Problem::new(n).unwrap();
            for start in [Start::Greedy, Start::Random] {
                let mut engine = Local::new(u64::from(n));
                engine.start = start;
                let s = found(engine.solve(&p).unwrap());
                assert_eq!(verify(&p, &s), Ok(()), "n = {n}, {start:?}");
            }
        }
    }

    #[test]
    fn a_raised_stop_flag_or_a_spent_time_budget_ends_the_search() {
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;
        use std::time::Duration;
        let p = Problem::new(3_000_000).unwrap();
        let mut engine = Local::new(1);
        engine.limits.stop = Some(Arc::new(AtomicBool::new(true)));
        assert_eq!(
            engine.solve(&p).unwrap(),
            Outcome::GaveUp {
                reason: "stopped".into()
            }
        );
        let mut engine = Local::new(1);
        engine.limits.time = Some(Duration::from_nanos(1));
        assert_eq!(
            engine.solve(&p).unwrap(),
            Outcome::GaveUp {
                reason: "time limit reached".into()
            }
        );
    }

    #[test]
    fn a_million_queens() {
        let p = Problem::new(1_000_000).unwrap();
        let mut engine = Local::new(1);
        let s = found(engine.solve(&p).unwrap());
        assert_eq!(verify(&p, &s), Ok(()));
        assert_eq!(engine.stats().get("attempts"), Some(1));
    }

    #[test]
    fn fixed_queens_stay_where_they_are() {
        let q = Queen::new;
        let problems = [
            Problem::with_fixed(8, [q(0, 0)]).unwrap(),
            // Two queens of the construction's 2 4 6 8 3 1 7 5, so a completion exists.
            Problem::with_fixed(8, [q(2, 5), q(5, 0)]).unwrap(),
            Problem::with_fixed(30, [q(0, 3), q(10, 10), q(29, 20)]).unwrap(),
            Problem::with_fixed(10_000, (0..50).map(|i| q(i * 7, i * 3))).unwrap(),
        ];
        for p in &problems {
            for seed in 0..5 {
                let s = found(Local::new(seed).solve(p).unwrap());
                // verify checks the fixed queens too.
                assert_eq!(verify(p, &s), Ok(()));
                for fixed in p.fixed() {
                    assert_eq!(s.columns()[fixed.row as usize], fixed.col);
                }
            }
        }
    }

    /// Blocked squares: a solution is found that stands on none of them, on boards blocked
    /// around a known solution (so one exists) at 10 % to 50 % of the other squares, with
    /// fixed queens too; a board blocked so that none is left gives up.
    #[test]
    fn queens_never_stand_on_blocked_squares() {
        use crate::engines::construct::Construct;
        let mut rng = SplitMix64::new(79);
        for (n, percent) in [(8, 30), (12, 50), (40, 30), (200, 10), (1000, 20)] {
            let Outcome::Found(known) = Construct::default()
                .solve(&Problem::new(n).unwrap())
                .unwrap()
            else {
                panic!("the construction solves n = {n}");
            };
            let mut blocked = Vec::new();
            for row in 0..n {
                for col in 0..n {
                    if known.columns()[row as usize] != col && rng.below(100) < percent {
                        blocked.push(Queen::new(row, col));
                    }
                }
            }
            let fixed = [Queen::new(n / 2, known.columns()[n as usize / 2])];
            let p = Problem::with_blocks(n, fixed, blocked).unwrap();
            for seed in 0..3 {
                let s = found(Local::new(seed).solve(&p).unwrap());
                // verify refuses a queen on a blocked square.
                assert_eq!(verify(&p, &s), Ok(()), "n = {n}, seed {seed}");
            }
        }
        // 4×4 has two solutions; blocking a square of each leaves none.
        let p = Problem::with_blocks(4, [], [Queen::new(0, 1), Queen::new(0, 2)]).unwrap();
        let mut engine = Local::new(1);
        engine.max_attempts = Some(20);
        assert!(matches!(engine.solve(&p).unwrap(), Outcome::GaveUp { .. }));
    }

    #[test]
    fn an_unsatisfiable_completion_gives_up_at_the_limit() {
        // A queen in the corner of a 4×4 board leaves no solution (both solutions avoid corners).
        let p = Problem::with_fixed(4, [Queen::new(0, 0)]).unwrap();
        let mut engine = Local::new(3);
        engine.max_attempts = Some(50);
        engine.max_steps = Some(200);
        let outcome = engine.solve(&p).unwrap();
        assert_eq!(
            outcome,
            Outcome::GaveUp {
                reason: "gave up after 50 attempts of 200 repair steps each".into()
            }
        );
        assert_eq!(engine.stats().get("attempts"), Some(50));
        // The default limits end too, on n = 2 and 3 (no solution at all) as well.
        for p in [p, Problem::new(2).unwrap(), Problem::new(3).unwrap()] {
            assert!(matches!(
                Local::default().solve(&p).unwrap(),
                Outcome::GaveUp { .. }
            ));
        }
    }

    #[test]
    fn only_solve_is_supported() {
        let mut engine = Local::default();
        let p = Problem::new(8).unwrap();
        assert!(engine.count(&p, false).is_err());
        assert!(
            engine
                .list(&p, Some(3), &mut |_| ControlFlow::Continue(()))
                .is_err()
        );
    }
}
