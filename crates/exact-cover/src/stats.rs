//! The work counters both engines keep, in the units of Knuth's DLX1 (nodes, link updates,
//! solutions), and the restarts of [`crate::Solver::first`]. A module of its own because every
//! engine and the solver over them count in it, and it depends on none of them.

/// Work counters of the last search. Dancing links counts them as Knuth's DLX1 does; the bit
/// engine counts the same nodes and no link updates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search-tree nodes: items chosen for branching.
    pub nodes: u64,
    /// Link updates (dancing links only; 0 for bit sets): one per covered item and one per
    /// node hidden.
    pub updates: u64,
    /// Solutions found.
    pub solutions: u64,
    /// Searches in a random order that [`crate::Solver::first`] started and gave up on (see the
    /// [solver documentation](crate::solver)); their nodes and updates are in the counts above.
    pub restarts: u64,
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, other: Stats) {
        self.nodes += other.nodes;
        self.updates += other.updates;
        self.solutions += other.solutions;
        self.restarts += other.restarts;
    }
}
