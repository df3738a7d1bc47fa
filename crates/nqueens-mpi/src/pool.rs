//! The workers of one rank: a queue of task ids in, results with their times out.
//!
//! The rank's main thread (the only one that talks to the network) pushes the batches it gets
//! from the coordinator and takes results as they come; each worker thread takes the next id
//! from the queue, counts the task with its own [`TaskCounter`], and sends back the id, the
//! result and the time the task took. On a GPU ([`Workers::Device`]) one thread takes every
//! queued id at once (up to [`DEVICE_BATCH`]), hands them to the device as one batch, and
//! shares the batch's time out among its tasks in proportion to their nodes. Nothing here
//! knows about MPI.

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use nqueens::engines::counter::{SharedDevice, SplitList, TaskCounter, TaskId, TaskResult};

/// Tasks one device batch takes at most.
pub const DEVICE_BATCH: usize = 4096;

/// What counts a rank's tasks.
#[derive(Clone, Debug)]
pub enum Workers {
    /// This many CPU threads (0 is taken as 1).
    Threads(usize),
    /// One device (a GPU), fed by one thread.
    Device(SharedDevice),
}

/// The queue a device's rank keeps filled, in threads' worth ([`Workers::queue_slots`]): a
/// device takes everything queued as one batch, so its queue must hold a batch's worth.
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

#[derive(Default)]
struct Queue {
    tasks: VecDeque<TaskId>,
    closed: bool,
    /// Why the device stopped, if it failed.
    failure: Option<String>,
}

type Shared = Arc<(Mutex<Queue>, Condvar)>;

/// A rank's worker threads. See the [module documentation](self).
pub struct Pool {
    shared: Shared,
    results: Receiver<Done>,
    handles: Vec<JoinHandle<()>>,
    outstanding: usize,
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
    /// Starts `threads` workers (at least one) on `list`. Ids pushed must be in the list.
    pub fn start(list: Arc<SplitList>, threads: usize) -> Pool {
        Pool::with(list, &Workers::Threads(threads))
    }

    /// Starts `workers` on `list`. Ids pushed must be in the list.
    pub fn with(list: Arc<SplitList>, workers: &Workers) -> Pool {
        let shared: Shared = Arc::default();
        let (sender, results) = mpsc::channel();
        let handles = match workers {
            Workers::Threads(threads) => (0..(*threads).max(1))
                .map(|_| {
                    let (shared, list, sender) = (shared.clone(), list.clone(), sender.clone());
                    std::thread::spawn(move || count_on_cpu(&shared, &list, &sender))
                })
                .collect(),
            Workers::Device(device) => {
                let (shared, device) = (shared.clone(), device.clone());
                vec![std::thread::spawn(move || {
                    count_on_device(&shared, &list, &device, &sender)
                })]
            }
        };
        Pool {
            shared,
            results,
            handles,
            outstanding: 0,
        }
    }

    /// Why the device stopped counting, if it failed (its tasks in flight are lost; the
    /// rank should end the job).
    pub fn failure(&self) -> Option<String> {
        let queue = self.shared.0.lock().unwrap_or_else(PoisonError::into_inner);
        queue.failure.clone()
    }

    /// Queues tasks.
    pub fn push(&mut self, ids: &[TaskId]) {
        let (queue, ready) = &*self.shared;
        let mut queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
        queue.tasks.extend(ids);
        self.outstanding += ids.len();
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

    /// The next result, waiting at most `wait` for one.
    pub fn next(&mut self, wait: Duration) -> Option<Done> {
        let done = if wait.is_zero() {
            self.results.try_recv().ok()
        } else {
            self.results.recv_timeout(wait).ok()
        }?;
        self.outstanding -= 1;
        Some(done)
    }
}

/// A CPU worker: one task at a time.
fn count_on_cpu(shared: &Shared, list: &SplitList, sender: &mpsc::Sender<Done>) {
    let mut counter = TaskCounter::default();
    while let Some(ids) = take(shared, 1) {
        let id = ids[0];
        let start = Instant::now();
        let Some(result) = counter.count(list, id) else {
            // Ids are checked on arrival; an unknown one is simply not counted, and the
            // coordinator never sees its result.
            continue;
        };
        let done = Done {
            id,
            result,
            busy: start.elapsed(),
        };
        if sender.send(done).is_err() {
            break;
        }
    }
}

/// The device's thread: every queued task at once, as one batch.
fn count_on_device(
    shared: &Shared,
    list: &SplitList,
    device: &SharedDevice,
    sender: &mpsc::Sender<Done>,
) {
    while let Some(ids) = take(shared, DEVICE_BATCH) {
        let ids: Vec<TaskId> = ids
            .into_iter()
            .filter(|&id| list.prefix(id).is_some())
            .collect();
        let prefixes: Vec<&[u8]> = ids.iter().filter_map(|&id| list.prefix(id)).collect();
        let start = Instant::now();
        let solved = match device.0.lock() {
            Ok(mut device) => device
                .solve_batch(list.n(), &prefixes)
                .map_err(|e| format!("{}: {e}", device.describe())),
            Err(_) => Err("the device failed in another thread".to_string()),
        };
        let results = match solved {
            Ok(results) if results.len() == ids.len() => results,
            Ok(results) => {
                let reason = format!(
                    "{}: {} results for {} tasks",
                    device.describe(),
                    results.len(),
                    ids.len()
                );
                return fail(shared, reason);
            }
            Err(reason) => return fail(shared, reason),
        };
        let busy = start.elapsed();
        let nodes: u64 = results.iter().map(|r| r.nodes).sum::<u64>().max(1);
        for (id, result) in ids.into_iter().zip(results) {
            let share = busy.mul_f64(result.nodes as f64 / nodes as f64);
            if sender
                .send(Done {
                    id,
                    result,
                    busy: share,
                })
                .is_err()
            {
                return;
            }
        }
    }
}

/// Records why the device stopped (the rank's main thread reads it through
/// [`Pool::failure`]).
fn fail(shared: &Shared, reason: String) {
    let mut queue = shared.0.lock().unwrap_or_else(PoisonError::into_inner);
    queue.failure.get_or_insert(reason);
}

/// Up to `most` tasks for a worker, waiting for at least one, or `None` once the pool is
/// closed.
fn take(shared: &Shared, most: usize) -> Option<Vec<TaskId>> {
    let (queue, ready) = &**shared;
    let mut queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        if !queue.tasks.is_empty() {
            let n = most.min(queue.tasks.len());
            return Some(queue.tasks.drain(..n).collect());
        }
        if queue.closed {
            return None;
        }
        queue = ready.wait(queue).unwrap_or_else(PoisonError::into_inner);
    }
}

impl Pool {
    /// Drops the tasks not started and lets the running ones end on their own, without
    /// waiting for them: for a job about to end (an interrupt), whose tasks in flight are lost
    /// anyway.
    pub fn detach(mut self) {
        self.close();
        // Dropping a join handle detaches its thread.
        self.handles.clear();
    }

    fn close(&self) {
        let (queue, ready) = &*self.shared;
        let mut queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
        queue.tasks.clear();
        queue.closed = true;
        ready.notify_all();
    }
}

impl Drop for Pool {
    /// Stops the threads: tasks not started are dropped, running ones finish first.
    fn drop(&mut self) {
        self.close();
        for handle in self.handles.drain(..) {
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_pool_counts_every_task_pushed_in_batches() {
        // The CPU stand-in for a GPU: the same batches, the same results.
        use nqueens::engines::counter::device::SplitOnCpu;
        let list = Arc::new(SplitList::new(11, 1));
        let device = SharedDevice::new(SplitOnCpu::default());
        let mut pool = Pool::with(list.clone(), &Workers::Device(device));
        let ids: Vec<TaskId> = list.ids().collect();
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
        impl nqueens::engines::counter::Device for Broken {
            fn describe(&self) -> String {
                "a broken GPU".to_string()
            }
            fn solve_batch(
                &mut self,
                _n: u32,
                _prefixes: &[&[u8]],
            ) -> Result<Vec<TaskResult>, nqueens::engines::counter::DeviceError> {
                Err(nqueens::engines::counter::DeviceError("lost".to_string()))
            }
        }
        let list = Arc::new(SplitList::new(8, 0));
        let mut pool = Pool::with(list.clone(), &Workers::Device(SharedDevice::new(Broken)));
        pool.push(&[TaskId(0)]);
        let deadline = Instant::now() + Duration::from_secs(5);
        while pool.failure().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(pool.failure().as_deref(), Some("a broken GPU: lost"));
        assert_eq!(pool.next(Duration::from_millis(10)), None);
    }

    #[test]
    fn a_pool_counts_every_task_pushed() {
        let list = Arc::new(SplitList::new(9, 0));
        let mut pool = Pool::start(list.clone(), 3);
        let ids: Vec<TaskId> = list.ids().collect();
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
}
