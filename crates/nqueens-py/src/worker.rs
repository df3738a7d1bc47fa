//! Searches on worker threads, and how Python waits for them.
//!
//! Every long call runs its search on a thread of its own while the calling thread waits with
//! the GIL released, waking every [`POLL`] to run Python's signal handlers (so Ctrl-C raises
//! `KeyboardInterrupt` at once) and to report progress. When the wait ends early (a signal, a
//! time limit, the iterator dropped), the waiting side raises the search's stop flag and
//! drops its end of the channel; the worker sees either at its next solution or task and ends,
//! freeing everything it holds.
//!
//! Lazy iterators ([`Stream`]) receive solutions in batches over a bounded channel: the first
//! batch holds one solution (so `next()` returns as soon as the engine finds it), later ones
//! double up to [`MAX_BATCH`] (so a long enumeration costs one channel hand-over per few hundred
//! solutions, not one per solution). The bound keeps the worker at most two batches ahead of the
//! reader, so an abandoned iterator holds little memory and stops its worker promptly.

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyRuntimeError, PyTimeoutError, PyValueError};
use pyo3::prelude::*;

/// How often a waiting call looks at Python's signals and its progress.
pub const POLL: Duration = Duration::from_millis(20);

/// The largest batch a worker sends at once.
pub const MAX_BATCH: usize = 512;

/// Worker threads still running (for the tests: an abandoned search must end).
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// The number of worker threads still running.
pub fn live() -> usize {
    LIVE.load(Ordering::SeqCst)
}

/// Counts a worker as live from its creation until it is dropped at the end of the thread.
struct LiveGuard;

impl LiveGuard {
    fn new() -> Self {
        LIVE.fetch_add(1, Ordering::SeqCst);
        LiveGuard
    }
}

impl Drop for LiveGuard {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Why a worker failed, turned into a Python exception on the waiting side.
#[derive(Debug)]
pub enum Failure {
    /// A bad argument or problem: `ValueError` with the library's message.
    Value(String),
    /// A limit was reached first: `TimeoutError`.
    Timeout(String),
    /// The search was stopped from the waiting side (the caller has its own exception).
    Stopped,
}

impl Failure {
    /// `ValueError` with this error's message.
    pub fn value(error: impl std::fmt::Display) -> Self {
        Failure::Value(error.to_string())
    }
}

impl From<Failure> for PyErr {
    fn from(failure: Failure) -> PyErr {
        match failure {
            Failure::Value(message) => PyValueError::new_err(message),
            Failure::Timeout(message) => PyTimeoutError::new_err(message),
            Failure::Stopped => PyRuntimeError::new_err("the search was stopped"),
        }
    }
}

enum Message<T> {
    Batch(Vec<T>),
    Failed(Failure),
}

/// The worker's end of a [`Stream`].
pub struct Feed<T> {
    sender: SyncSender<Message<T>>,
    batch: Vec<T>,
    capacity: usize,
    stop: Arc<AtomicBool>,
}

impl<T> Feed<T> {
    /// Hands one item to the reader; `Break` when the reader is gone or asked to stop.
    pub fn push(&mut self, item: T) -> ControlFlow<()> {
        if self.stop.load(Ordering::Relaxed) {
            return ControlFlow::Break(());
        }
        self.batch.push(item);
        if self.batch.len() >= self.capacity {
            let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(self.capacity));
            self.capacity = (self.capacity * 2).min(MAX_BATCH);
            if self.sender.send(Message::Batch(batch)).is_err() {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }
}

/// Waits for a message with the GIL released, running signal handlers every [`POLL`] and
/// `tick` after each wake-up. Returns the receiver with the message (`None`: the worker ended).
fn wait<M: Send>(
    py: Python<'_>,
    mut receiver: Receiver<M>,
    stop: &AtomicBool,
    tick: &mut dyn FnMut(Python<'_>) -> PyResult<()>,
) -> PyResult<(Receiver<M>, Option<M>)> {
    loop {
        let (back, result) = py.allow_threads(move || {
            let result = receiver.recv_timeout(POLL);
            (receiver, result)
        });
        receiver = back;
        let outcome = match result {
            Ok(message) => Some(Some(message)),
            Err(RecvTimeoutError::Disconnected) => Some(None),
            Err(RecvTimeoutError::Timeout) => None,
        };
        if let Err(error) = py.check_signals().and_then(|()| tick(py)) {
            stop.store(true, Ordering::SeqCst);
            return Err(error);
        }
        if let Some(message) = outcome {
            return Ok((receiver, message));
        }
    }
}

/// A lazy sequence of items produced by a worker thread. See the [module documentation](self).
pub struct Stream<T> {
    receiver: Option<Receiver<Message<T>>>,
    buffer: VecDeque<T>,
    stop: Arc<AtomicBool>,
}

impl<T: Send + 'static> Stream<T> {
    /// Starts `produce` on a worker thread; it pushes items into its [`Feed`] and stops when
    /// `push` says `Break`. `stop` is raised when the reader stops; the producer's engine
    /// watches it too, so a search ends even while it finds nothing to push.
    pub fn spawn(
        stop: Arc<AtomicBool>,
        produce: impl FnOnce(&mut Feed<T>) -> Result<(), Failure> + Send + 'static,
    ) -> Self {
        let (sender, receiver) = mpsc::sync_channel(2);
        let worker_stop = Arc::clone(&stop);
        let guard = LiveGuard::new();
        std::thread::spawn(move || {
            let _guard = guard;
            let mut feed = Feed {
                sender,
                batch: Vec::with_capacity(1),
                capacity: 1,
                stop: worker_stop,
            };
            let result = produce(&mut feed);
            let Feed { sender, batch, .. } = feed;
            if !batch.is_empty() {
                let _ = sender.send(Message::Batch(batch));
            }
            if let Err(failure) = result {
                let _ = sender.send(Message::Failed(failure));
            }
        });
        Stream {
            receiver: Some(receiver),
            buffer: VecDeque::new(),
            stop,
        }
    }

    /// The next item, waiting for the worker if need be; `None` at the end.
    pub fn next(&mut self, py: Python<'_>) -> PyResult<Option<T>> {
        loop {
            if let Some(item) = self.buffer.pop_front() {
                return Ok(Some(item));
            }
            let Some(receiver) = self.receiver.take() else {
                return Ok(None);
            };
            let waited = wait(py, receiver, &self.stop, &mut |_| Ok(()));
            match waited {
                Err(error) => {
                    self.close();
                    return Err(error);
                }
                Ok((_, None)) => return Ok(None),
                Ok((receiver, Some(Message::Batch(batch)))) => {
                    self.receiver = Some(receiver);
                    self.buffer.extend(batch);
                }
                Ok((_, Some(Message::Failed(failure)))) => {
                    self.close();
                    return Err(failure.into());
                }
            }
        }
    }
}

impl<T> Stream<T> {
    /// Stops the worker and forgets what it sent.
    pub fn close(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.receiver = None;
        self.buffer.clear();
    }
}

impl<T> Drop for Stream<T> {
    fn drop(&mut self) {
        self.close();
    }
}

/// A [`Stream`] a `#[pyclass]` can hold: one reader at a time (a second thread calling `next`
/// while the first waits gets a `RuntimeError` instead of a deadlock on the GIL).
pub struct Shared<T>(Mutex<Stream<T>>);

impl<T: Send + 'static> Shared<T> {
    /// Wraps a stream.
    pub fn new(stream: Stream<T>) -> Self {
        Shared(Mutex::new(stream))
    }

    /// The next item.
    pub fn next(&self, py: Python<'_>) -> PyResult<Option<T>> {
        let mut stream = self
            .0
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("another thread is reading this iterator"))?;
        stream.next(py)
    }

    /// Stops the worker.
    pub fn close(&self) {
        if let Ok(mut stream) = self.0.lock() {
            stream.close();
        }
    }
}

/// Runs `work` on a worker thread and waits for its result with the GIL released, answering
/// signals and calling `tick` every [`POLL`]; gives up with `TimeoutError` after `limit`. On an
/// early end, `stop` is raised for the worker to see.
pub fn run<R: Send + 'static>(
    py: Python<'_>,
    stop: Arc<AtomicBool>,
    limit: Option<Duration>,
    work: impl FnOnce() -> Result<R, Failure> + Send + 'static,
    mut tick: impl FnMut(Python<'_>) -> PyResult<()>,
) -> PyResult<R> {
    let (sender, receiver) = mpsc::sync_channel(1);
    let guard = LiveGuard::new();
    std::thread::spawn(move || {
        let _guard = guard;
        let _ = sender.send(work());
    });
    let started = Instant::now();
    let mut check = |py: Python<'_>| -> PyResult<()> {
        tick(py)?;
        match limit {
            Some(limit) if started.elapsed() >= limit => Err(PyTimeoutError::new_err(format!(
                "time limit of {} s reached",
                limit.as_secs_f64()
            ))),
            _ => Ok(()),
        }
    };
    match wait(py, receiver, &stop, &mut check)? {
        (_, Some(result)) => Ok(result?),
        (_, None) => Err(PyRuntimeError::new_err(
            "the search thread ended without an answer",
        )),
    }
}
