//! The N-Queens API: `solve`, `solutions`, `count`, shards, `verify`, `Solution` and pictures.
//!
//! Python sees 0-based rows and columns everywhere (a fixed queen is `(row, col)` with both in
//! `range(n)`); error messages come from the library and so name squares the way the CLI does,
//! 1-based as `ROW:COL`.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nqueens::board::Numbering;
use nqueens::engine::Limits;
use nqueens::engines::counter::{self, Counter, RunOptions, Shard};
use nqueens::formats::read;
use nqueens::formats::render::{self, Colour, Format, SvgStyle};
use nqueens::{Config, Job, Method, Outcome, Problem, ProgressSink, Queen};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PySlice, PyTuple};

use crate::worker::{self, Failure, Shared, Stream};

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

/// A placement of one queen per row: `columns[row]` is the (0-based) column of the queen on
/// `row`, with the fixed queens and blocked squares of the problem it solves.
///
/// A `Solution` is a sequence of `n` ints (`len`, indexing, iteration, `in`), compares, orders
/// and hashes by its columns, prints as a Unicode board (`str()`, the fixed queens `♛`, the
/// blocked squares `×`, as the CLI draws it), and shows itself as a board in Jupyter
/// (`_repr_svg_`).
#[pyclass(module = "nqueens", frozen, sequence)]
pub struct Solution {
    columns: Vec<u32>,
    /// The problem's fixed queens (0-based), drawn in another colour.
    fixed: Arc<[Queen]>,
    /// The problem's blocked squares (0-based), drawn crossed out.
    blocked: Arc<[Queen]>,
}

/// The fixed queens and blocked squares a problem gives its solutions.
type Marks = (Arc<[Queen]>, Arc<[Queen]>);

fn marks(problem: &Problem) -> Marks {
    (problem.fixed().into(), problem.blocked().into())
}

impl Solution {
    fn new(columns: Vec<u32>, (fixed, blocked): &Marks) -> Self {
        Solution {
            columns,
            fixed: Arc::clone(fixed),
            blocked: Arc::clone(blocked),
        }
    }

    fn problem(&self) -> Problem {
        let n = self.columns.len().max(1) as u32;
        Problem::with_blocks(n, self.fixed.iter().copied(), self.blocked.iter().copied())
            .unwrap_or_else(|_| Problem::new(n).expect("n ≥ 1"))
    }

    fn solution(&self) -> nqueens::Solution {
        nqueens::Solution::from_columns(self.columns.clone())
    }
}

fn svg_style(
    cell: u32,
    margin: u32,
    columns: u32,
    colours: [Option<&str>; 4],
) -> PyResult<SvgStyle> {
    let mut style = SvgStyle {
        cell,
        margin,
        columns,
        ..SvgStyle::default()
    };
    let [light, dark, queen, fixed] = colours;
    let slots = [
        (light, &mut style.light),
        (dark, &mut style.dark),
        (queen, &mut style.queen),
        (fixed, &mut style.fixed),
    ];
    for (given, slot) in slots {
        if let Some(text) = given {
            *slot = text.parse::<Colour>().map_err(value_error)?;
        }
    }
    Ok(style)
}

#[pymethods]
impl Solution {
    /// Solution(columns, *, fixed=(), blocked=()): the placement with the queen of row `i` in
    /// column `columns[i]` (0-based), of the problem with these fixed queens and blocked
    /// squares. Not checked: call `nqueens.verify`.
    #[new]
    #[pyo3(signature = (columns, *, fixed = None, blocked = None), text_signature = "(columns, *, fixed=(), blocked=())")]
    fn py_new(
        columns: Vec<i64>,
        fixed: Option<&Bound<'_, PyAny>>,
        blocked: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let columns = columns
            .into_iter()
            .map(|c| {
                u32::try_from(c)
                    .map_err(|_| value_error(format!("column {c} is negative or too large")))
            })
            .collect::<PyResult<Vec<u32>>>()?;
        let problem = problem(
            columns.len().max(1) as i64,
            &pairs(fixed, "fixed")?,
            &pairs(blocked, "blocked")?,
        )?;
        Ok(Solution::new(columns, &marks(&problem)))
    }

    /// The board size.
    #[getter]
    fn n(&self) -> usize {
        self.columns.len()
    }

    /// The 0-based column of each row's queen, as a tuple.
    #[getter]
    fn columns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.columns)
    }

    /// The queens the problem fixed, as 0-based `(row, col)` pairs.
    #[getter]
    fn fixed(&self) -> Vec<(u32, u32)> {
        self.fixed.iter().map(|q| (q.row, q.col)).collect()
    }

    /// The squares the problem blocked, as 0-based `(row, col)` pairs.
    #[getter]
    fn blocked(&self) -> Vec<(u32, u32)> {
        self.blocked.iter().map(|q| (q.row, q.col)).collect()
    }

    fn __len__(&self) -> usize {
        self.columns.len()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, key: &Bound<'py, PyAny>) -> PyResult<PyObject> {
        if key.downcast::<PySlice>().is_ok() {
            let tuple = PyTuple::new(py, &self.columns)?;
            return Ok(tuple.as_any().get_item(key)?.unbind());
        }
        let index: isize = key
            .extract()
            .map_err(|_| PyTypeError::new_err("Solution indices must be integers or slices"))?;
        let len = self.columns.len() as isize;
        let i = if index < 0 { index + len } else { index };
        if !(0..len).contains(&i) {
            return Err(PyIndexError::new_err("Solution index out of range"));
        }
        Ok(self.columns[i as usize]
            .into_pyobject(py)?
            .into_any()
            .unbind())
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyTuple::new(py, &self.columns)?.try_iter()?.into_any())
    }

    /// Equal to a solution with the same columns, and to any list or tuple of the same
    /// columns (`nqueens.solve(6) == [1, 3, 5, 0, 2, 4]`).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(other) = other.downcast::<Solution>() {
            return self.columns == other.get().columns;
        }
        if other.downcast::<PyList>().is_err() && other.downcast::<PyTuple>().is_err() {
            return false;
        }
        match other.extract::<Vec<i64>>() {
            Ok(columns) => {
                columns.len() == self.columns.len()
                    && columns
                        .iter()
                        .zip(&self.columns)
                        .all(|(&a, &b)| a == i64::from(b))
            }
            Err(_) => false,
        }
    }

    fn __lt__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyObject {
        self.order(py, other, |o| o.is_lt())
    }

    fn __le__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyObject {
        self.order(py, other, |o| o.is_le())
    }

    fn __gt__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyObject {
        self.order(py, other, |o| o.is_gt())
    }

    fn __ge__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyObject {
        self.order(py, other, |o| o.is_ge())
    }

    /// The hash of the tuple of its columns, so that a solution and the equal tuple are one
    /// key of a dict or set.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyTuple::new(py, &self.columns)?.hash()
    }

    /// The Unicode board: `♕` a queen, `♛` a fixed queen, `×` a blocked square, `·` an empty
    /// one.
    fn __str__(&self) -> String {
        let mut text = render::to_text(Format::Unicode, &self.problem(), &self.solution());
        text.truncate(text.trim_end().len());
        text
    }

    /// `Solution([1, 3, 0, 2])`, with the fixed queens and blocked squares when there are any,
    /// so that it reads back.
    fn __repr__(&self) -> String {
        let columns: Vec<String> = self.columns.iter().map(u32::to_string).collect();
        let mut text = format!("Solution([{}]", columns.join(", "));
        for (name, squares) in [("fixed", &self.fixed), ("blocked", &self.blocked)] {
            if !squares.is_empty() {
                let pairs: Vec<String> = squares
                    .iter()
                    .map(|q| format!("({}, {})", q.row, q.col))
                    .collect();
                text.push_str(&format!(", {name}=[{}]", pairs.join(", ")));
            }
        }
        text + ")"
    }

    /// The 0/1 matrix: `matrix[row][col]` is 1 where a queen stands.
    fn to_matrix(&self) -> Vec<Vec<u32>> {
        let n = self.columns.len();
        self.columns
            .iter()
            .map(|&c| (0..n).map(|j| u32::from(j == c as usize)).collect())
            .collect()
    }

    /// The board as an SVG picture (a string), blocked squares crossed out. Colours are `#rgb`,
    /// `#rrggbb` or a CSS name.
    #[pyo3(signature = (*, cell = 40, margin = 16, light = None, dark = None, queen = None, fixed = None))]
    fn to_svg(
        &self,
        cell: u32,
        margin: u32,
        light: Option<&str>,
        dark: Option<&str>,
        queen: Option<&str>,
        fixed: Option<&str>,
    ) -> PyResult<String> {
        let style = svg_style(cell, margin, 1, [light, dark, queen, fixed])?;
        Ok(render::svg(&self.problem(), &[self.solution()], &style))
    }

    /// The board as SVG, for Jupyter.
    fn _repr_svg_(&self) -> String {
        render::svg(&self.problem(), &[self.solution()], &SvgStyle::default())
    }
}

impl Solution {
    /// A comparison by columns with another solution or a list or tuple of ints, as `==` does;
    /// `NotImplemented` for anything else.
    fn order(
        &self,
        py: Python<'_>,
        other: &Bound<'_, PyAny>,
        holds: impl Fn(std::cmp::Ordering) -> bool,
    ) -> PyObject {
        let other: Vec<i64> = if let Ok(other) = other.downcast::<Solution>() {
            other.get().columns.iter().map(|&c| i64::from(c)).collect()
        } else if other.downcast::<PyList>().is_ok() || other.downcast::<PyTuple>().is_ok() {
            match other.extract() {
                Ok(columns) => columns,
                Err(_) => return py.NotImplemented(),
            }
        } else {
            return py.NotImplemented();
        };
        let mine = self.columns.iter().map(|&c| i64::from(c));
        holds(mine.cmp(other)).into_pyobject(py).map_or_else(
            |_| py.NotImplemented(),
            |b| b.to_owned().into_any().unbind(),
        )
    }
}

/// A grid of boards as one SVG picture: `columns` boards per row, each square `cell` pixels,
/// `margin` pixels around and between boards. The solutions must share one board size; the
/// first one's fixed queens are drawn in the `fixed` colour and its blocked squares crossed
/// out.
#[pyfunction]
#[pyo3(signature = (solutions, *, columns = 4, cell = 40, margin = 16, light = None, dark = None, queen = None, fixed = None))]
#[allow(clippy::too_many_arguments)]
pub fn svg_grid(
    solutions: &Bound<'_, PyAny>,
    columns: u32,
    cell: u32,
    margin: u32,
    light: Option<&str>,
    dark: Option<&str>,
    queen: Option<&str>,
    fixed: Option<&str>,
) -> PyResult<String> {
    let style = svg_style(cell, margin, columns, [light, dark, queen, fixed])?;
    let mut boards = Vec::new();
    let mut first: Option<Problem> = None;
    for item in solutions.try_iter()? {
        let item = item?;
        let columns: Vec<u32> = match item.downcast::<Solution>() {
            Ok(solution) => {
                let solution = solution.get();
                first.get_or_insert_with(|| solution.problem());
                solution.columns.clone()
            }
            Err(_) => item.extract().map_err(|_| {
                PyTypeError::new_err("svg_grid takes Solution objects or sequences of columns")
            })?,
        };
        boards.push(nqueens::Solution::from_columns(columns));
    }
    let Some(n) = boards.first().map(|b| b.n()) else {
        return Err(value_error("svg_grid needs at least one solution"));
    };
    if let Some(other) = boards.iter().find(|b| b.n() != n) {
        return Err(value_error(format!(
            "all boards must have the same size: {n} and {}",
            other.n()
        )));
    }
    let problem = match first {
        Some(problem) if problem.n() == n.max(1) => problem,
        _ => Problem::new(n.max(1)).map_err(value_error)?,
    };
    Ok(render::svg(&problem, &boards, &style))
}

/// The lazy iterator of `nqueens.solutions`: the search runs on a worker thread a little
/// ahead of the reader; `close()` (or dropping the iterator) stops it.
#[pyclass(module = "nqueens", frozen)]
pub struct Solutions {
    stream: Shared<nqueens::Solution>,
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
    let problem = self::problem(n, &pairs(fixed, "fixed")?, &pairs(blocked, "blocked")?)?;
    let method = self::method(method)?;
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
    let config = config(self::seed(seed)?, 1, &stop, limit);
    let mut engine = method
        .engine_for(Job::Solve, &problem, &config)
        .map_err(value_error)?;
    let marks = marks(&problem);
    let outcome = worker::run(
        py,
        stop,
        limit,
        move || engine.solve(&problem).map_err(Failure::value),
        |_| Ok(()),
    )?;
    match outcome {
        Outcome::Found(s) => Ok(Some(Solution::new(s.into_columns(), &marks))),
        Outcome::NoSolution => Ok(None),
        Outcome::GaveUp { reason } => Err(Failure::Timeout(reason).into()),
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
    let problem = self::problem(n, &pairs(fixed, "fixed")?, &pairs(blocked, "blocked")?)?;
    let method = self::method(method)?;
    let stop = Arc::new(AtomicBool::new(false));
    let config = config(self::seed(seed)?, 1, &stop, None);
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
    let problem = self::problem(n, &pairs(fixed, "fixed")?, &pairs(blocked, "blocked")?)?;
    let method = self::method(method)?;
    let threads = self::threads(threads)?;
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
    let threads = self::threads(threads)?;
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
            let mut counter = Counter::new(threads);
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
    let merged = counter::shard::merge(&sources).map_err(value_error)?;
    Ok((merged.total, merged.unique))
}

/// verify(columns, *, fixed=(), blocked=()) -> None
///
/// Checks that `columns` (the 0-based column of each row's queen; a `Solution` or any
/// sequence of ints) places n non-attacking queens on the n×n board, n = len(columns), keeping
/// the `fixed` queens and leaving the `blocked` squares empty (each any iterable of 0-based
/// `(row, col)` pairs; a `Solution`'s own fixed queens and blocked squares count too, as the
/// CLI's verify holds a line to those it records). Raises `ValueError` naming the two
/// attacking queens (0-based `(row, col)`, as everything in Python) otherwise.
#[pyfunction]
#[pyo3(signature = (columns, *, fixed = None, blocked = None), text_signature = "(columns, *, fixed=(), blocked=())")]
pub fn verify(
    columns: &Bound<'_, PyAny>,
    fixed: Option<&Bound<'_, PyAny>>,
    blocked: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let mut fixed = pairs(fixed, "fixed")?;
    let mut blocked = pairs(blocked, "blocked")?;
    let columns: Vec<u32> = match columns.downcast::<Solution>() {
        Ok(solution) => {
            let solution = solution.get();
            let zero_based = |q: &Queen| (i64::from(q.row), i64::from(q.col));
            fixed.extend(solution.fixed.iter().map(zero_based));
            fixed.sort_unstable();
            fixed.dedup();
            blocked.extend(solution.blocked.iter().map(zero_based));
            solution.columns.clone()
        }
        Err(_) => {
            let raw: Vec<i64> = columns.extract()?;
            raw.iter()
                .enumerate()
                .map(|(row, &c)| {
                    u32::try_from(c).map_err(|_| {
                        value_error(format!(
                            "the queen on row {row} (0-based) has column {c}, off the board"
                        ))
                    })
                })
                .collect::<PyResult<_>>()?
        }
    };
    let problem = self::problem(columns.len().max(1) as i64, &fixed, &blocked)?;
    if columns.is_empty() {
        return Err(value_error("a solution needs at least one row"));
    }
    nqueens::verify(&problem, &nqueens::Solution::from_columns(columns))
        .map_err(|v| value_error(v.describe(Numbering::ZeroBased)))
}

/// read_board(text, *, diagonals=None) -> dict
///
/// The board a file's text describes, read as the CLI's `--fix-file` reads it (any board the
/// tool writes: a partial board, a board drawn by `str()` or the unicode, ascii or matrix
/// format, a json, coords or permutation line, a CSPLib instance; `diagonals` takes the first
/// so many of an excluded-diagonals instance): `{"n": n, "fixed": [...], "blocked": [...]}`
/// with 0-based `(row, col)` pairs, ready for `solve(**board)`. Every queen in the text is a
/// fixed queen. Raises `ValueError` with the 1-based line and column of what is wrong (the
/// text numbers its squares from 1).
#[pyfunction]
#[pyo3(signature = (text, *, diagonals = None))]
pub fn read_board<'py>(
    py: Python<'py>,
    text: &str,
    diagonals: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let board = read::board(text, read::Options { diagonals }).map_err(value_error)?;
    let problem = board.to_problem().map_err(value_error)?;
    let zero_based =
        |squares: &[Queen]| -> Vec<(u32, u32)> { squares.iter().map(|q| (q.row, q.col)).collect() };
    let dict = PyDict::new(py);
    dict.set_item("n", problem.n())?;
    dict.set_item("fixed", zero_based(problem.fixed()))?;
    dict.set_item("blocked", zero_based(problem.blocked()))?;
    Ok(dict)
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
