//! What the trail and the watch lists hold: why a variable has its value ([`Reason`]), a
//! clause found false ([`Conflict`]), and a long clause's watch ([`Watch`]). Plain data: the
//! [`Solver`](super::Solver) holds it, and the files that act on it (`prop`, `analyze`,
//! `reduce`, the simplification passes) import it from here, below them all.

use super::clause_db::ClauseRef;
use crate::lit::Lit;

/// Why a variable has its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reason {
    /// A decision, or a unit at level 0.
    Decision,
    /// The binary clause `(this variable's literal ∨ other)`, with `other` false.
    Binary(Lit),
    /// A long clause whose literal 0 is this variable's literal.
    Long(ClauseRef),
}

/// A clause all of whose literals are false.
#[derive(Clone, Copy, Debug)]
pub(super) enum Conflict {
    Binary(Lit, Lit),
    Long(ClauseRef),
}

/// A long-clause watch: the clause, and a literal of it to test first.
#[derive(Clone, Copy, Debug)]
pub(super) struct Watch {
    pub(super) cref: ClauseRef,
    pub(super) blocker: Lit,
}
