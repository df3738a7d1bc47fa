//! Rank 0's view of a running job, as `nqueens count` shows one: the tasks done of the whole
//! count (resumed ones included), the share of the *work* done and an ETA from the counter's
//! work model, the solutions so far, the rate and the time taken, as lines such as
//! `9723/10912 tasks · 33% of the work · ETA ~10 s · 14 solutions · 3.3 M nodes/s · 3 s`.
//!
//! [`Tracker`] keeps the books: when the job starts it estimates, on a thread of its own, the
//! queens each task still to count will place (the library's work model,
//! [`nqueens_solver::engines::counter::estimate::of_split_list`]: about a second of one core
//! at n = 27), and from then on takes each accepted result's estimate off what is left. It
//! reports the library's [`Progress`] snapshots to a [`ProgressSink`] at most every
//! [`REPORT_EVERY`]; [`log_sink`] is the sink the binary shows them with: a line on stderr
//! every so often (rank 0's stderr is a pipe under `mpirun` and `srun`, never a terminal, so
//! the line is never redrawn in place), after a quiet first second.
//!
//! The ETA times the model's nodes left at this run's node rate (the queens of the tasks
//! finished in this run over the time it has run). Tasks in flight count only when they
//! finish, so early on, while the first tasks are still running, the rate is low and the ETA
//! long; it settles as tasks finish.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nqueens_solver::engines::counter::estimate;
use nqueens_solver::engines::counter::{SplitList, TaskId};
use nqueens_solver::formats::human;
use nqueens_solver::{Progress, ProgressSink};

use crate::schedule::Sums;

/// How often (at most) a [`Tracker`] reports.
pub const REPORT_EVERY: Duration = Duration::from_millis(100);

/// The first line comes after this long, so short jobs stay quiet
/// (`NQUEENS_PROGRESS_DELAY_MS` overrides it, as for `nqueens count`).
pub const QUIET_START: Duration = Duration::from_secs(1);

/// Rank 0's progress books. See the [module documentation](self).
pub struct Tracker {
    sink: ProgressSink,
    tasks: u64,
    /// The tasks still to count when the job started, in order, and (once the model is
    /// ready) their estimated queens.
    pending: Vec<TaskId>,
    model: Option<Vec<f32>>,
    arriving: Option<Receiver<Option<Vec<f32>>>>,
    /// Tasks finished before the model was ready.
    early: Vec<TaskId>,
    /// The model's queens of the tasks not yet finished.
    left: f64,
    quit: Arc<AtomicBool>,
    last: Option<Instant>,
}

impl std::fmt::Debug for Tracker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tracker")
            .field("tasks", &self.tasks)
            .field("pending", &self.pending.len())
            .field("model", &self.model.is_some())
            .finish()
    }
}

impl Tracker {
    /// Books for a job over `list` whose checkpoint held the results of `recorded`, reporting
    /// to `sink`; starts estimating the other tasks' work.
    pub fn start(
        list: Arc<SplitList>,
        recorded: impl IntoIterator<Item = TaskId>,
        sink: ProgressSink,
    ) -> Self {
        let mut recorded: Vec<TaskId> = recorded.into_iter().collect();
        recorded.sort_unstable();
        let pending: Vec<TaskId> = list
            .ids()
            .filter(|id| recorded.binary_search(id).is_err())
            .collect();
        let tasks = list.len() as u64;
        let quit = Arc::new(AtomicBool::new(false));
        let (sender, arriving) = mpsc::channel();
        let (ids, stop) = (pending.clone(), Arc::clone(&quit));
        let spawned = std::thread::Builder::new()
            .name("work model".into())
            .spawn(move || {
                let _ = sender.send(estimate::of_split_list(&list, &ids, &stop));
            });
        Tracker {
            sink,
            tasks,
            pending,
            model: None,
            arriving: spawned.ok().map(|_| arriving),
            early: Vec::new(),
            left: 0.0,
            quit,
            last: None,
        }
    }

    /// Task `id` is counted (its result accepted).
    pub fn finished(&mut self, id: TaskId) {
        match &self.model {
            Some(model) => {
                if let Ok(at) = self.pending.binary_search(&id) {
                    self.left -= f64::from(model[at]);
                }
            }
            None => self.early.push(id),
        }
    }

    /// Reports a snapshot if [`REPORT_EVERY`] has passed since the last (or `now`): the
    /// whole count's `sums`, and the queens this run has placed.
    pub fn report(&mut self, sums: Sums, new_nodes: u128, now: bool) {
        if !now && self.last.is_some_and(|t| t.elapsed() < REPORT_EVERY) {
            return;
        }
        self.last = Some(Instant::now());
        self.take_model();
        self.sink.report(&Progress {
            done: sums.done,
            total: Some(self.tasks),
            solutions: sums.total,
            nodes: new_nodes,
            nodes_left: self.model.as_ref().map(|_| self.left.max(0.0) as u128),
            nodes_done: sums.nodes,
        });
    }

    /// Takes the model once its thread has it, and the early tasks off it.
    fn take_model(&mut self) {
        let Some(arriving) = &self.arriving else {
            return;
        };
        let model = match arriving.try_recv() {
            Ok(Some(model)) => model,
            Ok(None) | Err(mpsc::TryRecvError::Disconnected) => {
                self.arriving = None;
                return;
            }
            Err(mpsc::TryRecvError::Empty) => return,
        };
        self.arriving = None;
        self.left = model.iter().map(|&m| f64::from(m)).sum();
        self.model = Some(model);
        for id in std::mem::take(&mut self.early) {
            self.finished(id);
        }
    }
}

impl Drop for Tracker {
    fn drop(&mut self) {
        self.quit.store(true, Ordering::Relaxed);
    }
}

/// A sink that writes a line ([`line()`]) on stderr every `every`, the first after
/// [`QUIET_START`] (or `NQUEENS_PROGRESS_DELAY_MS`).
pub fn log_sink(every: Duration) -> ProgressSink {
    let quiet = std::env::var("NQUEENS_PROGRESS_DELAY_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(QUIET_START, Duration::from_millis);
    let start = Instant::now();
    let next = Mutex::new(quiet);
    ProgressSink::new(move |progress| {
        let elapsed = start.elapsed();
        let Ok(mut next) = next.lock() else {
            return;
        };
        if elapsed < *next {
            return;
        }
        *next = elapsed + every;
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{}", line(progress, elapsed));
        let _ = err.flush();
    })
}

/// One progress line (see the [module documentation](self)): the tasks of the whole count,
/// the share of the work and the ETA once the model is ready (else the share of the tasks),
/// the solutions, this run's node rate, the time taken.
pub fn line(p: &Progress, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64().max(1e-9);
    let total = p.total.unwrap_or(0);
    let mut parts = Vec::new();
    let rate = (p.nodes > 0).then(|| p.nodes as f64 / seconds);
    match p.nodes_left {
        Some(left) => {
            parts.push(format!("{}/{total} tasks", p.done));
            let done = p.nodes_done as f64;
            let share = done / (done + left as f64).max(1.0);
            parts.push(format!("{} of the work", human::share(share)));
            if let Some(rate) = rate {
                parts.push(format!("ETA ~{}", human::duration(left as f64 / rate)));
            }
        }
        None => {
            let percent = 100.0 * p.done as f64 / total.max(1) as f64;
            parts.push(format!("{}/{total} tasks ({percent:.0}%)", p.done));
        }
    }
    parts.push(format!("{} solutions", p.solutions));
    if let Some(rate) = rate {
        parts.push(format!("{} nodes/s", human::rate(rate)));
    }
    parts.push(human::duration(seconds));
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens_solver::engines::counter::TaskCounter;

    /// The line of `nqueens count`, word for word, with and without the model.
    #[test]
    fn lines_read_as_the_cli_s() {
        let at = |nodes_left| Progress {
            done: 9723,
            total: Some(10912),
            solutions: 14,
            nodes: 9_900_000,
            nodes_left,
            nodes_done: 10_000_000,
        };
        assert_eq!(
            line(&at(Some(20_000_000)), Duration::from_secs(3)),
            "9723/10912 tasks · 33% of the work · ETA ~6 s · 14 solutions · 3.3 M nodes/s · 3 s"
        );
        assert_eq!(
            line(&at(None), Duration::from_secs(3725)),
            "9723/10912 tasks (89%) · 14 solutions · 2.7 k nodes/s · 1 h 2 min"
        );
    }

    /// The model's work left is the estimate of the unfinished tasks: all of it at the start
    /// (resumed tasks excluded), nothing once every task is in, and the share of the work
    /// done about the real one midway.
    #[test]
    fn the_tracker_takes_finished_tasks_off_the_model() {
        let list = Arc::new(SplitList::new(12, 0));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = {
            let seen = Arc::clone(&seen);
            ProgressSink::new(move |p| seen.lock().unwrap().push(*p))
        };
        let ids: Vec<TaskId> = list.ids().collect();
        let (resumed, rest) = ids.split_at(ids.len() / 4);
        let mut tracker = Tracker::start(list.clone(), resumed.iter().copied(), sink);
        let mut counter = TaskCounter::default();
        let mut sums = Sums::default();
        let (half, _) = rest.split_at(rest.len() / 2);
        for &id in resumed.iter().chain(half) {
            let r = counter.count(&list, id).unwrap();
            sums.total += u128::from(r.total);
            sums.nodes += u128::from(r.nodes);
            sums.done += 1;
            if rest.contains(&id) {
                tracker.finished(id);
            }
        }
        // Wait for the model (a few milliseconds at n = 12).
        let deadline = Instant::now() + Duration::from_secs(30);
        while tracker.model.is_none() && Instant::now() < deadline {
            tracker.report(sums, 1, true);
            std::thread::sleep(Duration::from_millis(5));
        }
        let p = *seen.lock().unwrap().last().unwrap();
        assert_eq!((p.done, p.total), (sums.done, Some(ids.len() as u64)));
        let left = p.nodes_left.expect("the model is ready") as f64;
        let mut real_left = 0u64;
        for &id in &rest[half.len()..] {
            real_left += counter.count(&list, id).unwrap().nodes;
        }
        assert!(
            (left / real_left as f64 - 1.0).abs() < 0.05,
            "{left} vs {real_left}"
        );
        for &id in &rest[half.len()..] {
            tracker.finished(id);
        }
        tracker.report(sums, 1, true);
        let p = *seen.lock().unwrap().last().unwrap();
        assert!(p.nodes_left.unwrap() < 1000, "{:?}", p.nodes_left);
    }
}
