//! The simplification passes (elimination with its subsumption, strengthening and gate
//! search, substitution, probing) under the solve's limits and their own effort bounds: a
//! limit reached stops them as it stops the search (the solve answers `Unknown`, having done
//! no pass work when the limit was reached before it began), a later solve takes up what was
//! stopped, and a pass cut short by its effort bound leaves a formula whose answers, models
//! (checked against the original formula) and refutations (checked by the RUP checker) are
//! right.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::support;
use crate::support::{all_passes, brute_force_models, cnf_from, random_formula, xor_chain};
use nqueens_sat::{
    ClauseSink, Cnf, LimitReached, Limits, Lit, Options, Outcome, Restarts, Solver, Var,
};
use proptest::prelude::*;

/// The XOR chain `x0 ⊕ … ⊕ x(n-1) = 1` as Tseitin clauses (inputs `0..n`, links `n..2n`,
/// the last link true), with each input `x_i` also made equivalent to a fresh variable
/// `y_i` (variables `2n..3n`, binary clauses both ways): elimination takes links out, and
/// substitution replaces the `y_i` (or the `x_i`).
fn chain_with_equivalences(n: u32) -> Cnf {
    let mut cnf = xor_chain(n);
    let v = |i: u32| Lit::positive(Var::from_index(i));
    let (x, y) = (|i| v(i), |i| v(2 * n + i));
    cnf.ensure_vars(3 * n);
    for i in 0..n {
        cnf.add_clause(&[!x(i), y(i)]);
        cnf.add_clause(&[x(i), !y(i)]);
    }
    cnf
}

#[test]
fn a_stop_flag_raised_before_the_solve_stops_every_pass_before_its_work() {
    let cnf = chain_with_equivalences(60);
    let stop = Arc::new(AtomicBool::new(true));
    let mut solver = Solver::with_options(all_passes());
    cnf.add_to(&mut solver);
    solver.set_limits(Limits {
        stop: Some(stop.clone()),
        ..Limits::default()
    });
    assert_eq!(solver.solve(), Outcome::Unknown(LimitReached::Stopped));
    let stats = *solver.stats();
    assert_eq!(
        (
            stats.eliminated_vars,
            stats.substituted_vars,
            stats.probes,
            stats.subsumed_clauses,
            stats.congruence_gates,
            stats.simplify_ticks
        ),
        (0, 0, 0, 0, 0, 0),
        "{stats}"
    );
    // The flag lowered, the next solve does the passes it was stopped before, and answers.
    stop.store(false, Ordering::Relaxed);
    let Outcome::Sat(model) = solver.solve() else {
        panic!("the chain has models")
    };
    assert!(cnf.is_satisfied_by(&model), "the model falsifies a clause");
    let stats = *solver.stats();
    assert!(
        stats.eliminated_vars > 0 && stats.substituted_vars > 0,
        "{stats}"
    );
}

#[test]
fn a_time_limit_already_spent_stops_every_pass_before_its_work() {
    let cnf = chain_with_equivalences(60);
    let mut solver = Solver::with_options(all_passes());
    cnf.add_to(&mut solver);
    solver.set_limits(Limits::time(Duration::ZERO));
    assert_eq!(solver.solve(), Outcome::Unknown(LimitReached::Time));
    let stats = *solver.stats();
    assert_eq!(
        (stats.eliminated_vars, stats.simplify_ticks),
        (0, 0),
        "{stats}"
    );
    solver.set_limits(Limits::default());
    let Outcome::Sat(model) = solver.solve() else {
        panic!("the chain has models")
    };
    assert!(cnf.is_satisfied_by(&model), "the model falsifies a clause");
}

/// With a thousandth of its budget, elimination stops part way (223 variables of the 400
/// the whole run takes): the pass is cut (`passes_cut`), and the formula it leaves still
/// gives a model of the original chain, and with the chain's end negated a refutation the
/// RUP checker accepts.
#[test]
fn elimination_cut_by_its_effort_bound_leaves_a_formula_with_right_answers() {
    let mut cnf = chain_with_equivalences(200);
    let eliminating = |effort| Options {
        eliminate: true,
        simplify_effort: effort,
        ..Options::default()
    };
    let (model, full) = support::solve_checked(&cnf, eliminating(1000));
    assert!(model.is_some());
    let (model, cut) = support::solve_checked(&cnf, eliminating(1));
    assert!(model.is_some());
    assert!(cut.passes_cut >= 1, "{cut}");
    assert!(
        cut.eliminated_vars > 0 && cut.eliminated_vars < full.eliminated_vars,
        "cut {} against {} whole",
        cut.eliminated_vars,
        full.eliminated_vars
    );
    // Two of the equivalent inputs made different: no model, and a refutation through what
    // the cut elimination left.
    let (x, y) = (
        Lit::positive(Var::from_index(0)),
        Lit::positive(Var::from_index(400)),
    );
    cnf.add_clause(&[x, y]);
    cnf.add_clause(&[!x, !y]);
    let (model, _) = support::solve_checked(&cnf, eliminating(1));
    assert!(model.is_none());
}

/// Probing and substitution cut by a zero effort (probing after one probe, substitution
/// at the first step of its search of the implication graph: nothing substituted) on a
/// formula with many roots (`r_i → x_i`) and equivalences: answers and models still right.
#[test]
fn probing_and_substitution_cut_by_their_effort_bound_answer_right() {
    let n = 200;
    let mut cnf = chain_with_equivalences(n);
    for i in 0..n {
        let root = Lit::positive(cnf.new_var());
        cnf.add_clause(&[!root, Lit::positive(Var::from_index(i))]);
    }
    let options = |effort| Options {
        substitute: true,
        probe: true,
        simplify_interval: 0,
        simplify_effort: effort,
        ..Options::default()
    };
    let (model, whole) = support::solve_checked(&cnf, options(1000));
    assert!(model.is_some());
    let (model, cut) = support::solve_checked(&cnf, options(0));
    assert!(model.is_some());
    assert!(cut.passes_cut >= 2, "{cut}");
    assert!(
        cut.probes == 1 && whole.probes >= n.into(),
        "{cut} against {whole}"
    );
    assert_eq!(cut.substituted_vars, 0, "{cut}");
    assert!(whole.substituted_vars > 0, "{whole}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every pass on with a random small effort (0 to 3 thousandths: passes stop after a step
    /// or a few), at every restart: the answer agrees with the brute force, the model
    /// satisfies the original formula, the refutation checks.
    #[test]
    fn passes_cut_anywhere_keep_answers_models_and_proofs_right(
        (vars, clauses) in random_formula(12, 0..=60),
        effort in 0u64..=3,
    ) {
        let cnf = cnf_from(vars, &clauses);
        let expected = !brute_force_models(&cnf).is_empty();
        let options = Options { simplify_effort: effort, ..all_passes() };
        let (model, _) = support::solve_checked(&cnf, options);
        prop_assert_eq!(model.is_some(), expected);
    }
}

/// With `Options::simplify_delay`, no pass runs before the search has made that many
/// conflicts: a formula refuted sooner is searched as given (no pass's work, the same search
/// as with every pass off), while a delay the search passes lets them run (at a restart);
/// every refutation's proof checks.
#[test]
fn the_passes_wait_for_the_delay_in_conflicts() {
    let cnf = support::pigeonhole(6, 5);
    // Restarts every 10 conflicts or so, where the passes may run.
    let restarts = Restarts::Luby { unit: 10 };
    let delayed = |delay| Options {
        simplify_delay: delay,
        restarts,
        ..all_passes()
    };
    let plain = Options {
        restarts,
        ..Options::default()
    };
    let (model, plain) = support::solve_checked(&cnf, plain);
    assert!(model.is_none());
    assert!(plain.conflicts >= 100, "{plain}");
    let (model, stats) = support::solve_checked(&cnf, delayed(plain.conflicts + 1));
    assert!(model.is_none());
    assert_eq!(
        (
            stats.simplify_ticks,
            stats.simplifications,
            stats.elimination_rounds,
            stats.vivify_checks,
            stats.conflicts
        ),
        (0, 0, 0, 0, plain.conflicts),
        "{stats}"
    );
    let (model, stats) = support::solve_checked(&cnf, delayed(plain.conflicts / 4));
    assert!(model.is_none());
    assert!(
        stats.simplify_ticks > 0 && stats.simplifications > 0,
        "{stats}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every pass begun mid-search (after a delay of a few conflicts, at one of the restarts
    /// that come every conflict or two; in about a quarter of the cases the search lasts that
    /// long), with and without elimination rounds: the answer is the brute force's, the model
    /// satisfies the formula and a refutation's proof checks.
    #[test]
    fn passes_begun_mid_search_agree_with_brute_force(
        (vars, clauses) in support::random_3sat_near_threshold(),
        delay in 1u64..8,
        rounds in any::<bool>(),
    ) {
        let cnf = cnf_from(vars, &clauses);
        let options = Options {
            simplify_delay: delay,
            restarts: Restarts::Luby { unit: 1 },
            eliminate_rounds: rounds,
            ..all_passes()
        };
        let (model, _) = support::solve_checked(&cnf, options);
        prop_assert_eq!(model.is_some(), !brute_force_models(&cnf).is_empty());
    }
}
