//! What an engine can refuse or be stopped by: a malformed problem, a board too large for the
//! method, a job it cannot do, a limit reached before the answer, memory the machine cannot
//! give, or a failure of its own (a device, say). The engine floor's error: every engine
//! returns it, and the crate-wide [`crate::Error`] on the top floor wraps it, so no engine
//! depends on the errors of the floors above it (files, shards, formats).

use thiserror::Error;

use super::job::Job;
use crate::board::ProblemError;
use nqueens_support::{LimitReached, Stopped};

/// Why an engine did not answer.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum EngineError {
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
    /// A search reached a limit (node budget, time budget, stop flag, or a local search's
    /// attempts) before it finished: the answer is unknown, never a partial one. Every job
    /// (solve, list, count) reports a limit this way; [`Stopped::found`] is what it had found
    /// so far (solutions visited or counted, 0 for solve), a lower bound, never the answer.
    #[error("the {method} method {stopped}")]
    Stopped {
        /// The method's name.
        method: &'static str,
        /// Which limit, and what was found before it.
        stopped: Stopped,
    },
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
    /// The engine failed on its own terms (a device lost, a count that overflowed): its own
    /// error, whose words are the message.
    #[error(transparent)]
    Failed(Box<dyn std::error::Error + Send + Sync>),
}

impl EngineError {
    /// `method` stopped by `reason` after `found` solutions.
    pub fn stopped_by(method: &'static str, reason: LimitReached, found: u128) -> Self {
        EngineError::Stopped {
            method,
            stopped: Stopped::new(reason, found),
        }
    }

    /// The limit that stopped the search and what it had found, when a limit did.
    pub fn stopped(&self) -> Option<Stopped> {
        match self {
            EngineError::Stopped { stopped, .. } => Some(*stopped),
            _ => None,
        }
    }

    /// This error with [`Stopped::found`] set to `found` when it is a stop (for a caller that
    /// counted the solutions itself, as [`count_by_enumeration`](super::count_by_enumeration)
    /// does); any other error as it is.
    pub fn with_found(self, found: u128) -> Self {
        match self {
            EngineError::Stopped { method, stopped } => EngineError::Stopped {
                method,
                stopped: Stopped::new(stopped.reason, found.max(stopped.found)),
            },
            other => other,
        }
    }
}
