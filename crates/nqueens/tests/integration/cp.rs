//! The CP engine against the published counts, the independent verifier, the pairwise
//! decomposition and the backtracking engine.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use nqueens_cp::Strength;
use nqueens_solver::engines::backtrack::Backtrack;
use nqueens_solver::engines::cp::{Cp, MAX_N};
use nqueens_solver::{
    Engine, EngineError, Enumeration, LimitReached, Outcome, Problem, Queen, Solution, Stopped,
    instances::oeis, verify,
};
use proptest::prelude::*;

use crate::common;

fn problem(n: u32) -> Problem {
    Problem::new(n).unwrap()
}

/// The default engine with one setting changed.
fn cp(set: impl FnOnce(&mut Cp)) -> Cp {
    let mut engine = Cp::default();
    set(&mut engine);
    engine
}

fn with_strength(strength: Strength) -> Cp {
    cp(|e| e.strength = strength)
}

/// Every solution `engine` enumerates, each checked by `verify` and seen once.
fn solutions(engine: &mut Cp, p: &Problem) -> BTreeSet<Solution> {
    let mut seen = BTreeSet::new();
    let end = engine
        .for_each(p, &mut |s| {
            assert_eq!(verify(p, s), Ok(()), "{p:?}: {s:?}");
            assert!(seen.insert(s.clone()), "{p:?}: {s:?} visited twice");
            ControlFlow::Continue(())
        })
        .unwrap();
    assert_eq!(end, Enumeration::Complete);
    seen
}

#[test]
fn counts_match_a000170_up_to_12_and_every_solution_verifies() {
    for n in 1..=12 {
        let p = problem(n);
        let mut engine = Cp::default();
        let found = solutions(&mut engine, &p);
        assert_eq!(found.len() as u128, oeis::total(n).unwrap(), "n = {n}");
        assert_eq!(engine.stats().get("solutions"), Some(found.len() as u128));
        assert_eq!(
            engine.count(&p, false).unwrap().total,
            oeis::total(n).unwrap()
        );
    }
}

#[test]
fn unique_counts_match_a002562_up_to_9() {
    for n in 1..=9 {
        let counts = Cp::default().count(&problem(n), true).unwrap();
        assert_eq!(counts.unique, oeis::unique(n), "n = {n}");
    }
}

#[test]
fn every_strength_yields_the_same_solution_set_up_to_10() {
    for n in 1..=10 {
        let p = problem(n);
        let oracle = solutions(&mut with_strength(Strength::Pairwise), &p);
        for strength in [Strength::Value, Strength::Bounds] {
            let found = solutions(&mut with_strength(strength), &p);
            assert!(
                found == oracle,
                "n = {n}: {strength:?} differs from pairwise"
            );
        }
        // Random tie-breaking and values change the order, never the set.
        let seeded = solutions(&mut cp(|e| e.seed = Some(u64::from(n))), &p);
        assert!(seeded == oracle, "n = {n}: a seeded search differs");
    }
}

#[test]
fn first_solutions_verify_for_every_strength() {
    for n in [1, 4, 5, 8, 20, 50, 100, 300] {
        let p = problem(n);
        for strength in [Strength::Pairwise, Strength::Value, Strength::Bounds] {
            if strength == Strength::Pairwise && n > 100 {
                continue; // n²/2 propagators: fine, but slow under debug assertions
            }
            let Outcome::Found(s) = with_strength(strength).solve(&p).unwrap() else {
                panic!("n = {n}, {strength:?}: no solution found");
            };
            assert_eq!(verify(&p, &s), Ok(()), "n = {n}, {strength:?}");
        }
    }
}

#[test]
fn boards_without_solutions_are_proved_so() {
    for n in [2, 3] {
        assert_eq!(
            Cp::default().solve(&problem(n)).unwrap(),
            Outcome::NoSolution
        );
    }
    // Queens at 1:1 and 2:3 leave no room for a third on 4×4.
    let p = Problem::with_fixed(4, [Queen::new(0, 0), Queen::new(1, 2)]).unwrap();
    assert_eq!(Cp::default().solve(&p).unwrap(), Outcome::NoSolution);
    assert_eq!(Cp::default().count(&p, false).unwrap().total, 0);
}

#[test]
fn fixed_queens_are_kept() {
    let fixed = [Queen::new(0, 0), Queen::new(20, 31), Queen::new(63, 40)];
    let p = Problem::with_fixed(64, fixed).unwrap();
    let Outcome::Found(s) = Cp::default().solve(&p).unwrap() else {
        panic!("64 queens complete around three fixed ones");
    };
    assert_eq!(verify(&p, &s), Ok(()));
    for q in fixed {
        assert_eq!(s.columns()[q.row as usize], q.col);
    }
}

#[test]
fn seeded_searches_repeat() {
    let p = problem(60);
    let run = |seed| {
        let mut engine = cp(|e| e.seed = Some(seed));
        let Outcome::Found(s) = engine.solve(&p).unwrap() else {
            panic!("seed {seed}: no solution");
        };
        assert_eq!(verify(&p, &s), Ok(()));
        (s, engine.stats())
    };
    assert_eq!(run(7), run(7));
}

#[test]
fn limits_give_up_and_say_why() {
    let p = problem(12);
    let mut engine = cp(|e| e.limits.nodes = Some(10));
    let mut seen = 0;
    let end = engine.for_each(&p, &mut |_| {
        seen += 1;
        ControlFlow::Continue(())
    });
    // A stopped enumeration is no count: the solutions seen so far, and the limit.
    assert!(
        matches!(
            end,
            Err(EngineError::Stopped {
                stopped: Stopped {
                    reason: LimitReached::Nodes,
                    found,
                },
                ..
            }) if found == seen
        ),
        "{end:?}"
    );
    assert!(seen < 14_200);
    assert_eq!(engine.stats().get("nodes"), Some(10));
    // Root propagation alone decides nothing on an empty 30×30 board.
    let hard = problem(30);
    let mut engine = cp(|e| e.limits.nodes = Some(0));
    assert_eq!(
        engine.solve(&hard).unwrap_err().stopped(),
        Some(Stopped::new(LimitReached::Nodes, 0))
    );
}

#[test]
fn refuses_what_it_cannot_do() {
    let too_large = problem(MAX_N + 1);
    let err = Cp::default().solve(&too_large).unwrap_err();
    assert!(matches!(err, EngineError::TooLarge { max: MAX_N, .. }));
    assert_eq!(
        err.to_string(),
        format!(
            "the cp method handles n up to {MAX_N}; n = {} is too large",
            MAX_N + 1
        )
    );
    common::assert_corner_queen_counts_match_backtracking(&mut Cp::default());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Completion counts equal the backtracking engine's, for every strength; every solution
    /// verifies and keeps the fixed queens.
    #[test]
    fn completions_agree_with_backtracking(p in common::partial_board(10, 4)) {
        let expected = Backtrack::default().count(&p, false).unwrap().total;
        for strength in [Strength::Pairwise, Strength::Value, Strength::Bounds] {
            let found = solutions(&mut with_strength(strength), &p);
            prop_assert_eq!(found.len() as u128, expected, "{:?}", strength);
        }
        match Cp::default().solve(&p).unwrap() {
            Outcome::Found(s) => prop_assert_eq!(verify(&p, &s), Ok(())),
            Outcome::NoSolution => prop_assert_eq!(expected, 0),
        }
    }
}
