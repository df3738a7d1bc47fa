//! Learnt-clause reduction and garbage collection of the clause arena.
//!
//! Every few thousand conflicts the learnt clauses of LBD ≤ 2, those used in a conflict since
//! the last reduction and those that are the reason of an assignment stay; the worse half of the
//! rest by LBD (then size) is deleted. Deleting only marks a clause; when deleted clauses fill
//! half of the arena, it is compacted and every reference (watches, reasons, the learnt list)
//! remapped.

use super::Solver;
use super::clause_db::ClauseRef;
use super::prop::Reason;
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
        for &cref in &self.learnts {
            let used = self.db.take_used(cref);
            if !used && self.db.lbd(cref) > 2 && !reasons.contains(&cref) {
                debug_assert!(!self.locked(cref));
                candidates.push(cref);
            }
        }
        candidates.sort_by_key(|&cref| (self.db.lbd(cref), self.db.size(cref)));
        for &cref in &candidates[candidates.len() / 2..] {
            if let Some(proof) = self.proof.as_mut() {
                proof.delete(self.db.lits(cref).iter().map(|&c| Lit::from_code(c)));
            }
            self.db.delete(cref);
            self.stats.deleted_clauses += 1;
        }
        if self.db.mostly_garbage() {
            self.collect_garbage();
        } else {
            let db = &self.db;
            self.learnts.retain(|&cref| !db.is_deleted(cref));
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
