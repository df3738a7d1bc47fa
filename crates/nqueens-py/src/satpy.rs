//! The SAT solver for `nqueens.sat`, in PySAT's shape: DIMACS integers in and out, solving
//! under assumptions, models and cores.
//!
//! A solve runs in rounds of [`ROUND`] conflicts with the GIL released; between rounds the
//! solver looks at Python's signals, so Ctrl-C stops even a hard formula within a round (tens of
//! milliseconds). Learnt clauses stay between rounds, so the rounds cost little.
//!
//! `True` and `False` are proven answers only: an outcome that is neither (memory refused, a
//! limit, an interrupt) is a Python exception ([`stop_error`]) or, for the conflict budget of
//! `solve_limited`, `None`; it never reads as "unsatisfiable".

use std::fs::File;
use std::io::BufWriter;
use std::sync::Mutex;

use nqueens_sat::{LimitReached, Limits, Lit, Options, Outcome};
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// Conflicts per round of a solve.
const ROUND: u64 = 2_000;

fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

fn literal(number: i64) -> PyResult<Lit> {
    Lit::from_dimacs(number).ok_or_else(|| {
        value_error(if number == 0 {
            "0 is not a literal (DIMACS uses it only to end a clause)".to_string()
        } else {
            format!("literal {number} is out of range (variables run from 1 to 2^31 - 1)")
        })
    })
}

/// The exception for a search that ended without an answer.
fn stop_error(reason: LimitReached, solver: &nqueens_sat::Solver) -> PyErr {
    match reason {
        LimitReached::Memory => {
            let wanted = match nqueens_sat::ClauseSink::status(solver) {
                Err(nqueens_sat::Error::OutOfMemory { bytes }) => {
                    format!(" (about {bytes} bytes wanted)")
                }
                _ => String::new(),
            };
            PyMemoryError::new_err(format!("the formula does not fit in memory{wanted}"))
        }
        LimitReached::Stopped => PyKeyboardInterrupt::new_err("the search was stopped"),
        _ => PyRuntimeError::new_err(format!("the search gave up: {reason}")),
    }
}

/// The solver behind `nqueens.sat.Solver`.
#[pyclass(module = "nqueens.sat")]
pub struct Core {
    solver: Mutex<nqueens_sat::Solver>,
    clauses: u64,
    vars: u32,
    model: Option<Vec<i32>>,
    core: Option<Vec<i32>>,
    status: Option<bool>,
    proof: bool,
}

#[pymethods]
impl Core {
    #[new]
    #[pyo3(signature = (seed = 0, proof = None))]
    fn new(seed: u64, proof: Option<std::path::PathBuf>) -> PyResult<Self> {
        let mut solver = nqueens_sat::Solver::with_options(Options {
            seed,
            ..Options::default()
        });
        let with_proof = proof.is_some();
        if let Some(path) = proof {
            let file =
                File::create(&path).map_err(|e| value_error(format!("{}: {e}", path.display())))?;
            solver.set_proof(BufWriter::new(file));
        }
        Ok(Core {
            solver: Mutex::new(solver),
            clauses: 0,
            vars: 0,
            model: None,
            core: None,
            status: None,
            proof: with_proof,
        })
    }

    /// Adds a clause of DIMACS literals.
    fn add_clause(&mut self, clause: Vec<i64>) -> PyResult<()> {
        let lits = clause
            .iter()
            .map(|&l| literal(l))
            .collect::<PyResult<Vec<Lit>>>()?;
        for lit in &lits {
            self.vars = self.vars.max(lit.var().as_u32() + 1);
        }
        let mut solver = self.solver.lock().map_err(|_| poisoned())?;
        nqueens_sat::ClauseSink::add_clause(&mut *solver, &lits);
        self.clauses += 1;
        Ok(())
    }

    /// Adds every clause of a DIMACS text.
    fn add_dimacs(&mut self, text: &str) -> PyResult<()> {
        let cnf = nqueens_sat::parse_dimacs(text).map_err(value_error)?;
        let mut solver = self.solver.lock().map_err(|_| poisoned())?;
        cnf.add_to(&mut *solver);
        self.vars = self.vars.max(nqueens_sat::ClauseSink::num_vars(&cnf));
        self.clauses += cnf.len() as u64;
        Ok(())
    }

    /// Decides the formula under `assumptions`: `True` or `False` proven, `None` when
    /// `conflicts` ran out first; raises `MemoryError` when the formula does not fit (and
    /// `KeyboardInterrupt` on Ctrl-C) rather than answer without a proof.
    #[pyo3(signature = (assumptions, conflicts = None))]
    fn solve(
        &mut self,
        py: Python<'_>,
        assumptions: Vec<i64>,
        conflicts: Option<u64>,
    ) -> PyResult<Option<bool>> {
        let assumptions = assumptions
            .iter()
            .map(|&l| literal(l))
            .collect::<PyResult<Vec<Lit>>>()?;
        for lit in &assumptions {
            self.vars = self.vars.max(lit.var().as_u32() + 1);
        }
        self.model = None;
        self.core = None;
        self.status = None;
        let mut left = conflicts;
        let outcome = loop {
            let round = left.map_or(ROUND, |l| l.min(ROUND));
            let solver = &self.solver;
            let assumptions = &assumptions;
            let (outcome, used) = py
                .allow_threads(|| {
                    let mut solver = solver.lock().map_err(|_| ())?;
                    let before = solver.stats().conflicts;
                    solver.set_limits(Limits {
                        conflicts: Some(round),
                        ..Limits::default()
                    });
                    let outcome = solver.solve_with(assumptions);
                    Ok((outcome, solver.stats().conflicts - before))
                })
                .map_err(|()| poisoned())?;
            match outcome {
                Outcome::Unknown(LimitReached::Conflicts) => {
                    py.check_signals()?;
                    if let Some(l) = left.as_mut() {
                        *l = l.saturating_sub(used.max(1));
                        if *l == 0 {
                            break None;
                        }
                    }
                }
                other => break Some(other),
            }
        };
        let mut solver = self.solver.lock().map_err(|_| poisoned())?;
        match outcome {
            None => Ok(None),
            Some(Outcome::Sat(model)) => {
                let mut values: Vec<i32> = model.lits().map(Lit::to_dimacs).collect();
                for v in values.len() as u32..self.vars {
                    values.push(-(v as i32 + 1));
                }
                values.truncate(self.vars as usize);
                self.model = Some(values);
                self.status = Some(true);
                Ok(Some(true))
            }
            Some(Outcome::Unknown(reason)) => Err(stop_error(reason, &solver)),
            Some(Outcome::Unsat) => {
                self.core = Some(
                    solver
                        .failed_assumptions()
                        .iter()
                        .map(|l| l.to_dimacs())
                        .collect(),
                );
                self.status = Some(false);
                if self.proof {
                    solver.finish_proof().map_err(value_error)?;
                }
                Ok(Some(false))
            }
        }
    }

    /// The model of the last satisfiable solve (DIMACS literals of variables 1..n).
    fn get_model(&self) -> Option<Vec<i32>> {
        self.model.clone()
    }

    /// The failed assumptions of the last unsatisfiable solve.
    fn get_core(&self) -> Option<Vec<i32>> {
        self.core.clone()
    }

    /// The result of the last solve.
    fn get_status(&self) -> Option<bool> {
        self.status
    }

    /// The largest variable seen.
    fn nof_vars(&self) -> u32 {
        self.vars
    }

    /// Clauses added.
    fn nof_clauses(&self) -> u64 {
        self.clauses
    }

    /// The solver's counters.
    fn stats(&self) -> PyResult<Vec<(&'static str, u64)>> {
        let solver = self.solver.lock().map_err(|_| poisoned())?;
        let s = solver.stats();
        Ok(vec![
            ("decisions", s.decisions),
            ("conflicts", s.conflicts),
            ("propagations", s.propagations),
            ("restarts", s.restarts),
        ])
    }

    /// Flushes the DRAT proof.
    fn finish_proof(&self) -> PyResult<()> {
        let mut solver = self.solver.lock().map_err(|_| poisoned())?;
        solver.finish_proof().map_err(value_error)
    }
}

fn poisoned() -> PyErr {
    PyRuntimeError::new_err("the SAT solver failed in an earlier call and cannot be used")
}

/// Adds the class to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Core>()
}
