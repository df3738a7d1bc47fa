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
use super::grouped;
use super::lanes::{self, Levels};
use super::tasks::{Class, ClassRules, full_mask};
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
    /// (on a board with fixed queens or blocked squares counted without symmetry: each
    /// solution once; up to the board's own group: each canonical one by its class's size
    /// under the group).
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
        self.add_classes(count, 8);
    }

    /// `count` canonical solutions whose class has `size` members each.
    pub(crate) fn add_classes(&mut self, count: u64, size: u32) {
        self.total += count
            .checked_mul(u64::from(size))
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
/// each tied one checked by `check` (its class's size if it is canonical: [`canonical_orbit`]
/// on the whole board, as in [`solve_task_with`]), or `None` if `stop` was raised first.
pub(crate) fn count_one_board(
    masks: &RowMasks,
    ties: &TaskTies,
    prefix: &[u8],
    start: State,
    scratch: &mut Scratch,
    stop: &AtomicBool,
    check: impl Fn(&[u8]) -> Option<u32>,
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
            tied.add_orbit(check(&columns[..placed.len()]));
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
    /// The classes under the board's own group (a board with fixed queens or blocked squares
    /// that keeps more than the identity): the board's masks carry the group's rules for the
    /// task's row-0 queen (module `grouped`), a solution on no tie square is canonical with a
    /// class of |group|, a tied one counts its exact class if it is canonical
    /// (`grouped::orbit`). Under all eight symmetries the board's rules and ties are the whole
    /// board's, and so is the check ([`canonical_orbit`]).
    Group(Arc<Group>),
}

/// The board a task is searched on, as both loops read it: the squares each row allows, the
/// tie squares, and how solutions count. The whole board's tasks have one per class
/// ([`TaskBoard::new`], O(n) words, built once per task); a board with fixed queens or
/// blocked squares has one for all its tasks ([`TaskBoard::masked`]), or one per row-0 column
/// up to its symmetries ([`TaskBoard::grouped`]). Either is searched from any of a task's
/// partial boards.
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
    /// solutions count once each.
    pub(crate) fn masked(allowed: &[u64]) -> Self {
        TaskBoard {
            masks: RowMasks::new(allowed),
            ties: TaskTies::NONE,
            weighing: Weighing::Plain,
        }
    }

    /// The board whose row r allows the squares `allowed[r]` (the board's own and the rules of
    /// `group` for one row-0 column, `grouped::GroupRules`), with those rules' tie squares:
    /// its solutions count by their classes under `group`.
    pub(crate) fn grouped(allowed: &[u64], ties: TaskTies, group: Arc<Group>) -> Self {
        TaskBoard {
            masks: RowMasks::new(allowed),
            ties,
            weighing: Weighing::Group(group),
        }
    }

    /// The size of the class of the tied solution `columns` if it is canonical, as this board
    /// counts classes.
    fn check(&self, columns: &[u8]) -> Option<u32> {
        match &self.weighing {
            Weighing::Group(group) if group.members().len() < 8 => {
                grouped::orbit(columns, group.members())
            }
            _ => canonical_orbit(columns),
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
            // Boards of a row or two: every solution is checked.
            Weighing::Group(_) => result.add_orbit(self.check(queens)),
        }
    }

    /// What the completions of `prefix` (the queens of rows `0..start.row`, on squares the
    /// board allows, in state `start`, with at least one row left) add to a task, by the loop
    /// `with`; `None` if `stop` was raised first.
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
        // The check is chosen once per search, not per tied solution.
        let (counted, mut result) = match &self.weighing {
            Weighing::Group(group) if group.members().len() < 8 => {
                let members = group.members();
                self.search(with, prefix, start, scratch, stop, |columns| {
                    grouped::orbit(columns, members)
                })?
            }
            _ => self.search(with, prefix, start, scratch, stop, canonical_orbit)?,
        };
        match &self.weighing {
            // No tie squares on a plain board: every solution was counted untied, once.
            Weighing::Plain => result.add_plain(counted),
            Weighing::Classes => result.add_eightfold(counted),
            // Untied under the group's rules: canonical, with a class of |group|.
            Weighing::Group(group) => result.add_classes(counted, group.members().len() as u32),
        }
        Some(result)
    }

    /// The search of [`solve`](Self::solve), each tied solution checked by `check`: the
    /// untied solutions, and the tied canonical ones weighted, with the queens placed.
    fn search(
        &self,
        with: Loop,
        prefix: &[u8],
        start: State,
        scratch: &mut Scratch,
        stop: &AtomicBool,
        check: impl Fn(&[u8]) -> Option<u32>,
    ) -> Option<(u64, TaskResult)> {
        let mut tied = TaskResult::default();
        let (counted, nodes) = match with {
            Loop::OneBoard => {
                let found =
                    count_one_board(&self.masks, &self.ties, prefix, start, scratch, stop, check)?;
                tied = found.tied;
                (found.eightfold, found.nodes)
            }
            Loop::Lanes => {
                let found = count_in_lanes(
                    &self.masks,
                    prefix,
                    start,
                    self.ties,
                    scratch,
                    stop,
                    &mut |columns| tied.add_orbit(check(columns)),
                )?;
                (found.eightfold, found.nodes)
            }
        };
        Some((counted, TaskResult { nodes, ..tied }))
    }
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
mod tests;
