//! Bounded variable elimination ([`Options::eliminate`]) against a brute-force oracle: every
//! answer agrees with elimination off, every model satisfies the original formula (the
//! extension stack completes the eliminated variables), every refutation's proof (resolvents,
//! strengthened clauses, deletions) is replayed by the independent forward RUP checker
//! (`rup.rs`), and incremental use (clauses and assumptions on eliminated variables after a
//! solve, enumeration) keeps working; the property tests run it alone and together with
//! equivalent-literal substitution and probing (at every restart).

use crate::rup;
use crate::support::{
    ProofStages, SharedBuf, all_passes, brute_force_models, check_later_clauses,
    check_projected_enumeration, check_solve_with, cnf_from, dimacs_clauses, literals_within,
    pigeonhole, random_formula, solved_once, xor_chain,
};

use nqueens_sat::{ClauseSink, Cnf, Lit, Options, Outcome, Solver, Var};
use proptest::prelude::*;

fn eliminating() -> Options {
    Options {
        eliminate: true,
        ..Options::default()
    }
}

/// Elimination alone, or (`together`) with equivalent-literal substitution and failed-literal
/// probing before it and again at every restart: the three share the extension stack, the
/// frozen variables and the putting back.
fn simplifying(together: bool) -> Options {
    if together {
        all_passes()
    } else {
        eliminating()
    }
}

/// Solves `cnf` with elimination and a proof; checks the model against the formula or the
/// proof with the RUP checker. Returns whether it was satisfiable and the variables eliminated.
fn solve_checked(cnf: &Cnf) -> (bool, u64) {
    solve_checked_with(cnf, eliminating())
}

/// [`solve_checked`] with other options.
fn solve_checked_with(cnf: &Cnf, options: Options) -> (bool, u64) {
    let (model, stats) = crate::support::solve_checked(cnf, options);
    (model.is_some(), stats.eliminated_vars)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn agrees_with_brute_force_models_and_proofs_check(
        (vars, clauses) in random_formula(12, 0..=60),
        together in any::<bool>(),
    ) {
        let cnf = cnf_from(vars, &clauses);
        let models = brute_force_models(&cnf);
        let (sat, _) = solve_checked_with(&cnf, simplifying(together));
        prop_assert_eq!(sat, !models.is_empty());
    }

    /// A solve (which eliminates), then more clauses, some on eliminated variables: they are
    /// put back, and the answers stay right for the formula so far; the first refutation's
    /// proof, written across the solves, checks stage by stage (the clauses put back are
    /// restores of clauses the proof deleted).
    #[test]
    fn clauses_added_after_a_solve_put_eliminated_variables_back(
        (vars, clauses) in random_formula(10, 0..=40),
        later in prop::collection::vec(prop::collection::vec((1..=10i32, any::<bool>()), 1..=3), 1..=6),
        together in any::<bool>(),
    ) {
        let mut cnf = cnf_from(vars, &clauses);
        let (mut solver, mut proof, first) = solved_once(&cnf, simplifying(together))?;
        check_later_clauses(&mut solver, &mut proof, &mut cnf, (first, vars), &later)?;
    }

    /// A solve (which eliminates), then assumptions on any variable, eliminated or not.
    #[test]
    fn assumptions_on_eliminated_variables_agree_with_unit_clauses(
        (vars, clauses) in random_formula(10, 0..=40),
        picks in prop::collection::vec((0u32..10, any::<bool>()), 1..4),
        together in any::<bool>(),
    ) {
        let cnf = cnf_from(vars, &clauses);
        let assumptions = literals_within(vars, &picks);
        let mut solver = Solver::with_options(simplifying(together));
        cnf.add_to(&mut solver);
        let free = matches!(solver.solve(), Outcome::Sat(_));
        prop_assert_eq!(free, !brute_force_models(&cnf).is_empty());
        check_solve_with(&mut solver, &cnf, &assumptions);
    }

    /// Enumeration projected on the first `k` variables counts the same with elimination on
    /// as the brute force, whether the solver eliminated before (a solve first: the
    /// projection's blocking clauses put variables back) or eliminates in the enumeration
    /// (the projection frozen).
    #[test]
    fn projected_enumeration_counts_agree(
        (vars, clauses) in random_formula(9, 0..=30),
        k in 1u32..=9,
        solve_first in any::<bool>(),
        together in any::<bool>(),
    ) {
        check_projected_enumeration(simplifying(together), &cnf_from(vars, &clauses), k, solve_first);
    }
}

#[test]
fn pigeonhole_refutations_with_elimination_check() {
    for holes in 1..=5 {
        assert!(!solve_checked(&pigeonhole(holes + 1, holes)).0);
        assert!(solve_checked(&pigeonhole(holes, holes)).0);
    }
}

/// An XOR chain `x1 ⊕ … ⊕ x20 = 1` as Tseitin clauses (`t_i ≡ t_{i-1} ⊕ x_i`, `t_20` true):
/// each link variable is in 4 clauses a side, and its 16 resolvents are half tautologies, so
/// elimination takes links out (8 resolvents for 8 clauses); the model, completed by the
/// extension stack, must still satisfy the chain.
#[test]
fn a_tseitin_chain_loses_variables_and_keeps_its_models() {
    let n = 20;
    let mut cnf = xor_chain(n);
    let (sat, eliminated) = solve_checked(&cnf);
    assert!(sat);
    assert!(eliminated >= 10, "only {eliminated} variables eliminated");
    // With its end false as well, the chain is unsatisfiable, and the refutation checks.
    cnf.add_clause(&[!Lit::positive(Var::from_index(2 * n - 1))]);
    assert!(!solve_checked(&cnf).0);
}

/// Tseitin chains lose their inner variables; units against the last model then name
/// eliminated variables until the formula is refuted. Each refutation's proof, across the
/// solves, checks stage by stage: the clauses put back restore clauses the proof deleted.
#[test]
fn refutations_after_variables_are_put_back_check() {
    let mut rng = nqueens_support::SplitMix64::new(11);
    let mut restored = 0;
    for n in 4..16 {
        for _ in 0..3 {
            let mut cnf = xor_chain(n);
            let mut solver = Solver::with_options(eliminating());
            let mut proof = ProofStages::new(&mut solver, &cnf);
            cnf.add_to(&mut solver);
            while let Outcome::Sat(model) = solver.solve() {
                assert!(cnf.is_satisfied_by(&model));
                let var = Var::from_index(rng.below(cnf.num_vars()));
                let positive = Lit::positive(var);
                let against = if model.value(var) {
                    !positive
                } else {
                    positive
                };
                cnf.add_clause(&[against]);
                proof.add_clause(&mut solver, &[against]);
            }
            if let Err(e) = proof.check(&mut solver, cnf.num_vars()) {
                panic!("chain of {n}: the proof across the solves was rejected: {e}");
            }
            restored += solver.stats().restored_vars;
        }
    }
    assert!(restored >= 40, "{restored} variables put back");
}

/// Elimination only runs when some variable has few enough clauses to go (at most 16 a side,
/// or none on one): pigeonhole 18 into 17 (each variable in 1 clause positive, 17 negative)
/// is left alone, its duplicated clause too, while 5 into 4 loses the duplicate.
#[test]
fn a_formula_without_candidates_is_left_alone() {
    let stats_of = |pigeons: u32, holes: u32| {
        let mut cnf = pigeonhole(pigeons, holes);
        let first: Vec<Lit> = cnf.clauses().next().unwrap().to_vec();
        cnf.add_clause(&first);
        let mut solver = Solver::with_options(eliminating());
        cnf.add_to(&mut solver);
        solver.set_limits(nqueens_sat::Limits {
            conflicts: Some(1),
            ..nqueens_sat::Limits::default()
        });
        solver.solve();
        *solver.stats()
    };
    let big = stats_of(18, 17);
    assert_eq!((big.subsumed_clauses, big.eliminated_vars), (0, 0));
    assert!(stats_of(5, 4).subsumed_clauses >= 1);
}

/// Random circuits of AND gates (Tseitin-encoded, some outputs negated) over 5 inputs, with
/// random clauses over every signal: the gates' variables are eliminated by resolving gate
/// clauses against the others only. Every answer agrees with the brute force, every model
/// satisfies the formula and every refutation checks, and gates are found.
#[test]
fn circuits_of_and_gates_are_eliminated_through_their_gates() {
    let mut rng = nqueens_support::SplitMix64::new(7);
    let (mut gates, mut eliminated) = (0, 0);
    for _ in 0..300 {
        let mut cnf = Cnf::new();
        let signal = |v: u32, rng: &mut nqueens_support::SplitMix64| {
            Lit::new(Var::from_index(v), rng.below(2) == 1)
        };
        cnf.ensure_vars(5);
        for g in 5..12 {
            let (a, b) = (
                signal(rng.below(g), &mut rng),
                signal(rng.below(g), &mut rng),
            );
            if a.var() == b.var() {
                continue;
            }
            let out = Lit::positive(cnf.new_var());
            cnf.add_clause(&[!out, a]);
            cnf.add_clause(&[!out, b]);
            cnf.add_clause(&[out, !a, !b]);
        }
        let vars = cnf.num_vars();
        for _ in 0..rng.below(6) {
            let clause: Vec<Lit> = (0..3).map(|_| signal(rng.below(vars), &mut rng)).collect();
            cnf.add_clause(&clause);
        }
        let expected = !brute_force_models(&cnf).is_empty();
        let proof = SharedBuf::default();
        let mut solver = Solver::with_options(eliminating());
        solver.set_proof(proof.clone());
        cnf.add_to(&mut solver);
        let outcome = solver.solve();
        solver.finish_proof().unwrap();
        match outcome {
            Outcome::Sat(model) => {
                assert!(expected);
                assert!(cnf.is_satisfied_by(&model), "the model falsifies a clause");
            }
            Outcome::Unsat => {
                assert!(!expected);
                rup::check(cnf.num_vars(), &dimacs_clauses(&cnf), &proof.text()).unwrap();
            }
            Outcome::Unknown(reason) => panic!("{reason}"),
        }
        gates += solver.stats().elimination_gates;
        eliminated += solver.stats().eliminated_vars;
    }
    assert!(
        gates >= 100 && eliminated >= 300,
        "{gates} gates, {eliminated} eliminated"
    );
}

/// The Tseitin chain again, solved (which eliminates), then asked under assumptions on every
/// input: the eliminated inputs are put back, and the answers follow the parity (odd: the
/// chain holds; even: it cannot).
#[test]
fn assumptions_on_a_chain_put_its_eliminated_inputs_back() {
    let n = 20;
    let cnf = xor_chain(n);
    let x = |i: u32| Lit::positive(Var::from_index(i));
    let mut solver = Solver::with_options(eliminating());
    cnf.add_to(&mut solver);
    assert!(matches!(solver.solve(), Outcome::Sat(_)));
    assert!(solver.stats().eliminated_vars > 0);
    let all_true: Vec<Lit> = (0..n).map(x).collect();
    assert_eq!(solver.solve_with(&all_true), Outcome::Unsat);
    assert!(solver.stats().restored_vars > 0, "no variable put back");
    let mut odd = all_true.clone();
    odd[0] = !odd[0];
    let Outcome::Sat(model) = solver.solve_with(&odd) else {
        panic!("an odd assignment of the inputs is a model")
    };
    assert!(cnf.is_satisfied_by(&model));
    assert!(odd.iter().all(|&l| model.lit_is_true(l)));
}
