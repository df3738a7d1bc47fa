//! How a command ended, as the commands say it and `main` turns it into an exit code: a
//! [`Status`] when the command ran to its answer, a [`Failure`] when a check failed, and the
//! one line of a search that stopped at a limit ([`gave_up_line`]). Every command imports this
//! module downward; only `main` maps it to the exit codes (0, 1, 3, 10, 20; 2 for any other
//! error).

/// What a command found, as an exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// It did what was asked.
    Success,
    /// The problem has no solution (exit 1).
    NoSolution,
    /// A limit stopped the method before it decided (exit 3).
    GaveUp,
    /// `nqueens sat`: the formula is satisfiable (exit 10, as SAT solvers do).
    Satisfiable,
    /// `nqueens sat`: the formula is unsatisfiable (exit 20).
    Unsatisfiable,
}

/// An error that means "the check failed" rather than "you used me wrongly": exit 1, not 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Failure(pub String);

/// The one line of a search that stopped at a limit (exit 3): `gave up: time limit reached
/// (dlx method)`; a reason that already says "gave up" is kept as it is.
pub fn gave_up_line(reason: &str, by: &str) -> String {
    if reason.starts_with("gave up") {
        format!("{reason} ({by})")
    } else {
        format!("gave up: {reason} ({by})")
    }
}
