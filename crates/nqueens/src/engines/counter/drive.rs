//! A count driven over its task list: the worker threads (or a driver of another kind, a
//! device's) count the tasks in pieces and hand what they did to the thread that runs the
//! count, which keeps the books ([`Ledger`]), shows progress, watches the limits and lets a
//! long run ([`Records`]: `crate::runs` keeps a checkpoint this way) record each step.
//!
//! # Hand-offs in batches
//!
//! A worker does not wake the bookkeeping thread once per task: it keeps its finished tasks
//! and its tasks' positions and hands them over in one message every [`HAND_OVER_INTERVAL`]
//! (and when it ends, so nothing is lost at a stop). A count of thousands of short tasks so
//! costs a few dozen wake-ups a second, not two per task (`count 16 -j1`, `strace -f -c`:
//! 3,900 to 9,800 futex calls when each task was handed over alone, 12 to 34 in batches;
//! system time from 15 % of the CPU time to under 1 %). A node budget ([`Limits::nodes`],
//! the tests' way to stop a count inside its tasks) is checked by the workers themselves
//! ([`NodeBudget`]): each adds the queens of every piece and task it counts to the run's sum
//! and raises the stop flag at the piece that reaches the budget, so on one thread a count
//! stops at the same piece whatever the machine's speed or load (when the books alone
//! checked, the worker counted on while they woke, and how far depended on the scheduler).
//! The books check it too after each step, and under a budget every step is handed over at
//! once, so that they see the queens that stopped the count. The bookkeeping thread
//! wakes at least every [`PROGRESS_INTERVAL`] whatever comes, so progress moves, limits and
//! a stop flag are seen within a fraction of a second (the workers look at the stop flag
//! every millisecond or so), and a long run's records are synced on time.
//!
//! The books cost O(1) a step; a hand-off costs one channel message (an allocation and, when
//! the bookkeeping thread sleeps, one wake-up).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{OnceLock, mpsc};
use std::time::{Duration, Instant};

use nqueens_support::LimitReached;

use super::Counter;
use super::estimate;
use super::kernel::{self, TaskResult};
use super::ledger::{Ledger, Overflow, Sums, start_of};
use super::pieces::{self, BadPosition, Partial, Step, TaskEnd};
use super::tasks::TaskId;
use super::work::Work;
use crate::engine::{Budget, Limits, Progress};

/// How often (at most) the counter reports progress; the bookkeeping thread wakes at least
/// this often.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// How long a worker keeps what it did before handing it over (see the
/// [module documentation](self)).
pub const HAND_OVER_INTERVAL: Duration = Duration::from_millis(50);

/// How long a run with a progress display counts before it estimates its work (module
/// `estimate`): shorter runs end before a display shows anything (it waits a second), and
/// the model is ready by then for the others.
const MODEL_DELAY: Duration = Duration::from_millis(500);

/// What a long run adds to a count's books: a plain count has [`NoRecords`]; `crate::runs`
/// writes a checkpoint.
pub trait Records {
    /// What recording can fail with (it also carries the count's own failures).
    type Error: From<Overflow> + From<BadPosition> + Send;
    /// Task `id` is counted (called before the books add it).
    fn finished(&mut self, id: TaskId, result: &TaskResult) -> Result<(), Self::Error>;
    /// Nothing came for [`PROGRESS_INTERVAL`].
    fn idle(&mut self) -> Result<(), Self::Error>;
    /// After each hand-off, while the count goes on: the books, to write positions from.
    fn tick(&mut self, ledger: &mut Ledger) -> Result<(), Self::Error>;
}

/// The records of a plain count: none.
pub struct NoRecords;

/// What a plain count can fail with on its own terms (in principle: a sum beyond `u128`
/// would take 2^64 tasks, and a plain count has no saved positions).
#[derive(Debug, thiserror::Error)]
pub enum PlainError {
    /// A sum beyond `u128`.
    #[error(transparent)]
    Overflow(#[from] Overflow),
    /// A position its task does not have.
    #[error(transparent)]
    BadPosition(#[from] BadPosition),
}

impl Records for NoRecords {
    type Error = PlainError;
    fn finished(&mut self, _: TaskId, _: &TaskResult) -> Result<(), PlainError> {
        Ok(())
    }
    fn idle(&mut self) -> Result<(), PlainError> {
        Ok(())
    }
    fn tick(&mut self, _: &mut Ledger) -> Result<(), PlainError> {
        Ok(())
    }
}

/// Tells each step of a task to the count; false: stop.
pub type OnStep<'s> = dyn FnMut(TaskId, Step) -> bool + 's;

/// Gives the next task to count and where it starts.
pub type NextTask<'s> = dyn FnMut() -> Option<(TaskId, Partial)> + 's;

/// A driver that counts the tasks instead of the CPU threads (a device's): it takes them
/// from its `NextTask`, looks at the stop flag, and tells every step.
pub type Driver<'d, E> =
    Box<dyn FnOnce(&mut NextTask<'_>, &AtomicBool, &mut OnStep<'_>) -> Result<(), E> + Send + 'd>;

/// Who counts the tasks.
pub enum Workers<'d, E> {
    /// The CPU threads ([`Counter::threads`], at most one per task).
    Threads,
    /// A driver of another kind.
    Driver(Driver<'d, E>),
}

/// What a count is asked to do.
pub struct Plan<'a> {
    /// The tasks.
    pub work: &'a Work,
    /// The tasks to count, in id order.
    pub pending: &'a [TaskId],
    /// Where unfinished tasks had got (saved positions at `cut`).
    pub from: &'a HashMap<TaskId, Partial>,
    /// The row tasks are cut into pieces at.
    pub cut: usize,
    /// Over the tasks finished before (read back from a checkpoint).
    pub sums: Sums,
    /// Tasks in the count, finished ones included.
    pub tasks: u64,
    /// The work model's estimates of `pending`, in order, when the caller has made them
    /// already (a resume that said its share of the work): the progress takes them instead of
    /// making its own.
    pub model: Option<&'a [f32]>,
}

/// How a count ended: its books, and the limit that stopped it or a failure.
pub struct Driven<'a, E> {
    /// The books.
    pub ledger: Ledger<'a>,
    /// `Ok(None)`: every task counted; `Ok(Some(limit))`: stopped at a limit, the tasks in
    /// flight at their last positions.
    pub end: Result<Option<LimitReached>, E>,
}

/// A worker's message: steps of tasks, or a failure that ends the count.
type Message<E> = Result<Vec<(TaskId, Step)>, E>;

/// Counts `plan` with `counter`'s threads, progress and limits (or with `workers`' driver),
/// telling `records` every step. See the [module documentation](self).
pub fn drive<'a, R: Records>(
    counter: &Counter,
    plan: &Plan<'a>,
    workers: Workers<'_, R::Error>,
    records: &mut R,
) -> Driven<'a, R::Error>
where
    R::Error: Send,
{
    let model = OnceLock::new();
    if let Some(estimates) = plan.model {
        let _ = model.set(estimates.to_vec());
    }
    let mut books = Books {
        ledger: Ledger::new(plan.cut, plan.from, plan.sums, plan.pending),
        counter,
        tasks: plan.tasks,
        budget: Budget::start(&counter.limits),
        last_report: Instant::now(),
    };
    books.report();
    let stop = AtomicBool::new(false);
    // Raised when the books close, so that the model's thread ends too.
    let quit = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<Message<R::Error>>();
    let (until_quiet_ends, quiet) = mpsc::channel::<()>();
    let hand_over = match counter.limits.nodes {
        Some(_) => Duration::ZERO,
        None => HAND_OVER_INTERVAL,
    };
    let next = AtomicUsize::new(0);
    let budget = counter.limits.nodes.map(NodeBudget::new);
    let end = std::thread::scope(|scope| {
        let (stop, quit, model, next, budget) = (&stop, &quit, &model, &next, budget.as_ref());
        if counter.progress.is_some() && !plan.pending.is_empty() && model.get().is_none() {
            scope.spawn(move || {
                // Only for runs that last: a display shows nothing in their first second.
                if quiet.recv_timeout(MODEL_DELAY) == Err(mpsc::RecvTimeoutError::Timeout) {
                    if let Some(estimates) = estimate::estimate(plan.work, plan.pending, quit) {
                        let _ = model.set(estimates);
                    }
                }
            });
        }
        match workers {
            Workers::Driver(driver) => {
                let sender = sender.clone();
                scope.spawn(move || {
                    let mut next = plan
                        .pending
                        .iter()
                        .map(|&id| (id, start_of(plan.from, id, plan.cut)));
                    let driven = driver(&mut || next.next(), stop, &mut |id, step| {
                        sender.send(Ok(vec![(id, step)])).is_ok()
                    });
                    if let Err(e) = driven {
                        let _ = sender.send(Err(e));
                    }
                });
            }
            Workers::Threads => {
                for _ in 0..counter.threads.min(plan.pending.len()) {
                    let sender = sender.clone();
                    scope.spawn(move || {
                        count_on_thread(plan, next, stop, hand_over, budget, &sender);
                    });
                }
            }
        }
        drop(sender);
        let end = books.listen(&receiver, records, stop, model);
        quit.store(true, Ordering::Relaxed);
        drop(until_quiet_ends);
        end
    });
    if matches!(end, Ok(None)) {
        books.report();
    }
    Driven {
        ledger: books.ledger,
        end,
    }
}

/// A node budget as the worker threads keep it: the queens this run placed, summed as the
/// books sum them (a task's queens beyond where this run started it), and the limit. The
/// worker whose piece or task reaches the limit raises the stop flag itself, so its task stops
/// at the next piece (see the [module documentation](self)).
struct NodeBudget {
    limit: u64,
    spent: AtomicU64,
}

impl NodeBudget {
    fn new(limit: u64) -> Self {
        NodeBudget {
            limit,
            spent: AtomicU64::new(0),
        }
    }

    /// Adds `nodes` to the run's sum; at the limit, raises `stop`.
    fn spend(&self, nodes: u64, stop: &AtomicBool) {
        let spent = self
            .spent
            .fetch_add(nodes, Ordering::Relaxed)
            .saturating_add(nodes);
        if spent >= self.limit {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// One worker thread: takes the next pending task until none is left or `stop` is raised,
/// counts it in pieces, and hands its steps over every `hand_over` (and when it ends); a
/// task's position, every [`PROGRESS_INTERVAL`], goes over at once. Under a node budget it
/// adds each piece's and task's queens to it.
fn count_on_thread<E: From<BadPosition>>(
    plan: &Plan,
    next: &AtomicUsize,
    stop: &AtomicBool,
    hand_over: Duration,
    budget: Option<&NodeBudget>,
    sender: &mpsc::Sender<Message<E>>,
) {
    let n = plan.work.n();
    let mut scratch = Box::<kernel::Scratch>::default();
    let mut told = Instant::now();
    let mut handed = Instant::now();
    let mut steps = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let Some(&id) = plan.pending.get(next.fetch_add(1, Ordering::Relaxed)) else {
            break;
        };
        let start = start_of(plan.from, id, plan.cut);
        let prefix = plan.work.prefix(id);
        // The task's queens this run has added to the budget so far.
        let mut spent = 0;
        let end = pieces::count_task(
            plan.work.board(prefix),
            n,
            id,
            prefix,
            &start,
            stop,
            &mut scratch,
            &mut |partial| {
                if let Some(budget) = budget {
                    let now = partial.found.nodes - start.found.nodes;
                    budget.spend(now - spent, stop);
                    spent = now;
                }
                // Now and then, where the task has got (for progress, and for the
                // checkpoint's positions), handed over at once: a task may last hours.
                if told.elapsed() >= PROGRESS_INTERVAL {
                    told = Instant::now();
                    steps.push((id, Step::Moved(*partial)));
                    handed = told;
                    let _ = sender.send(Ok(std::mem::take(&mut steps)));
                }
            },
        );
        match end {
            Ok(TaskEnd::Done(result)) => {
                if let Some(budget) = budget {
                    budget.spend(result.nodes - start.found.nodes - spent, stop);
                }
                steps.push((id, Step::Done(result)));
            }
            Ok(TaskEnd::Stopped(partial)) => steps.push((id, Step::Moved(partial))),
            Err(e) => {
                let _ = sender.send(Ok(std::mem::take(&mut steps)));
                let _ = sender.send(Err(e.into()));
                return;
            }
        }
        if handed.elapsed() >= hand_over {
            handed = Instant::now();
            if sender.send(Ok(std::mem::take(&mut steps))).is_err() {
                return;
            }
        }
    }
    if !steps.is_empty() {
        let _ = sender.send(Ok(steps));
    }
}

/// The bookkeeping thread's state.
struct Books<'a, 'c> {
    ledger: Ledger<'a>,
    counter: &'c Counter,
    /// Tasks in the count.
    tasks: u64,
    budget: Budget,
    last_report: Instant,
}

impl Books<'_, '_> {
    /// Shows progress: the tasks done of all the count's tasks (those finished before a resume
    /// included, as the share of the work is), and the queens of this run only, so that the
    /// rates are right on resume.
    fn report(&self) {
        if let Some(sink) = &self.counter.progress {
            let ledger = &self.ledger;
            sink.report(&Progress {
                done: ledger.sums.done,
                total: Some(self.tasks),
                solutions: ledger.sums.total,
                nodes: ledger.new_nodes(),
                nodes_left: ledger.nodes_left(),
                nodes_done: ledger.nodes_done(),
            });
        }
    }

    /// Takes the workers' messages until they have all ended; raises `stop` at a limit or
    /// a failure (and after a failure returns at once).
    fn listen<R: Records>(
        &mut self,
        receiver: &mpsc::Receiver<Message<R::Error>>,
        records: &mut R,
        stop: &AtomicBool,
        model: &OnceLock<Vec<f32>>,
    ) -> Result<Option<LimitReached>, R::Error> {
        let mut gave_up = None;
        loop {
            // Wake at least every PROGRESS_INTERVAL, so that records are synced on time
            // (and progress shown) even while every task runs for minutes.
            let taken = match receiver.recv_timeout(PROGRESS_INTERVAL) {
                Ok(Err(e)) => Err(e),
                Ok(Ok(steps)) => self.take(&steps, records),
                Err(mpsc::RecvTimeoutError::Timeout) => records.idle(),
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            if let Err(e) = taken {
                stop.store(true, Ordering::Relaxed);
                return Err(e);
            }
            if gave_up.is_some() {
                // Waiting for the workers: each ends within milliseconds and says where its
                // task got.
                continue;
            }
            gave_up = self.reached(&self.counter.limits);
            if gave_up.is_some() {
                // Finished tasks are recorded; the ones in flight say where they got.
                stop.store(true, Ordering::Relaxed);
                continue;
            }
            if let Err(e) = records.tick(&mut self.ledger) {
                stop.store(true, Ordering::Relaxed);
                return Err(e);
            }
            if self.last_report.elapsed() >= PROGRESS_INTERVAL {
                if let Some(estimates) = model.get() {
                    self.ledger.adopt(estimates);
                }
                self.report();
                self.last_report = Instant::now();
            }
        }
        // A limit met by the message that finished the last task stopped nothing: every
        // task is counted, and the count is the answer.
        Ok(gave_up.filter(|_| self.ledger.sums.done < self.tasks))
    }

    /// Books the steps a worker handed over, recording each finished task first.
    fn take<R: Records>(
        &mut self,
        steps: &[(TaskId, Step)],
        records: &mut R,
    ) -> Result<(), R::Error> {
        for &(id, step) in steps {
            match step {
                Step::Done(result) => {
                    records.finished(id, &result)?;
                    self.ledger.finish(id, &result)?;
                }
                Step::Moved(partial) => self.ledger.moved(id, partial),
            }
        }
        Ok(())
    }

    /// The limit reached, if any: time, the stop flag, or the node budget over this run's
    /// queens.
    fn reached(&mut self, limits: &Limits) -> Option<LimitReached> {
        self.budget.check_now().err().or_else(|| {
            limits
                .nodes
                .filter(|&limit| self.ledger.new_nodes() >= u128::from(limit))
                .map(|_| LimitReached::Nodes)
        })
    }
}
