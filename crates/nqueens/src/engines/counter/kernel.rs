//! The inner loops: counting (fast) and enumerating (slow, for the rare tie solutions) the
//! completions of a partial board under per-row square rules, and the exact symmetry check.
//!
//! Both loops look at a stop flag every so often (`POLL_NODES` queens in the one-board loop,
//! each batch of a level in the lanes loop), so a search of any size ends within milliseconds
//! of a stop; a stopped search returns `None` and its partial counts are dropped (the caller
//! counts in pieces small enough to lose little, see `pieces`).

use std::cmp::Ordering;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering as Memory};

use super::attacks::{State, TaskTies};
use super::lanes::{self, Levels};
use super::tasks::{Class, ClassRules, full_mask};
use crate::board::Solution;
use crate::board::symmetry::Group;

/// Rows the kernel's arrays hold (boards up to n = 64; the counter itself stops at
/// [`super::MAX_N`]).
const ROWS: usize = 64;

/// Queens the one-board loop places between two looks at the stop flag: about half a
/// millisecond of work, and one compare per backtrack (the look itself happens only on
/// backtracks, so a deep descent places at most n² more before it).
pub(crate) const POLL_NODES: u64 = 1 << 16;

/// A stop flag that is never raised, for searches nobody stops (tests, the device oracle).
pub(crate) static NEVER: AtomicBool = AtomicBool::new(false);

/// Rows the counting loop looks ahead: before it descends to the next row it checks that
/// this many rows below the current one still have a free square (ignoring the queens those
/// rows will get, which can only take squares away).
const LOOKAHEAD: usize = 4;

/// What the counting loop needs to know about the rows below row r, all in one place.
#[derive(Clone, Copy, Debug)]
struct Below {
    /// `blocked[k]`: the squares of row r + 1 + k that are not allowed, with the bits at or
    /// above n set; all ones for row n (which ends the search) and beyond.
    blocked: [u64; LOOKAHEAD],
    /// `live[k]`: all ones if row r + 1 + k must be checked (k = 0, and rows inside the
    /// board), else zero (so the check passes).
    live: [u64; LOOKAHEAD],
}

/// The squares each row may use, in the form the counting loop wants: `blocked[r]` has a bit
/// set for every square of row r that is *not* allowed, and for every bit at or above n (so a
/// row is exhausted exactly when its mask is all ones); `below[r]` describes the rows after r
/// (see [`Below`]).
#[derive(Clone)]
pub(crate) struct RowMasks {
    n: usize,
    /// The bits at or above n.
    outside: u64,
    blocked: [u64; ROWS],
    below: [Below; ROWS],
}

impl RowMasks {
    /// From allowed squares per row (`allowed.len()` is n).
    pub(crate) fn new(allowed: &[u64]) -> Self {
        let n = allowed.len();
        debug_assert!((1..=ROWS).contains(&n));
        let outside = !full_mask(n as u32);
        let mut blocked = [u64::MAX; ROWS];
        for (row, &mask) in allowed.iter().enumerate() {
            blocked[row] = !mask | outside;
        }
        let mut below = [Below {
            blocked: [u64::MAX; LOOKAHEAD],
            live: [0; LOOKAHEAD],
        }; ROWS];
        for (row, below) in below.iter_mut().enumerate().take(n) {
            for k in 0..LOOKAHEAD {
                let later = row + 1 + k;
                if later < n {
                    below.blocked[k] = blocked[later];
                    below.live[k] = u64::MAX;
                }
            }
            // Row n: the placement in row n − 1 fills every column, and the loop counts it.
            below.live[0] = u64::MAX;
        }
        RowMasks {
            n,
            outside,
            blocked,
            below,
        }
    }

    fn allows(&self, row: usize, col: u8) -> bool {
        self.blocked[row] >> col & 1 == 0
    }

    /// The board size.
    pub(crate) fn n(&self) -> usize {
        self.n
    }

    /// The squares of `row` that are not allowed, with the bits at or above n set.
    pub(crate) fn blocked(&self, row: usize) -> u64 {
        self.blocked[row]
    }

    /// Whether a queen just placed in `row`, leaving the masks `next` (in the coordinates of
    /// row + 1), ends the search there: some row of the next [`LOOKAHEAD`] has no free square
    /// (always so after the last row, where a full `next.columns` is a solution).
    #[inline(always)]
    pub(crate) fn dead_after(&self, row: usize, next: State) -> bool {
        self.below[row].dead_after(next)
    }
}

impl Below {
    /// [`RowMasks::dead_after`] for the row these rows are below.
    #[inline(always)]
    fn dead_after(&self, next: State) -> bool {
        let look = |k: usize| {
            (next.columns | next.left << k | next.right >> k | self.blocked[k]) & self.live[k]
                == u64::MAX
        };
        (0..LOOKAHEAD).fold(false, |dead, k| dead | look(k))
    }
}

/// One row of the counting loop's explicit stack.
#[derive(Clone, Copy, Default)]
struct Frame {
    /// Squares of the row already tried or not available (all ones: row exhausted).
    taken: u64,
    columns: u64,
    left: u64,
    right: u64,
    row: usize,
}

/// Per-worker scratch space, reused from task to task.
pub(crate) struct Scratch {
    stack: [Frame; ROWS],
    /// The queen of each row on the current path (one bit), when the loop tracks them.
    placed: [u64; ROWS],
    /// The lanes loop's level buffers, made on first use.
    levels: Option<Box<Levels>>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            stack: [Frame::default(); ROWS],
            placed: [0; ROWS],
            levels: None,
        }
    }
}

/// The number of ways to complete `start` to a full board under `masks`, and the number of
/// queens placed on the way (nodes). (The counter itself always records the queens, see
/// [`solve_task`]; this plain count checks the loop in tests.)
#[cfg(test)]
fn count_completions(masks: &RowMasks, start: State, scratch: &mut Scratch) -> (u64, u64) {
    search::<false>(masks, start, scratch, &NEVER, &mut |_| {}).expect("never stopped")
}

/// Like [`count_completions`], but calls `on_solution` with the queen of every row (one bit
/// per row) for each solution, instead of counting it; returns the nodes, or `None` if `stop`
/// was raised first.
pub(crate) fn visit_completions(
    masks: &RowMasks,
    prefix: &[u8],
    start: State,
    scratch: &mut Scratch,
    stop: &AtomicBool,
    on_solution: &mut impl FnMut(&[u64]),
) -> Option<u64> {
    for (row, &col) in prefix.iter().enumerate() {
        scratch.placed[row] = 1 << col;
    }
    search::<true>(masks, start, scratch, stop, on_solution).map(|(_, nodes)| nodes)
}

/// The counting loop (see the module essay of [`super`]). With `TRACK`, each placement is also
/// written to `scratch.placed[row]` and solutions go to `on_solution`.
///
/// The loop keeps the current row's state in registers and pushes a frame only when it
/// descends from a row that still has untried squares (a row whose last square is being tried
/// is replaced, not stacked), and it descends only when each of the next [`LOOKAHEAD`] rows
/// still has a free square, so dead ends cost no push or pop. A solution shows up as a
/// placement that fills every column. Every [`POLL_NODES`] queens or so, at a backtrack, it
/// reads `stop`, and returns `None` once it is raised.
#[inline(always)]
fn search<const TRACK: bool>(
    masks: &RowMasks,
    start: State,
    scratch: &mut Scratch,
    stop: &AtomicBool,
    on_solution: &mut impl FnMut(&[u64]),
) -> Option<(u64, u64)> {
    let n = masks.n;
    let blocked = &masks.blocked;
    if start.row >= n {
        if TRACK {
            on_solution(&scratch.placed[..n]);
        }
        return Some((u64::from(start.row == n), 0));
    }
    let Scratch { stack, placed, .. } = scratch;
    let mut row = start.row;
    let mut columns = start.columns | masks.outside;
    let mut left = start.left;
    let mut right = start.right;
    let mut taken = columns | left | right | blocked[row];
    let mut depth = 0usize;
    let mut solutions = 0u64;
    let mut nodes = 0u64;
    let mut next_poll = POLL_NODES;
    loop {
        while taken != u64::MAX {
            let bit = !taken & taken.wrapping_add(1);
            taken |= bit;
            nodes += 1;
            if TRACK {
                placed[row] = bit;
            }
            let next_columns = columns | bit;
            let next_left = (left | bit) << 1;
            let next_right = (right | bit) >> 1;
            let next = State {
                row: row + 1,
                columns: next_columns,
                left: next_left,
                right: next_right,
            };
            let below = &masks.below[row];
            if !below.dead_after(next) {
                stack[depth] = Frame {
                    taken,
                    columns,
                    left,
                    right,
                    row,
                };
                depth += usize::from(taken != u64::MAX);
                columns = next_columns;
                left = next_left;
                right = next_right;
                row += 1;
                taken = next_columns | next_left | next_right | below.blocked[0];
            } else if TRACK {
                if next_columns == u64::MAX {
                    on_solution(&placed[..n]);
                }
            } else {
                solutions += u64::from(next_columns == u64::MAX);
            }
        }
        if depth == 0 {
            return Some((solutions, nodes));
        }
        if nodes >= next_poll {
            if stop.load(Memory::Relaxed) {
                return None;
            }
            next_poll = nodes + POLL_NODES;
        }
        depth -= 1;
        let frame = stack[depth];
        taken = frame.taken;
        columns = frame.columns;
        left = frame.left;
        right = frame.right;
        row = frame.row;
    }
}

/// Calls `visit` with the columns of every completion of the board in state `start` under
/// `masks`; returns the nodes. Plain recursion: the oracle of the counting loop in tests.
#[cfg(test)]
fn for_each_completion(
    masks: &RowMasks,
    start: State,
    columns: &mut [u8; ROWS],
    visit: &mut impl FnMut(&[u8]),
) -> u64 {
    let n = masks.n;
    if start.row == n {
        visit(&columns[..n]);
        return 0;
    }
    let mut free = !(start.columns | start.left | start.right | masks.blocked[start.row]);
    let mut nodes = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        nodes += 1;
        columns[start.row] = bit.trailing_zeros() as u8;
        nodes += for_each_completion(masks, start.place(bit), columns, visit);
    }
    nodes
}

/// The size of the symmetry class of the solution `columns` if it is the class's canonical
/// member, or `None` if some image comes before it.
///
/// The canonical member is the first of the eight images in this order: the image whose row-0
/// queen is farther from its nearest corner comes first; between images whose row-0 queens
/// are equally far, the lexicographically smaller column list comes first (see the module
/// essay of [`super`]). Costs O(n) per image, usually decided at the first entry.
pub(crate) fn canonical_orbit(columns: &[u8]) -> Option<u32> {
    let n = columns.len();
    let last = (n - 1) as u8;
    let mut inverse = [0u8; ROWS];
    for (row, &col) in columns.iter().enumerate() {
        inverse[col as usize] = row as u8;
    }
    let l = n - 1;
    // Row i of each non-identity image (the maps of `symmetry::Symmetry`, in its order).
    let images: [&dyn Fn(usize) -> u8; 7] = [
        &|i| last - inverse[i],     // Rotate90: (r, c) -> (c, n-1-r)
        &|i| last - columns[l - i], // Rotate180
        &|i| inverse[l - i],        // Rotate270: (r, c) -> (n-1-c, r)
        &|i| last - columns[i],     // MirrorColumns
        &|i| columns[l - i],        // MirrorRows
        &|i| inverse[i],            // Transpose
        &|i| last - inverse[l - i], // AntiTranspose
    ];
    let corner_distance = |col: u8| col.min(last - col);
    let mut stabilizer = 1;
    for image in images {
        let order = corner_distance(columns[0])
            .cmp(&corner_distance(image(0)))
            .then_with(|| {
                (0..n)
                    .map(|i| image(i).cmp(&columns[i]))
                    .find(|&o| o != Ordering::Equal)
                    .unwrap_or(Ordering::Equal)
            });
        match order {
            Ordering::Less => return None,
            Ordering::Equal => stabilizer += 1,
            Ordering::Greater => {}
        }
    }
    Some(8 / stabilizer)
}

/// What one task contributes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TaskResult {
    /// Solutions extending the task's prefix, each canonical one weighted by its class size
    /// (on a board with fixed queens or blocked squares: each solution once).
    pub total: u64,
    /// Canonical solutions extending the prefix (on a board with fixed queens or blocked
    /// squares: those canonical under the board's own group, or every solution when it is
    /// counted without symmetry).
    pub unique: u64,
    /// Queens placed by the search (work done).
    pub nodes: u64,
}

impl TaskResult {
    pub(crate) fn add_orbit(&mut self, orbit: Option<u32>) {
        if let Some(size) = orbit {
            self.total += u64::from(size);
            self.unique += 1;
        }
    }

    /// Adds another part of the same task (a piece, or the walk above the pieces).
    pub(crate) fn absorb(&mut self, other: &TaskResult) {
        self.total += other.total;
        self.unique += other.unique;
        self.nodes += other.nodes;
    }

    /// `count` solutions that are each their own class (boards counted without symmetry).
    pub(crate) fn add_plain(&mut self, count: u64) {
        self.total += count;
        self.unique += count;
    }

    /// `count` solutions whose class has eight members each.
    pub(crate) fn add_eightfold(&mut self, count: u64) {
        self.total += count
            .checked_mul(8)
            .expect("a task's count fits 61 bits (it would take centuries to exceed)");
        self.unique += count;
    }
}

/// Whether every queen of `prefix` stands on a square `masks` allows.
fn fits(masks: &RowMasks, prefix: &[u8]) -> bool {
    prefix
        .iter()
        .enumerate()
        .all(|(row, &col)| masks.allows(row, col))
}

/// The completions of a partial board under a class's rules, split as the symmetry rules
/// want them: those on no tie square (each a class of eight) and the tied ones, checked
/// exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Completions {
    /// Completions with no queen on a tie square.
    pub eightfold: u64,
    /// The canonical ones among the tied completions, weighted and counted.
    pub tied: TaskResult,
    /// Queens placed by the search.
    pub nodes: u64,
}

/// The completions of `prefix` (rows `0..start.row`, in state `start`) by the one-board loop,
/// with the tie check of [`solve_task_with`], or `None` if `stop` was raised first.
pub(crate) fn count_one_board(
    masks: &RowMasks,
    ties: &TaskTies,
    prefix: &[u8],
    start: State,
    scratch: &mut Scratch,
    stop: &AtomicBool,
) -> Option<Completions> {
    let mut eightfold = 0u64;
    let mut tied = TaskResult::default();
    let mut columns = [0u8; ROWS];
    let nodes = visit_completions(masks, prefix, start, scratch, stop, &mut |placed| {
        if !ties.touched_by(placed) {
            eightfold += 1;
        } else {
            for (col, &bit) in columns.iter_mut().zip(placed) {
                *col = bit.trailing_zeros() as u8;
            }
            tied.add_orbit(canonical_orbit(&columns[..placed.len()]));
        }
    })?;
    Some(Completions {
        eightfold,
        tied,
        nodes,
    })
}

/// Which counting loop [`solve_task_with`] runs; both search the same tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Loop {
    /// One board at a time, depth first ([`search`]).
    OneBoard,
    /// Eight boards per step in vector lanes ([`lanes`]), where the CPU has them.
    Lanes,
}

impl Loop {
    /// The fastest loop this CPU runs for a search from row `depth` of the n×n board.
    pub(crate) fn best_for(n: u32, depth: usize) -> Loop {
        if (8..=32).contains(&n) && depth + 2 <= n as usize && lanes::available() {
            Loop::Lanes
        } else {
            Loop::OneBoard
        }
    }

    /// The fastest loop this CPU runs for this task.
    fn best(n: u32, prefix: &[u8]) -> Loop {
        Loop::best_for(n, prefix.len())
    }
}

/// Boards one step of the counting loop searches for tasks of `depth` rows on the n×n board
/// on this CPU: 8 with the lanes loop, 1 with the one-board loop.
pub(crate) fn lanes_per_step(n: u32, depth: usize) -> u32 {
    match Loop::best_for(n, depth) {
        Loop::Lanes => 8,
        Loop::OneBoard => 1,
    }
}

/// The result of the task with this prefix on an n×n board (the prefix comes from
/// [`super::TaskList`], so it obeys its class's rules), by the fastest loop this CPU has.
pub(crate) fn solve_task(n: u32, prefix: &[u8], scratch: &mut Scratch) -> TaskResult {
    solve_task_with(Loop::best(n, prefix), n, prefix, scratch)
}

/// The result of the task with this prefix, by the loop `with`.
///
/// A solution of the class is canonical with a symmetry class of eight unless another border
/// queen stands exactly `b1` from a corner, on one of the five *tie squares* ([`TaskTies`]);
/// those few are checked exactly with [`canonical_orbit`]. (A row-0 queen in the middle
/// column ties with the mirror image too, but the class rules already keep only the first of
/// each such pair.)
pub(crate) fn solve_task_with(
    with: Loop,
    n: u32,
    prefix: &[u8],
    scratch: &mut Scratch,
) -> TaskResult {
    let start = State::after(prefix).expect("task prefixes are legal");
    if prefix.len() == n as usize {
        // Tiny boards: the prefix is a whole solution.
        let mut result = TaskResult::default();
        result.add_orbit(canonical_orbit(prefix));
        return result;
    }
    TaskBoard::new(n, Class::of(prefix))
        .solve(with, prefix, start, scratch, &NEVER)
        .expect("never stopped")
}

/// How the solutions of a [`TaskBoard`] count.
#[derive(Clone, Debug)]
pub(crate) enum Weighing {
    /// The whole board's symmetry classes: a solution on no tie square counts 8 (a class of
    /// eight, counted through its canonical member), a tied one its exact orbit if it is
    /// canonical (see [`solve_task_with`]).
    Classes,
    /// Every solution once, as its own class: boards with fixed queens or blocked squares
    /// counted without symmetry (their `unique` equals their `total`).
    Plain,
    /// Every solution once, and the canonical ones under the board's own group as `unique`:
    /// the solutions are enumerated (by the one-board loop) and each is checked against the
    /// group, O(|group| · n) apiece.
    Group(Arc<Group>),
}

/// The board a task is searched on, as both loops read it: the squares each row allows, the
/// tie squares, and how solutions count. The whole board's tasks have one per class
/// ([`TaskBoard::new`], O(n) words, built once per task); a board with fixed queens or
/// blocked squares has one for all its tasks ([`TaskBoard::masked`]). Either is searched from
/// any of a task's partial boards.
#[derive(Clone)]
pub(crate) struct TaskBoard {
    pub(crate) masks: RowMasks,
    pub(crate) ties: TaskTies,
    pub(crate) weighing: Weighing,
}

impl TaskBoard {
    /// The board of `class` on the n×n board.
    pub(crate) fn new(n: u32, class: Class) -> Self {
        TaskBoard {
            masks: RowMasks::new(&ClassRules::new(n, class).allowed),
            ties: TaskTies::new(n, class),
            weighing: Weighing::Classes,
        }
    }

    /// The board whose row r allows the squares `allowed[r]`, with no symmetry rules: its
    /// solutions count once each, and up to `group` when one is given.
    pub(crate) fn masked(allowed: &[u64], group: Option<Group>) -> Self {
        TaskBoard {
            masks: RowMasks::new(allowed),
            ties: TaskTies::NONE,
            weighing: group.map_or(Weighing::Plain, |g| Weighing::Group(Arc::new(g))),
        }
    }

    /// Adds the solution `queens` (one column per row, every row filled) to `result`, as the
    /// board counts it.
    pub(crate) fn add_solution(&self, result: &mut TaskResult, queens: &[u8]) {
        match &self.weighing {
            Weighing::Classes => {
                let placed: Vec<u64> = queens.iter().map(|&c| 1 << c).collect();
                if self.ties.touched_by(&placed) {
                    result.add_orbit(canonical_orbit(queens));
                } else {
                    result.add_eightfold(1);
                }
            }
            Weighing::Plain => result.add_plain(1),
            Weighing::Group(group) => {
                result.total += 1;
                result.unique += u64::from(group.is_canonical(&solution_of(queens)));
            }
        }
    }

    /// What the completions of `prefix` (the queens of rows `0..start.row`, on squares the
    /// board allows, in state `start`, with at least one row left) add to a task, by the loop
    /// `with` (the one-board loop where solutions are checked against a group); `None` if
    /// `stop` was raised first.
    pub(crate) fn solve(
        &self,
        with: Loop,
        prefix: &[u8],
        start: State,
        scratch: &mut Scratch,
        stop: &AtomicBool,
    ) -> Option<TaskResult> {
        debug_assert!(fits(&self.masks, prefix));
        debug_assert!(prefix.len() < self.masks.n);
        let mut tied = TaskResult::default();
        let (counted, nodes) = match (&self.weighing, with) {
            (Weighing::Group(group), _) => {
                let mut found = TaskResult::default();
                found.nodes =
                    visit_completions(&self.masks, prefix, start, scratch, stop, &mut |placed| {
                        let columns = placed.iter().map(|b| b.trailing_zeros()).collect();
                        found.total += 1;
                        let canonical = group.is_canonical(&Solution::from_columns(columns));
                        found.unique += u64::from(canonical);
                    })?;
                return Some(found);
            }
            (_, Loop::OneBoard) => {
                let found = count_one_board(&self.masks, &self.ties, prefix, start, scratch, stop)?;
                tied = found.tied;
                (found.eightfold, found.nodes)
            }
            (_, Loop::Lanes) => {
                let found = count_in_lanes(
                    &self.masks,
                    prefix,
                    start,
                    self.ties,
                    scratch,
                    stop,
                    &mut |columns| tied.add_orbit(canonical_orbit(columns)),
                )?;
                (found.eightfold, found.nodes)
            }
        };
        let mut result = TaskResult { nodes, ..tied };
        match self.weighing {
            // No tie squares on a plain board: every solution was counted untied, once.
            Weighing::Plain => result.add_plain(counted),
            _ => result.add_eightfold(counted),
        }
        Some(result)
    }
}

/// The solution with these columns.
fn solution_of(queens: &[u8]) -> Solution {
    Solution::from_columns(queens.iter().map(|&c| u32::from(c)).collect())
}

/// The lanes loop on the completions of `prefix` under `masks` (n ≤ 32, see [`lanes::count`]).
fn count_in_lanes(
    masks: &RowMasks,
    prefix: &[u8],
    start: State,
    ties: TaskTies,
    scratch: &mut Scratch,
    stop: &AtomicBool,
    on_tied: &mut dyn FnMut(&[u8]),
) -> Option<lanes::Found> {
    // The lanes hold 32 bits (n <= 32): the bits at or above 32 are off the board.
    let mut blocked = [0u32; 32];
    for (narrow, &wide) in blocked.iter_mut().zip(&masks.blocked[..masks.n]) {
        *narrow = wide as u32;
    }
    let board = lanes::Board {
        n: masks.n,
        blocked: &blocked[..masks.n],
        prefix,
        start,
        ties,
    };
    let levels = scratch.levels.get_or_insert_with(Box::default);
    lanes::count(&board, levels, stop, on_tied)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::symmetry::{self, Symmetry};

    /// Every solution of n = 1..=9, from the baseline engine, as column lists.
    fn all_solutions(n: u32) -> Vec<Vec<u8>> {
        use crate::Engine;
        use crate::engines::backtrack::Backtrack;
        use std::ops::ControlFlow;
        let problem = crate::Problem::new(n).unwrap();
        let mut all = Vec::new();
        Backtrack::default()
            .for_each(&problem, &mut |s: &Solution| {
                all.push(s.columns().iter().map(|&c| c as u8).collect());
                ControlFlow::Continue(())
            })
            .unwrap();
        all
    }

    #[test]
    fn canonical_orbit_picks_one_member_of_each_class_with_its_size() {
        for n in 1..=9u32 {
            let solutions = all_solutions(n);
            assert_eq!(
                solutions.len() as u128,
                crate::instances::oeis::total(n).unwrap()
            );
            // Canonical members per symmetry class, the class named by the symmetry module's
            // own (lexicographic) canonical form.
            let mut members = std::collections::HashMap::<Vec<u32>, u32>::new();
            let mut weighted = 0u32;
            for columns in &solutions {
                let s = Solution::from_columns(columns.iter().map(|&c| u32::from(c)).collect());
                let class = symmetry::canonical(&s).columns().to_vec();
                let slot = members.entry(class).or_default();
                if let Some(orbit) = canonical_orbit(columns) {
                    *slot += 1;
                    weighted += orbit;
                    assert_eq!(orbit as usize, symmetry::orbit_size(&s), "{columns:?}");
                    // The essay's rule: the row-0 queen is a border queen farthest from its
                    // corner, in the left half.
                    let last = n as u8 - 1;
                    let distance = |i: u8| i.min(last - i);
                    let inverse = |col: u8| columns.iter().position(|&c| c == col).unwrap() as u8;
                    let border = [columns[last as usize], inverse(0), inverse(last)];
                    assert!(border.iter().all(|&b| distance(b) <= columns[0]));
                    assert!(columns[0] <= last - columns[0]);
                }
            }
            assert!(members.values().all(|&m| m == 1), "n = {n}: {members:?}");
            assert_eq!(
                members.len() as u128,
                crate::instances::oeis::unique(n).unwrap()
            );
            assert_eq!(
                u128::from(weighted),
                crate::instances::oeis::total(n).unwrap()
            );
        }
        // The images are the symmetry module's maps: the seven other images of a canonical
        // solution with a class of eight are not canonical.
        let as_bytes = |s: &Solution| -> Vec<u8> { s.columns().iter().map(|&c| c as u8).collect() };
        let eightfold = all_solutions(8)
            .into_iter()
            .find(|columns| canonical_orbit(columns) == Some(8))
            .unwrap();
        let s = Solution::from_columns(eightfold.iter().map(|&c| u32::from(c)).collect());
        for symmetry in Symmetry::ALL.into_iter().skip(1) {
            assert_eq!(
                canonical_orbit(&as_bytes(&symmetry.apply(&s))),
                None,
                "{symmetry:?}"
            );
        }
    }

    /// Whether the lanes loop can run here; says so when it cannot, so that a test that
    /// compares it does not pass without comparing anything unnoticed.
    fn lanes_run_here() -> bool {
        let available = lanes::available();
        if !available {
            eprintln!(
                "this CPU lacks AVX2 or BMI2: only the one-board loop runs, nothing to compare"
            );
        }
        available
    }

    #[test]
    fn both_loops_give_every_task_the_same_result_and_nodes() {
        if !lanes_run_here() {
            return;
        }
        let mut one_board = Scratch::default();
        let mut lanes = Scratch::default();
        let mut compared = 0;
        for n in 8..=13u32 {
            // The standard list and the lists split one and two rows deeper.
            for extra in 0..=2 {
                let list = super::super::split::SplitList::new(n, extra);
                for id in list.ids() {
                    let prefix = list.prefix(id).unwrap();
                    assert_eq!(Loop::best(n, prefix), Loop::Lanes);
                    // Equal nodes: both loops visit the same tree.
                    assert_eq!(
                        solve_task_with(Loop::OneBoard, n, prefix, &mut one_board),
                        solve_task_with(Loop::Lanes, n, prefix, &mut lanes),
                        "n = {n}, prefix {prefix:?}"
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared > 10_000);
    }

    #[test]
    fn both_loops_agree_on_deep_prefixes_of_big_boards() {
        // Random prefixes under their class's rules, leaving 12 rows to search, up to n = 32
        // (all 32 bits of the lanes' masks in use): the same results and nodes.
        if !lanes_run_here() {
            return;
        }
        let mut rng = nqueens_support::SplitMix64::new(20);
        let mut one_board = Scratch::default();
        let mut lanes = Scratch::default();
        let mut with_ties = 0;
        for n in 20..=32u32 {
            let classes = super::super::tasks::classes(n);
            let mut tried = 0;
            while tried < 12 {
                let class = classes[rng.below(classes.len() as u32) as usize];
                let rules = ClassRules::new(n, class);
                let ties = TaskTies::new(n, class);
                let mut prefix = vec![class.b1 as u8];
                while prefix.len() < n as usize - 12 {
                    let state = State::after(&prefix).unwrap();
                    let free = rules.allowed[prefix.len()]
                        & !(state.columns | state.left | state.right)
                        & full_mask(n);
                    if free == 0 {
                        break;
                    }
                    // Half the time, a free tie square (so that the exact check runs).
                    let on_tie = free & ties.side_squares;
                    let row_has_ties = ties.side_rows.contains(&prefix.len());
                    let free = if row_has_ties && on_tie != 0 && rng.below(2) == 0 {
                        on_tie
                    } else {
                        free
                    };
                    let pick = rng.below(free.count_ones());
                    let mut rest = free;
                    for _ in 0..pick {
                        rest &= rest - 1;
                    }
                    prefix.push(rest.trailing_zeros() as u8);
                }
                if prefix.len() < n as usize - 12 {
                    continue;
                }
                tried += 1;
                let expected = solve_task_with(Loop::OneBoard, n, &prefix, &mut one_board);
                let found = solve_task_with(Loop::Lanes, n, &prefix, &mut lanes);
                assert_eq!(found, expected, "n = {n}, prefix {prefix:?}");
                let placed: Vec<u64> = prefix.iter().map(|&c| 1 << c).collect();
                let tied = ties
                    .side_rows
                    .iter()
                    .any(|&row| row < placed.len() && placed[row] & ties.side_squares != 0);
                with_ties += usize::from(tied && expected.total > 0);
            }
        }
        // Some have solutions that go through the tie squares' exact check.
        assert!(with_ties > 5, "{with_ties}");
    }

    #[test]
    fn the_loops_find_what_plain_recursion_finds() {
        let mut scratch = Scratch::default();
        let check = |allowed: &[u64], scratch: &mut Scratch| {
            let masks = RowMasks::new(allowed);
            let mut expected = Vec::new();
            let mut columns = [0u8; ROWS];
            let oracle_nodes =
                for_each_completion(&masks, State::default(), &mut columns, &mut |s| {
                    expected.push(s.to_vec())
                });
            let mut found = Vec::new();
            let nodes = visit_completions(
                &masks,
                &[],
                State::default(),
                scratch,
                &NEVER,
                &mut |placed| {
                    found.push(
                        placed
                            .iter()
                            .map(|b| b.trailing_zeros() as u8)
                            .collect::<Vec<u8>>(),
                    )
                },
            )
            .expect("never stopped");
            assert_eq!(found, expected, "{allowed:?}");
            let (count, count_nodes) = count_completions(&masks, State::default(), scratch);
            assert_eq!(count, expected.len() as u64);
            assert_eq!(count_nodes, nodes);
            // Looking ahead only ever saves queens.
            assert!(nodes <= oracle_nodes);
            count
        };
        // Plain boards (no class rules): A000170.
        for n in 1..=10u32 {
            let count = check(&vec![full_mask(n); n as usize], &mut scratch);
            assert_eq!(u128::from(count), crate::instances::oeis::total(n).unwrap());
        }
        // Boards under each class's rules.
        for n in 4..=10u32 {
            for class in super::super::tasks::classes(n) {
                check(&ClassRules::new(n, class).allowed, &mut scratch);
            }
        }
    }
}
