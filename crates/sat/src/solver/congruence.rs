//! Equivalences from gates by congruence closure: two gates of the same kind on equivalent
//! inputs have equivalent outputs.
//!
//! Circuits encoded by Tseitin's transformation (hardware and software verification: the
//! CBMC formulas of the structured set) often compute one function twice, under two
//! variable names. The binary implication graph does not see it: the equivalence of the two
//! outputs follows from their gates, not from binary clauses. This pass finds such outputs
//! (Biere, Fazekas, Fleury and Froleyks, "Clausal Congruence Closure", SAT 2024; Kissat's
//! `congruence`) and adds each equivalence found as two binary clauses; equivalent-literal
//! substitution (`els`), which runs right after it, then replaces them, and its extension
//! stack gives the replaced variables their values in models.
//!
//! **Gates**, read from the irredundant clauses at level 0 (all binary clauses, which are
//! irredundant or implied ones, and the long clauses the input gave or simplification made),
//! on unassigned variables only (so every binary clause added is on two free literals, as the
//! watch invariant wants):
//!
//! - AND: a long clause `x ∨ ¬a ∨ ¬b ∨ …` whose every other literal has the binary clause
//!   `¬x ∨ a`, `¬x ∨ b`, …: `x = a ∧ b ∧ …` (found per literal `x`: its binary implications
//!   marked, then the long clauses that hold `x` read);
//! - XOR of two or three inputs: the four clauses of three variables (eight of four) whose
//!   signs have one parity: `x ⊕ a ⊕ b = r`, one gate for each variable as the output;
//! - if-then-else: `¬x ∨ ¬c ∨ t`, `x ∨ ¬c ∨ ¬t`, `¬x ∨ c ∨ e`, `x ∨ c ∨ ¬e`:
//!   `x = c ? t : e` (two *conditional equivalences* of `x` under `c` and `¬c`, each two
//!   ternary clauses).
//!
//! **The closure.** A union-find over literals (a variable's parent is a literal, so each
//! class has a representative literal and its negation the negated class) starts with every
//! literal alone. Each gate is brought to a normal form under it: its inputs replaced by
//! their representatives; AND inputs sorted and repeats dropped; XOR inputs made positive
//! (the output's sign takes the parity) and pairs cancelled; an if-then-else's condition
//! made positive (swapping the branches) and its then-branch too (negating the else-branch
//! and the output). Gates are hashed by kind and normal inputs; a gate whose key is in the
//! table already has an output equivalent to the table's gate's: the two classes are merged.
//! A gate that collapses (an AND of one input, an XOR of one, an if-then-else with equal
//! branches) makes its output equivalent to that input. After a merge the gates with an input
//! in the absorbed class are normalised and hashed again, until nothing merges. A merge of a
//! class with its negation refutes the formula.
//!
//! **Proofs.** Each merge `p ≡ q` is written as the two lemmas `¬p ∨ q` and `p ∨ ¬q` at
//! once, so the classes are held together by binary lemmas the checker propagates through.
//! For an AND gate each lemma is RUP as it stands: with `p` true its binary clauses make its
//! inputs true, the merged classes make the other gate's inputs true, and that gate's long
//! clause makes `q` true (the other way round the same). XOR and if-then-else gates need a
//! case split: the lemma is derived from the same clause extended by every sign combination of
//! all but the last input of the gate (each of those RUP: with the output and those inputs
//! set, the gate's clauses fix the last input, and then everything), resolved back two by two
//! and the longer clauses deleted.
//!
//! **Cost.** It runs once per simplification, before its first substitution (not again in the
//! later rounds probing's units start). Ticks: one per clause literal read into the occurrence
//! lists and per literal a gate search reads, one per input of a gate hashed. The budget is
//! [`CONGRUENCE_BUDGET_BASE`] plus a share of the search's propagations since the last
//! simplification, as substitution's; a budget spent or a limit reached ends the pass where it
//! is (every equivalence written so far is sound and stays). Memory: the occurrence lists of
//! the long clauses (one word per literal, allocated fallibly), the short clauses' shapes
//! (their variables and sign pattern, 20 bytes each, fallibly), sorted to group them (a sort,
//! not a hash map: no hash and no allocation per clause), the gates (their inputs) and the hash
//! table of normal gates, for the pass only.

use std::collections::HashMap;

use super::Solver;
use super::budget::PassBudget;
use super::clause_db::ClauseRef;
use crate::lit::{Lit, Var};

/// Ticks congruence closure may spend on any formula.
const CONGRUENCE_BUDGET_BASE: u64 = 1_000_000;
/// Ticks it may spend per thousand search propagations since the last simplification.
const CONGRUENCE_SHARE_PERMILLE: u64 = 20;
/// If-then-else gates formed per output and condition at most.
const ITE_PAIRS: usize = 4;

/// A rough upper estimate of what the pass holds while it runs, for a formula with
/// `long_lits` literals in long clauses and `vars` variables: per long-clause literal its
/// occurrence (4 bytes) and room for one gate read from it (the gate, its inputs, its entry
/// in the table and the use lists: 124 bytes); per variable the offsets, marks, classes and
/// use lists (40 bytes).
pub(super) fn congruence_bytes(long_lits: u64, vars: u32) -> u64 {
    long_lits
        .saturating_mul(128)
        .saturating_add(u64::from(vars).saturating_mul(40))
}

/// The kind of a gate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    And,
    Xor,
    Ite,
}

/// A gate: `out` is the function `kind` of `inputs` (the literals as read; for an
/// if-then-else the condition, the then- and the else-branch).
#[derive(Clone, Debug)]
struct Gate {
    kind: Kind,
    out: Lit,
    inputs: Vec<Lit>,
}

/// A gate under the current classes.
enum Normal {
    /// Hashed by its kind and these inputs; its output (sign adjusted) is the literal.
    Key(Vec<Lit>, Lit),
    /// The gate collapsed: the two literals are equivalent.
    Equal(Lit, Lit),
    /// Nothing to hash (a constant output, a degenerate gate).
    Skip,
}

/// A union-find over literals: `parent[v]` is a literal equivalent to `v` positive (itself
/// for a representative).
struct Classes {
    parent: Vec<Lit>,
}

impl Classes {
    fn new(vars: u32) -> Classes {
        Classes {
            parent: (0..vars)
                .map(|v| Lit::positive(Var::from_index(v)))
                .collect(),
        }
    }

    /// The representative of `lit`'s class (with path compression).
    fn find(&mut self, lit: Lit) -> Lit {
        let mut node = Lit::positive(lit.var());
        let mut negated = false;
        loop {
            let parent = self.parent[node.var().index()];
            if parent == node {
                break;
            }
            negated ^= parent.is_negative();
            node = Lit::positive(parent.var());
        }
        let root = node;
        // Second walk: every node on the path points at the root, with its own sign.
        let mut node = Lit::positive(lit.var());
        let mut sign = negated;
        while node != root {
            let parent = self.parent[node.var().index()];
            self.parent[node.var().index()] = if sign { !root } else { root };
            sign ^= parent.is_negative();
            node = Lit::positive(parent.var());
        }
        if negated ^ lit.is_negative() {
            !root
        } else {
            root
        }
    }
}

impl Solver {
    /// Congruence closure on the gates of the level-0 formula (see the module
    /// documentation): each equivalence found is added as two binary clauses (and lemmas),
    /// for substitution to replace.
    pub(super) fn congruence(&mut self) {
        let mut budget =
            self.pass_budget(CONGRUENCE_BUDGET_BASE + self.search_share(CONGRUENCE_SHARE_PERMILLE));
        if !budget.exhausted() && !self.inconsistent {
            if let Some(gates) = self.extract_gates(&mut budget) {
                self.stats.congruence_gates += gates.len() as u64;
                self.close(&gates, &mut budget);
            }
        }
        self.end_pass(&budget);
    }

    /// The AND, XOR and if-then-else gates of the formula; `None` when the occurrence lists'
    /// memory is refused (the solver is then out of memory).
    fn extract_gates(&mut self, budget: &mut PassBudget) -> Option<Vec<Gate>> {
        let (offsets, occs) = self.long_occurrences(budget)?;
        let mut gates = Vec::new();
        self.and_gates(&offsets, &occs, budget, &mut gates);
        drop((offsets, occs));
        if let Err(bytes) = self.parity_and_ite_gates(budget, &mut gates) {
            self.out_of_memory = Some(bytes);
            return None;
        }
        Some(gates)
    }

    /// The irredundant long clauses by literal, flat: literal `l`'s are
    /// `occs[offsets[l]..offsets[l + 1]]`.
    fn long_occurrences(&mut self, budget: &mut PassBudget) -> Option<(Vec<u32>, Vec<ClauseRef>)> {
        let lits = self.values.len();
        let mut offsets = Vec::new();
        if offsets.try_reserve_exact(lits + 1).is_err() {
            self.out_of_memory = Some(4 * (lits as u64 + 1));
            return None;
        }
        offsets.resize(lits + 1, 0u32);
        let mut total = 0usize;
        for cref in self.db.refs() {
            if self.db.is_deleted(cref) || self.db.is_learnt(cref) {
                continue;
            }
            for &code in self.db.lits(cref) {
                offsets[code as usize + 1] += 1;
                total += 1;
            }
        }
        budget.spend(total as u64);
        for i in 0..lits {
            offsets[i + 1] += offsets[i];
        }
        let mut occs = Vec::new();
        if occs.try_reserve_exact(total).is_err() {
            self.out_of_memory = Some(4 * total as u64);
            return None;
        }
        if let Some(first) = self.db.refs().next() {
            occs.resize(total, first);
        }
        let mut fill = offsets.clone();
        for cref in self.db.refs() {
            if self.db.is_deleted(cref) || self.db.is_learnt(cref) {
                continue;
            }
            for &code in self.db.lits(cref) {
                occs[fill[code as usize] as usize] = cref;
                fill[code as usize] += 1;
            }
        }
        Some((offsets, occs))
    }

    /// AND gates: per literal `x`, its binary implications marked, then each long clause
    /// holding `x` whose other literals are all negations of marked ones.
    fn and_gates(
        &self,
        offsets: &[u32],
        occs: &[ClauseRef],
        budget: &mut PassBudget,
        gates: &mut Vec<Gate>,
    ) {
        let mut marked = vec![false; self.values.len()];
        for code in 0..self.values.len() {
            let x = Lit::from_code(code as u32);
            let clauses = &occs[offsets[code] as usize..offsets[code + 1] as usize];
            let implied = &self.binaries[(!x).index()];
            if clauses.is_empty() || implied.len() < 2 || self.value(x) != 0 {
                continue;
            }
            if !budget.spend(implied.len() as u64) {
                return;
            }
            for &a in implied {
                marked[a.index()] = true;
            }
            for &cref in clauses {
                let lits = self.db.lits(cref);
                if lits.len() > implied.len() + 1 {
                    continue;
                }
                let mut read = 0;
                let all = lits.iter().all(|&c| {
                    read += 1;
                    let l = Lit::from_code(c);
                    c == x.code() || (marked[(!l).index()] && self.value(l) == 0)
                });
                if !budget.spend(read) {
                    break;
                }
                if all {
                    let inputs = lits
                        .iter()
                        .map(|&c| !Lit::from_code(c))
                        .filter(|&l| l != !x)
                        .collect();
                    gates.push(Gate {
                        kind: Kind::And,
                        out: x,
                        inputs,
                    });
                }
            }
            for &a in implied {
                marked[a.index()] = false;
            }
            if budget.exhausted() {
                return;
            }
        }
    }

    /// XOR gates of two and three inputs and if-then-else gates, from the irredundant
    /// clauses of three and four literals grouped by their variables. `Err(bytes)` when the
    /// memory for the grouping is refused.
    ///
    /// Grouping sorts: each short clause becomes its sorted variables and the bit of its sign
    /// pattern, and one sort brings the clauses on the same variables together (a hash map
    /// keyed by the variables cost a hash and an allocation per clause: on a formula of 125,000
    /// ternary clauses and no gate, three times the rest of the pass).
    fn parity_and_ite_gates(
        &self,
        budget: &mut PassBudget,
        gates: &mut Vec<Gate>,
    ) -> Result<(), u64> {
        let db = &self.db;
        let short =
            |&cref: &ClauseRef| !db.is_deleted(cref) && !db.is_learnt(cref) && db.size(cref) <= 4;
        // (sorted variables, unused slots u32::MAX; bit i of the pattern: the i-th variable's
        // literal is negative) per clause.
        let mut shapes: Vec<([u32; 4], u16)> = Vec::new();
        let count = db.refs().filter(short).count();
        if shapes.try_reserve_exact(count).is_err() {
            return Err((count * std::mem::size_of::<([u32; 4], u16)>()) as u64);
        }
        for cref in db.refs().filter(short) {
            let lits = db.lits(cref);
            if !budget.spend(lits.len() as u64) {
                return Ok(());
            }
            let mut sorted = [u32::MAX; 4];
            sorted[..lits.len()].copy_from_slice(lits);
            let sorted = &mut sorted[..lits.len()];
            sorted.sort_unstable();
            let lit = |i: usize| Lit::from_code(sorted[i]);
            if (1..sorted.len()).any(|i| lit(i - 1).var() == lit(i).var())
                || (0..sorted.len()).any(|i| self.value(lit(i)) != 0)
            {
                continue;
            }
            let mut key = [u32::MAX; 4];
            let mut pattern = 0usize;
            for (i, slot) in key.iter_mut().enumerate().take(sorted.len()) {
                *slot = lit(i).var().as_u32();
                pattern |= usize::from(lit(i).is_negative()) << i;
            }
            shapes.push((key, 1 << pattern));
        }
        shapes.sort_unstable_by_key(|&(key, _)| key);
        let mut conditional: Vec<Conditional> = Vec::new();
        for group in shapes.chunk_by(|a, b| a.0 == b.0) {
            let key = group[0].0;
            let mask = group.iter().fold(0, |mask, &(_, bit)| mask | bit);
            let k = if key[3] == u32::MAX { 3 } else { 4 };
            if !budget.spend(k as u64) {
                return Ok(());
            }
            let vars: Vec<Var> = key[..k].iter().map(|&v| Var::from_index(v)).collect();
            xor_gates(&vars, mask, gates);
            if k == 3 {
                conditional_equivalences(&vars, mask, &mut conditional);
            }
        }
        // By (variable, condition's variable), each key's entries in the order found: a
        // counting sort by the variable, then each variable's few entries by the condition.
        let conditional = by_variable(&conditional, self.num_vars as usize);
        for group in conditional.chunk_by(|a, b| a.0 == b.0) {
            let x = group[0].0.0;
            let mut formed = 0;
            for &(_, (c, t)) in group {
                for &(_, (not_c, e)) in group {
                    if formed == ITE_PAIRS || not_c != !c || c.is_negative() {
                        continue;
                    }
                    if t.var() == e.var() {
                        continue;
                    }
                    gates.push(Gate {
                        kind: Kind::Ite,
                        out: Lit::positive(Var::from_index(x)),
                        inputs: vec![c, t, e],
                    });
                    formed += 1;
                }
            }
        }
        Ok(())
    }

    /// The congruence closure over `gates` (see the module documentation).
    fn close(&mut self, gates: &[Gate], budget: &mut PassBudget) {
        let mut classes = Classes::new(self.num_vars);
        // By representative variable: the gates with an input in its class.
        let mut uses: Vec<Vec<u32>> = vec![Vec::new(); self.num_vars as usize];
        for (g, gate) in gates.iter().enumerate() {
            for input in &gate.inputs {
                uses[input.var().index()].push(g as u32);
            }
        }
        let mut table: HashMap<(Kind, Vec<Lit>), (u32, Lit)> = HashMap::new();
        let mut queue: Vec<u32> = (0..gates.len() as u32).rev().collect();
        let mut queued = vec![true; gates.len()];
        let mut merges = Vec::new();
        while let Some(g) = queue.pop() {
            queued[g as usize] = false;
            let gate = &gates[g as usize];
            if !budget.spend(gate.inputs.len() as u64 + 1) {
                break;
            }
            let (p, q) = match normal(gate, &mut classes) {
                Normal::Skip => continue,
                Normal::Equal(p, q) => (p, q),
                Normal::Key(key, out) => match table.entry((gate.kind, key)) {
                    std::collections::hash_map::Entry::Vacant(slot) => {
                        slot.insert((g, out));
                        continue;
                    }
                    std::collections::hash_map::Entry::Occupied(slot) => (out, slot.get().1),
                },
            };
            let (rp, rq) = (classes.find(p), classes.find(q));
            if rp == rq {
                continue;
            }
            self.write_equivalence(gate, p, q);
            merges.push((p, q));
            if rp == !rq {
                // A class equivalent to its negation: substitution refutes it.
                break;
            }
            // The class of the higher variable joins the lower one's.
            let (keep, join) = if rp.var() < rq.var() {
                (rp, rq)
            } else {
                (rq, rp)
            };
            classes.parent[join.var().index()] = if join.is_negative() { !keep } else { keep };
            let moved = std::mem::take(&mut uses[join.var().index()]);
            for &h in &moved {
                if !queued[h as usize] {
                    queued[h as usize] = true;
                    queue.push(h);
                }
            }
            uses[keep.var().index()].extend(moved);
        }
        self.stats.congruent_gates += merges.len() as u64;
        for (p, q) in merges {
            if p.var() == q.var() {
                // `p ≡ ¬p`: both units are written; the formula is refuted.
                self.set_inconsistent();
                return;
            }
            self.attach_binary(!p, q);
            self.attach_binary(p, !q);
        }
    }

    /// Writes `¬p ∨ q` and `p ∨ ¬q` to the proof, each split on all but the last input of
    /// `gate` (none for an AND gate) and resolved back (see the module documentation).
    fn write_equivalence(&mut self, gate: &Gate, p: Lit, q: Lit) {
        let Some(proof) = self.proof.as_mut() else {
            return;
        };
        let splits: Vec<Lit> = match gate.kind {
            Kind::And => Vec::new(),
            Kind::Xor | Kind::Ite => gate.inputs[..gate.inputs.len() - 1]
                .iter()
                .copied()
                .filter(|l| l.var() != p.var() && l.var() != q.var())
                .collect(),
        };
        for clause in [[!p, q], [p, !q]] {
            let mut base = clause.to_vec();
            base.dedup();
            derive(proof, &mut base, &splits);
        }
    }
}

/// Adds `clause` to the proof by a case split on `splits`: `clause ∨ s` and `clause ∨ ¬s`
/// for the first split (each derived the same way on the rest), then `clause`, then the two
/// longer ones deleted.
fn derive(proof: &mut super::proof::Proof, clause: &mut Vec<Lit>, splits: &[Lit]) {
    let Some((&s, rest)) = splits.split_first() else {
        proof.add(clause.iter().copied());
        return;
    };
    for lit in [s, !s] {
        clause.push(lit);
        derive(proof, clause, rest);
        clause.pop();
    }
    proof.add(clause.iter().copied());
    for lit in [s, !s] {
        proof.delete(clause.iter().copied().chain([lit]));
    }
}

/// `gate` brought to its normal form under `classes`.
fn normal(gate: &Gate, classes: &mut Classes) -> Normal {
    let mut inputs: Vec<Lit> = gate.inputs.iter().map(|&l| classes.find(l)).collect();
    let mut out = gate.out;
    match gate.kind {
        Kind::And => {
            inputs.sort_unstable();
            inputs.dedup();
            if inputs.windows(2).any(|w| w[0] == !w[1]) {
                return Normal::Skip;
            }
            if let [single] = inputs[..] {
                return Normal::Equal(out, single);
            }
        }
        Kind::Xor => {
            for l in &mut inputs {
                if l.is_negative() {
                    *l = !*l;
                    out = !out;
                }
            }
            inputs.sort_unstable();
            let mut kept: Vec<Lit> = Vec::with_capacity(inputs.len());
            for l in inputs {
                if kept.last() == Some(&l) {
                    kept.pop();
                } else {
                    kept.push(l);
                }
            }
            inputs = kept;
            match inputs[..] {
                [] => return Normal::Skip,
                [single] => return Normal::Equal(out, single),
                _ => {}
            }
        }
        Kind::Ite => {
            let [mut c, mut t, mut e] = inputs[..] else {
                return Normal::Skip;
            };
            if c.is_negative() {
                c = !c;
                std::mem::swap(&mut t, &mut e);
            }
            if t == e {
                return Normal::Equal(out, t);
            }
            if t == !e || t.var() == c.var() || e.var() == c.var() {
                return Normal::Skip;
            }
            if t.is_negative() {
                (t, e, out) = (!t, !e, !out);
            }
            inputs = vec![c, t, e];
        }
    }
    Normal::Key(inputs, out)
}

/// The XOR gates of the clauses on `vars` (sorted, 3 or 4) with the sign patterns `mask`:
/// when every pattern of one parity is present, one gate per variable as the output.
fn xor_gates(vars: &[Var], mask: u16, gates: &mut Vec<Gate>) {
    let k = vars.len();
    let patterns = 1usize << k;
    let even: u16 = (0..patterns)
        .filter(|p| p.count_ones() % 2 == 0)
        .fold(0, |m, p| m | 1 << p);
    let odd: u16 = (0..patterns)
        .filter(|p| p.count_ones() % 2 == 1)
        .fold(0, |m, p| m | 1 << p);
    // A clause with sign pattern s excludes the assignment s (its literals all false): all
    // even patterns present leave the odd assignments, `⊕ vars = 1`.
    let rhs = if mask & even == even {
        true
    } else if mask & odd == odd {
        false
    } else {
        return;
    };
    for (i, &o) in vars.iter().enumerate() {
        let inputs = vars
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &v)| Lit::positive(v))
            .collect();
        // o ⊕ inputs = rhs: o = inputs ⊕ rhs.
        gates.push(Gate {
            kind: Kind::Xor,
            out: Lit::new(o, rhs),
            inputs,
        });
    }
}

/// A conditional equivalence: keyed by (its variable, the condition's variable), the
/// condition and the literal the variable equals under it.
type Conditional = ((u32, u32), (Lit, Lit));

/// `entries` ordered by their key, entries of one key in their order in `entries` (stable):
/// counted into buckets by the key's variable (below `vars`), each bucket then sorted by the
/// condition's variable. O(entries + vars) but for the buckets' own sorts, which are short.
fn by_variable<T: Copy>(entries: &[((u32, u32), T)], vars: usize) -> Vec<((u32, u32), T)> {
    let mut offsets = vec![0usize; vars + 1];
    for &((x, _), _) in entries {
        offsets[x as usize + 1] += 1;
    }
    for i in 0..vars {
        offsets[i + 1] += offsets[i];
    }
    let mut sorted = entries.to_vec();
    let mut fill = offsets.clone();
    for &entry in entries {
        let x = entry.0.0 as usize;
        sorted[fill[x]] = entry;
        fill[x] += 1;
    }
    for x in 0..vars {
        sorted[offsets[x]..offsets[x + 1]].sort_by_key(|&(key, _)| key.1);
    }
    sorted
}

/// The conditional equivalences of the ternary clauses on `vars` (sorted) with the sign
/// patterns `mask`: `c ∨ u ∨ w` and `c ∨ ¬u ∨ ¬w` say that under `¬c`, `u ≡ ¬w`. Recorded
/// for both of `u` and `w`, keyed by (its variable, the condition's variable), as (the
/// condition, the literal the positive variable equals under it).
fn conditional_equivalences(vars: &[Var], mask: u16, conditional: &mut Vec<Conditional>) {
    let has = |signs: [bool; 3]| {
        let pattern = signs
            .iter()
            .enumerate()
            .fold(0usize, |p, (i, &s)| p | usize::from(s) << i);
        mask >> pattern & 1 == 1
    };
    for ci in 0..3 {
        let (ui, wi) = match ci {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        };
        for c_negative in [false, true] {
            for (u_negative, w_negative) in [(false, false), (false, true)] {
                let mut first = [false; 3];
                let mut second = [false; 3];
                first[ci] = c_negative;
                second[ci] = c_negative;
                (first[ui], first[wi]) = (u_negative, w_negative);
                (second[ui], second[wi]) = (!u_negative, !w_negative);
                if !(has(first) && has(second)) {
                    continue;
                }
                // Clauses `L_c ∨ L_u ∨ L_w` and their flip on u, w: under `¬L_c`,
                // `L_u ≡ ¬L_w`.
                let cond = !Lit::new(vars[ci], c_negative);
                let lu = Lit::new(vars[ui], u_negative);
                let lw = Lit::new(vars[wi], w_negative);
                // u positive ≡ (lu positive ? ¬lw : lw), and w likewise.
                let u_equals = if u_negative { lw } else { !lw };
                let w_equals = if w_negative { lu } else { !lu };
                let c = vars[ci].as_u32();
                conditional.push(((vars[ui].as_u32(), c), (cond, u_equals)));
                conditional.push(((vars[wi].as_u32(), c), (cond, w_equals)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::by_variable;
    use proptest::prelude::*;

    proptest! {
        /// The counting sort orders as a stable sort by the whole key does: by variable, then
        /// condition, each key's entries in the order given.
        #[test]
        fn by_variable_is_a_stable_sort_by_key(
            entries in prop::collection::vec(((0u32..12, 0u32..12), any::<u16>()), 0..200),
        ) {
            let mut expected = entries.clone();
            expected.sort_by_key(|&(key, _)| key);
            prop_assert_eq!(by_variable(&entries, 12), expected);
        }
    }
}
