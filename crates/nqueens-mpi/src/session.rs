//! The two roles of a rank, over any transport: [`Coordination`] (rank 0, which also counts)
//! and [`work`] (every other rank). The MPI binary implements [`CoordinatorLink`] and
//! [`WorkerLink`] with point-to-point messages; the tests use channels between threads.
//!
//! Each role's main thread is the only one that talks to the transport. It waits on its own
//! pool's results for at most [`POLL`] at a time and checks for messages in between, so it
//! never spins on a core its workers need (a blocking MPI receive would: OpenMPI busy-polls).
//!
//! Rank 0 holds the checkpoint: a result is appended to it when it arrives, before anything
//! else happens to it, so a job killed at any moment (any rank) loses only the tasks in
//! flight, and the same command resumes from the file.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use nqueens::engines::counter::{
    Checkpoint, CounterError, Report as CountReport, Shard, SplitList, TaskId, TaskResult,
};

use crate::pool::{Done, Pool, Workers};
use crate::schedule::{Coordinator, Prefetch, RankStats, ScheduleError};
use crate::wire::{self, MAX_BATCH, MAX_RESULTS, Report, WireError};

/// The longest a main thread waits on its pool before it looks for messages again.
pub const POLL: Duration = Duration::from_millis(1);

/// What can stop a distributed count.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MpiError {
    /// The checkpoint (reading, writing, or one of another count).
    #[error(transparent)]
    Counter(#[from] CounterError),
    /// A message that breaks the schedule.
    #[error("{0}")]
    Schedule(#[from] ScheduleError),
    /// A message that is not one.
    #[error("{0}")]
    Wire(#[from] WireError),
    /// The rank's device (a GPU) failed.
    #[error("{0}")]
    Device(String),
    /// The stop flag was raised (Ctrl-C, or `mpirun` passing on SIGTERM): the checkpoint
    /// holds `saved` of the `tasks` tasks.
    #[error("interrupted: {saved} of {tasks} tasks done")]
    Interrupted {
        /// Tasks done (resumed or counted in this run), all recorded in the checkpoint if there
        /// is one.
        saved: u64,
        /// Tasks in the list.
        tasks: u64,
    },
    /// Writing the task times failed.
    #[error("{}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// Rank 0's side of the transport.
pub trait CoordinatorLink {
    /// Ranks in the job, rank 0 included.
    fn ranks(&self) -> usize;
    /// A message from some rank, if one has arrived.
    fn poll(&mut self) -> Option<(usize, Vec<u64>)>;
    /// Sends a batch to a rank.
    fn send(&mut self, rank: usize, words: &[u64]);
}

/// Another rank's side of the transport.
pub trait WorkerLink {
    /// Sends a report to rank 0.
    fn send(&mut self, words: &[u64]);
    /// A batch from rank 0, if one has arrived.
    fn poll(&mut self) -> Option<Vec<u64>>;
}

/// What a finished distributed count found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The count, as `nqueens count` reports it.
    pub report: CountReport,
    /// Per-rank figures of this run.
    pub ranks: Vec<RankStats>,
    /// Wall time of this run (from the checkpoint opened to the last result).
    pub wall: Duration,
}

/// Rank 0: the checkpoint opened and the schedule set up, ready to [`run`](Self::run).
#[derive(Debug)]
pub struct Coordination {
    list: Arc<SplitList>,
    checkpoint: Option<Checkpoint>,
    times: Option<TaskTimes>,
    recorded: Vec<(TaskId, TaskResult)>,
    started: Instant,
    stop: Option<Arc<AtomicBool>>,
}

impl Coordination {
    /// Opens (or creates) the checkpoint, refusing one of another n or task list. Done before
    /// the other ranks start, so that a refusal ends the job before any work.
    pub fn open(list: Arc<SplitList>, checkpoint: Option<&Path>) -> Result<Self, MpiError> {
        let started = Instant::now();
        let (checkpoint, recorded) = match checkpoint {
            Some(path) => {
                let (file, records) = Checkpoint::open(path, &list.header(Shard::ALL))?;
                (Some(file), records)
            }
            None => (None, Vec::new()),
        };
        Ok(Coordination {
            list,
            checkpoint,
            times: None,
            recorded,
            started,
            stop: None,
        })
    }

    /// Stops the count when `flag` is raised: [`run`](Self::run) then returns
    /// [`MpiError::Interrupted`] at its next turn (within [`POLL`] and one message), with the
    /// checkpoint synced and without waiting for the tasks in flight (they are lost, as in a
    /// killed job).
    pub fn stop_when(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }

    /// Writes one line per task counted in this run to `path`: `ID RANK SECONDS NODES`, in
    /// the order results arrive (after a `#` comment line naming the count). The data for
    /// simulating schedules of other sizes.
    pub fn record_task_times(&mut self, path: &Path) -> Result<(), MpiError> {
        let io_error = |source| MpiError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = BufWriter::new(File::create(path).map_err(io_error)?);
        writeln!(
            file,
            "# nqueens-mpi task times: n={} depth={} tasks={} task-list={}; ID RANK SECONDS NODES",
            self.list.n(),
            self.list.depth(),
            self.list.len(),
            self.list.fingerprint()
        )
        .map_err(io_error)?;
        self.times = Some(TaskTimes {
            path: path.to_path_buf(),
            file,
        });
        Ok(())
    }

    /// Runs the count: hands out tasks, counts on its own `workers` (threads or a GPU),
    /// records each result once, until every task is done and every rank has said it is
    /// finished.
    pub fn run(
        mut self,
        link: &mut impl CoordinatorLink,
        workers: impl Into<Workers>,
    ) -> Result<Outcome, MpiError> {
        let mut result = self.schedule(link, &workers.into());
        if let Some(times) = self.times.as_mut() {
            if let (Ok(_), Err(e)) = (&result, times.file.flush()) {
                result = Err(times.io_error(e));
            }
        }
        if let Some(file) = self.checkpoint.as_mut() {
            // Keep what was recorded, also on the way out of a failure (best effort then).
            let synced = file.sync();
            if result.is_ok() {
                synced?;
            }
        }
        result
    }

    fn schedule(
        &mut self,
        link: &mut impl CoordinatorLink,
        workers: &Workers,
    ) -> Result<Outcome, MpiError> {
        let list = &self.list;
        let ranks = link.ranks();
        let threads = workers.threads();
        let mut coordinator = Coordinator::new(list.len(), ranks, threads, &self.recorded)?;
        let mut finished = vec![false; ranks];
        let mut pool = Pool::with(list.clone(), workers);
        // Rank 0's own queue must outlast the longest gap between two turns of this loop (on a
        // loaded machine the loop's thread waits for a core too).
        let mut prefetch = Prefetch::new(workers.queue_slots());
        let (mut worst_gap, mut last_turn) = (Duration::ZERO, Instant::now());
        let (mut own_tasks, mut own_busy) = (0u32, Duration::ZERO);
        let mut own_exhausted = false;
        let checkpoint = &mut self.checkpoint;
        let times = &mut self.times;
        loop {
            if self.stop.as_ref().is_some_and(|f| f.load(Ordering::SeqCst)) {
                pool.detach();
                return Err(MpiError::Interrupted {
                    saved: coordinator.sums().done,
                    tasks: list.len() as u64,
                });
            }
            worst_gap = worst_gap.max(last_turn.elapsed());
            last_turn = Instant::now();
            if let Some(mean) = own_busy.checked_div(own_tasks) {
                prefetch.observe(worst_gap, mean);
            }
            // Rank 0's own threads first: keep their queue full.
            if !own_exhausted {
                let want = prefetch.want(pool.queued());
                if want > 0 {
                    let batch = coordinator.assign(0, want)?;
                    own_exhausted = batch.is_empty();
                    pool.push(&batch);
                }
            }
            let mut waited = false;
            while let Some(done) = pool.next(if waited { Duration::ZERO } else { POLL }) {
                waited = true;
                own_tasks += 1;
                own_busy += done.busy;
                add(&mut coordinator, checkpoint, times, 0, &done)?;
            }
            if let Some(reason) = pool.failure() {
                return Err(MpiError::Device(format!("rank 0: {reason}")));
            }
            while let Some((rank, words)) = link.poll() {
                let report = Report::decode(&words, list.fingerprint(), list.len())?;
                coordinator.set_threads(rank, report.threads)?;
                for done in &report.results {
                    add(&mut coordinator, checkpoint, times, rank, done)?;
                }
                if report.finished {
                    coordinator.finished(rank)?;
                    finished[rank] = true;
                } else if report.want > 0 {
                    let batch = coordinator.assign(rank, report.want.min(MAX_BATCH))?;
                    link.send(rank, &wire::encode_batch(&batch));
                }
            }
            if let Some(file) = checkpoint.as_mut() {
                file.sync_if_due()?;
            }
            if coordinator.is_complete()
                && pool.outstanding() == 0
                && finished.iter().skip(1).all(|&f| f)
            {
                break;
            }
        }
        let wall = self.started.elapsed();
        let sums = coordinator.sums();
        let resumed = coordinator.resumed();
        let report = CountReport {
            n: list.n(),
            shard: Shard::ALL,
            fingerprint: list.fingerprint(),
            tasks: list.len() as u64,
            resumed: resumed.done,
            total: sums.total,
            unique: sums.unique,
            nodes: sums.nodes,
            new_nodes: sums.nodes - resumed.nodes,
            elapsed: wall,
        };
        Ok(Outcome {
            report,
            ranks: coordinator.rank_stats().to_vec(),
            wall,
        })
    }
}

/// Accepts one result and records it.
fn add(
    coordinator: &mut Coordinator,
    checkpoint: &mut Option<Checkpoint>,
    times: &mut Option<TaskTimes>,
    rank: usize,
    done: &Done,
) -> Result<(), MpiError> {
    coordinator.complete(rank, done.id, &done.result, done.busy)?;
    if let Some(file) = checkpoint.as_mut() {
        file.record(done.id, &done.result)?;
    }
    if let Some(times) = times.as_mut() {
        writeln!(
            times.file,
            "{} {rank} {:.9} {}",
            done.id,
            done.busy.as_secs_f64(),
            done.result.nodes
        )
        .map_err(|e| times.io_error(e))?;
    }
    Ok(())
}

/// The `--task-times` file.
#[derive(Debug)]
struct TaskTimes {
    path: PathBuf,
    file: BufWriter<File>,
}

impl TaskTimes {
    fn io_error(&self, source: std::io::Error) -> MpiError {
        MpiError::Io {
            path: self.path.clone(),
            source,
        }
    }
}

/// Every rank but 0: asks for batches ahead of need, counts them on its `workers` (threads
/// or a GPU), sends the results back, and returns once rank 0 has no more tasks and every
/// result is sent.
pub fn work(
    list: Arc<SplitList>,
    link: &mut impl WorkerLink,
    workers: impl Into<Workers>,
) -> Result<(), MpiError> {
    let workers = workers.into();
    let threads = workers.threads();
    let mut pool = Pool::with(list.clone(), &workers);
    let mut prefetch = Prefetch::new(workers.queue_slots());
    let (mut requested, mut exhausted) = (None, false);
    let mut results = Vec::new();
    // The mean task time, over every task this rank counted.
    let (mut tasks, mut busy) = (0u32, Duration::ZERO);
    loop {
        if let Some(done) = pool.next(POLL) {
            results.push(done);
            while results.len() < MAX_RESULTS {
                match pool.next(Duration::ZERO) {
                    Some(done) => results.push(done),
                    None => break,
                }
            }
            tasks += results.len() as u32;
            busy += results.iter().map(|d| d.busy).sum::<Duration>();
        }
        if let Some(reason) = pool.failure() {
            return Err(MpiError::Device(reason));
        }
        let want = if requested.is_some() || exhausted {
            0
        } else {
            prefetch.want(pool.queued()).min(MAX_BATCH)
        };
        let finished = exhausted && pool.outstanding() == 0;
        if want > 0 || finished || !results.is_empty() {
            let report = Report {
                fingerprint: list.fingerprint(),
                threads,
                want,
                finished,
                results: std::mem::take(&mut results),
            };
            link.send(&report.encode());
            if want > 0 {
                requested = Some(Instant::now());
            }
        }
        if finished {
            return Ok(());
        }
        if let Some(words) = link.poll() {
            let batch = wire::decode_batch(&words, list.len())?;
            if let (Some(sent), Some(mean)) = (requested.take(), busy.checked_div(tasks)) {
                prefetch.observe(sent.elapsed(), mean);
            }
            exhausted = batch.is_empty();
            pool.push(&batch);
        }
    }
}
