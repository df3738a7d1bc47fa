//! Boards in: `verify` checks a placement against a board, `read_board` reads a board file in
//! any notation the CLI reads.

use nqueens_solver::Queen;
use nqueens_solver::board::Numbering;
use nqueens_solver::formats::read;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{Solution, pairs, value_error};

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
    let problem = super::problem(columns.len().max(1) as i64, &fixed, &blocked)?;
    if columns.is_empty() {
        return Err(value_error("a solution needs at least one row"));
    }
    nqueens_solver::verify(&problem, &nqueens_solver::Solution::from_columns(columns))
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
