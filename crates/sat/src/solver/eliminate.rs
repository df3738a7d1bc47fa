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
//! extension stack (`extend`) before it is returned. Elimination runs once per solver (again
//! at the next solve only when a limit stopped it), unless
//! [`Options::eliminate_rounds`](super::Options::eliminate_rounds) is on: then
//! [`Solver::eliminate_pass`] runs again during the search, at restarts, from the variables
//! whose clauses changed and with a growing bound (`elim_rounds`).
//!
//! Frozen variables are never eliminated: the projection variables of an enumeration (its blocking
//! clauses name them) and the assumptions of the call that runs it. A variable eliminated and named
//! later, by [`ClauseSink::add_clause`](crate::ClauseSink::add_clause) or as an assumption, is put
//! back: its clauses come off the extension stack and are added again (putting back, the same way,
//! the eliminated variables they name). The resolvents stay; they are implied by the clauses put
//! back.
//!
//! With [`Options::factor`](super::Options::factor), each run factors between its subsumption
//! and its elimination (`bve::factor`), within [`BUDGET_BASE`] ticks plus
//! [`FACTOR_SHARE_PERMILLE`] thousandths of the search's propagations before the run; the fresh
//! variables it makes become the solver's (`numbering`) before the clauses come back.
//!
//! Proofs: each resolvent and strengthened clause is written as a lemma before the clauses it
//! replaces are deleted, so a refutation stays RUP. A clause put back is written as a lemma
//! with its variable's literal first; it is not RUP but restores a clause the proof deleted
//! (RAT on that literal while no later clause holds its negation), so a proof written across
//! a put-back is checked as an incremental proof, where a restored clause is implied by the
//! clauses given so far (the suite's checker, `check_incremental`, replays such refutations).
//!
//! Cost: the clauses are copied once into occurrence lists (about twice the formula's
//! memory, for the run's length; the copy is taken fallibly, and a refusal makes the solver
//! out of memory: the solve answers `Unknown(Memory)`); each phase is bounded by a budget of
//! clause and literal visits (a [`PassBudget`], which also stops the run between two steps
//! at the stop flag or the time limit), [`BUDGET_BASE`] plus per literal of the formula
//! [`SUBSUME_PER_LITERAL`] for the first subsumption round, [`ELIMINATE_PER_LITERAL`] for
//! elimination, plus [`ELIMINATE_SHARE_PERMILLE`] thousandths of the search's propagations
//! before the run, all scaled by `Options::simplify_effort`. (On a formula of
//! 449,265 binary clauses over 1,000 variables, where no variable has few enough clauses to
//! go, 20 visits a literal for subsumption cost 544 million instructions, four times the
//! whole search; 4 cost 75 million, callgrind.)

use super::Solver;
use super::budget::PassBudget;
use super::bve::{Bve, MAX_OCCURRENCES, bve_bytes};
use super::elim_rounds::ROUNDS_MAX_OCCURRENCES;
use super::reason::Reason;
use crate::lit::{Lit, Var};

/// Visits allowed to the first subsumption round, per literal of the formula.
const SUBSUME_PER_LITERAL: u64 = 4;
/// Visits allowed to elimination, per literal of the formula.
const ELIMINATE_PER_LITERAL: u64 = 20;
/// Visits allowed to each phase besides.
const BUDGET_BASE: u64 = 1_000_000;
/// Visits allowed to each phase per thousand search propagations before it (none before the
/// first search; a run a limit stopped and the next solve takes up has them). Kissat's
/// `eliminateeffort` is 100 too.
const ELIMINATE_SHARE_PERMILLE: u64 = 100;
/// Ticks allowed to factoring ([`Options::factor`](super::Options::factor)) per thousand search
/// propagations before it, beside [`BUDGET_BASE`] (Kissat's `factoreffort` is 50).
const FACTOR_SHARE_PERMILLE: u64 = 50;

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
                self.add_internal_clause(&clause);
            }
        }
    }

    /// Runs elimination if it is on, has not run yet and the search has made
    /// [`Options::simplify_delay`](super::Options::simplify_delay) conflicts (the caller has
    /// frozen the assumptions' variables). A run that a limit stops (the stop flag, the time)
    /// keeps what it did and is taken up again by the next solve; one its effort bound stops
    /// is done.
    pub(super) fn eliminate_once(&mut self) {
        if !self.options.eliminate
            || self.simplifier.done
            || self.inconsistent
            || self.out_of_memory.is_some()
            || self.simplify_delayed()
        {
            return;
        }
        let share = self.search_share(ELIMINATE_SHARE_PERMILLE);
        let extra = self.simplifier.rounds.bound as usize;
        let complete = self.eliminate_pass(share, extra);
        self.simplifier.done = complete.is_some();
        self.after_elimination(complete);
    }

    /// One elimination run at level 0 over the irredundant clauses, with the budget's share
    /// `share` (ticks from the search's propagations) and resolvents allowed `extra` beyond a
    /// variable's clauses. With [`Options::eliminate_rounds`](super::Options::eliminate_rounds)
    /// it starts from the variables whose clauses changed since the run before (`elim_rounds`)
    /// and leaves the fingerprints for the next. `None` when a limit stopped it (before any
    /// work, or during: what it did is kept); else whether it tried every candidate (a run
    /// with nothing to do, or ended by a conflict or the memory, counts as complete).
    pub(super) fn eliminate_pass(&mut self, share: u64, extra: usize) -> Option<bool> {
        let literals = self.db.refs().map(|cref| self.db.size(cref)).sum::<usize>()
            + self.binaries.iter().map(Vec::len).sum::<usize>();
        let literals = literals as u64;
        let budget = self.pass_budget(BUDGET_BASE + SUBSUME_PER_LITERAL * literals + share);
        if budget.exhausted() {
            // A limit reached before any work: nothing done, taken up by the next solve.
            self.end_pass(&budget);
            return None;
        }
        self.cancel_until(0);
        if !self.propagate_level_zero() {
            return Some(true);
        }
        // Level-0 assignments need no reasons (analysis never looks at them), and the
        // clauses that were theirs are about to move; in the proof, they stay derivable.
        for &lit in &self.trail {
            self.reason[lit.var().index()] = Reason::Decision;
        }
        self.write_level_zero_units();
        let Some((clauses, occurrences)) = self.occurrences() else {
            return Some(true);
        };
        let max_occurrences = if self.options.eliminate_rounds {
            ROUNDS_MAX_OCCURRENCES
        } else {
            MAX_OCCURRENCES
        };
        if !self.has_candidates(&occurrences, max_occurrences) {
            return Some(true);
        }
        let eliminate = self.scaled(BUDGET_BASE + ELIMINATE_PER_LITERAL * literals + share);
        let factor_share = share * FACTOR_SHARE_PERMILLE / ELIMINATE_SHARE_PERMILLE;
        let factor = (self.options.factor).then(|| self.scaled(BUDGET_BASE + factor_share));
        let rounds = self.options.eliminate_rounds;
        let previous = std::mem::take(&mut self.simplifier.rounds.signature);
        let every_candidate = std::mem::take(&mut self.simplifier.rounds.every_candidate);
        let Some(mut bve) = self.copy_to_bve(budget, (clauses, &occurrences)) else {
            self.out_of_memory = Some(bve_bytes(clauses as u64, literals, self.num_vars));
            return Some(true);
        };
        drop(occurrences);
        bve.set_bound(extra, max_occurrences);
        bve.run(factor, eliminate, previous.as_deref(), every_candidate);
        let complete = bve.complete();
        let signature = if rounds { bve.signature() } else { None };
        // With the rounds on, a run that changed nothing leaves the solver's clauses as they
        // are (attaching them again would reorder the watches and perturb the search).
        let keep = rounds && !bve.changed();
        let (clauses, units, inconsistent, counts, budget) = bve.finish();
        self.simplifier.rounds.signature = signature;
        self.end_pass(&budget);
        if keep {
            return budget.interrupted().is_none().then_some(complete);
        }
        self.stats.eliminated_vars += counts.eliminated;
        self.stats.subsumed_clauses += counts.subsumed;
        self.stats.strengthened_clauses += counts.strengthened;
        self.stats.elimination_gates += counts.gates;
        self.stats.factored_vars += counts.factored_vars;
        self.stats.factored_clauses += counts.factored_clauses;
        if counts.factored_vars > 0 && !self.add_fresh_vars(counts.factored_vars as u32) {
            return Some(true);
        }
        self.replace_clauses(&clauses);
        if inconsistent {
            self.set_inconsistent();
            return Some(true);
        }
        self.assign_units(units);
        budget.interrupted().is_none().then_some(complete)
    }

    /// A [`Bve`] holding a copy of the irredundant clauses (`clauses` of them, their literals
    /// occurring `occurrences[code]` times), or `None` when the memory is not to be had.
    fn copy_to_bve(
        &mut self,
        budget: PassBudget,
        (clauses, occurrences): (usize, &[u32]),
    ) -> Option<Bve<'_>> {
        let mut bve = Bve::try_new(
            &self.values,
            &self.simplifier.frozen,
            &mut self.extension,
            self.proof.as_mut(),
            budget,
            (clauses, occurrences),
        )
        .ok()?;
        for (code, others) in self.binaries.iter().enumerate() {
            let a = Lit::from_code(code as u32);
            for &b in others {
                if a.code() < b.code() {
                    bve.add_original(&[a, b]).ok()?;
                }
            }
        }
        let mut lits = Vec::new();
        for cref in self.db.refs() {
            if !self.db.is_deleted(cref) && !self.db.is_learnt(cref) {
                lits.clear();
                lits.extend(self.db.lits(cref).iter().map(|&c| Lit::from_code(c)));
                bve.add_original(&lits).ok()?;
            }
        }
        Some(bve)
    }

    /// The irredundant clauses: how many, and by literal code how often each literal occurs
    /// in them (satisfied clauses included); `None` (and out of memory) when the count's
    /// memory is not to be had.
    fn occurrences(&mut self) -> Option<(usize, Vec<u32>)> {
        let mut count = Vec::new();
        if count.try_reserve_exact(self.values.len()).is_err() {
            self.out_of_memory = Some(4 * self.values.len() as u64);
            return None;
        }
        count.extend(self.binaries.iter().map(|list| list.len() as u32));
        let mut clauses = count.iter().map(|&n| n as usize).sum::<usize>() / 2;
        for cref in self.db.refs() {
            if !self.db.is_deleted(cref) && !self.db.is_learnt(cref) {
                clauses += 1;
                for &code in self.db.lits(cref) {
                    count[code as usize] += 1;
                }
            }
        }
        Some((clauses, count))
    }

    /// Whether some variable is few enough clauses to be eliminated (by `count`, its
    /// occurrences, satisfied clauses included): when none is, the whole run is skipped, its
    /// subsumption round too (on pairwise N-Queens 150, 5.6 million binary clauses, each
    /// variable in hundreds, it found nothing and the run took 1.70 CPU seconds against 1.26).
    fn has_candidates(&self, count: &[u32], max_occurrences: usize) -> bool {
        let frozen = &self.simplifier.frozen;
        (0..self.num_vars as usize).any(|v| {
            let (pos, neg) = (count[2 * v] as usize, count[2 * v + 1] as usize);
            !frozen.get(v).copied().unwrap_or(false)
                && self.values[2 * v] == 0
                && pos + neg > 0
                && (pos.min(neg) == 0 || pos.max(neg) <= max_occurrences)
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
