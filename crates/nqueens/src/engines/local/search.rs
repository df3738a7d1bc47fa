//! The board under repair: the permutation, its line counts and suspects, the greedy start
//! and the min-conflicts swaps (see [`super`] for the scheme and its costs). A start is O(n);
//! a repair step O(1); a rescan of the suspects O(n).

use std::collections::HashSet;

use nqueens_support::{Budget, LimitReached, SplitMix64};

use super::blocks::BlockedSquares;
use super::lines::Lines;
use super::passes::{ROWS_PER_LOOK, each_row, shuffle};
use super::{GREEDY_TRIES, Start};
use crate::board::Problem;
use crate::board::verify::verify_bytes;
use crate::engine::EngineError;

/// Which rows may move, and the columns they share.
#[derive(Clone, Debug)]
pub(super) enum Movable {
    /// Every row and every column (no fixed queens).
    All(usize),
    /// These rows, in order, share these columns (the others hold fixed queens).
    Rows {
        rows: Vec<u32>,
        free_columns: Vec<u32>,
    },
}

impl Movable {
    pub(super) fn len(&self) -> usize {
        match self {
            Movable::All(n) => *n,
            Movable::Rows { rows, .. } => rows.len(),
        }
    }

    /// The k-th movable row.
    pub(super) fn row(&self, k: usize) -> usize {
        match self {
            Movable::All(_) => k,
            Movable::Rows { rows, .. } => rows[k] as usize,
        }
    }
}

/// Work counters of one search.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Counters {
    pub(super) attempts: u64,
    pub(super) placements: u64,
    pub(super) forced: u64,
    pub(super) start_collisions: u64,
    pub(super) steps: u64,
    pub(super) swaps: u64,
    pub(super) rescans: u64,
}

/// The board under repair.
pub(super) struct Search<B: BlockedSquares> {
    pub(super) n: usize,
    pub(super) columns: Vec<u32>,
    /// Diagonals, numbered `row + n − 1 − col`.
    pub(super) down: Lines,
    /// Anti-diagonals, numbered `row + col`.
    pub(super) up: Lines,
    pub(super) movable: Movable,
    pub(super) blocked: B,
    /// Clashes on lines plus queens on blocked squares (the module essay's collisions).
    pub(super) collisions: u64,
    /// Movable rows whose queen may be attacked; see the module documentation.
    pub(super) suspects: Vec<u32>,
    /// A queen left a line that stays crowded, so `suspects` may miss that line.
    pub(super) witness_lost: bool,
    pub(super) rng: SplitMix64,
    pub(super) counters: Counters,
}

impl<B: BlockedSquares> Search<B> {
    /// The search of `problem`, its O(n) arrays filled a million rows at a time between looks
    /// at `budget` (a board of 4·10⁹ rows takes seconds to set up); `Ok(Err(_))` if a limit
    /// came first, an error if the machine has not the memory.
    pub(super) fn new(
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

    pub(super) fn down_line(&self, row: usize, col: u32) -> usize {
        row + self.n - 1 - col as usize
    }

    pub(super) fn up_line(row: usize, col: u32) -> usize {
        row + col as usize
    }

    pub(super) fn put(&mut self, row: usize, col: u32) -> u64 {
        let (d, u) = (self.down_line(row, col), Self::up_line(row, col));
        self.down.add(d) + self.up.add(u)
    }

    pub(super) fn take(&mut self, row: usize, col: u32) -> u64 {
        let (d, u) = (self.down_line(row, col), Self::up_line(row, col));
        let (down, down_crowded) = self.down.remove(d);
        let (up, up_crowded) = self.up.remove(u);
        self.witness_lost |= down_crowded || up_crowded;
        down + up
    }

    /// 1 if the square is blocked, else 0.
    #[inline(always)]
    pub(super) fn blocked_at(&self, row: usize, col: u32) -> u64 {
        u64::from(
            B::ANY
                && self
                    .blocked
                    .contains(row as u64 * self.n as u64 + u64::from(col)),
        )
    }

    /// The change in queens on blocked squares if rows `a` and `b` swapped columns.
    #[inline(always)]
    pub(super) fn blocked_change(&self, a: usize, b: usize) -> i64 {
        if !B::ANY {
            return 0;
        }
        let (ca, cb) = (self.columns[a], self.columns[b]);
        (self.blocked_at(a, cb) + self.blocked_at(b, ca)) as i64
            - (self.blocked_at(a, ca) + self.blocked_at(b, cb)) as i64
    }

    /// Whether the queen of `row` stands on a crowded line or a blocked square.
    pub(super) fn is_attacked(&self, row: usize) -> bool {
        let col = self.columns[row];
        self.down.is_crowded(self.down_line(row, col))
            || self.up.is_crowded(Self::up_line(row, col))
            || self.blocked_at(row, col) == 1
    }

    /// A fresh first permutation: fixed queens in place, the movable columns shuffled among the
    /// movable rows and, for the greedy start, reordered row by row to avoid collisions.
    pub(super) fn start(
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
    pub(super) fn choose_column(&mut self, row: usize, k: usize, cursor: usize) -> usize {
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
    pub(super) fn swap_change(&self, a: usize, b: usize) -> i64 {
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
    pub(super) fn family_change(lines: &Lines, moves: [(usize, i64); 4]) -> i64 {
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
    pub(super) fn rescan(&mut self, budget: &Budget) -> Result<(), LimitReached> {
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
    pub(super) fn repair(
        &mut self,
        max_steps: u64,
        budget: &mut Budget,
    ) -> Result<bool, LimitReached> {
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
    pub(super) fn check_consistency(&self) {
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
