//! The extension stack: how the values of removed variables are found again.
//!
//! Simplification removes variables from the formula the search sees: an equivalent literal
//! is replaced by its representative, an eliminated variable's clauses by their resolvents.
//! Each removal first pushes here the clauses it takes away, each with a *witness*: a literal
//! of the clause, on the removed variable, that may be flipped to satisfy it. After the search
//! finds a model of what is left, [`Extension::extend`] walks the stack from the last push to
//! the first and, for each clause the values do not satisfy, makes its witness true
//! (Järvisalo, Heule and Biere, IJCAR 2012). An equivalence `x ≡ r` is pushed as the two
//! binary clauses `(x ∨ ¬r)` with witness `x` and `(¬x ∨ r)` with witness `¬x`. Cost: one pass
//! over the stack per model, linear in the literals pushed.
//!
//! A removed variable named again (by a later clause or an assumption) is put back:
//! [`Extension::take_back`] takes every clause pushed with a witness on it off the stack and
//! returns them for the solver to add again (a removed variable in them is put back the same
//! way, by the caller).

use crate::lit::{Lit, Var};

#[derive(Clone, Debug, Default)]
pub(super) struct Extension {
    /// The literals of the pushed clauses, one clause after another.
    lits: Vec<Lit>,
    /// Per pushed clause, in push order: its witness and where its literals start in `lits`.
    clauses: Vec<(Lit, u32)>,
    /// Per variable: whether it is removed from the formula the search sees.
    removed: Vec<bool>,
}

impl Extension {
    /// Whether `var` is removed from the formula the search sees.
    pub(super) fn is_removed(&self, var: Var) -> bool {
        self.removed.get(var.index()).copied().unwrap_or(false)
    }

    /// Marks `var` removed (its clauses must be pushed first).
    pub(super) fn remove(&mut self, var: Var) {
        if self.removed.len() <= var.index() {
            self.removed.resize(var.index() + 1, false);
        }
        self.removed[var.index()] = true;
    }

    /// Pushes a clause taken out of the formula, with the literal that may be flipped for it.
    pub(super) fn push(&mut self, witness: Lit, clause: &[Lit]) {
        debug_assert!(clause.contains(&witness));
        let start = u32::try_from(self.lits.len()).expect("extension stack beyond 2^32 literals");
        self.lits.extend_from_slice(clause);
        self.clauses.push((witness, start));
    }

    /// Whether nothing was pushed.
    pub(super) fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }

    fn clause(&self, i: usize) -> &[Lit] {
        let start = self.clauses[i].1 as usize;
        let end = self
            .clauses
            .get(i + 1)
            .map_or(self.lits.len(), |c| c.1 as usize);
        &self.lits[start..end]
    }

    /// Completes a model of the remaining formula (`value[v]`: variable `v` true; removed
    /// variables hold any value on entry) to a model of the formula before any removal.
    pub(super) fn extend(&self, value: &mut [bool]) {
        for i in (0..self.clauses.len()).rev() {
            let satisfied = self
                .clause(i)
                .iter()
                .any(|l| value[l.var().index()] == l.is_positive());
            if !satisfied {
                let witness = self.clauses[i].0;
                value[witness.var().index()] = witness.is_positive();
            }
        }
    }

    /// Puts `var` back: takes every clause whose witness is on `var` off the stack and returns
    /// them, to be added to the formula again.
    pub(super) fn take_back(&mut self, var: Var) -> Vec<Vec<Lit>> {
        if let Some(flag) = self.removed.get_mut(var.index()) {
            *flag = false;
        }
        let mut taken = Vec::new();
        let mut kept = Extension {
            removed: std::mem::take(&mut self.removed),
            ..Extension::default()
        };
        for i in 0..self.clauses.len() {
            let witness = self.clauses[i].0;
            if witness.var() == var {
                taken.push(self.clause(i).to_vec());
            } else {
                kept.push(witness, self.clause(i));
            }
        }
        *self = kept;
        taken
    }
}

/// What the solver keeps between calls about removing variables: which may never be removed,
/// and whether elimination has run (`eliminate`).
#[derive(Clone, Debug, Default)]
pub(super) struct Simplifier {
    /// Elimination has run to its end or its effort bound (it runs once; a run a limit
    /// stopped is taken up again by the next solve).
    pub(super) done: bool,
    /// By variable: never substituted or eliminated (assumptions', projections').
    pub(super) frozen: Vec<bool>,
    /// The search's propagations when simplification last ran: the passes' budgets grow
    /// with the propagations since (`budget`).
    pub(super) propagations_mark: u64,
    /// The elimination rounds' schedule, bound and fingerprints (`elim_rounds`).
    pub(super) rounds: Rounds,
}

impl Simplifier {
    /// Whether `var` is frozen: never substituted or eliminated.
    pub(super) fn is_frozen(&self, var: Var) -> bool {
        self.frozen.get(var.index()).copied().unwrap_or(false)
    }
}

/// What the rounds keep between them. The rounds themselves are in `elim_rounds`.
#[derive(Clone, Debug, Default)]
pub(super) struct Rounds {
    /// Resolvents a variable may add beyond its clauses in the next run.
    pub(super) bound: u32,
    /// Rounds run so far (the `k`-th gap is `k` intervals).
    pub(super) count: u64,
    /// Conflicts at which the next round is due (0: at the first restart after the
    /// schedule is set, when the first run ends).
    pub(super) next: u64,
    /// The search's propagations when elimination last ran.
    pub(super) propagations_mark: u64,
    /// What the last run left, to see whether anything changed (`Solver::change_key`).
    pub(super) key: Option<[u64; 5]>,
    /// By variable, the fingerprint of its clauses at the end of the last run (`None`: every
    /// clause is a subsumer and every variable a candidate in the next run; before the first
    /// run, or when the memory for the fingerprints was not to be had).
    pub(super) signature: Option<Vec<u64>>,
    /// The bound grew: every variable is a candidate in the next run.
    pub(super) every_candidate: bool,
}
