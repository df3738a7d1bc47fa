//! The crate's error type.

use thiserror::Error;

use nqueens_support::Stopped;

use crate::bounds::{MAX_DOMAIN_SIZE, VALUE_LIMIT};

/// Everything a caller can get wrong when building a model or starting a search.
///
/// An unsatisfiable model is not an error: it is a search that completes with no solution.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Error {
    /// A variable was asked for with `lo > hi`.
    #[error("the domain {lo}..={hi} is empty")]
    EmptyDomain {
        /// Lower end asked for.
        lo: i64,
        /// Upper end asked for.
        hi: i64,
    },
    /// A domain holds more values than a bitset domain supports.
    #[error(
        "the domain {lo}..={hi} has {size} values; bitset domains hold at most {MAX_DOMAIN_SIZE}"
    )]
    DomainTooLarge {
        /// Lower end asked for.
        lo: i64,
        /// Upper end asked for.
        hi: i64,
        /// Its number of values.
        size: u64,
    },
    /// A value, an offset or a view's range leaves `-VALUE_LIMIT..=VALUE_LIMIT`.
    #[error("the value {value} is outside the supported range -{VALUE_LIMIT}..={VALUE_LIMIT}")]
    ValueOutOfRange {
        /// The offending value (a domain end, an offset, or an end of a view's range).
        value: i64,
    },
    /// A variable that this solver did not create.
    #[error("variable {index} does not belong to this solver (it has {count} variables)")]
    UnknownVariable {
        /// The variable's index.
        index: u32,
        /// How many variables the solver has.
        count: u32,
    },
    /// A variable that another solver made (each solver numbers its variables from 0, so it
    /// would otherwise stand for this solver's variable of the same index).
    #[error("variable {index} was made by another solver, not this one")]
    ForeignVariable {
        /// The variable's index in the solver that made it.
        index: u32,
    },
    /// A search setting that cannot work.
    #[error("invalid search setting: {0}")]
    InvalidSearch(&'static str),
    /// A limit of [`SearchConfig::limits`](crate::SearchConfig::limits) (node budget, time
    /// budget, stop flag) ended the search before its answer: which one, and the solutions
    /// visited so far ([`Stopped::found`]), never the answer.
    #[error(transparent)]
    Stopped(#[from] Stopped),
}
