//! The record-class counter: all solutions (OEIS A000170) and the solutions up to symmetry
//! (A002562) of the n×n board, using the board's eight symmetries, many threads, checkpoints
//! and shards.
//!
//! # What is counted
//!
//! Each symmetry class of solutions is counted once, through its *canonical* member, and
//! weighted by the size of the class (2, 4 or 8; 1 only for n = 1). Every solution has exactly
//! one queen on each of the four border lines (row 0, row n − 1, column 0, column n − 1), and
//! each of those queens stands some distance from the nearer corner of its line. The eight
//! symmetries permute the four border queens, so some image of every solution has, in row 0,
//! the border queen *farthest* from its corner, in the left half: that image is canonical (ties
//! between images broken lexicographically, `kernel::canonical_orbit`). Its row-0 column `b1`
//! names its *class*, and every other border queen is at most `b1` from a corner, so:
//!
//! - the queens of columns 0 and n − 1 stand in rows at most `b1` from the top or the bottom,
//!   and the last row's queen in a column at most `b1` from the left or the right;
//! - if `b1` is the middle column (n odd), the mirror image starts the same way, and the rule
//!   "row-1 queen in the left half" keeps one of each mirror pair;
//! - an image other than the identity can be canonical too only if it has a border queen `b1`
//!   from a corner in row 0, so only solutions with a queen on one of five *tie squares* (the
//!   side columns in rows `b1` and n − 1 − `b1`, the last row in column n − 1 − `b1`) can be
//!   non-canonical or have a class smaller than eight. A solution on none counts 8; one on a tie
//!   square goes through the exact check, which also finds the classes of 2 and 4.
//!
//! These rules are square masks per row ([`tasks::ClassRules`]), so the inner loop is a plain
//! counting loop over per-row masks that also records the queen of each row, with no symmetry
//! code in it. Why the *farthest* border queen: the largest class (`b1` next to the middle)
//! has no rule at all beyond its row-0 queen, so its tree is a plain subtree, as lean per
//! solution as the baseline's; the classes with small `b1`, whose rules cut late in the tree,
//! hold few solutions. (Takaken's 2003 program orders the other way, the *nearest* border queen
//! in row 0; there the big classes are the ones whose rules cut late. At n = 16 that order
//! visits 161 million nodes with this loop, this one 130 million; the baseline's full tree has
//! 1 141 million.)
//!
//! # The inner loop
//!
//! Bitboards as in [`crate::engines::backtrack`] (one `u64` each for used columns and the two diagonal
//! directions, shifted one square per row), with these changes, each measured: the masks of
//! the row being filled stay in registers and the explicit stack takes a frame only when the
//! search descends from a row that still has squares to try (m-queens' trick: the last
//! candidate of a row replaces its frame); before descending, the loop checks that each of the
//! next four rows still has a free square under the current masks (lookahead: a dead end costs
//! no push and no pop, and the rows' own class rules take part); bits at or above n are kept
//! set in the masks, so a row is exhausted when its mask is all ones and a solution is a
//! placement that fills every column, with no row counter compared. One node (one queen
//! placed) costs O(1) word operations and no allocation.
//!
//! Where the CPU has AVX2 and BMI2 (checked at run time), the same tree is searched by the
//! lanes loop (module `lanes`): the nodes of a row are kept in a batch, and each step places eight
//! queens at once in the lanes of one vector register, with no branch that depends on the
//! board. It visits exactly the same nodes (the tests compare both loops task by task, results
//! and node counts) and is 3 to 4 times faster per node; the one-board loop runs everywhere
//! else (and in WebAssembly).
//!
//! # Boards with fixed queens or blocked squares
//!
//! Such a board keeps few of the eight symmetries (usually none), so the class rules do not
//! apply; module `masked` runs the same two loops under per-row masks of the squares each row
//! may take (the fixed queen's square, or every square neither blocked nor attacked by a
//! fixed queen), with no symmetry rules and tasks made by filling the first rows. Up to
//! symmetry, such a board counts the classes under the symmetries it keeps. Its run is the
//! whole board's ([`Counter::run_problem`]; module `work` holds either list): threads, pieces,
//! positions and checkpoints, whose headers name the board, so that a checkpoint of one board
//! is refused for another. It runs on the CPU threads (a device counts whole boards only) and
//! in one part (shards split the whole board).
//!
//! # Tasks, threads, checkpoints, shards
//!
//! The count is split into tasks by pre-placing the first rows ([`tasks`]: the same list, with
//! the same ids and fingerprint, for every run of one n). Worker threads pull task ids from a
//! shared counter and send each result to the calling thread, which adds it up (in `u128`,
//! checked), appends it to the checkpoint ([`checkpoint`]) and reports progress. A shard
//! ([`shard`]) runs every K-th task; [`shard::merge`] adds the K results back up.
//!
//! At the record sizes a task lasts minutes to hours, so a task is counted in *pieces*
//! ([`pieces`]): both loops look at a stop flag every millisecond or so, a stopped task says how
//! many of its pieces it finished, and the checkpoint keeps that position, from which any later
//! run goes on. Tasks in flight report their pieces ten times a second, so progress moves from
//! the first second, and a model of every task's work ([`estimate`]) turns it into a share of
//! the work done and an ETA.
//!
//! # Trusting the last digit
//!
//! A count is only worth its last digit, and a long one passes through files. Every
//! checkpoint line and every shard result carries a CRC-32 ([`checksum`]) that catches
//! accidental damage; a checkpoint is locked while a run has it open; and the final total of a
//! whole board with n ≤ 27 (a run here, or a merge) is compared with the published counts
//! ([`check_published`]): a mismatch is [`CounterError::WrongTotal`], naming the likely cause,
//! never a number. The main loop wakes at least every 100 ms, so records are synced within
//! [`checkpoint::SYNC_INTERVAL`] even while every task is long.
//!
//! # References
//!
//! Kenji Takahashi, *N-Queens Solutions* ver. 3.1 (2003): symmetry classes read off the border
//! queens, bounds on the border rows and columns, and the exact check of the few tied
//! solutions (this module orders the border queens the other way round). Jeff Somers (2002)
//! and sudden6's m-queens: bitboards with an explicit stack, and (m-queens) checking rows
//! beyond the next for a free square. Facts and figures from these are used here; the code is
//! this crate's own.

mod attacks;
pub mod checkpoint;
pub mod checksum;
mod descriptor;
pub mod device;
pub mod distributed;
pub(crate) mod error;
pub mod estimate;
pub mod kernel;
mod masked;
pub(crate) mod part;
pub mod pieces;
// Off x86-64 the lanes loop is never chosen (`lanes::available()` is false), so its buffers
// and board are built by nothing.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
mod lanes;
pub mod shard;
pub mod tasks;
mod work;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{OnceLock, mpsc};
use std::time::{Duration, Instant};

use nqueens_support::LimitReached;

use crate::board::Problem;
use crate::engine::EngineError;
use crate::engine::{
    Budget, Counts, Descriptor, Engine, Job, Limits, Progress, ProgressSink, Stats,
};
use crate::error::Error;
use pieces::Step;
use work::Work;

pub use checkpoint::Checkpoint;
pub use descriptor::{BACKTRACK_NODES_PER_SECOND, DESCRIPTOR};
pub use device::{DEVICE_BATCH_TIME, Device, DeviceError, SharedDevice};
pub use distributed::{SplitList, TaskCounter};
pub use error::{CounterError, check_published};
pub use kernel::TaskResult;
pub use pieces::{Partial, TaskEnd};
pub use shard::{Merged, Shard, ShardResult};
pub use tasks::{Fingerprint, TaskId, TaskList};

/// The largest board the counter takes: its task list grows like n⁵, and no count beyond
/// n ≈ 30 would finish anyway.
pub const MAX_N: u32 = 32;

/// How often (at most) the counter reports progress.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// How long a run with a progress display counts before it estimates its work (module
/// `estimate`): shorter runs end before a display shows anything (it waits a second), and
/// the model is ready by then for the others.
const MODEL_DELAY: Duration = Duration::from_millis(500);

/// Options of one [`Counter::run`].
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Resume from and append to this checkpoint file.
    pub checkpoint: Option<PathBuf>,
    /// Count only this shard (`None`: all tasks).
    pub shard: Option<Shard>,
}

/// The outcome of [`Counter::run`].
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Board size.
    pub n: u32,
    /// The shard counted ([`Shard::ALL`] for a whole count).
    pub shard: Shard,
    /// The task list's fingerprint.
    pub fingerprint: Fingerprint,
    /// Tasks in the shard.
    pub tasks: u64,
    /// Of those, tasks whose results came from the checkpoint.
    pub resumed: u64,
    /// Solutions in the shard (all solutions for a whole count).
    pub total: u128,
    /// Solutions up to symmetry in the shard (for a board with fixed queens or blocked
    /// squares: up to its own symmetries, or the total when they were not asked for).
    pub unique: u128,
    /// Queens placed over all of the shard's tasks, resumed ones included.
    pub nodes: u128,
    /// Queens placed by this run.
    pub new_nodes: u128,
    /// Time this run took.
    pub elapsed: Duration,
}

impl Report {
    /// The shard's JSON line.
    pub fn shard_result(&self) -> ShardResult {
        ShardResult {
            n: self.n,
            shard: self.shard.to_string(),
            tasks: self.tasks,
            task_list: self.fingerprint.to_string(),
            subtotal: self.total,
            unique: self.unique,
            nodes: self.nodes,
            elapsed: self.elapsed.as_secs_f64(),
            check: String::new(),
        }
        .sealed()
    }
}

/// The counting engine. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Counter {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Where runs report progress.
    pub progress: Option<ProgressSink>,
    /// When to give up (time budget, stop flag, and a node budget over the queens this run
    /// places; checked at least every 100 ms): the loops stop within milliseconds, finished
    /// tasks stay in the checkpoint and the tasks in flight leave their positions there (the
    /// pieces they finished), so a stopped count resumes where it was.
    pub limits: Limits,
    /// Rows each piece of a task searches (module [`pieces`]): [`pieces::PIECE_ROWS`]; fewer
    /// cut small boards' tasks into pieces too (for tests). Positions saved with another value
    /// are not resumed: such tasks start over.
    pub piece_rows: usize,
    /// Count on this device (a GPU) instead of the CPU threads: the tasks go to it in batches
    /// of about [`DEVICE_BATCH_TIME`] each, and its results are recorded like the threads'.
    pub device: Option<SharedDevice>,
    stats: Stats,
    saved: Option<Saved>,
}

/// What a run's checkpoint holds when the run ends, finished or stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Saved {
    /// Tasks in the shard.
    pub tasks: u64,
    /// Of those, tasks whose results the checkpoint holds.
    pub done: u64,
    /// Unfinished tasks whose positions it holds (some of their pieces done).
    pub in_part: u64,
}

impl Default for Counter {
    fn default() -> Self {
        Counter::new(1)
    }
}

/// Sums over finished tasks.
#[derive(Default)]
struct Sums {
    total: u128,
    unique: u128,
    nodes: u128,
    done: u64,
}

impl Sums {
    fn add(&mut self, result: &TaskResult) -> Result<(), CounterError> {
        let add = |sum: u128, part: u64| {
            sum.checked_add(u128::from(part))
                .ok_or(CounterError::Overflow)
        };
        self.total = add(self.total, result.total)?;
        self.unique = add(self.unique, result.unique)?;
        self.nodes = add(self.nodes, result.nodes)?;
        self.done += 1;
        Ok(())
    }
}

impl Counter {
    /// A counter with `threads` worker threads (0 is taken as 1).
    pub fn new(threads: usize) -> Self {
        Counter {
            threads: threads.max(1),
            progress: None,
            limits: Limits::default(),
            piece_rows: pieces::PIECE_ROWS,
            device: None,
            stats: Stats::default(),
            saved: None,
        }
    }

    /// What the checkpoint of the last run holds, once that run opened one (also when it
    /// stopped at a limit or a signal).
    pub fn saved(&self) -> Option<Saved> {
        self.saved
    }

    /// Counts the solutions of the n×n board (or of one shard of its task list), resuming from
    /// and appending to a checkpoint if asked.
    pub fn run(&mut self, n: u32, options: &RunOptions) -> Result<Report, Error> {
        self.run_problem(&Problem::new(n)?, true, options)
    }

    /// Counts the solutions of `problem` (the whole board, or one with fixed queens or blocked
    /// squares: module `masked`), resuming from and appending to a checkpoint if asked. The
    /// whole board's report counts its classes too; a board with fixed queens or blocked
    /// squares counts its classes under its own symmetries only if `unique` (otherwise its
    /// report's `unique` is the total), and runs on the CPU threads (a device counts whole
    /// boards only), as one shard.
    pub fn run_problem(
        &mut self,
        problem: &Problem,
        unique: bool,
        options: &RunOptions,
    ) -> Result<Report, Error> {
        let job = if unique { Job::CountUnique } else { Job::Count };
        self.check(job, problem)?;
        self.saved = None;
        let started = Instant::now();
        let n = problem.n();
        let tasks = Work::of(problem, unique);
        let shard = options.shard.unwrap_or(Shard::ALL);
        if shard.count() > 1 && !tasks.is_whole() {
            return Err(EngineError::Unsupported {
                method: self.name(),
                job,
                reason: "a board with fixed queens or blocked squares is counted in one part (shards split the whole board)".into(),
            }
            .into());
        }
        if shard.count() > 1 && shard.count() as usize > tasks.len() {
            return Err(CounterError::TooManyShards {
                shard,
                n,
                tasks: tasks.len(),
            }
            .into());
        }
        let mine = shard.len_of(tasks.len());
        let cut = pieces::cut_row(n, tasks.depth(), self.piece_rows);
        // The device counts the whole board's tasks; a masked board's run on the threads.
        let device = match &tasks {
            Work::Whole(list) => self.device.as_ref().map(|device| (device, list)),
            Work::Masked(_) => None,
        };
        let mut done = vec![false; tasks.len()];
        let mut sums = Sums::default();
        // Where the checkpoint's unfinished tasks had got.
        let mut from = HashMap::new();
        let mut checkpoint = match &options.checkpoint {
            Some(path) => {
                let (file, records) = Checkpoint::open(path, &tasks.header(shard))?;
                for (id, result) in &records {
                    done[id.index()] = true;
                    sums.add(result)?;
                }
                // A position of another cut row names other pieces: such a task starts over.
                from.extend(
                    file.positions()
                        .iter()
                        .filter(|(_, partial)| partial.cut as usize == cut)
                        .copied(),
                );
                Some(file)
            }
            None => None,
        };
        let pending: Vec<TaskId> = tasks
            .ids()
            .filter(|&id| shard.contains(id) && !done[id.index()])
            .collect();
        drop(done);
        // The work model of the pending tasks, estimated beside the count (module `estimate`).
        let model = OnceLock::new();
        let mut ledger = Ledger::new(cut, &from, sums, &pending);
        let resumed = ledger.sums.done;
        let resumed_nodes = ledger.sums.nodes;
        let progress = self.progress.clone();
        let report = |ledger: &Ledger| {
            if let Some(sink) = &progress {
                // Tasks and nodes of this run only, so that the rates are right on resume.
                sink.report(&Progress {
                    done: ledger.sums.done - resumed,
                    total: Some((mine as u64) - resumed),
                    solutions: ledger.sums.total,
                    nodes: ledger.new_nodes(),
                    nodes_left: ledger.nodes_left(),
                    nodes_done: ledger.nodes_done(),
                });
            }
        };
        report(&ledger);

        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let budget = Budget::start(&self.limits);
        let mut gave_up = None;
        let (sender, receiver) = mpsc::channel::<Message>();
        let workers = if device.is_some() {
            0
        } else {
            self.threads.min(pending.len())
        };
        let mut failure = None;
        // Raised when the run's loop ends, so that the model's thread ends too.
        let quit = AtomicBool::new(false);
        let (until_quiet_ends, quiet) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            let (tasks, pending, from, stop) = (&tasks, &pending, &from, &stop);
            if self.progress.is_some() && !pending.is_empty() {
                let (model, quit) = (&model, &quit);
                scope.spawn(move || {
                    // Only for runs that last: a display shows nothing in their first second.
                    if quiet.recv_timeout(MODEL_DELAY) == Err(mpsc::RecvTimeoutError::Timeout) {
                        if let Some(estimates) = estimate::estimate(tasks, pending, quit) {
                            let _ = model.set(estimates);
                        }
                    }
                });
            }
            if let Some((device, list)) = device {
                let sender = sender.clone();
                scope.spawn(move || {
                    let mut next = pending.iter().map(|&id| (id, start_of(from, id, cut)));
                    let driven = device::drive(
                        device,
                        n,
                        &|id| list.prefix(id),
                        &mut || next.next(),
                        stop,
                        &mut |id, step| sender.send(Ok((id, step))).is_ok(),
                    );
                    if let Err(e) = driven {
                        let _ = sender.send(Err(e));
                    }
                });
            }
            for _ in 0..workers {
                let sender = sender.clone();
                let next = &next;
                scope.spawn(move || {
                    let mut scratch = Box::<kernel::Scratch>::default();
                    let mut told = Instant::now();
                    while !stop.load(Ordering::Relaxed) {
                        let Some(&id) = pending.get(next.fetch_add(1, Ordering::Relaxed)) else {
                            break;
                        };
                        let start = start_of(from, id, cut);
                        let prefix = tasks.prefix(id);
                        let end = pieces::count_task(
                            tasks.board(prefix),
                            n,
                            id,
                            prefix,
                            &start,
                            stop,
                            &mut scratch,
                            &mut |partial| {
                                // Now and then, where the task has got (for progress, and for
                                // the checkpoint's positions).
                                if told.elapsed() >= PROGRESS_INTERVAL {
                                    told = Instant::now();
                                    let _ = sender.send(Ok((id, Step::Moved(*partial))));
                                }
                            },
                        );
                        let step = end.map(|end| match end {
                            TaskEnd::Done(result) => (id, Step::Done(result)),
                            TaskEnd::Stopped(partial) => (id, Step::Moved(partial)),
                        });
                        if sender.send(step).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(sender);
            let mut last_report = Instant::now();
            let mut last_positions = Instant::now();
            let mut stopping = false;
            loop {
                // Wake at least every PROGRESS_INTERVAL, so that records are synced on time
                // (and progress shown) even while every task runs for minutes.
                let step = match receiver.recv_timeout(PROGRESS_INTERVAL) {
                    Ok(Err(e)) => Err(e),
                    Ok(Ok((id, Step::Done(result)))) => match checkpoint.as_mut() {
                        Some(file) => file.record(id, &result),
                        None => Ok(()),
                    }
                    .and_then(|()| ledger.finish(id, &result)),
                    Ok(Ok((id, Step::Moved(partial)))) => {
                        ledger.moved(id, partial);
                        Ok(())
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => match checkpoint.as_mut() {
                        Some(file) => file.sync_if_due(),
                        None => Ok(()),
                    },
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                };
                if let Err(e) = step {
                    failure = Some(e);
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
                if stopping {
                    // Waiting for the workers: each ends within milliseconds and says where its
                    // task got.
                    continue;
                }
                let reached = budget.check_now().err().or_else(|| {
                    self.limits
                        .nodes
                        .filter(|&limit| ledger.new_nodes() >= u128::from(limit))
                        .map(|_| LimitReached::Nodes)
                });
                if let Some(reached) = reached {
                    // Finished tasks are recorded; the ones in flight say where they got.
                    gave_up = Some(reached);
                    stop.store(true, Ordering::Relaxed);
                    stopping = true;
                    continue;
                }
                if last_positions.elapsed() >= checkpoint::POSITION_INTERVAL {
                    last_positions = Instant::now();
                    if let Some(file) = checkpoint.as_mut() {
                        if let Err(e) = ledger.save_positions(file) {
                            failure = Some(e);
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                }
                if last_report.elapsed() >= PROGRESS_INTERVAL {
                    if let Some(estimates) = model.get() {
                        ledger.adopt(estimates);
                    }
                    report(&ledger);
                    last_report = Instant::now();
                }
            }
            quit.store(true, Ordering::Relaxed);
            drop(until_quiet_ends);
        });
        if let Some(e) = failure {
            // Keep what was recorded before the failure (best effort: the failure may be the
            // disk itself).
            if let Some(file) = checkpoint.as_mut() {
                let _ = file.sync();
            }
            return Err(e.into());
        }
        if let Some(file) = checkpoint.as_mut() {
            ledger.save_positions(file)?;
            file.sync()?;
            self.saved = Some(Saved {
                tasks: mine as u64,
                done: ledger.sums.done,
                in_part: ledger.in_part(),
            });
        }
        if let Some(reason) = gave_up {
            return Err(EngineError::GaveUp {
                method: self.name(),
                reason,
            }
            .into());
        }
        report(&ledger);
        let sums = &ledger.sums;
        if shard == Shard::ALL && tasks.is_whole() {
            let cause = if resumed > 0 || !from.is_empty() {
                "a damaged checkpoint or a hardware fault (memory, CPU) is the likely cause: count again without the checkpoint, or on another machine"
            } else {
                "a hardware fault (memory, CPU) is the likely cause: count again on another machine"
            };
            check_published("the count", n, sums.total, Some(sums.unique), cause)?;
        }
        debug_assert_eq!(sums.done, mine as u64);
        let result = Report {
            n,
            shard,
            fingerprint: tasks.fingerprint(),
            tasks: mine as u64,
            resumed,
            total: sums.total,
            unique: sums.unique,
            nodes: sums.nodes,
            new_nodes: ledger.new_nodes(),
            elapsed: started.elapsed(),
        };
        debug_assert!(result.new_nodes <= sums.nodes - resumed_nodes);
        self.stats = Stats::default();
        self.stats.set("nodes", result.new_nodes);
        self.stats
            .set("tasks", u128::from(result.tasks - result.resumed));
        if device.is_none() {
            // Boards searched per step: 8 where the lanes loop ran, 1 for the one-board loop.
            self.stats
                .set("lanes", u128::from(kernel::lanes_per_step(n, cut)));
        }
        Ok(result)
    }

    /// [`run`](Self::run) with a checkpoint file and no shard.
    pub fn run_with_checkpoint(&mut self, n: u32, checkpoint: &Path) -> Result<Report, Error> {
        self.run(
            n,
            &RunOptions {
                checkpoint: Some(checkpoint.to_path_buf()),
                shard: None,
            },
        )
    }
}

/// A worker's message: a task's step, or a failure that ends the run.
type Message = Result<(TaskId, Step), CounterError>;

/// Where a run starts task `id`: the position the checkpoint holds (`from`), or the task's
/// beginning, cut at row `cut`. (Most runs resume none: no lookup then.)
fn start_of(from: &HashMap<TaskId, Partial>, id: TaskId, cut: usize) -> Partial {
    match from.is_empty() {
        true => Partial::start(cut),
        false => from.get(&id).copied().unwrap_or(Partial::start(cut)),
    }
}

/// A task in flight, as far as the run has heard.
struct Flight {
    /// Where this run started it.
    base: Partial,
    /// Where it has got.
    now: Partial,
    /// The pieces of the last position written to the checkpoint (or read from it).
    written: u64,
}

/// The run's bookkeeping on its main thread: finished tasks, tasks in flight, the queens this
/// run placed, and what the work model says is left.
struct Ledger<'a> {
    cut: usize,
    /// Over finished tasks, those read back from the checkpoint included.
    sums: Sums,
    /// Where the checkpoint's unfinished tasks had got.
    from: &'a HashMap<TaskId, Partial>,
    flight: HashMap<TaskId, Flight>,
    /// Queens placed by this run in the tasks it finished.
    run_nodes: u128,
    /// The tasks this run counts, in id order, and which of them are finished.
    pending: &'a [TaskId],
    finished: Vec<bool>,
    /// The model's estimate of each pending task's queens, once it is there, and their sum
    /// over the tasks not finished.
    model: Option<(&'a [f32], f64)>,
}

impl<'a> Ledger<'a> {
    fn new(
        cut: usize,
        from: &'a HashMap<TaskId, Partial>,
        sums: Sums,
        pending: &'a [TaskId],
    ) -> Self {
        Ledger {
            cut,
            sums,
            from,
            flight: HashMap::new(),
            run_nodes: 0,
            pending,
            finished: vec![false; pending.len()],
            model: None,
        }
    }

    /// Takes the work model's estimates (one per pending task) on board.
    fn adopt(&mut self, estimates: &'a [f32]) {
        if self.model.is_none() {
            let left = estimates
                .iter()
                .zip(&self.finished)
                .filter(|&(_, &finished)| !finished)
                .map(|(&e, _)| f64::from(e))
                .sum();
            self.model = Some((estimates, left));
        }
    }

    /// The model's estimate of the queens of task `id`.
    fn estimate(&self, id: TaskId) -> Option<f64> {
        let (estimates, _) = self.model?;
        let at = self.pending.binary_search(&id).ok()?;
        Some(f64::from(estimates[at]))
    }

    /// The queens still to place, as the model has it.
    fn nodes_left(&self) -> Option<u128> {
        let (_, left) = self.model?;
        let flying: f64 = self
            .flight
            .iter()
            .map(|(&id, f)| (f.now.found.nodes as f64).min(self.estimate(id).unwrap_or(0.0)))
            .sum();
        Some((left - flying).max(0.0) as u128)
    }

    /// The queens placed in the shard so far, by earlier runs too.
    fn nodes_done(&self) -> u128 {
        let flying: u128 = self
            .flight
            .values()
            .map(|f| u128::from(f.now.found.nodes))
            .sum();
        self.sums.nodes + flying
    }

    /// Where this run starts task `id`.
    fn base(&self, id: TaskId) -> Partial {
        start_of(self.from, id, self.cut)
    }

    fn moved(&mut self, id: TaskId, now: Partial) {
        let base = self.base(id);
        self.flight
            .entry(id)
            .or_insert(Flight {
                base,
                now: base,
                written: base.pieces,
            })
            .now = now;
    }

    fn finish(&mut self, id: TaskId, result: &TaskResult) -> Result<(), CounterError> {
        let base = self.base(id);
        if !self.flight.is_empty() {
            self.flight.remove(&id);
        }
        if let Ok(at) = self.pending.binary_search(&id) {
            self.finished[at] = true;
            if let Some((estimates, left)) = &mut self.model {
                *left -= f64::from(estimates[at]);
            }
        }
        self.sums.add(result)?;
        self.run_nodes += u128::from(result.nodes - base.found.nodes);
        Ok(())
    }

    /// Queens placed by this run, in finished tasks and in the pieces of tasks in flight.
    fn new_nodes(&self) -> u128 {
        let flying: u128 = self
            .flight
            .values()
            .map(|f| u128::from(f.now.found.nodes - f.base.found.nodes))
            .sum();
        self.run_nodes + flying
    }

    /// Unfinished tasks the checkpoint holds a position of: those in flight that finished a
    /// piece, and those resumed from a position this run did not take up.
    fn in_part(&self) -> u64 {
        let flying = self.flight.values().filter(|f| f.now.pieces > 0).count();
        let waiting = self
            .from
            .iter()
            .filter(|&(id, partial)| partial.pieces > 0 && !self.flight.contains_key(id))
            .filter(|&(id, _)| {
                let at = self.pending.binary_search(id);
                at.is_ok_and(|at| !self.finished[at])
            })
            .count();
        (flying + waiting) as u64
    }

    /// Writes where each task in flight has got, if it got further since it was last written.
    fn save_positions(&mut self, file: &mut Checkpoint) -> Result<(), CounterError> {
        let mut moved: Vec<(&TaskId, &mut Flight)> = self
            .flight
            .iter_mut()
            .filter(|(_, f)| f.now.pieces > f.written)
            .collect();
        moved.sort_unstable_by_key(|(id, _)| **id);
        for (&id, flight) in moved {
            file.record_position(id, &flight.now)?;
            flight.written = flight.now.pieces;
        }
        Ok(())
    }
}

impl Engine for Counter {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn check(&self, job: Job, problem: &Problem) -> Result<(), EngineError> {
        let unsupported = |reason: &str| {
            Err(EngineError::Unsupported {
                method: self.name(),
                job,
                reason: reason.into(),
            })
        };
        match job {
            Job::Count | Job::CountUnique => {}
            Job::Solve | Job::List => {
                return unsupported(
                    "it only counts (it never builds the solutions); use backtrack",
                );
            }
        }
        crate::engine::check_size(self.name(), problem, MAX_N)
    }

    /// By [`Counter::run_problem`]: the whole board by symmetry classes (on the device if one
    /// is set); a board with fixed queens or blocked squares on the CPU threads, under per-row
    /// masks (module `masked`), up to the symmetries the board keeps.
    fn count(&mut self, problem: &Problem, unique: bool) -> Result<Counts, EngineError> {
        // A run without files fails only as an engine does, or on the device.
        let report = self
            .run_problem(problem, unique, &RunOptions::default())
            .map_err(|e| match e {
                Error::Engine(e) => e,
                Error::Counter(e) => EngineError::Failed(Box::new(e)),
                other => EngineError::Failed(Box::new(other)),
            })?;
        Ok(Counts {
            total: report.total,
            unique: unique.then_some(report.unique),
        })
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instances::oeis;

    #[test]
    fn small_boards_match_oeis_with_every_thread_count() {
        for threads in 1..=3 {
            let mut counter = Counter::new(threads);
            for n in 1..=12 {
                let problem = Problem::new(n).unwrap();
                let counts = counter.count(&problem, true).unwrap();
                assert_eq!(counts.total, oeis::total(n).unwrap(), "n = {n}");
                assert_eq!(counts.unique, oeis::unique(n), "n = {n}");
            }
        }
    }

    /// Runs the count of n into `path` with a node budget of `budget` a run (and pieces of
    /// `piece_rows` rows, on `device` if given) until one run finishes; returns its report,
    /// the runs that stopped, and the positions their checkpoint lines held.
    fn count_in_stops(
        n: u32,
        path: &Path,
        budget: u64,
        piece_rows: usize,
        device: Option<SharedDevice>,
    ) -> (Report, usize, usize) {
        let problem = Problem::new(n).unwrap();
        board_in_stops(&problem, true, path, budget, piece_rows, device)
    }

    /// [`count_in_stops`] for any board.
    fn board_in_stops(
        problem: &Problem,
        unique: bool,
        path: &Path,
        budget: u64,
        piece_rows: usize,
        device: Option<SharedDevice>,
    ) -> (Report, usize, usize) {
        let (mut stops, mut positions) = (0, 0);
        let options = RunOptions {
            checkpoint: Some(path.to_path_buf()),
            shard: None,
        };
        loop {
            let mut counter = Counter::new(2);
            counter.piece_rows = piece_rows;
            counter.limits.nodes = Some(budget);
            counter.device = device.clone();
            match counter.run_problem(problem, unique, &options) {
                Ok(report) => return (report, stops, positions),
                Err(Error::Engine(EngineError::GaveUp {
                    reason: LimitReached::Nodes,
                    ..
                })) => {
                    stops += 1;
                    let text = std::fs::read_to_string(path).unwrap();
                    positions += text.lines().filter(|l| l.contains(':')).count();
                }
                Err(e) => panic!("{e}"),
            }
            assert!(stops < 100, "no end in sight");
        }
    }

    #[test]
    fn a_count_stopped_inside_its_tasks_resumes_to_the_exact_total() {
        let n = 14;
        let whole = Counter::new(2).run(n, &RunOptions::default()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        // Pieces of 7 rows: the tasks of n = 14 are cut at row 7, dozens of pieces each.
        let budget = (whole.nodes / 6) as u64;
        let (report, stops, positions) = count_in_stops(n, &dir.path().join("a"), budget, 7, None);
        assert_eq!((report.total, report.unique), (whole.total, whole.unique));
        assert_eq!(report.nodes, whole.nodes, "node for node");
        assert!(stops >= 3, "{stops}");
        assert!(positions > 0, "no run stopped inside a task");
        // Positions of another cut row are other pieces: those tasks start over, exactly.
        let path = dir.path().join("b");
        let (_, stops, _) = count_in_stops(n, &path, budget, 7, None);
        assert!(stops > 0);
        let _ = std::fs::remove_file(&path);
        let _ = count_in_stops(n, &path, budget * 2, 7, None);
        let mut again = Counter::new(2);
        again.piece_rows = 8;
        let report = again.run_with_checkpoint(n, &path).unwrap();
        assert_eq!(report.nodes, whole.nodes);
    }

    /// Boards with fixed queens or blocked squares, stopped inside their tasks again and
    /// again: the exact count, node for node, against the uninterrupted run and plain
    /// backtracking; up to symmetry too on a board that keeps some.
    #[test]
    fn a_masked_count_stopped_inside_its_tasks_resumes_to_the_exact_total() {
        use crate::Queen;
        let dir = tempfile::tempdir().unwrap();
        let lopsided = Problem::with_blocks(
            14,
            [Queen::new(0, 2)],
            [Queen::new(5, 5), Queen::new(9, 1), Queen::new(13, 12)],
        )
        .unwrap();
        // The half turn maps these blocked squares onto each other.
        let turning = Problem::with_blocks(13, [], [Queen::new(2, 3), Queen::new(10, 9)]).unwrap();
        assert_eq!(
            crate::board::symmetry::Group::of(&turning).members().len(),
            2
        );
        for (name, problem, unique) in [("a", &lopsided, false), ("b", &turning, true)] {
            let whole = Counter::new(2)
                .run_problem(problem, unique, &RunOptions::default())
                .unwrap();
            let expected = crate::engines::backtrack::Backtrack::default()
                .count(problem, unique)
                .unwrap();
            assert_eq!(whole.total, expected.total);
            if unique {
                assert_eq!(Some(whole.unique), expected.unique);
            }
            let path = dir.path().join(name);
            let budget = (whole.nodes / 6) as u64;
            let (report, stops, positions) =
                board_in_stops(problem, unique, &path, budget, 7, None);
            assert_eq!(
                (report.total, report.unique, report.nodes),
                (whole.total, whole.unique, whole.nodes),
                "{name}"
            );
            assert!(stops >= 3 && positions > 0, "{name}: {stops} {positions}");
        }
    }

    /// A checkpoint names its board: one of another board, of the bare board, or counted with
    /// other symmetries is refused, and left as it was.
    #[test]
    fn a_checkpoint_of_one_board_is_refused_for_another() {
        use crate::Queen;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ckpt");
        let options = RunOptions {
            checkpoint: Some(path.clone()),
            shard: None,
        };
        let run = |problem: &Problem, unique: bool| {
            Counter::new(1).run_problem(problem, unique, &options)
        };
        let turning = Problem::with_blocks(9, [], [Queen::new(2, 3), Queen::new(6, 5)]).unwrap();
        run(&turning, true).unwrap();
        let before = std::fs::read(&path).unwrap();
        let other = Problem::with_blocks(9, [], [Queen::new(2, 3)]).unwrap();
        for (problem, unique, says) in [
            (&other, true, "was written for another board (board "),
            (
                &turning,
                false,
                "counts the solutions up to the board's 2 symmetries and this run every solution once",
            ),
            (
                &Problem::new(9).unwrap(),
                true,
                "was written for a board with fixed queens or blocked squares (board ",
            ),
        ] {
            let error = run(problem, unique).unwrap_err().to_string();
            assert!(error.contains(says), "{error}");
            assert_eq!(std::fs::read(&path).unwrap(), before);
        }
        // The file resumes its own board to the same count.
        let again = run(&turning, true).unwrap();
        assert_eq!(again.resumed, again.tasks);
    }

    #[test]
    fn a_device_count_stops_between_batches_and_resumes_inside_tasks() {
        let n = 13;
        let whole = Counter::new(2).run(n, &RunOptions::default()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let budget = (whole.nodes / 20) as u64;
        // A device that answers each batch at once, and one with two batches queued.
        for pipelined in [false, true] {
            let mut cpu = device::SplitOnCpu::default();
            cpu.pipelined = pipelined;
            let device = SharedDevice::new(cpu);
            let path = dir.path().join(format!("gpu-{pipelined}"));
            let (report, stops, positions) =
                count_in_stops(n, &path, budget, 6, Some(device.clone()));
            assert_eq!(report.total, whole.total);
            assert_eq!(report.nodes, whole.nodes, "pipelined: {pipelined}");
            assert!(stops >= 2 && positions > 0, "{stops} {positions}");
            // Positions written by the threads resume on the device, and the other way round.
            let path = dir.path().join(format!("mixed-{pipelined}"));
            let _ = count_in_stops(n, &path, budget, 6, None);
            let (report, _, _) = count_in_stops(n, &path, budget, 6, Some(device));
            assert_eq!(report.nodes, whole.nodes, "pipelined: {pipelined}");
        }
    }

    #[test]
    fn jobs_it_cannot_do_are_refused_up_front() {
        let counter = Counter::default();
        let problem = Problem::new(8).unwrap();
        assert!(counter.check(Job::List, &problem).is_err());
        assert!(counter.check(Job::Solve, &problem).is_err());
        let big = Problem::new(33).unwrap();
        assert_eq!(
            counter.check(Job::Count, &big).unwrap_err().to_string(),
            "the counter method handles n up to 32; n = 33 is too large"
        );
    }
}
