//! Memory: what a solver for a formula of a given size costs, and growing without aborting.
//!
//! A solver's memory is per variable (values and watch lists by literal; level, reason, phases,
//! marks, trail and heap entries by variable: about 150 bytes) plus per clause (a binary clause
//! is two 4-byte implications; a longer one is `12 + 4·size` bytes in the arena and two 8-byte
//! watches), plus the learnt clauses, which reductions keep to a fraction of the formula.
//! [`Solver::estimated_bytes`] adds these up, so a caller can refuse a formula that cannot fit
//! before building it; [`Solver::reserve`] then takes the big blocks at once.
//!
//! Every allocation that grows with the input (the per-variable arrays, the arena, the lists a
//! clause is attached to) is made with `try_reserve`: when the system refuses, the solver
//! records the failure instead of aborting the process, drops what it was given from then on,
//! reports [`Error::OutOfMemory`] through [`ClauseSink::status`], and answers
//! [`LimitReached::Memory`] to every solve. What the search itself allocates (learnt
//! clauses, moved watches) stays infallible: it is bounded by the reductions and small next to
//! the formula. The simplification passes take their big blocks fallibly too (elimination's copy
//! of the clauses and its occurrence lists, substitution's scratch, probing's saved phases):
//! a refusal makes the solver out of memory as above, and the solve answers
//! [`LimitReached::Memory`]; what elimination adds while
//! it runs (resolvents, the extension stack) is no more than the clauses it removes, and is in
//! [`Solver::estimated_bytes_with`].

use std::collections::TryReserveError;
use std::mem::size_of;

use super::bve::bve_bytes;
use super::congruence::congruence_bytes;
use super::elim_rounds::rounds_bytes;
use super::els::SUBSTITUTE_BYTES_PER_LIT;
use super::reason::{Reason, Watch};
use super::{LimitReached, Options, Solver};
use crate::cnf::{ClauseCounter, ClauseSink};
use crate::error::Error;
use crate::lit::Lit;

/// Bytes per variable: by literal (two each) a value and the two list headers; by variable the
/// level, reason, saved, target and best phases, mark, level stamp, activity, heap slot and
/// position, trail slot, decision-level start, and its value in a model.
const BYTES_PER_VAR: u64 = (2 * (size_of::<i8>() + 2 * size_of::<Vec<Lit>>())
    + size_of::<u32>()
    + size_of::<Reason>()
    + 2 * size_of::<u8>()
    + 2 * size_of::<i8>()
    + size_of::<u64>()
    + size_of::<f64>()
    + 2 * size_of::<u32>()
    + size_of::<Lit>()
    + size_of::<usize>()
    + size_of::<bool>()) as u64;

/// Bytes per binary clause: one implication in each of two lists, with room for the lists'
/// growth (a list has up to twice the capacity it uses; 1.5 on average).
const BYTES_PER_BINARY: u64 = 2 * size_of::<Lit>() as u64 * 3 / 2;

/// Bytes per long clause besides its literals: the arena header (3 words) and two watches,
/// with room for the arena's and the watch lists' growth.
const BYTES_PER_LONG: u64 = (3 * 4 + 2 * size_of::<Watch>() as u64) * 3 / 2;

/// Bytes per literal of a long clause: a word in the arena, with room for its growth.
const BYTES_PER_LONG_LITERAL: u64 = size_of::<u32>() as u64 * 3 / 2;

impl Solver {
    /// Roughly the bytes a solver needs for a formula of `size` (as a [`ClauseCounter`] counts
    /// it: variables, clauses, literals, binary clauses), learnt clauses included, so a caller
    /// can refuse a formula that cannot fit before building anything. Meant as an upper
    /// estimate: on random formulas of 10^5 variables and clauses it measured 1.0 to 1.7 times
    /// the solver's peak (`tests/memory.rs`).
    ///
    /// ```
    /// use nqueens_sat::{ClauseCounter, Solver};
    /// // 1,000 variables in 4,000 binary clauses and 1,000 clauses of 10 literals.
    /// let size = ClauseCounter { vars: 1000, clauses: 5000, lits: 18_000, binary: 4000 };
    /// let bytes = Solver::estimated_bytes(&size);
    /// assert!((1 << 20..2 << 20).contains(&bytes), "{bytes}");
    /// ```
    pub fn estimated_bytes(size: &ClauseCounter) -> u64 {
        Solver::estimated_bytes_with(&Options::default(), size)
    }

    /// [`Solver::estimated_bytes`] for a solver made with `options`: with the simplification
    /// passes on, it adds what they hold besides the solver while they run (elimination's
    /// copy of the clauses in occurrence lists, its schedule and the extension stack;
    /// substitution's scratch per literal; probing's saved phases; congruence closure's
    /// occurrence lists, gates and hash table).
    ///
    /// ```
    /// use nqueens_sat::{ClauseCounter, Options, Solver};
    /// let size = ClauseCounter { vars: 1000, clauses: 5000, lits: 18_000, binary: 4000 };
    /// let simplifying = Options { eliminate: true, substitute: true, probe: true, ..Options::default() };
    /// let plain = Options { eliminate: false, substitute: false, probe: false, ..Options::default() };
    /// assert!(Solver::estimated_bytes_with(&simplifying, &size) > Solver::estimated_bytes_with(&plain, &size));
    /// ```
    pub fn estimated_bytes_with(options: &Options, size: &ClauseCounter) -> u64 {
        let binary = size.binary.min(size.clauses);
        let long = size.clauses - binary;
        let long_lits = size.lits.saturating_sub(2 * binary);
        let formula = u64::from(size.vars)
            .saturating_mul(BYTES_PER_VAR)
            .saturating_add(binary.saturating_mul(BYTES_PER_BINARY))
            .saturating_add(long.saturating_mul(BYTES_PER_LONG))
            .saturating_add(long_lits.saturating_mul(BYTES_PER_LONG_LITERAL));
        // Learnt clauses and the search's scratch space: reductions keep them to a fraction of
        // the formula on large inputs; a megabyte covers small ones.
        let mut bytes = formula.saturating_add(formula / 4).saturating_add(1 << 20);
        let lits = 2 * u64::from(size.vars);
        if options.eliminate {
            bytes = bytes.saturating_add(bve_bytes(size.clauses, size.lits, size.vars));
            bytes = bytes.saturating_add(rounds_bytes(options, size.vars));
        }
        if options.substitute {
            bytes = bytes.saturating_add(lits.saturating_mul(SUBSTITUTE_BYTES_PER_LIT));
        }
        if options.probe {
            bytes = bytes.saturating_add(u64::from(size.vars));
        }
        if options.substitute && options.congruence {
            bytes = bytes.saturating_add(congruence_bytes(long_lits, size.vars));
        }
        bytes
    }

    /// Makes room at once for a formula of `size` (the per-variable arrays and the clause
    /// arena), so building it does not grow them step by step; or reports that the memory is
    /// not to be had, without aborting. After an error the solver is out of memory for good: it
    /// drops every clause and answers [`LimitReached::Memory`].
    pub fn reserve(&mut self, size: &ClauseCounter) -> Result<(), Error> {
        if self.out_of_memory.is_none() {
            let long = size.clauses - size.binary.min(size.clauses);
            let arena_words = size
                .lits
                .saturating_sub(2 * size.binary)
                .saturating_add(3 * long);
            let result = self.reserve_vars(size.vars).and_then(|()| {
                self.db
                    .try_reserve(usize::try_from(arena_words).unwrap_or(usize::MAX))
            });
            if result.is_err() {
                self.out_of_memory = Some(Solver::estimated_bytes(size));
            }
        }
        self.status()
    }

    /// Makes room for variables up to `count` in every per-variable array.
    fn reserve_vars(&mut self, count: u32) -> Result<(), TryReserveError> {
        let more = (count as usize).saturating_sub(self.num_vars as usize);
        if more == 0 {
            return Ok(());
        }
        self.values.try_reserve(2 * more)?;
        self.binaries.try_reserve(2 * more)?;
        self.watches.try_reserve(2 * more)?;
        self.level.try_reserve(more)?;
        self.reason.try_reserve(more)?;
        self.phase.try_reserve(more)?;
        self.phases.target.try_reserve(more)?;
        self.phases.best.try_reserve(more)?;
        self.marks.try_reserve(more)?;
        self.level_stamp.try_reserve(more)?;
        self.heap.try_reserve(more)?;
        let trail_room = (count as usize).saturating_sub(self.trail.len());
        self.trail.try_reserve(trail_room)?;
        Ok(())
    }

    /// Grows the per-variable arrays to `count` variables; false (and out of memory for good)
    /// when the memory is not to be had.
    pub(super) fn grow_vars(&mut self, count: u32) -> bool {
        if self.reserve_vars(count).is_err() {
            let more = u64::from(count - self.num_vars);
            self.out_of_memory = Some(more.saturating_mul(BYTES_PER_VAR));
            return false;
        }
        let (vars, lits) = (count as usize, 2 * count as usize);
        self.values.resize(lits, 0);
        self.binaries.resize_with(lits, Vec::new);
        self.watches.resize_with(lits, Vec::new);
        self.level.resize(vars, 0);
        self.reason.resize(vars, Reason::Decision);
        self.phase.resize(vars, self.options.initial_phase);
        self.phases.target.resize(vars, 0);
        self.phases.best.resize(vars, 0);
        self.marks.resize(vars, 0);
        self.level_stamp.resize(vars + 1, 0);
        if self.options.seed == 0 {
            self.heap.grow(vars, |_| 0.0);
        } else {
            let first = self.num_vars as usize;
            let mut jitter = Vec::new();
            if jitter.try_reserve(vars - first).is_err() {
                self.out_of_memory = Some(((vars - first) * size_of::<f64>()) as u64);
                return false;
            }
            for _ in first..vars {
                jitter.push((self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 1e-3);
            }
            self.heap.grow(vars, |v| jitter[v.index() - first]);
        }
        self.num_vars = count;
        true
    }

    /// Attaches a clause of the formula (not a learnt one) with fallible growth: makes room in
    /// the lists and the arena first; false (and out of memory for good) when there is none.
    pub(super) fn try_attach(&mut self, clause: &[Lit]) -> bool {
        let room = match *clause {
            [a, b] => self.binaries[a.index()]
                .try_reserve(1)
                .and_then(|()| self.binaries[b.index()].try_reserve(1)),
            _ => self
                .db
                .try_reserve(3 + clause.len())
                .and_then(|()| self.watches[clause[0].index()].try_reserve(1))
                .and_then(|()| self.watches[clause[1].index()].try_reserve(1)),
        };
        if room.is_err() {
            self.out_of_memory = Some(BYTES_PER_LONG + 4 * clause.len() as u64);
            return false;
        }
        match *clause {
            [a, b] => self.attach_binary(a, b),
            _ => {
                self.attach_long(clause, false, 0);
            }
        }
        true
    }

    /// The answer to a solve after memory ran out.
    pub(super) fn out_of_memory_outcome(&self) -> Option<LimitReached> {
        self.out_of_memory.map(|_| LimitReached::Memory)
    }
}
