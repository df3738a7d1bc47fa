//! A long count as a job: what was `Counter::run_problem`, in parts of one job each. A run
//! prepares its work (the board's tasks, the shard, the cut row), opens its books (module
//! `records`: the checkpoint's finished tasks and positions, the tasks still to count), hands
//! the count to the search's driver (`engines::counter::drive`: worker threads or a device's
//! driver, batched hand-offs, progress, limits) with the checkpoint as its records, and
//! closes the books: the checkpoint synced, what it holds, the check against the published
//! counts, the report. Besides the count itself a run costs O(tasks) (its lists) and one
//! checkpoint line a finished task.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::checkpoint::Checkpoint;
use super::device::SharedDevice;
use super::error::{CounterError, check_published};
use super::records::{Books, CheckpointRecords};
use super::shard::{Shard, ShardResult};
use crate::board::Problem;
use crate::engine::{
    Budget, Counts, Descriptor, Engine, EngineError, Job, Limits, ProgressSink, Stats,
};
use crate::engines::counter::drive::{self, Driven, Plan, Workers};
use crate::engines::counter::estimate::estimate_until;
use crate::engines::counter::ledger::Ledger;
use crate::engines::counter::work::Work;
use crate::engines::counter::{Counter, Fingerprint, kernel, pieces};

/// Options of one [`CountRun::run`].
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Resume from and append to this checkpoint file.
    pub checkpoint: Option<PathBuf>,
    /// Count only this shard (`None`: all tasks).
    pub shard: Option<Shard>,
}

/// The outcome of [`CountRun::run`].
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

/// What a run found in its checkpoint on opening it: nothing (a new checkpoint), or where a
/// resumed count stands, over the whole shard.
#[derive(Clone, Debug, PartialEq)]
pub struct Opened {
    /// The checkpoint.
    pub path: PathBuf,
    /// Tasks in the shard.
    pub tasks: u64,
    /// Of those, finished before this run.
    pub done: u64,
    /// Unfinished ones this run resumes from a position (some of their pieces done).
    pub in_part: u64,
    /// The share of the shard's work done before this run, by the work model (module
    /// [`inspect`](super::inspect)); `None` for a new checkpoint.
    pub share: Option<f64>,
}

impl Opened {
    /// Whether the checkpoint held nothing yet (the run starts the count).
    pub fn is_new(&self) -> bool {
        self.done == 0 && self.in_part == 0
    }
}

/// Where a run says what it found in its checkpoint ([`CountRun::on_open`]).
#[derive(Clone)]
pub struct OpenedSink(pub Arc<dyn Fn(&Opened) + Send + Sync>);

impl std::fmt::Debug for OpenedSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OpenedSink")
    }
}

/// A long count: the counter's search ([`Counter`]) with a checkpoint, a shard, or a device.
/// See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct CountRun {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Where runs report progress.
    pub progress: Option<ProgressSink>,
    /// When to give up (time budget, stop flag, and a node budget over the queens this run
    /// places; checked at least every 100 ms): the loops stop within milliseconds, finished
    /// tasks stay in the checkpoint and the tasks in flight leave their positions there (the
    /// pieces they finished), so a stopped count resumes where it was.
    pub limits: Limits,
    /// Rows each piece of a task searches ([`pieces::PIECE_ROWS`]; see [`Counter::piece_rows`]).
    pub piece_rows: usize,
    /// Count on this device (a GPU) instead of the CPU threads: the tasks go to it in batches
    /// of about [`DEVICE_BATCH_TIME`](super::device::DEVICE_BATCH_TIME) each, and its results
    /// are recorded like the threads'.
    pub device: Option<SharedDevice>,
    /// Told what the checkpoint holds once the run has opened it, before it counts: a front
    /// end says "resuming" or "new checkpoint" from it, so a mistyped path is seen at once.
    pub on_open: Option<OpenedSink>,
    counter: Counter,
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

impl Default for CountRun {
    fn default() -> Self {
        CountRun::new(1)
    }
}

/// What a run counts: its work, and where its tasks are cut.
struct Prepared {
    work: Work,
    shard: Shard,
    /// Tasks in the shard.
    mine: usize,
    cut: usize,
}

impl CountRun {
    /// A run with `threads` worker threads (0 is taken as 1).
    pub fn new(threads: usize) -> Self {
        CountRun {
            threads: threads.max(1),
            progress: None,
            limits: Limits::default(),
            piece_rows: pieces::PIECE_ROWS,
            device: None,
            on_open: None,
            counter: Counter::new(threads),
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
    pub fn run(&mut self, n: u32, options: &RunOptions) -> Result<Report, CounterError> {
        let problem = Problem::new(n).map_err(EngineError::from)?;
        self.run_problem(&problem, true, options)
    }

    /// [`run`](Self::run) with a checkpoint file and no shard.
    pub fn run_with_checkpoint(
        &mut self,
        n: u32,
        checkpoint: &Path,
    ) -> Result<Report, CounterError> {
        self.run(
            n,
            &RunOptions {
                checkpoint: Some(checkpoint.to_path_buf()),
                shard: None,
            },
        )
    }

    /// Counts the solutions of `problem` (the whole board, or one with fixed queens or blocked
    /// squares), resuming from and appending to a checkpoint if asked. The whole board's
    /// report counts its classes too; a board with fixed queens or blocked squares counts its
    /// classes under its own symmetries only if `unique` (otherwise its report's `unique` is
    /// the total), and runs on the CPU threads (a device counts whole boards only), as one
    /// shard.
    pub fn run_problem(
        &mut self,
        problem: &Problem,
        unique: bool,
        options: &RunOptions,
    ) -> Result<Report, CounterError> {
        self.counter = Counter::new(self.threads);
        self.counter.progress = self.progress.clone();
        self.counter.limits = self.limits.clone();
        self.counter.piece_rows = self.piece_rows;
        self.saved = None;
        let started = Instant::now();
        let prepared = self.prepare(problem, unique, options)?;
        let Prepared {
            work,
            shard,
            mine,
            cut,
        } = &prepared;
        let (file, books) = Books::open(options.checkpoint.as_deref(), work, *shard, *cut)?;
        // The model of the tasks left, when a resume says its share of the work: the progress
        // reuses it rather than making it again.
        let mut model = None;
        if let (Some(sink), Some(path), Some(file)) =
            (&self.on_open, &options.checkpoint, file.as_ref())
        {
            let in_part = file
                .positions()
                .iter()
                .filter(|(id, p)| p.pieces > 0 && books.from.contains_key(id))
                .count() as u64;
            let mut opened = Opened {
                path: path.clone(),
                tasks: *mine as u64,
                done: books.sums.done,
                in_part,
                share: None,
            };
            if !opened.is_new() {
                // Under the run's own limits: a Ctrl-C or a time limit while the model is made
                // (seconds at n = 30) ends it, and the run then stops at once, its line saying
                // no share.
                let budget = Budget::start(&self.limits);
                model = estimate_until(work, &books.pending, || budget.check_now().is_err());
                opened.share = model.as_deref().map(|estimates| {
                    super::inspect::share_done(
                        estimates,
                        books.sums.nodes,
                        &books.pending,
                        &books.from,
                    )
                });
            }
            (sink.0)(&opened);
        }
        // The device counts the whole board's tasks; a masked board's run on the threads.
        let device = match work {
            Work::Whole(list) => self.device.as_ref().map(|device| (device, list)),
            Work::Masked(_) => None,
        };
        let on_device = device.is_some();
        let workers = match device {
            Some((device, list)) => Workers::Driver(Box::new(move |next, stop, on_step| {
                super::device::drive(device, list.n(), &|id| list.prefix(id), next, stop, on_step)
            })),
            None => Workers::Threads,
        };
        let plan = Plan {
            work,
            pending: &books.pending,
            from: &books.from,
            cut: *cut,
            sums: books.sums,
            tasks: *mine as u64,
            model: model.as_deref(),
        };
        let mut records = CheckpointRecords::new(file);
        let driven = drive::drive(&self.counter, &plan, workers, &mut records);
        let report = self.close(&prepared, &books, records.file, driven, started)?;
        let lanes = (!on_device).then(|| kernel::lanes_per_step(report.n, *cut));
        self.counter
            .record_stats(report.new_nodes, report.tasks - report.resumed, lanes);
        Ok(report)
    }

    /// Checks the job and the shard; the work of `problem` and where its tasks are cut.
    fn prepare(
        &self,
        problem: &Problem,
        unique: bool,
        options: &RunOptions,
    ) -> Result<Prepared, CounterError> {
        let job = if unique { Job::CountUnique } else { Job::Count };
        self.counter.check(job, problem)?;
        let n = problem.n();
        let work = Work::of(problem, unique);
        let shard = options.shard.unwrap_or(Shard::ALL);
        if shard.count() > 1 && !work.is_whole() {
            return Err(EngineError::Unsupported {
                method: self.counter.name(),
                job,
                reason: "a board with fixed queens or blocked squares is counted in one part (shards split the whole board)".into(),
            }
            .into());
        }
        if shard.count() > 1 && shard.count() as usize > work.len() {
            return Err(CounterError::TooManyShards {
                shard,
                n,
                tasks: work.len(),
            });
        }
        let mine = shard.len_of(work.len());
        let cut = pieces::cut_row(n, work.depth(), self.piece_rows);
        Ok(Prepared {
            work,
            shard,
            mine,
            cut,
        })
    }

    /// Closes the books of a count that ended: the checkpoint synced (best effort after a
    /// failure) and what it holds noted, a stop or a failure returned, the total checked
    /// against the published counts, the report.
    fn close(
        &mut self,
        prepared: &Prepared,
        books: &Books,
        mut file: Option<Checkpoint>,
        driven: Driven<'_, CounterError>,
        started: Instant,
    ) -> Result<Report, CounterError> {
        let Driven { mut ledger, end } = driven;
        let gave_up = match end {
            Ok(gave_up) => gave_up,
            Err(e) => {
                // Keep what was recorded before the failure (best effort: the failure may be
                // the disk itself).
                if let Some(file) = file.as_mut() {
                    let _ = file.sync();
                }
                return Err(e);
            }
        };
        let mine = prepared.mine as u64;
        if let Some(file) = file.as_mut() {
            ledger.write_positions(|id, partial| file.record_position(id, partial))?;
            file.sync()?;
            self.saved = Some(Saved {
                tasks: mine,
                done: ledger.sums.done,
                in_part: ledger.in_part(),
            });
        }
        if let Some(reason) = gave_up {
            // What the tasks counted to their end before the stop found: a lower bound.
            let found = ledger.sums.total;
            return Err(EngineError::stopped_by(self.counter.name(), reason, found).into());
        }
        self.check_published(prepared, books, &ledger)?;
        let sums = &ledger.sums;
        debug_assert_eq!(sums.done, mine);
        let report = Report {
            n: prepared.work.n(),
            shard: prepared.shard,
            fingerprint: prepared.work.fingerprint(),
            tasks: mine,
            resumed: books.sums.done,
            total: sums.total,
            unique: sums.unique,
            nodes: sums.nodes,
            new_nodes: ledger.new_nodes(),
            elapsed: started.elapsed(),
        };
        debug_assert!(report.new_nodes <= sums.nodes - books.sums.nodes);
        Ok(report)
    }

    /// The whole board's final count against the published table.
    fn check_published(
        &self,
        prepared: &Prepared,
        books: &Books,
        ledger: &Ledger,
    ) -> Result<(), CounterError> {
        if prepared.shard != Shard::ALL || !prepared.work.is_whole() {
            return Ok(());
        }
        let cause = if books.sums.done > 0 || !books.from.is_empty() {
            "a damaged checkpoint or a hardware fault (memory, CPU) is the likely cause: count again without the checkpoint, or on another machine"
        } else {
            "a hardware fault (memory, CPU) is the likely cause: count again on another machine"
        };
        let sums = &ledger.sums;
        check_published(
            "the count",
            prepared.work.n(),
            sums.total,
            Some(sums.unique),
            cause,
        )
    }
}

impl Engine for CountRun {
    fn descriptor(&self) -> &'static Descriptor {
        self.counter.descriptor()
    }

    fn check(&self, job: Job, problem: &Problem) -> Result<(), EngineError> {
        self.counter.check(job, problem)
    }

    /// By [`CountRun::run_problem`], with no checkpoint and no shard (on the device if one is
    /// set): a failure of the run's own (a device's, say) is the engine's [`EngineError::Failed`].
    fn count(&mut self, problem: &Problem, unique: bool) -> Result<Counts, EngineError> {
        let report = self
            .run_problem(problem, unique, &RunOptions::default())
            .map_err(|e| match e {
                CounterError::Engine(e) => e,
                other => EngineError::Failed(Box::new(other)),
            })?;
        Ok(Counts {
            total: report.total,
            unique: unique.then_some(report.unique),
        })
    }

    fn stats(&self) -> Stats {
        self.counter.stats()
    }
}
