//! Local search for rephasing: a ProbSAT walk whose best assignment becomes the saved phases.
//!
//! CDCL finds models of hard satisfiable formulas (random k-SAT near the threshold) slowly: its
//! phases are a record of the last conflict, not of a nearly-satisfying assignment. A stochastic
//! local search is good at the latter. As in CaDiCaL's rephasing (Biere and Fleury, "Chasing
//! Target Phases", POS 2020), a walk runs now and then from the saved phases, at level 0, and
//! its best assignment (fewest falsified clauses) is written back as the saved phases; the
//! CDCL search then decides along it, and when the walk found a model it is confirmed with no
//! conflict at all.
//!
//! The walk is ProbSAT (Balint and Schöning, SAT 2012): pick a falsified clause uniformly at
//! random, then flip one of its variables with probability proportional to `cb^-break`, where
//! `break` is how many clauses the flip would falsify and the base `cb` grows with the average
//! clause length (2.5 for 3-SAT, 3.7 for 5-SAT, interpolated as in CaDiCaL's table).
//!
//! What it walks on: the irredundant long clauses and every binary clause (learnt binaries are
//! implied by the formula, so a model satisfies them too), with the level-0 assignment fixed:
//! satisfied clauses dropped, false literals removed. No clause is added or changed, so proofs
//! stay as they were.
//!
//! Invariant (checked in debug builds): `true_count[c]` is the number of true literals of
//! clause `c` under `value`, and `unsat` lists exactly the clauses with none, `unsat_pos` giving
//! each one's place. Cost: building the walk's clause lists is linear in the formula; a flip
//! visits the occurrence lists of the variable's two literals; a pick computes the break count
//! of each literal of the clause (its occurrence list). The walk stops after `effort` visits
//! ("ticks") or when no clause is false. The copy takes about twice the formula's literals in
//! words, reserved fallibly: where the memory is refused there is no walk, and the search goes
//! on.

use std::ops::Range;

use super::Solver;
use crate::lit::Lit;

/// The exponential bases by average clause length (CaDiCaL's `cbvals`), interpolated linearly.
const BASES: [(f64, f64); 6] = [
    (0.0, 2.0),
    (3.0, 2.5),
    (4.0, 2.85),
    (5.0, 3.7),
    (6.0, 5.1),
    (7.0, 7.4),
];

/// The variable index of literal `code`.
fn var_of(code: u32) -> usize {
    Lit::from_stored_code(code).var().index()
}

/// `cb` for clauses of average length `size`.
fn base_for(size: f64) -> f64 {
    let mut previous = BASES[0];
    for &(len, base) in &BASES[1..] {
        if size <= len {
            let share = (size - previous.0) / (len - previous.0);
            return previous.1 + share * (base - previous.1);
        }
        previous = (len, base);
    }
    previous.1
}

/// What one walk did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct WalkReport {
    /// Clauses false under the starting assignment.
    pub(super) start_unsat: usize,
    /// The fewest false clauses met (0: a model).
    pub(super) best_unsat: usize,
    /// Variables flipped.
    pub(super) flips: u64,
}

/// The walk's own copy of the formula and its state.
struct Walker {
    /// Clause `c` is `lits[starts[c]..starts[c + 1]]` (literal codes).
    lits: Vec<u32>,
    starts: Vec<u32>,
    /// By literal code: the clauses holding it are `occurrences[occ_starts[l]..occ_starts[l + 1]]`.
    occurrences: Vec<u32>,
    occ_starts: Vec<u32>,
    /// By variable: its value in the walk (true: positive).
    value: Vec<bool>,
    true_count: Vec<u32>,
    unsat: Vec<u32>,
    /// By clause: its index in `unsat`, or `u32::MAX` when satisfied.
    unsat_pos: Vec<u32>,
    /// `cb^-k` for `k = 0, 1, …` until it underflows to nothing that matters.
    scores: Vec<f64>,
    ticks: u64,
}

impl Walker {
    fn is_true(&self, code: u32) -> bool {
        self.value[var_of(code)] == Lit::from_stored_code(code).is_positive()
    }

    /// Where the clauses holding literal `code` are listed in `occurrences`.
    fn occurrence_range(&self, code: u32) -> Range<usize> {
        self.occ_starts[code as usize] as usize..self.occ_starts[code as usize + 1] as usize
    }

    /// The code of `var`'s literal that is true under `value`.
    fn true_literal(&self, var: usize) -> u32 {
        (2 * var as u32) | u32::from(!self.value[var])
    }

    fn clause(&self, c: u32) -> &[u32] {
        &self.lits[self.starts[c as usize] as usize..self.starts[c as usize + 1] as usize]
    }

    fn make_unsat(&mut self, c: u32) {
        self.unsat_pos[c as usize] = self.unsat.len() as u32;
        self.unsat.push(c);
    }

    fn make_sat(&mut self, c: u32) {
        let at = self.unsat_pos[c as usize];
        let last = self.unsat.pop().expect("a false clause is listed");
        if last != c {
            self.unsat[at as usize] = last;
            self.unsat_pos[last as usize] = at;
        }
        self.unsat_pos[c as usize] = u32::MAX;
    }

    /// How many clauses flipping `var` would falsify: those whose only true literal is
    /// `var`'s.
    fn break_count(&mut self, var: usize) -> usize {
        let range = self.occurrence_range(self.true_literal(var));
        self.ticks += range.len() as u64;
        self.occurrences[range]
            .iter()
            .filter(|&&c| self.true_count[c as usize] == 1)
            .count()
    }

    fn flip(&mut self, var: usize) {
        self.value[var] = !self.value[var];
        let now_true = self.occurrence_range(self.true_literal(var));
        let now_false = self.occurrence_range(self.true_literal(var) ^ 1);
        self.ticks += (now_true.len() + now_false.len()) as u64;
        for i in now_true {
            let c = self.occurrences[i];
            self.true_count[c as usize] += 1;
            if self.true_count[c as usize] == 1 {
                self.make_sat(c);
            }
        }
        for i in now_false {
            let c = self.occurrences[i];
            self.true_count[c as usize] -= 1;
            if self.true_count[c as usize] == 0 {
                self.make_unsat(c);
            }
        }
    }

    /// The invariant, recomputed from scratch.
    #[cfg(debug_assertions)]
    fn check(&self) {
        let mut listed = 0;
        for c in 0..self.starts.len() as u32 - 1 {
            let count = self.clause(c).iter().filter(|&&l| self.is_true(l)).count() as u32;
            assert_eq!(self.true_count[c as usize], count, "clause {c}");
            if count == 0 {
                listed += 1;
                assert_eq!(self.unsat[self.unsat_pos[c as usize] as usize], c);
            } else {
                assert_eq!(self.unsat_pos[c as usize], u32::MAX);
            }
        }
        assert_eq!(listed, self.unsat.len());
    }
}

impl Solver {
    /// Walks from the saved phases for about `effort` ticks and sets the saved phases of the
    /// unassigned variables to the best assignment met. Backtracks to level 0 first.
    pub(super) fn walk(&mut self, effort: u64) -> WalkReport {
        self.cancel_until(0);
        let vars = self.num_vars as usize;
        let Some(mut walker) = self.walker() else {
            // No memory for the walk's copy of the formula: the search goes on without it.
            return WalkReport::default();
        };
        let mut report = WalkReport {
            start_unsat: walker.unsat.len(),
            best_unsat: walker.unsat.len(),
            flips: 0,
        };
        // The variables flipped since the best assignment: undone at the end.
        let mut since_best: Vec<usize> = Vec::new();
        let mut weights: Vec<f64> = Vec::new();
        while !walker.unsat.is_empty() && walker.ticks < effort {
            let pick = walker.unsat[self.rng.below(walker.unsat.len() as u32) as usize];
            let (from, to) = (
                walker.starts[pick as usize] as usize,
                walker.starts[pick as usize + 1] as usize,
            );
            weights.clear();
            let mut total = 0.0;
            for i in from..to {
                let var = var_of(walker.lits[i]);
                let breaks = walker.break_count(var);
                let score = walker.scores[breaks.min(walker.scores.len() - 1)];
                total += score;
                weights.push(score);
            }
            let mut threshold = total * (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let mut chosen = to - 1;
            for (k, &w) in weights.iter().enumerate() {
                if threshold < w {
                    chosen = from + k;
                    break;
                }
                threshold -= w;
            }
            let var = var_of(walker.lits[chosen]);
            walker.flip(var);
            report.flips += 1;
            since_best.push(var);
            if walker.unsat.len() < report.best_unsat {
                report.best_unsat = walker.unsat.len();
                since_best.clear();
            }
        }
        #[cfg(debug_assertions)]
        if vars <= super::DEBUG_CHECK_VARS as usize {
            walker.check();
        }
        for var in since_best {
            walker.value[var] = !walker.value[var];
        }
        for var in 0..vars {
            if self.values[2 * var] == 0 {
                self.phase[var] = walker.value[var];
            }
        }
        self.stats.walks += 1;
        self.stats.walk_flips += report.flips;
        report
    }

    /// The walk's formula (irredundant long clauses and all binaries under the level-0
    /// assignment) and its state at the saved phases; `None` when the memory for it is not
    /// to be had (it copies the formula: about twice its literals in words).
    fn walker(&self) -> Option<Walker> {
        let vars = self.num_vars as usize;
        let binary_lits: usize = self.binaries.iter().map(Vec::len).sum();
        let (mut long_lits, mut long_clauses) = (0, 0);
        for cref in self.db.refs() {
            if !self.db.is_deleted(cref) && !self.db.is_learnt(cref) {
                long_lits += self.db.size(cref);
                long_clauses += 1;
            }
        }
        let most_lits = binary_lits + long_lits;
        let most_clauses = binary_lits / 2 + long_clauses;
        let mut lits: Vec<u32> = filled(0, 0)?;
        lits.try_reserve_exact(most_lits).ok()?;
        let mut starts: Vec<u32> = filled(1, 0)?;
        starts.try_reserve_exact(most_clauses).ok()?;
        let mut push = |clause: &mut dyn Iterator<Item = u32>, values: &[i8]| {
            let at = lits.len();
            for code in clause {
                match values[code as usize] {
                    1 => {
                        lits.truncate(at);
                        return;
                    }
                    -1 => {}
                    _ => lits.push(code),
                }
            }
            if lits.len() > at {
                starts.push(lits.len() as u32);
            }
        };
        for code in 0..2 * vars as u32 {
            for &other in &self.binaries[code as usize] {
                if code < other.code() {
                    push(&mut [code, other.code()].into_iter(), &self.values);
                }
            }
        }
        for cref in self.db.refs() {
            if !self.db.is_deleted(cref) && !self.db.is_learnt(cref) {
                push(&mut self.db.lits(cref).iter().copied(), &self.values);
            }
        }
        let clauses = starts.len() - 1;
        let mut occ_starts: Vec<u32> = filled(2 * vars + 1, 0)?;
        for &code in &lits {
            occ_starts[code as usize + 1] += 1;
        }
        for i in 0..2 * vars {
            occ_starts[i + 1] += occ_starts[i];
        }
        let mut fill: Vec<u32> = filled(2 * vars + 1, 0)?;
        fill.copy_from_slice(&occ_starts);
        let mut occurrences: Vec<u32> = filled(lits.len(), 0)?;
        for c in 0..clauses {
            for &code in &lits[starts[c] as usize..starts[c + 1] as usize] {
                occurrences[fill[code as usize] as usize] = c as u32;
                fill[code as usize] += 1;
            }
        }
        let average = if clauses == 0 {
            0.0
        } else {
            lits.len() as f64 / clauses as f64
        };
        let base = base_for(average);
        let mut scores = vec![1.0];
        while *scores.last().unwrap() > 1e-30 {
            scores.push(scores.last().unwrap() / base);
        }
        let mut walker = Walker {
            lits,
            starts,
            occurrences,
            occ_starts,
            value: {
                let mut value = filled(vars, false)?;
                value.copy_from_slice(&self.phase[..vars]);
                value
            },
            true_count: filled(clauses, 0)?,
            unsat: {
                let mut unsat = Vec::new();
                unsat.try_reserve_exact(clauses).ok()?;
                unsat
            },
            unsat_pos: filled(clauses, u32::MAX)?,
            scores,
            ticks: 0,
        };
        for c in 0..clauses as u32 {
            let count = walker
                .clause(c)
                .iter()
                .filter(|&&l| walker.is_true(l))
                .count();
            walker.true_count[c as usize] = count as u32;
            if count == 0 {
                walker.make_unsat(c);
            }
        }
        walker.ticks = walker.lits.len() as u64;
        Some(walker)
    }
}

/// `len` copies of `value`, or `None` when the memory is refused.
fn filled<T: Clone>(len: usize, value: T) -> Option<Vec<T>> {
    let mut items = Vec::new();
    items.try_reserve_exact(len).ok()?;
    items.resize(len, value);
    Some(items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::ClauseSink;
    use crate::lit::lit;
    use nqueens_support::SplitMix64;

    #[test]
    fn the_base_follows_the_table_and_interpolates() {
        assert_eq!(base_for(3.0), 2.5);
        assert_eq!(base_for(5.0), 3.7);
        assert!((base_for(3.5) - 2.675).abs() < 1e-12);
        assert_eq!(base_for(2.0), 2.0 + 0.5 * 2.0 / 3.0);
        assert_eq!(base_for(12.0), 7.4);
    }

    /// A planted 3-SAT formula (every clause satisfied by a hidden assignment): the walk
    /// finds a model, and the saved phases are one.
    #[test]
    fn the_walk_finds_a_model_of_a_planted_formula_and_saves_it() {
        for seed in 1..=10u64 {
            let mut rng = SplitMix64::new(seed);
            let vars = 150u64;
            let hidden: Vec<bool> = (0..vars).map(|_| rng.next_u64() & 1 == 1).collect();
            let mut solver = Solver::new();
            let mut clauses = Vec::new();
            while clauses.len() < 600 {
                let clause: Vec<Lit> = (0..3)
                    .map(|_| {
                        let var = rng.next_u64() % vars;
                        let negative = rng.next_u64() & 1 == 0;
                        lit(if negative {
                            -(var as i64 + 1)
                        } else {
                            var as i64 + 1
                        })
                    })
                    .collect();
                let satisfied = clause
                    .iter()
                    .any(|l| hidden[l.var().index()] == l.is_positive());
                if satisfied {
                    solver.add_clause(&clause);
                    clauses.push(clause);
                }
            }
            let report = solver.walk(5_000_000);
            assert!(report.start_unsat > 0, "seed {seed}: the start is no model");
            assert_eq!(report.best_unsat, 0, "seed {seed}: {report:?}");
            for clause in &clauses {
                assert!(
                    clause.iter().any(|l| solver.values[l.index()] == 1
                        || (solver.values[l.index()] == 0
                            && solver.phase[l.var().index()] == l.is_positive())),
                    "seed {seed}: the saved phases falsify {clause:?}"
                );
            }
        }
    }

    /// On an unsatisfiable formula the walk stops at its effort and keeps the best
    /// assignment it met: the saved phases falsify exactly `best_unsat` clauses.
    #[test]
    fn the_saved_phases_are_the_best_assignment_met() {
        for seed in 1..=10u64 {
            let mut rng = SplitMix64::new(seed);
            let mut solver = Solver::new();
            let mut clauses = Vec::new();
            for _ in 0..260 {
                let clause: Vec<Lit> = (0..3)
                    .map(|_| {
                        let var = (rng.next_u64() % 40) as i64 + 1;
                        lit(if rng.next_u64() & 1 == 0 { var } else { -var })
                    })
                    .collect();
                solver.add_clause(&clause);
                clauses.push(clause);
            }
            if solver.inconsistent {
                continue;
            }
            let report = solver.walk(20_000);
            assert!(report.flips > 0, "seed {seed}");
            let falsified = clauses
                .iter()
                .filter(|clause| {
                    clause.iter().all(|l| {
                        solver.values[l.index()] == -1
                            || (solver.values[l.index()] == 0
                                && solver.phase[l.var().index()] != l.is_positive())
                    })
                })
                .count();
            assert_eq!(falsified, report.best_unsat, "seed {seed}: {report:?}");
            assert!(report.best_unsat <= report.start_unsat);
        }
    }
}
