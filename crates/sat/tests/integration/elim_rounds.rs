//! Elimination rounds during the search ([`Options::eliminate_rounds`]): every answer agrees
//! with the brute force, every model satisfies the original formula (the extension stack
//! completes what each round eliminated), every refutation's proof (the rounds' resolvents
//! and deletions among the learnt clauses) is replayed by the independent RUP checker
//! (`rup.rs`), incremental use after a round puts eliminated variables back, and the bound
//! grows: a variable whose resolvents are one more than its clauses goes only in a round
//! after a complete run at bound 0, and never with the bound capped at 0.

use crate::support::{
    SharedBuf, brute_force_models, check_projected_enumeration, check_solve_with, cnf_from,
    dimacs_clause_within, dimacs_clauses, literals_within, random_formula, solve_checked,
};

use nqueens_sat::{ClauseSink, Cnf, Lit, Options, Outcome, Restarts, Solver, Stats, Var};
use nqueens_support::SplitMix64;
use proptest::prelude::*;

/// Elimination with rounds at every restart (and at each solve's start), restarts every few
/// conflicts, the bound's cap `bound`; with `together`, substitution and probing at every
/// restart too.
fn rounds(bound: u32, together: bool) -> Options {
    Options {
        eliminate: true,
        eliminate_rounds: true,
        eliminate_bound: bound,
        eliminate_interval: 0,
        restarts: Restarts::Luby { unit: 2 },
        substitute: together,
        probe: together,
        simplify_interval: 1,
        ..Options::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn rounds_agree_with_brute_force_models_and_proofs_check(
        (vars, clauses) in random_formula(12, 0..=70),
        bound in 0u32..=16,
        together in any::<bool>(),
    ) {
        let cnf = cnf_from(vars, &clauses);
        let models = brute_force_models(&cnf);
        let (model, _) = solve_checked(&cnf, rounds(bound, together));
        prop_assert_eq!(model.is_some(), !models.is_empty());
    }

    /// Solves (which runs rounds), then adds clauses, some on eliminated variables, and
    /// solves again under assumptions on any variable: what was eliminated is put back, and
    /// every answer is right for the formula so far.
    #[test]
    fn clauses_and_assumptions_after_rounds_put_variables_back(
        (vars, clauses) in random_formula(10, 0..=50),
        later in prop::collection::vec(prop::collection::vec((1..=10i32, any::<bool>()), 1..=3), 1..=5),
        picks in prop::collection::vec((0u32..10, any::<bool>()), 1..4),
        together in any::<bool>(),
    ) {
        let mut cnf = cnf_from(vars, &clauses);
        let mut solver = Solver::with_options(rounds(16, together));
        cnf.add_to(&mut solver);
        let first = matches!(solver.solve(), Outcome::Sat(_));
        prop_assert_eq!(first, !brute_force_models(&cnf).is_empty());
        let assumptions = literals_within(vars, &picks);
        for clause in later {
            let lits = dimacs_clause_within(vars, &clause);
            cnf.add_clause(&lits);
            solver.add_clause(&lits);
            check_solve_with(&mut solver, &cnf, &[]);
            check_solve_with(&mut solver, &cnf, &assumptions);
        }
    }

    /// Enumeration projected on the first `k` variables, with rounds at every restart and at
    /// each model's solve (the projection frozen, the blocking clauses irredundant): the
    /// count and the projected models are the brute force's.
    #[test]
    fn projected_enumeration_with_rounds_counts_agree(
        (vars, clauses) in random_formula(9, 0..=40),
        k in 1u32..=9,
        solve_first in any::<bool>(),
    ) {
        check_projected_enumeration(rounds(16, false), &cnf_from(vars, &clauses), k, solve_first);
    }
}

/// `x` with clauses `(x ∨ a)`, `(x ∨ b)`, `(¬x ∨ c)`, `(¬x ∨ d)`, `(¬x ∨ e)`: six resolvents
/// for five clauses, so bound 0 keeps it and bound 1 lets it go. `a` to `e` are frozen (a
/// solve's assumptions). Returns the solver after that solve, and the formula.
fn one_more_resolvent(options: Options) -> (Solver, Cnf, Vec<Lit>) {
    let l = |v: u32| Lit::positive(Var::from_index(v));
    let (x, others) = (l(0), [l(1), l(2), l(3), l(4), l(5)]);
    let mut cnf = Cnf::new();
    cnf.add_clause(&[x, others[0]]);
    cnf.add_clause(&[x, others[1]]);
    for &other in &others[2..] {
        cnf.add_clause(&[!x, other]);
    }
    let mut solver = Solver::with_options(options);
    cnf.add_to(&mut solver);
    let Outcome::Sat(model) = solver.solve_with(&others) else {
        panic!("the formula has models with a to e true")
    };
    assert!(cnf.is_satisfied_by(&model));
    (solver, cnf, others.to_vec())
}

#[test]
fn a_variable_needing_bound_one_goes_only_once_the_bound_has_grown() {
    let first_run_only = Options {
        eliminate: true,
        ..Options::default()
    };
    let (solver, _, _) = one_more_resolvent(first_run_only);
    assert_eq!(solver.stats().eliminated_vars, 0);
    let (solver, _, _) = one_more_resolvent(rounds(0, false));
    assert_eq!(solver.stats().eliminated_vars, 0, "the bound capped at 0");
    // The first run (bound 0) completes, the bound grows to 1, the round at the solve's
    // start eliminates x.
    let (mut solver, mut cnf, others) = one_more_resolvent(rounds(1, false));
    let stats = *solver.stats();
    assert_eq!((stats.eliminated_vars, stats.elimination_rounds), (1, 1));
    // An assumption on x puts it back; so does a clause.
    let x = Lit::positive(Var::from_index(0));
    check_solve_with(&mut solver, &cnf, &[!x]);
    assert_eq!(solver.stats().restored_vars, 1);
    cnf.add_clause(&[!others[0]]);
    solver.add_clause(&[!others[0]]);
    check_solve_with(&mut solver, &cnf, &[!x]);
    assert!(matches!(solver.solve_with(&[!x]), Outcome::Unsat));
    check_solve_with(&mut solver, &cnf, &[]);
}

/// A random 3-CNF formula over `vars` variables with `clauses` clauses.
fn random_3cnf(rng: &mut SplitMix64, vars: u32, clauses: usize) -> Cnf {
    let mut cnf = Cnf::new();
    cnf.ensure_vars(vars);
    for _ in 0..clauses {
        let clause: Vec<Lit> = (0..3)
            .map(|_| Lit::new(Var::from_index(rng.below(vars)), rng.below(2) == 1))
            .collect();
        cnf.add_clause(&clause);
    }
    cnf
}

/// Random 3-CNF formulas near the threshold (40 variables, 4.3 clauses a variable), each
/// solved with the first run only and with rounds at every restart (alone, and with
/// substitution and probing at every restart too): all answer alike, every
/// model and proof checks, rounds run during the search, and over the set they eliminate
/// more than the first run alone (the search's units and the growing bound reach further).
#[test]
fn rounds_during_the_search_eliminate_more_and_stay_right() {
    let mut rng = SplitMix64::new(53);
    let (mut once, mut again) = (Stats::default(), Stats::default());
    for _ in 0..30 {
        let cnf = random_3cnf(&mut rng, 40, 172);
        let first_run_only = Options {
            eliminate_rounds: false,
            ..rounds(16, false)
        };
        let (a, stats_once) = solve_checked(&cnf, first_run_only);
        let (b, stats_again) = solve_checked(&cnf, rounds(16, false));
        let (c, _) = solve_checked(&cnf, rounds(16, true));
        assert_eq!(a.is_some(), b.is_some());
        assert_eq!(a.is_some(), c.is_some());
        once.eliminated_vars += stats_once.eliminated_vars;
        once.elimination_rounds += stats_once.elimination_rounds;
        again.eliminated_vars += stats_again.eliminated_vars;
        again.elimination_rounds += stats_again.elimination_rounds;
    }
    assert_eq!(once.elimination_rounds, 0);
    assert!(
        again.elimination_rounds >= 30,
        "{} rounds",
        again.elimination_rounds
    );
    assert!(
        again.eliminated_vars > once.eliminated_vars,
        "{} eliminated with rounds, {} without",
        again.eliminated_vars,
        once.eliminated_vars
    );
}

/// A proof across rounds is written to the end: the solver with a proof and rounds at every
/// restart refutes pigeonhole 6 into 5, and the RUP checker accepts it.
#[test]
fn a_pigeonhole_refutation_across_rounds_checks() {
    let cnf = crate::support::pigeonhole(6, 5);
    let proof = SharedBuf::default();
    let mut solver = Solver::with_options(rounds(16, false));
    solver.set_proof(proof.clone());
    cnf.add_to(&mut solver);
    assert_eq!(solver.solve(), Outcome::Unsat);
    solver.finish_proof().unwrap();
    assert!(solver.stats().elimination_rounds > 0);
    crate::rup::check(cnf.num_vars(), &dimacs_clauses(&cnf), &proof.text()).unwrap();
}
