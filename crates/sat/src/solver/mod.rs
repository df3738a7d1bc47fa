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
//!   last had (phase saving, Pipatsrisawat and Darwiche 2007); among equal activities (the
//!   variables no conflict has bumped yet) the first in input order. With
//!   [`Options::primary_vars`], the primary variables come first regardless of activity. In
//!   stable mode the sign is the *target phase* where the variable has one: its value in the
//!   longest conflict-free trail since the last restart (`phases`; Biere and Fleury, "Chasing
//!   Target Phases", POS 2020). In stable mode the saved phases are also rephased now and
//!   then, alternately to the best phases and to the best assignment of a ProbSAT walk
//!   (`walk`; Balint and Schöning, SAT 2012), which finds the models of random k-SAT formulas
//!   that conflict-driven search is slow to reach.
//! - Restarts and modes: by default the search alternates a focused mode (glucose's rule:
//!   restart when the LBDs of the recent conflicts average well above the long-run average;
//!   fast activity decay) and a stable mode (restarts after the Luby sequence times 1,024
//!   conflicts; slow decay), each mode twice as long as the one before (Oh, SAT 2015; Biere
//!   and Fleury, POS 2020). Glucose alone, Luby alone or none are options ([`Restarts`],
//!   `restart`).
//! - Learnt clauses in three tiers by LBD (`reduce`): core (LBD ≤ 2) kept for good, tier 2
//!   (LBD ≤ 6) kept while conflicts use it, local the rest; every few thousand conflicts the
//!   worse half of the clauses out of use is deleted. Conflict analysis lowers a clause's LBD
//!   when it finds its literals on fewer levels, which may promote it. Clauses that are the
//!   reason of an assignment are never deleted.
//!
//! # Simplification
//!
//! Each an option, all off by default (the `nqueens sat` command turns every one on, after 5,000
//! conflicts: docs/notes/sat-simplify.md). With [`Options::substitute`] and [`Options::probe`] the
//! first search begins at level 0 with equivalent-literal substitution (the strongly connected
//! components of the binary implication graph replaced by one representative, `els`; with
//! [`Options::congruence`] each simplification's first substitution begins with congruence closure
//! on the formula's gates, `congruence`), then failed-literal probing on the graph's roots
//! (`probe`); they run again at restarts, each time after twice as many conflicts as the time
//! before ([`Options::simplify_interval`]); with [`Options::simplify_delay`] every pass first waits
//! for the first restart after that many conflicts. With [`Options::eliminate`] the first solve
//! then removes subsumed clauses, strengthens clauses by self-subsuming resolution and eliminates
//! variables whose resolvents are no more than their clauses (`eliminate`, `bve`; Eén and Biere,
//! SAT 2005); with [`Options::eliminate_rounds`] again at restarts, the bound growing
//! (`elim_rounds`); with [`Options::factor`] each run first factors (fresh variables for shared
//! parts of clauses, `bve::factor`), in numbers of the solver's own (`numbering`). A substituted or
//! eliminated variable is in no clause the search sees and is never decided; the extension stack
//! (`extend`) gives it its value in each model, and a later clause, assumption or projection that
//! names it puts it back first. Assumption and projection variables are frozen: never substituted
//! or eliminated. Each pass counts its work in ticks against a budget (a base from the formula's
//! size plus a share of the search's propagations since the last run, scaled by
//! [`Options::simplify_effort`]) and looks at the stop flag and the time limit every few thousand
//! ticks (`budget`): a limit stops it between two of its steps, the formula left equivalent, and
//! the solve answers [`Outcome::Unknown`] as a stopped search does (a later solve takes the pass up
//! again). With [`Options::vivify`], the first restart after each reduction shortens core and
//! tier-2 learnt clauses by propagating their literals' negations (`vivify`), on the same budgets.
//!
//! # Costs
//!
//! Propagating one assignment visits the binary implications of the falsified literal (one
//! read each) and its long-clause watches (one read of the blocker, and of the clause only
//! when the blocker is not true). Analysis is linear in the literals of the clauses resolved.
//! Backtracking is linear in the assignments undone. Memory: 4 bytes per binary implication, 8
//! per watch, 12 + 4·size bytes per long clause, about 150 bytes per variable;
//! [`Solver::estimated_bytes`] adds it up before a formula is built
//! ([`Solver::estimated_bytes_with`] with the simplification passes' copies and scratch), and
//! a refused allocation is an error ([`Error::OutOfMemory`]), never an abort.
//!
//! # Where things are
//!
//! This file holds the [`Solver`] itself, its public calls and the search loop. The rest, one job
//! per file: `prop` (the trail, assigning and backtracking, watched-literal propagation), `analyze`
//! (first-UIP learning, minimisation, shrinking, failed assumptions), `reduce` (learnt-clause
//! deletion and arena compaction), `restart` (the restart policies), `phases` (target and best
//! phases, rephasing), `walk` (the local search rephasing runs), `els` (equivalent-literal
//! substitution), `congruence` (equivalences from gates), `probe` (failed-literal probing),
//! `vivify` (learnt-clause vivification), `budget` (the passes' work budgets and their looks at the
//! limits), `eliminate` (bounded variable elimination before the first search, freezing, and
//! putting variables back), `elim_rounds` (elimination again during the search), `bve` (its
//! subsumption, strengthening and elimination over occurrence lists, and `bve::factor`, bounded
//! variable addition), `numbering` and `caller` (the solver's own variables beside the caller's;
//! `caller` also takes the caller's clauses in), `extend` (the extension stack that completes
//! models), `memory` (the estimate and fallible growth), `observe` (the hook a trace of the search
//! watches), `clause_db` (the clause arena), `heap` (the VSIDS order), `proof` (DRAT output). The
//! files that add to `impl Solver` import this one; what this one needs of theirs lives below them
//! all, as plain data: `reason` (reasons, conflicts, watches) and `search_state` (the LBD averages,
//! the search mode, the target and best phases). The public settings and answers are in `options`
//! ([`Options`], [`Restarts`], [`Limits`]), `outcome` ([`Outcome`], [`Enumeration`]; a limit's
//! reason is the workspace's [`LimitReached`]) and `stats` ([`Stats`]).
//!
//! # Proofs and enumeration
//!
//! With [`Solver::set_proof`], every learnt clause, deletion and the final empty clause are
//! written in DRAT (`proof`). Enumeration ([`Solver::enumerate`]) adds blocking clauses,
//! which are not implied by the formula, so a proof written during enumeration is not a
//! refutation of the original formula.

mod analyze;
mod budget;
mod bve;
mod caller;
mod clause_db;
mod congruence;
mod elim_rounds;
mod eliminate;
mod els;
mod extend;
mod heap;
mod memory;
mod numbering;
mod observe;
mod options;
mod outcome;
mod phases;
mod probe;
mod proof;
mod prop;
mod reason;
mod reduce;
mod restart;
mod search_state;
mod stats;
mod vivify;
mod walk;

use nqueens_support::clock::Instant;
use std::fmt;
use std::io::Write;
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

use nqueens_support::SplitMix64;

use self::clause_db::{ClauseDb, ClauseRef};
use self::extend::{Extension, Simplifier};
use self::heap::VarHeap;
use self::numbering::Numbering;
pub use self::observe::{Observer, Silent};
pub use self::options::{Options, Restarts};
pub use self::outcome::{Enumeration, Outcome};
use self::proof::Proof;
use self::reason::{Reason, Watch};
use self::search_state::{Ema, Mode, Phases, ReasonBumps, Vivifier};
pub use self::stats::Stats;
use crate::cnf::{ClauseSink, Model};
use crate::error::Error;
use crate::lit::{Lit, Var};
pub use nqueens_support::{LimitReached, Limits, Stopped};

/// Formulas up to this many variables get the slow consistency checks in debug builds.
#[cfg(debug_assertions)]
const DEBUG_CHECK_VARS: u32 = 200;

/// The CDCL solver. See the [module documentation](self).
///
/// ```
/// use nqueens_sat::{ClauseSink, Lit, Outcome, Solver};
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
///
#[doc = include_str!("incremental.md")]
pub struct Solver {
    options: Options,
    /// Conflicts and time per call, the stop flag and the work counter (see
    /// [`Solver::set_limits`]).
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
    /// The sign to try next (true: positive): the saved phase.
    phase: Vec<bool>,
    /// The target and best phases and the rephase schedule (`phases`).
    phases: Phases,
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

    /// The clause [`Solver::add_internal_clause`] normalizes (kept for its allocation).
    adding: Vec<Lit>,
    // Scratch space for analysis.
    learnt: Vec<Lit>,
    touched: Vec<Var>,
    stack: Vec<(Var, u32)>,
    shrinking: Vec<Var>,
    level_stamp: Vec<u64>,
    stamp: u64,

    // Restarts and reductions.
    lbd_fast: Ema,
    lbd_slow: Ema,
    conflicts_since_restart: u64,
    mode: Mode,
    reason_bumps: ReasonBumps,
    next_reduce: u64,
    reduce_interval: u64,

    rng: SplitMix64,
    /// Set when an allocation was refused: about how many bytes were wanted.
    out_of_memory: Option<u64>,
    stats: Stats,
    proof: Option<Proof>,
    /// The clauses simplification took away, to complete models (`extend`), and what
    /// elimination keeps between calls, the frozen variables among it (`eliminate`).
    extension: Extension,
    simplifier: Simplifier,
    /// Conflicts at which substitution and probing are due next (at a solve's start or a
    /// restart), and the interval after that one (`els`).
    next_simplify: u64,
    simplify_interval: u64,
    /// When learnt-clause vivification last ran (`vivify`).
    vivifier: Vivifier,
    /// The deadline of the solve under way (from [`Limits::time`]), for the search and the
    /// simplification passes (`budget`).
    deadline: Option<Instant>,
    /// A limit a simplification pass of this solve found reached: the solve answers
    /// `Unknown` with it.
    interrupted: Option<LimitReached>,
    /// The caller's numbers for the solver's variables, once factoring has made one of its
    /// own (`numbering`); `None`: the same numbers.
    numbering: Option<Box<Numbering>>,
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
            phases: Phases::new(options.rephase_interval),
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
            adding: Vec::new(),
            learnt: Vec::new(),
            touched: Vec::new(),
            stack: Vec::new(),
            shrinking: Vec::new(),
            level_stamp: vec![0],
            stamp: 0,
            lbd_fast: Ema::new(1.0 / 32.0),
            lbd_slow: Ema::new(1.0 / 8192.0),
            conflicts_since_restart: 0,
            mode: Mode::new(options.restarts),
            reason_bumps: ReasonBumps::new(),
            next_reduce: options.reduce_first,
            reduce_interval: options.reduce_first,
            rng: SplitMix64::new(options.seed),
            out_of_memory: None,
            stats: Stats::default(),
            proof: None,
            extension: Extension::default(),
            simplifier: Simplifier::default(),
            next_simplify: options.simplify_delay,
            simplify_interval: options.simplify_interval,
            vivifier: Vivifier::default(),
            deadline: None,
            interrupted: None,
            numbering: None,
            options,
        }
    }

    /// Sets the limits of each later call of [`Solver::solve`] (and of each model's search in
    /// an enumeration), the workspace's one [`Limits`]: the solver reads
    /// [`Limits::conflicts`] (conflicts per call: [`LimitReached::Conflicts`]),
    /// [`Limits::time`] (wall time per call: [`LimitReached::Time`]), [`Limits::stop`] (a flag
    /// another thread may raise: [`LimitReached::Stopped`]; looked at with the clock, every
    /// 1,024 decisions or conflicts, and between two models of an enumeration) and
    /// [`Limits::work`] (where it stores its conflicts so far each time it looks at the clock,
    /// so that another thread can show its rate; never read). [`Limits::nodes`] is not read:
    /// a SAT solver's unit of work is a conflict.
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
        self.solve_observed(assumptions, &mut Silent)
    }

    /// [`Solver::solve_with`], telling `observer` every decision, conflict, learnt clause and
    /// restart as it happens (for a trace of the search; watching changes nothing of it).
    pub fn solve_observed<O: Observer>(
        &mut self,
        assumptions: &[Lit],
        observer: &mut O,
    ) -> Outcome {
        self.failed.clear();
        if let Some(needed) = assumptions.iter().map(|l| l.var().as_u32() + 1).max() {
            self.ensure_vars(needed);
        }
        if let Some(reason) = self.out_of_memory_outcome() {
            return Outcome::Unknown(reason);
        }
        let internal = self.internal_lits(assumptions);
        let outcome = self.solve_internal(&internal, observer);
        self.externalize_failed();
        outcome
    }

    /// [`Solver::solve_observed`] with the assumptions in the solver's numbers.
    fn solve_internal<O: Observer>(&mut self, assumptions: &[Lit], observer: &mut O) -> Outcome {
        self.deadline = self.limits.time.map(|t| Instant::now() + t);
        self.interrupted = None;
        self.freeze(assumptions.iter().map(|l| l.var()));
        self.restore(assumptions);
        self.simplify_if_due();
        self.eliminate_once();
        self.eliminate_if_due();
        if self.inconsistent {
            return Outcome::Unsat;
        }
        if let Some(reason) = self.out_of_memory_outcome().or(self.interrupted) {
            return Outcome::Unknown(reason);
        }
        self.assumptions = assumptions.to_vec();
        // Each call may come with new clauses (a blocking clause, when enumerating) or
        // assumptions that refute the old target: it starts without one.
        self.clear_target();
        let outcome = self.search(observer);
        self.cancel_until(0);
        outcome
    }

    /// Visits the models of the formula projected on `vars`: after each model the solver adds
    /// a clause that blocks its values on `vars`, so no two visited models agree on all of
    /// them. Stops when `visit` breaks, when no model is left, or at a limit (which applies to
    /// each model's search). With `vars` empty, at most one model is visited.
    ///
    /// The blocking clauses stay in the solver afterwards. Target phases
    /// ([`Options::target_phases`]) and rephasing are on for the first model's search only:
    /// after a model they steer each search back toward the assignment just blocked (the
    /// property test of enumeration ran 1.3–3× longer with target phases; rephasing steers the
    /// same way and pauses with them), while the first model, all that a `solve` of the
    /// N-Queens engine asks for, is found sooner with them (compact n = 1000: 2,149 conflicts
    /// against 3,008).
    pub fn enumerate(
        &mut self,
        vars: &[Var],
        visit: impl FnMut(&Model) -> ControlFlow<()>,
    ) -> Enumeration {
        self.enumerate_observed(vars, &mut Silent, visit)
    }

    /// [`Solver::enumerate`], telling `observer` every step of every model's search.
    pub fn enumerate_observed<O: Observer>(
        &mut self,
        vars: &[Var],
        observer: &mut O,
        visit: impl FnMut(&Model) -> ControlFlow<()>,
    ) -> Enumeration {
        if let Some(needed) = vars.iter().map(|v| v.as_u32() + 1).max() {
            self.ensure_vars(needed);
        }
        let projection: Vec<Lit> = vars.iter().map(|&v| Lit::positive(v)).collect();
        let projection = self.internal_lits(&projection);
        self.freeze(projection.iter().map(|l| l.var()));
        self.restore(&projection);
        let target_phases = self.options.target_phases;
        let rephasing = self.phases.next_rephase != u64::MAX;
        let enumeration = self.enumerate_models(vars, observer, visit);
        self.options.target_phases = target_phases;
        if rephasing && self.phases.next_rephase == u64::MAX {
            // Paused after the first model: due again a full interval from now.
            let delay = self
                .options
                .rephase_interval
                .saturating_mul(self.phases.rephases + 1);
            self.phases.next_rephase = self.stats.conflicts.saturating_add(delay);
        }
        enumeration
    }

    /// [`Solver::enumerate_observed`]'s loop.
    fn enumerate_models<O: Observer>(
        &mut self,
        vars: &[Var],
        observer: &mut O,
        mut visit: impl FnMut(&Model) -> ControlFlow<()>,
    ) -> Enumeration {
        let mut count = 0;
        let mut blocking = Vec::with_capacity(vars.len());
        loop {
            match self.solve_observed(&[], observer) {
                Outcome::Sat(model) => {
                    count += 1;
                    self.options.target_phases = false;
                    self.phases.next_rephase = u64::MAX;
                    if visit(&model).is_break() {
                        return Enumeration::Stopped(count);
                    }
                    // Each model's search may be too short to reach its own look at the
                    // flag; between models it is looked at every time (and the conflicts
                    // published first, so a stop leaves them up to date).
                    if let Some(work) = &self.limits.work {
                        work.store(self.stats.conflicts, Ordering::Relaxed);
                    }
                    if self
                        .limits
                        .stop
                        .as_ref()
                        .is_some_and(|s| s.load(Ordering::Relaxed))
                    {
                        let stopped = Stopped::new(LimitReached::Stopped, u128::from(count));
                        return Enumeration::Unknown(stopped);
                    }
                    blocking.clear();
                    blocking.extend(vars.iter().map(|&v| Lit::new(v, model.value(v))));
                    self.add_clause(&blocking);
                }
                Outcome::Unsat => return Enumeration::Complete(count),
                Outcome::Unknown(reason) => {
                    return Enumeration::Unknown(Stopped::new(reason, u128::from(count)));
                }
            }
        }
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

    // ----- Search -----
    /// The next decision, or `None` when every variable is assigned.
    fn pick_branch(&mut self) -> Option<Lit> {
        while let Some(var) = self.heap.pop() {
            if self.value(Lit::positive(var)) == 0 && !self.extension.is_removed(var) {
                return Some(Lit::new(var, !self.decision_phase(var.index())));
            }
        }
        None
    }

    /// The model: the assignment, completed on the removed variables (`extend`), in the
    /// caller's numbers.
    fn model(&self) -> Model {
        let mut values: Vec<bool> = (0..self.num_vars)
            .map(|v| self.values[Lit::positive(Var::from_index(v)).index()] > 0)
            .collect();
        if !self.extension.is_empty() {
            self.extension.extend(&mut values);
        }
        Model::from_values(self.external_values(values))
    }

    /// The CDCL loop of one [`Solver::solve_observed`].
    fn search<O: Observer>(&mut self, observer: &mut O) -> Outcome {
        let deadline = self.deadline;
        let conflict_limit = self
            .limits
            .conflicts
            .map(|c| self.stats.conflicts.saturating_add(c));
        let mut ticks = 0u32;
        loop {
            if let Some(conflict) = self.propagate() {
                self.stats.conflicts += 1;
                self.conflicts_since_restart += 1;
                if O::WATCHES {
                    observer.conflict(self.decision_level());
                }
                if self.decision_level() == 0 {
                    self.set_inconsistent();
                    return Outcome::Unsat;
                }
                // The levels below the conflict's were closed without one.
                self.update_target_and_best(self.trail_lim[self.decision_level() as usize - 1]);
                let (backjump, lbd) = self.analyze(conflict);
                self.cancel_until(backjump);
                self.learn(lbd);
                if O::WATCHES {
                    observer.learn(&self.learnt, lbd, backjump);
                }
                self.heap.decay(self.var_decay());
                self.lbd_fast.update(f64::from(lbd));
                self.lbd_slow.update(f64::from(lbd));

                if conflict_limit.is_some_and(|limit| self.stats.conflicts >= limit) {
                    return Outcome::Unknown(LimitReached::Conflicts);
                }
                ticks += 1;
            } else {
                if self.should_restart() {
                    self.stats.restarts += 1;
                    self.conflicts_since_restart = 0;
                    self.update_target_and_best(self.trail.len());
                    self.reset_target();
                    self.cancel_until(0);
                    if O::WATCHES {
                        observer.restart();
                    }
                    self.simplify_if_due();
                    self.eliminate_once();
                    self.eliminate_if_due();
                    self.vivify_if_due();
                    if self.inconsistent {
                        return Outcome::Unsat;
                    }
                    if let Some(reason) = self.out_of_memory_outcome().or(self.interrupted) {
                        return Outcome::Unknown(reason);
                    }
                    continue;
                }
                self.rephase_if_due();
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
                if O::WATCHES {
                    observer.decide(self.decision_level(), next);
                }
                self.assign(next, Reason::Decision);
                ticks += 1;
            }
            if ticks >= 1024 {
                ticks = 0;
                if let Some(work) = &self.limits.work {
                    work.store(self.stats.conflicts, Ordering::Relaxed);
                }
                if let Some(reached) = budget::limit_reached(deadline, self.limits.stop.as_ref()) {
                    return Outcome::Unknown(reached);
                }
                #[cfg(debug_assertions)]
                if self.num_vars <= DEBUG_CHECK_VARS {
                    self.heap.check();
                }
            }
        }
    }
}
