//! The caller's variables and the solver's own.
//!
//! Factoring ([`Options::factor`](super::Options::factor), `bve::factor`) makes variables the
//! caller never named. They take the solver's next numbers, after every variable the caller
//! has used so far; a variable the caller names later gets the solver's next number then, so
//! from the first fresh variable on the two numberings differ. [`Numbering`] holds both ways:
//! the solver's variable for each of the caller's, and the caller's (or none) for each of the
//! solver's. Before any fresh variable there is no `Numbering` and the two are the same,
//! so a solver that never factors pays nothing.
//!
//! What crosses between them: clauses, assumptions and projections come in in the caller's
//! numbers and are turned into the solver's; models and failed assumptions go out in the
//! caller's (a model leaves the fresh variables out). Everything inside — the search, the
//! passes, the extension stack, the proof — is in the solver's numbers. So a DRAT proof of a
//! formula given before the first solve names the formula's variables as the formula does
//! and each fresh variable after them, as a checker expects; a variable the caller names
//! after a solve that factored appears in the proof under the solver's number.
//!
//! Cost: 8 bytes per variable, once a fresh variable exists; a clause or an assumption list
//! is copied once on the way in, a model once on the way out.

use std::collections::TryReserveError;

use crate::lit::{Lit, Var};

/// In [`Numbering::external`]: a variable of the solver's the caller never named (a fresh one).
const FRESH: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub(super) struct Numbering {
    /// By the caller's variable: the solver's.
    internal: Vec<Var>,
    /// By the solver's variable: the caller's, or [`FRESH`].
    external: Vec<u32>,
}

impl Numbering {
    /// The identity on the first `vars` variables; `None` when the memory is not to be had.
    pub(super) fn identity(vars: u32) -> Option<Self> {
        let mut numbering = Numbering::default();
        numbering.try_reserve(vars).ok()?;
        numbering.internal.extend((0..vars).map(Var::from_index));
        numbering.external.extend(0..vars);
        Some(numbering)
    }

    /// Makes room for `more` variables on each side.
    pub(super) fn try_reserve(&mut self, more: u32) -> Result<(), TryReserveError> {
        self.internal.try_reserve(more as usize)?;
        self.external.try_reserve(more as usize)
    }

    /// How many variables the caller has named.
    pub(super) fn caller_vars(&self) -> u32 {
        self.internal.len() as u32
    }

    /// Records the solver's next variable as a fresh one.
    pub(super) fn push_fresh(&mut self) {
        self.external.push(FRESH);
    }

    /// Records the solver's next variable as the caller's next one.
    pub(super) fn push_caller(&mut self) {
        let internal = Var::from_index(self.external.len() as u32);
        self.external.push(self.internal.len() as u32);
        self.internal.push(internal);
    }

    /// The solver's literal for the caller's `lit` (which the caller has named).
    pub(super) fn internal_lit(&self, lit: Lit) -> Lit {
        Lit::new(self.internal[lit.var().index()], lit.is_negative())
    }

    /// The caller's literal for the solver's `lit` (not a fresh one).
    pub(super) fn external_lit(&self, lit: Lit) -> Lit {
        let external = self.external[lit.var().index()];
        debug_assert_ne!(
            external, FRESH,
            "a fresh variable has no number of the caller's"
        );
        Lit::new(Var::from_index(external), lit.is_negative())
    }

    /// The caller's variables' values, from the solver's (by variable).
    pub(super) fn external_values(&self, values: &[bool]) -> Vec<bool> {
        self.internal.iter().map(|v| values[v.index()]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lit::lit;

    #[test]
    fn caller_variables_named_after_a_fresh_one_get_the_next_numbers() {
        let mut numbering = Numbering::identity(2).unwrap();
        numbering.push_fresh();
        numbering.push_caller();
        assert_eq!(numbering.caller_vars(), 3);
        assert_eq!(numbering.internal_lit(lit(-2)), lit(-2));
        assert_eq!(numbering.internal_lit(lit(3)), lit(4));
        assert_eq!(numbering.external_lit(lit(-4)), lit(-3));
        let values = [true, false, true, false];
        assert_eq!(numbering.external_values(&values), vec![true, false, false]);
    }
}
