//! The trail and unit propagation: assigning, backtracking, and the two watched literals.
//!
//! Binary clauses are implication lists (`binaries[l]`: what becomes true when `l` becomes
//! false); longer clauses are watched by their first two literals, each watch carrying a
//! blocking literal that, when true, lets propagation skip the clause without reading it. See
//! the [solver's essay](super) for the invariant (`check_propagated`, here, checks it from
//! scratch in debug builds); nothing here runs on backtracking but clearing values and saving
//! phases.

use super::Solver;
use super::clause_db::ClauseRef;
use crate::lit::Lit;
#[cfg(debug_assertions)]
use crate::lit::Var;

/// Why a variable has its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reason {
    /// A decision, or a unit at level 0.
    Decision,
    /// The binary clause `(this variable's literal ∨ other)`, with `other` false.
    Binary(Lit),
    /// A long clause whose literal 0 is this variable's literal.
    Long(ClauseRef),
}

/// A clause all of whose literals are false.
#[derive(Clone, Copy, Debug)]
pub(super) enum Conflict {
    Binary(Lit, Lit),
    Long(ClauseRef),
}

/// A long-clause watch: the clause, and a literal of it to test first.
#[derive(Clone, Copy, Debug)]
pub(super) struct Watch {
    pub(super) cref: ClauseRef,
    pub(super) blocker: Lit,
}

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

    /// Propagates every queued assignment; returns a falsified clause if one appears.
    pub(super) fn propagate(&mut self) -> Option<Conflict> {
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
