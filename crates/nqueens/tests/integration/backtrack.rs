//! The baseline engine against the published counts, the independent verifier and a brute force.

use std::collections::HashSet;
use std::ops::ControlFlow;

use nqueens_solver::board::naive;
use nqueens_solver::engines::backtrack::{Backtrack, MAX_N};
use nqueens_solver::{
    Engine, EngineError, Enumeration, Outcome, Problem, Queen, Solution, board::symmetry,
    instances::oeis, verify,
};
use proptest::prelude::*;

use crate::common;

fn problem(n: u32) -> Problem {
    Problem::new(n).unwrap()
}

#[test]
fn counts_match_a000170_up_to_14() {
    for n in 1..=14 {
        let expected = oeis::total(n).expect("the table reaches 14");
        for threads in [1, 3] {
            let counts = Backtrack::new(threads).count(&problem(n), false).unwrap();
            assert_eq!(counts.total, expected, "n = {n}, {threads} threads");
            assert_eq!(counts.unique, None);
        }
    }
}

#[test]
fn unique_counts_match_a002562_up_to_12() {
    for n in 1..=12 {
        let counts = Backtrack::new(2).count(&problem(n), true).unwrap();
        assert_eq!(counts.total, oeis::total(n).unwrap(), "n = {n}");
        assert_eq!(counts.unique, oeis::unique(n), "n = {n}");
    }
}

#[test]
fn every_enumerated_solution_is_valid_distinct_and_in_order() {
    for n in 1..=10 {
        let p = problem(n);
        let mut seen: Vec<Solution> = Vec::new();
        let end = Backtrack::default()
            .for_each(&p, &mut |s| {
                assert_eq!(verify(&p, s), Ok(()), "n = {n}: {s:?}");
                seen.push(s.clone());
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!(end, Enumeration::Complete);
        assert_eq!(seen.len() as u128, oeis::total(n).unwrap(), "n = {n}");
        assert!(
            seen.windows(2).all(|w| w[0] < w[1]),
            "n = {n}: lexicographic, hence distinct"
        );
        // The classes of the canonical solutions cover every solution exactly once.
        let covered: usize = seen
            .iter()
            .filter(|s| symmetry::is_canonical(s))
            .map(symmetry::orbit_size)
            .sum();
        assert_eq!(covered, seen.len(), "n = {n}");
    }
}

#[test]
fn solve_finds_the_first_solution_in_lexicographic_order_or_proves_none() {
    assert_eq!(
        Backtrack::default().solve(&problem(2)).unwrap(),
        Outcome::NoSolution
    );
    assert_eq!(
        Backtrack::default().solve(&problem(3)).unwrap(),
        Outcome::NoSolution
    );
    assert_eq!(
        Backtrack::default().solve(&problem(8)).unwrap(),
        Outcome::Found(Solution::from_columns(vec![0, 4, 7, 5, 2, 6, 1, 3]))
    );
    let Outcome::Found(s) = Backtrack::default().solve(&problem(25)).unwrap() else {
        panic!("25-queens has solutions")
    };
    assert_eq!(verify(&problem(25), &s), Ok(()));
}

#[test]
fn the_widest_board_uses_every_bit_of_the_masks() {
    // For n mod 6 in {0, 1, 4, 5}, the even columns then the odd ones (1-based) solve n-queens.
    let n = MAX_N;
    assert_eq!(n % 6, 4);
    let known: Vec<u32> = (1..n).step_by(2).chain((0..n).step_by(2)).collect();
    assert_eq!(
        verify(&problem(n), &Solution::from_columns(known.clone())),
        Ok(())
    );
    // Keep all but eight rows (the first four and the last four, so columns 0 and 63 are
    // free) and let the engine complete the board.
    let free = |row: u32| row < 4 || row >= n - 4;
    let fixed = (0..n)
        .filter(|&r| !free(r))
        .map(|r| Queen::new(r, known[r as usize]));
    let p = Problem::with_fixed(n, fixed).unwrap();
    let mut found = 0;
    Backtrack::default()
        .for_each(&p, &mut |s| {
            assert_eq!(verify(&p, s), Ok(()));
            found += 1;
            ControlFlow::Continue(())
        })
        .unwrap();
    assert!(found >= 1);
    assert_eq!(Backtrack::new(2).count(&p, false).unwrap().total, found);
}

#[test]
fn list_stops_at_the_limit() {
    let mut engine = Backtrack::default();
    let mut seen = 0;
    let end = engine
        .list(&problem(8), Some(5), &mut |_| {
            seen += 1;
            ControlFlow::Continue(())
        })
        .unwrap();
    assert_eq!((seen, end), (5, Enumeration::Stopped));
    assert_eq!(engine.stats().get("solutions"), Some(5));
}

#[test]
fn boards_beyond_64_are_refused_with_the_limit() {
    let err = Backtrack::default().count(&problem(65), false).unwrap_err();
    assert!(
        matches!(err, EngineError::TooLarge { n: 65, max: 64, .. }),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "the backtrack method handles n up to 64; n = 65 is too large"
    );
}

/// Fixed queens keep the symmetries that map them onto themselves: a corner queen keeps the
/// reflection in its diagonal, the centre of an odd board all eight, an off-centre queen none.
/// The unique count is the number of classes of the oracle's solutions under that group.
#[test]
fn unique_counts_of_completions_use_the_symmetries_the_fixed_queens_keep() {
    use nqueens_solver::board::symmetry::Group;
    for (n, queen, group_size) in [
        (8, Queen::new(0, 0), 2),
        (9, Queen::new(4, 4), 8),
        (9, Queen::new(1, 3), 1),
    ] {
        let p = Problem::with_fixed(n, [queen]).unwrap();
        let group = Group::of(&p);
        assert_eq!(group.members().len(), group_size, "{queen:?}");
        let solutions = naive::solutions(&p);
        let classes = solutions.iter().filter(|s| group.is_canonical(s)).count() as u128;
        let counts = Backtrack::new(2).count(&p, true).unwrap();
        assert_eq!(counts.total, solutions.len() as u128);
        assert_eq!(counts.unique, Some(classes), "{queen:?}");
        if group_size == 1 {
            assert_eq!(classes, counts.total);
        } else {
            assert!(classes < counts.total, "{queen:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn completion_counts_equal_the_oracle(p in common::partial_board(8, 3)) {
        let expected = naive::count(&p);
        for threads in [1, 2] {
            prop_assert_eq!(Backtrack::new(threads).count(&p, false).unwrap().total, expected);
        }
        let mut listed = HashSet::new();
        Backtrack::default().for_each(&p, &mut |s| {
            assert_eq!(verify(&p, s), Ok(()));
            assert!(listed.insert(s.clone()));
            ControlFlow::Continue(())
        }).unwrap();
        prop_assert_eq!(listed.len() as u128, expected);
    }
}
