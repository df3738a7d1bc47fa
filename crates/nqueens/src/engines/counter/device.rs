//! Counting on a device that runs thousands of small searches at once (a GPU): the counter's
//! tasks cut into *sub-boards* on the host, the per-class tables a device kernel reads, and
//! the [`Device`] trait through which [`Counter::run`](super::Counter::run) drives one.
//!
//! # The invariant
//!
//! A device computes exactly what the CPU loops compute: the same [`TaskResult`] for every
//! task, node counts included, so its results go into the same checkpoints and shard files,
//! and a count started on a GPU finishes on a CPU (or the other way round). To get there the
//! host does the top of each task's tree itself and hands the device the rest:
//!
//! - [`split`] searches each task's tree from the task's prefix down to `start_row` with the
//!   counting loop's own rules (the class's allowed squares, the four-row lookahead of
//!   `RowMasks::dead_after`) and counts those rows' queens as the loop would; every node
//!   that reaches `start_row` alive becomes a [`SubBoard`]. (A solution found above
//!   `start_row`, on tiny boards, is counted by the host.)
//! - The device searches each sub-board to the end with the same loop and returns its
//!   [`Completions`]: solutions on no tie square, the exact orbit count of the tied ones, and
//!   the queens it placed. [`count_sub_board`] is the CPU's version of that, the oracle the
//!   device kernels are tested against sub-board by sub-board.
//! - [`Split::finish`] adds each task's sub-board results to the host's part.
//!
//! Masks are `u32` (n ≤ 32, the counter's limit), bits at or above n set in the row tables,
//! so a kernel needs no 64-bit arithmetic but for its counters.
//!
//! # What it costs
//!
//! Splitting visits only the top `start_row` rows, a small fraction of the tree for the
//! depths [`start_row`] picks; a sub-board is 9 words to upload and its result 8 words to read
//! back. Batches are sized by the caller ([`Counter::run`](super::Counter::run) aims at a
//! quarter of a second a batch), so progress, Ctrl-C, time limits and checkpoints work at
//! batch granularity with no change to the task list.

use std::collections::VecDeque;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::attacks::{State, TaskTies};
use super::error::CounterError;
use super::kernel::{self, Completions, NEVER, RowMasks, Scratch, TaskBoard, TaskResult};
use super::pieces::{self, MAX_ROWS, Partial, Piece, Rest, Step, Walk};
use super::tasks::{self, Class, ClassRules, TaskId};

pub use super::kernel::Completions as SubBoardResult;

/// Rows a sub-board's prefix may hold (every row of the counter's largest board, so a
/// sub-board can always be cut one row deeper).
pub const MAX_SPLIT_ROWS: usize = MAX_ROWS;

/// Rows a device's search of one sub-board covers at most (when the task list leaves more):
/// about 10⁵–10⁶ queens per sub-board, small enough that the slowest of a batch of thousands
/// does not hold the rest up for long, large enough that one sub-board outweighs its upload.
pub const DEVICE_ROWS: usize = 12;

/// How long one batch of pieces on a [`Device`] should take ([`drive`]): short enough for
/// progress, Ctrl-C and checkpoints to follow the run closely and to stay far below a display
/// driver's watchdog, long enough that the batch's set-up is small beside its work.
pub const DEVICE_BATCH_TIME: Duration = Duration::from_millis(250);

/// A task counter that takes many tasks at once (a GPU): the counter hands it batches of
/// task prefixes and records the results as they come.
pub trait Device: Send {
    /// What it is, for `--stats` and messages ("NVIDIA H100 PCIe (Vulkan)").
    fn describe(&self) -> String;

    /// The results of the tasks of the n×n board with these prefixes (from the standard
    /// [`TaskList`](super::TaskList) of n), in the same order: each exactly what
    /// [`TaskCounter`](super::TaskCounter) gives for the task.
    fn solve_batch(&mut self, n: u32, prefixes: &[&[u8]]) -> Result<Vec<TaskResult>, DeviceError>;
}

pub use super::error::DeviceError;

/// A [`Device`] shared between the caller and a counter run.
#[derive(Clone)]
pub struct SharedDevice(pub Arc<Mutex<dyn Device>>);

impl SharedDevice {
    /// Wraps a device.
    pub fn new(device: impl Device + 'static) -> Self {
        SharedDevice(Arc::new(Mutex::new(device)))
    }

    /// The device's [`Device::describe`].
    pub fn describe(&self) -> String {
        match self.0.lock() {
            Ok(device) => device.describe(),
            Err(_) => "a device that failed".to_string(),
        }
    }
}

impl fmt::Debug for SharedDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SharedDevice({})", self.describe())
    }
}

/// The rules of one class as a device kernel reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassTable {
    /// Per row, the squares that are not allowed, with the bits at or above n set (rows at or
    /// beyond n all ones).
    pub blocked: [u32; 32],
    /// Rows `b1` and `n − 1 − b1`, whose side squares are tie squares.
    pub tie_rows: [u32; 2],
    /// Columns 0 and n − 1, as bits.
    pub side_squares: u32,
    /// The last row's tie square, as a bit.
    pub last_square: u32,
}

/// The tables of every class of board size n (2 ≤ n ≤ 32), indexed by `b1` (entry 0 is
/// unused: `b1 = 0` only for n = 1, whose one task the host counts).
pub fn class_tables(n: u32) -> Vec<ClassTable> {
    assert!((1..=32).contains(&n), "device tables exist for n ≤ 32");
    let empty = ClassTable {
        blocked: [u32::MAX; 32],
        tie_rows: [0; 2],
        side_squares: 0,
        last_square: 0,
    };
    let mut tables = vec![empty];
    for class in tasks::classes(n).into_iter().filter(|c| c.b1 > 0) {
        let masks = RowMasks::new(&ClassRules::new(n, class).allowed);
        let ties = TaskTies::new(n, class);
        let mut table = empty;
        for (row, blocked) in table.blocked.iter_mut().enumerate().take(n as usize) {
            // Bits 32 and up are off every board of n ≤ 32.
            *blocked = masks.blocked(row) as u32;
        }
        table.tie_rows = ties.side_rows.map(|row| row as u32);
        table.side_squares = ties.side_squares as u32;
        table.last_square = ties.last_square as u32;
        debug_assert_eq!(tables.len(), class.b1 as usize);
        tables.push(table);
    }
    tables
}

/// The row at which [`split`] hands the tasks of n to a device: deep enough that the device
/// searches at most [`DEVICE_ROWS`] rows, never above the task list's own depth, and never
/// at or beyond the last row's search.
pub fn start_row(n: u32) -> usize {
    start_row_for(n, DEVICE_ROWS)
}

/// Like [`start_row`], for a device that should search at most `rows` rows.
pub fn start_row_for(n: u32, rows: usize) -> usize {
    let n = n as usize;
    let depth = tasks::depth(n as u32);
    n.saturating_sub(rows).max(depth).min(n.saturating_sub(1))
}

/// One piece of a task for a device: the queens of rows `0..row` and the masks they leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubBoard {
    /// The task's position in the batch.
    pub task: u32,
    /// The task's class (the row-0 queen's column): the index into [`class_tables`].
    pub b1: u32,
    /// The next row to fill (rows `0..row` hold queens).
    pub row: u32,
    /// Used columns, with the bits at or above n set.
    pub columns: u32,
    /// Squares of row `row` attacked along down-left diagonals.
    pub left: u32,
    /// Squares of row `row` attacked along down-right diagonals.
    pub right: u32,
    /// The columns of rows `0..row` (the rest zero).
    pub prefix: [u8; MAX_SPLIT_ROWS],
}

impl SubBoard {
    /// The sub-board of the task at `task` in its batch (class `b1`) that a walk's piece is.
    fn of(task: u32, b1: u32, piece: &Piece, n: u32) -> Self {
        let state = piece.state;
        SubBoard {
            task,
            b1,
            row: state.row as u32,
            columns: (state.columns | !tasks::full_mask(n)) as u32,
            left: state.left as u32,
            right: state.right as u32,
            prefix: piece.queens,
        }
    }

    /// The queens of rows `0..row`.
    pub fn queens(&self) -> &[u8] {
        &self.prefix[..self.row as usize]
    }

    /// The masks of the n×n board, without the bits at or above n.
    fn state(&self, n: u32) -> State {
        State {
            row: self.row as usize,
            columns: u64::from(self.columns) & tasks::full_mask(n),
            left: u64::from(self.left),
            right: u64::from(self.right),
        }
    }
}

/// A batch of tasks cut into sub-boards: what the host counted, and what is left to a device.
#[derive(Clone, Debug, Default)]
pub struct Split {
    /// Per task of the batch, what the host's part of its tree holds (the queens placed on
    /// the way to the sub-boards, and any solution found there).
    pub host: Vec<TaskResult>,
    /// The sub-boards, task by task.
    pub boards: Vec<SubBoard>,
}

impl Split {
    /// The tasks' results, given each sub-board's (`results[i]` is `boards[i]`'s).
    ///
    /// # Panics
    /// If `results` and the sub-boards differ in length.
    pub fn finish(mut self, results: &[Completions]) -> Vec<TaskResult> {
        assert_eq!(results.len(), self.boards.len(), "one result per sub-board");
        let boards = std::mem::take(&mut self.boards);
        for (board, found) in boards.iter().zip(results) {
            self.add(board, found);
        }
        self.host
    }

    /// Adds a sub-board's completions to its task.
    pub fn add(&mut self, board: &SubBoard, found: &Completions) {
        let task = &mut self.host[board.task as usize];
        task.nodes += found.nodes;
        task.total += found.tied.total;
        task.unique += found.tied.unique;
        task.add_eightfold(found.eightfold);
    }

    /// Cuts `board` (one of this split's, of the n×n board) `rows` rows deeper: the queens
    /// placed on the way (and any solution found there) go to its task, and the sub-boards
    /// that stand in for it are returned. For a device that gave up on a sub-board too big
    /// for it.
    pub fn refine(&mut self, n: u32, board: &SubBoard, rows: usize) -> Vec<SubBoard> {
        let class = TaskBoard::new(n, Class { b1: board.b1 });
        let cut = (board.row as usize + rows).min(n as usize - 1);
        let mut walk = Walk::from_state(&class, n, board.queens(), board.state(n), cut);
        let mut boards = Vec::new();
        while let Some(piece) = walk.next_piece(&class) {
            boards.push(SubBoard::of(board.task, board.b1, &piece, n));
        }
        self.host[board.task as usize].absorb(&walk.host);
        boards
    }
}

/// Cuts the tasks with these prefixes (tasks of the n×n board, 1 ≤ n ≤ 32) at `start_row`
/// (see the [module documentation](self)); tasks at least that deep stay whole.
pub fn split(n: u32, prefixes: &[&[u8]], start_row: usize) -> Split {
    assert!(
        (1..=32).contains(&n),
        "the counter's tasks exist for n ≤ 32"
    );
    let mut out = Split::default();
    let mut scratch = Scratch::default();
    for (task, prefix) in prefixes.iter().enumerate() {
        let task = task as u32;
        if prefix.len() >= n as usize {
            // Tiny boards: the prefix is a whole solution.
            out.host.push(kernel::solve_task(n, prefix, &mut scratch));
            continue;
        }
        let class = Class::of(prefix);
        let board = TaskBoard::new(n, class);
        let mut walk = Walk::new(&board, n, prefix, start_row.clamp(prefix.len(), n as usize));
        while let Some(piece) = walk.next_piece(&board) {
            out.boards.push(SubBoard::of(task, class.b1, &piece, n));
        }
        out.host.push(walk.host);
    }
    out
}

/// What a device must find for `board` of the n×n board, by the CPU's one-board loop: the
/// oracle of every device kernel.
pub fn count_sub_board(n: u32, board: &SubBoard) -> Completions {
    count_sub_board_with(n, board, &mut Scratch::default())
}

fn count_sub_board_with(n: u32, board: &SubBoard, scratch: &mut Scratch) -> Completions {
    let class = Class { b1: board.b1 };
    let masks = RowMasks::new(&ClassRules::new(n, class).allowed);
    let ties = TaskTies::new(n, class);
    kernel::count_one_board(
        &masks,
        &ties,
        board.queens(),
        board.state(n),
        scratch,
        &NEVER,
    )
    .expect("never stopped")
}

/// Counts tasks on `device` in pieces, from where each starts: takes the tasks `next` gives
/// (the n×n board's, `prefix_of` naming each one's prefix) and hands their pieces to the
/// device in batches sized to take about [`DEVICE_BATCH_TIME`] each
/// (from one piece up, doubling at most per batch), telling `on_step` where each task got
/// after every batch and each finished task's result; returns when `next` has no task left
/// and every task is counted, when `stop` is raised (checked between batches), or when
/// `on_step` says to (returns false). The driver of [`Counter::run`](super::Counter::run)'s
/// device and of an MPI rank's.
pub fn drive<'a>(
    device: &SharedDevice,
    n: u32,
    prefix_of: &dyn Fn(TaskId) -> &'a [u8],
    next: &mut dyn FnMut() -> Option<(TaskId, Partial)>,
    stop: &AtomicBool,
    on_step: &mut dyn FnMut(TaskId, Step) -> bool,
) -> Result<(), CounterError> {
    let mut batch = 1usize;
    // The tasks with pieces in this batch, the last one perhaps walked only in part.
    let mut open: VecDeque<OpenTask> = VecDeque::new();
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        // Gather up to `batch` pieces, task after task.
        let mut pieces: Vec<(usize, Piece)> = Vec::with_capacity(batch);
        let mut slot = 0;
        while pieces.len() < batch {
            if slot == open.len() {
                let Some((id, start)) = next() else { break };
                open.push_back(OpenTask::new(n, id, prefix_of(id), start));
            }
            match open[slot].next_piece()? {
                Some(piece) => pieces.push((slot, piece)),
                None => slot += 1,
            }
        }
        if open.is_empty() {
            return Ok(());
        }
        let prefixes: Vec<&[u8]> = pieces.iter().map(|(_, piece)| piece.prefix()).collect();
        let started = Instant::now();
        let results = match device.0.lock() {
            Ok(mut device) => {
                device
                    .solve_batch(n, &prefixes)
                    .map_err(|source| CounterError::Device {
                        device: device.describe(),
                        source,
                    })?
            }
            Err(_) => {
                return Err(CounterError::Device {
                    device: "the device".to_string(),
                    source: DeviceError("it failed in another run".to_string()),
                });
            }
        };
        if results.len() != prefixes.len() {
            return Err(CounterError::Device {
                device: device.describe(),
                source: DeviceError(format!(
                    "it returned {} results for {} tasks",
                    results.len(),
                    prefixes.len()
                )),
            });
        }
        for ((slot, _), result) in pieces.iter().zip(&results) {
            let task = &mut open[*slot];
            task.partial.found.absorb(result);
            task.partial.pieces += 1;
        }
        // Every task but perhaps the last is walked to its end: those are done.
        while let Some(task) = open.front() {
            let step = if task.walked {
                Step::Done(task.rest.result(&task.partial.found))
            } else {
                Step::Moved(task.partial)
            };
            let (id, walked) = (task.id, task.walked);
            if !on_step(id, step) {
                return Ok(());
            }
            if !walked {
                break;
            }
            open.pop_front();
        }
        // The next batch: as many pieces as fill the target time at this batch's pace.
        let took = started.elapsed().as_secs_f64().max(1e-6);
        let fit = (batch as f64 * DEVICE_BATCH_TIME.as_secs_f64() / took) as usize;
        batch = fit.clamp(1, 2 * batch);
    }
}

/// A task the device driver has begun: the pieces it has left, and where they got.
struct OpenTask {
    id: TaskId,
    rest: Rest<'static>,
    /// Its last piece has gone to the device.
    walked: bool,
    partial: Partial,
}

impl OpenTask {
    fn new(n: u32, id: TaskId, prefix: &[u8], start: Partial) -> Self {
        OpenTask {
            id,
            rest: Rest::new(pieces::class_board(n, prefix), n, id, prefix, &start),
            walked: false,
            partial: start,
        }
    }

    /// The task's next piece to count; `None` once it has none.
    fn next_piece(&mut self) -> Result<Option<Piece>, CounterError> {
        let piece = self.rest.next_piece()?;
        self.walked = piece.is_none();
        Ok(piece)
    }
}

/// A [`Device`] that is the CPU's one-board loop run over [`split`]'s sub-boards: what a
/// device kernel does, in plain Rust (the tests check the split with it; a device backend
/// can compare itself with it).
#[derive(Debug, Default)]
pub struct SplitOnCpu {
    /// Where the tasks are cut ([`start_row`] of n when `None`).
    pub start_row: Option<usize>,
}

impl Device for SplitOnCpu {
    fn describe(&self) -> String {
        "the CPU, sub-board by sub-board".to_string()
    }

    fn solve_batch(&mut self, n: u32, prefixes: &[&[u8]]) -> Result<Vec<TaskResult>, DeviceError> {
        let split = split(n, prefixes, self.start_row.unwrap_or_else(|| start_row(n)));
        let mut scratch = Scratch::default();
        let results: Vec<Completions> = split
            .boards
            .iter()
            .map(|board| count_sub_board_with(n, board, &mut scratch))
            .collect();
        Ok(split.finish(&results))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::counter::{TaskCounter, TaskList, distributed::SplitList};

    #[test]
    fn split_tasks_give_the_cpu_results_node_for_node() {
        let mut counter = TaskCounter::default();
        for n in 1..=13u32 {
            let list = SplitList::new(n, 0);
            let prefixes: Vec<&[u8]> = list.ids().map(|id| list.prefix(id).unwrap()).collect();
            let expected: Vec<TaskResult> = list
                .ids()
                .map(|id| counter.count(&list, id).unwrap())
                .collect();
            for start in [0, 4, 5, 7, start_row(n), n as usize, 40] {
                let mut device = SplitOnCpu {
                    start_row: Some(start),
                };
                let found = device.solve_batch(n, &prefixes).unwrap();
                assert_eq!(found, expected, "n = {n}, cut at row {start}");
            }
        }
    }

    #[test]
    fn refined_sub_boards_add_up_to_the_board() {
        // Every sub-board of n = 11 cut one, two and five rows deeper: its task's result is
        // unchanged, node for node.
        let n = 11;
        let list = TaskList::new(n);
        let prefixes: Vec<&[u8]> = list.ids().map(|id| list.prefix(id)).collect();
        let whole = SplitOnCpu::default().solve_batch(n, &prefixes).unwrap();
        for rows in [1, 2, 5] {
            let mut split = split(n, &prefixes, 5);
            let boards = std::mem::take(&mut split.boards);
            let mut refined = 0;
            for board in &boards {
                for child in split.refine(n, board, rows) {
                    assert_eq!(child.row as usize, (5 + rows).min(n as usize - 1));
                    split.add(&child, &count_sub_board(n, &child));
                    refined += 1;
                }
            }
            assert!(refined > 0);
            assert_eq!(split.host, whole, "{rows} rows deeper");
        }
    }

    #[test]
    fn sub_boards_start_where_asked_and_hold_their_queens() {
        let n = 12;
        let list = TaskList::new(n);
        let prefixes: Vec<&[u8]> = list.ids().map(|id| list.prefix(id)).collect();
        let split = split(n, &prefixes, 7);
        assert!(split.boards.len() > 10 * prefixes.len());
        for board in &split.boards {
            assert_eq!(board.row, 7);
            let state = State::after(board.queens()).expect("no two queens attack");
            assert_eq!(u64::from(board.columns) & 0xfff, state.columns);
            assert_eq!(u64::from(board.left), state.left & 0xffff_ffff);
            assert_eq!(u64::from(board.right), state.right);
            assert_eq!(
                board.columns >> 12,
                u32::MAX >> 12,
                "bits at or above n set"
            );
            assert_eq!(
                &board.queens()[..list.depth()],
                prefixes[board.task as usize]
            );
            assert_eq!(board.b1, u32::from(board.queens()[0]));
        }
    }

    #[test]
    fn class_tables_are_the_class_rules() {
        let tables = class_tables(8);
        assert_eq!(tables.len(), 4);
        // b1 = 2 (see the task module's example): row 3 allows columns 1..=6 only.
        assert_eq!(tables[2].blocked[0], !0b0000_0100);
        assert_eq!(tables[2].blocked[3], !0b0111_1110);
        assert_eq!(tables[2].blocked[8], u32::MAX);
        assert_eq!(tables[2].tie_rows, [2, 5]);
        assert_eq!(tables[2].side_squares, 0b1000_0001);
        assert_eq!(tables[2].last_square, 1 << 5);
        assert_eq!(start_row(8), 4);
        assert_eq!(start_row(20), 8);
        assert_eq!(start_row(32), 20);
        assert_eq!(start_row_for(14, 9), 5);
        assert_eq!(start_row(4), 3);
    }
}
