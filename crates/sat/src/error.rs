//! The crate's error type.

use std::io;

use thiserror::Error;

/// Everything that can go wrong in this crate: reading or writing DIMACS, writing a proof.
///
/// Parse errors carry the 1-based line they were found on, and their messages are one line
/// (tokens from the file are quoted with control characters escaped).
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The input ended before any `p cnf` line.
    #[error("no 'p cnf VARIABLES CLAUSES' header")]
    NoHeader,
    /// A clause came before the header.
    #[error("line {line}: '{token}' before the 'p cnf VARIABLES CLAUSES' header")]
    MissingHeader {
        /// The line.
        line: u64,
        /// The first token of the line.
        token: String,
    },
    /// The `p` line is not `p cnf VARIABLES CLAUSES` with counts in range.
    #[error(
        "line {line}: bad header '{found}'; expected 'p cnf VARIABLES CLAUSES' with at most \
         2147483647 variables"
    )]
    BadHeader {
        /// The line.
        line: u64,
        /// The header as found.
        found: String,
    },
    /// A second `p` line.
    #[error("line {line}: a second 'p' header")]
    DuplicateHeader {
        /// The line.
        line: u64,
    },
    /// A token that is not an integer.
    #[error("line {line}: '{token}' is not a literal")]
    BadToken {
        /// The line.
        line: u64,
        /// The token as found.
        token: String,
    },
    /// A literal whose variable the header does not declare.
    #[error("line {line}: literal {literal} is out of range; the header declares {vars} variables")]
    LiteralOutOfRange {
        /// The line.
        line: u64,
        /// The literal as written.
        literal: String,
        /// The number of variables in the header.
        vars: u32,
    },
    /// More clauses than the header declares.
    #[error("line {line}: more clauses than the {declared} the header declares")]
    TooManyClauses {
        /// The line of the first clause too many.
        line: u64,
        /// The number of clauses in the header.
        declared: u64,
    },
    /// Fewer clauses than the header declares.
    #[error("line {line}: the input ends after {found} clauses; the header declares {declared}")]
    TooFewClauses {
        /// The last line.
        line: u64,
        /// The number of clauses in the header.
        declared: u64,
        /// The number of clauses read.
        found: u64,
    },
    /// The input ends inside a clause.
    #[error("line {line}: the clause starting here is missing its terminating 0")]
    UnterminatedClause {
        /// The line where the clause starts.
        line: u64,
    },
    /// A DIMACS writer got a different formula than its header promised.
    #[error(
        "the header declares {declared_vars} variables and {declared_clauses} clauses, but the \
         formula has {vars} variables and {clauses} clauses"
    )]
    HeaderMismatch {
        /// Variables in the header.
        declared_vars: u32,
        /// Clauses in the header.
        declared_clauses: u64,
        /// Variables used.
        vars: u32,
        /// Clauses written.
        clauses: u64,
    },
}

impl Error {
    /// The line a parse error was found on.
    pub fn line(&self) -> Option<u64> {
        match *self {
            Error::MissingHeader { line, .. }
            | Error::BadHeader { line, .. }
            | Error::DuplicateHeader { line }
            | Error::BadToken { line, .. }
            | Error::LiteralOutOfRange { line, .. }
            | Error::TooManyClauses { line, .. }
            | Error::TooFewClauses { line, .. }
            | Error::UnterminatedClause { line } => Some(line),
            Error::Io(_) | Error::NoHeader | Error::HeaderMismatch { .. } => None,
        }
    }
}
