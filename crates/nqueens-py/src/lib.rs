//! The Python package `nqueens`: every engine of the workspace, callable from Python.
//!
//! This crate builds the extension module `nqueens._nqueens` (PyO3, the stable ABI of CPython
//! 3.9 and later, so one wheel serves every version); the pure-Python package around it, its
//! type stubs and its tests live in `python/` and `tests/`, and maturin puts them together
//! (`pip install ./crates/nqueens-py`).
//!
//! Layout: `queens` is the N-Queens API (`solve`, lazy `solutions`, `count`, shards,
//! `verify`, `Solution` and SVG pictures); `tracepy` the replay of a search step by step
//! (`trace`); `xc`, `satpy` and `cppy` expose the exact
//! cover, SAT and CP engines in the shapes Python users know (the Python modules
//! `nqueens.xc`, `nqueens.sat` and `nqueens.cp` finish those shapes); `worker` runs every
//! long search on a thread of its own so that Python keeps the GIL free, answers Ctrl-C
//! within a fraction of a second, and stops abandoned searches.
//!
//! Conventions: Python indices are 0-based; errors are `ValueError` (or `TypeError` for a
//! wrong type) with the library's own message, never a Rust panic.

mod cppy;
mod queens;
mod satpy;
mod tracepy;
mod worker;
mod xc;

use pyo3::prelude::*;

/// The compiled core of the `nqueens` package (import `nqueens`, not this).
#[pymodule]
fn _nqueens(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<queens::Solution>()?;
    m.add_class::<queens::Solutions>()?;
    m.add_function(wrap_pyfunction!(queens::solve, m)?)?;
    m.add_function(wrap_pyfunction!(queens::solutions, m)?)?;
    m.add_function(wrap_pyfunction!(queens::count, m)?)?;
    m.add_function(wrap_pyfunction!(queens::count_shard, m)?)?;
    m.add_function(wrap_pyfunction!(queens::_merge_json, m)?)?;
    m.add_function(wrap_pyfunction!(queens::verify, m)?)?;
    m.add_function(wrap_pyfunction!(queens::svg_grid, m)?)?;
    m.add_function(wrap_pyfunction!(queens::read_board, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(queens::_live_searches, m)?)?;
    m.add_class::<tracepy::Trace>()?;
    m.add_function(wrap_pyfunction!(tracepy::trace, m)?)?;
    m.add("METHODS", queens::methods(m.py())?)?;
    xc::register(m)?;
    satpy::register(m)?;
    cppy::register(m)?;
    Ok(())
}
