//! DIMACS CNF input and output.
//!
//! The format: comment lines starting with `c`, one header `p cnf VARIABLES CLAUSES`, then the
//! clauses as whitespace-separated nonzero integers (`5` is variable 5, `-5` its negation), each
//! clause ended by `0`. Clauses may span lines and share them.
//!
//! [`DimacsReader`] streams: it holds one clause and the start of one token at a time, never a
//! whole line, so its memory does not grow with the input (a line of any length, a token of a
//! million digits), and a formula larger than memory can go straight into a [`ClauseSink`]
//! ([`read_dimacs`]). The header's counts are claims to check the body against, not sizes to
//! allocate: the reader allocates nothing by them, and [`read_dimacs`] only *declares* the
//! variables ([`ClauseSink::declare_vars`]), so a solver grows as literals arrive and
//! `p cnf 1000000000 1` costs what its one clause costs. What it reads is bounded: a line of
//! at most [`MAX_LINE_BYTES`] and a clause of at most [`MAX_CLAUSE_LITS`] literals, so that an
//! endless input (`/dev/zero`, a pipe from a runaway program) ends in an error, not in a read
//! that never ends or in memory exhaustion; a formula may still be of any length (a program
//! that must stop an endless stream of short lines does so in its reader, as the CLI does at
//! Ctrl-C). It is strict, because a
//! file that disagrees with its own header is usually truncated or mislabelled: the header must
//! come before any clause, literals must be within the declared variables, the number of clauses
//! must match, the last clause needs its `0`. One leniency: a line holding only `%` ends the
//! formula, as in the SATLIB benchmark files. A UTF-8 byte-order mark at the start is skipped.
//! Every error names its position (1-based line and column, the column in characters:
//! [`nqueens_support::Position`]) and quotes at most 200 characters of the input with control
//! characters escaped; no input makes the reader panic.
//!
//! [`DimacsWriter`] is a [`ClauseSink`] that writes each clause as it comes, after a header given
//! up front (count with a [`crate::ClauseCounter`] first when the encoder does not know).
//!
//! The reader lives in `read.rs`, the writer in `write.rs`, and their unit tests in `tests.rs`;
//! this module holds the [`Header`] they share.
//!
//! ```
//! use nqueens_sat::{parse_dimacs, write_dimacs, Error};
//! let cnf = parse_dimacs("c a comment\np cnf 3 2\n1 -3 0 2\n3 0\n").unwrap();
//! let mut out = Vec::new();
//! write_dimacs(&mut out, &cnf).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), "p cnf 3 2\n1 -3 0\n2 3 0\n");
//! let err = parse_dimacs("p cnf 2 1\n1 3 0\n").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "line 2, column 3: literal 3 is out of range; the header declares 2 variables"
//! );
//! ```
//!
//! [`ClauseSink`]: crate::ClauseSink
//! [`ClauseSink::declare_vars`]: crate::ClauseSink::declare_vars

mod read;
#[cfg(test)]
mod tests;
mod write;

pub use read::{DimacsReader, MAX_CLAUSE_LITS, MAX_LINE_BYTES, parse_dimacs, read_dimacs};
pub(crate) use write::push_int;
pub use write::{DimacsWriter, write_dimacs};

/// The counts a DIMACS header declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Header {
    /// Variables (literals range over ±1..=vars).
    pub vars: u32,
    /// Clauses.
    pub clauses: u64,
}
