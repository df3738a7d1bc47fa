//! Bounded variable addition ("factoring"): a fresh variable stands for the part many clauses
//! share (Manthey, Heule and Biere, "Automated Reencoding of Boolean Formulas", HVC 2012,
//! their SimpleBVA; Kissat's `factor`).
//!
//! When the clauses `l_i ∨ C_j` are in the set for every `l_i` of a set `L` (the *factors*) and
//! every `C_j` of a set `Q` (the *quotients*), the `|L|·|Q|` clauses are replaced by the
//! `|L| + |Q|` clauses `x ∨ C_j` and `¬x ∨ l_i`, `x` a fresh variable: resolving on `x` gives
//! back each product, and every model of the old set extends to the new one (`x` true when
//! every `l_i` is, false otherwise, when every `C_j` holds), so the two sets agree on the old
//! variables whatever is added later. A replacement is made only when it removes more
//! clauses than the elimination bound lets a later elimination add back
//! ([`Bve::extra`](super::Bve)), so elimination never undoes it (Kissat's rule).
//!
//! The search for `L` and `Q` (SimpleBVA's): literals in order of their occurrences, most
//! first. For a literal `l`, `Q` starts as its clauses of at most [`MAX_SIZE`] literals (each
//! less `l`) and `L` as `{l}`; then, while it pays, the literal `l'` that completes the most
//! quotients to clauses of the set (`C_j ∨ l'`, found through the occurrences of each
//! quotient's rarest literal) joins `L`, and `Q` keeps the quotients it completes. The
//! reduction `|L|·|Q| − |L| − |Q|` must grow with each literal added.
//!
//! Proofs: each `x ∨ C_j` is written first, RAT on `x` (no clause holds `¬x` yet), then each
//! `¬x ∨ l_i`, RAT on `¬x` (its resolvents with the `x ∨ C_j` are the products, still in the
//! set), then the products are deleted.
//!
//! Cost: the ticks count the occurrence lists read (one per entry) within the budget the
//! caller sets; a fresh variable adds two occurrence lists to the set and one variable to
//! the solver.

use std::collections::BinaryHeap;

use super::{Bve, mark_of};
use crate::lit::{Lit, Var};

/// Clauses longer than this are neither factored nor matched (Kissat's `factorsize`).
pub(in crate::solver) const MAX_SIZE: usize = 5;

/// What one factoring step looks at: per quotient (a clause holding the literal first
/// factored), the clauses that hold it with each later factor.
struct Matching {
    /// The factors, the first one the literal the step started from.
    factors: Vec<Lit>,
    /// The clauses `l_1 ∨ C_j`, one per quotient.
    quotients: Vec<u32>,
    /// Per quotient, the clauses `l_i ∨ C_j` for the later factors `l_2, l_3, …`, in order.
    products: Vec<Vec<u32>>,
}

/// Walks one factor's pairs `(factor, quotient's position, product clause)`, sorted, and gives
/// each quotient the first of its product clauses not yet claimed in `epoch`, claiming it:
/// `visit(quotient's position, product clause)`. Two quotients with the same literals (the same
/// clause twice) share their products, and only the first gets them.
fn claim_products(
    group: &[(u32, u32, u32)],
    claimed: &mut [u32],
    epoch: u32,
    mut visit: impl FnMut(u32, u32),
) {
    let mut last_quotient = u32::MAX;
    for &(_, at, product) in group {
        if at != last_quotient && claimed[product as usize] != epoch {
            claimed[product as usize] = epoch;
            last_quotient = at;
            visit(at, product);
        }
    }
}

/// The reduction in clauses that replacing `factors · quotients` clauses by their sum makes.
fn reduction(factors: usize, quotients: usize) -> i64 {
    let (f, q) = (factors as i64, quotients as i64);
    f * q - f - q
}

impl Bve<'_> {
    /// Factors the live clauses within `ticks` (see the [module documentation](self)); the
    /// fresh variables are numbered after the set's, in order.
    pub(super) fn factor(&mut self, ticks: u64) {
        self.budget.set_left(ticks);
        let mut queue: BinaryHeap<(u32, u32)> = (0..self.count.len() as u32)
            .filter(|&code| self.count[code as usize] >= 2 && self.value[code as usize] == 0)
            .map(|code| (self.count[code as usize], code))
            .collect();
        // (factor's code, quotient's position, product clause), for one step's round.
        let mut pairs: Vec<(u32, u32, u32)> = Vec::new();
        let mut claimed: Vec<u32> = Vec::new();
        let mut epoch = 0u32;
        while let Some((count, code)) = queue.pop() {
            if self.inconsistent || self.budget.exhausted() {
                break;
            }
            let now = self.count[code as usize];
            if self.value[code as usize] != 0 || now < 2 {
                continue;
            }
            if now != count {
                queue.push((now, code));
                continue;
            }
            let lit = Lit::from_code(code);
            let Some(matching) = self.match_factors(lit, &mut pairs, &mut claimed, &mut epoch)
            else {
                continue;
            };
            if reduction(matching.factors.len(), matching.quotients.len()) <= self.extra as i64 {
                continue;
            }
            let Some(fresh) = self.apply(&matching) else {
                break;
            };
            for l in [lit, Lit::positive(fresh), Lit::negative(fresh)] {
                queue.push((self.count[l.index()], l.code()));
            }
        }
    }

    /// The factors and quotients SimpleBVA finds from `lit`; `None` when there are fewer than
    /// two factors (`lit` has fewer than two short clauses, or no literal completes enough of
    /// them) or the budget ran out.
    fn match_factors(
        &mut self,
        lit: Lit,
        pairs: &mut Vec<(u32, u32, u32)>,
        claimed: &mut Vec<u32>,
        epoch: &mut u32,
    ) -> Option<Matching> {
        let mut matching = Matching {
            factors: vec![lit],
            quotients: self.occs[lit.index()]
                .iter()
                .copied()
                .filter(|&id| {
                    let clause = &self.clauses[id as usize];
                    (2..=MAX_SIZE).contains(&clause.len())
                })
                .collect(),
            products: Vec::new(),
        };
        self.budget.spend(self.occs[lit.index()].len() as u64);
        if matching.quotients.len() < 2 {
            return None;
        }
        matching.products = vec![Vec::new(); matching.quotients.len()];
        loop {
            pairs.clear();
            for (at, &id) in matching.quotients.iter().enumerate() {
                if !self.find_products(lit, id, at as u32, &matching.factors, pairs) {
                    return None;
                }
            }
            // The factor completing the most quotients, each product clause used once.
            pairs.sort_unstable();
            claimed.resize(self.clauses.len(), 0);
            *epoch += 1;
            let (mut best, mut best_count) = (None, 0usize);
            let mut start = 0;
            while start < pairs.len() {
                let code = pairs[start].0;
                let end = start + pairs[start..].partition_point(|p| p.0 == code);
                let mut count = 0;
                claim_products(&pairs[start..end], claimed, *epoch, |_, _| count += 1);
                if count > best_count {
                    (best, best_count) = (Some(start..end), count);
                }
                start = end;
            }
            let Some(group) = best else {
                break;
            };
            let (factors, quotients) = (matching.factors.len(), matching.quotients.len());
            if reduction(factors + 1, best_count) <= reduction(factors, quotients) {
                break;
            }
            // Keep the quotients the new factor completes, with their products.
            *epoch += 1;
            let mut kept = Matching {
                factors: std::mem::take(&mut matching.factors),
                quotients: Vec::with_capacity(best_count),
                products: Vec::with_capacity(best_count),
            };
            kept.factors.push(Lit::from_code(pairs[group.start].0));
            claim_products(&pairs[group], claimed, *epoch, |at, product| {
                let mut products = std::mem::take(&mut matching.products[at as usize]);
                products.push(product);
                kept.quotients.push(matching.quotients[at as usize]);
                kept.products.push(products);
            });
            matching = kept;
        }
        (matching.factors.len() >= 2).then_some(matching)
    }

    /// Pushes onto `pairs` every clause `C ∨ l'` of the set, `C` clause `id` less `lit` and
    /// `l'` a literal not yet a factor (nor `lit`'s negation): `(l', at, clause)`. False when
    /// the budget ran out.
    fn find_products(
        &mut self,
        lit: Lit,
        id: u32,
        at: u32,
        factors: &[Lit],
        pairs: &mut Vec<(u32, u32, u32)>,
    ) -> bool {
        let clause = &self.clauses[id as usize];
        let Some(&rarest) = clause
            .iter()
            .filter(|&&l| l != lit)
            .min_by_key(|l| self.count[l.index()])
        else {
            return true;
        };
        for &l in clause {
            if l != lit {
                self.marks[l.var().index()] = mark_of(l);
            }
        }
        let size = clause.len();
        for &other in &self.occs[rarest.index()] {
            let candidate = &self.clauses[other as usize];
            if other == id || candidate.len() != size {
                continue;
            }
            let mut extra = None;
            let mut matched = true;
            for &l in candidate {
                if self.marks[l.var().index()] == mark_of(l) {
                    continue;
                }
                if extra.is_some() {
                    matched = false;
                    break;
                }
                extra = Some(l);
            }
            if let (true, Some(extra)) = (matched, extra)
                && extra != lit
                && extra != !lit
                && !factors.contains(&extra)
            {
                pairs.push((extra.code(), at, other));
            }
        }
        for &l in &self.clauses[id as usize] {
            self.marks[l.var().index()] = 0;
        }
        self.budget.spend(self.occs[rarest.index()].len() as u64)
    }

    /// Replaces the products of `matching` by the clauses on a fresh variable, which it
    /// returns; `None` when the memory for it is not to be had.
    fn apply(&mut self, matching: &Matching) -> Option<Var> {
        let first = matching.factors[0];
        let fresh = self.fresh_var()?;
        let x = Lit::positive(fresh);
        let mut added = Vec::with_capacity(matching.quotients.len() + matching.factors.len());
        for &id in &matching.quotients {
            let mut clause = Vec::with_capacity(self.clauses[id as usize].len());
            clause.push(x);
            clause.extend(self.clauses[id as usize].iter().filter(|&&l| l != first));
            added.push(clause);
        }
        added.extend(matching.factors.iter().map(|&f| vec![!x, f]));
        if let Some(proof) = self.proof.as_deref_mut() {
            for clause in &added {
                proof.add(clause.iter().copied());
            }
        }
        for (at, &id) in matching.quotients.iter().enumerate() {
            self.remove(id, true);
            for &product in &matching.products[at] {
                self.remove(product, true);
            }
        }
        let removed = matching.quotients.len() * matching.factors.len();
        self.counts.factored_vars += 1;
        self.counts.factored_clauses += (removed - added.len()) as u64;
        for clause in added {
            self.add(clause);
        }
        Some(fresh)
    }

    /// A variable after the set's, with empty occurrence lists; `None` when the memory is not
    /// to be had.
    fn fresh_var(&mut self) -> Option<Var> {
        let var = Var::from_index(self.marks.len() as u32);
        self.occs.try_reserve(2).ok()?;
        self.count.try_reserve(2).ok()?;
        self.value.try_reserve(2).ok()?;
        self.marks.try_reserve(1).ok()?;
        self.occs.extend([Vec::new(), Vec::new()]);
        self.count.extend([0, 0]);
        self.value.extend([0, 0]);
        self.marks.push(0);
        Some(var)
    }
}
