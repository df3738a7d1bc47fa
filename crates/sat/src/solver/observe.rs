//! What the CDCL search reports step by step, for a replay or a trace of it: the [`Observer`]
//! [`super::Solver::solve_observed`] calls at every decision, conflict, learnt clause and
//! restart, and [`Silent`], the observer of every search that nobody watches.
//!
//! The search is generic over its observer; for [`Silent`] [`Observer::WATCHES`] is false and
//! the calls are compiled out, so the hook costs the searches that nobody watches nothing
//! (docs/notes/observer-hooks.md). Each call comes with what the search already holds: no
//! call costs more than reading it. A module of its own, below the solver.

use crate::lit::Lit;

/// What a CDCL search reports: one call per event, in the order they happen.
pub trait Observer {
    /// Whether the search reports its steps (`false` only for observers that ignore them).
    const WATCHES: bool = true;

    /// A decision: `lit` is set true at the new decision `level` (an assumption or a
    /// branch); one call per decision [`super::Stats::decisions`] counts.
    #[inline(always)]
    fn decide(&mut self, _level: u32, _lit: Lit) {}

    /// Propagation at decision `level` made a clause false: a conflict, one call per conflict
    /// [`super::Stats::conflicts`] counts (one at level 0 ends the search: unsatisfiable).
    #[inline(always)]
    fn conflict(&mut self, _level: u32) {}

    /// The conflict's learnt clause (after minimisation and shrinking; its first literal is the one it
    /// asserts), its LBD, and the level the search jumped back to, where the clause is unit.
    #[inline(always)]
    fn learn(&mut self, _clause: &[Lit], _lbd: u32, _backjump: u32) {}

    /// A restart: every decision is undone.
    #[inline(always)]
    fn restart(&mut self) {}
}

/// The observer that reports nowhere: the searches nobody watches.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Observer for Silent {
    const WATCHES: bool = false;
}
