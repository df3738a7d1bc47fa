//! [`Stats`]: the solver's work counters, cumulative over its life.

use std::fmt;

/// Work counters, cumulative over the solver's life.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Decisions (assumptions included).
    pub decisions: u64,
    /// Conflicts.
    pub conflicts: u64,
    /// Assignments propagated (each trail literal processed once per time it is assigned).
    pub propagations: u64,
    /// Restarts.
    pub restarts: u64,
    /// Learnt-clause reductions.
    pub reductions: u64,
    /// Learnt clauses (all sizes) added.
    pub learnt_clauses: u64,
    /// Literals in learnt clauses, after minimisation and shrinking.
    pub learnt_literals: u64,
    /// Literals removed by minimisation.
    pub minimized_literals: u64,
    /// Literals removed by shrinking (each level shrunk counts its literals less one).
    pub shrunk_literals: u64,
    /// Learnt clauses deleted by reductions.
    pub deleted_clauses: u64,
    /// Switches between focused and stable mode ([`crate::Restarts::Switching`]).
    pub mode_switches: u64,
    /// Learnt clauses moved to a better tier (core or tier 2) when conflict analysis found
    /// their LBD lower than recorded.
    pub promotions: u64,
    /// Rephases: the saved phases reset to the best phases or a walk's best assignment (or,
    /// without walks, to the original, inverted or best phases)
    /// ([`crate::Options::rephase_interval`]).
    pub rephases: u64,
    /// Local-search walks run for rephasing ([`crate::Options::walk`]).
    pub walks: u64,
    /// Variables flipped by those walks.
    pub walk_flips: u64,
    /// Variables eliminated ([`crate::Options::eliminate`]).
    pub eliminated_vars: u64,
    /// Eliminated variables put back because a clause or an assumption named them.
    pub restored_vars: u64,
    /// Clauses removed because another clause subsumed them, during elimination.
    pub subsumed_clauses: u64,
    /// Literals removed from clauses by self-subsuming resolution or level-0 units, during
    /// elimination.
    pub strengthened_clauses: u64,
    /// AND gates and equivalences found among the clauses of the variables tried for
    /// elimination (their clauses are resolved against the others only).
    pub elimination_gates: u64,
    /// Elimination rounds run during the search ([`crate::Options::eliminate_rounds`]).
    pub elimination_rounds: u64,
    /// Fresh variables factoring made ([`crate::Options::factor`]).
    pub factored_vars: u64,
    /// Clauses factoring removed beyond those it added.
    pub factored_clauses: u64,
    /// Times substitution and probing ran (before the first search and at restarts).
    pub simplifications: u64,
    /// Variables replaced by an equivalent literal ([`crate::Options::substitute`]).
    pub substituted_vars: u64,
    /// Literals probed ([`crate::Options::probe`]).
    pub probes: u64,
    /// Probed literals that failed (propagating them reached a conflict): each gave a unit.
    pub failed_literals: u64,
    /// Work the simplification passes spent, in their ticks (one per occurrence, clause,
    /// literal or implication visited, one per literal a probe propagates).
    pub simplify_ticks: u64,
    /// Simplification passes cut short by their effort bound.
    pub passes_cut: u64,
    /// Gates read by congruence closure ([`crate::Options::congruence`]), each time it ran.
    pub congruence_gates: u64,
    /// Equivalences congruence closure found (each added as two binary clauses).
    pub congruent_gates: u64,
    /// Learnt clauses vivification tried ([`crate::Options::vivify`]).
    pub vivify_checks: u64,
    /// Literals in the clauses vivification tried, as they were before it.
    pub vivify_checked_literals: u64,
    /// Of those, the clauses it shortened or deleted (satisfied at level 0).
    pub vivified_clauses: u64,
    /// Literals it removed from the clauses it shortened.
    pub vivified_literals: u64,
    /// Its ticks: literals its decisions propagated (also in `propagations`) and the watches
    /// their propagation visited (also in `simplify_ticks`).
    pub vivify_ticks: u64,
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "decisions={} conflicts={} propagations={} restarts={} reductions={} \
             learnt_clauses={} learnt_literals={} minimized_literals={} shrunk_literals={} \
             deleted_clauses={} mode_switches={} promotions={} rephases={} walks={} \
             walk_flips={} eliminated_vars={} restored_vars={} subsumed_clauses={} \
             strengthened_clauses={} elimination_gates={} elimination_rounds={} \
             factored_vars={} factored_clauses={} simplifications={} substituted_vars={} \
             probes={} failed_literals={} \
             simplify_ticks={} passes_cut={} congruence_gates={} congruent_gates={} \
             vivify_checks={} vivify_checked_literals={} vivified_clauses={} vivified_literals={} \
             vivify_ticks={}",
            self.decisions,
            self.conflicts,
            self.propagations,
            self.restarts,
            self.reductions,
            self.learnt_clauses,
            self.learnt_literals,
            self.minimized_literals,
            self.shrunk_literals,
            self.deleted_clauses,
            self.mode_switches,
            self.promotions,
            self.rephases,
            self.walks,
            self.walk_flips,
            self.eliminated_vars,
            self.restored_vars,
            self.subsumed_clauses,
            self.strengthened_clauses,
            self.elimination_gates,
            self.elimination_rounds,
            self.factored_vars,
            self.factored_clauses,
            self.simplifications,
            self.substituted_vars,
            self.probes,
            self.failed_literals,
            self.simplify_ticks,
            self.passes_cut,
            self.congruence_gates,
            self.congruent_gates,
            self.vivify_checks,
            self.vivify_checked_literals,
            self.vivified_clauses,
            self.vivified_literals,
            self.vivify_ticks
        )
    }
}
