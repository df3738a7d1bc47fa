//! Equivalent-literal substitution and failed-literal probing before the search: planted
//! equivalences are found, models satisfy the original formula (the substituted variables'
//! values come back through the extension stack), refutations replay in the independent RUP
//! checker (`rup.rs`), and incremental use (assumptions, later clauses, enumeration on
//! substituted variables) agrees with brute force.

use crate::support::{brute_force_models, cnf_from, literals_within};

use std::collections::HashSet;
use std::ops::ControlFlow;

use nqueens_sat::{
    ClauseSink, Cnf, Enumeration, Lit, Options, Outcome, Restarts, Solver, Stats, Var,
};
use proptest::prelude::*;

fn lit(d: i32) -> Lit {
    Lit::from_dimacs(d.into()).unwrap()
}

/// [`crate::support::solve_checked`], answering whether the formula was satisfiable.
fn solve_checked(cnf: &Cnf, options: Options) -> (bool, Stats) {
    let (model, stats) = crate::support::solve_checked(cnf, options);
    (model.is_some(), stats)
}

/// Substitution and probing on (they are off by default).
fn on() -> Options {
    Options {
        substitute: true,
        probe: true,
        ..Options::default()
    }
}

/// Both off.
fn off() -> Options {
    Options::default()
}

/// `x1 → x2 → ¬x1 → x3 → x1`: one component holds `x1` and `¬x1`. Without substitution the
/// search needs a conflict to see it; with it, none, and the proof (the unit, then the empty
/// clause) checks.
#[test]
fn a_literal_equivalent_to_its_negation_is_refuted_without_search() {
    let cnf = cnf_from(
        4,
        &[
            vec![-1, 2],
            vec![-2, -1],
            vec![1, 3],
            vec![-3, 1],
            vec![2, 3, 4],
        ],
    );
    let (sat, stats) = solve_checked(&cnf, on());
    assert!(!sat);
    assert_eq!((stats.conflicts, stats.decisions), (0, 0), "{stats}");
    let (sat, stats) = solve_checked(&cnf, off());
    assert!(!sat);
    assert!(stats.conflicts > 0, "{stats}");
}

/// `x1 ≡ x2 ≡ x3` and `x4 ≡ ¬x5`, planted by binary clauses, under long clauses that name
/// every one of them: three variables go, and the model, completed by the extension stack,
/// satisfies the original formula. With `x1 ∨ x3` and `¬x2 ∨ ¬x3` beside, it is refuted, and
/// the proof through the substituted clauses checks.
#[test]
fn planted_equivalences_are_substituted_and_models_satisfy_the_original() {
    let mut clauses = vec![
        vec![-1, 2],
        vec![-2, 3],
        vec![-3, 1],
        vec![4, 5],
        vec![-4, -5],
        vec![1, 4, 6],
        vec![-2, 5, -6],
        vec![3, -4, 6, 7],
        vec![-3, -5, -7],
        vec![2, -6, 7],
    ];
    let cnf = cnf_from(7, &clauses);
    let (sat, stats) = solve_checked(&cnf, on());
    assert!(sat);
    assert_eq!(stats.substituted_vars, 3, "{stats}");
    clauses.push(vec![1, 3]);
    clauses.push(vec![-2, -3]);
    let (sat, stats) = solve_checked(&cnf_from(7, &clauses), on());
    assert!(!sat);
    assert_eq!(stats.conflicts, 0, "{stats}");
}

/// `x1` implies `x2` and `x3`, which together imply `x4` and `¬x4`: the root `x1` fails, and
/// `¬x1` is a unit before the search.
#[test]
fn a_failed_root_gives_a_unit() {
    let clauses = vec![
        vec![-1, 2],
        vec![-1, 3],
        vec![-2, -3, 4],
        vec![-2, -3, -4],
        vec![1, 5, 6],
    ];
    let cnf = cnf_from(6, &clauses);
    let (sat, stats) = solve_checked(&cnf, on());
    assert!(sat);
    assert_eq!(stats.failed_literals, 1, "{stats}");
    assert_eq!(solve_checked(&cnf, off()).1.failed_literals, 0);
}

/// A substituted variable named again, by assumptions, by a clause and by an enumeration's
/// projection, is put back first: the answers are those of brute force.
#[test]
fn a_substituted_variable_named_again_is_put_back() {
    let clauses = vec![vec![-1, 2], vec![1, -2], vec![1, 3, 4], vec![-3, -4]];
    let cnf = cnf_from(4, &clauses);
    let mut solver = Solver::with_options(on());
    cnf.add_to(&mut solver);
    assert!(matches!(solver.solve(), Outcome::Sat(_)));
    assert_eq!(solver.stats().substituted_vars, 1);
    // x2 went (x1 is the representative); assuming x2 and ¬x1 refutes.
    assert_eq!(solver.solve_with(&[lit(2), lit(-1)]), Outcome::Unsat);
    let mut failed = solver.failed_assumptions().to_vec();
    failed.sort();
    assert_eq!(failed, [lit(-1), lit(2)]);
    // A clause on x2: ¬x2, so ¬x1 too, and then x3 or x4.
    solver.add_clause(&[lit(-2)]);
    let Outcome::Sat(model) = solver.solve() else {
        panic!("satisfiable")
    };
    assert!(!model.value(Var::from_index(0)) && !model.value(Var::from_index(1)));
    let mut with_unit = cnf.clone();
    with_unit.add_clause(&[lit(-2)]);
    assert!(with_unit.is_satisfied_by(&model));
    // Projected on x1 and x3: (¬x1, x3), (¬x1, ¬x3).
    let vars = [Var::from_index(0), Var::from_index(2)];
    let mut seen = HashSet::new();
    let end = solver.enumerate(&vars, |model| {
        assert!(with_unit.is_satisfied_by(model));
        assert!(seen.insert((model.value(vars[0]), model.value(vars[1]))));
        ControlFlow::Continue(())
    });
    assert_eq!(end, Enumeration::Complete(2));
}

/// A random clause list on `vars` variables, with equivalences planted between random pairs
/// of variables (each `x ≡ ±y` as the two binary clauses).
fn planted_formula() -> impl Strategy<Value = (u32, Vec<Vec<i32>>)> {
    (2u32..=10).prop_flat_map(|vars| {
        let v = 1..=vars as i32;
        let lit = (v.clone(), any::<bool>()).prop_map(|(v, neg)| if neg { -v } else { v });
        let clause = prop::collection::vec(lit.clone(), 1..=4);
        let equivalence = (v.clone(), lit);
        (
            Just(vars),
            prop::collection::vec(clause, 0..=30),
            prop::collection::vec(equivalence, 0..=6),
        )
            .prop_map(|(vars, mut clauses, equivalences)| {
                for (x, y) in equivalences {
                    clauses.push(vec![-x, y]);
                    clauses.push(vec![x, -y]);
                }
                (vars, clauses)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Satisfiability as brute force says, with simplification on or off; models satisfy the
    /// original formula, refutations check.
    #[test]
    fn planted_equivalences_agree_with_brute_force((vars, clauses) in planted_formula()) {
        let cnf = cnf_from(vars, &clauses);
        let expected = !brute_force_models(&cnf).is_empty();
        prop_assert_eq!(solve_checked(&cnf, on()).0, expected);
        prop_assert_eq!(solve_checked(&cnf, off()).0, expected);
    }

    /// After a first solve has substituted, assumptions and then an enumeration projected on
    /// some variables agree with brute force.
    #[test]
    fn incremental_use_after_substitution_agrees_with_brute_force(
        (vars, clauses) in planted_formula(),
        picks in prop::collection::vec((0u32..10, any::<bool>()), 0..4),
        projection in prop::collection::vec(0u32..10, 0..4),
    ) {
        let cnf = cnf_from(vars, &clauses);
        let mut solver = Solver::with_options(on());
        cnf.add_to(&mut solver);
        let models = brute_force_models(&cnf);
        prop_assert_eq!(matches!(solver.solve(), Outcome::Sat(_)), !models.is_empty());
        let assumptions = literals_within(vars, &picks);
        let mut with_units = cnf.clone();
        for &a in &assumptions {
            with_units.add_clause(&[a]);
        }
        match solver.solve_with(&assumptions) {
            Outcome::Sat(model) => prop_assert!(with_units.is_satisfied_by(&model)),
            Outcome::Unsat => {
                let mut core = cnf.clone();
                for &a in solver.failed_assumptions() {
                    prop_assert!(assumptions.contains(&a));
                    core.add_clause(&[a]);
                }
                prop_assert!(brute_force_models(&core).is_empty());
            }
            Outcome::Unknown(reason) => panic!("{reason}"),
        }
        let mut vars_of: Vec<Var> =
            projection.iter().filter(|&&v| v < vars).map(|&v| Var::from_index(v)).collect();
        vars_of.sort();
        vars_of.dedup();
        let expected: HashSet<Vec<bool>> = models
            .iter()
            .map(|m| vars_of.iter().map(|v| m[v.index()]).collect())
            .collect();
        let mut seen = HashSet::new();
        let end = solver.enumerate(&vars_of, |model| {
            assert!(cnf.is_satisfied_by(model));
            assert!(seen.insert(vars_of.iter().map(|&v| model.value(v)).collect::<Vec<_>>()));
            ControlFlow::Continue(())
        });
        prop_assert_eq!(end, Enumeration::Complete(expected.len() as u64));
        prop_assert_eq!(seen, expected);
    }
}

/// Uniform random 3-SAT near the threshold on `vars` variables, with `x1 ≡ x2`, `x3 ≡ ¬x4`
/// and `x5 ≡ x6` planted.
fn random_3sat_planted(vars: u32, clauses: u32, seed: u64) -> Cnf {
    let mut rng = nqueens_support::SplitMix64::new(seed);
    let mut list: Vec<Vec<i32>> = vec![
        vec![-1, 2],
        vec![1, -2],
        vec![3, 4],
        vec![-3, -4],
        vec![-5, 6],
        vec![5, -6],
    ];
    for _ in 0..clauses {
        let mut picked: Vec<i32> = Vec::new();
        while picked.len() < 3 {
            let v = rng.below(vars) as i32 + 1;
            if !picked.iter().any(|l| l.abs() == v) {
                picked.push(if rng.below(2) == 1 { -v } else { v });
            }
        }
        list.push(picked);
    }
    cnf_from(vars, &list)
}

/// Substitution and probing again at restarts (Luby restarts every 8 conflicts or so; due
/// after 10 conflicts, then 20, 40, ...): the
/// answers agree with a solver without them, models satisfy the original formula, and every
/// refutation, through clauses rewritten in the middle of the search, checks.
#[test]
fn simplifying_at_restarts_keeps_answers_and_proofs_right() {
    let often = Options {
        simplify_interval: 10,
        restarts: Restarts::Luby { unit: 8 },
        ..on()
    };
    let (mut runs, mut seeds, mut unsat) = (0, 0, 0);
    for seed in 1..=30 {
        let cnf = random_3sat_planted(80, 345, seed);
        let (sat, stats) = solve_checked(&cnf, often.clone());
        assert_eq!(sat, solve_checked(&cnf, off()).0, "seed {seed}");
        runs += stats.simplifications;
        seeds += 1;
        unsat += u64::from(!sat);
    }
    assert!(runs > 2 * seeds, "{runs} simplifications in {seeds} solves");
    assert!(unsat >= 5, "{unsat} refutations");
}
