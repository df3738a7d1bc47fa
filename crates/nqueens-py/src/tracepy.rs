//! `nqueens.trace`: a replay of a search step by step, the engines' own steps as the web page
//! shows them (`nqueens_solver::trace`), as Python dicts.
//!
//! Rows and columns are 0-based; a CP step's domains are one int per row, bit `c` set while
//! column `c` is possible. Exact cover's items keep the names the encoding gives them, as
//! `xc-export` writes them (`r5` is row 5 counted from 1, the row `"r": 4` of a step). The search runs with the GIL released, bounded by its node budget.

use nqueens_solver::trace::{Event, Method, Settings};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::queens::{pairs, problem, seed, value_error};

/// A recorded search: iterate over it for its steps (dicts with a key `"t"`: `place`,
/// `remove`, `branch`, `cover`, `uncover`, `assign`, `refute`, `restart`, `decide`,
/// `conflict`, `learn`, `solution`).
#[pyclass(module = "nqueens", frozen)]
pub struct Trace {
    /// The board size.
    #[pyo3(get)]
    n: u32,
    /// The method's name.
    #[pyo3(get)]
    method: &'static str,
    /// The nodes the engine counted (its decisions for sat): the steps whose `node` is true.
    #[pyo3(get)]
    nodes: u64,
    /// The solutions met.
    #[pyo3(get)]
    solutions: u64,
    /// Whether the node budget cut the search short.
    #[pyo3(get)]
    truncated: bool,
    /// CP: the rows' domains after the root's propagation (an int per row); else empty.
    #[pyo3(get)]
    start: Vec<u64>,
    steps: Py<PyList>,
}

#[pymethods]
impl Trace {
    fn __iter__(&self, py: Python<'_>) -> PyResult<PyObject> {
        Ok(self.steps.bind(py).try_iter()?.into_any().unbind())
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.steps.bind(py).len()
    }

    fn __getitem__(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        Ok(self.steps.bind(py).as_any().get_item(index)?.unbind())
    }

    fn __repr__(&self) -> String {
        let counted = |k: u64, what: &str| {
            let plural = if k == 1 { "" } else { "s" };
            format!("{k} {what}{plural}")
        };
        format!(
            "<nqueens.Trace {} n={}: {}, {}, {}{}>",
            self.method,
            self.n,
            counted(
                Python::with_gil(|py| self.steps.bind(py).len()) as u64,
                "step"
            ),
            counted(self.nodes, "node"),
            counted(self.solutions, "solution"),
            if self.truncated { ", cut short" } else { "" }
        )
    }
}

/// The dict of one step.
fn step<'py>(py: Python<'py>, event: &Event, method: Method) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let square = |r: &u32, c: &u32| -> PyResult<()> {
        dict.set_item("r", r)?;
        dict.set_item("c", c)
    };
    let name = match event {
        Event::Place { r, c } => {
            square(r, c)?;
            "place"
        }
        Event::Remove { r, c } => {
            square(r, c)?;
            "remove"
        }
        Event::Branch { item } | Event::Cover { item } | Event::Uncover { item } => {
            dict.set_item("item", item)?;
            match event {
                Event::Branch { .. } => "branch",
                Event::Cover { .. } => "cover",
                _ => "uncover",
            }
        }
        Event::Assign { r, c, d, failed } | Event::Refute { r, c, d, failed } => {
            square(r, c)?;
            dict.set_item("d", d)?;
            dict.set_item("failed", failed)?;
            if matches!(event, Event::Assign { .. }) {
                "assign"
            } else {
                "refute"
            }
        }
        Event::Restart => "restart",
        Event::Decide { r, c, queen, level } => {
            dict.set_item("r", r)?;
            dict.set_item("c", c)?;
            dict.set_item("queen", queen)?;
            dict.set_item("level", level)?;
            "decide"
        }
        Event::Conflict { level } => {
            dict.set_item("level", level)?;
            "conflict"
        }
        Event::Learn {
            size,
            lbd,
            backjump,
        } => {
            dict.set_item("size", size)?;
            dict.set_item("lbd", lbd)?;
            dict.set_item("backjump", backjump)?;
            "learn"
        }
        Event::Solution { columns } => {
            dict.set_item("columns", columns)?;
            "solution"
        }
    };
    dict.set_item("t", name)?;
    dict.set_item("node", event.is_node(method))?;
    Ok(dict)
}

/// The replay of `method` ("backtrack", "dlx", "cp" or "sat") on `n` with `fixed` queens: to the
/// first solution, or with `all` to the end of the search, at most `max_nodes` nodes.
#[pyfunction]
#[pyo3(signature = (n, *, method = "backtrack", fixed = None, all = false, seed = None, max_nodes = 100_000, blocked = None), text_signature = "(n, *, method='backtrack', fixed=(), all=False, seed=None, max_nodes=100000, blocked=())")]
#[allow(clippy::too_many_arguments)]
pub fn trace(
    py: Python<'_>,
    n: i64,
    method: &str,
    fixed: Option<&Bound<'_, PyAny>>,
    all: bool,
    seed: Option<i64>,
    max_nodes: i64,
    blocked: Option<&Bound<'_, PyAny>>,
) -> PyResult<Trace> {
    let problem = problem(n, &pairs(fixed, "fixed")?, &pairs(blocked, "blocked")?)?;
    let method = Method::parse(method).map_err(value_error)?;
    let max_nodes = u64::try_from(max_nodes)
        .map_err(|_| value_error(format!("max_nodes must be ≥ 0, not {max_nodes}")))?;
    let settings = Settings {
        all,
        seed: self::seed(seed)?,
        max_nodes,
    };
    let recorded = py
        .allow_threads(|| nqueens_solver::trace::run(method, &problem, settings))
        .map_err(value_error)?;
    let steps = PyList::empty(py);
    for event in &recorded.events {
        steps.append(step(py, event, method)?)?;
    }
    Ok(Trace {
        n: recorded.n,
        method: recorded.method,
        nodes: recorded.nodes,
        solutions: recorded.solutions,
        truncated: recorded.truncated,
        start: recorded.start,
        steps: steps.unbind(),
    })
}
