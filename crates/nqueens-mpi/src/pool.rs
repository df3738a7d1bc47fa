//! The workers of one rank: a queue of tasks in, results with their times out, and where the
//! tasks in flight have got.
//!
//! The rank's main thread (the only one that talks to the network) pushes the batches it gets
//! from the coordinator and takes results as they come; each worker thread takes the next task
//! from the queue and counts it in pieces ([`TaskCounter::count_from`]) from where the batch
//! says it starts, telling the main thread where it has got about ten times a second, and sends
//! back the id, the result and the time the task took. [`Pool::stop`] raises the workers'
//! stop flag: each ends within milliseconds, and the positions of the tasks they leave in part
//! come back with the results that were done. On a GPU ([`Workers::Device`]) one thread feeds
//! the queued tasks to the device in pieces, in batches of about a quarter of a second
//! ([`device::drive`], the driver of `nqueens count --device gpu`), so it stops between two
//! batches and says where its task in part got, as a thread does; a task's time is the time
//! since the previous task ended. Nothing here knows about MPI.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use nqueens_solver::engines::counter::pieces::Step;
use nqueens_solver::engines::counter::{
    Partial, SplitList, TaskCounter, TaskEnd, TaskId, TaskResult,
};
use nqueens_solver::runs::{SharedDevice, device};

/// How often (at most) a worker thread says where its task has got.
const MOVED_INTERVAL: Duration = Duration::from_millis(100);

/// What counts a rank's tasks.
#[derive(Clone, Debug)]
pub enum Workers {
    /// This many CPU threads (0 is taken as 1).
    Threads(usize),
    /// One device (a GPU), fed by one thread.
    Device(SharedDevice),
}

/// The queue a device's rank keeps filled, in threads' worth ([`Workers::queue_slots`]): a
/// device's batches take the pieces of many tasks, so its queue must hold many.
const DEVICE_QUEUE_SLOTS: usize = 256;

impl Workers {
    /// The threads the schedule and the statistics count this rank as (a device is one).
    pub fn threads(&self) -> usize {
        match self {
            Workers::Threads(threads) => (*threads).max(1),
            Workers::Device(_) => 1,
        }
    }

    /// The workers the rank's prefetch keeps tasks queued for: its threads, or for a device
    /// enough that each batch holds hundreds of tasks.
    pub fn queue_slots(&self) -> usize {
        match self {
            Workers::Threads(_) => self.threads(),
            Workers::Device(_) => DEVICE_QUEUE_SLOTS,
        }
    }
}

impl From<usize> for Workers {
    fn from(threads: usize) -> Self {
        Workers::Threads(threads)
    }
}

/// One finished task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Done {
    /// The task.
    pub id: TaskId,
    /// Its result.
    pub result: TaskResult,
    /// How long counting it took.
    pub busy: Duration,
}

/// A task to count, and where it starts.
type Start = (TaskId, Partial);

#[derive(Default)]
struct Queue {
    tasks: VecDeque<Start>,
    closed: bool,
    /// Why the workers stopped, if they failed (a device, or a position a task lacks).
    failure: Option<String>,
}

type Shared = Arc<(Mutex<Queue>, Condvar)>;

/// What a worker tells the main thread.
enum Event {
    /// A task has got this far (it goes on, or it was stopped there).
    Moved(TaskId, Partial),
    /// A task is counted.
    Done(Done),
}

/// What [`Pool::stop`] hands back: the tasks finished before the workers stopped, and where
/// the ones left in part got (those that got further than they were handed out at).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stopped {
    /// Finished tasks not taken yet.
    pub done: Vec<Done>,
    /// Positions of unfinished tasks not taken yet.
    pub positions: Vec<(TaskId, Partial)>,
}

/// A rank's worker threads. See the [module documentation](self).
pub struct Pool {
    shared: Shared,
    stop: Arc<AtomicBool>,
    events: Receiver<Event>,
    handles: Vec<JoinHandle<()>>,
    outstanding: usize,
    /// Where fresh tasks start.
    cut: usize,
    /// The last position of each task in flight, and whether it was taken (by
    /// [`moved`](Self::moved)) since it changed.
    flight: HashMap<TaskId, (Partial, bool)>,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("threads", &self.handles.len())
            .field("outstanding", &self.outstanding)
            .finish()
    }
}

impl Pool {
    /// Starts `threads` workers (at least one) on `list`, cutting tasks into pieces at row
    /// `cut`. Ids pushed must be in the list.
    pub fn start(list: Arc<SplitList>, threads: usize, cut: usize) -> Pool {
        Pool::with(list, &Workers::Threads(threads), cut)
    }

    /// Starts `workers` on `list`, cutting tasks into pieces at row `cut` (every rank of a job
    /// the same). Ids pushed must be in the list.
    pub fn with(list: Arc<SplitList>, workers: &Workers, cut: usize) -> Pool {
        let shared: Shared = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let (sender, events) = mpsc::channel();
        let handles = match workers {
            Workers::Threads(threads) => (0..(*threads).max(1))
                .map(|_| {
                    let (shared, list, sender) = (shared.clone(), list.clone(), sender.clone());
                    let stop = stop.clone();
                    std::thread::spawn(move || count_on_cpu(&shared, &list, &stop, &sender))
                })
                .collect(),
            Workers::Device(device) => {
                let (shared, device, stop) = (shared.clone(), device.clone(), stop.clone());
                vec![std::thread::spawn(move || {
                    count_on_device(&shared, &list, &device, &stop, &sender)
                })]
            }
        };
        Pool {
            shared,
            stop,
            events,
            handles,
            outstanding: 0,
            cut,
            flight: HashMap::new(),
        }
    }

    /// Why the workers stopped counting, if they failed (a device lost, a task given a
    /// position it does not have): the rank should end the job.
    pub fn failure(&self) -> Option<String> {
        let queue = self.shared.0.lock().unwrap_or_else(PoisonError::into_inner);
        queue.failure.clone()
    }

    /// Queues tasks, each from its position if it has one, else from its start.
    pub fn push(&mut self, tasks: &[(TaskId, Option<Partial>)]) {
        let (queue, ready) = &*self.shared;
        let mut queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
        let cut = self.cut;
        queue.tasks.extend(
            tasks
                .iter()
                .map(|&(id, from)| (id, from.unwrap_or(Partial::start(cut)))),
        );
        self.outstanding += tasks.len();
        ready.notify_all();
    }

    /// Tasks queued and not started.
    pub fn queued(&self) -> usize {
        let queue = self.shared.0.lock().unwrap_or_else(PoisonError::into_inner);
        queue.tasks.len()
    }

    /// Tasks pushed whose result has not been taken yet.
    pub fn outstanding(&self) -> usize {
        self.outstanding
    }

    /// The next result, waiting at most `wait` for one (noting where tasks in flight have got
    /// on the way).
    pub fn next(&mut self, wait: Duration) -> Option<Done> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let event = if left.is_zero() {
                self.events.try_recv().ok()
            } else {
                self.events.recv_timeout(left).ok()
            }?;
            if let Some(done) = self.note(event) {
                return Some(done);
            }
        }
    }

    /// Takes in a worker's event; a finished task is returned.
    fn note(&mut self, event: Event) -> Option<Done> {
        match event {
            Event::Moved(id, partial) => {
                self.flight.insert(id, (partial, false));
                None
            }
            Event::Done(done) => {
                self.flight.remove(&done.id);
                self.outstanding -= 1;
                Some(done)
            }
        }
    }

    /// Where the tasks in flight have got, for those that moved since the last call (for the
    /// checkpoint's positions).
    pub fn moved(&mut self) -> Vec<(TaskId, Partial)> {
        let mut moved: Vec<(TaskId, Partial)> = self
            .flight
            .iter_mut()
            .filter(|(_, (partial, taken))| !*taken && partial.pieces > 0)
            .map(|(&id, (partial, taken))| {
                *taken = true;
                (id, *partial)
            })
            .collect();
        moved.sort_unstable_by_key(|&(id, _)| id);
        moved
    }

    /// Stops the workers: tasks not started are dropped, running ones stop within
    /// milliseconds (a device at the end of its batch, within about a quarter of a second);
    /// returns what was finished and where the others got. The pool can take no more tasks.
    pub fn stop(mut self) -> Stopped {
        self.stop.store(true, Ordering::Relaxed);
        self.close();
        for handle in self.handles.drain(..) {
            let _ = handle.join();
        }
        let mut done = Vec::new();
        while let Ok(event) = self.events.try_recv() {
            done.extend(self.note(event));
        }
        Stopped {
            done,
            positions: self.moved(),
        }
    }
}

/// A CPU worker: one task at a time, in pieces, until the queue closes or `stop` is raised.
fn count_on_cpu(
    shared: &Shared,
    list: &SplitList,
    stop: &AtomicBool,
    sender: &mpsc::Sender<Event>,
) {
    let mut counter = TaskCounter::default();
    let mut told = Instant::now();
    while let Some(tasks) = take(shared, 1) {
        let (id, from) = tasks[0];
        if list.prefix(id).is_none() {
            // Ids are checked on arrival; an unknown one is simply not counted, and the
            // coordinator never sees its result.
            continue;
        }
        let start = Instant::now();
        let end = counter.count_from(list, id, &from, stop, &mut |partial| {
            if told.elapsed() >= MOVED_INTERVAL {
                told = Instant::now();
                let _ = sender.send(Event::Moved(id, *partial));
            }
        });
        let event = match end {
            Ok(TaskEnd::Done(result)) => Event::Done(Done {
                id,
                result,
                busy: start.elapsed(),
            }),
            Ok(TaskEnd::Stopped(partial)) => {
                let _ = sender.send(Event::Moved(id, partial));
                return;
            }
            Err(e) => return fail(shared, e.to_string()),
        };
        if sender.send(event).is_err() {
            break;
        }
    }
}

/// The device's thread: the queued tasks in pieces, batch after batch ([`device::drive`]),
/// until the queue closes or `stop` is raised.
fn count_on_device(
    shared: &Shared,
    list: &SplitList,
    device: &SharedDevice,
    stop: &AtomicBool,
    sender: &mpsc::Sender<Event>,
) {
    // Ids are checked on arrival; an unknown one is simply not counted.
    let known = |task: &Start| list.prefix(task.0).is_some();
    while let Some(first) = take(shared, 1) {
        let mut first = first.into_iter().filter(known);
        // Then whatever is queued when the device wants more, without waiting.
        let mut next = || {
            first.next().or_else(|| {
                let mut queue = shared.0.lock().unwrap_or_else(PoisonError::into_inner);
                std::iter::from_fn(|| queue.tasks.pop_front()).find(known)
            })
        };
        let mut since = Instant::now();
        let mut on_step = |id, step| {
            let event = match step {
                Step::Moved(partial) => Event::Moved(id, partial),
                Step::Done(result) => {
                    let busy = since.elapsed();
                    since = Instant::now();
                    Event::Done(Done { id, result, busy })
                }
            };
            sender.send(event).is_ok()
        };
        let prefix_of = |id| list.prefix(id).unwrap_or_default();
        let driven = device::drive(device, list.n(), &prefix_of, &mut next, stop, &mut on_step);
        if let Err(e) = driven {
            return fail(shared, e.to_string());
        }
        if stop.load(Ordering::Relaxed) {
            return;
        }
    }
}

/// Records why the workers stopped (the rank's main thread reads it through
/// [`Pool::failure`]).
fn fail(shared: &Shared, reason: String) {
    let mut queue = shared.0.lock().unwrap_or_else(PoisonError::into_inner);
    queue.failure.get_or_insert(reason);
}

/// Up to `most` tasks for a worker, waiting for at least one, or `None` once the pool is
/// closed.
fn take(shared: &Shared, most: usize) -> Option<Vec<Start>> {
    let (queue, ready) = &**shared;
    let mut queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        if queue.closed {
            return None;
        }
        if !queue.tasks.is_empty() {
            let n = most.min(queue.tasks.len());
            return Some(queue.tasks.drain(..n).collect());
        }
        queue = ready.wait(queue).unwrap_or_else(PoisonError::into_inner);
    }
}

impl Pool {
    fn close(&self) {
        let (queue, ready) = &*self.shared;
        let mut queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
        queue.tasks.clear();
        queue.closed = true;
        ready.notify_all();
    }
}

impl Drop for Pool {
    /// Stops the threads: tasks not started are dropped, running ones stop within milliseconds
    /// (a device at the end of its batch).
    fn drop(&mut self) {
        // Whatever is still running is not wanted any more.
        self.stop.store(true, Ordering::Relaxed);
        self.close();
        for handle in self.handles.drain(..) {
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens_solver::engines::counter::pieces::PIECE_ROWS;

    #[test]
    fn a_device_pool_counts_every_task_pushed_in_batches() {
        // The CPU stand-in for a GPU: the same batches, the same results.
        use nqueens_solver::runs::device::SplitOnCpu;
        let list = Arc::new(SplitList::new(11, 1));
        let device = SharedDevice::new(SplitOnCpu::default());
        let mut pool = Pool::with(list.clone(), &Workers::Device(device), list.cut(PIECE_ROWS));
        let ids: Vec<(TaskId, Option<Partial>)> = list.ids().map(|id| (id, None)).collect();
        pool.push(&ids);
        let mut counter = TaskCounter::default();
        let mut seen = vec![false; list.len()];
        while pool.outstanding() > 0 {
            let done = pool.next(Duration::from_secs(5)).expect("a result");
            assert!(!seen[done.id.index()]);
            seen[done.id.index()] = true;
            assert_eq!(done.result, counter.count(&list, done.id).unwrap());
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(pool.failure(), None);
    }

    #[test]
    fn a_failing_device_is_reported() {
        struct Broken;
        impl nqueens_solver::runs::Device for Broken {
            fn describe(&self) -> String {
                "a broken GPU".to_string()
            }
            fn solve_batch(
                &mut self,
                _n: u32,
                _prefixes: &[&[u8]],
            ) -> Result<Vec<TaskResult>, nqueens_solver::runs::DeviceError> {
                Err(nqueens_solver::runs::DeviceError("lost".to_string()))
            }
        }
        let list = Arc::new(SplitList::new(8, 0));
        let broken = Workers::Device(SharedDevice::new(Broken));
        let mut pool = Pool::with(list.clone(), &broken, 4);
        pool.push(&[(TaskId(0), None)]);
        let deadline = Instant::now() + Duration::from_secs(5);
        while pool.failure().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(pool.failure().as_deref(), Some("a broken GPU failed: lost"));
        assert_eq!(pool.next(Duration::from_millis(10)), None);
    }

    #[test]
    fn a_pool_counts_every_task_pushed() {
        let list = Arc::new(SplitList::new(9, 0));
        let mut pool = Pool::start(list.clone(), 3, list.cut(PIECE_ROWS));
        let ids: Vec<(TaskId, Option<Partial>)> = list.ids().map(|id| (id, None)).collect();
        pool.push(&ids);
        let mut total = 0;
        let mut seen = vec![false; list.len()];
        while pool.outstanding() > 0 {
            if let Some(done) = pool.next(Duration::from_secs(5)) {
                assert!(!seen[done.id.index()]);
                seen[done.id.index()] = true;
                total += done.result.total;
            }
        }
        assert_eq!(total, 352);
        assert!(seen.iter().all(|&s| s));
        assert_eq!(pool.next(Duration::ZERO), None);
    }

    /// A pool stopped midway hands back its finished tasks and where the others got; a pool
    /// given those positions finishes them to the same results, node for node.
    #[test]
    fn a_stopped_pool_says_where_its_tasks_got_and_they_go_on_from_there() {
        let list = Arc::new(SplitList::new(18, 0));
        // Pieces of 9 rows: the tasks of n = 18 (a millisecond or so each) cut at row 9.
        let cut = list.cut(9);
        assert_eq!(cut, 9);
        let mut counter = TaskCounter::default();
        let ids: Vec<TaskId> = list.ids().skip(list.len() - 200).collect();
        let whole: Vec<TaskResult> = ids
            .iter()
            .map(|&id| counter.count(&list, id).unwrap())
            .collect();
        let mut pool = Pool::start(list.clone(), 2, cut);
        pool.push(&ids.iter().map(|&id| (id, None)).collect::<Vec<_>>());
        std::thread::sleep(Duration::from_millis(50));
        let mut done: Vec<Done> = std::iter::from_fn(|| pool.next(Duration::ZERO)).collect();
        let stopped = pool.stop();
        done.extend(stopped.done);
        let positions: HashMap<TaskId, Partial> = stopped.positions.into_iter().collect();
        assert!(
            done.len() < ids.len(),
            "every task finished before the stop"
        );
        assert!(!positions.is_empty(), "no task left in part");
        assert!(positions.values().all(|p| p.cut == 9 && p.pieces > 0));
        let mut pool = Pool::start(list.clone(), 2, cut);
        let left: Vec<(TaskId, Option<Partial>)> = ids
            .iter()
            .filter(|id| !done.iter().any(|d| d.id == **id))
            .map(|&id| (id, positions.get(&id).copied()))
            .collect();
        pool.push(&left);
        while pool.outstanding() > 0 {
            done.extend(pool.next(Duration::from_secs(30)));
        }
        for (id, expected) in ids.iter().zip(&whole) {
            let found = done.iter().filter(|d| d.id == *id).map(|d| d.result);
            assert_eq!(found.collect::<Vec<_>>(), [*expected], "task {id}");
        }
    }
}
