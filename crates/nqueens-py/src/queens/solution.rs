//! `Solution`, a placement Python can index, compare, hash and print, and its pictures: one
//! board as SVG (`to_svg`) and a grid of boards (`svg_grid`), both by the library's renderer.

use std::sync::Arc;

use nqueens_solver::formats::render::{self, Colour, Format, SvgStyle};
use nqueens_solver::{Problem, Queen};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PySlice, PyTuple};

use super::{pairs, problem, value_error};

/// A placement of one queen per row: `columns[row]` is the (0-based) column of the queen on
/// `row`, with the fixed queens and blocked squares of the problem it solves.
///
/// A `Solution` is a sequence of `n` ints (`len`, indexing, iteration, `in`), compares, orders
/// and hashes by its columns, prints as a Unicode board (`str()`, the fixed queens `♛`, the
/// blocked squares `×`, as the CLI draws it), and shows itself as a board in Jupyter
/// (`_repr_svg_`).
#[pyclass(module = "nqueens", frozen, sequence)]
pub struct Solution {
    pub(super) columns: Vec<u32>,
    /// The problem's fixed queens (0-based), drawn in another colour.
    pub(super) fixed: Arc<[Queen]>,
    /// The problem's blocked squares (0-based), drawn crossed out.
    pub(super) blocked: Arc<[Queen]>,
}

/// The fixed queens and blocked squares a problem gives its solutions.
pub(super) type Marks = (Arc<[Queen]>, Arc<[Queen]>);

pub(super) fn marks(problem: &Problem) -> Marks {
    (problem.fixed().into(), problem.blocked().into())
}

impl Solution {
    pub(super) fn new(columns: Vec<u32>, (fixed, blocked): &Marks) -> Self {
        Solution {
            columns,
            fixed: Arc::clone(fixed),
            blocked: Arc::clone(blocked),
        }
    }

    pub(super) fn problem(&self) -> Problem {
        let n = self.columns.len().max(1) as u32;
        Problem::with_blocks(n, self.fixed.iter().copied(), self.blocked.iter().copied())
            .unwrap_or_else(|_| Problem::new(n).expect("n ≥ 1"))
    }

    pub(super) fn solution(&self) -> nqueens_solver::Solution {
        nqueens_solver::Solution::from_columns(self.columns.clone())
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
        boards.push(nqueens_solver::Solution::from_columns(columns));
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
