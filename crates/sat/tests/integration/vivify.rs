//! Learnt-clause vivification ([`Options::vivify`]) against a brute-force oracle: with a
//! reduction after every conflict and a restart after every few, vivification runs many times
//! per solve; every answer agrees with the brute force, every model satisfies the formula,
//! every refutation's proof (the shortened clauses added, the old ones deleted) is replayed by
//! the independent forward RUP checker (`rup.rs`), and incremental use (assumptions, clauses
//! added after a solve) stays right. Alone, and with the other passes at every restart.

use crate::support::{
    all_passes, brute_force_models, check_solve_with, cnf_from, literals_within, pigeonhole,
    random_3sat_near_threshold, random_formula, satisfiable_checked,
};

use nqueens_sat::{ClauseSink, Cnf, Lit, Options, Restarts, Solver, Stats, Var};
use proptest::prelude::*;

/// Vivification at the first restart after each reduction, with a reduction after every
/// conflict and Luby restarts of unit 1: a round every few conflicts. `together`: the other
/// passes on too, at every restart.
fn vivifying(together: bool) -> Options {
    let base = if together {
        all_passes()
    } else {
        Options::default()
    };
    Options {
        vivify: true,
        reduce_first: 1,
        reduce_increment: 0,
        restarts: Restarts::Luby { unit: 1 },
        ..base
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_3sat_agrees_with_brute_force_and_proofs_check(
        (vars, clauses) in random_3sat_near_threshold(),
        together in any::<bool>(),
    ) {
        let cnf = cnf_from(vars, &clauses);
        let (sat, _) = satisfiable_checked(&cnf, vivifying(together));
        prop_assert_eq!(sat, !brute_force_models(&cnf).is_empty());
    }

    #[test]
    fn random_formulas_agree_with_brute_force_and_proofs_check(
        (vars, clauses) in random_formula(12, 0..=60),
        together in any::<bool>(),
    ) {
        let cnf = cnf_from(vars, &clauses);
        let (sat, _) = satisfiable_checked(&cnf, vivifying(together));
        prop_assert_eq!(sat, !brute_force_models(&cnf).is_empty());
    }

    /// Solves under assumptions, adding clauses between the solves: learnt clauses vivified
    /// in one solve are used in the next, and each answer (and each set of failed
    /// assumptions) agrees with the brute force.
    #[test]
    fn incremental_solves_stay_right(
        (vars, clauses) in random_3sat_near_threshold(),
        rounds in prop::collection::vec(
            (
                prop::collection::vec((0u32..16, any::<bool>()), 0..4),
                prop::collection::vec((0u32..16, any::<bool>()), 1..=3),
            ),
            1..=4,
        ),
        together in any::<bool>(),
    ) {
        let mut cnf = cnf_from(vars, &clauses);
        let mut solver = Solver::with_options(vivifying(together));
        cnf.add_to(&mut solver);
        for (assumptions, clause) in rounds {
            check_solve_with(&mut solver, &cnf, &literals_within(vars, &assumptions));
            let clause = literals_within(vars, &clause);
            cnf.add_clause(&clause);
            solver.add_clause(&clause);
        }
        check_solve_with(&mut solver, &cnf, &[]);
    }
}

/// Vivification is not idle in these tests: over random 3-SAT formulas of 80 variables it
/// tries and shortens clauses (a conflict or an implication found), and every refutation's
/// proof, with the shortened clauses and the deletions, checks.
#[test]
fn random_3sat_refutations_with_shortened_clauses_check() {
    let mut totals = Stats::default();
    let mut refuted = 0;
    let mut rng = nqueens_support::SplitMix64::new(7);
    for _ in 0..12 {
        let vars = 80u32;
        let clauses: Vec<Vec<i32>> = (0..344)
            .map(|_| {
                (0..3)
                    .map(|_| {
                        let v = rng.below(vars) as i32 + 1;
                        if rng.below(2) == 1 { -v } else { v }
                    })
                    .collect()
            })
            .collect();
        let cnf = cnf_from(vars, &clauses);
        let options = Options {
            reduce_first: 20,
            reduce_increment: 5,
            restarts: Restarts::Luby { unit: 8 },
            ..vivifying(false)
        };
        let (sat, stats) = satisfiable_checked(&cnf, options);
        refuted += u32::from(!sat);
        totals.vivify_checks += stats.vivify_checks;
        totals.vivified_clauses += stats.vivified_clauses;
        totals.vivified_literals += stats.vivified_literals;
    }
    assert!(refuted > 0, "no formula refuted");
    assert!(totals.vivified_clauses > 0, "nothing vivified: {totals}");
    assert!(
        totals.vivified_literals >= totals.vivified_clauses,
        "{totals}"
    );
}

/// The pigeonhole formula (7 pigeons, 6 holes) is refuted with vivification on, proof
/// checked, and vivification shortens clauses on it; with it off, none is tried.
#[test]
fn pigeonhole_refutation_with_vivification_checks() {
    let cnf = pigeonhole(7, 6);
    let options = Options {
        reduce_first: 100,
        reduce_increment: 20,
        ..vivifying(false)
    };
    let (sat, stats) = satisfiable_checked(&cnf, options.clone());
    assert!(!sat);
    assert!(stats.vivified_clauses > 0, "{stats}");
    let (sat, stats) = satisfiable_checked(
        &cnf,
        Options {
            vivify: false,
            ..options
        },
    );
    assert!(!sat);
    assert_eq!(stats.vivify_checks, 0, "{stats}");
}

/// A solver that vivified during one solve answers later solves, under assumptions and with
/// added clauses, as the brute force does (the shortened learnt clauses are implied by the
/// formula, so they stay right when it grows).
#[test]
fn solves_after_vivification_agree_with_the_brute_force() {
    let mut vivified = 0;
    for seed in 1..=6 {
        let mut rng = nqueens_support::SplitMix64::new(seed);
        let vars = 16u32;
        let mut lit = || Lit::new(Var::from_index(rng.below(vars)), rng.below(2) == 1);
        let clauses: Vec<Vec<Lit>> = (0..64).map(|_| vec![lit(), lit(), lit()]).collect();
        let mut cnf = Cnf::new();
        cnf.ensure_vars(vars);
        for clause in &clauses {
            cnf.add_clause(clause);
        }
        let mut solver = Solver::with_options(vivifying(false));
        cnf.add_to(&mut solver);
        check_solve_with(&mut solver, &cnf, &[]);
        for _ in 0..4 {
            check_solve_with(&mut solver, &cnf, &[lit(), lit()]);
            let clause = [lit(), lit()];
            cnf.add_clause(&clause);
            solver.add_clause(&clause);
            check_solve_with(&mut solver, &cnf, &[lit()]);
        }
        vivified += solver.stats().vivify_checks;
    }
    assert!(vivified > 0, "nothing vivified");
}
