//! Bounded variable elimination before the first search, and putting eliminated variables
//! back when a clause or an assumption names them again.
//!
//! With [`Options::eliminate`](super::Options::eliminate), the first solve, at level 0 after
//! propagation, hands the irredundant clauses (the formula's long clauses and every binary
//! clause: a learnt binary is implied by the formula, so it may stand for an original one)
//! with their level-0 values to [`Bve`](super::bve) (subsumption, strengthening, elimination;
//! see there). What comes back replaces them: the solver's original long clauses and binary
//! lists are emptied, the clauses left are attached again, the units found assigned and
//! propagated, and every learnt long clause that mentions an eliminated variable is deleted
//! (the others are implied by what is left: a clause without `x` implied by a formula is
//! implied by its resolution on `x`, which is the formula with `x` projected out). The
//! eliminated variables leave the decision heap; a model of what is left is completed by the
//! extension stack (`extend`) before it is returned. Elimination runs once per solver.
//!
//! Frozen variables are never eliminated: the projection variables of an enumeration (its
//! blocking clauses name them) and the assumptions of the call that runs it. A variable
//! eliminated and named later, by [`ClauseSink::add_clause`](crate::ClauseSink::add_clause)
//! or as an assumption, is put back: its clauses come off the extension stack and are added
//! again (putting back, the same way, the eliminated variables they name). The resolvents
//! stay; they are implied by the clauses put back.
//!
//! Proofs: each resolvent and strengthened clause is written as a lemma before the clauses it
//! replaces are deleted, so a refutation stays RUP. A clause put back is written as a lemma
//! with its variable's literal first; it is RAT on that literal, not RUP, so a proof written
//! across a put-back needs a DRAT checker (as one across an enumeration is no refutation).
//!
//! Cost: the clauses are copied once into occurrence lists (about twice the formula's
//! memory, for the run's length); each phase is bounded by a budget of clause and literal
//! visits, [`BUDGET_BASE`] plus per literal of the formula [`SUBSUME_PER_LITERAL`] for the
//! first subsumption round, [`ELIMINATE_PER_LITERAL`] for elimination. (On a formula of
//! 449,265 binary clauses over 1,000 variables, where no variable has few enough clauses to
//! go, 20 visits a literal for subsumption cost 544 million instructions, four times the
//! whole search; 4 cost 75 million, callgrind.)

use super::Solver;
use super::bve::{Bve, MAX_OCCURRENCES};
use super::prop::Reason;
use crate::cnf::ClauseSink;
use crate::lit::{Lit, Var};

/// Visits allowed to the first subsumption round, per literal of the formula.
const SUBSUME_PER_LITERAL: i64 = 4;
/// Visits allowed to elimination, per literal of the formula.
const ELIMINATE_PER_LITERAL: i64 = 20;
/// Visits allowed to each phase besides.
const BUDGET_BASE: i64 = 1_000_000;

impl Solver {
    /// Marks `vars` never to be substituted or eliminated (assumptions', projections').
    pub(super) fn freeze(&mut self, vars: impl IntoIterator<Item = Var>) {
        let frozen = &mut self.simplifier.frozen;
        for var in vars {
            if frozen.len() <= var.index() {
                frozen.resize(var.index() + 1, false);
            }
            frozen[var.index()] = true;
        }
    }

    /// Puts back every eliminated variable of `lits` (and those its clauses name).
    pub(super) fn restore(&mut self, lits: &[Lit]) {
        if self.extension.is_empty() {
            return;
        }
        for &lit in lits {
            let var = lit.var();
            if !self.extension.is_removed(var) {
                continue;
            }
            let clauses = self.extension.take_back(var);
            self.heap.insert(var);
            self.stats.restored_vars += 1;
            for mut clause in clauses {
                if let Some(at) = clause.iter().position(|l| l.var() == var) {
                    clause.swap(0, at);
                }
                if let Some(proof) = self.proof.as_mut() {
                    proof.add(clause.iter().copied());
                }
                self.add_clause(&clause);
            }
        }
    }

    /// Runs elimination if it is on and has not run yet (the caller has frozen the
    /// assumptions' variables).
    pub(super) fn eliminate_once(&mut self) {
        if !self.options.eliminate || self.simplifier.done || self.inconsistent {
            return;
        }
        self.simplifier.done = true;
        self.cancel_until(0);
        if self.propagate().is_some() {
            self.set_inconsistent();
            return;
        }
        // Level-0 assignments need no reasons (analysis never looks at them), and the
        // clauses that were theirs are about to move.
        for &lit in &self.trail {
            self.reason[lit.var().index()] = Reason::Decision;
        }
        if !self.has_candidates() {
            return;
        }
        let literals: usize = self.db.refs().map(|cref| self.db.size(cref)).sum::<usize>()
            + self.binaries.iter().map(Vec::len).sum::<usize>();
        let mut bve = Bve::new(
            &self.values,
            &self.simplifier.frozen,
            &mut self.extension,
            self.proof.as_mut(),
        );
        for (code, others) in self.binaries.iter().enumerate() {
            let a = Lit::from_code(code as u32);
            for &b in others {
                if a.code() < b.code() {
                    bve.add_original(&[a, b]);
                }
            }
        }
        let mut lits = Vec::new();
        for cref in self.db.refs() {
            if !self.db.is_deleted(cref) && !self.db.is_learnt(cref) {
                lits.clear();
                lits.extend(self.db.lits(cref).iter().map(|&c| Lit::from_code(c)));
                bve.add_original(&lits);
            }
        }
        let literals = literals as i64;
        bve.run(
            BUDGET_BASE + SUBSUME_PER_LITERAL * literals,
            BUDGET_BASE + ELIMINATE_PER_LITERAL * literals,
        );
        let (clauses, units, inconsistent, counts) = bve.finish();
        self.stats.eliminated_vars += counts.eliminated;
        self.stats.subsumed_clauses += counts.subsumed;
        self.stats.strengthened_clauses += counts.strengthened;
        self.stats.elimination_gates += counts.gates;
        self.replace_clauses(&clauses);
        if inconsistent {
            self.set_inconsistent();
            return;
        }
        self.assign_units(units);
    }

    /// Whether some variable is few enough clauses to be eliminated (by a count of its
    /// occurrences, satisfied clauses included): when none is, the whole run is skipped, its
    /// subsumption round too (on pairwise N-Queens 150, 5.6 million binary clauses, each
    /// variable in hundreds, it found nothing and the run took 1.70 CPU seconds against 1.26).
    fn has_candidates(&self) -> bool {
        let mut count: Vec<usize> = self.binaries.iter().map(Vec::len).collect();
        for cref in self.db.refs() {
            if !self.db.is_deleted(cref) && !self.db.is_learnt(cref) {
                for &code in self.db.lits(cref) {
                    count[code as usize] += 1;
                }
            }
        }
        let frozen = &self.simplifier.frozen;
        (0..self.num_vars as usize).any(|v| {
            let (pos, neg) = (count[2 * v], count[2 * v + 1]);
            !frozen.get(v).copied().unwrap_or(false)
                && self.values[2 * v] == 0
                && pos + neg > 0
                && (pos.min(neg) == 0 || pos.max(neg) <= MAX_OCCURRENCES)
        })
    }

    /// Replaces the irredundant clauses by `clauses`, deletes the learnt clauses that name an
    /// eliminated variable, and takes the eliminated variables out of the decision heap.
    fn replace_clauses(&mut self, clauses: &[Vec<Lit>]) {
        let refs: Vec<_> = self.db.refs().collect();
        for cref in refs {
            if self.db.is_deleted(cref) {
                continue;
            }
            if self.db.is_learnt(cref) {
                let extension = &self.extension;
                let lits = self.db.lits(cref);
                if !lits
                    .iter()
                    .any(|&c| extension.is_removed(Lit::from_code(c).var()))
                {
                    continue;
                }
                if let Some(proof) = self.proof.as_mut() {
                    proof.delete(lits.iter().map(|&c| Lit::from_code(c)));
                }
            }
            self.db.delete(cref);
        }
        for list in &mut self.binaries {
            list.clear();
        }
        self.collect_garbage();
        for clause in clauses {
            match *clause.as_slice() {
                [a, b] => self.attach_binary(a, b),
                _ => {
                    self.attach_long(clause, false, 0);
                }
            }
        }
        for v in 0..self.num_vars {
            let var = Var::from_index(v);
            if self.extension.is_removed(var) {
                self.heap.remove(var);
            }
        }
    }
}
