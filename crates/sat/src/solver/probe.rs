//! Failed-literal probing on the roots of the binary implication graph.
//!
//! A literal `l` is *failed* when assuming it and propagating reaches a conflict: then `¬l`
//! holds in every model, and is learnt as a unit at level 0 (Freeman's POSIT, 1995; Lynce and
//! Marques-Silva, "Probing-based preprocessing techniques for propositional satisfiability",
//! ICTAI 2003). Probing every literal would cost a propagation each; as in Kissat and CaDiCaL
//! only the *roots* of the binary implication graph are probed: literals that some binary
//! clause makes imply something (`binaries[¬l]` not empty) while no binary clause implies them
//! (`binaries[l]` empty). A failed literal deeper in a chain makes its root fail too, so
//! the roots find the failed literals of the binary graph with fewer probes.
//!
//! The invariant: each probe runs one level above 0 and is undone before the next, so the
//! solver is at level 0 in between, closed under propagation; the saved phases the probes
//! touch are put back as they were. Each unit found is a RUP lemma (assuming `l` propagates
//! to a conflict) and goes into the proof. Cost: one propagation per root, bounded in all by
//! [`PROBE_BUDGET_PER_VAR`] propagated literals per variable plus [`PROBE_BUDGET_BASE`] plus
//! [`PROBE_SHARE_PERMILLE`] thousandths of the search's propagations since the last
//! simplification (a [`PassBudget`](super::budget::PassBudget), which also stops probing
//! between two probes at the stop flag or the time limit).

use super::Solver;
use super::reason::Reason;
use crate::lit::Lit;

/// Propagated literals per variable that probing may spend, at most.
const PROBE_BUDGET_PER_VAR: u64 = 20;
/// Propagated literals probing may spend on any formula, beyond the per-variable budget.
const PROBE_BUDGET_BASE: u64 = 100_000;
/// Propagated literals probing may spend per thousand search propagations since the last
/// simplification (CaDiCaL's `probereleff` is 20 as well).
const PROBE_SHARE_PERMILLE: u64 = 20;

impl Solver {
    /// Probes the roots of the binary implication graph (see the module documentation).
    pub(super) fn probe(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        let mut budget = self.pass_budget(
            PROBE_BUDGET_BASE
                + PROBE_BUDGET_PER_VAR * u64::from(self.num_vars)
                + self.search_share(PROBE_SHARE_PERMILLE),
        );
        let mut saved_phases = Vec::new();
        if saved_phases.try_reserve_exact(self.phase.len()).is_err() {
            self.out_of_memory = Some(self.phase.len() as u64);
            return;
        }
        saved_phases.extend_from_slice(&self.phase);
        for code in 0..self.values.len() as u32 {
            if self.inconsistent || budget.exhausted() {
                break;
            }
            let lit = Lit::from_code(code);
            if self.value(lit) != 0
                || self.extension.is_removed(lit.var())
                || !self.binaries[lit.index()].is_empty()
                || self.binaries[(!lit).index()].is_empty()
            {
                continue;
            }
            self.stats.probes += 1;
            let propagations = self.stats.propagations;
            self.new_decision_level();
            self.assign(lit, Reason::Decision);
            let failed = self.propagate().is_some();
            self.cancel_until(0);
            if failed {
                self.stats.failed_literals += 1;
                if let Some(proof) = self.proof.as_mut() {
                    proof.add([!lit]);
                }
                self.assign(!lit, Reason::Decision);
                self.propagate_level_zero();
            }
            budget.spend((self.stats.propagations - propagations).max(1));
        }
        self.phase = saved_phases;
        self.end_pass(&budget);
    }
}
