//! What a search answers: [`Outcome`] for one call, [`Enumeration`] for a run over models, and
//! [`StopReason`] when a limit ended either without an answer.

use std::fmt;

use crate::cnf::Model;

/// The answer of [`Solver::solve`](super::Solver::solve).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Satisfiable, with a model.
    Sat(Model),
    /// Unsatisfiable (under the assumptions, when there were some).
    Unsat,
    /// A limit stopped the search first.
    Unknown(StopReason),
}

/// Why a search stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// The conflict limit of [`Limits`](super::Limits) was reached.
    Conflicts,
    /// The time limit of [`Limits`](super::Limits) was reached.
    Time,
    /// The stop flag of [`Solver::set_stop`](super::Solver::set_stop) was raised.
    Stopped,
    /// An allocation was refused: the formula does not fit in memory
    /// ([`crate::ClauseSink::status`] says how much was wanted).
    OutOfMemory,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::Conflicts => "conflict limit reached",
            StopReason::Time => "time limit reached",
            StopReason::Stopped => "stopped",
            StopReason::OutOfMemory => "out of memory",
        })
    }
}

/// How an enumeration ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Enumeration {
    /// Every model (projected on the chosen variables) was visited; this many.
    Complete(u64),
    /// The callback stopped it after this many models.
    Stopped(u64),
    /// A limit stopped it after this many models.
    Unknown(u64, StopReason),
}
