//! Blocked n-Queens (no queen on a blocked square), with and without fixed queens: every method
//! either honours the blocks, agreeing with the naive oracle on counts and solutions, or refuses
//! the board; none searches the plain board instead.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use nqueens_solver::board::naive;
use nqueens_solver::board::symmetry::Group;
use nqueens_solver::engines::sat::Encoding;
use nqueens_solver::methods::{Config, Method};
use nqueens_solver::{
    EngineError, Job, Outcome, Problem, ProblemError, Queen, Solution, Violation, verify,
};
use nqueens_support::SplitMix64;

use crate::common;

/// A random board of size `n` with about `percent` % of its squares blocked and, sometimes, a
/// fixed queen on a square left open.
fn random_blocked(n: u32, percent: u64, rng: &mut SplitMix64) -> Problem {
    let blocked: Vec<Queen> = (0..n * n)
        .filter(|_| rng.below(100) < percent as u32)
        .map(|k| Queen::new(k / n, k % n))
        .collect();
    let fixed: Vec<Queen> = if rng.below(3) == 0 {
        let k = rng.below(n * n);
        let q = Queen::new(k / n, k % n);
        (!blocked.contains(&q)).then_some(q).into_iter().collect()
    } else {
        Vec::new()
    };
    Problem::with_blocks(n, fixed, blocked).unwrap()
}

/// The boards of the test: fixed seeds, n = 1..9, 5 % to 40 % blocked.
fn boards() -> Vec<Problem> {
    let mut rng = SplitMix64::new(27);
    let mut boards = Vec::new();
    for n in 1..=9 {
        for percent in [5, 10, 20, 40] {
            for _ in 0..3 {
                boards.push(random_blocked(n, percent, &mut rng));
            }
        }
    }
    let blocked = boards.iter().filter(|p| !p.blocked().is_empty()).count();
    assert!(
        blocked > 75,
        "only {blocked} of {} boards have a blocked square",
        boards.len()
    );
    boards
}

/// The methods that must take blocked boards for every job they do (all but the construction).
const TAKE_BLOCKS: [Method; 7] = [
    Method::Backtrack,
    Method::Counter,
    Method::Local,
    Method::Dlx,
    Method::DlxGadgets,
    Method::Sat,
    Method::Cp,
];

fn configs() -> Vec<Config> {
    [Encoding::Pairwise, Encoding::Compact]
        .into_iter()
        .map(|encoding| {
            let mut config = Config::default();
            config.encoding = encoding;
            config
        })
        .collect()
}

#[test]
fn every_method_counts_lists_and_solves_blocked_boards_as_the_oracle_does_or_refuses() {
    for problem in boards() {
        let oracle: BTreeSet<Solution> = naive::solutions(&problem);
        let group = Group::of(&problem);
        let classes = oracle.iter().filter(|s| group.is_canonical(s)).count() as u128;
        let what = |m: Method| {
            format!(
                "{m} on n = {}, fixed {:?}, blocked {:?}",
                problem.n(),
                problem.fixed(),
                problem.blocked()
            )
        };
        for &method in Method::ALL {
            for config in configs() {
                // The encoding is SAT's alone.
                if config.encoding != Encoding::Pairwise
                    && !matches!(method, Method::Sat | Method::Auto)
                {
                    continue;
                }
                for job in [Job::Count, Job::List, Job::Solve] {
                    // Local search cannot prove there is no solution: it would spend its
                    // whole step budget (its own tests check that it gives up).
                    if method == Method::Local && oracle.is_empty() {
                        continue;
                    }
                    let mut engine = method.build(job, &problem, &config);
                    if let Err(err) = engine.check(job, &problem) {
                        // Only a job the method never does is refused, by those that take
                        // blocks.
                        assert!(
                            !(TAKE_BLOCKS.contains(&method) || method == Method::Auto)
                                || !engine.jobs().contains(&job),
                            "{}: {job:?} refused: {err}",
                            what(method)
                        );
                        assert!(matches!(err, EngineError::Unsupported { .. }), "{err}");
                        continue;
                    }
                    match job {
                        Job::Count => {
                            let counts = engine.count(&problem, true).unwrap();
                            assert_eq!(counts.total, oracle.len() as u128, "{}", what(method));
                            assert_eq!(counts.unique, Some(classes), "{}", what(method));
                        }
                        Job::List => {
                            let mut found = BTreeSet::new();
                            engine
                                .for_each(&problem, &mut |s| {
                                    verify(&problem, s).unwrap();
                                    assert!(found.insert(s.clone()), "a solution twice");
                                    ControlFlow::Continue(())
                                })
                                .unwrap();
                            assert_eq!(found, oracle, "{}", what(method));
                        }
                        _ => match common::answer(engine.solve(&problem)) {
                            common::Answer::Found(s) => {
                                assert!(oracle.contains(&s), "{}: {s:?}", what(method));
                            }
                            common::Answer::NoSolution => {
                                assert!(oracle.is_empty(), "{}", what(method));
                            }
                            common::Answer::GaveUp { reason } => {
                                // Local search gives up on boards without a solution.
                                assert!(oracle.is_empty(), "{}: {reason}", what(method));
                            }
                        },
                    }
                }
            }
        }
    }
}

#[test]
fn the_construction_cannot_honour_blocks_and_says_so() {
    let problem = Problem::with_blocks(8, [], [Queen::new(3, 3)]).unwrap();
    let engine = Method::Construct.build(Job::Solve, &problem, &Config::default());
    let err = engine.check(Job::Solve, &problem).unwrap_err();
    assert!(
        err.to_string().contains("does not take blocked squares"),
        "{err}"
    );
    // auto counts a blocked board with a method that honours the blocks.
    let mut auto = Method::Auto.build(Job::Count, &problem, &Config::default());
    assert_eq!(
        auto.count(&problem, false).unwrap().total,
        naive::count(&problem)
    );
}

#[test]
fn blocked_squares_are_checked_where_the_board_is_built_and_verified() {
    let err = Problem::with_blocks(4, [], [Queen::new(4, 0)]).unwrap_err();
    assert_eq!(
        err,
        ProblemError::BlockedOffBoard {
            square: Queen::new(4, 0),
            n: 4
        }
    );
    assert_eq!(
        err.to_string(),
        "blocked square 5:1 is off the 4×4 board (rows and columns run from 1 to 4)"
    );
    let err = Problem::with_blocks(4, [Queen::new(1, 3)], [Queen::new(1, 3)]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "fixed queen 2:4 stands on a blocked square"
    );
    // A square blocked twice counts once.
    let p = Problem::with_blocks(4, [], [Queen::new(0, 1), Queen::new(0, 1)]).unwrap();
    assert_eq!(p.blocked(), &[Queen::new(0, 1)]);
    assert!(p.is_completion());
    // 4-queens has the solutions 2 4 1 3 and 3 1 4 2; blocking 1:2 leaves the second.
    assert_eq!(
        verify(&p, &Solution::from_columns(vec![1, 3, 0, 2])),
        Err(Violation::OnBlocked {
            queen: Queen::new(0, 1)
        })
    );
    assert_eq!(
        verify(&p, &Solution::from_columns(vec![2, 0, 3, 1])),
        Ok(())
    );
    assert_eq!(naive::count(&p), 1);
    assert_eq!(
        Violation::OnBlocked {
            queen: Queen::new(0, 1)
        }
        .to_string(),
        "the queen on 1:2 stands on a blocked square"
    );
}

/// The largest count the corpus test asks of SAT.
const SAT_COUNTS_UP_TO: u128 = 20;

/// The corpus in `tests/data/blocked/`: boards drawn by `nqueens gen-blocked` (partial-board
/// files, two as Essence parameter files) and excluded-diagonals files read with the first K
/// diagonals, their counts in `MANIFEST.tsv`. The naive oracle and every method that counts
/// must give each count.
#[test]
fn the_corpus_counts_agree_with_the_manifest_the_oracle_and_every_method() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/blocked");
    let manifest = std::fs::read_to_string(folder.join("MANIFEST.tsv")).unwrap();
    let mut rows = 0;
    for line in manifest.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [file, diagonals, count] = fields[..] else {
            panic!("bad manifest line {line:?}")
        };
        let text = std::fs::read_to_string(folder.join(file)).unwrap();
        let problem = if nqueens_solver::formats::csplib::looks_like(&text) {
            let diagonals = diagonals.parse().ok();
            nqueens_solver::formats::csplib::parse(
                &text,
                nqueens_solver::formats::csplib::Options { diagonals },
            )
            .unwrap()
        } else {
            nqueens_solver::formats::partial::parse(&text)
                .unwrap()
                .to_problem()
                .unwrap()
        };
        assert!(!problem.blocked().is_empty(), "{file}");
        let count: u128 = count.parse().unwrap();
        assert_eq!(
            naive::count(&problem),
            count,
            "{file} {diagonals}: the oracle"
        );
        // Up to the symmetries the blocked squares keep (most keep none).
        let group = Group::of(&problem);
        let classes = naive::solutions(&problem)
            .iter()
            .filter(|s| group.is_canonical(s))
            .count() as u128;
        for method in [
            Method::Auto,
            Method::Backtrack,
            Method::Counter,
            Method::Dlx,
            Method::Sat,
            Method::Cp,
        ] {
            // SAT counts by blocking each model in turn, and the test profile's consistency
            // checks make that seconds per hundred solutions: it counts the small ones.
            if method != Method::Sat || count <= SAT_COUNTS_UP_TO {
                let mut engine = method.build(Job::Count, &problem, &Config::default());
                let counts = engine.count(&problem, true).unwrap();
                assert_eq!(counts.total, count, "{file} {diagonals}: {method}");
                assert_eq!(counts.unique, Some(classes), "{file} {diagonals}: {method}");
            }
            if method == Method::Counter {
                continue;
            }
            let mut solver = method.build(Job::Solve, &problem, &Config::default());
            match solver.solve(&problem).unwrap() {
                Outcome::Found(s) => {
                    assert!(count > 0, "{file}: {method}");
                    verify(&problem, &s).unwrap();
                }
                Outcome::NoSolution => assert_eq!(count, 0, "{file}: {method}"),
            }
        }
        rows += 1;
    }
    assert!(rows >= 40, "{rows} rows");
}
