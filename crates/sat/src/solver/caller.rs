//! Between the caller's numbers and the solver's: clauses, assumptions and projections turned
//! into the solver's numbers on the way in, models and failed assumptions into the caller's on
//! the way out, and the variables each side adds (the plain data, and why the two numberings
//! differ, are in `numbering`). Here too the solver's face as a [`ClauseSink`]: a clause comes
//! in, its eliminated variables are put back (`eliminate`), and it is normalized against the
//! level-0 assignment and attached, in the solver's numbers.

use super::Solver;
use super::numbering::Numbering;
use super::reason::Reason;
use crate::cnf::ClauseSink;
use crate::error::Error;
use crate::lit::Lit;

/// Bytes a variable takes in the [`Numbering`] (its entry on each side).
const BYTES_PER_NUMBER: u64 = 8;

impl Solver {
    /// The caller's literals `lits` in the solver's numbers (the caller has named them).
    pub(super) fn internal_lits(&self, lits: &[Lit]) -> Vec<Lit> {
        match &self.numbering {
            Some(numbering) => lits.iter().map(|&l| numbering.internal_lit(l)).collect(),
            None => lits.to_vec(),
        }
    }

    /// The failed assumptions of the last solve in the caller's numbers.
    pub(super) fn externalize_failed(&mut self) {
        if let Some(numbering) = &self.numbering {
            for lit in &mut self.failed {
                *lit = numbering.external_lit(*lit);
            }
        }
    }

    /// The caller's variables' values from the solver's `values` (by variable).
    pub(super) fn external_values(&self, values: Vec<bool>) -> Vec<bool> {
        match &self.numbering {
            Some(numbering) => numbering.external_values(&values),
            None => values,
        }
    }

    /// Grows the caller's variables to `count` (more than it has): each a new variable of the
    /// solver's, numbered after its fresh ones once it has some. When the memory is not to be
    /// had, the solver is out of memory from then on.
    pub(super) fn grow_caller_vars(&mut self, count: u32) {
        match &mut self.numbering {
            None => {
                self.grow_vars(count);
            }
            Some(numbering) => {
                let more = count - numbering.caller_vars();
                if numbering.try_reserve(more).is_err() {
                    self.out_of_memory = Some(BYTES_PER_NUMBER * u64::from(more));
                    return;
                }
                for _ in 0..more {
                    numbering.push_caller();
                }
                self.grow_vars(self.num_vars + more);
            }
        }
    }

    /// Makes `count` fresh variables (factoring's), numbered after the solver's; false (and
    /// out of memory) when the memory is not to be had.
    pub(super) fn add_fresh_vars(&mut self, count: u32) -> bool {
        let vars = self.num_vars;
        if self.numbering.is_none() {
            let Some(identity) = Numbering::identity(vars) else {
                self.out_of_memory = Some(BYTES_PER_NUMBER * u64::from(vars));
                return false;
            };
            self.numbering = Some(Box::new(identity));
        }
        let numbering = self.numbering.as_mut().expect("made above");
        if numbering.try_reserve(count).is_err() {
            self.out_of_memory = Some(BYTES_PER_NUMBER * u64::from(count));
            return false;
        }
        for _ in 0..count {
            numbering.push_fresh();
        }
        self.grow_vars(vars + count)
    }

    /// Adds a clause in the solver's numbers: [`ClauseSink::add_clause`]'s work.
    pub(super) fn add_internal_clause(&mut self, lits: &[Lit]) {
        if self.inconsistent || self.out_of_memory.is_some() {
            return;
        }
        self.cancel_until(0);
        self.restore(lits);
        // The copy lives in a buffer kept between calls: a formula's clauses come one call
        // each, and an allocation per clause was a tenth of reading a large formula.
        let mut clause = std::mem::take(&mut self.adding);
        clause.clear();
        clause.extend_from_slice(lits);
        self.normalize_and_add(&mut clause);
        self.adding = clause;
    }

    /// [`Solver::add_internal_clause`]'s work after the put-back, on its own copy of the
    /// clause: sorted and deduplicated, dropped when a tautology or satisfied, shortened by its
    /// false literals, then attached or assigned.
    fn normalize_and_add(&mut self, clause: &mut Vec<Lit>) {
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
                self.propagate_level_zero();
            }
            _ => {
                self.try_attach(clause);
            }
        }
    }
}

impl ClauseSink for Solver {
    /// The variables the caller has named (the solver's own, factoring's, are not counted).
    fn num_vars(&self) -> u32 {
        self.numbering
            .as_ref()
            .map_or(self.num_vars, |numbering| numbering.caller_vars())
    }

    /// Nothing: the solver allocates a variable when a clause, an assumption or
    /// [`ClauseSink::ensure_vars`] uses it, so a header that claims a billion variables costs
    /// nothing by itself. Its models cover the variables up to the highest one used (as
    /// MiniSat's do); declared variables beyond it are in no clause, so any value fits them.
    fn declare_vars(&mut self, _count: u32) {}

    /// Grows the solver to `count` variables; when the memory is not to be had, the solver
    /// is out of memory from then on ([`ClauseSink::status`]) instead of aborting.
    fn ensure_vars(&mut self, count: u32) {
        if count > ClauseSink::num_vars(self) && self.out_of_memory.is_none() {
            self.grow_caller_vars(count);
        }
    }

    /// Adds a clause between searches (it is simplified against the level-0 assignment;
    /// duplicate literals are merged and tautologies dropped). Dropped, once the solver is out
    /// of memory.
    fn add_clause(&mut self, lits: &[Lit]) {
        if let Some(needed) = lits.iter().map(|l| l.var().as_u32() + 1).max() {
            self.ensure_vars(needed);
        }
        match self.numbering {
            Some(_) => self.add_internal_clause(&self.internal_lits(lits)),
            None => self.add_internal_clause(lits),
        }
    }

    /// [`Error::OutOfMemory`] once an allocation was refused (the solver then drops every
    /// clause and answers [`LimitReached::Memory`](crate::LimitReached::Memory)).
    fn status(&self) -> Result<(), Error> {
        match self.out_of_memory {
            Some(bytes) => Err(Error::OutOfMemory { bytes }),
            None => Ok(()),
        }
    }
}
