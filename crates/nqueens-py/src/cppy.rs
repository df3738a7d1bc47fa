//! The CP search for `nqueens.cp`: the Python module builds a CP-SAT-shaped model (integer
//! variables, `x + c` views, all-different, `≠`) and hands it here in plain form.
//!
//! The search runs with the GIL released; each solution, and every few tens of milliseconds
//! of search, takes the GIL back briefly: to call the Python solution callback (which may stop
//! the search) and to run Python's signal handlers (so Ctrl-C stops it).

use std::ops::ControlFlow;
use std::time::Duration;

use nqueens_cp::{SearchConfig, Solution, Stats, Status, Strength, Var, View};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

struct Observer {
    hook: Option<PyObject>,
    all: bool,
    last: Option<Vec<i32>>,
    error: Option<PyErr>,
    stopped_by_callback: bool,
}

impl nqueens_cp::Observer for Observer {
    fn solution(&mut self, solution: &Solution<'_>) -> ControlFlow<()> {
        let values = solution.values();
        if let Some(hook) = &self.hook {
            let stop = Python::with_gil(|py| -> PyResult<bool> {
                hook.call1(py, (values.clone(),))?.bind(py).is_truthy()
            });
            match stop {
                Ok(true) => self.stopped_by_callback = true,
                Ok(false) => {}
                Err(error) => {
                    self.error = Some(error);
                    self.last = Some(values);
                    return ControlFlow::Break(());
                }
            }
        }
        self.last = Some(values);
        if self.stopped_by_callback || !self.all {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    fn progress(&mut self, _stats: &Stats) -> ControlFlow<()> {
        match Python::with_gil(|py| py.check_signals()) {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => {
                self.error = Some(error);
                ControlFlow::Break(())
            }
        }
    }
}

type Term = (u32, i32);

fn view(vars: &[Var], (var, offset): Term) -> PyResult<View> {
    vars.get(var as usize)
        .map(|&v| v.plus(offset))
        .ok_or_else(|| value_error(format!("variable {var} does not belong to this model")))
}

/// Searches a model; returns (status, last solution's values, solutions, seconds, nodes,
/// failures). Status: "complete", "stopped" (by the callback), "first" (stopped at the first
/// solution), "limit".
#[pyfunction]
#[pyo3(signature = (domains, all_different, not_equal, fixed, removed, all, hook = None, time_limit = None, seed = 0))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn cp_search(
    py: Python<'_>,
    domains: Vec<(i32, i32)>,
    all_different: Vec<Vec<Term>>,
    not_equal: Vec<(Term, Term)>,
    fixed: Vec<(u32, i32)>,
    removed: Vec<(u32, i32)>,
    all: bool,
    hook: Option<PyObject>,
    time_limit: Option<f64>,
    seed: u64,
) -> PyResult<(&'static str, Option<Vec<i32>>, u64, f64, u64, u64)> {
    let mut solver = nqueens_cp::Solver::new();
    let mut vars = Vec::with_capacity(domains.len());
    for (lo, hi) in domains {
        vars.push(solver.new_var(lo, hi).map_err(value_error)?);
    }
    for group in &all_different {
        let views = group
            .iter()
            .map(|&t| view(&vars, t))
            .collect::<PyResult<Vec<View>>>()?;
        solver
            .all_different(&views, Strength::Bounds)
            .map_err(value_error)?;
    }
    for &(a, b) in &not_equal {
        solver
            .not_equal(view(&vars, a)?, view(&vars, b)?)
            .map_err(value_error)?;
    }
    for &(var, value) in &fixed {
        let v = view(&vars, (var, 0))?.var;
        solver.fix(v, value).map_err(value_error)?;
    }
    for &(var, value) in &removed {
        let v = view(&vars, (var, 0))?.var;
        solver.remove(v, value).map_err(value_error)?;
    }
    let config = SearchConfig {
        seed,
        limits: nqueens_support::Limits {
            time: time_limit
                .map(|t| {
                    Duration::try_from_secs_f64(t).map_err(|_| {
                        value_error(format!("the time limit must be ≥ 0 seconds, not {t}"))
                    })
                })
                .transpose()?,
            ..nqueens_support::Limits::default()
        },
        progress_every: Duration::from_millis(50),
        ..SearchConfig::default()
    };
    let mut observer = Observer {
        hook,
        all,
        last: None,
        error: None,
        stopped_by_callback: false,
    };
    let start = std::time::Instant::now();
    let result = py.allow_threads(|| solver.search_observed(&config, &mut observer));
    if let Some(error) = observer.error {
        return Err(error);
    }
    let (status, solutions, elapsed) = match result {
        Ok(result) => {
            let status = match result.status {
                Status::Complete => "complete",
                Status::Stopped if observer.stopped_by_callback => "stopped",
                Status::Stopped => "first",
            };
            (status, result.solutions, result.elapsed)
        }
        // A limit: the solutions visited before it, never a count.
        Err(nqueens_cp::Error::Stopped(stopped)) => {
            let found = u64::try_from(stopped.found).unwrap_or(u64::MAX);
            ("limit", found, start.elapsed())
        }
        Err(e) => return Err(value_error(e)),
    };
    let stats = solver.stats();
    Ok((
        status,
        observer.last,
        solutions,
        elapsed.as_secs_f64(),
        stats.nodes,
        stats.failures,
    ))
}

/// Adds the function to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cp_search, m)?)
}
