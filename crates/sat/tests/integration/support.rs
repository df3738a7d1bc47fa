//! What the solver's test modules share (not in `rup.rs`, which the CLI's tests include by
//! path): [`solve_checked`] replays proofs with the checker there.

use std::io::Write;
use std::sync::{Arc, Mutex};

use nqueens_sat::{ClauseSink, Cnf, Lit, Model, Options, Outcome, Solver, Stats, Var};
use proptest::prelude::*;

/// A shared buffer a proof can be written into while the solver owns the writer.
#[derive(Clone, Default)]
pub struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl SharedBuf {
    /// What was written, as text (a DRAT proof is ASCII).
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

/// The clauses of `cnf` in DIMACS numbering, as the checker in `rup.rs` takes them.
pub fn dimacs_clauses(cnf: &Cnf) -> Vec<Vec<i32>> {
    cnf.clauses()
        .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
        .collect()
}

/// A proof written across the solves of one solver, cut where clauses were given: the stages
/// `rup::check_incremental` takes (each stage's clauses, then what the solver wrote after
/// them, the lemmas of a put-back among it).
pub struct ProofStages {
    proof: SharedBuf,
    /// Bytes of the proof already in a stage.
    written: usize,
    stages: Vec<(Vec<Vec<i32>>, String)>,
}

impl ProofStages {
    /// Writes `solver`'s proof from now on; `cnf` is what it is given before its first solve.
    pub fn new(solver: &mut Solver, cnf: &Cnf) -> Self {
        let proof = SharedBuf::default();
        solver.set_proof(proof.clone());
        ProofStages {
            proof,
            written: 0,
            stages: vec![(dimacs_clauses(cnf), String::new())],
        }
    }

    /// Ends the current stage at what `solver` has written.
    fn close(&mut self, solver: &mut Solver) {
        solver.finish_proof().unwrap();
        let text = self.proof.text();
        self.stages.last_mut().unwrap().1 = text[self.written..].to_string();
        self.written = text.len();
    }

    /// Gives `solver` the clause `lits`, which begins a stage.
    pub fn add_clause(&mut self, solver: &mut Solver, lits: &[Lit]) {
        self.close(solver);
        solver.add_clause(lits);
        let clause = lits.iter().map(|l| l.to_dimacs()).collect();
        self.stages.push((vec![clause], String::new()));
    }

    /// Checks the proof written so far with `rup::check_incremental`.
    pub fn check(&mut self, solver: &mut Solver, vars: u32) -> Result<(), String> {
        self.close(solver);
        let stages: Vec<(&[Vec<i32>], &str)> = self
            .stages
            .iter()
            .map(|(clauses, text)| (clauses.as_slice(), text.as_str()))
            .collect();
        crate::rup::check_incremental(vars, &stages)
    }
}

/// A solver with `options` given `cnf`, its proof kept in stages from the start, after a first
/// solve whose answer agrees with the brute force: the solver, the stages, and whether `cnf` is
/// satisfiable (what [`check_later_clauses`] starts from).
pub fn solved_once(
    cnf: &Cnf,
    options: Options,
) -> Result<(Solver, ProofStages, bool), TestCaseError> {
    let mut solver = Solver::with_options(options);
    let proof = ProofStages::new(&mut solver, cnf);
    cnf.add_to(&mut solver);
    let first = matches!(solver.solve(), Outcome::Sat(_));
    prop_assert_eq!(first, !brute_force_models(cnf).is_empty());
    Ok((solver, proof, first))
}

/// After a first solve of `cnf` (`first`: whether it was satisfiable), gives `solver` each clause
/// of `later`, drawn on the first `vars` variables, as a stage of `proof`, solving after each:
/// every answer agrees with the brute force and every model satisfies the formula so far; the
/// first refutation's proof, written across the solves, must pass `rup::check_incremental`.
pub fn check_later_clauses(
    solver: &mut Solver,
    proof: &mut ProofStages,
    cnf: &mut Cnf,
    (first, vars): (bool, u32),
    later: &[Vec<(i32, bool)>],
) -> Result<(), TestCaseError> {
    let mut refuted = !first;
    for clause in later {
        let lits = dimacs_clause_within(vars, clause);
        cnf.add_clause(&lits);
        proof.add_clause(solver, &lits);
        let expected = !brute_force_models(cnf).is_empty();
        match solver.solve() {
            Outcome::Sat(model) => {
                prop_assert!(expected);
                prop_assert!(cnf.is_satisfied_by(&model), "the model falsifies a clause");
            }
            Outcome::Unsat => {
                prop_assert!(!expected);
                refuted = true;
            }
            Outcome::Unknown(reason) => panic!("{reason}"),
        }
    }
    if refuted && let Err(e) = proof.check(solver, vars) {
        panic!("the proof across the solves was rejected: {e}");
    }
    Ok(())
}

/// [`solve_checked`], answering whether `cnf` is satisfiable, with the solver's counters.
pub fn satisfiable_checked(cnf: &Cnf, options: Options) -> (bool, Stats) {
    let (model, stats) = solve_checked(cnf, options);
    (model.is_some(), stats)
}

/// Random 3-SAT near the threshold (4.3 clauses a variable) on 8 to 16 variables: enough
/// conflicts for learnt clauses, restarts and passes begun mid-search, few enough variables
/// for the brute force.
pub fn random_3sat_near_threshold() -> impl Strategy<Value = (u32, Vec<Vec<i32>>)> {
    (8u32..=16).prop_flat_map(|vars| {
        let lit = (1..=vars as i32, any::<bool>()).prop_map(|(v, neg)| if neg { -v } else { v });
        let clause = prop::collection::vec(lit, 3..=3);
        let count = (vars as usize * 43).div_ceil(10);
        (Just(vars), prop::collection::vec(clause, count..=count))
    })
}

/// Solves `cnf` with `options` and a DRAT proof, and checks the answer: a model against the
/// formula, a refutation's proof with the forward checker (`rup.rs`: RUP lemmas only, or with
/// [`Options::factor`] RAT lemmas too, which define its fresh variables). Returns the model
/// (`None`: unsatisfiable) and the solver's counters.
pub fn solve_checked(cnf: &Cnf, options: Options) -> (Option<Model>, Stats) {
    let proof = SharedBuf::default();
    let factor = options.factor;
    let mut solver = Solver::with_options(options);
    solver.set_proof(proof.clone());
    cnf.add_to(&mut solver);
    let outcome = solver.solve();
    solver.finish_proof().unwrap();
    let model = match outcome {
        Outcome::Sat(model) => {
            assert!(cnf.is_satisfied_by(&model), "the model falsifies a clause");
            Some(model)
        }
        Outcome::Unsat => {
            let clauses = dimacs_clauses(cnf);
            let check = if factor {
                crate::rup::check_drat
            } else {
                crate::rup::check
            };
            if let Err(e) = check(cnf.num_vars(), &clauses, &proof.text()) {
                panic!("the DRAT proof was rejected: {e}");
            }
            None
        }
        Outcome::Unknown(reason) => panic!("no limit was set, yet: {reason}"),
    };
    (model, *solver.stats())
}

/// A formula from DIMACS-numbered clauses on `vars` variables.
pub fn cnf_from(vars: u32, clauses: &[Vec<i32>]) -> Cnf {
    let mut cnf = Cnf::new();
    cnf.ensure_vars(vars);
    for clause in clauses {
        let lits: Vec<Lit> = clause
            .iter()
            .map(|&d| Lit::from_dimacs(d.into()).unwrap())
            .collect();
        cnf.add_clause(&lits);
    }
    cnf
}

/// Every model of `cnf` over its variables, by trying all assignments.
pub fn brute_force_models(cnf: &Cnf) -> Vec<Vec<bool>> {
    let n = cnf.num_vars();
    (0u32..1 << n)
        .map(|bits| (0..n).map(|v| bits >> v & 1 == 1).collect::<Vec<bool>>())
        .filter(|values| cnf.is_satisfied_by(&Model::from_values(values.clone())))
        .collect()
}

/// Random clause lists on 1 to `most` variables, `count` clauses of 0 to 4 literals
/// (duplicates and tautologies included, as real inputs have them).
pub fn random_formula(
    most: u32,
    count: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = (u32, Vec<Vec<i32>>)> {
    (1u32..=most).prop_flat_map(move |vars| {
        let lit = (1..=vars as i32, any::<bool>()).prop_map(|(v, neg)| if neg { -v } else { v });
        let clause = prop::collection::vec(lit, 0..=4);
        (Just(vars), prop::collection::vec(clause, count.clone()))
    })
}

/// The pigeonhole formula: pigeon p in hole h is variable p·holes + h.
pub fn pigeonhole(pigeons: u32, holes: u32) -> Cnf {
    let mut cnf = Cnf::new();
    let x = |p: u32, h: u32| Lit::positive(Var::from_index(p * holes + h));
    cnf.ensure_vars(pigeons * holes);
    for p in 0..pigeons {
        let lits: Vec<Lit> = (0..holes).map(|h| x(p, h)).collect();
        cnf.add_clause(&lits);
    }
    for h in 0..holes {
        for p in 0..pigeons {
            for q in p + 1..pigeons {
                cnf.add_clause(&[!x(p, h), !x(q, h)]);
            }
        }
    }
    cnf
}

/// Solves `cnf` (already in `solver`) under `assumptions` and checks the answer against the
/// brute force: a model satisfies the formula and the assumptions; unsatisfiable only when no
/// model has them, and then the failed assumptions, a subset of them, already leave none.
pub fn check_solve_with(solver: &mut Solver, cnf: &Cnf, assumptions: &[Lit]) {
    let mut with_units = cnf.clone();
    for &a in assumptions {
        with_units.add_clause(&[a]);
    }
    let expected = !brute_force_models(&with_units).is_empty();
    match solver.solve_with(assumptions) {
        Outcome::Sat(model) => {
            assert!(expected, "a model where none has the assumptions");
            assert!(
                with_units.is_satisfied_by(&model),
                "the model falsifies a clause"
            );
        }
        Outcome::Unsat => {
            assert!(!expected, "unsatisfiable, yet a model has the assumptions");
            let mut core = cnf.clone();
            for &a in solver.failed_assumptions() {
                assert!(assumptions.contains(&a), "{a} failed but was not assumed");
                core.add_clause(&[a]);
            }
            assert!(
                brute_force_models(&core).is_empty(),
                "the failed assumptions leave a model"
            );
        }
        Outcome::Unknown(reason) => panic!("no limit was set, yet: {reason}"),
    }
}

/// The XOR chain `x0 ⊕ … ⊕ x(n-1) = 1` as Tseitin clauses: inputs `x_i` are variables
/// `0..n`, links `t_i` (`t0 ≡ x0`, `t_i ≡ t_{i-1} ⊕ x_i`) variables `n..2n`, `t_{n-1}` true.
pub fn xor_chain(n: u32) -> Cnf {
    let mut cnf = Cnf::new();
    let x = |i: u32| Lit::positive(Var::from_index(i));
    let t = |i: u32| Lit::positive(Var::from_index(n + i));
    cnf.ensure_vars(2 * n);
    cnf.add_clause(&[!t(0), x(0)]);
    cnf.add_clause(&[t(0), !x(0)]);
    for i in 1..n {
        let (a, b, c) = (t(i - 1), x(i), t(i));
        cnf.add_clause(&[!a, !b, !c]);
        cnf.add_clause(&[a, b, !c]);
        cnf.add_clause(&[a, !b, c]);
        cnf.add_clause(&[!a, b, c]);
    }
    cnf.add_clause(&[t(n - 1)]);
    cnf
}

/// Every pass on (congruence closure, elimination rounds and vivification too), run again at
/// every restart.
pub fn all_passes() -> Options {
    Options {
        eliminate: true,
        eliminate_rounds: true,
        eliminate_interval: 0,
        substitute: true,
        probe: true,
        congruence: true,
        vivify: true,
        simplify_interval: 1,
        ..Options::default()
    }
}

/// Enumerates the models of `cnf` projected on its first `k` variables with `options` (after
/// a solve first, when `solve_first`): every model satisfies the formula, none comes twice,
/// and the projections and their count are the brute force's.
pub fn check_projected_enumeration(options: Options, cnf: &Cnf, k: u32, solve_first: bool) {
    let k = k.min(cnf.num_vars());
    let expected: std::collections::HashSet<Vec<bool>> = brute_force_models(cnf)
        .into_iter()
        .map(|m| m[..k as usize].to_vec())
        .collect();
    let mut solver = Solver::with_options(options);
    cnf.add_to(&mut solver);
    if solve_first {
        solver.solve();
    }
    let projection: Vec<Var> = (0..k).map(Var::from_index).collect();
    let mut seen = std::collections::HashSet::new();
    let end = solver.enumerate(&projection, |model| {
        assert!(cnf.is_satisfied_by(model), "the model falsifies a clause");
        assert!(
            seen.insert(model.values()[..k as usize].to_vec()),
            "a model twice"
        );
        std::ops::ControlFlow::Continue(())
    });
    assert_eq!(
        end,
        nqueens_sat::Enumeration::Complete(expected.len() as u64)
    );
    assert_eq!(seen, expected);
}

/// The literals `(variable index, negated)` of `picks` on the formula's first `vars`
/// variables (picks past them are dropped): how the property tests draw assumptions.
pub fn literals_within(vars: u32, picks: &[(u32, bool)]) -> Vec<Lit> {
    picks
        .iter()
        .filter(|&&(v, _)| v < vars)
        .map(|&(v, neg)| Lit::new(Var::from_index(v), neg))
        .collect()
}

/// A clause drawn as DIMACS variables (`1..`) with signs, on the formula's first `vars`
/// variables (literals past them are dropped): how the property tests draw later clauses.
pub fn dimacs_clause_within(vars: u32, clause: &[(i32, bool)]) -> Vec<Lit> {
    clause
        .iter()
        .filter(|&&(v, _)| v as u32 <= vars)
        .map(|&(v, neg)| Lit::from_dimacs(if neg { -v } else { v }.into()).unwrap())
        .collect()
}
