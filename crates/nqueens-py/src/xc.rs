//! Exact cover for `nqueens.xc`: a problem built from Python labels (or read from Knuth's
//! text format) and its searches, on the `nqueens_exact_cover` crate's dancing links.
//!
//! The Python module turns any hashable labels and items into this class's plain form (item
//! names, option entries as item and colour numbers); this side keeps the labels and hands
//! solutions back as lists of them, so a long enumeration never leaves Rust but to build the
//! lists.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use nqueens_exact_cover::{ColorId, Entry, ItemId, ItemKind, OptionId, Problem, Solver, Stats};
use nqueens_support::Limits;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::worker::{self, Failure, Shared, Stream};

fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// A solver for `problem` that gives up as soon as `stop` is raised (Ctrl-C, or the reader of
/// its solutions went away), even between two solutions.
fn solver(problem: &Problem, seed: Option<u64>, stop: &Arc<AtomicBool>) -> Solver {
    let mut solver = match seed {
        Some(seed) => Solver::with_seed(problem, seed),
        None => Solver::new(problem),
    };
    solver.set_limits(Limits {
        stop: Some(Arc::clone(stop)),
        ..Limits::default()
    });
    solver
}

/// [`solver`] with the options at `select` (indices) put into every solution first, as the
/// write-ups do for the queens already on the board; a clash is a `ValueError` naming the
/// option.
fn preselected(
    problem: &Problem,
    seed: Option<u64>,
    stop: &Arc<AtomicBool>,
    select: &[usize],
) -> Result<Solver, Failure> {
    let mut solver = solver(problem, seed, stop);
    for &index in select {
        let option = u32::try_from(index)
            .ok()
            .filter(|&i| (i as usize) < problem.option_count())
            .ok_or_else(|| Failure::value(format!("there is no option {index} to select")))?;
        solver
            .select(OptionId(option))
            .map_err(|e| Failure::value(format!("selecting option {index}: {e}")))?;
    }
    Ok(solver)
}

/// The compiled form of an exact cover problem (use `nqueens.xc.ExactCover`).
#[pyclass(module = "nqueens.xc", frozen)]
pub struct Compiled {
    problem: Arc<Problem>,
    /// The label of each option.
    labels: Arc<Vec<PyObject>>,
    stats: Arc<Mutex<Stats>>,
}

fn labels<'py>(py: Python<'py>, labels: &[PyObject], options: &[OptionId]) -> Bound<'py, PyList> {
    PyList::new(py, options.iter().map(|o| labels[o.index()].bind(py))).expect("a list of objects")
}

#[pymethods]
impl Compiled {
    /// Builds a problem: `names` lists the primary items first (`primary` of them), then the
    /// secondary ones; each option lists `(item, colour)` pairs (colour −1: none) and has the
    /// label of the same index.
    #[staticmethod]
    fn build(
        names: Vec<String>,
        primary: usize,
        colours: Vec<String>,
        options: Vec<Vec<(u32, i64)>>,
        option_labels: Vec<PyObject>,
        option_names: Vec<String>,
    ) -> PyResult<Self> {
        let mut builder = Problem::builder();
        let mut items = Vec::with_capacity(names.len());
        for (i, name) in names.iter().enumerate() {
            let id = if i < primary {
                builder.primary(name)
            } else {
                builder.secondary(name)
            }
            .map_err(value_error)?;
            items.push(id);
        }
        let mut colour_ids = Vec::with_capacity(colours.len());
        for colour in &colours {
            colour_ids.push(builder.color(colour).map_err(value_error)?);
        }
        for (k, option) in options.iter().enumerate() {
            let entries = option.iter().map(|&(item, colour)| Entry {
                item: items
                    .get(item as usize)
                    .copied()
                    .unwrap_or(ItemId(u32::MAX)),
                color: usize::try_from(colour)
                    .ok()
                    .map(|c| colour_ids.get(c).copied().unwrap_or(ColorId(u32::MAX))),
            });
            builder.option(entries).map_err(|e| {
                let name = option_names.get(k).map_or("?", String::as_str);
                value_error(format!("option {name}: {e}"))
            })?;
        }
        Ok(Compiled {
            problem: Arc::new(builder.build()),
            labels: Arc::new(option_labels),
            stats: Arc::default(),
        })
    }

    /// Reads Knuth's text format (the items line, `|` before the secondary items, then one
    /// option per line; `item:colour` for colours); options are labelled 0, 1, 2, ... in order.
    #[staticmethod]
    fn parse(py: Python<'_>, text: &str) -> PyResult<Self> {
        let problem = Problem::parse(text).map_err(value_error)?;
        let labels = (0..problem.option_count())
            .map(|i| Ok(i.into_pyobject(py)?.into_any().unbind()))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(Compiled {
            problem: Arc::new(problem),
            labels: Arc::new(labels),
            stats: Arc::default(),
        })
    }

    /// The item names, primary first.
    fn item_names(&self) -> (Vec<String>, Vec<String>) {
        let (primary, secondary): (Vec<_>, Vec<_>) = self
            .problem
            .items()
            .iter()
            .partition(|item| item.kind == ItemKind::Primary);
        (
            primary.into_iter().map(|i| i.name.clone()).collect(),
            secondary.into_iter().map(|i| i.name.clone()).collect(),
        )
    }

    /// Option `index` in the text format (`item` or `item:colour` tokens).
    fn option_text(&self, index: usize) -> PyResult<String> {
        if index >= self.problem.option_count() {
            return Err(value_error(format!(
                "option {index} does not exist (there are {})",
                self.problem.option_count()
            )));
        }
        Ok(self.problem.option_text(OptionId(index as u32)))
    }

    /// The number of options.
    fn option_count(&self) -> usize {
        self.problem.option_count()
    }

    /// The counters of the last search.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let stats = self.stats.lock().map(|s| *s).unwrap_or_default();
        let dict = PyDict::new(py);
        dict.set_item("nodes", stats.nodes)?;
        dict.set_item("updates", stats.updates)?;
        dict.set_item("solutions", stats.solutions)?;
        dict.set_item("restarts", stats.restarts)?;
        Ok(dict)
    }

    /// The number of solutions that contain the options at `select` (GIL released; Ctrl-C
    /// stops it).
    #[pyo3(signature = (seed = None, select = Vec::new()))]
    fn count(&self, py: Python<'_>, seed: Option<u64>, select: Vec<usize>) -> PyResult<u128> {
        let problem = Arc::clone(&self.problem);
        let stats = Arc::clone(&self.stats);
        let stop = Arc::new(AtomicBool::new(false));
        let worker_stop = Arc::clone(&stop);
        worker::run(
            py,
            stop,
            None,
            move || {
                let mut solver = preselected(&problem, seed, &worker_stop, &select)?;
                let mut count = 0u128;
                let end = solver.for_each(|_| {
                    if worker_stop.load(Ordering::Relaxed) {
                        return ControlFlow::Break(());
                    }
                    count += 1;
                    ControlFlow::Continue(())
                });
                if let Ok(mut s) = stats.lock() {
                    *s = solver.stats();
                }
                // The only limit is the stop flag: a stopped count is no count.
                if end.is_err() || worker_stop.load(Ordering::Relaxed) {
                    return Err(Failure::Stopped);
                }
                Ok(count)
            },
            |_| Ok(()),
        )
    }

    /// One solution containing the options at `select` (option indices), or `None`: the
    /// solver's `first`, which races the declared order against random ones when there is no
    /// seed, so an order nobody tuned does not take minutes. Ctrl-C stops it.
    #[pyo3(signature = (seed = None, select = Vec::new()))]
    fn first<'py>(
        &self,
        py: Python<'py>,
        seed: Option<u64>,
        select: Vec<usize>,
    ) -> PyResult<Option<Bound<'py, PyList>>> {
        let problem = Arc::clone(&self.problem);
        let stats = Arc::clone(&self.stats);
        let stop = Arc::new(AtomicBool::new(false));
        let worker_stop = Arc::clone(&stop);
        let found = worker::run(
            py,
            stop,
            None,
            move || {
                let mut solver = preselected(&problem, seed, &worker_stop, &select)?;
                let found = solver.first();
                if let Ok(mut s) = stats.lock() {
                    *s = solver.stats();
                }
                found.map_err(|_| Failure::Stopped)
            },
            |_| Ok(()),
        )?;
        Ok(found.map(|options| labels(py, &self.labels, &options)))
    }

    /// The solutions that contain the options at `select`, lazily, as lists of labels. A
    /// selection that clashes is a `ValueError` here, before any search.
    #[pyo3(signature = (limit = None, seed = None, select = Vec::new()))]
    fn solutions(
        &self,
        limit: Option<u64>,
        seed: Option<u64>,
        select: Vec<usize>,
    ) -> PyResult<Covers> {
        let problem = Arc::clone(&self.problem);
        let stats = Arc::clone(&self.stats);
        let stop = Arc::new(AtomicBool::new(false));
        let search_stop = Arc::clone(&stop);
        // Checked here, so the error comes from this call, not from the first `next`.
        if let Err(Failure::Value(message)) = preselected(&problem, seed, &stop, &select) {
            return Err(value_error(message));
        }
        let stream = Stream::spawn(stop, move |feed| {
            let mut solver = preselected(&problem, seed, &search_stop, &select)?;
            let mut seen = 0u64;
            if limit != Some(0) {
                // A stop (the flag, raised from the waiting side) ends the stream as it is.
                let _ = solver.for_each(|options| {
                    seen += 1;
                    feed.push(options.to_vec())?;
                    if Some(seen) == limit {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                });
            }
            if let Ok(mut s) = stats.lock() {
                *s = solver.stats();
            }
            Ok(())
        });
        Ok(Covers {
            stream: Shared::new(stream),
            labels: Arc::clone(&self.labels),
        })
    }
}

/// A lazy iterator over exact covers (lists of option labels); `close()` stops its search.
#[pyclass(module = "nqueens.xc", frozen)]
pub struct Covers {
    stream: Shared<Vec<OptionId>>,
    labels: Arc<Vec<PyObject>>,
}

#[pymethods]
impl Covers {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        Ok(self
            .stream
            .next(py)?
            .map(|options| labels(py, &self.labels, &options)))
    }

    /// Stops the search and frees it.
    fn close(&self) {
        self.stream.close();
    }
}

/// Adds the classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Compiled>()?;
    m.add_class::<Covers>()?;
    Ok(())
}
