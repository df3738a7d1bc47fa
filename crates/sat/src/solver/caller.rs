//! Between the caller's numbers and the solver's: clauses, assumptions and projections turned
//! into the solver's numbers on the way in, models and failed assumptions into the caller's on
//! the way out, and the variables each side adds (the plain data, and why the two numberings
//! differ, are in `numbering`).

use super::Solver;
use super::numbering::Numbering;
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
}
