//! The device driver: a run's tasks cut into pieces and handed to a [`Device`] in batches
//! sized by time, one or two queued, each task's position told after every batch. O(pieces)
//! host work a batch besides the device's own; see [`drive`].

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{Device, DeviceError, SharedDevice};
use crate::engines::counter::kernel::TaskResult;
use crate::engines::counter::pieces::{self, Partial, Piece, Rest, Step};
use crate::engines::counter::tasks::TaskId;
use crate::runs::error::CounterError;

/// Counts tasks on `device` in pieces, from where each starts: takes the tasks `next` gives
/// (the n×n board's, `prefix_of` naming each one's prefix) and hands their pieces to the
/// device in batches sized to take about [`Device::batch_time`] each (from one piece up, at
/// most doubling from one batch to the next, never below [`Device::min_batch`]), telling
/// `on_step` where each task got after every batch and each finished task's result; returns
/// when `next` has no task left and every task is counted, when `stop` is raised (checked
/// between batches), or when `on_step` says to (returns false). The driver of
/// [`CountRun::run`](crate::runs::CountRun::run)'s device and of an MPI rank's.
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
