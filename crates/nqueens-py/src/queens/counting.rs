//! Counting: `count` (with progress and Ctrl-C), `count_shard` (one shard of a count split
//! across machines, as JSON) and `_merge_json` (the shards put back together).

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use nqueens_solver::engine::Limits;
use nqueens_solver::runs::{self, CountRun, RunOptions, Shard};
use nqueens_solver::{Job, ProgressSink};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::worker::{self, Failure};

use super::{board_size, config, pairs, value_error};

/// Progress shared between the worker and the waiting thread: (done, total).
type Shared2 = Arc<Mutex<(u64, u64)>>;

/// count(n, *, unique=False, fixed=(), method="auto", threads=None, progress=None, blocked=()) -> int
///
/// The number of solutions of the n×n board keeping the `fixed` queens and avoiding the
/// `blocked` squares (0-based), or with `unique=True` the number up to the symmetries (of the
/// eight rotations and reflections, those that map the fixed queens and the blocked squares
/// onto themselves: all eight for the plain board); an exact Python int. `threads`
/// defaults to every core. `progress`, if given, is called now and then on the calling thread
/// with `(done, total)` units of work (tasks of the counter). Ctrl-C stops the count.
#[pyfunction]
#[pyo3(signature = (n, *, unique = false, fixed = None, method = "auto", threads = None, progress = None, blocked = None), text_signature = "(n, *, unique=False, fixed=(), method='auto', threads=None, progress=None, blocked=())")]
#[allow(clippy::too_many_arguments)]
pub fn count(
    py: Python<'_>,
    n: i64,
    unique: bool,
    fixed: Option<&Bound<'_, PyAny>>,
    method: &str,
    threads: Option<i64>,
    progress: Option<PyObject>,
    blocked: Option<&Bound<'_, PyAny>>,
) -> PyResult<u128> {
    let problem = super::problem(n, &pairs(fixed, "fixed")?, &pairs(blocked, "blocked")?)?;
    let method = super::method(method)?;
    let threads = super::threads(threads)?;
    let job = if unique { Job::CountUnique } else { Job::Count };
    let state: Shared2 = Arc::new(Mutex::new((0, 0)));
    let stop = Arc::new(AtomicBool::new(false));
    let sink_state = Arc::clone(&state);
    let mut config = config(None, threads, &stop, None);
    config.progress = Some(ProgressSink::new(move |p| {
        if let Ok(mut s) = sink_state.lock() {
            *s = (p.done, p.total.unwrap_or(0));
        }
    }));
    let mut engine = method
        .engine_for(job, &problem, &config)
        .map_err(value_error)?;
    // The engine watches `stop` (raised on Ctrl-C or a failing progress callback) through
    // `config.limits`, so an interrupted count ends promptly on its worker thread too.
    let work = move || -> Result<u128, Failure> {
        let counts = engine.count(&problem, unique).map_err(Failure::value)?;
        runs::check_count(&problem, &counts, engine.name()).map_err(Failure::value)?;
        Ok(if unique {
            counts.unique.unwrap_or(0)
        } else {
            counts.total
        })
    };
    let mut last = (u64::MAX, u64::MAX);
    let mut report = |py: Python<'_>| -> PyResult<()> {
        let Some(callback) = &progress else {
            return Ok(());
        };
        let now = state.lock().map(|s| *s).unwrap_or_default();
        if now != last && now.1 > 0 {
            last = now;
            callback.call1(py, now)?;
        }
        Ok(())
    };
    let result = worker::run(py, stop, None, work, &mut report)?;
    report(py)?;
    Ok(result)
}

/// count_shard(n, index, of, *, threads=None) -> dict
///
/// Counts shard `index` (0-based, `0 <= index < of`) of the n×n count split `of` ways, as the
/// CLI's `count --shard` does; the result is the CLI's JSON line as a dict (its `shard` field
/// is the CLI's 1-based `I/K`), ready for `merge` or for a file the CLI merges.
#[pyfunction]
#[pyo3(signature = (n, index, of, *, threads = None))]
pub fn count_shard<'py>(
    py: Python<'py>,
    n: i64,
    index: i64,
    of: i64,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = board_size(n)?;
    let threads = super::threads(threads)?;
    let shard = u32::try_from(of)
        .ok()
        .zip(u32::try_from(index).ok())
        .and_then(|(of, index)| Shard::new(index.checked_add(1)?, of))
        .ok_or_else(|| value_error(format!("shard index {index} of {of}: need 0 <= index < of")))?;
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        stop: Some(Arc::clone(&stop)),
        ..Limits::default()
    };
    let report = worker::run(
        py,
        stop,
        None,
        move || {
            let mut counter = CountRun::new(threads);
            counter.limits = limits;
            counter
                .run(
                    n,
                    &RunOptions {
                        shard: Some(shard),
                        ..RunOptions::default()
                    },
                )
                .map_err(Failure::value)
        },
        |_| Ok(()),
    )?;
    // The CLI's JSON line, field for field (so that the CLI's `merge` reads it too).
    let json = report.shard_result().to_json();
    py.import("json")?
        .call_method1("loads", (json,))?
        .downcast_into::<PyDict>()
        .map_err(Into::into)
}

/// Merges shard results given as JSON texts; returns (total, unique).
#[pyfunction]
pub fn _merge_json(texts: Vec<String>) -> PyResult<(u128, u128)> {
    let sources: Vec<(String, String)> = texts
        .into_iter()
        .enumerate()
        .map(|(i, text)| (format!("shard result #{i}"), text))
        .collect();
    let merged = runs::shard::merge(&sources).map_err(value_error)?;
    Ok((merged.total, merged.unique))
}
