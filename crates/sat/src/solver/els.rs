//! Equivalent-literal substitution: the strongly connected components of the binary
//! implication graph, each replaced by one representative literal.
//!
//! The binary clause `a ∨ b` is the two implications `¬a → b` and `¬b → a`. When implications
//! lead from `x` to `y` and back, `x ≡ y`: every model gives them one value. Each strongly
//! connected component of the graph on the unassigned literals is such a class of equivalent
//! literals (Aspvall, Plass and Tarjan 1979; Van Gelder's and Biere's use of it in
//! preprocessing: CaDiCaL's and Kissat's `decompose`). A component holding a literal and its
//! negation makes the formula unsatisfiable. Otherwise each component keeps one
//! *representative*, its literal of the lowest variable index (so the components of `x` and
//! `¬x` pick opposite literals, and [`Options::primary_vars`](super::Options::primary_vars)
//! come first), a frozen variable (an assumption's, an enumeration's projection) before any
//! other; every other literal of it, unless frozen, is replaced by the representative in every
//! clause, binary or long, original or learnt. A rewritten clause loses repeated literals,
//! goes when it becomes a tautology or is satisfied at level 0, and shrinks to a binary clause
//! or a unit when that is what is left.
//!
//! The invariant afterwards: no clause names a substituted variable; each substituted `x`
//! with representative `r` has the two clauses `x ∨ ¬r` (witness `x`) and `¬x ∨ r` (witness
//! `¬x`) on the extension stack (`extend`), which gives `x` its value in a model; the search
//! never decides `x`. A later clause or assumption that names `x` puts it back first
//! (`Solver::restore`, in `eliminate`).
//!
//! Proofs: the level-0 assignments not yet in the proof are written first as units (a
//! deleted satisfied clause may be the reason of one); then the two equivalence binaries of
//! each substituted variable, each a RUP lemma through the implication chain of the component
//! (still all present), kept in the proof as long as the variable stays substituted (one that
//! is put back has them back as clauses of the formula, which a later rewrite may delete);
//! then each rewritten clause is added (RUP given those binaries) and the old one deleted. A
//! component with `x` and `¬x` is refuted by the unit `¬x` (RUP: `x` implies `¬x`) and then
//! the empty clause.
//!
//! Costs: Tarjan's algorithm, iterative, is linear in the literals and the binary clauses;
//! the rewrite is one pass over the binary lists and the arena, linear in their size. It runs
//! before the first search and again at restarts, after
//! [`Options::simplify_interval`](super::Options::simplify_interval) conflicts (5,000) and
//! then each time after twice as many as the time before (learnt units and binary clauses
//! close new components), so its share of the run shrinks as the search goes on.

use std::mem::size_of;

use super::Solver;
use super::budget::PassBudget;
use super::clause_db::ClauseRef;
use super::reason::Reason;
use crate::lit::{Lit, Var};

/// Tarjan's state: per literal code, `index` is 0 when unvisited, [`DONE`] once its component
/// is named, else its visit number (from 1); `low` its low link, and once done the code of
/// its component's representative (its own code when it keeps itself).
struct Tarjan {
    index: Vec<u32>,
    low: Vec<u32>,
    stack: Vec<Lit>,
    /// The depth-first path: a literal and the next of its successors to look at.
    path: Vec<(Lit, u32)>,
    counter: u32,
}

/// Rounds of substitution and probing at most, each time.
const SIMPLIFY_ROUNDS: usize = 4;

/// Ticks (literals and implications visited) substitution may spend on any formula.
const SUBSTITUTE_BUDGET_BASE: u64 = 1_000_000;
/// Ticks substitution may spend per thousand search propagations since the last
/// simplification.
const SUBSTITUTE_SHARE_PERMILLE: u64 = 20;

/// Substitution's scratch per literal: Tarjan's index and low link, and its two stacks at
/// their fullest (`Solver::estimated_bytes_with` counts it).
pub(super) const SUBSTITUTE_BYTES_PER_LIT: u64 =
    (2 * size_of::<u32>() + size_of::<Lit>() + size_of::<(Lit, u32)>()) as u64;

/// `Tarjan::index` of a literal whose component is named.
const DONE: u32 = u32::MAX;

impl Solver {
    /// Whether `var` may not be substituted (an assumption's or a projection's variable).
    pub(super) fn is_frozen(&self, var: Var) -> bool {
        self.simplifier.is_frozen(var)
    }

    /// A budget of `ticks` (scaled by [`Options::simplify_effort`](super::Options::simplify_effort))
    /// for a simplification pass, under this solve's deadline and stop flag (`budget`).
    pub(super) fn pass_budget(&self, ticks: u64) -> PassBudget {
        PassBudget::new(self.scaled(ticks), self.deadline, self.limits.stop.clone())
    }

    /// `ticks` scaled by [`Options::simplify_effort`](super::Options::simplify_effort).
    pub(super) fn scaled(&self, ticks: u64) -> u64 {
        (u128::from(ticks) * u128::from(self.options.simplify_effort) / 1000)
            .try_into()
            .unwrap_or(u64::MAX)
    }

    /// Whether the search has yet to make
    /// [`Options::simplify_delay`](super::Options::simplify_delay) conflicts: until then no
    /// pass runs (substitution and probing wait through their schedule, `next_simplify`).
    pub(super) fn simplify_delayed(&self) -> bool {
        self.stats.conflicts < self.options.simplify_delay
    }

    /// The share (`permille`) of the search's propagations since the last simplification
    /// that a pass may spend besides its base.
    pub(super) fn search_share(&self, permille: u64) -> u64 {
        self.share_since(self.simplifier.propagations_mark, permille)
    }

    /// The share (`permille`) of the search's propagations since `mark` (a pass's own mark:
    /// the elimination rounds' and vivification's run on schedules of their own).
    pub(super) fn share_since(&self, mark: u64, permille: u64) -> u64 {
        let since = self.stats.propagations.saturating_sub(mark);
        since.saturating_mul(permille) / 1000
    }

    /// Books a pass's work: its ticks, whether its bound cut it, the limit it found reached.
    pub(super) fn end_pass(&mut self, budget: &PassBudget) {
        self.stats.simplify_ticks += budget.spent();
        if budget.ran_out() {
            self.stats.passes_cut += 1;
        }
        if let Some(reason) = budget.interrupted() {
            self.interrupted.get_or_insert(reason);
        }
    }

    /// Simplifies (`simplify`) when an option asks for it and the schedule says so: at the
    /// first solve (or the first level 0 after
    /// [`Options::simplify_delay`](super::Options::simplify_delay) conflicts), then at level 0
    /// (a solve's start or a restart) once the conflicts reach
    /// [`Options::simplify_interval`](super::Options::simplify_interval) more, and each later
    /// time twice as many more, so that its cost (linear in the formula, plus the bounded
    /// probing) stays a small share. An interval of 0: the first time only.
    pub(super) fn simplify_if_due(&mut self) {
        if !(self.options.substitute || self.options.probe)
            || self.inconsistent
            || self.stats.conflicts < self.next_simplify
        {
            return;
        }
        let schedule = (self.next_simplify, self.simplify_interval);
        self.next_simplify = match self.simplify_interval {
            0 => u64::MAX,
            interval => self.stats.conflicts.saturating_add(interval),
        };
        self.simplify_interval = self.simplify_interval.saturating_mul(2);
        self.stats.simplifications += 1;
        self.simplify();
        if self.interrupted.is_some() {
            // Stopped by a limit: due again at the next solve's start.
            (self.next_simplify, self.simplify_interval) = schedule;
        } else {
            self.simplifier.propagations_mark = self.stats.propagations;
        }
    }

    /// Level-0 simplification: equivalent-literal substitution, then
    /// failed-literal probing (`probe`), each if its option is on, again while a round finds
    /// an equivalence or a unit ([`SIMPLIFY_ROUNDS`] at most).
    pub(super) fn simplify(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        if self.inconsistent {
            return;
        }
        if !self.propagate_level_zero() {
            return;
        }
        // Units from probing shrink long clauses to binary ones, which may close new
        // components: a few rounds, while a round finds something. Congruence closure runs in
        // the first round only: the gates the later rounds would read are nearly the same,
        // and on the structured set the later runs found almost nothing (`qg5-13`: nine runs,
        // three equivalences; docs/notes/sat-simplify.md, "Where the rest of the rate gap").
        for round in 0..SIMPLIFY_ROUNDS {
            if self.interrupted.is_some() || self.out_of_memory.is_some() {
                break;
            }
            let before = (self.trail.len(), self.stats.substituted_vars);
            if self.options.substitute {
                self.substitute(round == 0);
            }
            if self.options.probe && !self.inconsistent && self.interrupted.is_none() {
                self.probe();
            }
            if self.inconsistent || (self.trail.len(), self.stats.substituted_vars) == before {
                break;
            }
        }
    }

    /// The representative of every literal (itself when not substituted), as a literal code
    /// by literal code; `None` when some component holds a literal and its negation (the
    /// solver is then inconsistent), or when `budget` ends the search first or the scratch
    /// (two words per literal and the two stacks) is not to be had (the solver is then out of
    /// memory).
    fn equivalences(&mut self, budget: &mut PassBudget) -> Option<Vec<u32>> {
        let lits = self.values.len();
        let Some(mut t) = Tarjan::try_new(lits) else {
            self.out_of_memory = Some(lits as u64 * SUBSTITUTE_BYTES_PER_LIT);
            return None;
        };
        let mut component = Vec::new();
        for code in 0..lits as u32 {
            let root = Lit::from_code(code);
            if t.index[root.index()] != 0 || self.value(root) != 0 {
                continue;
            }
            if !budget.spend(1) {
                return None;
            }
            t.visit(root);
            while let Some(&mut (v, ref mut next)) = t.path.last_mut() {
                // The successors of `v`: what `v` true implies.
                let succs = &self.binaries[(!v).index()];
                if (*next as usize) < succs.len() {
                    let w = succs[*next as usize];
                    *next += 1;
                    if !budget.spend(1) {
                        return None;
                    }
                    if self.values[w.index()] != 0 {
                        continue;
                    }
                    match t.index[w.index()] {
                        0 => t.visit(w),
                        DONE => {}
                        index => t.low[v.index()] = t.low[v.index()].min(index),
                    }
                    continue;
                }
                t.path.pop();
                if let Some(&(u, _)) = t.path.last() {
                    t.low[u.index()] = t.low[u.index()].min(t.low[v.index()]);
                }
                if t.low[v.index()] != t.index[v.index()] {
                    continue;
                }
                component.clear();
                loop {
                    let w = t.stack.pop().expect("v is on the stack");
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if !self.name_representative(&component, &mut t) {
                    return None;
                }
            }
        }
        let Tarjan { index, mut low, .. } = t;
        for (code, repr) in low.iter_mut().enumerate() {
            if index[code] != DONE {
                *repr = code as u32;
            }
        }
        Some(low)
    }

    /// Names the representative of one component; false when the component holds a literal
    /// and its negation (then refuted: unit, proof line, inconsistent).
    fn name_representative(&mut self, component: &[Lit], t: &mut Tarjan) -> bool {
        let key = |l: &Lit| (!self.is_frozen(l.var()), l.var().index());
        let rep = *component.iter().min_by_key(|l| key(l)).expect("nonempty");
        for &lit in component {
            t.index[lit.index()] = DONE;
            t.low[lit.index()] = rep.code();
        }
        if component.len() == 1 {
            return true;
        }
        let same = |l: Lit| t.index[l.index()] == DONE && t.low[l.index()] == rep.code();
        if let Some(&lit) = component.iter().find(|&&l| same(!l)) {
            // `lit` implies `¬lit`: the unit `¬lit` is RUP, and then it propagates to a
            // conflict.
            if let Some(proof) = self.proof.as_mut() {
                proof.add([!lit]);
            }
            self.assign(!lit, Reason::Decision);
            let _ = self.propagate();
            self.set_inconsistent();
            return false;
        }
        for &lit in component {
            if self.is_frozen(lit.var()) {
                t.low[lit.index()] = lit.code();
            }
        }
        true
    }

    /// Equivalent-literal substitution (see the module documentation), after congruence
    /// closure when `gates` and [`Options::congruence`](super::Options::congruence) say so.
    pub(super) fn substitute(&mut self, gates: bool) {
        let mut budget =
            self.pass_budget(SUBSTITUTE_BUDGET_BASE + self.search_share(SUBSTITUTE_SHARE_PERMILLE));
        if budget.exhausted() {
            self.end_pass(&budget);
            return;
        }
        self.clean_level_zero();
        if gates && self.options.congruence && !self.inconsistent {
            self.congruence();
        }
        if self.inconsistent {
            self.end_pass(&budget);
            return;
        }
        // The search of the components may stop anywhere (nothing is changed before it
        // ends); the rewrite after it, linear in the clauses, runs to its end.
        let found = self.equivalences(&mut budget);
        self.end_pass(&budget);
        let Some(repr) = found else {
            return;
        };
        let repr = |l: Lit| Lit::from_code(repr[l.index()]);
        let substituted = |l: Lit| repr(l) != l;
        // The equivalences first: into the proof (RUP through the component's chain) and on
        // the extension stack.
        let mut count = 0;
        for v in 0..self.num_vars {
            let x = Lit::positive(Var::from_index(v));
            if !substituted(x) {
                continue;
            }
            let r = repr(x);
            debug_assert_eq!(repr(!x), !r);
            if let Some(proof) = self.proof.as_mut() {
                proof.add([x, !r]);
                proof.add([!x, r]);
            }
            self.extension.push(x, &[x, !r]);
            self.extension.push(!x, &[!x, r]);
            self.extension.remove(x.var());
            count += 1;
        }
        if count == 0 {
            return;
        }
        self.stats.substituted_vars += count;
        self.write_level_zero_units();
        let mut units = Vec::new();
        // Binary clauses: each one that names a substituted literal, once.
        let mut pairs = Vec::new();
        for code in 0..self.binaries.len() {
            let a = Lit::from_code(code as u32);
            if substituted(a) {
                for b in std::mem::take(&mut self.binaries[code]) {
                    if !substituted(b) || a.index() < b.index() {
                        pairs.push((a, b));
                    }
                }
            } else {
                self.binaries[code].retain(|&b| !substituted(b));
            }
        }
        for (a, b) in pairs {
            let new = [repr(a), repr(b)];
            self.replace_clause(&[a, b], &new, None, &mut units);
        }
        self.rewrite_long_clauses(&repr, &mut units);
        self.assign_units(units);
    }

    /// Rewrites every long clause that names a literal `repr` maps elsewhere or one assigned
    /// at level 0 (see `replace_clause`); the units are gathered into `units`.
    fn rewrite_long_clauses(&mut self, repr: &dyn Fn(Lit) -> Lit, units: &mut Vec<Lit>) {
        let crefs: Vec<ClauseRef> = self.db.refs().collect();
        let mut new_learnts = Vec::new();
        for cref in crefs {
            if self.db.is_deleted(cref) {
                continue;
            }
            let touched = self.db.lits(cref).iter().any(|&c| {
                let l = Lit::from_code(c);
                repr(l) != l || self.values[l.index()] != 0
            });
            if !touched {
                continue;
            }
            let old = self.db.to_lits(cref);
            let new: Vec<Lit> = old.iter().map(|&l| repr(l)).collect();
            let learnt = self.db.is_learnt(cref);
            let lbd = self.db.lbd(cref);
            self.db.delete(cref);
            if let Some(added) = self.replace_clause(&old, &new, Some((learnt, lbd)), units)
                && learnt
            {
                new_learnts.push(added);
            }
        }
        let db = &self.db;
        self.learnts.retain(|&cref| !db.is_deleted(cref));
        self.learnts.extend(new_learnts);
    }

    /// Takes the level-0 assignment out of the long clauses: satisfied ones go, false
    /// literals are dropped (so a clause left with two literals joins the binary graph). The
    /// level-0 assignments lose their reasons first (analysis never reads a level-0 reason).
    fn clean_level_zero(&mut self) {
        self.write_level_zero_units();
        for &lit in &self.trail {
            self.reason[lit.var().index()] = Reason::Decision;
        }
        let mut units = Vec::new();
        self.rewrite_long_clauses(&|l| l, &mut units);
        self.assign_units(units);
    }

    /// Writes the level-0 assignments not yet in the proof as unit lemmas (each RUP: unit
    /// propagation derived it), so that deleting a clause that was the reason of one (a
    /// satisfied clause goes) leaves them derivable.
    pub(super) fn write_level_zero_units(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        if let Some(proof) = self.proof.as_mut() {
            for &lit in &self.trail[proof.units_written.min(self.trail.len())..] {
                proof.add([lit]);
            }
            proof.units_written = self.trail.len();
        }
    }

    /// Assigns the units at level 0 and propagates (inconsistent on a conflict).
    pub(super) fn assign_units(&mut self, units: Vec<Lit>) {
        for unit in units {
            match self.value(unit) {
                0 => self.assign(unit, Reason::Decision),
                1 => {}
                _ => {
                    self.set_inconsistent();
                    return;
                }
            }
        }
        self.propagate_level_zero();
    }

    /// Writes the rewritten clause `new` (literals possibly repeated, complementary or
    /// assigned at level 0) in place of `old` (already out of the lists or the arena) into
    /// the proof and the solver; `long`: whether the old clause was long, learnt and its LBD.
    /// Units are gathered into `units`. Returns the new clause's reference when it is long.
    fn replace_clause(
        &mut self,
        old: &[Lit],
        new: &[Lit],
        long: Option<(bool, u32)>,
        units: &mut Vec<Lit>,
    ) -> Option<ClauseRef> {
        let mut clause = new.to_vec();
        clause.sort_unstable();
        clause.dedup();
        let dropped =
            clause.windows(2).any(|w| w[0] == !w[1]) || clause.iter().any(|&l| self.value(l) > 0);
        clause.retain(|&l| self.value(l) == 0);
        if let Some(proof) = self.proof.as_mut() {
            if !dropped {
                proof.add(clause.iter().copied());
            }
            proof.delete(old.iter().copied());
        }
        if dropped {
            return None;
        }
        match *clause.as_slice() {
            [] => {
                self.set_inconsistent();
                None
            }
            [unit] => {
                units.push(unit);
                None
            }
            [a, b] => {
                self.attach_binary(a, b);
                None
            }
            _ => {
                let (learnt, lbd) = long.unwrap_or((false, 0));
                Some(self.attach_long(&clause, learnt, lbd))
            }
        }
    }
}

impl Tarjan {
    /// Scratch for `lits` literals, or `None` when the memory is not to be had.
    fn try_new(lits: usize) -> Option<Tarjan> {
        let mut index = Vec::new();
        let mut low = Vec::new();
        let mut stack = Vec::new();
        let mut path = Vec::new();
        index.try_reserve_exact(lits).ok()?;
        low.try_reserve_exact(lits).ok()?;
        stack.try_reserve(lits).ok()?;
        path.try_reserve(lits).ok()?;
        index.resize(lits, 0);
        low.resize(lits, 0);
        Some(Tarjan {
            index,
            low,
            stack,
            path,
            counter: 0,
        })
    }

    fn visit(&mut self, lit: Lit) {
        self.counter += 1;
        self.index[lit.index()] = self.counter;
        self.low[lit.index()] = self.counter;
        self.stack.push(lit);
        self.path.push((lit, 0));
    }
}
