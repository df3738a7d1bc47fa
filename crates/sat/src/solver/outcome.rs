//! What a search answers: [`Outcome`] for one call, [`Enumeration`] for a run over models. A
//! call a limit ended answers [`Outcome::Unknown`] with the workspace's [`LimitReached`], an
//! enumeration [`Enumeration::Unknown`] with its [`Stopped`] (the models found so far).

use nqueens_support::{LimitReached, Stopped};

use crate::cnf::Model;

/// The answer of [`Solver::solve`](super::Solver::solve).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Satisfiable, with a model.
    Sat(Model),
    /// Unsatisfiable (under the assumptions, when there were some).
    Unsat,
    /// A limit stopped the search first: [`LimitReached::Conflicts`], [`LimitReached::Time`]
    /// or [`LimitReached::Stopped`] (the [`Limits`](super::Limits) of
    /// [`Solver::set_limits`](super::Solver::set_limits)), or [`LimitReached::Memory`] when an
    /// allocation was refused (the formula does not fit in memory;
    /// [`crate::ClauseSink::status`] says how much was wanted).
    Unknown(LimitReached),
}

/// How an enumeration ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Enumeration {
    /// Every model (projected on the chosen variables) was visited; this many.
    Complete(u64),
    /// The callback stopped it after this many models.
    Stopped(u64),
    /// A limit stopped it: which one, and the models visited before it
    /// ([`Stopped::found`]), never the count.
    Unknown(Stopped),
}
