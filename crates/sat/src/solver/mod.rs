//! A conflict-driven clause-learning (CDCL) SAT solver.
//!
//! # The invariant
//!
//! The solver extends a partial assignment, the *trail*, one decision at a time and closes it
//! under unit propagation before each decision. Every assigned variable records its decision
//! level and its *reason*: nothing for decisions (and level-0 units), else the clause that
//! became unit, which has the variable's true literal and only false literals besides. A
//! variable assigned at level `d` with a reason is implied by the decisions of levels ≤ `d`.
//!
//! Unit propagation watches two literals of each clause. Binary clauses live in implication
//! lists: for `a ∨ b`, `binaries[a]` holds `b` (when `a` becomes false, `b` is implied) and
//! `binaries[b]` holds `a`. Longer clauses live in an arena (`clause_db`) with their two
//! watched literals in positions 0 and 1, and `watches[l]` lists the clauses that watch `l`
//! together with a *blocking literal* from the clause: when `l` becomes false and the blocker is
//! true, the clause is satisfied and is skipped without reading its memory. Otherwise the clause
//! looks for a non-false literal to watch instead (from where its last search stopped); failing
//! that it is unit (or, when the other watch is false too, a conflict). The watch invariant:
//! after propagation, a watched literal of a clause is false only if the other watched literal
//! is true at a level no later, or the clause is the reason of its other watch. Nothing is done
//! on backtracking: unassigning keeps the invariant.
//!
//! # A conflict
//!
//! When a clause becomes false, [`Solver`] resolves it with the reasons of its literals in
//! reverse trail order until one literal of the conflict's level is left, the first unique
//! implication point (first UIP; Marques-Silva and Sakallah's GRASP, Zhang et al. 2001). The
//! learnt clause is then minimised (a literal goes when its reason's other literals are all in
//! the clause or themselves removable, searched recursively: Sörensson and Biere 2009). The
//! solver jumps back to the second-highest level in the clause, where it is unit, and asserts
//! the UIP. Each clause gets its LBD, the number of decision levels among its literals (Audemard
//! and Simon's glucose, 2009).
//!
//! # Heuristics
//!
//! - Decisions: the unassigned variable of highest VSIDS activity (`heap`), with the sign it
//!   last had (phase saving, Pipatsrisawat and Darwiche 2007). With
//!   [`Options::primary_vars`], the primary variables come first regardless of activity.
//! - Restarts: glucose-style by default (restart when the LBDs of the recent conflicts average
//!   well above the long-run average), or the Luby sequence ([`Restarts`]).
//! - Learnt-clause reduction: every few thousand conflicts, learnt clauses of LBD ≤ 2 are kept,
//!   as are those used in a conflict since the last reduction; the worse half of the rest by
//!   LBD (then size) is deleted. Clauses that are the reason of an assignment are never deleted.
//!
//! # Costs
//!
//! Propagating one assignment visits the binary implications of the falsified literal (one
//! read each) and its long-clause watches (one read of the blocker, and of the clause only
//! when the blocker is not true). Analysis is linear in the literals of the clauses resolved.
//! Backtracking is linear in the assignments undone. Memory: 4 bytes per binary implication, 8
//! per watch, 12 + 4·size bytes per long clause.
//!
//! # Proofs and enumeration
//!
//! With [`Solver::set_proof`], every learnt clause, deletion and the final empty clause are
//! written in DRAT (`proof`). Enumeration ([`Solver::enumerate`]) adds blocking clauses,
//! which are not implied by the formula, so a proof written during enumeration is not a
//! refutation of the original formula.

mod clause_db;
mod heap;
mod proof;

use std::fmt;
use std::io::Write;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use nqueens_support::{SplitMix64, luby};

use self::clause_db::{ClauseDb, ClauseRef};
use self::heap::VarHeap;
use self::proof::Proof;
use crate::cnf::{ClauseSink, Model};
use crate::error::Error;
use crate::lit::{Lit, Var};

/// The answer of [`Solver::solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Satisfiable, with a model.
    Sat(Model),
    /// Unsatisfiable (under the assumptions, when there were some).
    Unsat,
    /// A limit stopped the search first.
    Unknown(StopReason),
}

/// Why a search stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// The conflict limit of [`Limits`] was reached.
    Conflicts,
    /// The time limit of [`Limits`] was reached.
    Time,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::Conflicts => "conflict limit reached",
            StopReason::Time => "time limit reached",
        })
    }
}

/// How an enumeration ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Enumeration {
    /// Every model (projected on the chosen variables) was visited; this many.
    Complete(u64),
    /// The callback stopped it after this many models.
    Stopped(u64),
    /// A limit stopped it after this many models.
    Unknown(u64, StopReason),
}

/// When to restart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Restarts {
    /// When the average LBD of the last conflicts exceeds `margin` times the long-run average
    /// (and at least `min_conflicts` conflicts were seen since the last restart): glucose's rule.
    Glucose {
        /// How much worse recent conflicts must be (1.25 in glucose).
        margin: f64,
        /// The fewest conflicts between restarts.
        min_conflicts: u64,
    },
    /// After `unit · luby(i)` conflicts for the i-th restart (1, 1, 2, 1, 1, 2, 4, …).
    Luby {
        /// Conflicts per step of the sequence.
        unit: u64,
    },
    /// Never.
    Never,
}

/// Solver settings. The defaults are good in general.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// When to restart.
    pub restarts: Restarts,
    /// The activity decay of VSIDS, in (0, 1): lower forgets faster.
    pub var_decay: f64,
    /// The sign a variable is first tried with (false: negative first, as MiniSat).
    pub initial_phase: bool,
    /// Whether learnt clauses are minimised.
    pub minimize: bool,
    /// Conflicts before the first learnt-clause reduction.
    pub reduce_first: u64,
    /// How much the interval between reductions grows each time.
    pub reduce_increment: u64,
    /// Nonzero: seeds a small random initial activity per variable, to vary the first decisions.
    pub seed: u64,
    /// `Some(k)`: the variables `0..k` are decided before any other, whatever the activities
    /// (for a formula whose other variables are auxiliary, set by the first ones through
    /// propagation; deciding on them only sends the search astray). `None`: one order for all.
    pub primary_vars: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            restarts: Restarts::Glucose {
                margin: 1.25,
                min_conflicts: 50,
            },
            var_decay: 0.95,
            initial_phase: false,
            minimize: true,
            reduce_first: 2000,
            reduce_increment: 300,
            seed: 0,
            primary_vars: None,
        }
    }
}

/// Limits for each call of [`Solver::solve`]; `None` is no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Conflicts per call.
    pub conflicts: Option<u64>,
    /// Wall-clock time per call.
    pub time: Option<Duration>,
}

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
    /// Literals in learnt clauses, after minimisation.
    pub learnt_literals: u64,
    /// Literals removed by minimisation.
    pub minimized_literals: u64,
    /// Learnt clauses deleted by reductions.
    pub deleted_clauses: u64,
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "decisions={} conflicts={} propagations={} restarts={} reductions={} \
             learnt_clauses={} learnt_literals={} minimized_literals={} deleted_clauses={}",
            self.decisions,
            self.conflicts,
            self.propagations,
            self.restarts,
            self.reductions,
            self.learnt_clauses,
            self.learnt_literals,
            self.minimized_literals,
            self.deleted_clauses
        )
    }
}

/// Why a variable has its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reason {
    /// A decision, or a unit at level 0.
    Decision,
    /// The binary clause `(this variable's literal ∨ other)`, with `other` false.
    Binary(Lit),
    /// A long clause whose literal 0 is this variable's literal.
    Long(ClauseRef),
}

/// A clause all of whose literals are false.
#[derive(Clone, Copy, Debug)]
enum Conflict {
    Binary(Lit, Lit),
    Long(ClauseRef),
}

/// A long-clause watch: the clause, and a literal of it to test first.
#[derive(Clone, Copy, Debug)]
struct Watch {
    cref: ClauseRef,
    blocker: Lit,
}

/// Formulas up to this many variables get the slow consistency checks in debug builds.
#[cfg(debug_assertions)]
const DEBUG_CHECK_VARS: u32 = 200;

/// Analysis marks, per variable.
const SEEN: u8 = 1;
const REMOVABLE: u8 = 2;
const POISON: u8 = 4;

/// Exponential moving average with a warm-up, so early values are not biased toward 0.
#[derive(Clone, Copy, Debug)]
struct Ema {
    value: f64,
    alpha: f64,
    count: u64,
}

impl Ema {
    fn new(alpha: f64) -> Self {
        Ema {
            value: 0.0,
            alpha,
            count: 0,
        }
    }

    fn update(&mut self, x: f64) {
        self.count += 1;
        let alpha = self.alpha.max(1.0 / self.count as f64);
        self.value += alpha * (x - self.value);
    }
}

/// The CDCL solver. See the [module documentation](self).
///
/// ```
/// use sat::{ClauseSink, Lit, Outcome, Solver};
/// let mut solver = Solver::new();
/// let l = |number| Lit::from_dimacs(number).unwrap();
/// solver.add_clause(&[l(1), l(2)]);
/// solver.add_clause(&[l(-1), l(2)]);
/// solver.add_clause(&[l(-2), l(3)]);
/// let Outcome::Sat(model) = solver.solve() else { panic!() };
/// assert!(model.lit_is_true(l(2)) && model.lit_is_true(l(3)));
/// assert_eq!(solver.solve_with(&[l(-3)]), Outcome::Unsat);
/// assert_eq!(solver.failed_assumptions(), &[l(-3)]);
/// ```
pub struct Solver {
    options: Options,
    limits: Limits,
    num_vars: u32,

    /// By literal code: 1 true, −1 false, 0 unassigned.
    values: Vec<i8>,
    /// By literal code: the other literals of the binary clauses holding it.
    binaries: Vec<Vec<Lit>>,
    /// By literal code: the long clauses watching it.
    watches: Vec<Vec<Watch>>,

    /// By variable.
    level: Vec<u32>,
    reason: Vec<Reason>,
    /// The sign to try next (true: positive).
    phase: Vec<bool>,
    marks: Vec<u8>,

    heap: VarHeap,
    trail: Vec<Lit>,
    /// Where each decision level starts on the trail.
    trail_lim: Vec<usize>,
    /// The next trail literal to propagate.
    qhead: usize,

    db: ClauseDb,
    learnts: Vec<ClauseRef>,
    /// The formula is unsatisfiable at level 0.
    inconsistent: bool,

    assumptions: Vec<Lit>,
    failed: Vec<Lit>,

    // Scratch space for analysis.
    learnt: Vec<Lit>,
    touched: Vec<Var>,
    stack: Vec<(Var, u32)>,
    level_stamp: Vec<u64>,
    stamp: u64,

    // Restarts and reductions.
    lbd_fast: Ema,
    lbd_slow: Ema,
    conflicts_since_restart: u64,
    next_reduce: u64,
    reduce_interval: u64,

    rng: SplitMix64,
    stats: Stats,
    proof: Option<Proof>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl fmt::Debug for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("num_vars", &self.num_vars)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl Solver {
    /// A solver with default options.
    pub fn new() -> Self {
        Solver::with_options(Options::default())
    }

    /// A solver with the given options.
    pub fn with_options(options: Options) -> Self {
        Solver {
            limits: Limits::default(),
            num_vars: 0,
            values: Vec::new(),
            binaries: Vec::new(),
            watches: Vec::new(),
            level: Vec::new(),
            reason: Vec::new(),
            phase: Vec::new(),
            marks: Vec::new(),
            heap: VarHeap::with_first_tier(options.primary_vars.map_or(usize::MAX, |k| k as usize)),
            trail: Vec::new(),
            trail_lim: Vec::new(),
            qhead: 0,
            db: ClauseDb::default(),
            learnts: Vec::new(),
            inconsistent: false,
            assumptions: Vec::new(),
            failed: Vec::new(),
            learnt: Vec::new(),
            touched: Vec::new(),
            stack: Vec::new(),
            level_stamp: vec![0],
            stamp: 0,
            lbd_fast: Ema::new(1.0 / 32.0),
            lbd_slow: Ema::new(1.0 / 8192.0),
            conflicts_since_restart: 0,
            next_reduce: options.reduce_first,
            reduce_interval: options.reduce_first,
            rng: SplitMix64::new(options.seed),
            stats: Stats::default(),
            proof: None,
            options,
        }
    }

    /// Sets the limits for each later call of [`Solver::solve`].
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Writes a DRAT proof of everything the solver derives from now on to `out` (add the
    /// clauses after calling this, or the proof's checker sees none of them missing: DRAT
    /// proofs are checked against the formula file). Call [`Solver::finish_proof`] at the end.
    pub fn set_proof(&mut self, out: impl Write + Send + 'static) {
        self.proof = Some(Proof::new(Box::new(out)));
    }

    /// Writes out and flushes the proof; reports the first write error since it began.
    pub fn finish_proof(&mut self) -> Result<(), Error> {
        match self.proof.as_mut() {
            Some(proof) => Ok(proof.flush()?),
            None => Ok(()),
        }
    }

    /// The work counters so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The assumptions that made the last [`Solver::solve_with`] unsatisfiable (a subset of
    /// them: those that together with the formula have no model). Empty when the formula alone
    /// is unsatisfiable.
    pub fn failed_assumptions(&self) -> &[Lit] {
        &self.failed
    }

    /// Decides the formula.
    pub fn solve(&mut self) -> Outcome {
        self.solve_with(&[])
    }

    /// Decides the formula with `assumptions` set true.
    pub fn solve_with(&mut self, assumptions: &[Lit]) -> Outcome {
        self.failed.clear();
        if self.inconsistent {
            return Outcome::Unsat;
        }
        if let Some(needed) = assumptions.iter().map(|l| l.var().as_u32() + 1).max() {
            self.ensure_vars(needed);
        }
        self.assumptions = assumptions.to_vec();
        let outcome = self.search();
        self.cancel_until(0);
        outcome
    }

    /// Visits the models of the formula projected on `vars`: after each model the solver adds
    /// a clause that blocks its values on `vars`, so no two visited models agree on all of
    /// them. Stops when `visit` breaks, when no model is left, or at a limit (which applies to
    /// each model's search). With `vars` empty, at most one model is visited.
    ///
    /// The blocking clauses stay in the solver afterwards.
    pub fn enumerate(
        &mut self,
        vars: &[Var],
        mut visit: impl FnMut(&Model) -> ControlFlow<()>,
    ) -> Enumeration {
        if let Some(needed) = vars.iter().map(|v| v.as_u32() + 1).max() {
            self.ensure_vars(needed);
        }
        let mut count = 0;
        let mut blocking = Vec::with_capacity(vars.len());
        loop {
            match self.solve() {
                Outcome::Sat(model) => {
                    count += 1;
                    if visit(&model).is_break() {
                        return Enumeration::Stopped(count);
                    }
                    blocking.clear();
                    blocking.extend(vars.iter().map(|&v| Lit::new(v, model.value(v))));
                    self.add_clause(&blocking);
                }
                Outcome::Unsat => return Enumeration::Complete(count),
                Outcome::Unknown(reason) => return Enumeration::Unknown(count, reason),
            }
        }
    }

    // ----- Assignment and backtracking -----

    #[inline]
    fn value(&self, lit: Lit) -> i8 {
        self.values[lit.index()]
    }

    fn decision_level(&self) -> u32 {
        self.trail_lim.len() as u32
    }

    #[inline]
    fn assign(&mut self, lit: Lit, reason: Reason) {
        debug_assert_eq!(self.value(lit), 0);
        self.values[lit.index()] = 1;
        self.values[(!lit).index()] = -1;
        let var = lit.var().index();
        self.level[var] = self.trail_lim.len() as u32;
        self.reason[var] = reason;
        self.trail.push(lit);
    }

    fn new_decision_level(&mut self) {
        self.trail_lim.push(self.trail.len());
    }

    /// Undoes every level above `level`, saving phases.
    fn cancel_until(&mut self, level: u32) {
        if self.decision_level() <= level {
            return;
        }
        let keep = self.trail_lim[level as usize];
        for &lit in &self.trail[keep..] {
            let var = lit.var();
            self.values[lit.index()] = 0;
            self.values[(!lit).index()] = 0;
            self.phase[var.index()] = lit.is_positive();
            self.heap.insert(var);
        }
        self.trail.truncate(keep);
        self.trail_lim.truncate(level as usize);
        self.qhead = keep;
    }

    // ----- Propagation -----

    /// Propagates every queued assignment; returns a falsified clause if one appears.
    fn propagate(&mut self) -> Option<Conflict> {
        while self.qhead < self.trail.len() {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            self.stats.propagations += 1;
            let false_lit = !p;
            let level = self.trail_lim.len() as u32;

            // Binary clauses: every implication is one read.
            for &other in &self.binaries[false_lit.index()] {
                let value = self.values[other.index()];
                if value > 0 {
                    continue;
                }
                if value < 0 {
                    return Some(Conflict::Binary(false_lit, other));
                }
                self.values[other.index()] = 1;
                self.values[(!other).index()] = -1;
                let var = other.var().index();
                self.level[var] = level;
                self.reason[var] = Reason::Binary(false_lit);
                self.trail.push(other);
            }

            // Long clauses.
            let mut watches = std::mem::take(&mut self.watches[false_lit.index()]);
            let mut conflict = None;
            let (mut i, mut j) = (0, 0);
            let end = watches.len();
            'watches: while i < end {
                let watch = watches[i];
                i += 1;
                if self.values[watch.blocker.index()] > 0 {
                    watches[j] = watch;
                    j += 1;
                    continue;
                }
                let cref = watch.cref;
                // A clause deleted by a reduction keeps its watches until the next garbage
                // collection; it must not propagate any more (its watch is dropped here).
                if self.db.is_deleted(cref) {
                    continue;
                }
                let (lits, search) = self.db.lits_and_search_mut(cref);
                if lits[0] == false_lit.code() {
                    lits.swap(0, 1);
                }
                debug_assert_eq!(lits[1], false_lit.code());
                let first = Lit::from_code(lits[0]);
                let kept = Watch {
                    cref,
                    blocker: first,
                };
                if first != watch.blocker && self.values[first.index()] > 0 {
                    watches[j] = kept;
                    j += 1;
                    continue;
                }
                // Look for a literal that is not false, from where the last search stopped.
                let size = lits.len();
                let start = (*search as usize).clamp(2, size);
                for k in (start..size).chain(2..start) {
                    let candidate = lits[k];
                    if self.values[candidate as usize] >= 0 {
                        lits.swap(1, k);
                        *search = k as u32;
                        self.watches[candidate as usize].push(kept);
                        continue 'watches;
                    }
                }
                watches[j] = kept;
                j += 1;
                if self.values[first.index()] < 0 {
                    conflict = Some(Conflict::Long(cref));
                    while i < end {
                        watches[j] = watches[i];
                        i += 1;
                        j += 1;
                    }
                    break;
                }
                self.values[first.index()] = 1;
                self.values[(!first).index()] = -1;
                let var = first.var().index();
                self.level[var] = level;
                self.reason[var] = Reason::Long(cref);
                self.trail.push(first);
            }
            watches.truncate(j);
            self.watches[false_lit.index()] = watches;
            if conflict.is_some() {
                return conflict;
            }
        }
        None
    }

    // ----- Conflict analysis -----

    /// Marks `lit`'s variable as seen during analysis; counts it as open when it is on the
    /// conflict level, else adds it to the learnt clause.
    #[inline]
    fn see(&mut self, lit: Lit, conflict_level: u32, open: &mut u32) {
        let var = lit.var();
        let v = var.index();
        if self.marks[v] & SEEN != 0 || self.level[v] == 0 {
            return;
        }
        self.marks[v] |= SEEN;
        self.touched.push(var);
        self.heap.bump(var);
        if self.level[v] >= conflict_level {
            *open += 1;
        } else {
            self.learnt.push(lit);
        }
    }

    /// First-UIP analysis of `conflict` into `self.learnt` (the UIP's negation first, the literal
    /// of the backjump level second). Returns the backjump level and the LBD.
    fn analyze(&mut self, conflict: Conflict) -> (u32, u32) {
        let conflict_level = self.decision_level();
        self.learnt.clear();
        self.learnt.push(Lit::from_code(0));
        let mut open = 0u32;
        match conflict {
            Conflict::Binary(a, b) => {
                self.see(a, conflict_level, &mut open);
                self.see(b, conflict_level, &mut open);
            }
            Conflict::Long(cref) => self.see_clause(cref, 0, conflict_level, &mut open),
        }
        let mut index = self.trail.len();
        loop {
            let uip = loop {
                index -= 1;
                let lit = self.trail[index];
                if self.marks[lit.var().index()] & SEEN != 0 {
                    break lit;
                }
            };
            // Resolved away (or the UIP): no longer part of the clause.
            self.marks[uip.var().index()] &= !SEEN;
            open -= 1;
            if open == 0 {
                self.learnt[0] = !uip;
                break;
            }
            match self.reason[uip.var().index()] {
                Reason::Binary(other) => self.see(other, conflict_level, &mut open),
                Reason::Long(cref) => self.see_clause(cref, 1, conflict_level, &mut open),
                Reason::Decision => unreachable!("only the UIP may be a decision"),
            }
        }

        if self.options.minimize {
            self.minimize_learnt();
        }

        // The backjump level: the highest level below the conflict's, its literal second.
        let mut backjump = 0;
        if self.learnt.len() > 1 {
            let mut best = 1;
            for i in 2..self.learnt.len() {
                if self.level[self.learnt[i].var().index()]
                    > self.level[self.learnt[best].var().index()]
                {
                    best = i;
                }
            }
            self.learnt.swap(1, best);
            backjump = self.level[self.learnt[1].var().index()];
        }
        let lbd = self.lbd_of_learnt();

        for &var in &self.touched {
            self.marks[var.index()] = 0;
        }
        self.touched.clear();
        (backjump, lbd)
    }

    /// `see` for the literals of a long clause from position `from` on; marks a learnt clause
    /// used.
    fn see_clause(&mut self, cref: ClauseRef, from: usize, conflict_level: u32, open: &mut u32) {
        if self.db.is_learnt(cref) {
            self.db.mark_used(cref);
        }
        for k in from..self.db.size(cref) {
            let lit = Lit::from_code(self.db.lits(cref)[k]);
            self.see(lit, conflict_level, open);
        }
    }

    /// The number of distinct decision levels among the learnt clause's literals.
    fn lbd_of_learnt(&mut self) -> u32 {
        self.stamp += 1;
        let mut lbd = 0;
        for lit in &self.learnt {
            let level = self.level[lit.var().index()] as usize;
            if self.level_stamp[level] != self.stamp {
                self.level_stamp[level] = self.stamp;
                lbd += 1;
            }
        }
        lbd
    }

    /// Removes the literals of `self.learnt[1..]` implied by the others.
    fn minimize_learnt(&mut self) {
        let mut levels = 0u32;
        for lit in &self.learnt[1..] {
            levels |= 1 << (self.level[lit.var().index()] & 31);
        }
        let before = self.learnt.len();
        let mut kept = 1;
        for i in 1..before {
            let lit = self.learnt[i];
            let keep = self.reason[lit.var().index()] == Reason::Decision
                || !self.redundant(lit.var(), levels);
            if keep {
                self.learnt[kept] = lit;
                kept += 1;
            }
        }
        self.learnt.truncate(kept);
        self.stats.minimized_literals += (before - kept) as u64;
    }

    /// The `i`-th antecedent of `var`'s reason (the false literals that imply it), if any.
    #[inline]
    fn antecedent(&self, var: Var, i: u32) -> Option<Lit> {
        match self.reason[var.index()] {
            Reason::Decision => None,
            Reason::Binary(other) => (i == 0).then_some(other),
            Reason::Long(cref) => {
                let lits = self.db.lits(cref);
                lits.get(i as usize + 1).map(|&c| Lit::from_code(c))
            }
        }
    }

    /// Whether `start` (in the learnt clause, with a reason) is implied by the clause's other
    /// literals: every antecedent, recursively, is in the clause, at level 0, or removable.
    /// `levels` has a bit per decision level of the clause (mod 32): an antecedent at a level
    /// outside it cannot be implied by the clause, which cuts the search short.
    fn redundant(&mut self, start: Var, levels: u32) -> bool {
        self.stack.clear();
        self.stack.push((start, 0));
        while let Some(&(var, i)) = self.stack.last() {
            let Some(lit) = self.antecedent(var, i) else {
                // Every antecedent of `var` is implied: so is `var`.
                self.stack.pop();
                if var != start {
                    self.marks[var.index()] |= REMOVABLE;
                    self.touched.push(var);
                }
                continue;
            };
            self.stack.last_mut().expect("nonempty").1 += 1;
            let u = lit.var();
            let (mark, level) = (self.marks[u.index()], self.level[u.index()]);
            if level == 0 || mark & (SEEN | REMOVABLE) != 0 {
                continue;
            }
            if mark & POISON != 0
                || self.reason[u.index()] == Reason::Decision
                || levels & (1 << (level & 31)) == 0
            {
                for &(var, _) in &self.stack {
                    if self.marks[var.index()] & SEEN == 0 {
                        self.marks[var.index()] |= POISON;
                        self.touched.push(var);
                    }
                }
                return false;
            }
            self.stack.push((u, 0));
        }
        true
    }

    /// The assumptions responsible for `lit` being true (called when the assumption `!lit`
    /// turns out false), into `self.failed`.
    fn analyze_final(&mut self, lit: Lit) {
        self.failed.clear();
        self.failed.push(!lit);
        if self.level[lit.var().index()] == 0 {
            return;
        }
        self.marks[lit.var().index()] = SEEN;
        for index in (self.trail_lim[0]..self.trail.len()).rev() {
            let p = self.trail[index];
            let var = p.var();
            if self.marks[var.index()] & SEEN == 0 {
                continue;
            }
            self.marks[var.index()] = 0;
            match self.reason[var.index()] {
                // A decision above level 0 is an assumption (`lit` itself among them, when
                // the failing assumption contradicts an earlier one).
                Reason::Decision => self.failed.push(p),
                Reason::Binary(other) => {
                    if self.level[other.var().index()] > 0 {
                        self.marks[other.var().index()] = SEEN;
                    }
                }
                Reason::Long(cref) => {
                    for k in 1..self.db.size(cref) {
                        let other = Lit::from_code(self.db.lits(cref)[k]);
                        if self.level[other.var().index()] > 0 {
                            self.marks[other.var().index()] = SEEN;
                        }
                    }
                }
            }
        }
    }

    // ----- Clauses -----

    fn attach_binary(&mut self, a: Lit, b: Lit) {
        self.binaries[a.index()].push(b);
        self.binaries[b.index()].push(a);
    }

    fn attach_long(&mut self, lits: &[Lit], learnt: bool, lbd: u32) -> ClauseRef {
        let cref = self.db.add(lits, learnt, lbd);
        self.watches[lits[0].index()].push(Watch {
            cref,
            blocker: lits[1],
        });
        self.watches[lits[1].index()].push(Watch {
            cref,
            blocker: lits[0],
        });
        cref
    }

    /// Whether the clause is the reason of its first literal's assignment.
    fn locked(&self, cref: ClauseRef) -> bool {
        let first = Lit::from_code(self.db.lits(cref)[0]);
        self.value(first) > 0 && self.reason[first.var().index()] == Reason::Long(cref)
    }

    /// Records that the formula is unsatisfiable at level 0.
    fn set_inconsistent(&mut self) {
        if !self.inconsistent {
            self.inconsistent = true;
            if let Some(proof) = self.proof.as_mut() {
                proof.add([]);
            }
        }
    }

    /// Learns `self.learnt` after backjumping, and asserts its first literal.
    fn learn(&mut self, lbd: u32) {
        self.stats.learnt_clauses += 1;
        self.stats.learnt_literals += self.learnt.len() as u64;
        if let Some(proof) = self.proof.as_mut() {
            proof.add(self.learnt.iter().copied());
        }
        let learnt = std::mem::take(&mut self.learnt);
        match *learnt.as_slice() {
            [unit] => self.assign(unit, Reason::Decision),
            [a, b] => {
                self.attach_binary(a, b);
                self.assign(a, Reason::Binary(b));
            }
            _ => {
                let cref = self.attach_long(&learnt, true, lbd);
                self.learnts.push(cref);
                self.assign(learnt[0], Reason::Long(cref));
            }
        }
        self.learnt = learnt;
    }

    /// Deletes the worse half of the learnt clauses (see the module documentation).
    fn reduce(&mut self) {
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
    fn collect_garbage(&mut self) {
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

    // ----- Search -----

    fn should_restart(&self) -> bool {
        match self.options.restarts {
            Restarts::Glucose {
                margin,
                min_conflicts,
            } => {
                self.conflicts_since_restart >= min_conflicts.max(1)
                    && self.lbd_fast.value > margin * self.lbd_slow.value
            }
            Restarts::Luby { unit } => {
                self.conflicts_since_restart >= unit.max(1) * luby(self.stats.restarts + 1)
            }
            Restarts::Never => false,
        }
    }

    /// The next decision, or `None` when every variable is assigned.
    fn pick_branch(&mut self) -> Option<Lit> {
        while let Some(var) = self.heap.pop() {
            if self.value(Lit::positive(var)) == 0 {
                return Some(Lit::new(var, !self.phase[var.index()]));
            }
        }
        None
    }

    fn model(&self) -> Model {
        Model::from_values(
            (0..self.num_vars)
                .map(|v| self.values[Lit::positive(Var::from_index(v)).index()] > 0)
                .collect(),
        )
    }

    /// The CDCL loop of one [`Solver::solve_with`].
    fn search(&mut self) -> Outcome {
        let deadline = self.limits.time.map(|t| Instant::now() + t);
        let conflict_limit = self
            .limits
            .conflicts
            .map(|c| self.stats.conflicts.saturating_add(c));
        let mut ticks = 0u32;
        loop {
            if let Some(conflict) = self.propagate() {
                self.stats.conflicts += 1;
                self.conflicts_since_restart += 1;
                if self.decision_level() == 0 {
                    self.set_inconsistent();
                    return Outcome::Unsat;
                }
                let (backjump, lbd) = self.analyze(conflict);
                self.cancel_until(backjump);
                self.learn(lbd);
                self.heap.decay(self.options.var_decay);
                self.lbd_fast.update(f64::from(lbd));
                self.lbd_slow.update(f64::from(lbd));

                if conflict_limit.is_some_and(|limit| self.stats.conflicts >= limit) {
                    return Outcome::Unknown(StopReason::Conflicts);
                }
                ticks += 1;
            } else {
                if self.should_restart() {
                    self.stats.restarts += 1;
                    self.conflicts_since_restart = 0;
                    self.cancel_until(0);
                    continue;
                }
                if self.stats.conflicts >= self.next_reduce {
                    self.reduce_interval += self.options.reduce_increment;
                    self.next_reduce = self.stats.conflicts + self.reduce_interval;
                    self.reduce();
                }
                let mut next = None;
                while (self.decision_level() as usize) < self.assumptions.len() {
                    let assumption = self.assumptions[self.decision_level() as usize];
                    match self.value(assumption) {
                        1 => self.new_decision_level(),
                        -1 => {
                            self.analyze_final(!assumption);
                            return Outcome::Unsat;
                        }
                        _ => {
                            next = Some(assumption);
                            break;
                        }
                    }
                }
                #[cfg(debug_assertions)]
                self.check_propagated();
                let next = match next {
                    Some(lit) => lit,
                    None => match self.pick_branch() {
                        Some(lit) => lit,
                        None => return Outcome::Sat(self.model()),
                    },
                };
                self.stats.decisions += 1;
                self.new_decision_level();
                self.assign(next, Reason::Decision);
                ticks += 1;
            }
            if ticks >= 1024 {
                ticks = 0;
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    return Outcome::Unknown(StopReason::Time);
                }
                #[cfg(debug_assertions)]
                if self.num_vars <= DEBUG_CHECK_VARS {
                    self.heap.check();
                }
            }
        }
    }

    /// The slow check of the watch invariant, from scratch (debug builds, small formulas):
    /// after propagation without conflict no clause is false or unit, every long clause is
    /// watched by its first two literals, and every unassigned variable is in the heap.
    #[cfg(debug_assertions)]
    fn check_propagated(&self) {
        if self.num_vars > DEBUG_CHECK_VARS {
            return;
        }
        assert_eq!(self.qhead, self.trail.len());
        for (code, others) in self.binaries.iter().enumerate() {
            let a = Lit::from_code(code as u32);
            for &b in others {
                assert!(
                    self.value(a) >= 0 || self.value(b) > 0,
                    "binary clause {a} {b} not propagated"
                );
            }
        }
        for cref in self.db.refs() {
            if self.db.is_deleted(cref) {
                continue;
            }
            let lits = self.db.to_lits(cref);
            let falses = lits.iter().filter(|&&l| self.value(l) < 0).count();
            let satisfied = lits.iter().any(|&l| self.value(l) > 0);
            assert!(
                satisfied || falses + 1 < lits.len(),
                "clause {lits:?} not propagated"
            );
            for &watched in &lits[..2] {
                assert!(
                    self.watches[watched.index()].iter().any(|w| w.cref == cref),
                    "clause {lits:?} lacks the watch of {watched}"
                );
            }
        }
        for v in 0..self.num_vars {
            let var = Var::from_index(v);
            assert!(self.value(Lit::positive(var)) != 0 || self.heap.contains(var));
        }
    }
}

impl ClauseSink for Solver {
    fn num_vars(&self) -> u32 {
        self.num_vars
    }

    /// Nothing: the solver allocates a variable when a clause, an assumption or
    /// [`ClauseSink::ensure_vars`] uses it, so a header that claims a billion variables costs
    /// nothing by itself. Its models cover the variables up to the highest one used (as
    /// MiniSat's do); declared variables beyond it are in no clause, so any value fits them.
    fn declare_vars(&mut self, _count: u32) {}

    fn ensure_vars(&mut self, count: u32) {
        if count <= self.num_vars {
            return;
        }
        let (vars, lits) = (count as usize, 2 * count as usize);
        self.values.resize(lits, 0);
        self.binaries.resize_with(lits, Vec::new);
        self.watches.resize_with(lits, Vec::new);
        self.level.resize(vars, 0);
        self.reason.resize(vars, Reason::Decision);
        self.phase.resize(vars, self.options.initial_phase);
        self.marks.resize(vars, 0);
        self.level_stamp.resize(vars + 1, 0);
        if self.options.seed == 0 {
            self.heap.grow(vars, |_| 0.0);
        } else {
            let mut jitter = Vec::with_capacity(vars - self.num_vars as usize);
            for _ in self.num_vars as usize..vars {
                jitter.push((self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 1e-3);
            }
            let first = self.num_vars as usize;
            self.heap.grow(vars, |v| jitter[v.index() - first]);
        }
        self.num_vars = count;
    }

    /// Adds a clause between searches (it is simplified against the level-0 assignment;
    /// duplicate literals are merged and tautologies dropped).
    fn add_clause(&mut self, lits: &[Lit]) {
        if let Some(needed) = lits.iter().map(|l| l.var().as_u32() + 1).max() {
            self.ensure_vars(needed);
        }
        if self.inconsistent {
            return;
        }
        self.cancel_until(0);
        let mut clause = lits.to_vec();
        clause.sort_unstable();
        clause.dedup();
        if clause.windows(2).any(|w| w[0] == !w[1]) {
            return;
        }
        if clause.iter().any(|&l| self.value(l) > 0) {
            return;
        }
        let before = clause.len();
        clause.retain(|&l| self.value(l) == 0);
        if clause.len() < before
            && let Some(proof) = self.proof.as_mut()
        {
            proof.add(clause.iter().copied());
        }
        match *clause.as_slice() {
            [] => self.set_inconsistent(),
            [unit] => {
                self.assign(unit, Reason::Decision);
                if self.propagate().is_some() {
                    self.set_inconsistent();
                }
            }
            [a, b] => self.attach_binary(a, b),
            _ => {
                self.attach_long(&clause, false, 0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(number: i64) -> Lit {
        Lit::from_dimacs(number).unwrap()
    }

    #[test]
    fn contradictory_units_are_unsat_and_stay_so() {
        let mut solver = Solver::new();
        solver.add_clause(&[lit(1)]);
        solver.add_clause(&[lit(-1), lit(2)]);
        solver.add_clause(&[lit(-2)]);
        assert_eq!(solver.solve(), Outcome::Unsat);
        solver.add_clause(&[lit(3)]);
        assert_eq!(solver.solve(), Outcome::Unsat);
    }

    #[test]
    fn the_empty_formula_has_the_empty_model() {
        let mut solver = Solver::new();
        assert_eq!(solver.solve(), Outcome::Sat(Model::default()));
        solver.ensure_vars(2);
        let Outcome::Sat(model) = solver.solve() else {
            panic!()
        };
        assert_eq!(model.len(), 2);
    }
}
