//! Local search's tests: valid, varied and repeatable solutions, limits, fixed queens,
//! blocked squares and the jobs it refuses.

use std::collections::HashSet;
use std::ops::ControlFlow;

use super::*;
use crate::board::Queen;
use crate::board::verify::verify;
use crate::board::{Problem, Solution};
use crate::engine::{Engine, LimitReached, Outcome};
use nqueens_support::SplitMix64;

fn found(outcome: Outcome) -> Solution {
    match outcome {
        Outcome::Found(s) => s,
        other => panic!("expected a solution, got {other:?}"),
    }
}

#[test]
fn a_hundred_seeds_on_eight_give_valid_and_varied_solutions() {
    let p = Problem::new(8).unwrap();
    let mut distinct = HashSet::new();
    for seed in 0..100 {
        let s = found(Local::new(seed).solve(&p).unwrap());
        assert_eq!(verify(&p, &s), Ok(()), "seed {seed}");
        distinct.insert(s);
    }
    // 92 solutions exist; random restarts should reach a good share of them.
    assert!(distinct.len() >= 20, "only {} distinct", distinct.len());
}

#[test]
fn the_same_seed_gives_the_same_solution() {
    let p = Problem::new(1000).unwrap();
    let a = found(Local::new(7).solve(&p).unwrap());
    let b = found(Local::new(7).solve(&p).unwrap());
    let c = found(Local::new(8).solve(&p).unwrap());
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn every_size_is_solved_with_both_starts() {
    for n in (4..=80).chain([1, 500, 2001]) {
        let p = Problem::new(n).unwrap();
        for start in [Start::Greedy, Start::Random] {
            let mut engine = Local::new(u64::from(n));
            engine.start = start;
            let s = found(engine.solve(&p).unwrap());
            assert_eq!(verify(&p, &s), Ok(()), "n = {n}, {start:?}");
        }
    }
}

#[test]
fn a_raised_stop_flag_or_a_spent_time_budget_ends_the_search() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;
    let p = Problem::new(3_000_000).unwrap();
    let mut engine = Local::new(1);
    engine.limits.stop = Some(Arc::new(AtomicBool::new(true)));
    assert_eq!(
        engine.solve(&p).unwrap_err().to_string(),
        "the local method stopped before the answer (stopped) after 0 solutions"
    );
    let mut engine = Local::new(1);
    engine.limits.time = Some(Duration::from_nanos(1));
    assert_eq!(
        engine.solve(&p).unwrap_err().stopped().map(|s| s.reason),
        Some(LimitReached::Time)
    );
}

#[test]
fn a_million_queens() {
    let p = Problem::new(1_000_000).unwrap();
    let mut engine = Local::new(1);
    let s = found(engine.solve(&p).unwrap());
    assert_eq!(verify(&p, &s), Ok(()));
    assert_eq!(engine.stats().get("attempts"), Some(1));
}

#[test]
fn fixed_queens_stay_where_they_are() {
    let q = Queen::new;
    let problems = [
        Problem::with_fixed(8, [q(0, 0)]).unwrap(),
        // Two queens of the construction's 2 4 6 8 3 1 7 5, so a completion exists.
        Problem::with_fixed(8, [q(2, 5), q(5, 0)]).unwrap(),
        Problem::with_fixed(30, [q(0, 3), q(10, 10), q(29, 20)]).unwrap(),
        Problem::with_fixed(10_000, (0..50).map(|i| q(i * 7, i * 3))).unwrap(),
    ];
    for p in &problems {
        for seed in 0..5 {
            let s = found(Local::new(seed).solve(p).unwrap());
            // verify checks the fixed queens too.
            assert_eq!(verify(p, &s), Ok(()));
            for fixed in p.fixed() {
                assert_eq!(s.columns()[fixed.row as usize], fixed.col);
            }
        }
    }
}

/// Blocked squares: a solution is found that stands on none of them, on boards blocked
/// around a known solution (so one exists) at 10 % to 50 % of the other squares, with
/// fixed queens too; a board blocked so that none is left gives up.
#[test]
fn queens_never_stand_on_blocked_squares() {
    use crate::engines::construct::Construct;
    let mut rng = SplitMix64::new(79);
    for (n, percent) in [(8, 30), (12, 50), (40, 30), (200, 10), (1000, 20)] {
        let Outcome::Found(known) = Construct::default()
            .solve(&Problem::new(n).unwrap())
            .unwrap()
        else {
            panic!("the construction solves n = {n}");
        };
        let mut blocked = Vec::new();
        for row in 0..n {
            for col in 0..n {
                if known.columns()[row as usize] != col && rng.below(100) < percent {
                    blocked.push(Queen::new(row, col));
                }
            }
        }
        let fixed = [Queen::new(n / 2, known.columns()[n as usize / 2])];
        let p = Problem::with_blocks(n, fixed, blocked).unwrap();
        for seed in 0..3 {
            let s = found(Local::new(seed).solve(&p).unwrap());
            // verify refuses a queen on a blocked square.
            assert_eq!(verify(&p, &s), Ok(()), "n = {n}, seed {seed}");
        }
    }
    // 4×4 has two solutions; blocking a square of each leaves none.
    let p = Problem::with_blocks(4, [], [Queen::new(0, 1), Queen::new(0, 2)]).unwrap();
    let mut engine = Local::new(1);
    engine.max_attempts = Some(20);
    assert!(engine.solve(&p).unwrap_err().stopped().is_some());
}

#[test]
fn an_unsatisfiable_completion_gives_up_at_the_limit() {
    // A queen in the corner of a 4×4 board leaves no solution (both solutions avoid corners).
    let p = Problem::with_fixed(4, [Queen::new(0, 0)]).unwrap();
    let mut engine = Local::new(3);
    engine.max_attempts = Some(50);
    engine.max_steps = Some(200);
    let stopped = engine.solve(&p).unwrap_err().stopped().unwrap();
    assert_eq!(
        stopped.reason.to_string(),
        "gave up after 50 attempts of 200 repair steps each"
    );
    assert_eq!(engine.stats().get("attempts"), Some(50));
    // The default limits end too, on n = 2 and 3 (no solution at all) as well.
    for p in [p, Problem::new(2).unwrap(), Problem::new(3).unwrap()] {
        assert!(Local::default().solve(&p).unwrap_err().stopped().is_some());
    }
}

#[test]
fn only_solve_is_supported() {
    let mut engine = Local::default();
    let p = Problem::new(8).unwrap();
    assert!(engine.count(&p, false).is_err());
    assert!(
        engine
            .list(&p, Some(3), &mut |_| ControlFlow::Continue(()))
            .is_err()
    );
}
