//! Factoring (bounded variable addition, [`Options::factor`]) against a brute-force oracle, on
//! formulas with a product planted in them (every literal of a few *factors* with every clause
//! of a few *quotients*, the shape factoring replaces by a fresh variable): every answer agrees
//! with the brute force, every model satisfies the formula and leaves the fresh variables out,
//! every refutation's DRAT proof (the fresh variables' definitions are RAT lemmas) is replayed
//! by the independent checker (`rup.rs`), across later clauses too, and incremental use keeps
//! working when the caller names new variables after a solve that made fresh ones (its numbers
//! and the solver's then differ).

use crate::support::{
    all_passes, brute_force_models, check_later_clauses, check_projected_enumeration,
    check_solve_with, cnf_from, literals_within, pigeonhole, solve_checked, solved_once,
};

use nqueens_sat::{ClauseSink, Lit, Options, Outcome, Solver, Var};
use proptest::prelude::*;

fn factoring() -> Options {
    Options {
        eliminate: true,
        factor: true,
        ..Options::default()
    }
}

/// Factoring alone (with elimination, which it runs in), or (`together`) with every pass at
/// every restart.
fn factoring_with(together: bool) -> Options {
    if together {
        Options {
            factor: true,
            ..all_passes()
        }
    } else {
        factoring()
    }
}

/// A DIMACS literal on a variable of `lo..=hi`, either sign.
fn literal_between(lo: i32, hi: i32) -> impl Strategy<Value = i32> {
    (lo..=hi, any::<bool>()).prop_map(|(v, negative)| if negative { -v } else { v })
}

/// 8 to 12 variables: 2 to 4 factors on distinct variables of 1–4, each or'd with each of 3 or
/// 4 quotients of 1 to 3 literals on variables 5 and up, beside up to 12 random clauses of 2 or
/// 3 literals.
fn planted_product() -> impl Strategy<Value = (u32, Vec<Vec<i32>>)> {
    (8u32..=12).prop_flat_map(|vars| {
        let top = vars as i32;
        let factors = (
            prop::sample::subsequence(vec![1, 2, 3, 4], 2..=4),
            prop::collection::vec(any::<bool>(), 4),
        )
            .prop_map(|(vars, signs)| {
                vars.iter()
                    .zip(signs)
                    .map(|(&v, negative)| if negative { -v } else { v })
                    .collect::<Vec<i32>>()
            });
        let quotient = prop::collection::vec(literal_between(5, top), 1..=3);
        let quotients = prop::collection::vec(quotient, 3..=4);
        let random = prop::collection::vec(literal_between(1, top), 2..=3);
        let others = prop::collection::vec(random, 0..=12);
        (Just(vars), factors, quotients, others).prop_map(|(vars, factors, quotients, others)| {
            let mut clauses = others;
            for &factor in &factors {
                for quotient in &quotients {
                    clauses.push([factor].into_iter().chain(quotient.clone()).collect());
                }
            }
            (vars, clauses)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn agrees_with_brute_force_models_and_proofs_check(
        (vars, clauses) in planted_product(),
        together in any::<bool>(),
    ) {
        let cnf = cnf_from(vars, &clauses);
        let models = brute_force_models(&cnf);
        let (model, _) = solve_checked(&cnf, factoring_with(together));
        prop_assert_eq!(model.is_some(), !models.is_empty());
        if let Some(model) = model {
            prop_assert!(model.len() <= vars as usize, "a fresh variable in the model");
        }
    }

    /// A solve (which factors), then clauses and assumptions that name variables beyond the
    /// formula's: the caller's new variable 13 is not the solver's fresh one of that number.
    #[test]
    fn later_clauses_and_assumptions_on_new_variables_agree(
        (vars, clauses) in planted_product(),
        later in prop::collection::vec(prop::collection::vec((1..=15i32, any::<bool>()), 1..=3), 1..=4),
        picks in prop::collection::vec((0u32..15, any::<bool>()), 1..4),
    ) {
        let mut cnf = cnf_from(vars, &clauses);
        let mut solver = Solver::with_options(factoring());
        cnf.add_to(&mut solver);
        let first = matches!(solver.solve(), Outcome::Sat(_));
        prop_assert_eq!(first, !brute_force_models(&cnf).is_empty());
        for clause in later {
            let lits: Vec<Lit> = clause
                .iter()
                .map(|&(v, negative)| Lit::new(Var::from_index(v as u32 - 1), negative))
                .collect();
            cnf.add_clause(&lits);
            solver.add_clause(&lits);
            let expected = !brute_force_models(&cnf).is_empty();
            match solver.solve() {
                Outcome::Sat(model) => {
                    prop_assert!(expected);
                    prop_assert!(cnf.is_satisfied_by(&model), "the model falsifies a clause");
                    prop_assert_eq!(model.len(), solver.num_vars() as usize);
                }
                Outcome::Unsat => prop_assert!(!expected),
                Outcome::Unknown(reason) => panic!("{reason}"),
            }
        }
        prop_assert!(solver.num_vars() <= cnf.num_vars());
        let assumptions = literals_within(cnf.num_vars(), &picks);
        check_solve_with(&mut solver, &cnf, &assumptions);
    }

    /// A solve (which factors and eliminates), then clauses on the variables the formula's
    /// clauses name: the first refutation's proof, written across the solves, checks stage by
    /// stage (the fresh variables' definitions are RAT lemmas on variables no given clause
    /// names; a variable the caller names only later has another number in the proof than in
    /// the caller's clauses, as the solver's documentation says, so none is drawn here).
    #[test]
    fn refutations_across_later_clauses_check(
        (vars, clauses) in planted_product(),
        later in prop::collection::vec(prop::collection::vec((1..=12i32, any::<bool>()), 1..=2), 1..=6),
        together in any::<bool>(),
    ) {
        let mut cnf = cnf_from(vars, &clauses);
        let (mut solver, mut proof, first) = solved_once(&cnf, factoring_with(together))?;
        let named = solver.num_vars();
        check_later_clauses(&mut solver, &mut proof, &mut cnf, (first, named), &later)?;
    }

    #[test]
    fn projected_enumeration_counts_agree(
        (vars, clauses) in planted_product(),
        k in 1u32..=12,
        solve_first in any::<bool>(),
    ) {
        check_projected_enumeration(factoring(), &cnf_from(vars, &clauses), k, solve_first);
    }
}

/// Three factors times three quotients, nine clauses, become six on a fresh variable; the
/// caller never sees it, and the caller's variable 10, named after the solve, is another one.
#[test]
fn a_product_becomes_a_fresh_variable_the_caller_never_sees() {
    let quotients = [[4, 5], [6, 7], [8, 9]];
    let clauses: Vec<Vec<i32>> = [1, 2, 3]
        .iter()
        .flat_map(|&f| quotients.iter().map(move |q| vec![f, q[0], q[1]]))
        .collect();
    let mut cnf = cnf_from(9, &clauses);
    let mut solver = Solver::with_options(factoring());
    cnf.add_to(&mut solver);
    let Outcome::Sat(model) = solver.solve() else {
        panic!("satisfiable")
    };
    assert!(cnf.is_satisfied_by(&model));
    assert_eq!((model.len(), solver.num_vars()), (9, 9));
    assert_eq!(solver.stats().factored_vars, 1);
    assert_eq!(solver.stats().factored_clauses, 3);
    // 10 implies ¬1 and ¬4, and ¬5 is a unit: with 10, `1 4 5` is false, so assuming 10
    // fails, and the failed assumptions name it in the caller's numbers.
    let l = |number: i64| Lit::from_dimacs(number).unwrap();
    for clause in [vec![l(-10), l(-1)], vec![l(-10), l(-4)], vec![l(-5)]] {
        cnf.add_clause(&clause);
        solver.add_clause(&clause);
    }
    assert_eq!(solver.num_vars(), 10);
    check_solve_with(&mut solver, &cnf, &[l(2), l(10), l(6)]);
    assert_eq!(solver.failed_assumptions(), &[l(10)]);
    check_solve_with(&mut solver, &cnf, &[l(-10), l(-2)]);
    let Outcome::Sat(model) = solver.solve_with(&[l(-10), l(4)]) else {
        panic!("satisfiable without 10")
    };
    assert!(cnf.is_satisfied_by(&model));
    assert!(model.lit_is_true(l(-10)) && model.lit_is_true(l(4)));
    assert_eq!(model.len(), 10);
}

/// Pigeonhole's at-most-one cliques of binary clauses factor (each clique's pairs into a
/// fresh variable's); the refutations, RAT definitions and all, check.
#[test]
fn pigeonhole_refutations_with_factoring_check() {
    let mut factored = 0;
    for holes in 1..=5 {
        let (model, stats) = solve_checked(&pigeonhole(holes + 1, holes), factoring());
        assert!(model.is_none());
        factored += stats.factored_vars;
        assert!(
            solve_checked(&pigeonhole(holes, holes), factoring())
                .0
                .is_some()
        );
    }
    assert!(factored >= 4, "{factored} fresh variables");
}

/// The planted products the property tests draw are factored: of a hundred of them (a fixed
/// seed), 48 make a fresh variable (in the others the random clauses' units, subsumptions
/// and strengthenings break the product up first), so the tests above test factoring.
#[test]
fn most_planted_products_are_factored() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut factored = 0;
    for _ in 0..100 {
        let (vars, clauses) = planted_product().new_tree(&mut runner).unwrap().current();
        let (_, stats) = solve_checked(&cnf_from(vars, &clauses), factoring());
        factored += u32::from(stats.factored_vars > 0);
    }
    assert!(factored >= 40, "{factored} of 100 factored");
}
