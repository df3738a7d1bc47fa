//! Finding solutions: `solve` (one, on a worker thread) and `solutions`, the lazy iterator
//! whose search runs ahead of the reader and stops when it is closed or dropped.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use nqueens_solver::{Job, Outcome};
use pyo3::prelude::*;

use crate::worker::{self, Failure, Shared, Stream};

use super::solution::{Marks, marks};
use super::{Solution, config, pairs, value_error};

/// The lazy iterator of `nqueens.solutions`: the search runs on a worker thread a little
/// ahead of the reader; `close()` (or dropping the iterator) stops it.
#[pyclass(module = "nqueens", frozen)]
pub struct Solutions {
    stream: Shared<nqueens_solver::Solution>,
    marks: Marks,
}

#[pymethods]
impl Solutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Solution>> {
        Ok(self
            .stream
            .next(py)?
            .map(|s| Solution::new(s.into_columns(), &self.marks)))
    }

    /// Stops the search and frees it (also done when the iterator is garbage-collected).
    fn close(&self) {
        self.stream.close();
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &self,
        _kind: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) {
        self.stream.close();
    }
}

/// solve(n, *, fixed=(), method="auto", seed=None, time_limit=None, blocked=()) -> Solution | None
///
/// One solution of the n×n board keeping the `fixed` queens and avoiding the `blocked` squares
/// (each any iterable of 0-based `(row, col)` pairs), or `None` when there is none. Raises
/// `TimeoutError` when `time_limit` seconds pass first (or the method gives up), `ValueError`
/// for a bad board or method.
#[pyfunction]
#[pyo3(signature = (n, *, fixed = None, method = "auto", seed = None, time_limit = None, blocked = None), text_signature = "(n, *, fixed=(), method='auto', seed=None, time_limit=None, blocked=())")]
pub fn solve(
    py: Python<'_>,
    n: i64,
    fixed: Option<&Bound<'_, PyAny>>,
    method: &str,
    seed: Option<i64>,
    time_limit: Option<f64>,
    blocked: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Solution>> {
    let problem = super::problem(n, &pairs(fixed, "fixed")?, &pairs(blocked, "blocked")?)?;
    let method = super::method(method)?;
    let limit = time_limit
        .map(|t| {
            Duration::try_from_secs_f64(t).map_err(|_| {
                value_error(format!(
                    "time_limit must be a number of seconds ≥ 0, not {t}"
                ))
            })
        })
        .transpose()?;
    let stop = Arc::new(AtomicBool::new(false));
    let config = config(super::seed(seed)?, 1, &stop, limit);
    let mut engine = method
        .engine_for(Job::Solve, &problem, &config)
        .map_err(value_error)?;
    let marks = marks(&problem);
    let outcome = worker::run(
        py,
        stop,
        limit,
        move || {
            engine.solve(&problem).map_err(|e| match e.stopped() {
                Some(stopped) => Failure::Timeout(stopped.reason.to_string()),
                None => Failure::value(e),
            })
        },
        |_| Ok(()),
    )?;
    match outcome {
        Outcome::Found(s) => Ok(Some(Solution::new(s.into_columns(), &marks))),
        Outcome::NoSolution => Ok(None),
    }
}

/// solutions(n, *, fixed=(), method="auto", seed=None, limit=None, blocked=()) -> Iterator[Solution]
///
/// The solutions of the n×n board keeping the `fixed` queens and avoiding the `blocked`
/// squares (each any iterable of 0-based `(row, col)` pairs), lazily: the search runs only a
/// little ahead of the loop, and breaking out of the loop (or dropping the iterator) stops it.
/// At most `limit` solutions when given.
#[pyfunction]
#[pyo3(signature = (n, *, fixed = None, method = "auto", seed = None, limit = None, blocked = None), text_signature = "(n, *, fixed=(), method='auto', seed=None, limit=None, blocked=())")]
pub fn solutions(
    n: i64,
    fixed: Option<&Bound<'_, PyAny>>,
    method: &str,
    seed: Option<i64>,
    limit: Option<i64>,
    blocked: Option<&Bound<'_, PyAny>>,
) -> PyResult<Solutions> {
    let problem = super::problem(n, &pairs(fixed, "fixed")?, &pairs(blocked, "blocked")?)?;
    let method = super::method(method)?;
    let stop = Arc::new(AtomicBool::new(false));
    let config = config(super::seed(seed)?, 1, &stop, None);
    let limit = limit
        .map(|l| u64::try_from(l).map_err(|_| value_error(format!("limit must be ≥ 0, not {l}"))))
        .transpose()?;
    let mut engine = method
        .engine_for(Job::List, &problem, &config)
        .map_err(value_error)?;
    let marks = marks(&problem);
    let stream = Stream::spawn(stop, move |feed| {
        engine
            .list(&problem, limit, &mut |s| feed.push(s.clone()))
            .map(|_| ())
            .map_err(Failure::value)
    });
    Ok(Solutions {
        stream: Shared::new(stream),
        marks,
    })
}
