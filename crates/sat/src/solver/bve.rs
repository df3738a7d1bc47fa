//! Bounded variable elimination over occurrence lists, with backward subsumption and
//! self-subsuming strengthening (Eén and Biere, "Effective Preprocessing in SAT through
//! Variable and Clause Elimination", SAT 2005: SatELite).
//!
//! [`Bve`] works on its own copy of the irredundant clauses, each a `Vec<Lit>` (empty once
//! removed), with an occurrence list per literal and an exact count of live occurrences.
//!
//! - *Subsumption and strengthening*: a clause `C` is tried against every clause `D` that
//!   holds its least frequent literal or that literal's negation. `C ⊆ D` removes `D`; `C`
//!   equal to a subset of `D` but for one literal `m` that `D` holds negated strengthens `D` to
//!   `D \ {¬m}` (the resolvent of `C` and `D` on `m`, which subsumes `D`). Every clause is
//!   tried once, smallest first, and again whenever it changes or is made; a run that has the
//!   fingerprints of the run before tries only the clauses changed since ([`Bve::run`]).
//! - *Elimination*: variables by the product of their two occurrence counts, smallest first
//!   (a heap with lazy updates: an entry whose product changed is pushed again). Variable `x`
//!   with clauses `P` (holding `x`) and `N` (holding `¬x`) goes when the non-tautological
//!   resolvents of `P × N` are no more than `|P| + |N|` (bound 0; elimination rounds during
//!   the search raise it, [`Bve::set_bound`], `elim_rounds`), none is longer than
//!   [`MAX_RESOLVENT`] literals, and neither side has more than [`MAX_OCCURRENCES`] clauses
//!   (100 with the rounds on; a pure literal, one side empty, always goes). A run may start
//!   from the variables whose clauses changed since the run before ([`Bve::signature`]). Its
//!   clauses are pushed onto the extension stack (witness: `x` in `P`, `¬x` in `N`), the
//!   resolvents added, then the clauses removed. One step, and the gates it resolves
//!   through, is `resolve`'s.
//! - *Factoring* ([`Bve::factor`], with `Options::factor`): between subsumption and
//!   elimination, bounded variable addition makes fresh variables for the parts many short
//!   clauses share (`factor`); the set grows by those variables, which the solver then makes.
//! - *Units*: a unit from strengthening or resolution is assigned; clauses it satisfies are
//!   removed, clauses with its negation strengthened, and the cascade runs before the next
//!   step. Frozen variables (assumptions, enumeration's projection) are never eliminated.
//!
//! Invariant between steps: no live clause has an assigned literal, a repeated literal or
//! both signs of a variable; every live clause is in the occurrence list of each of its
//! literals (lists may also hold removed clauses, skipped when read); no live clause mentions
//! an eliminated variable. Every added clause (strengthened, resolvent) is written to the
//! proof before the clauses it replaces are deleted: a resolvent is RUP from its two
//! antecedents, a strengthened clause from `C` and `D`.
//!
//! Costs: each phase (subsumption, elimination) is bounded by a budget of clause and literal
//! visits set by the caller; one subsumption attempt reads the occurrence lists of one
//! literal pair; one elimination attempt counts at most `16 × 16` resolvents of at most 100
//! literals (100 × 100 with the rounds on) and builds them only when the variable goes.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, TryReserveError};
use std::mem::size_of;

mod factor;
mod resolve;
#[cfg(test)]
mod tests;

use super::budget::PassBudget;
use super::extend::Extension;
use super::proof::Proof;
use crate::lit::{Lit, Var};

/// Resolvents longer than this are refused: the variable stays.
pub(super) const MAX_RESOLVENT: usize = 100;
/// A variable with more clauses than this on one side (and some on the other) stays.
pub(super) const MAX_OCCURRENCES: usize = 16;

/// Bytes a run over `clauses` clauses of `literals` literals in all, over `vars` variables,
/// holds at most besides the solver (for `Solver::estimated_bytes_with`): each clause's copy
/// (a vector and its literals) and its place in the occurrence lists and the schedule; the
/// per-literal lists and counts and the candidate heap (three entries a variable); the
/// extension stack, which may end up holding every clause; and the solver's arena once more,
/// which compaction copies while the clauses that come back are still held. The resolvents,
/// no more than the clauses they replace, reuse the room the removed ones leave in the
/// accounting.
pub(super) fn bve_bytes(clauses: u64, literals: u64, vars: u32) -> u64 {
    let word = size_of::<u32>();
    let per_clause = size_of::<Vec<Lit>>() + 2 * word + 2 * size_of::<bool>() + 2 * word + 3 * word;
    let per_literal = 4 * word;
    let per_var =
        2 * (size_of::<Vec<u32>>() + word + size_of::<i8>()) + 1 + 3 * size_of::<(u64, u32)>();
    clauses
        .saturating_mul(per_clause as u64)
        .saturating_add(literals.saturating_mul(per_literal as u64))
        .saturating_add(u64::from(vars).saturating_mul(per_var as u64))
}

/// Whether `var`'s fingerprint `now` ([`Bve::signature`]) differs from the one `before` (a
/// variable the run before did not have has changed).
fn fingerprint_changed(before: &[u64], now: &[u64], var: Var) -> bool {
    before.get(var.index()) != Some(&now[var.index()])
}

/// What `marks` holds for a marked literal, by its variable: 1 when it is positive, −1 when
/// negative (0: the variable is not marked).
fn mark_of(lit: Lit) -> i8 {
    if lit.is_positive() { 1 } else { -1 }
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Counts {
    pub(super) eliminated: u64,
    pub(super) subsumed: u64,
    pub(super) strengthened: u64,
    pub(super) gates: u64,
    /// Fresh variables factoring made ([`Bve::factor`]), numbered after the set's.
    pub(super) factored_vars: u64,
    /// Clauses factoring removed beyond those it added.
    pub(super) factored_clauses: u64,
}

/// A clause set being simplified. See the [module documentation](self).
pub(super) struct Bve<'a> {
    /// The clauses; empty once removed.
    clauses: Vec<Vec<Lit>>,
    /// By literal code: clauses holding it (and, lazily, some removed ones).
    occs: Vec<Vec<u32>>,
    /// By literal code: live clauses holding it.
    count: Vec<u32>,
    /// By literal code: 1 true, −1 false, 0 unassigned.
    value: Vec<i8>,
    /// By variable: never eliminated.
    frozen: &'a [bool],
    extension: &'a mut Extension,
    proof: Option<&'a mut Proof>,
    /// Units found and not yet propagated.
    pending: Vec<Lit>,
    /// Units assigned, for the solver's trail.
    units: Vec<Lit>,
    inconsistent: bool,
    /// By variable: the sign of its literal in the clause being compared (1, −1) or 0.
    marks: Vec<i8>,
    /// Clauses to try as subsumers (popped from the end), and whether each is queued.
    queue: Vec<u32>,
    queued: Vec<bool>,
    /// By clause: made or shortened by this run (a resolvent, a strengthened clause, a
    /// factoring product). Such a clause is tried as a subsumer, but as a subsumed clause only
    /// by the clauses tried after it, so [`Bve::signature`] leaves it out for the next run to
    /// compare with the others.
    rewritten: Vec<bool>,
    /// [`Bve::run`] has begun (a clause added from then on is rewritten).
    running: bool,
    /// Elimination candidates: (occurrence product, variable), smallest first.
    candidates: BinaryHeap<Reverse<(u64, u32)>>,
    /// Visits left, and the solve's limits (`budget`).
    budget: PassBudget,
    /// Elimination has begun (before, changed variables are not made candidates).
    eliminating: bool,
    /// Resolvents allowed beyond a variable's clauses (0 before the first search; grown by
    /// elimination rounds, `elim_rounds`).
    extra: usize,
    /// A variable with more clauses than this on one side (and some on the other) stays.
    max_occurrences: usize,
    /// Elimination tried every candidate (no limit, no budget, no conflict stopped it).
    complete: bool,
    /// Some clause of the formula came in with a false literal removed.
    shortened: bool,
    /// Scratch for [`Bve::backward`]: the subsumer's literals and the clauses it is tried
    /// against (kept between calls, so a try allocates nothing).
    subsumer: Vec<Lit>,
    others: Vec<u32>,
    counts: Counts,
}

impl<'a> Bve<'a> {
    /// An empty clause set over `values.len() / 2` variables with the given level-0 values,
    /// with room made for `clauses` clauses whose literals occur `occurrences[code]` times
    /// each (the copy [`Bve::add_original`] makes), within `budget`; or the error when the
    /// memory is not to be had.
    pub(super) fn try_new(
        values: &[i8],
        frozen: &'a [bool],
        extension: &'a mut Extension,
        proof: Option<&'a mut Proof>,
        budget: PassBudget,
        (clauses, occurrences): (usize, &[u32]),
    ) -> Result<Self, TryReserveError> {
        let mut occs = Vec::new();
        occs.try_reserve_exact(values.len())?;
        for &n in occurrences {
            let mut list = Vec::new();
            list.try_reserve_exact(n as usize)?;
            occs.push(list);
        }
        occs.resize_with(values.len(), Vec::new);
        let zeroed = |n: usize| -> Result<Vec<u32>, TryReserveError> {
            let mut v = Vec::new();
            v.try_reserve_exact(n)?;
            v.resize(n, 0);
            Ok(v)
        };
        let count = zeroed(values.len())?;
        let mut value = Vec::new();
        value.try_reserve_exact(values.len())?;
        value.extend_from_slice(values);
        let mut marks = Vec::new();
        marks.try_reserve_exact(values.len() / 2)?;
        marks.resize(values.len() / 2, 0);
        let (mut all, mut queue, mut queued) = (Vec::new(), Vec::new(), Vec::new());
        all.try_reserve_exact(clauses)?;
        queue.try_reserve_exact(clauses)?;
        queued.try_reserve_exact(clauses)?;
        let mut rewritten = Vec::new();
        rewritten.try_reserve_exact(clauses)?;
        Ok(Bve {
            clauses: all,
            occs,
            count,
            value,
            frozen,
            extension,
            proof,
            pending: Vec::new(),
            units: Vec::new(),
            inconsistent: false,
            marks,
            queue,
            queued,
            rewritten,
            running: false,
            candidates: BinaryHeap::new(),
            budget,
            eliminating: false,
            extra: 0,
            max_occurrences: MAX_OCCURRENCES,
            complete: false,
            shortened: false,
            subsumer: Vec::new(),
            others: Vec::new(),
            counts: Counts::default(),
        })
    }

    /// Adds a clause of the formula (distinct literals, no tautology): dropped when satisfied,
    /// its false literals removed first (the shorter clause written to the proof). The error
    /// when the memory for its copy is not to be had.
    pub(super) fn add_original(&mut self, lits: &[Lit]) -> Result<(), TryReserveError> {
        if lits.iter().any(|&l| self.value[l.index()] > 0) {
            return Ok(());
        }
        let mut kept = Vec::new();
        kept.try_reserve_exact(lits.len())?;
        kept.extend(lits.iter().copied().filter(|&l| self.value[l.index()] == 0));
        if kept.len() < lits.len() {
            self.shortened = true;
            if let Some(proof) = self.proof.as_deref_mut() {
                proof.add(kept.iter().copied());
                proof.delete(lits.iter().copied());
            }
        }
        self.add(kept);
        Ok(())
    }

    /// Adds a clause with no assigned literal: a unit is queued, the empty clause makes the
    /// set inconsistent, a longer clause joins the set and the subsumption queue.
    fn add(&mut self, lits: Vec<Lit>) {
        match lits.len() {
            0 => self.inconsistent = true,
            1 => self.pending.push(lits[0]),
            _ => {
                let id = self.clauses.len() as u32;
                for &l in &lits {
                    self.occs[l.index()].push(id);
                    self.count[l.index()] += 1;
                }
                self.clauses.push(lits);
                self.queued.push(false);
                self.rewritten.push(self.running);
                self.enqueue(id);
            }
        }
    }

    fn enqueue(&mut self, id: u32) {
        if !self.queued[id as usize] {
            self.queued[id as usize] = true;
            self.queue.push(id);
        }
    }

    /// Lets a variable go when its resolvents are at most `extra` more than its clauses and
    /// neither side has more than `max_occurrences` clauses (unless the other has none).
    pub(super) fn set_bound(&mut self, extra: usize, max_occurrences: usize) {
        self.extra = extra;
        self.max_occurrences = max_occurrences;
    }

    /// Whether the last [`Bve::run`] tried every candidate to its end.
    pub(super) fn complete(&self) -> bool {
        self.complete
    }

    /// Whether the clause set differs from the one copied in: a clause came in shortened by
    /// the level-0 values, or the run found a unit, a conflict, or removed, strengthened or
    /// eliminated anything.
    pub(super) fn changed(&self) -> bool {
        let Counts {
            eliminated,
            subsumed,
            strengthened,
            gates: _,
            factored_vars,
            factored_clauses: _,
        } = self.counts;
        self.shortened
            || self.inconsistent
            || !self.units.is_empty()
            || eliminated + subsumed + strengthened + factored_vars > 0
    }

    /// By variable, a fingerprint of its live clauses: a sum over the clauses holding each
    /// of its literals of a mix of the literal's sign and the clause's length, so a unit, a
    /// clause removed, strengthened or added changes it (two different clause sets with the
    /// same fingerprint are possible but unlikely, and cost only a missed candidate or
    /// comparison). The clauses this run made or shortened are left out: the next run sees
    /// their variables changed and compares them with the clauses that may subsume them.
    /// `None` when the memory is not to be had.
    pub(super) fn signature(&self) -> Option<Vec<u64>> {
        const POSITIVE: u64 = 0x9e37_79b9_7f4a_7c15;
        const NEGATIVE: u64 = 0xc2b2_ae3d_27d4_eb4f;
        let mut sums = Vec::new();
        sums.try_reserve_exact(self.marks.len()).ok()?;
        sums.resize(self.marks.len(), 0u64);
        for (clause, &rewritten) in self.clauses.iter().zip(&self.rewritten) {
            if clause.is_empty() || rewritten {
                continue;
            }
            let length = clause.len() as u64 + (1 << 20);
            for &l in clause {
                let sign = if l.is_positive() { POSITIVE } else { NEGATIVE };
                let sum = &mut sums[l.var().index()];
                *sum = sum.wrapping_add(length.wrapping_mul(sign));
            }
        }
        Some(sums)
    }

    /// Runs subsumption within the budget it was made with, then with `factor` factoring
    /// within that many ticks ([`Bve::factor`], and the subsumption its clauses start), then
    /// elimination (with the subsumption its resolvents start) within `eliminate` visits more;
    /// each stops early when the budget finds a limit reached. Without `previous` (the
    /// [`Bve::signature`] at the end of the run before), every clause is tried as a subsumer
    /// and every variable is a candidate. With it, a clause is tried only when the fingerprint
    /// of each of its variables differs from it: a clause added or changed since changes the
    /// fingerprint of each of its variables, and a subsumer or a strengthener has only
    /// variables of the clause it removes or shortens, so every pair that a clause new since
    /// takes part in is compared, and a pair of clauses the run before had (and compared, as
    /// far as its budget went) is not compared again (Kissat's `subsume` flags do the same).
    /// Elimination then starts from the variables whose fingerprint differs from `previous`
    /// after this run's subsumption, or from every variable with `every_candidate`.
    pub(super) fn run(
        &mut self,
        factor: Option<u64>,
        eliminate: u64,
        previous: Option<&[u64]>,
        every_candidate: bool,
    ) {
        self.running = true;
        self.propagate_units();
        if let Some(before) = previous
            && let Some(now) = self.signature()
        {
            let (clauses, queued) = (&self.clauses, &mut self.queued);
            self.queue.retain(|&id| {
                let keep = clauses[id as usize]
                    .iter()
                    .all(|l| fingerprint_changed(before, &now, l.var()));
                queued[id as usize] = keep;
                keep
            });
        }
        // Smallest first: the queue pops from its end.
        let clauses = &self.clauses;
        self.queue
            .sort_by_key(|&id| Reverse(clauses[id as usize].len()));
        self.subsume_queued();
        if self.budget.interrupted().is_some() {
            return;
        }
        if let Some(ticks) = factor {
            self.factor(ticks);
            self.propagate_units();
            self.subsume_queued();
            if self.budget.interrupted().is_some() {
                return;
            }
        }
        self.budget.set_left(eliminate);
        self.eliminating = true;
        let now = previous
            .filter(|_| !every_candidate)
            .and_then(|_| self.signature());
        for v in 0..self.marks.len() as u32 {
            let var = Var::from_index(v);
            let changed = match (previous, &now) {
                (Some(before), Some(now)) => fingerprint_changed(before, now, var),
                _ => true,
            };
            if changed {
                self.touch(var);
            }
        }
        self.complete = true;
        while let Some(Reverse((product, v))) = self.candidates.pop() {
            if self.inconsistent || self.budget.exhausted() {
                self.complete = false;
                break;
            }
            let var = Var::from_index(v);
            if !self.eligible(var) {
                continue;
            }
            let now = self.product(var);
            if now != product {
                self.candidates.push(Reverse((now, v)));
                continue;
            }
            self.try_eliminate(var);
            self.propagate_units();
            self.subsume_queued();
        }
    }

    /// The live clauses, the units assigned, whether the set is inconsistent, the counts and
    /// the budget (what was spent, whether a limit stopped the run).
    pub(super) fn finish(self) -> (Vec<Vec<Lit>>, Vec<Lit>, bool, Counts, PassBudget) {
        let clauses = self.clauses.into_iter().filter(|c| !c.is_empty()).collect();
        (
            clauses,
            self.units,
            self.inconsistent,
            self.counts,
            self.budget,
        )
    }

    fn eligible(&self, var: Var) -> bool {
        let pos = Lit::positive(var);
        !self.frozen.get(var.index()).copied().unwrap_or(false)
            && self.value[pos.index()] == 0
            && !self.extension.is_removed(var)
            && self.count[pos.index()] + self.count[(!pos).index()] > 0
    }

    fn product(&self, var: Var) -> u64 {
        let pos = Lit::positive(var);
        u64::from(self.count[pos.index()]) * u64::from(self.count[(!pos).index()])
    }

    /// Makes `var` a candidate again (its occurrences changed).
    fn touch(&mut self, var: Var) {
        if self.eliminating && self.eligible(var) {
            self.candidates
                .push(Reverse((self.product(var), var.as_u32())));
        }
    }

    /// Removes a live clause (writing its deletion to the proof when `delete`).
    fn remove(&mut self, id: u32, delete: bool) {
        let lits = std::mem::take(&mut self.clauses[id as usize]);
        if delete && let Some(proof) = self.proof.as_deref_mut() {
            proof.delete(lits.iter().copied());
        }
        for &l in &lits {
            self.count[l.index()] -= 1;
        }
        for &l in &lits {
            self.touch(l.var());
        }
    }

    /// Removes `lit` from a live clause: the shorter clause is written to the proof, then the
    /// old one deleted.
    fn strengthen(&mut self, id: u32, lit: Lit) {
        let old = std::mem::take(&mut self.clauses[id as usize]);
        let lits: Vec<Lit> = old.iter().copied().filter(|&l| l != lit).collect();
        if let Some(proof) = self.proof.as_deref_mut() {
            proof.add(lits.iter().copied());
            proof.delete(old.iter().copied());
        }
        self.budget.spend(self.occs[lit.index()].len() as u64);
        self.occs[lit.index()].retain(|&c| c != id);
        self.count[lit.index()] -= 1;
        self.counts.strengthened += 1;
        match lits.len() {
            0 => self.inconsistent = true,
            1 => {
                self.count[lits[0].index()] -= 1;
                self.pending.push(lits[0]);
            }
            _ => {
                self.clauses[id as usize] = lits;
                self.rewritten[id as usize] = true;
                self.enqueue(id);
            }
        }
        self.touch(lit.var());
    }

    /// Assigns the pending units, removing the clauses they satisfy and strengthening those
    /// holding their negations, until none is left or the set is inconsistent.
    fn propagate_units(&mut self) {
        while let Some(unit) = self.pending.pop() {
            if self.inconsistent {
                return;
            }
            match self.value[unit.index()] {
                1 => continue,
                -1 => {
                    self.inconsistent = true;
                    return;
                }
                _ => {}
            }
            self.value[unit.index()] = 1;
            self.value[(!unit).index()] = -1;
            self.units.push(unit);
            for id in std::mem::take(&mut self.occs[unit.index()]) {
                if !self.clauses[id as usize].is_empty() {
                    self.remove(id, true);
                }
            }
            for id in std::mem::take(&mut self.occs[(!unit).index()]) {
                if !self.clauses[id as usize].is_empty() {
                    self.strengthen(id, !unit);
                }
            }
        }
    }

    /// Tries the queued clauses as subsumers, within the budget.
    fn subsume_queued(&mut self) {
        while let Some(id) = self.queue.pop() {
            self.queued[id as usize] = false;
            if self.inconsistent || self.budget.exhausted() {
                continue;
            }
            if !self.clauses[id as usize].is_empty() {
                self.backward(id);
            }
            self.propagate_units();
        }
    }

    /// Removes the clauses `id` subsumes and strengthens those it strengthens.
    fn backward(&mut self, id: u32) {
        let mut lits = std::mem::take(&mut self.subsumer);
        lits.clone_from(&self.clauses[id as usize]);
        let weight = |l: Lit| self.count[l.index()] + self.count[(!l).index()];
        let pivot = *lits
            .iter()
            .min_by_key(|&&l| weight(l))
            .expect("live clause");
        for &l in &lits {
            self.marks[l.var().index()] = mark_of(l);
        }
        let mut others = std::mem::take(&mut self.others);
        others.clone_from(&self.occs[pivot.index()]);
        others.extend_from_slice(&self.occs[(!pivot).index()]);
        self.budget.spend(others.len() as u64);
        for &other in &others {
            let clause = &self.clauses[other as usize];
            if other == id || clause.len() < lits.len() {
                continue;
            }
            self.budget.spend(1 + clause.len() as u64);
            let mut found = 0;
            let mut flipped = None;
            for &m in clause {
                let mark = self.marks[m.var().index()];
                if mark == 0 {
                    continue;
                }
                if (mark > 0) != m.is_positive() {
                    if flipped.is_some() {
                        found = 0;
                        break;
                    }
                    flipped = Some(m);
                }
                found += 1;
            }
            if found < lits.len() {
                continue;
            }
            match flipped {
                None => {
                    self.counts.subsumed += 1;
                    self.remove(other, true);
                }
                Some(m) => self.strengthen(other, m),
            }
        }
        for &l in &lits {
            self.marks[l.var().index()] = 0;
        }
        self.subsumer = lits;
        self.others = others;
    }
}
