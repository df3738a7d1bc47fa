//! CNF formulas, DIMACS input and output, and a CDCL SAT solver.
//!
//! This crate will hold `Var`/`Lit` as u32 newtypes, a trait that clauses are added to (an
//! in-memory CNF, a DIMACS writer and the solver all implement it), a streaming DIMACS reader and
//! writer, and a conflict-driven clause-learning solver. It does not know about N-Queens;
//! `nqueens` encodes the puzzle into it.
