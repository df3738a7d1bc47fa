//! The work counters of a search. A module of its own: the solver counts propagations and
//! the search counts branches in the same record, and neither module depends on the other
//! for it.

/// The work counters of a search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Branches taken, left (`x = v`) and right (`x ≠ v`).
    pub nodes: u64,
    /// Branches whose propagation failed.
    pub failures: u64,
    /// Propagator runs.
    pub propagations: u64,
    /// Solutions visited.
    pub solutions: u64,
    /// Restarts made.
    pub restarts: u64,
    /// The deepest stack of open left branches.
    pub max_depth: u64,
    /// Right branches taken at the root on the first variable branched on: each closes the
    /// subtree of one of its values, so with a domain of d values this counts up to d − 1 (a
    /// measure of progress through the tree; with restarts, through the current run).
    pub root_branches: u64,
}
