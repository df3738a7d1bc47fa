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
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
///
/// A device either answers each batch at once ([`solve_batch`](Device::solve_batch)), or is
/// *pipelined*: it takes a batch with [`submit`](Device::submit), returns as soon as the batch is
/// on its way, and gives the results of the oldest batch with [`finish`](Device::finish). The
/// counter then keeps two batches queued, so the host's part of batch k + 1 (for a GPU: the
/// split into sub-boards, on every core) runs while the device counts batch k.
pub trait Device: Send {
    /// What it is, for `--stats` and messages ("NVIDIA H100 PCIe (Vulkan)").
    fn describe(&self) -> String;

    /// The results of the tasks of the n×n board with these prefixes (from the standard
    /// [`TaskList`](super::TaskList) of n), in the same order: each exactly what
    /// [`TaskCounter`](super::TaskCounter) gives for the task.
    fn solve_batch(&mut self, n: u32, prefixes: &[&[u8]]) -> Result<Vec<TaskResult>, DeviceError>;

    /// Whether the device takes batches through [`submit`](Device::submit) and
    /// [`finish`](Device::finish) (the counter then keeps two in flight).
    fn pipelined(&self) -> bool {
        false
    }

    /// Queues a batch (as [`solve_batch`](Device::solve_batch) would take it) and returns
    /// once the device has it, before it is counted. Only for a [`pipelined`](Device::pipelined)
    /// device.
    fn submit(&mut self, n: u32, prefixes: &[&[u8]]) -> Result<(), DeviceError> {
        let _ = (n, prefixes);
        Err(DeviceError(format!(
            "{} takes whole batches only (it is not pipelined)",
            self.describe()
        )))
    }

    /// The results of the oldest batch still queued, in its order; waits for them.
    fn finish(&mut self) -> Result<Vec<TaskResult>, DeviceError> {
        Err(DeviceError("no batch was submitted".to_string()))
    }

    /// How long one batch should take (the counter sizes batches to it): short enough for
    /// progress, Ctrl-C and checkpoints to follow the run, long enough that a batch's set-up is
    /// small beside its work.
    fn batch_time(&self) -> Duration {
        DEVICE_BATCH_TIME
    }

    /// The fewest pieces a batch should hold, whatever time it then takes (1 by default). A
    /// device that runs thousands of searches at once idles on fewer (a GPU: fewer sub-boards
    /// than it has lanes), and such a batch lasts as long as its largest search, however few
    /// pieces it holds: sized by time alone, batches would shrink towards one piece each, and
    /// a count to a crawl (see [`drive`]).
    fn min_batch(&self) -> usize {
        1
    }

    /// What the device measured since it was opened, as `name=value` pairs for `--stats`
    /// (none by default).
    fn stats(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
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

impl SharedDevice {
    /// The device's [`Device::stats`].
    pub fn stats(&self) -> Vec<(&'static str, String)> {
        match self.0.lock() {
            Ok(device) => device.stats(),
            Err(_) => Vec::new(),
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

/// Counts tasks on `device` in pieces, from where each starts: takes the tasks `next` gives
/// (the n×n board's, `prefix_of` naming each one's prefix) and hands their pieces to the
/// device in batches sized to take about [`Device::batch_time`] each (from one piece up, at
/// most doubling from one batch to the next, never below [`Device::min_batch`]), telling
/// `on_step` where each task got after every batch and each finished task's result; returns
/// when `next` has no task left and every task is counted, when `stop` is raised (checked
/// between batches), or when `on_step` says to (returns false). The driver of
/// [`Counter::run`](super::Counter::run)'s device and of an MPI rank's.
///
/// Sizing by time alone fails where a batch's time is not its work: a batch lasts at least as
/// long as its largest search, which on a GPU runs on one lane, ten to a hundred times slower
/// than the lane's share of a full GPU (on an H100, 2·10⁶ steps a second alone). Once that
/// search takes longer than the target, each batch is made smaller than the last, yet takes
/// as long, and the count crawls: n = 20 did not end in 223 s where it takes 30. Hence the
/// device's floor.
///
/// A [pipelined](Device::pipelined) device gets two batches queued at a time, so that its host
/// work on the next batch overlaps its count of this one. Every batch it was given is
/// finished before this returns, so the device is left with nothing queued; after a stop the
/// batches still queued are counted and their pieces recorded (a stop waits for them).
pub fn drive<'a>(
    device: &SharedDevice,
    n: u32,
    prefix_of: &dyn Fn(TaskId) -> &'a [u8],
    next: &mut dyn FnMut() -> Option<(TaskId, Partial)>,
    stop: &AtomicBool,
    on_step: &mut dyn FnMut(TaskId, Step) -> bool,
) -> Result<(), CounterError> {
    // The run has the device to itself until it ends.
    let Ok(mut guard) = device.0.lock() else {
        return Err(CounterError::Device {
            device: "the device".to_string(),
            source: DeviceError("it failed in another run".to_string()),
        });
    };
    Driver {
        device: &mut *guard,
        n,
        prefix_of,
        next,
        on_step,
        open: VecDeque::new(),
        retired: 0,
    }
    .run(stop)
}

/// A task the driver has begun: the pieces it has left, and where those counted got.
struct OpenTask {
    id: TaskId,
    rest: Rest<'static>,
    /// Its last piece has gone to the device.
    walked: bool,
    /// Its pieces on the device, not yet back.
    out: u64,
    partial: Partial,
}

/// [`drive`]'s state: the tasks begun and not yet finished, in order.
struct Driver<'a, 'p> {
    device: &'a mut dyn Device,
    n: u32,
    prefix_of: &'a dyn Fn(TaskId) -> &'p [u8],
    /// The next task to begin, and where it starts.
    next: &'a mut dyn FnMut() -> Option<(TaskId, Partial)>,
    /// Told where each task got; false: stop.
    on_step: &'a mut dyn FnMut(TaskId, Step) -> bool,
    /// Tasks begun and not finished; `open[0]` is the `retired`-th task begun.
    open: VecDeque<OpenTask>,
    retired: usize,
}

/// A batch on its way: for each piece, the number of the task it belongs to (in the order the
/// tasks were begun).
type Owners = Vec<usize>;

impl Driver<'_, '_> {
    /// Up to two batches queued on a pipelined device, one at a time on another (its answers
    /// kept here until they are due).
    fn run(&mut self, stop: &AtomicBool) -> Result<(), CounterError> {
        let pipelined = self.device.pipelined();
        let depth = if pipelined { 2 } else { 1 };
        let target = self.device.batch_time();
        let mut queued: VecDeque<Owners> = VecDeque::new();
        // A device that answers at once: its answers.
        let mut answered: VecDeque<Vec<TaskResult>> = VecDeque::new();
        let mut batch = 1usize;
        let mut failure = None;
        // The run's loop has stopped listening (it failed).
        let mut closed = false;
        let mut last = Instant::now();
        loop {
            while failure.is_none()
                && !closed
                && queued.len() < depth
                && !stop.load(Ordering::Relaxed)
            {
                let (owners, pieces) = match self.gather(batch) {
                    Ok(gathered) => gathered,
                    Err(e) => {
                        failure = Some(e);
                        break;
                    }
                };
                if pieces.is_empty() {
                    break;
                }
                if !pipelined {
                    last = Instant::now();
                }
                let prefixes: Vec<&[u8]> = pieces.iter().map(Piece::prefix).collect();
                let n = self.n;
                let submitted = if pipelined {
                    self.device.submit(n, &prefixes)
                } else {
                    self.device
                        .solve_batch(n, &prefixes)
                        .map(|results| answered.push_back(results))
                };
                match submitted {
                    Ok(()) => queued.push_back(owners),
                    Err(source) => failure = Some(self.failed(source)),
                }
                // Until a batch has come back and shown the pace, each one doubles.
                batch = (2 * batch).max(self.device.min_batch());
            }
            let Some(owners) = queued.pop_front() else {
                // Nothing on the device: tasks with no piece left are done.
                if failure.is_none() && !closed {
                    self.retire()?;
                }
                break;
            };
            // Every batch queued is finished, even after a failure.
            let results = if pipelined {
                self.device.finish()
            } else {
                Ok(answered.pop_front().expect("an answer per batch"))
            };
            if failure.is_some() || closed {
                continue;
            }
            match results
                .map_err(|source| self.failed(source))
                .and_then(|results| self.record(&owners, &results))
            {
                Ok(listening) => closed = !listening,
                Err(e) => failure = Some(e),
            }
            // Batches come back one after another: the time since the last is this one's.
            let now = Instant::now();
            batch = next_batch(owners.len(), now - last, target).max(self.device.min_batch());
            last = now;
        }
        failure.map_or(Ok(()), Err)
    }

    /// The device's failure, naming it.
    fn failed(&self, source: DeviceError) -> CounterError {
        CounterError::Device {
            device: self.device.describe(),
            source,
        }
    }

    /// Up to `batch` pieces, task after task (none once every task is walked), and whose
    /// they are.
    fn gather(&mut self, batch: usize) -> Result<(Owners, Vec<Piece>), CounterError> {
        let mut owners = Vec::with_capacity(batch);
        let mut pieces = Vec::with_capacity(batch);
        while pieces.len() < batch {
            if self.open.back().is_none_or(|task| task.walked) {
                let Some((id, start)) = (self.next)() else {
                    break;
                };
                let prefix = (self.prefix_of)(id);
                self.open.push_back(OpenTask {
                    id,
                    rest: Rest::new(
                        pieces::class_board(self.n, prefix),
                        self.n,
                        id,
                        prefix,
                        &start,
                    ),
                    walked: false,
                    out: 0,
                    partial: start,
                });
            }
            let owner = self.retired + self.open.len() - 1;
            let task = self.open.back_mut().expect("a task begun");
            match task.rest.next_piece()? {
                Some(piece) => {
                    task.out += 1;
                    owners.push(owner);
                    pieces.push(piece);
                }
                None => task.walked = true,
            }
        }
        Ok((owners, pieces))
    }

    /// Adds a batch's results to their tasks and tells the run's loop where each got (or that
    /// it is done): `Ok(false)` if the loop no longer listens.
    fn record(&mut self, owners: &[usize], results: &[TaskResult]) -> Result<bool, CounterError> {
        if results.len() != owners.len() {
            return Err(self.failed(DeviceError(format!(
                "it returned {} results for {} pieces",
                results.len(),
                owners.len()
            ))));
        }
        for (&owner, result) in owners.iter().zip(results) {
            let task = &mut self.open[owner - self.retired];
            task.partial.found.absorb(result);
            task.partial.pieces += 1;
            task.out -= 1;
        }
        // Owners come in order: each task of the batch once.
        let mut last = None;
        for &owner in owners {
            if last == Some(owner) {
                continue;
            }
            last = Some(owner);
            let task = &self.open[owner - self.retired];
            let finished = task.walked && task.out == 0;
            // A finished task is told once, as done, by `retire`.
            if !finished && !(self.on_step)(task.id, Step::Moved(task.partial)) {
                return Ok(false);
            }
        }
        self.retire()
    }

    /// Sends the results of the first tasks begun whose pieces are all back: `Ok(false)` if
    /// the run's loop no longer listens.
    fn retire(&mut self) -> Result<bool, CounterError> {
        while let Some(task) = self.open.front() {
            if !(task.walked && task.out == 0) {
                break;
            }
            let step = Step::Done(task.rest.result(&task.partial.found));
            if !(self.on_step)(task.id, step) {
                return Ok(false);
            }
            self.open.pop_front();
            self.retired += 1;
        }
        Ok(true)
    }
}

/// The next batch's size after `done` pieces took `took`: as many as fill `target` at that
/// pace, at most twice `done`.
fn next_batch(done: usize, took: Duration, target: Duration) -> usize {
    let fit = done as f64 * target.as_secs_f64() / took.as_secs_f64().max(1e-6);
    (fit as usize).clamp(1, 2 * done.max(1))
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

/// A [`Device`] that is the CPU's one-board loop run over [`split`]'s sub-boards: what a
/// device kernel does, in plain Rust (the tests check the split with it; a device backend
/// can compare itself with it). With `pipelined`, it takes batches through
/// [`Device::submit`] and [`Device::finish`] (counting each at once), a stand-in for the
/// counter's pipelined path.
#[derive(Debug, Default)]
pub struct SplitOnCpu {
    /// Where the tasks are cut ([`start_row`] of n when `None`).
    pub start_row: Option<usize>,
    /// Whether it says it is [pipelined](Device::pipelined).
    pub pipelined: bool,
    /// The results of the batches submitted and not yet finished.
    queued: VecDeque<Vec<TaskResult>>,
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

    fn pipelined(&self) -> bool {
        self.pipelined
    }

    fn submit(&mut self, n: u32, prefixes: &[&[u8]]) -> Result<(), DeviceError> {
        let results = self.solve_batch(n, prefixes)?;
        self.queued.push_back(results);
        Ok(())
    }

    fn finish(&mut self) -> Result<Vec<TaskResult>, DeviceError> {
        self.queued
            .pop_front()
            .ok_or_else(|| DeviceError("no batch was submitted".to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::counter::{Counter, TaskCounter, TaskList, distributed::SplitList};

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
                    ..SplitOnCpu::default()
                };
                let found = device.solve_batch(n, &prefixes).unwrap();
                assert_eq!(found, expected, "n = {n}, cut at row {start}");
            }
        }
    }

    #[test]
    fn splitting_on_threads_gives_the_same_pieces() {
        // The same host results in task order, and the same sub-boards, each task's in the
        // same order; the buffers reused from call to call.
        let mut buffers = SplitBuffers::default();
        let mut many = Split::default();
        for n in [9, 12, 14] {
            let list = TaskList::new(n);
            let prefixes: Vec<&[u8]> = list.ids().map(|id| list.prefix(id)).collect();
            for start in [list.depth(), start_row(n), n as usize - 2] {
                let one = split(n, &prefixes, start);
                for threads in [1, 2, 3, 8] {
                    split_on_threads(n, &prefixes, start, threads, &mut buffers, &mut many);
                    let what = format!("n = {n}, row {start}, {threads} threads");
                    assert_eq!(many.host, one.host, "{what}");
                    let mut boards = many.boards.clone();
                    boards.sort_by_key(|board| board.task);
                    assert_eq!(boards, one.boards, "{what}");
                }
            }
        }
    }

    #[test]
    fn a_pipelined_device_counts_what_the_cpu_counts() {
        // Two batches queued at a time, sized by the pace: every count and node as on the CPU
        // threads, with 1 and 3 threads to split.
        for n in [1, 4, 8, 11, 13] {
            let mut cpu = Counter::new(2);
            let expected = cpu.run(n, &Default::default()).unwrap();
            let mut counter = Counter::new(1);
            counter.device = Some(SharedDevice::new(SplitOnCpu {
                pipelined: true,
                ..SplitOnCpu::default()
            }));
            let report = counter.run(n, &Default::default()).unwrap();
            assert_eq!(
                (report.total, report.unique, report.nodes),
                (expected.total, expected.unique, expected.nodes),
                "n = {n}"
            );
        }
    }

    /// Counts as [`SplitOnCpu`] does, asks for batches of `floor` pieces at least, and notes
    /// each batch's size.
    struct Floored {
        cpu: SplitOnCpu,
        floor: usize,
        sizes: Arc<Mutex<Vec<usize>>>,
    }

    impl Device for Floored {
        fn describe(&self) -> String {
            "a device with a floor".to_string()
        }

        fn solve_batch(
            &mut self,
            n: u32,
            prefixes: &[&[u8]],
        ) -> Result<Vec<TaskResult>, DeviceError> {
            self.sizes.lock().unwrap().push(prefixes.len());
            self.cpu.solve_batch(n, prefixes)
        }

        fn min_batch(&self) -> usize {
            self.floor
        }
    }

    #[test]
    fn batches_hold_the_devices_floor() {
        // Time alone would double the batches from one piece (1, 2, 4, ...); the floor holds
        // from the second batch on, and the count is the CPU's.
        let n = 12;
        let expected = Counter::new(2).run(n, &Default::default()).unwrap();
        let sizes = Arc::new(Mutex::new(Vec::new()));
        let mut counter = Counter::new(1);
        counter.device = Some(SharedDevice::new(Floored {
            cpu: SplitOnCpu::default(),
            floor: 40,
            sizes: sizes.clone(),
        }));
        let report = counter.run(n, &Default::default()).unwrap();
        assert_eq!(
            (report.total, report.nodes),
            (expected.total, expected.nodes)
        );
        let sizes = sizes.lock().unwrap();
        assert!(sizes.len() > 3, "{sizes:?}");
        assert_eq!(sizes[0], 1);
        let (last, middle) = sizes[1..].split_last().unwrap();
        assert!(middle.iter().all(|&size| size >= 40), "{sizes:?}");
        assert!(*last >= 1);
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
