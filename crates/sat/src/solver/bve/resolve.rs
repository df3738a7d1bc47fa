//! One elimination step: the resolvents of a variable, counted first and built when the
//! bounds let it go, and the clauses it leaves pushed onto the extension stack.
//!
//! Gates: when `x`'s clauses hold an AND gate (`x = a_1 ∧ … ∧ a_k`: the binary clauses
//! `(¬x ∨ a_i)` and the clause `(x ∨ ¬a_1 ∨ … ∨ ¬a_k)`; or the same for `¬x`; with `k = 1`,
//! an equivalence), only the gate clauses are resolved against the others: resolvents of two
//! gate clauses are tautologies, and those of two other clauses follow from the rest (Eén and
//! Biere 2005; CaDiCaL and Kissat do the same, Järvisalo, Biere and Heule, TACAS 2010). The
//! extension stack still gets every clause of `x`; the value `x = a_1 ∧ … ∧ a_k` satisfies
//! them all in a model of what is left, so at most one side is ever unsatisfied and the
//! witness flip finds it. XOR and ITE gates are not looked for.
//!
//! Cost: an attempt spends a tick per literal of each pair it resolves (the budget of
//! [`Bve::run`]'s elimination phase) and allocates nothing until the variable goes, when the
//! resolvents are built by a second walk over the same pairs. Most attempts are refused:
//! building each resolvent on the way, only to drop them, cost about 3 % of the whole solve
//! of `qg5-13` (1.09 against 1.06 s, the same search).

use super::{Bve, MAX_RESOLVENT, mark_of};
use crate::lit::{Lit, Var};

impl Bve<'_> {
    /// The live clauses holding `lit` (the list is compacted on the way).
    fn live_occurrences(&mut self, lit: Lit) -> Vec<u32> {
        let clauses = &self.clauses;
        self.occs[lit.index()].retain(|&id| !clauses[id as usize].is_empty());
        self.occs[lit.index()].clone()
    }

    /// Walks the literals clause `neg` brings to its resolvent on `x` with clause `pos` (whose
    /// other literals are marked): `add` gets each one `pos` lacks. `false` when the resolvent
    /// is a tautology (the walk stops there).
    fn resolve_neg_side(&self, neg: u32, x: Var, mut add: impl FnMut(Lit)) -> bool {
        for &l in &self.clauses[neg as usize] {
            if l.var() == x {
                continue;
            }
            match self.marks[l.var().index()] {
                0 => add(l),
                mark if (mark > 0) == l.is_positive() => {}
                _ => return false,
            }
        }
        true
    }

    /// The length of the resolvent of clauses `pos` (holding `x`, its other literals marked)
    /// and `neg` on `x`, or `None` when it is a tautology; nothing is built.
    fn resolvent_len(&self, pos: u32, neg: u32, x: Var) -> Option<usize> {
        let mut len = self.clauses[pos as usize].len() - 1;
        self.resolve_neg_side(neg, x, |_| len += 1).then_some(len)
    }

    /// The resolvent of clauses `pos` (holding `x`, its other literals marked) and `neg` on
    /// `x`, or `None` when it is a tautology.
    fn resolve(&self, pos: u32, neg: u32, x: Var) -> Option<Vec<Lit>> {
        let mut resolvent: Vec<Lit> = self.clauses[pos as usize]
            .iter()
            .copied()
            .filter(|l| l.var() != x)
            .collect();
        self.resolve_neg_side(neg, x, |l| resolvent.push(l))
            .then_some(resolvent)
    }

    /// An AND gate (or, with one input, an equivalence) among the clauses of a variable:
    /// `binary` holds the clauses with literal `y`, `long` those with `¬y`, and the gate is
    /// `¬y = a_1 ∧ … ∧ a_k`, that is the binary clauses `(y ∨ a_i)` and the clause
    /// `(¬y ∨ ¬a_1 ∨ … ∨ ¬a_k)`, `y` a literal of `shared`. Returns which clauses of each side
    /// are the gate's.
    fn and_gate(
        &mut self,
        shared: Var,
        binary: &[u32],
        long: &[u32],
    ) -> Option<(Vec<bool>, Vec<bool>)> {
        self.budget.spend((binary.len() + long.len()) as u64);
        let mut inputs = Vec::new();
        for &b in binary {
            let clause = &self.clauses[b as usize];
            if clause.len() == 2 {
                let other = if clause[0].var() == shared {
                    clause[1]
                } else {
                    clause[0]
                };
                self.marks[other.var().index()] = mark_of(other);
                inputs.push(other);
            }
        }
        let mut found = None;
        for (j, &c) in long.iter().enumerate() {
            let clause = &self.clauses[c as usize];
            let all_inputs = clause.iter().all(|&l| {
                let mark = self.marks[l.var().index()];
                l.var() == shared || (mark != 0 && (mark > 0) != l.is_positive())
            });
            if all_inputs {
                found = Some(j);
                break;
            }
        }
        for &input in &inputs {
            self.marks[input.var().index()] = 0;
        }
        let j = found?;
        let gate = &self.clauses[long[j] as usize];
        let binary_flags = binary
            .iter()
            .map(|&b| {
                let clause = &self.clauses[b as usize];
                clause.len() == 2
                    && clause
                        .iter()
                        .all(|&l| l.var() == shared || gate.contains(&!l))
            })
            .collect();
        let long_flags = (0..long.len()).map(|i| i == j).collect();
        Some((binary_flags, long_flags))
    }

    /// The resolvents on `x`, or `None` when eliminating it would break a bound. With a gate
    /// (`gate`: which clauses of `pos` and of `neg` define `x`), only gate clauses are
    /// resolved against the others: the resolvents of two gate clauses are tautologies, those
    /// of two others follow from the rest (Eén and Biere 2005). The resolvents are counted
    /// first and built only when the bounds let `x` go (most tries are refused).
    fn resolvents(
        &mut self,
        x: Var,
        pos: &[u32],
        neg: &[u32],
        gate: Option<&(Vec<bool>, Vec<bool>)>,
    ) -> Option<Vec<Vec<Lit>>> {
        let bound = pos.len() + neg.len() + self.extra;
        let mut count = 0;
        let refused = self.each_pair(pos, neg, gate, |bve, p, n| {
            bve.budget
                .spend((bve.clauses[p as usize].len() + bve.clauses[n as usize].len()) as u64);
            if let Some(len) = bve.resolvent_len(p, n, x) {
                count += 1;
                if len > MAX_RESOLVENT || count > bound {
                    return true;
                }
            }
            false
        });
        if refused {
            return None;
        }
        let mut resolvents = Vec::with_capacity(count);
        self.each_pair(pos, neg, gate, |bve, p, n| {
            resolvents.extend(bve.resolve(p, n, x));
            false
        });
        Some(resolvents)
    }

    /// Calls `visit` on each pair of a clause of `pos` (its literals marked) and a clause of
    /// `neg` to be resolved (with a gate, a gate clause and another), until it returns `true`;
    /// returns whether it did.
    fn each_pair(
        &mut self,
        pos: &[u32],
        neg: &[u32],
        gate: Option<&(Vec<bool>, Vec<bool>)>,
        mut visit: impl FnMut(&mut Self, u32, u32) -> bool,
    ) -> bool {
        for (i, &p) in pos.iter().enumerate() {
            for &l in &self.clauses[p as usize] {
                self.marks[l.var().index()] = mark_of(l);
            }
            // With a gate, a pair of two gate clauses or of two others is not resolved.
            let resolved = |j: usize| gate.is_none_or(|(gp, gn)| gp[i] != gn[j]);
            let stopped = neg
                .iter()
                .enumerate()
                .any(|(j, &n)| resolved(j) && visit(self, p, n));
            for &l in &self.clauses[p as usize] {
                self.marks[l.var().index()] = 0;
            }
            if stopped {
                return true;
            }
        }
        false
    }

    /// Eliminates `x` if the bounds allow (see the module documentation).
    pub(super) fn try_eliminate(&mut self, x: Var) {
        let (pos_lit, neg_lit) = (Lit::positive(x), Lit::negative(x));
        let pos = self.live_occurrences(pos_lit);
        let neg = self.live_occurrences(neg_lit);
        let both = !pos.is_empty() && !neg.is_empty();
        if both && (pos.len() > self.max_occurrences || neg.len() > self.max_occurrences) {
            return;
        }
        let gate = if both {
            // x = AND of inputs: binaries (¬x ∨ a_i) and (x ∨ ¬a_1 ∨ …); or ¬x = AND.
            match self.and_gate(x, &neg, &pos) {
                Some((neg_flags, pos_flags)) => Some((pos_flags, neg_flags)),
                None => self.and_gate(x, &pos, &neg),
            }
        } else {
            None
        };
        if gate.is_some() {
            self.counts.gates += 1;
        }
        let Some(resolvents) = self.resolvents(x, &pos, &neg, gate.as_ref()) else {
            return;
        };
        for &id in &pos {
            self.extension.push(pos_lit, &self.clauses[id as usize]);
        }
        for &id in &neg {
            self.extension.push(neg_lit, &self.clauses[id as usize]);
        }
        self.extension.remove(x);
        self.counts.eliminated += 1;
        for resolvent in resolvents {
            if let Some(proof) = self.proof.as_deref_mut() {
                proof.add(resolvent.iter().copied());
            }
            let vars: Vec<Var> = resolvent.iter().map(|l| l.var()).collect();
            self.add(resolvent);
            for var in vars {
                self.touch(var);
            }
        }
        for id in pos.into_iter().chain(neg) {
            self.remove(id, true);
        }
    }
}
