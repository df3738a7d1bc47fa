//! The host's part of a device count: each task's tree searched from its prefix down to a
//! start row with the counting loop's own rules, every node alive there a [`SubBoard`] for
//! the device; the per-class tables a device kernel reads; and [`count_sub_board`], the CPU's
//! count of one sub-board, the oracle every device kernel is tested against. Splitting visits
//! only the top rows of each tree (see the [module documentation](super) for the costs).

use std::sync::atomic::{AtomicUsize, Ordering};

use super::{DEVICE_ROWS, MAX_SPLIT_ROWS};
use crate::engines::counter::attacks::{State, TaskTies};
use crate::engines::counter::kernel::{
    self, Completions, NEVER, RowMasks, Scratch, TaskBoard, TaskResult,
};
use crate::engines::counter::pieces::{Piece, Walk};
use crate::engines::counter::tasks::{self, Class, ClassRules};

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
/// (see the [module documentation](super)); tasks at least that deep stay whole.
pub fn split(n: u32, prefixes: &[&[u8]], start_row: usize) -> Split {
    let mut out = Split::default();
    split_into(n, prefixes, start_row, 0, &mut out.host, &mut out.boards);
    out
}

/// [`split`], appending to `host` and `boards`, the tasks numbered from `first`.
fn split_into(
    n: u32,
    prefixes: &[&[u8]],
    start_row: usize,
    first: u32,
    host: &mut Vec<TaskResult>,
    boards: &mut Vec<SubBoard>,
) {
    assert!(
        (1..=32).contains(&n),
        "the counter's tasks exist for n ≤ 32"
    );
    let mut scratch = Scratch::default();
    for (task, prefix) in (first..).zip(prefixes) {
        if prefix.len() >= n as usize {
            // Tiny boards: the prefix is a whole solution.
            host.push(kernel::solve_task(n, prefix, &mut scratch));
            continue;
        }
        let class = Class::of(prefix);
        let board = TaskBoard::new(n, class);
        let mut walk = Walk::new(&board, n, prefix, start_row.clamp(prefix.len(), n as usize));
        while let Some(piece) = walk.next_piece(&board) {
            boards.push(SubBoard::of(task, class.b1, &piece, n));
        }
        host.push(walk.host);
    }
}

/// The buffers [`split_on_threads`] reuses from batch to batch (grown, never shrunk), so that
/// a long count does not fault fresh memory in for every batch: that cost the split more
/// than its search (0.78 s of system time against 0.30 s of user time for the 15.7 million
/// sub-boards of n = 20 cut at row 7, on two threads).
#[derive(Debug, Default)]
pub struct SplitBuffers {
    /// Each thread's sub-boards.
    parts: Vec<Vec<SubBoard>>,
}

/// [`split`] on `threads` threads, into `out` (whose buffers are reused, like `buffers`'):
/// the host's results in task order, and the sub-boards grouped by task, each task's in
/// `split`'s order, the tasks in no particular order (every sub-board names its task). The
/// tasks are handed out a few at a time.
pub fn split_on_threads(
    n: u32,
    prefixes: &[&[u8]],
    start_row: usize,
    threads: usize,
    buffers: &mut SplitBuffers,
    out: &mut Split,
) {
    /// Tasks a thread takes at a time: tasks differ in size a hundredfold, so small pieces
    /// keep the threads evenly loaded.
    const TASKS: usize = 4;
    out.host.clear();
    out.boards.clear();
    let pieces = prefixes.len().div_ceil(TASKS);
    let threads = threads.min(pieces);
    if threads <= 1 {
        split_into(n, prefixes, start_row, 0, &mut out.host, &mut out.boards);
        return;
    }
    if buffers.parts.len() < threads {
        buffers.parts.resize_with(threads, Vec::new);
    }
    let next = AtomicUsize::new(0);
    let hosts: Vec<(usize, Vec<TaskResult>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = buffers.parts[..threads]
            .iter_mut()
            .map(|part| {
                let next = &next;
                scope.spawn(move || {
                    part.clear();
                    let mut hosts = Vec::new();
                    loop {
                        let piece = next.fetch_add(1, Ordering::Relaxed);
                        if piece >= pieces {
                            return hosts;
                        }
                        let first = piece * TASKS;
                        let last = (first + TASKS).min(prefixes.len());
                        let mut host = Vec::with_capacity(TASKS);
                        let tasks = &prefixes[first..last];
                        split_into(n, tasks, start_row, first as u32, &mut host, part);
                        hosts.push((first, host));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().expect("a split thread panicked"))
            .collect()
    });
    out.host.resize(prefixes.len(), TaskResult::default());
    for (first, host) in hosts {
        out.host[first..first + host.len()].copy_from_slice(&host);
    }
    for part in &buffers.parts[..threads] {
        out.boards.extend_from_slice(part);
    }
}

/// What a device must find for `board` of the n×n board, by the CPU's one-board loop: the
/// oracle of every device kernel.
pub fn count_sub_board(n: u32, board: &SubBoard) -> Completions {
    count_sub_board_with(n, board, &mut Scratch::default())
}

pub(super) fn count_sub_board_with(n: u32, board: &SubBoard, scratch: &mut Scratch) -> Completions {
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
        kernel::canonical_orbit,
    )
    .expect("never stopped")
}
