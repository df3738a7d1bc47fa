//! The threads of one rank: a queue of task ids in, results with their times out.
//!
//! The rank's main thread (the only one that talks to the network) pushes the batches it gets
//! from the coordinator and takes results as they come; each worker thread takes the next id
//! from the queue, counts the task with its own [`TaskCounter`], and sends back the id, the
//! result and the time the task took. Nothing here knows about MPI.

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use nqueens::engines::counter::{SplitList, TaskCounter, TaskId, TaskResult};

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
        let shared: Shared = Arc::default();
        let (sender, results) = mpsc::channel();
        let handles = (0..threads.max(1))
            .map(|_| {
                let (shared, list, sender) = (shared.clone(), list.clone(), sender.clone());
                std::thread::spawn(move || {
                    let mut counter = TaskCounter::default();
                    while let Some(id) = take(&shared) {
                        let start = Instant::now();
                        let Some(result) = counter.count(&list, id) else {
                            // Ids are checked on arrival; an unknown one is simply not counted,
                            // and the coordinator never sees its result.
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
                })
            })
            .collect();
        Pool {
            shared,
            results,
            handles,
            outstanding: 0,
        }
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

/// The next task for a worker thread, or `None` once the pool is closed.
fn take(shared: &Shared) -> Option<TaskId> {
    let (queue, ready) = &**shared;
    let mut queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        if let Some(id) = queue.tasks.pop_front() {
            return Some(id);
        }
        if queue.closed {
            return None;
        }
        queue = ready.wait(queue).unwrap_or_else(PoisonError::into_inner);
    }
}

impl Drop for Pool {
    /// Stops the threads: tasks not started are dropped, running ones finish first.
    fn drop(&mut self) {
        {
            let (queue, ready) = &*self.shared;
            let mut queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
            queue.tasks.clear();
            queue.closed = true;
            ready.notify_all();
        }
        for handle in self.handles.drain(..) {
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
