//! Learnt-clause reduction in three tiers, and garbage collection of the clause arena.
//!
//! Learnt clauses sit in tiers by their LBD (which conflict analysis lowers when it finds a
//! clause's literals on fewer levels than before; `analyze`), as in CaDiCaL (Biere and Fleury;
//! Oh, SAT 2015 for the split) on glucose's measure (Audemard and Simon, IJCAI 2009):
//!
//! - *core*, LBD ≤ [`Options::core_lbd`](super::Options::core_lbd): kept for good;
//! - *tier 2*, LBD ≤ [`Options::tier2_lbd`](super::Options::tier2_lbd): kept while used,
//!   that is while a conflict resolved it since one of the last two reductions;
//! - *local*, the rest, and the tier-2 clauses out of use: kept for one reduction after their
//!   last use.
//!
//! Every few thousand conflicts a reduction deletes the worse half of the clauses no rule
//! keeps, by LBD, then size. Clauses that are the reason of an assignment are never deleted.
//! The invariant after a reduction: every core clause, every reason, every tier-2 clause used
//! in the last two reductions' spans and every local clause used in the last one is still
//! there, and of the others exactly the better half by (LBD, size) (`check_reduced` checks
//! it in tests). Deleting only marks a clause (and writes the deletion to the DRAT proof
//! first); when deleted clauses fill half of the arena, it is compacted and every reference
//! (watches, reasons, the learnt list) remapped. Cost: O(k log k) for k learnt clauses.

use super::Solver;
use super::clause_db::ClauseRef;
use super::reason::Reason;
use crate::lit::Lit;

impl Solver {
    /// Whether the clause is the reason of its first literal's assignment.
    pub(super) fn locked(&self, cref: ClauseRef) -> bool {
        let first = Lit::from_code(self.db.lits(cref)[0]);
        self.value(first) > 0 && self.reason[first.var().index()] == Reason::Long(cref)
    }

    /// Deletes the worse half of the learnt clauses (see the module documentation).
    pub(super) fn reduce(&mut self) {
        self.stats.reductions += 1;
        let mut candidates = Vec::with_capacity(self.learnts.len());
        // Every clause that is the reason of an assignment on the trail stays.
        let reasons: std::collections::HashSet<ClauseRef> = self
            .trail
            .iter()
            .filter_map(|lit| match self.reason[lit.var().index()] {
                Reason::Long(cref) => Some(cref),
                _ => None,
            })
            .collect();
        #[cfg(debug_assertions)]
        let mut seen = Vec::new();
        for &cref in &self.learnts {
            let used = self.db.take_used(cref);
            let lbd = self.db.lbd(cref);
            #[cfg(debug_assertions)]
            if self.num_vars <= super::DEBUG_CHECK_VARS {
                seen.push((cref, lbd, used, reasons.contains(&cref)));
            }
            if lbd <= self.options.core_lbd || reasons.contains(&cref) {
                continue;
            }
            if used > 0 {
                continue;
            }
            debug_assert!(!self.locked(cref));
            candidates.push((lbd, self.db.size(cref), cref));
        }
        candidates.sort_by_key(|&(lbd, size, _)| (lbd, size));
        for &(_, _, cref) in &candidates[candidates.len() / 2..] {
            if let Some(proof) = self.proof.as_mut() {
                proof.delete(self.db.lits(cref).iter().map(|&c| Lit::from_code(c)));
            }
            self.db.delete(cref);
            self.stats.deleted_clauses += 1;
        }
        #[cfg(debug_assertions)]
        self.check_reduced(&seen);
        if self.db.mostly_garbage() {
            self.collect_garbage();
        } else {
            let db = &self.db;
            self.learnts.retain(|&cref| !db.is_deleted(cref));
        }
    }

    /// Checks the tier invariant of the module documentation on what the reduction just did,
    /// given each learnt clause's LBD, use count (before the reduction) and whether it was a
    /// reason: the clauses a rule keeps are there, and of the rest exactly the worse half by
    /// (LBD, size) is deleted.
    #[cfg(debug_assertions)]
    fn check_reduced(&self, seen: &[(ClauseRef, u32, u32, bool)]) {
        let key = |&(cref, lbd, _, _): &(ClauseRef, u32, u32, bool)| (lbd, self.db.size(cref));
        let (mut kept, mut deleted) = (Vec::new(), Vec::new());
        for entry @ &(cref, lbd, used, reason) in seen {
            if reason || lbd <= self.options.core_lbd || used > 0 {
                assert!(
                    !self.db.is_deleted(cref),
                    "a kept clause was deleted: {entry:?}"
                );
            } else if self.db.is_deleted(cref) {
                deleted.push(key(entry));
            } else {
                kept.push(key(entry));
            }
        }
        assert_eq!(deleted.len(), (kept.len() + deleted.len()).div_ceil(2));
        if let (Some(worst_kept), Some(best_deleted)) = (kept.iter().max(), deleted.iter().min()) {
            assert!(
                worst_kept <= best_deleted,
                "{worst_kept:?} kept, {best_deleted:?} deleted"
            );
        }
    }

    /// Compacts the arena and remaps every reference to it.
    pub(super) fn collect_garbage(&mut self) {
        // Watches of deleted clauses go first, while the arena still marks them.
        let db = &self.db;
        for list in &mut self.watches {
            list.retain(|w| !db.is_deleted(w.cref));
        }
        let relocation = self.db.collect_garbage();
        let moved = |cref| relocation.map(cref).expect("live clause");
        for list in &mut self.watches {
            for watch in list.iter_mut() {
                watch.cref = moved(watch.cref);
            }
        }
        for &lit in &self.trail {
            let reason = &mut self.reason[lit.var().index()];
            if let Reason::Long(cref) = *reason {
                *reason = Reason::Long(moved(cref));
            }
        }
        self.learnts = self
            .learnts
            .iter()
            .filter_map(|&cref| relocation.map(cref))
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use nqueens_support::SplitMix64;

    use super::super::{Limits, Options, Solver};
    use crate::cnf::ClauseSink;
    use crate::lit::{Lit, Var};

    /// A random 3-SAT formula of 150 variables near the threshold: thousands of conflicts.
    fn random_3sat(solver: &mut Solver, seed: u64) {
        let mut rng = SplitMix64::new(seed);
        for _ in 0..640 {
            let mut clause: Vec<Lit> = Vec::new();
            while clause.len() < 3 {
                let var = Var::from_index(rng.below(150));
                if clause.iter().all(|l| l.var() != var) {
                    clause.push(Lit::new(var, rng.below(2) == 1));
                }
            }
            solver.add_clause(&clause);
        }
    }

    /// Learnt clauses attached by hand (over distinct variables, nothing assigned), used once
    /// and then reduced three times: a tier-2 clause outlives a local one by a reduction, the
    /// core clause stays, and each reduction deletes the worse half of the clauses out of use.
    #[test]
    fn tier2_outlives_local_by_a_reduction_and_core_stays() {
        let mut solver = Solver::new();
        solver.ensure_vars(60);
        let mut next = 0;
        let mut learn = |solver: &mut Solver, lbd: u32| {
            let lits: Vec<Lit> = (next..next + 3)
                .map(|v| Lit::new(Var::from_index(v), true))
                .collect();
            next += 3;
            let cref = solver.attach_long(&lits, true, lbd);
            solver.learnts.push(cref);
            cref
        };
        let core = learn(&mut solver, 2);
        let tier2 = learn(&mut solver, 6);
        let local = learn(&mut solver, 7);
        // Four unused clauses, better than `local` by LBD, worse than `tier2`.
        let spare: Vec<_> = (0..4).map(|_| learn(&mut solver, 7)).collect();
        let local_worse = learn(&mut solver, 9);
        solver.note_use(tier2, 6);
        solver.note_use(local, 7);
        solver.note_use(local_worse, 9);
        let alive = |solver: &Solver, cref| solver.learnts.contains(&cref);

        // First: all used ones stay; of the four spares, two go.
        solver.reduce();
        assert!(
            [core, tier2, local, local_worse]
                .iter()
                .all(|&c| alive(&solver, c))
        );
        assert_eq!(spare.iter().filter(|&&c| alive(&solver, c)).count(), 2);
        // Second: `local` and `local_worse` are out of use; with the two spares left, the
        // worse half of four goes: `local_worse` (LBD 9) and one of LBD 7.
        solver.reduce();
        assert!(alive(&solver, core) && alive(&solver, tier2));
        assert!(!alive(&solver, local_worse));
        assert_eq!(solver.learnts.len(), 2 + 2);
        // Third: tier 2 is out of use too, and is the best of the three candidates.
        solver.reduce();
        assert!(alive(&solver, core) && alive(&solver, tier2));
        assert_eq!(solver.learnts.len(), 2);
        solver.reduce();
        assert!(alive(&solver, core));
        assert_eq!(solver.learnts, [core]);
    }

    /// Reductions every few dozen conflicts, each checked against the tier invariant
    /// (`check_reduced`, in debug builds): core and used tier-2 clauses and reasons survive,
    /// and LBD updates promote some clauses.
    #[test]
    fn reductions_keep_the_tiers() {
        let mut promotions = 0;
        for seed in 1..=3 {
            let mut solver = Solver::with_options(Options {
                reduce_first: 50,
                reduce_increment: 10,
                ..Options::default()
            });
            random_3sat(&mut solver, seed);
            solver.set_limits(Limits {
                conflicts: Some(4000),
                ..Limits::default()
            });
            solver.solve();
            let stats = *solver.stats();
            assert!(stats.reductions >= 5, "{stats}");
            assert!(stats.deleted_clauses > 0, "{stats}");
            promotions += stats.promotions;
            // The learnt list holds exactly the live learnt clauses.
            for &cref in &solver.learnts {
                assert!(!solver.db.is_deleted(cref) && solver.db.is_learnt(cref));
            }
            let core = solver
                .learnts
                .iter()
                .filter(|&&cref| solver.db.lbd(cref) <= 2)
                .count();
            assert!(core > 0, "seed {seed}: no core clause learnt");
        }
        assert!(promotions > 0, "no LBD update promoted a clause");
    }
}
