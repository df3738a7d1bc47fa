//! Ctrl-C and `kill` for the commands that search: the handler is `nqueens_support`'s
//! ([`nqueens_support::interrupt`]: the flag, the one-second window that makes two signals one
//! interrupt, exit 130); this module adds the error a command returns once it has said what
//! an interruption kept.

pub use nqueens_support::interrupt::{EXIT_CODE, elapsed_seconds, install, requested, stop_flag};

/// An interruption the command has already described: printed as is, exit 130.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Interrupted(pub String);
