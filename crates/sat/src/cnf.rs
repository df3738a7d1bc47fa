//! Formulas in conjunctive normal form, and the trait encoders write clauses into.
//!
//! [`ClauseSink`] is "something clauses can be added to". An encoder written against it feeds
//! an in-memory [`Cnf`], a [`crate::DimacsWriter`] streaming to a file, a [`ClauseCounter`] that
//! only sizes the formula (for a DIMACS header), or a live [`crate::Solver`], without copies and
//! without one encoder per format.
//!
//! ```
//! use nqueens_sat::{ClauseSink, Cnf, Lit};
//! fn at_most_one(sink: &mut impl ClauseSink, lits: &[Lit]) {
//!     for (i, &a) in lits.iter().enumerate() {
//!         for &b in &lits[i + 1..] {
//!             sink.add_clause(&[!a, !b]);
//!         }
//!     }
//! }
//! let mut cnf = Cnf::new();
//! let lits: Vec<Lit> = (0..3).map(|_| Lit::positive(cnf.new_var())).collect();
//! at_most_one(&mut cnf, &lits);
//! assert_eq!(cnf.len(), 3);
//! assert_eq!(cnf.to_string(), "p cnf 3 3\n-1 -2 0\n-1 -3 0\n-2 -3 0\n");
//! ```

use std::fmt;

use crate::error::Error;
use crate::lit::{Lit, Var};

/// Something clauses can be added to.
///
/// Variables are numbered from 0 in creation order. [`ClauseSink::add_clause`] accepts
/// literals of variables not created yet; every implementation in this crate then creates
/// them (the [`crate::DimacsWriter`] reports literals beyond its header when it finishes).
pub trait ClauseSink {
    /// The number of variables so far.
    fn num_vars(&self) -> u32;

    /// Makes sure variables `0..count` exist.
    fn ensure_vars(&mut self, count: u32);

    /// Records that the formula has variables `0..count`, some perhaps in no clause (a DIMACS
    /// header's count). A sink that only counts treats it as [`ClauseSink::ensure_vars`] (the
    /// default); a sink that allocates per variable, such as the [`crate::Solver`], may ignore
    /// it and grow as literals arrive, so a header's claim alone never costs memory.
    fn declare_vars(&mut self, count: u32) {
        self.ensure_vars(count);
    }

    /// `Err` once the sink could not keep what it was given (a [`crate::Solver`] that ran out
    /// of memory; it drops every clause after that). Readers and encoders may check it to stop
    /// early; [`crate::read_dimacs`] does after every clause. Always `Ok` by default.
    fn status(&self) -> Result<(), Error> {
        Ok(())
    }

    /// Adds the clause `lits[0] ∨ lits[1] ∨ …` (the empty slice is the false clause).
    fn add_clause(&mut self, lits: &[Lit]);

    /// Creates a fresh variable.
    fn new_var(&mut self) -> Var {
        let var = Var::from_index(self.num_vars());
        self.ensure_vars(var.as_u32() + 1);
        var
    }
}

impl<S: ClauseSink + ?Sized> ClauseSink for &mut S {
    fn num_vars(&self) -> u32 {
        (**self).num_vars()
    }

    fn ensure_vars(&mut self, count: u32) {
        (**self).ensure_vars(count)
    }

    fn declare_vars(&mut self, count: u32) {
        (**self).declare_vars(count)
    }

    fn status(&self) -> Result<(), Error> {
        (**self).status()
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        (**self).add_clause(lits)
    }

    fn new_var(&mut self) -> Var {
        (**self).new_var()
    }
}

/// The number of variables a clause list needs: one past the largest variable.
fn vars_needed(lits: &[Lit]) -> u32 {
    lits.iter().map(|l| l.var().as_u32() + 1).max().unwrap_or(0)
}

/// A CNF formula in memory: clauses stored back to back in one vector.
///
/// Clauses keep the literals and the order they were added with (no sorting, no removal of
/// duplicates), so a formula written out is the formula put in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    num_vars: u32,
    lits: Vec<Lit>,
    /// `ends[i]` is one past the last literal of clause `i`.
    ends: Vec<usize>,
}

impl Cnf {
    /// The empty formula (true), with no variables.
    pub fn new() -> Self {
        Cnf::default()
    }

    /// The number of clauses.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no clause.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Clause `i`.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    pub fn clause(&self, i: usize) -> &[Lit] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.lits[start..self.ends[i]]
    }

    /// The clauses in order.
    pub fn clauses(&self) -> impl ExactSizeIterator<Item = &[Lit]> + '_ {
        (0..self.len()).map(|i| self.clause(i))
    }

    /// The total number of literals.
    pub fn num_lits(&self) -> usize {
        self.lits.len()
    }

    /// Adds every clause of this formula to `sink`, and declares its variables
    /// ([`ClauseSink::declare_vars`]: a solver allocates only those the clauses use).
    pub fn add_to(&self, sink: &mut (impl ClauseSink + ?Sized)) {
        sink.declare_vars(self.num_vars);
        for clause in self.clauses() {
            sink.add_clause(clause);
        }
    }

    /// The index of the first clause that `model` falsifies, or `None` when `model` satisfies
    /// every clause. Variables beyond the model count as false.
    pub fn first_falsified(&self, model: &Model) -> Option<usize> {
        self.clauses()
            .position(|clause| !clause.iter().any(|&l| model.lit_is_true(l)))
    }

    /// Whether `model` satisfies every clause.
    pub fn is_satisfied_by(&self, model: &Model) -> bool {
        self.first_falsified(model).is_none()
    }
}

impl ClauseSink for Cnf {
    fn num_vars(&self) -> u32 {
        self.num_vars
    }

    fn ensure_vars(&mut self, count: u32) {
        self.num_vars = self.num_vars.max(count);
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.ensure_vars(vars_needed(lits));
        self.lits.extend_from_slice(lits);
        self.ends.push(self.lits.len());
    }
}

impl fmt::Display for Cnf {
    /// The formula in DIMACS format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "p cnf {} {}", self.num_vars, self.len())?;
        for clause in self.clauses() {
            for lit in clause {
                write!(f, "{lit} ")?;
            }
            writeln!(f, "0")?;
        }
        Ok(())
    }
}

/// A sink that only counts: variables, clauses, literals and binary clauses. Run an encoder
/// into it first to learn the header of a DIMACS file before streaming the clauses, or what a
/// solver for the formula would need ([`crate::Solver::estimated_bytes`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClauseCounter {
    /// Variables.
    pub vars: u32,
    /// Clauses.
    pub clauses: u64,
    /// Literals, over all clauses.
    pub lits: u64,
    /// Clauses of exactly two literals (a solver keeps them apart, for less).
    pub binary: u64,
}

impl ClauseSink for ClauseCounter {
    fn num_vars(&self) -> u32 {
        self.vars
    }

    fn ensure_vars(&mut self, count: u32) {
        self.vars = self.vars.max(count);
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.ensure_vars(vars_needed(lits));
        self.clauses += 1;
        self.lits += lits.len() as u64;
        self.binary += u64::from(lits.len() == 2);
    }
}

/// A total assignment: the value of every variable of a satisfied formula.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Model {
    values: Vec<bool>,
}

impl Model {
    /// The model giving variable `i` the value `values[i]`.
    pub fn from_values(values: Vec<bool>) -> Self {
        Model { values }
    }

    /// The number of variables.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the model has no variable.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value of `var` (false for variables beyond the model).
    #[inline]
    pub fn value(&self, var: Var) -> bool {
        self.values.get(var.index()).copied().unwrap_or(false)
    }

    /// Whether `lit` is true.
    #[inline]
    pub fn lit_is_true(&self, lit: Lit) -> bool {
        self.value(lit.var()) != lit.is_negative()
    }

    /// The value of each variable, in order.
    pub fn values(&self) -> &[bool] {
        &self.values
    }

    /// The true literal of each variable, in order (the SAT-competition `v` line).
    pub fn lits(&self) -> impl ExactSizeIterator<Item = Lit> + '_ {
        self.values
            .iter()
            .enumerate()
            .map(|(i, &v)| Lit::new(Var::from_index(i as u32), !v))
    }
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.lits()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(numbers: &[i32]) -> Vec<Lit> {
        numbers
            .iter()
            .map(|&n| Lit::from_dimacs(n.into()).unwrap())
            .collect()
    }

    #[test]
    fn clauses_come_back_in_order_and_vars_grow_on_demand() {
        let mut cnf = Cnf::new();
        cnf.add_clause(&lits(&[1, -3]));
        cnf.add_clause(&[]);
        cnf.add_clause(&lits(&[2]));
        assert_eq!(cnf.num_vars(), 3);
        assert_eq!(cnf.len(), 3);
        assert_eq!(cnf.clause(0), lits(&[1, -3]));
        assert!(cnf.clause(1).is_empty());
        assert_eq!(cnf.num_lits(), 3);
        assert_eq!(cnf.to_string(), "p cnf 3 3\n1 -3 0\n0\n2 0\n");
    }

    #[test]
    fn models_are_checked_clause_by_clause() {
        let mut cnf = Cnf::new();
        cnf.add_clause(&lits(&[1, -2]));
        cnf.add_clause(&lits(&[2]));
        assert!(cnf.is_satisfied_by(&Model::from_values(vec![true, true])));
        assert_eq!(
            cnf.first_falsified(&Model::from_values(vec![false, true])),
            Some(0)
        );
        assert_eq!(cnf.first_falsified(&Model::from_values(vec![])), Some(1));
    }

    #[test]
    fn the_counter_sizes_what_the_formula_holds() {
        let mut cnf = Cnf::new();
        cnf.add_clause(&lits(&[1, -5]));
        cnf.add_clause(&lits(&[2, 3, 4]));
        let mut counter = ClauseCounter::default();
        cnf.add_to(&mut counter);
        assert_eq!(
            counter,
            ClauseCounter {
                vars: 5,
                clauses: 2,
                lits: 5,
                binary: 1,
            }
        );
    }
}
