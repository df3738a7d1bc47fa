//! CNF formulas, DIMACS input and output, and a CDCL SAT solver.
//!
//! - [`Var`] and [`Lit`]: `u32` newtypes, `code = 2·var + sign`; DIMACS integers only at the
//!   edge ([`lit`]);
//! - [`ClauseSink`]: what encoders write into, implemented by the in-memory [`Cnf`], the
//!   streaming [`DimacsWriter`], the sizing [`ClauseCounter`] and the [`Solver`] ([`cnf`]);
//! - [`DimacsReader`] / [`read_dimacs`]: a streaming, strict DIMACS reader with positioned
//!   errors ([`dimacs`]);
//! - [`Solver`]: conflict-driven clause learning with watched literals, first-UIP learning,
//!   minimisation and shrinking, VSIDS, phase saving and target phases, rephasing with a local-search walk,
//!   focused and stable modes, LBD-based clause reduction, assumptions, limits, model
//!   enumeration and DRAT proofs ([`solver`]). A solver is incremental, with IPASIR's
//!   contract: add clauses and variables after a solve, solve under assumptions, read the
//!   failed ones, solve again ([`Solver`'s incremental use](Solver#incremental-use)).
//!
//! The crate does not know about N-Queens; `nqueens` encodes the puzzle into it.
//!
//! Build a formula through the API: variables from [`ClauseSink::new_var`], clauses of
//! [`Lit`]s, straight into the solver (or into a [`Cnf`] first):
//!
//! ```
//! use nqueens_sat::{ClauseSink, Lit, Outcome, Solver};
//! let mut solver = Solver::new();
//! let (a, b, c) = (solver.new_var(), solver.new_var(), solver.new_var());
//! solver.add_clause(&[Lit::positive(a), Lit::positive(b)]); // a ∨ b
//! solver.add_clause(&[Lit::negative(a), Lit::positive(b)]); // ¬a ∨ b
//! solver.add_clause(&[Lit::negative(b), Lit::negative(c)]); // ¬b ∨ ¬c
//! let Outcome::Sat(model) = solver.solve() else { panic!("satisfiable") };
//! assert!(model.value(b) && !model.value(c));
//! ```
//!
//! Or read DIMACS text:
//!
//! ```
//! use nqueens_sat::{parse_dimacs, Outcome, Solver};
//! let cnf = parse_dimacs("p cnf 3 3\n1 2 0\n-1 2 0\n-2 -3 0\n").unwrap();
//! let mut solver = Solver::new();
//! cnf.add_to(&mut solver);
//! let Outcome::Sat(model) = solver.solve() else { panic!("satisfiable") };
//! assert!(cnf.is_satisfied_by(&model));
//! ```

pub mod cnf;
pub mod dimacs;
pub mod error;
pub mod lit;
pub mod solver;

pub use cnf::{ClauseCounter, ClauseSink, Cnf, Model};
pub use dimacs::{DimacsReader, DimacsWriter, Header, parse_dimacs, read_dimacs, write_dimacs};
pub use error::Error;
pub use lit::{Lit, Var};
/// The limits a search polls (conflicts, time, stop flag, work counter), what a limit-stopped
/// enumeration answers, and parse positions (from `nqueens-support`, re-exported so a user
/// needs no other crate).
pub use nqueens_support::{LimitReached, Limits, Position, Stopped};
pub use solver::{Enumeration, Observer, Options, Outcome, Restarts, Silent, Solver, Stats};
