//! The two roles of a rank, over any transport: [`Coordination`] (rank 0, which also counts)
//! and [`work`] (every other rank). The MPI binary implements [`CoordinatorLink`] and
//! [`WorkerLink`] with point-to-point messages; the tests use channels between threads.
//!
//! Each role's main thread is the only one that talks to the transport. It waits on its own
//! pool's results for at most [`POLL`] at a time and checks for messages in between, so it
//! never spins on a core its workers need (a blocking MPI receive would: OpenMPI busy-polls).
//!
//! Rank 0 holds the checkpoint: a result is appended to it when it arrives, before anything
//! else happens to it, and so is a position of a task in flight (every rank sends those every
//! [`Settings::positions_every`]), so a job killed at any moment (any rank) loses only the
//! pieces counted since, and the same command resumes from the file.
//!
//! # Stopping
//!
//! Ctrl-C, or SIGTERM from `mpirun` or a scheduler, raises each rank's stop flag. A rank whose
//! flag is raised, or that gets a stop from rank 0, stops its workers (within milliseconds:
//! tasks are counted in pieces), sends rank 0 its finished tasks and where the others got,
//! and ends (the MPI binary then takes and drops rank 0's messages until rank 0 ends the job:
//! see [`wire`](crate::wire)). Rank 0, once its own flag is raised or some rank has stopped,
//! tells every rank still counting to stop, records its own workers' results and positions,
//! waits for the others' (at most [`STOP_WAIT`]), syncs the checkpoint and reports
//! [`MpiError::Interrupted`]: a resumed run goes on from those positions, on any number of
//! ranks, or in `nqueens count` (one checkpoint format).
//!
//! A time limit ([`Settings::time_limit`], `--time-limit`) stops the job the same way, from rank
//! 0, once that long has passed since it opened the checkpoint, and reports
//! [`MpiError::TimeLimit`] (the binary exits 3, as `nqueens count` at its limit).
//!
//! # Progress
//!
//! With [`Settings::progress`], rank 0 keeps a [`Tracker`] (module
//! [`progress`](crate::progress)): every accepted result is taken off the work model's
//! estimate, and a snapshot of the whole count goes to the sink at the start, every 100 ms
//! of its loop and at the end.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use nqueens_solver::engines::counter::pieces::PIECE_ROWS;
use nqueens_solver::engines::counter::{Partial, SplitList, TaskId, TaskResult};
use nqueens_solver::runs::checkpoint::POSITION_INTERVAL;
use nqueens_solver::runs::{Checkpoint, CounterError, Report as CountReport, Shard};

use nqueens_solver::ProgressSink;

use crate::pool::{Done, Pool, Workers};
use crate::progress::Tracker;
use crate::schedule::{Coordinator, Prefetch, RankStats, ScheduleError};
use crate::wire::{Batch, MAX_BATCH, MAX_RESULTS, Phase, Report, WireError};

/// The longest a main thread waits on its pool before it looks for messages again.
pub const POLL: Duration = Duration::from_millis(1);

/// The longest rank 0 waits, once it stops, for the other ranks' last results and positions
/// (each sends them within milliseconds of its stop; `mpirun` kills a job about a second after
/// its SIGTERM).
pub const STOP_WAIT: Duration = Duration::from_millis(500);

/// How every rank of a job counts.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The row tasks are cut into pieces at: the same on every rank (rank 0's, sent to all),
    /// since a position names pieces of one cut.
    pub cut: usize,
    /// The rank stops when this flag is raised (Ctrl-C, SIGTERM).
    pub stop: Option<Arc<AtomicBool>>,
    /// How often the positions of the tasks in flight go to rank 0's checkpoint (besides at a
    /// stop).
    pub positions_every: Duration,
    /// Rank 0 stops the job this long after it opened the checkpoint, as at an interrupt
    /// (every rank told to stop, the positions of the tasks in flight recorded), and reports
    /// [`MpiError::TimeLimit`].
    pub time_limit: Option<Duration>,
    /// Where rank 0 reports the job's progress (module [`progress`](crate::progress)).
    pub progress: Option<ProgressSink>,
}

impl Settings {
    /// Pieces of [`PIECE_ROWS`] rows, no stop flag, positions every [`POSITION_INTERVAL`].
    pub fn new(list: &SplitList) -> Self {
        Settings {
            cut: list.cut(PIECE_ROWS),
            stop: None,
            positions_every: POSITION_INTERVAL,
            time_limit: None,
            progress: None,
        }
    }

    fn stop_raised(&self) -> bool {
        self.stop.as_ref().is_some_and(|f| f.load(Ordering::SeqCst))
    }
}

/// How a rank other than 0 ended its part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every task it was given is counted and sent.
    Finished,
    /// It stopped (its flag, or rank 0's word) and sent where its tasks got.
    Stopped,
}

/// What can stop a distributed count.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MpiError {
    /// The checkpoint (reading, writing, or one of another count).
    #[error(transparent)]
    Counter(#[from] CounterError),
    /// A message that breaks the schedule (its words alone: `transparent`, so an error chain
    /// does not say them twice, once here and once as the cause).
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    /// A message that is not one.
    #[error(transparent)]
    Wire(#[from] WireError),
    /// The rank's workers failed: its device (a GPU), or a task given a position it does not
    /// have.
    #[error("{0}")]
    Workers(String),
    /// The stop flag was raised (Ctrl-C, or `mpirun` passing on SIGTERM), or a rank stopped:
    /// the checkpoint holds `saved` of the `tasks` tasks, and positions of `in_part` more.
    #[error("interrupted: {saved} of {tasks} tasks done, {in_part} more in part")]
    Interrupted {
        /// Tasks done (resumed or counted in this run), all recorded in the checkpoint if there
        /// is one.
        saved: u64,
        /// Tasks in the list.
        tasks: u64,
        /// Unfinished tasks with a position (some of their pieces done).
        in_part: u64,
    },
    /// The time limit ([`Settings::time_limit`]) was reached and the job stopped as at an
    /// interrupt: the checkpoint holds `saved` of the `tasks` tasks, and positions of
    /// `in_part` more.
    #[error("time limit reached: {saved} of {tasks} tasks done, {in_part} more in part")]
    TimeLimit {
        /// Tasks done (resumed or counted in this run), all recorded in the checkpoint if there
        /// is one.
        saved: u64,
        /// Tasks in the list.
        tasks: u64,
        /// Unfinished tasks with a position (some of their pieces done).
        in_part: u64,
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
    settings: Settings,
    checkpoint: Option<Checkpoint>,
    times: Option<TaskTimes>,
    tracker: Option<Tracker>,
    recorded: Vec<(TaskId, TaskResult)>,
    /// Where the checkpoint's unfinished tasks had got (positions of the job's cut only).
    positions: Vec<(TaskId, Partial)>,
    started: Instant,
}

impl Coordination {
    /// Opens (or creates) the checkpoint, refusing one of another n or task list, for a job
    /// run with `settings` (see [`run`](Self::run) for its stop flag). Done before the other
    /// ranks start, so that a refusal ends the job before any work. A position of another cut
    /// row than the job's names other pieces: that task starts over.
    pub fn open(
        list: Arc<SplitList>,
        checkpoint: Option<&Path>,
        settings: Settings,
    ) -> Result<Self, MpiError> {
        let started = Instant::now();
        let (checkpoint, recorded, positions) = match checkpoint {
            Some(path) => {
                let (file, records) = Checkpoint::open(path, &list.header(Shard::ALL))?;
                let positions = file
                    .positions()
                    .iter()
                    .filter(|(_, p)| p.cut as usize == settings.cut)
                    .copied()
                    .collect();
                (Some(file), records, positions)
            }
            None => (None, Vec::new(), Vec::new()),
        };
        let tracker = settings
            .progress
            .clone()
            .map(|sink| Tracker::start(list.clone(), recorded.iter().map(|&(id, _)| id), sink));
        Ok(Coordination {
            list,
            settings,
            checkpoint,
            times: None,
            tracker,
            recorded,
            positions,
            started,
        })
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
    /// records each result once and the positions of tasks in flight, until every task is
    /// done and every rank has said it is finished. Once the settings' stop flag is raised or
    /// a rank has stopped, it stops the job (module documentation) and returns
    /// [`MpiError::Interrupted`] within [`STOP_WAIT`] and a few milliseconds, the checkpoint
    /// synced.
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
        let list = self.list.clone();
        let ranks = link.ranks();
        let threads = workers.threads();
        let mut coordinator =
            Coordinator::new(list.len(), ranks, threads, &self.recorded, &self.positions)?;
        // Ranks that have finished or stopped (rank 0 is never waited for).
        let mut ended = vec![false; ranks];
        ended[0] = true;
        let mut stopping = false;
        let mut pool = Pool::with(list.clone(), workers, self.settings.cut);
        // Rank 0's own queue must outlast the longest gap between two turns of this loop (on a
        // loaded machine the loop's thread waits for a core too).
        let mut prefetch = Prefetch::new(workers.queue_slots());
        let (mut worst_gap, mut last_turn) = (Duration::ZERO, Instant::now());
        let (mut own_tasks, mut own_busy) = (0u32, Duration::ZERO);
        let mut own_exhausted = false;
        let mut last_positions = Instant::now();
        if let Some(tracker) = self.tracker.as_mut() {
            tracker.report(coordinator.sums(), 0, true);
        }
        loop {
            let interrupted = stopping || self.settings.stop_raised();
            let time_up = (self.settings.time_limit).is_some_and(|t| self.started.elapsed() >= t);
            if interrupted || time_up {
                let (saved, tasks, in_part) =
                    self.wind_down(link, pool, &mut coordinator, &mut ended)?;
                return Err(if interrupted {
                    MpiError::Interrupted {
                        saved,
                        tasks,
                        in_part,
                    }
                } else {
                    MpiError::TimeLimit {
                        saved,
                        tasks,
                        in_part,
                    }
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
                self.add(&mut coordinator, 0, &done)?;
            }
            if let Some(reason) = pool.failure() {
                return Err(MpiError::Workers(format!("rank 0: {reason}")));
            }
            if last_positions.elapsed() >= self.settings.positions_every {
                last_positions = Instant::now();
                for (id, partial) in pool.moved() {
                    self.moved(&mut coordinator, 0, id, &partial)?;
                }
            }
            while let Some((rank, words)) = link.poll() {
                let report = self.receive(&mut coordinator, rank, &words)?;
                match report.phase {
                    Phase::Finished => {
                        coordinator.finished(rank)?;
                        ended[rank] = true;
                    }
                    Phase::Stopped => {
                        ended[rank] = true;
                        stopping = true;
                    }
                    Phase::Counting if report.want > 0 => {
                        let batch = coordinator.assign(rank, report.want.min(MAX_BATCH))?;
                        link.send(rank, &Batch::Tasks(batch).encode());
                    }
                    Phase::Counting => {}
                }
            }
            if let Some(file) = self.checkpoint.as_mut() {
                file.sync_if_due()?;
            }
            if let Some(tracker) = self.tracker.as_mut() {
                tracker.report(coordinator.sums(), coordinator.new_nodes(), false);
            }
            if coordinator.is_complete() && pool.outstanding() == 0 && ended.iter().all(|&e| e) {
                break;
            }
        }
        let wall = self.started.elapsed();
        if let Some(tracker) = self.tracker.as_mut() {
            tracker.report(coordinator.sums(), coordinator.new_nodes(), true);
        }
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
            new_nodes: coordinator.new_nodes(),
            elapsed: wall,
        };
        Ok(Outcome {
            report,
            ranks: coordinator.rank_stats().to_vec(),
            wall,
        })
    }

    /// Stops the job (see the module documentation): every rank still counting is told to
    /// stop, rank 0's own workers are stopped, and every result and position that comes back
    /// within [`STOP_WAIT`] is recorded. Returns what the checkpoint holds: the tasks done, in
    /// the list, and in part.
    fn wind_down(
        &mut self,
        link: &mut impl CoordinatorLink,
        pool: Pool,
        coordinator: &mut Coordinator,
        ended: &mut [bool],
    ) -> Result<(u64, u64, u64), MpiError> {
        for (rank, _) in ended.iter().enumerate().filter(|&(_, &e)| !e) {
            link.send(rank, &Batch::Stop.encode());
        }
        let stopped = pool.stop();
        let recorded = stopped
            .done
            .iter()
            .try_for_each(|done| self.add(coordinator, 0, done))
            .and_then(|()| {
                stopped
                    .positions
                    .iter()
                    .try_for_each(|(id, partial)| self.moved(coordinator, 0, *id, partial))
            });
        recorded?;
        let deadline = Instant::now() + STOP_WAIT;
        while ended.contains(&false) && Instant::now() < deadline {
            let Some((rank, words)) = link.poll() else {
                std::thread::sleep(POLL);
                continue;
            };
            if self.receive(coordinator, rank, &words)?.phase != Phase::Counting {
                ended[rank] = true;
            }
        }
        Ok((
            coordinator.sums().done,
            self.list.len() as u64,
            coordinator.in_part(),
        ))
    }

    /// Reads a rank's report and records its results and positions.
    fn receive(
        &mut self,
        coordinator: &mut Coordinator,
        rank: usize,
        words: &[u64],
    ) -> Result<Report, MpiError> {
        let report = Report::decode(words, self.list.fingerprint(), self.list.len())?;
        coordinator.set_threads(rank, report.threads)?;
        for done in &report.results {
            self.add(coordinator, rank, done)?;
        }
        for (id, partial) in &report.positions {
            self.moved(coordinator, rank, *id, partial)?;
        }
        Ok(report)
    }

    /// Accepts one result and records it.
    fn add(
        &mut self,
        coordinator: &mut Coordinator,
        rank: usize,
        done: &Done,
    ) -> Result<(), MpiError> {
        coordinator.complete(rank, done.id, &done.result, done.busy)?;
        if let Some(tracker) = self.tracker.as_mut() {
            tracker.finished(done.id);
        }
        if let Some(file) = self.checkpoint.as_mut() {
            file.record(done.id, &done.result)?;
        }
        if let Some(times) = self.times.as_mut() {
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

    /// Accepts where a task in flight has got and records it.
    fn moved(
        &mut self,
        coordinator: &mut Coordinator,
        rank: usize,
        id: TaskId,
        partial: &Partial,
    ) -> Result<(), MpiError> {
        coordinator.moved(rank, id, *partial)?;
        if let Some(file) = self.checkpoint.as_mut() {
            file.record_position(id, partial)?;
        }
        Ok(())
    }
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
/// or a GPU), sends the results back (and the positions of its tasks in flight, every
/// [`Settings::positions_every`]), and returns once rank 0 has no more tasks and every result
/// is sent, or once it has stopped (its flag, or rank 0's word) and sent where its tasks got.
pub fn work(
    list: Arc<SplitList>,
    link: &mut impl WorkerLink,
    workers: impl Into<Workers>,
    settings: &Settings,
) -> Result<Ending, MpiError> {
    let workers = workers.into();
    let threads = workers.threads();
    let mut pool = Pool::with(list.clone(), &workers, settings.cut);
    let mut prefetch = Prefetch::new(workers.queue_slots());
    let (mut requested, mut exhausted, mut told_to_stop) = (None, false, false);
    let mut results = Vec::new();
    // The mean task time, over every task this rank counted.
    let (mut tasks, mut busy) = (0u32, Duration::ZERO);
    let mut last_positions = Instant::now();
    let send = |link: &mut _, want, phase, results, positions| {
        let reports = Report::split(list.fingerprint(), threads, want, phase, results, positions);
        for report in reports {
            WorkerLink::send(link, &report.encode());
        }
    };
    loop {
        if told_to_stop || settings.stop_raised() {
            let stopped = pool.stop();
            results.extend(stopped.done);
            send(link, 0, Phase::Stopped, results, stopped.positions);
            return Ok(Ending::Stopped);
        }
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
            return Err(MpiError::Workers(reason));
        }
        let positions = if last_positions.elapsed() >= settings.positions_every {
            last_positions = Instant::now();
            pool.moved()
        } else {
            Vec::new()
        };
        let want = if requested.is_some() || exhausted {
            0
        } else {
            prefetch.want(pool.queued()).min(MAX_BATCH)
        };
        let finished = exhausted && pool.outstanding() == 0;
        if want > 0 || finished || !results.is_empty() || !positions.is_empty() {
            let phase = if finished {
                Phase::Finished
            } else {
                Phase::Counting
            };
            send(link, want, phase, std::mem::take(&mut results), positions);
            if want > 0 {
                requested = Some(Instant::now());
            }
        }
        if finished {
            return Ok(Ending::Finished);
        }
        if let Some(words) = link.poll() {
            match Batch::decode(&words, list.len())? {
                Batch::Stop => told_to_stop = true,
                Batch::Tasks(batch) => {
                    if let (Some(sent), Some(mean)) = (requested.take(), busy.checked_div(tasks)) {
                        prefetch.observe(sent.elapsed(), mean);
                    }
                    exhausted = batch.is_empty();
                    pool.push(&batch);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error and its causes, each one's words as a chain prints them.
    fn chain(error: &(dyn std::error::Error + 'static)) -> Vec<String> {
        let mut texts = vec![error.to_string()];
        let mut cause = error.source();
        while let Some(next) = cause {
            texts.push(next.to_string());
            cause = next.source();
        }
        texts
    }

    #[test]
    fn a_schedule_or_wire_error_is_said_once_in_a_chain() {
        let wire = MpiError::from(WireError::Malformed(3));
        assert_eq!(chain(&wire), ["a message of 3 words that is not a report"]);
        let schedule = MpiError::from(ScheduleError::UnknownRank { rank: 5, ranks: 4 });
        assert_eq!(
            chain(&schedule),
            ["a message from rank 5, but the job has 4 ranks"]
        );
    }
}
