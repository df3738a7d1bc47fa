//! The N-Queens API: `solve`, `solutions`, `count`, shards, `verify`, `Solution` and pictures.
//!
//! Python sees 0-based rows and columns everywhere (a fixed queen is `(row, col)` with both in
//! `range(n)`); error messages come from the library and so name squares the way the CLI does,
//! 1-based as `ROW:COL`.
//!
//! This file turns Python's arguments into the library's (sizes, squares, methods, seeds,
//! threads, settings) and lists the methods; `solution.rs` holds `Solution` and the pictures,
//! `search.rs` `solve` and `solutions`, `counting.rs` the counts and shards, `boards.rs`
//! `verify` and `read_board`.

mod boards;
mod counting;
mod search;
mod solution;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use nqueens_solver::board::Numbering;
use nqueens_solver::engine::Limits;
use nqueens_solver::{Config, Job, Method, Problem, Queen};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::worker;

pub use boards::{read_board, verify};
pub use counting::{_merge_json, count, count_shard};
pub use search::{Solutions, solutions, solve};
pub use solution::{Solution, svg_grid};

pub(crate) fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// A board size from Python: a positive int that fits 32 bits.
pub fn board_size(n: i64) -> PyResult<u32> {
    if n < 1 {
        return Err(value_error(format!(
            "the board size n must be at least 1, not {n}"
        )));
    }
    u32::try_from(n).map_err(|_| value_error(format!("n = {n} is too large (at most 2^32 - 1)")))
}

/// `(row, col)` pairs from any iterable of pairs (a list, a tuple, a set, a generator), or none
/// when not given; `what` names the argument in a `TypeError`.
pub(crate) fn pairs(given: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Vec<(i64, i64)>> {
    let Some(given) = given else {
        return Ok(Vec::new());
    };
    let not_pairs = |found: &Bound<'_, PyAny>| {
        let kind = found
            .get_type()
            .name()
            .map_or_else(|_| "?".to_string(), |n| n.to_string());
        PyTypeError::new_err(format!(
            "{what} takes (row, col) pairs, like [(0, 1), (2, 3)] or {{(0, 1)}}, not {kind}"
        ))
    };
    if given.is_instance_of::<pyo3::types::PyString>() {
        return Err(not_pairs(given));
    }
    given
        .try_iter()
        .map_err(|_| not_pairs(given))?
        .map(|item| {
            let item = item?;
            item.extract::<(i64, i64)>().map_err(|_| not_pairs(&item))
        })
        .collect()
}

/// The problem of `n` with `fixed` queens and `blocked` squares given 0-based.
pub(crate) fn problem(n: i64, fixed: &[(i64, i64)], blocked: &[(i64, i64)]) -> PyResult<Problem> {
    let n = board_size(n)?;
    let squares = |given: &[(i64, i64)], what: &str| -> PyResult<Vec<Queen>> {
        let mut squares = Vec::with_capacity(given.len());
        for &(row, col) in given {
            let coordinate = |v: i64| u32::try_from(v).ok().filter(|&v| v < n);
            match (coordinate(row), coordinate(col)) {
                (Some(row), Some(col)) => squares.push(Queen::new(row, col)),
                _ => {
                    return Err(value_error(format!(
                        "{what} ({row}, {col}) is off the {n}×{n} board (0-based rows and columns run from 0 to {})",
                        n - 1
                    )));
                }
            }
        }
        Ok(squares)
    };
    Problem::with_blocks(
        n,
        squares(fixed, "fixed queen")?,
        squares(blocked, "blocked square")?,
    )
    .map_err(|e| value_error(e.describe(Numbering::ZeroBased)))
}

fn method(name: &str) -> PyResult<Method> {
    name.parse::<Method>().map_err(|e| {
        let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
        value_error(format!("{e} (methods: {})", names.join(", ")))
    })
}

pub(crate) fn seed(seed: Option<i64>) -> PyResult<Option<u64>> {
    seed.map(|s| {
        u64::try_from(s).map_err(|_| value_error(format!("the seed must be ≥ 0, not {s}")))
    })
    .transpose()
}

fn threads(threads: Option<i64>) -> PyResult<usize> {
    match threads {
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
        Some(t) if t >= 1 => Ok(usize::try_from(t).unwrap_or(usize::MAX).min(1024)),
        Some(t) => Err(value_error(format!("threads must be at least 1, not {t}"))),
    }
}

/// The engine settings of one call: the search stops when `stop` is raised (Ctrl-C, a dropped
/// iterator) or after `time`.
fn config(
    seed: Option<u64>,
    threads: usize,
    stop: &Arc<AtomicBool>,
    time: Option<Duration>,
) -> Config {
    let mut config = Config::default();
    config.seed = seed;
    config.threads = threads;
    config.limits = Limits {
        time,
        stop: Some(Arc::clone(stop)),
        ..Limits::default()
    };
    config
}

/// The method names with what each can do: `{name: {"about": str, "jobs": (...)}}`, the jobs
/// among "solve", "solutions", "count" and "unique" that it does on a board without fixed
/// queens.
pub fn methods<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for &m in Method::ALL {
        let entry = PyDict::new(py);
        entry.set_item("about", m.about())?;
        let jobs = PyList::empty(py);
        for (job, name) in [
            (Job::Solve, "solve"),
            (Job::List, "solutions"),
            (Job::Count, "count"),
            (Job::CountUnique, "unique"),
        ] {
            if m.descriptor().jobs.contains(&job) {
                jobs.append(name)?;
            }
        }
        entry.set_item("jobs", jobs.to_tuple())?;
        dict.set_item(m.name(), entry)?;
    }
    Ok(dict)
}

/// The number of search threads still running (used by the tests to see that an abandoned
/// iterator's search ends).
#[pyfunction]
pub fn _live_searches() -> usize {
    worker::live()
}
