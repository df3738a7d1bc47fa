//! Vivification of learnt clauses: each clause tried against the rest of the formula by unit
//! propagation, and shortened to the literals that propagation shows it needs.
//!
//! For a clause `C = l1 ∨ … ∨ lk`, the negations `¬l1, ¬l2, …` are assumed one by one, each as
//! a decision one level above the last, and propagated (Piette, Hamadi and Saïs, "Vivifying
//! propositional clausal formulae", ECAI 2008; on learnt clauses, Luo, Li, Xiao, Manyà and Lü,
//! "An effective learnt clause minimization approach for CDCL SAT solvers", IJCAI 2017; as
//! scheduled in CaDiCaL and Kissat, Biere, Fleury et al.). Before a literal is decided:
//!
//! - it is already false: the decisions so far imply `¬li`, so `li` is dropped;
//! - it is already true: the decisions imply `li`, and `C` shrinks to `li` and the decisions
//!   the implication needs (found by walking the implication graph back from `li`, as
//!   `analyze_final` does for assumptions); when `C` itself implied it, every other literal
//!   was false and only the dropped ones go;
//! - a decision's propagation reaches a conflict: `C` shrinks to the literals whose decisions
//!   the conflict needs.
//!
//! The clause itself stays in the watch lists while it is tried: it can only imply its last
//! non-false literal (the second case), and a derivation through it is still sound, since the
//! shortened clause is written to the proof before `C` is deleted. Each shortened clause is
//! RUP (assuming its negation, unit propagation takes the same implications to the same
//! conflict or to `C` false), so the proof stays a RUP proof: the new clause is added, then the
//! old one deleted. A clause satisfied at level 0 is deleted; a literal false at level 0 is
//! dropped. A clause that is the reason of a level-0 assignment is left alone, and the
//! level-0 assignments not yet in the proof are written as units before any deletion (as
//! `els` does).
//!
//! Which clauses and when: the learnt clauses of the core and tier 2 (LBD ≤
//! [`Options::tier2_lbd`](super::Options::tier2_lbd); the local ones are about to go), not
//! tried since they were made, best LBD first, then shortest. A shortened clause is a new
//! clause, marked as tried, with the old one's LBD (at most its size) and use; it may be binary
//! (it joins the implication lists) or a unit (assigned at level 0). The literals of each
//! clause are decided in the order of their occurrences among the candidates, most first (as
//! Kissat sorts them). A round runs at the first restart after a learnt-clause reduction, with
//! [`Options::vivify`](super::Options::vivify); its budget is [`VIVIFY_BUDGET_BASE`] plus
//! [`Options::vivify_effort`](super::Options::vivify_effort) thousandths (100: Kissat's
//! `vivifyeffort`, of its search's ticks) of the propagations since the last round, scaled by
//! [`Options::simplify_effort`](super::Options::simplify_effort), counted in *ticks*: one per
//! literal the round's decisions propagate and one per watch in the list that literal's
//! propagation walked (a [`PassBudget`](super::budget::PassBudget), which also looks at the stop
//! flag and the deadline every few thousand). Watches, not just literals: at these shallow
//! levels few blockers are true and nearly every watched clause is read, so a propagation here
//! costs several of the search's (counted in literals only, a round took about 30 % of the time
//! on random 5-SAT while its ticks said 12 %). Kissat's ticks count the memory read as well.
//!
//! The invariant: between two clauses the solver is back at level 0, closed under
//! propagation, and the saved phases the decisions touched are put back at the end of the
//! round (the search's phases are its own). Cost: one propagation per decision, bounded by the
//! budget; sorting the candidates and counting occurrences is linear in their literals (and
//! `O(k log k)` for `k` candidates).

use super::Solver;
use super::clause_db::ClauseRef;
use super::reason::{Conflict, Reason};
use crate::lit::Lit;

/// Ticks a round may spend on any formula, beyond its share of the search.
pub(super) const VIVIFY_BUDGET_BASE: u64 = 10_000;

/// How a tried clause ends.
enum Vivified {
    /// Nothing learnt: the clause stays.
    Kept,
    /// Satisfied at level 0: the clause goes.
    Satisfied,
    /// Shortened to these literals (a subset of the clause).
    Shortened(Vec<Lit>),
}

impl Solver {
    /// Runs a round of vivification (see the module documentation) when [`Options::vivify`]
    /// is on and a reduction came since the last round; the solver is at level 0.
    ///
    /// [`Options::vivify`]: super::Options::vivify
    pub(super) fn vivify_if_due(&mut self) {
        if !self.options.vivify
            || self.inconsistent
            || self.decision_level() != 0
            || self.stats.reductions == self.vivifier.reductions
            || self.simplify_delayed()
        {
            return;
        }
        self.vivifier.reductions = self.stats.reductions;
        self.vivify();
        self.vivifier.propagations_mark = self.stats.propagations;
    }

    /// One round of vivification of the core and tier-2 learnt clauses.
    pub(super) fn vivify(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        if self.inconsistent {
            return;
        }
        if !self.propagate_level_zero() {
            return;
        }
        let share = self.share_since(self.vivifier.propagations_mark, self.options.vivify_effort);
        let mut budget = self.pass_budget(VIVIFY_BUDGET_BASE + share);
        let Some((candidates, counts, saved_phases)) = self.vivify_scratch() else {
            return;
        };
        let mut new_learnts = Vec::new();
        for cref in candidates {
            if self.inconsistent || budget.exhausted() {
                break;
            }
            if self.db.is_deleted(cref) || self.locked(cref) {
                continue;
            }
            self.stats.vivify_checks += 1;
            let old = self.db.to_lits(cref);
            self.stats.vivify_checked_literals += old.len() as u64;
            let mut visits = 0u64;
            let outcome = self.vivify_clause(cref, &old, &counts, &mut visits);
            self.cancel_until(0);
            match outcome {
                Vivified::Kept => self.db.set_vivified(cref),
                Vivified::Satisfied => {
                    self.write_level_zero_units();
                    if let Some(proof) = self.proof.as_mut() {
                        proof.delete(old.iter().copied());
                    }
                    self.db.delete(cref);
                    self.stats.vivified_clauses += 1;
                }
                Vivified::Shortened(new) => {
                    if let Some(added) = self.replace_vivified(cref, &old, &new) {
                        new_learnts.push(added);
                    }
                }
            }
            budget.spend(visits.max(1));
        }
        self.phase = saved_phases;
        let db = &self.db;
        self.learnts.retain(|&cref| !db.is_deleted(cref));
        self.learnts.extend(new_learnts);
        self.stats.vivify_ticks += budget.spent();
        self.end_pass(&budget);
    }

    /// The round's candidates (core and tier-2 learnt clauses not tried yet, best LBD first,
    /// then shortest), their literals' occurrence counts by literal code, and a copy of the
    /// saved phases; `None` when the memory is not to be had (the solver is then out of
    /// memory).
    #[allow(clippy::type_complexity)]
    fn vivify_scratch(&mut self) -> Option<(Vec<ClauseRef>, Vec<u32>, Vec<bool>)> {
        let mut candidates = Vec::new();
        let mut counts = Vec::new();
        let mut saved_phases = Vec::new();
        let wanted = self.learnts.len() + self.values.len() * 4 + self.phase.len();
        if candidates.try_reserve_exact(self.learnts.len()).is_err()
            || counts.try_reserve_exact(self.values.len()).is_err()
            || saved_phases.try_reserve_exact(self.phase.len()).is_err()
        {
            self.out_of_memory = Some(wanted as u64);
            return None;
        }
        let tier2 = self.options.tier2_lbd;
        candidates.extend(self.learnts.iter().copied().filter(|&cref| {
            !self.db.is_deleted(cref) && !self.db.is_vivified(cref) && self.db.lbd(cref) <= tier2
        }));
        candidates.sort_by_key(|&cref| (self.db.lbd(cref), self.db.size(cref)));
        counts.resize(self.values.len(), 0u32);
        for &cref in &candidates {
            for &code in self.db.lits(cref) {
                counts[code as usize] += 1;
            }
        }
        saved_phases.extend_from_slice(&self.phase);
        Some((candidates, counts, saved_phases))
    }

    /// Tries one clause, `old` its literals, by deciding their negations (see the module
    /// documentation); leaves the solver above level 0 (the caller backtracks). Adds its
    /// ticks to `visits`: per literal its decisions propagate, one and the length of the
    /// watch list that literal's propagation walked.
    fn vivify_clause(
        &mut self,
        cref: ClauseRef,
        old: &[Lit],
        counts: &[u32],
        visits: &mut u64,
    ) -> Vivified {
        if old.iter().any(|&l| self.value(l) > 0) {
            return Vivified::Satisfied;
        }
        let mut order: Vec<Lit> = old
            .iter()
            .copied()
            .filter(|&l| self.value(l) == 0)
            .collect();
        order.sort_by_key(|&l| (std::cmp::Reverse(counts[l.index()]), l.index()));
        let mut decided = Vec::with_capacity(order.len());
        for &lit in &order {
            match self.value(lit) {
                v if v < 0 => continue,
                v if v > 0 => {
                    if self.reason[lit.var().index()] == Reason::Long(cref) {
                        // The clause itself implied it: the others are all false.
                        decided.push(lit);
                        return self.shortened(old, decided);
                    }
                    let mut needed = self.decisions_behind(&[lit]);
                    needed.push(lit);
                    return self.shortened(old, needed);
                }
                _ => {
                    self.new_decision_level();
                    self.assign(!lit, Reason::Decision);
                    decided.push(lit);
                    let start = self.qhead;
                    let conflict = self.propagate();
                    for &l in &self.trail[start..self.qhead] {
                        *visits += 1 + self.watches[(!l).index()].len() as u64;
                    }
                    if let Some(conflict) = conflict {
                        let seeds: Vec<Lit> = match conflict {
                            Conflict::Binary(a, b) => vec![a, b],
                            Conflict::Long(c) => self.db.to_lits(c),
                        };
                        let needed = self.decisions_behind(&seeds);
                        return self.shortened(old, needed);
                    }
                }
            }
        }
        self.shortened(old, decided)
    }

    /// `Shortened(new)` when `new` is shorter than `old`, else `Kept`.
    fn shortened(&self, old: &[Lit], new: Vec<Lit>) -> Vivified {
        if new.len() < old.len() {
            Vivified::Shortened(new)
        } else {
            Vivified::Kept
        }
    }

    /// The clause literals whose negated decisions the assignments of `seeds`' variables
    /// (those above level 0) depend on: the decisions reached by walking the implication
    /// graph back from them, each given as the literal it negates.
    fn decisions_behind(&mut self, seeds: &[Lit]) -> Vec<Lit> {
        const SEEN: u8 = 1;
        let mut needed = Vec::new();
        let mut marked = 0usize;
        for &seed in seeds {
            let v = seed.var().index();
            if self.level[v] > 0 && self.marks[v] == 0 {
                self.marks[v] = SEEN;
                marked += 1;
            }
        }
        let bottom = self.trail_lim[0];
        let mut index = self.trail.len();
        while marked > 0 && index > bottom {
            index -= 1;
            let p = self.trail[index];
            let var = p.var();
            if self.marks[var.index()] == 0 {
                continue;
            }
            self.marks[var.index()] = 0;
            marked -= 1;
            let mut see = |marks: &mut [u8], lit: Lit| {
                let u = lit.var().index();
                if self.level[u] > 0 && marks[u] == 0 {
                    marks[u] = SEEN;
                    marked += 1;
                }
            };
            match self.reason[var.index()] {
                Reason::Decision => needed.push(!p),
                Reason::Binary(other) => see(&mut self.marks, other),
                Reason::Long(c) => {
                    for &code in &self.db.lits(c)[1..] {
                        see(&mut self.marks, Lit::from_stored_code(code));
                    }
                }
            }
        }
        debug_assert_eq!(marked, 0);
        needed
    }

    /// Puts `new` (a subset of `old`, over literals unassigned at level 0) in place of the
    /// clause `cref`: into the proof first, then the solver (as a unit, a binary clause or a
    /// learnt long clause, which is returned); the old clause is deleted.
    fn replace_vivified(&mut self, cref: ClauseRef, old: &[Lit], new: &[Lit]) -> Option<ClauseRef> {
        debug_assert_eq!(self.decision_level(), 0);
        self.write_level_zero_units();
        if let Some(proof) = self.proof.as_mut() {
            proof.add(new.iter().copied());
            proof.delete(old.iter().copied());
        }
        let (lbd, used) = (self.db.lbd(cref), self.db.used(cref));
        self.db.delete(cref);
        self.stats.vivified_clauses += 1;
        self.stats.vivified_literals += (old.len() - new.len()) as u64;
        match *new {
            [] => {
                self.set_inconsistent();
                None
            }
            [unit] => {
                self.assign_units(vec![unit]);
                None
            }
            [a, b] => {
                self.attach_binary(a, b);
                None
            }
            _ => {
                let added = self.attach_long(new, true, lbd.min(new.len() as u32));
                self.db.set_vivified(added);
                if used > 0 {
                    self.db.mark_used(added, used);
                }
                Some(added)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Options, Solver};
    use crate::cnf::ClauseSink;
    use crate::lit::lit;

    /// `x1 → x2`, `x2 → x3` (binary) and `x1 ∧ x4 → x5` (long): in the planted learnt clause
    /// `¬x1 ∨ x3 ∨ x6 ∨ x7`, deciding `x1` (its negation) implies `x3`, so the clause shrinks
    /// to `¬x1 ∨ x3`, and `x6` and `x7` go.
    #[test]
    fn a_planted_learnt_clause_shrinks_to_what_propagation_needs() {
        let mut solver = Solver::with_options(Options {
            vivify: true,
            ..Options::default()
        });
        solver.add_clause(&[lit(-1), lit(2)]);
        solver.add_clause(&[lit(-2), lit(3)]);
        solver.add_clause(&[lit(-1), lit(-4), lit(5)]);
        solver.ensure_vars(7);
        let planted = [lit(-1), lit(3), lit(6), lit(7)];
        let cref = solver.attach_long(&planted, true, 4);
        solver.learnts.push(cref);
        // A second learnt clause no propagation shortens: tried, kept, marked.
        let kept = solver.attach_long(&[lit(4), lit(6), lit(-7)], true, 3);
        solver.learnts.push(kept);
        solver.vivify();
        assert!(solver.db.is_deleted(cref));
        assert!(solver.db.is_vivified(kept) && !solver.db.is_deleted(kept));
        assert_eq!(solver.learnts, [kept]);
        // The binary `¬x1 ∨ x3`: when `¬x1` is false, `x3` is implied.
        assert_eq!(solver.binaries[lit(-1).index()], [lit(2), lit(3)]);
        let stats = *solver.stats();
        assert_eq!(
            (
                stats.vivify_checks,
                stats.vivified_clauses,
                stats.vivified_literals
            ),
            (2, 1, 2),
            "{stats}"
        );
        assert_eq!(stats.vivify_checked_literals, 4 + 3);
        // Tried clauses are not tried again.
        solver.vivify();
        assert_eq!(solver.stats().vivify_checks, 2);
        // The saved phases are the search's: vivification's decisions left them alone.
        assert!(solver.phase.iter().all(|&p| !p));
    }

    /// A conflict: with `x1 ∧ x2 → x4` and `x1 ∧ x2 → ¬x4`, deciding the negations of the
    /// planted `¬x1 ∨ x5 ∨ ¬x2 ∨ x6` in any order reaches a conflict that needs only `x1` and
    /// `x2`: the clause becomes the binary `¬x1 ∨ ¬x2`.
    #[test]
    fn a_conflict_keeps_only_the_decisions_it_needs() {
        let mut solver = Solver::with_options(Options {
            vivify: true,
            ..Options::default()
        });
        solver.add_clause(&[lit(-1), lit(-2), lit(4)]);
        solver.add_clause(&[lit(-1), lit(-2), lit(-4)]);
        solver.ensure_vars(6);
        let cref = solver.attach_long(&[lit(-1), lit(5), lit(-2), lit(6)], true, 3);
        solver.learnts.push(cref);
        solver.vivify();
        assert!(solver.db.is_deleted(cref));
        assert_eq!(solver.binaries[lit(-1).index()], [lit(-2)]);
        assert_eq!(solver.stats().vivified_literals, 2);
    }
}
