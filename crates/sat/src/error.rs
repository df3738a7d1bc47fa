//! The crate's error type.

use std::io;

use nqueens_support::Position;

use thiserror::Error;

/// Everything that can go wrong in this crate: reading or writing DIMACS, writing a proof.
///
/// Parse errors carry the [`Position`] (1-based line and column, the column in characters) they
/// were found at, and their messages are one line: what they quote from the file is at most
/// 200 characters with control characters escaped ([`nqueens_support::excerpt`]).
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading or writing failed. Transparent: it shows the I/O error's message and that
    /// error's own cause, so a printed chain says the reason once.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The input ended before any `p cnf` line.
    #[error("no 'p cnf VARIABLES CLAUSES' header")]
    NoHeader,
    /// A clause came before the header.
    #[error("{position}: '{token}' before the 'p cnf VARIABLES CLAUSES' header")]
    MissingHeader {
        /// Where the token starts.
        position: Position,
        /// The first token of the line.
        token: String,
    },
    /// The `p` line is not `p cnf VARIABLES CLAUSES` with counts in range.
    #[error(
        "{position}: bad header '{found}'; expected 'p cnf VARIABLES CLAUSES' with at most \
         2147483647 variables"
    )]
    BadHeader {
        /// Where the header starts.
        position: Position,
        /// The header as found.
        found: String,
    },
    /// A second `p` line.
    #[error("{position}: a second 'p' header")]
    DuplicateHeader {
        /// Where the second header starts.
        position: Position,
    },
    /// A token that is not an integer.
    #[error("{position}: '{token}' is not a literal")]
    BadToken {
        /// Where the token starts.
        position: Position,
        /// The token as found.
        token: String,
    },
    /// A literal whose variable the header does not declare.
    #[error("{position}: literal {literal} is out of range; the header declares {vars} variables")]
    LiteralOutOfRange {
        /// Where the literal starts.
        position: Position,
        /// The literal as written.
        literal: String,
        /// The number of variables in the header.
        vars: u32,
    },
    /// More clauses than the header declares.
    #[error("{position}: more clauses than the {declared} the header declares")]
    TooManyClauses {
        /// Where the first clause too many starts.
        position: Position,
        /// The number of clauses in the header.
        declared: u64,
    },
    /// Fewer clauses than the header declares.
    #[error("{position}: the input ends after {found} clauses; the header declares {declared}")]
    TooFewClauses {
        /// The end of the input (just after the last character of the last line).
        position: Position,
        /// The number of clauses in the header.
        declared: u64,
        /// The number of clauses read.
        found: u64,
    },
    /// The input ends inside a clause.
    #[error("{position}: the clause starting here is missing its terminating 0")]
    UnterminatedClause {
        /// Where the clause starts.
        position: Position,
    },
    /// A line longer than the reader takes ([`crate::dimacs::MAX_LINE_BYTES`]).
    #[error("line {line} is longer than {max} bytes, more than a DIMACS line can need")]
    LineTooLong {
        /// The line.
        line: u64,
        /// The most bytes a line may have.
        max: u64,
    },
    /// A clause with more literals than the reader takes ([`crate::dimacs::MAX_CLAUSE_LITS`]).
    #[error("{position}: the clause starting here has more than {max} literals")]
    ClauseTooLong {
        /// Where the clause starts.
        position: Position,
        /// The most literals a clause may have.
        max: usize,
    },
    /// The system refused memory the solver needed (the formula does not fit).
    #[error("the solver needs about {} MiB more, more than could be allocated", bytes.div_ceil(1 << 20))]
    OutOfMemory {
        /// About how many bytes were wanted.
        bytes: u64,
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
    /// Where a parse error was found.
    pub fn position(&self) -> Option<Position> {
        match *self {
            Error::MissingHeader { position, .. }
            | Error::BadHeader { position, .. }
            | Error::DuplicateHeader { position }
            | Error::BadToken { position, .. }
            | Error::LiteralOutOfRange { position, .. }
            | Error::TooManyClauses { position, .. }
            | Error::TooFewClauses { position, .. }
            | Error::UnterminatedClause { position }
            | Error::ClauseTooLong { position, .. } => Some(position),
            Error::LineTooLong { line, .. } => Some(Position { line, column: 1 }),
            Error::Io(_)
            | Error::NoHeader
            | Error::HeaderMismatch { .. }
            | Error::OutOfMemory { .. } => None,
        }
    }

    /// The line a parse error was found on.
    pub fn line(&self) -> Option<u64> {
        self.position().map(|p| p.line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error and its causes as anyhow's `{:#}` prints them: every message, `: `-separated.
    fn chain(err: &(dyn std::error::Error + 'static)) -> String {
        let mut parts = vec![err.to_string()];
        let mut cause = err.source();
        while let Some(error) = cause {
            parts.push(error.to_string());
            cause = error.source();
        }
        parts.join(": ")
    }

    #[test]
    fn an_io_error_prints_its_cause_once_in_a_chain() {
        let err = Error::from(io::Error::other("disk full"));
        assert_eq!(err.to_string(), "disk full");
        assert_eq!(chain(&err), "disk full");
        assert_eq!(nqueens_support::error_line(&err), "disk full");
    }
}
