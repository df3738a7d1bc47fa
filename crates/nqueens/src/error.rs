//! The crate's error type.

use thiserror::Error;

use crate::board::ProblemError;
use crate::engine::Job;

/// Everything that can go wrong in this crate, short of a bug.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// The problem itself is malformed.
    #[error(transparent)]
    Problem(#[from] ProblemError),
    /// The board is larger than the method supports.
    #[error("the {method} method handles n up to {max}; n = {n} is too large")]
    TooLarge {
        /// The method's name.
        method: &'static str,
        /// The board size asked for.
        n: u32,
        /// The largest board size the method supports.
        max: u32,
    },
    /// The method cannot do this job (on this problem).
    #[error("the {method} method cannot {job}: {reason}")]
    Unsupported {
        /// The method's name.
        method: &'static str,
        /// What was asked.
        job: Job,
        /// Why not.
        reason: String,
    },
    /// A search reached a limit (node budget, time budget or stop flag) before it finished.
    #[error("the {method} method gave up: {reason}")]
    GaveUp {
        /// The method's name.
        method: &'static str,
        /// Which limit.
        reason: crate::engine::LimitReached,
    },
    /// A counter run failed (checkpoint or shard files).
    #[error(transparent)]
    Counter(#[from] crate::engines::counter::CounterError),
    /// The board needs more memory than the machine can give.
    #[error("the {method} method needs about {} MiB for n = {n}, more than could be allocated", bytes.div_ceil(1 << 20))]
    OutOfMemory {
        /// The method's name.
        method: &'static str,
        /// The board size asked for.
        n: u32,
        /// The bytes it asked for.
        bytes: u64,
    },
}
