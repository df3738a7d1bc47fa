//! The trail and unit propagation: assigning, backtracking, and the two watched literals.
//!
//! Binary clauses are implication lists (`binaries[l]`: what becomes true when `l` becomes
//! false); longer clauses are watched by their first two literals, each watch carrying a
//! blocking literal that, when true, lets propagation skip the clause without reading it. See
//! the [solver's essay](super) for the invariant (`check_propagated`, here, checks it from
//! scratch in debug builds); nothing here runs on backtracking but clearing values and saving
//! phases.
//!
//! The watch loop is the solver's hottest code (half to four fifths of its instructions), so
//! it runs on the solver's fields borrowed apart (the compiler then keeps their addresses in
//! registers), reads a clause's header and literals with one bounds check, and reads values
//! and the watch list it walks without bounds checks (`unsafe`, each read checked in debug
//! builds): on five structured formulas that took 10–29 % of the instructions per
//! propagation off, the search unchanged (docs/notes/sat-structured-set.md, "Propagation
//! cost, second round"). The whole queue is then propagated by one free function
//! (`propagate_queue`) on those borrowed fields, binary clauses included, assignments write
//! without bounds checks, and the list walked stays in place while watches move to other
//! lists through one raw pointer (a watch never moves to the false literal's own list):
//! up to 28 % more off the instructions per propagation in this function; and the other
//! watched literal of a clause is found without a branch (a branch that went either way at
//! random, mispredicted on about one clause visit in three): 5–6 % off the process time
//! of the short formulas, the search again unchanged (same note, "Propagation speed
//! against Kissat, side by side").

use super::Solver;
use super::clause_db::{ClauseDb, ClauseRef};
use super::reason::{Conflict, Reason, Watch};
use crate::lit::Lit;
#[cfg(debug_assertions)]
use crate::lit::Var;

impl Solver {
    // ----- Assignment and backtracking -----

    #[inline]
    pub(super) fn value(&self, lit: Lit) -> i8 {
        self.values[lit.index()]
    }

    pub(super) fn decision_level(&self) -> u32 {
        self.trail_lim.len() as u32
    }

    #[inline]
    pub(super) fn assign(&mut self, lit: Lit, reason: Reason) {
        debug_assert_eq!(self.value(lit), 0);
        self.values[lit.index()] = 1;
        self.values[(!lit).index()] = -1;
        let var = lit.var().index();
        self.level[var] = self.trail_lim.len() as u32;
        self.reason[var] = reason;
        self.trail.push(lit);
    }

    pub(super) fn new_decision_level(&mut self) {
        self.trail_lim.push(self.trail.len());
    }

    /// Undoes every level above `level`, saving phases.
    pub(super) fn cancel_until(&mut self, level: u32) {
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
        self.phases.backtracked(keep);
        self.trail_lim.truncate(level as usize);
        self.qhead = keep;
    }

    // ----- Propagation -----

    /// Closes level 0 under propagation. A conflict there refutes the formula: the solver is
    /// made inconsistent (the empty clause written to the proof) and the answer is `false`.
    pub(super) fn propagate_level_zero(&mut self) -> bool {
        debug_assert_eq!(self.decision_level(), 0);
        if self.propagate().is_some() {
            self.set_inconsistent();
            return false;
        }
        true
    }

    /// Propagates every queued assignment; returns a falsified clause if one appears.
    pub(super) fn propagate(&mut self) -> Option<Conflict> {
        let start = self.qhead;
        let mut assign = Assign {
            values: &mut self.values,
            levels: &mut self.level,
            reasons: &mut self.reason,
            trail: &mut self.trail,
            level: self.trail_lim.len() as u32,
        };
        let (qhead, conflict) = propagate_queue(
            start,
            &self.binaries,
            &mut self.watches,
            &mut self.db,
            &mut assign,
        );
        // One propagation per literal taken off the trail.
        self.stats.propagations += (qhead - start) as u64;
        self.qhead = qhead;
        conflict
    }

    pub(super) fn attach_binary(&mut self, a: Lit, b: Lit) {
        self.binaries[a.index()].push(b);
        self.binaries[b.index()].push(a);
    }

    pub(super) fn attach_long(&mut self, lits: &[Lit], learnt: bool, lbd: u32) -> ClauseRef {
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

    /// The slow check of the watch invariant, from scratch (debug builds, small formulas):
    /// after propagation without conflict no clause is false or unit, every long clause is
    /// watched by its first two literals, every unassigned variable is in the heap unless
    /// simplification removed it, and no clause names a removed variable.
    #[cfg(debug_assertions)]
    pub(super) fn check_propagated(&self) {
        if self.num_vars > super::DEBUG_CHECK_VARS {
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
            assert!(!lits.iter().any(|l| self.extension.is_removed(l.var())));
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
            let removed = self.extension.is_removed(var);
            assert!(self.value(Lit::positive(var)) != 0 || removed || self.heap.contains(var));
            let named = !self.binaries[Lit::positive(var).index()].is_empty()
                || !self.binaries[Lit::negative(var).index()].is_empty();
            assert!(
                !(removed && named),
                "removed variable {var:?} in a binary clause"
            );
        }
    }
}

/// The value of literal code `code` (1 true, −1 false, 0 unassigned), unchecked.
#[inline(always)]
fn value_of(values: &[i8], code: usize) -> i8 {
    debug_assert!(
        code < values.len(),
        "literal code {code} beyond the variables"
    );
    // SAFETY: every literal in a watch list or a clause belongs to a variable of the solver,
    // and `values` has an entry for each literal of each variable; checked in debug builds.
    // Measured: the bounds checks were a fifth of the instructions of a watch visit.
    unsafe { *values.get_unchecked(code) }
}

/// The solver's fields that propagation assigns through, borrowed apart from the solver so
/// that the compiler knows they do not overlap and keeps their addresses in registers for the
/// whole of [`propagate_queue`] (read from the solver, they were reloaded after every
/// assignment, since the trail's growth might, for all the compiler could tell, write them).
struct Assign<'a> {
    values: &'a mut [i8],
    levels: &'a mut [u32],
    reasons: &'a mut [Reason],
    trail: &'a mut Vec<Lit>,
    /// The current decision level.
    level: u32,
}

impl Assign<'_> {
    /// Makes `lit` true at the current level for `reason` and queues it.
    #[inline(always)]
    fn imply(&mut self, lit: Lit, reason: Reason) {
        debug_assert_eq!(value_of(self.values, lit.index()), 0);
        let var = lit.var().index();
        debug_assert!(var < self.levels.len() && var < self.reasons.len());
        debug_assert_eq!(self.values.len(), 2 * self.levels.len());
        // SAFETY: `lit` was read from a binary list or a clause, so its variable is one of
        // the solver's (see `value_of`): `values` has both its literals, `levels` and
        // `reasons` its variable; checked in debug builds. Measured: the three bounds checks
        // cost about 7 instructions per assignment (`2bitadd_10`, 3,000 conflicts).
        unsafe {
            *self.values.get_unchecked_mut(lit.index()) = 1;
            *self.values.get_unchecked_mut((!lit).index()) = -1;
            *self.levels.get_unchecked_mut(var) = self.level;
            *self.reasons.get_unchecked_mut(var) = reason;
        }
        self.trail.push(lit);
    }
}

/// Propagates the trail from `qhead` to its end (which moves as literals are implied):
/// for each literal taken off it, the binary clauses first, then the long-clause watches.
/// Returns the new queue head (one past the last literal taken off) and the false clause,
/// if one appeared.
#[inline(always)]
fn propagate_queue(
    mut qhead: usize,
    binaries: &[Vec<Lit>],
    watches: &mut [Vec<Watch>],
    db: &mut ClauseDb,
    assign: &mut Assign<'_>,
) -> (usize, Option<Conflict>) {
    while qhead < assign.trail.len() {
        let false_lit = !assign.trail[qhead];
        qhead += 1;

        // Binary clauses: every implication is one read.
        for &other in &binaries[false_lit.index()] {
            let value = value_of(assign.values, other.index());
            if value > 0 {
                continue;
            }
            if value < 0 {
                return (qhead, Some(Conflict::Binary(false_lit, other)));
            }
            assign.imply(other, Reason::Binary(false_lit));
        }

        // Long clauses. The list walked and the lists its watches move to are reached
        // through one raw pointer: a watch only moves to a literal that is not false, so
        // never to `false_lit`'s own list, and the two borrows never overlap. (Taking the
        // list out of the solver and putting it back, the safe way, cost about 25
        // instructions per propagation on `2bitadd_10`.)
        assert!(false_lit.index() < watches.len());
        let lists = WatchLists {
            first: watches.as_mut_ptr(),
            len: watches.len(),
        };
        // SAFETY: in bounds (just asserted); `visit_watches` reaches no other list through
        // `lists` at this index (see there).
        let list = unsafe { &mut *lists.first.add(false_lit.index()) };
        let conflict = visit_watches(list, false_lit, &lists, db, assign);
        if conflict.is_some() {
            return (qhead, conflict);
        }
    }
    (qhead, None)
}

/// Every literal's watch list, as a pointer to the first and their number, for
/// [`visit_watches`] to push onto one while it walks another.
struct WatchLists {
    first: *mut Vec<Watch>,
    len: usize,
}

/// Visits the long-clause watches of `false_lit` (its list, `list`): keeps
/// the watches whose clause stays watched by `false_lit`, moves the others to their new
/// literal, assigns the clauses that became unit, and stops at the first false clause.
#[inline(always)]
fn visit_watches(
    list: &mut Vec<Watch>,
    false_lit: Lit,
    watches: &WatchLists,
    db: &mut ClauseDb,
    assign: &mut Assign<'_>,
) -> Option<Conflict> {
    let false_code = false_lit.code();
    let (mut i, mut j) = (0, 0);
    let end = list.len();
    let mut conflict = None;
    while i < end {
        debug_assert!(j <= i);
        // SAFETY: `j <= i < end == list.len()`, and the list does not change length here.
        let watch = unsafe { *list.get_unchecked(i) };
        i += 1;
        if value_of(assign.values, watch.blocker.index()) > 0 {
            // SAFETY: as above.
            unsafe { *list.get_unchecked_mut(j) = watch };
            j += 1;
            continue;
        }
        let cref = watch.cref;
        // A clause deleted by a reduction keeps its watches until the next garbage
        // collection; it must not propagate any more (its watch is dropped here).
        let Some((lits, search)) = db.live_lits_and_search_mut(cref) else {
            continue;
        };
        let [w0, w1, rest @ ..] = lits else {
            unreachable!("a long clause has three literals or more")
        };
        // The other watched literal goes first. One of the two is `false_code`, so the
        // other is their XOR with it, and both are written whichever it was: the branch
        // on which one it was went either way at random, a mispredicted branch on about
        // one clause visit in three (cachegrind's branch simulation).
        debug_assert!(*w0 == false_code || *w1 == false_code);
        let first = *w0 ^ *w1 ^ false_code;
        *w0 = first;
        *w1 = false_code;
        let kept = Watch {
            cref,
            blocker: Lit::from_stored_code(first),
        };
        let values = &*assign.values;
        // (When `first` is the blocker it is not true, as just read: no need to skip it.)
        if value_of(values, first as usize) > 0 {
            // SAFETY: as above.
            unsafe { *list.get_unchecked_mut(j) = kept };
            j += 1;
            continue;
        }
        // Look for a literal that is not false, from where the last search stopped (a
        // position in the clause, so 2 or more).
        let from = (*search as usize).saturating_sub(2).min(rest.len());
        let not_false = |&c: &u32| value_of(values, c as usize) >= 0;
        let found = match rest[from..].iter().position(not_false) {
            Some(k) => Some(from + k),
            None => rest[..from].iter().position(not_false),
        };
        if let Some(k) = found {
            let candidate = rest[k];
            rest[k] = false_code;
            *w1 = candidate;
            *search = k as u32 + 2;
            let candidate = candidate as usize;
            assert!(candidate < watches.len);
            debug_assert_ne!(candidate, false_code as usize);
            // SAFETY: in bounds (just asserted), and not `list`: the candidate is not false
            // and `false_lit` is, so the two `&mut` never name the same list.
            unsafe { (*watches.first.add(candidate)).push(kept) };
            continue;
        }
        // SAFETY: as above.
        unsafe { *list.get_unchecked_mut(j) = kept };
        j += 1;
        if value_of(values, first as usize) < 0 {
            conflict = Some(Conflict::Long(cref));
            list.copy_within(i..end, j);
            j += end - i;
            break;
        }
        assign.imply(kept.blocker, Reason::Long(cref));
    }
    list.truncate(j);
    conflict
}
