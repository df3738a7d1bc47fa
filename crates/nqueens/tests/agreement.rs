//! Every method on every job it supports, over n = 1..=12 (and 1..=4 threads where threads
//! apply): each answer is checked against OEIS and each solution against `verify`. This is the
//! cross-engine layer of the tests; the per-engine files go deeper.

use std::collections::BTreeSet;

use nqueens_solver::instances::oeis;
use nqueens_solver::methods::{Config, Method};
use nqueens_solver::{Engine, Job, Outcome, Problem, Solution, verify};

/// The largest n each method is taken to here: 12 for all but SAT, whose enumeration by
/// blocking clauses grows fastest (n = 10 takes it seconds already; `tests/sat.rs` goes there).
fn max_n(method: Method) -> u32 {
    if method == Method::Sat { 9 } else { 12 }
}

/// The engine of `method` for `job` on `problem` with `threads`, or `None` where the method
/// says it cannot do that job on that board.
fn engine(method: Method, job: Job, problem: &Problem, threads: usize) -> Option<Box<dyn Engine>> {
    let mut config = Config::default();
    config.threads = threads;
    let engine = method.build(job, problem, &config);
    engine.check(job, problem).is_ok().then_some(engine)
}

#[test]
fn every_method_agrees_with_oeis_on_every_job() {
    let mut ran = BTreeSet::new();
    for &method in Method::ALL {
        for n in 1..=max_n(method) {
            let problem = Problem::new(n).unwrap();
            let total = oeis::total(n).unwrap();
            let unique = oeis::unique(n).unwrap();
            let threads: &[usize] = if matches!(method, Method::Backtrack | Method::Counter) {
                &[1, 2, 3, 4]
            } else {
                &[1]
            };
            for &threads in threads {
                let label = format!("{method} n = {n} threads = {threads}");
                if let Some(mut e) = engine(method, Job::Count, &problem, threads) {
                    assert_eq!(e.count(&problem, false).unwrap().total, total, "{label}");
                    ran.insert((method.name(), "count"));
                }
                if let Some(mut e) = engine(method, Job::CountUnique, &problem, threads) {
                    let counts = e.count(&problem, true).unwrap();
                    assert_eq!(
                        (counts.total, counts.unique),
                        (total, Some(unique)),
                        "{label}"
                    );
                    ran.insert((method.name(), "unique"));
                }
            }
            if let Some(mut e) = engine(method, Job::List, &problem, 1) {
                let mut seen = BTreeSet::new();
                e.for_each(&problem, &mut |s: &Solution| {
                    assert_eq!(verify(&problem, s), Ok(()), "{method} n = {n}");
                    assert!(seen.insert(s.clone()), "{method} n = {n}: twice");
                    std::ops::ControlFlow::Continue(())
                })
                .unwrap();
                assert_eq!(seen.len() as u128, total, "{method} n = {n}");
                ran.insert((method.name(), "list"));
            }
            if let Some(mut e) = engine(method, Job::Solve, &problem, 1) {
                match e.solve(&problem).unwrap() {
                    Outcome::Found(s) => assert_eq!(verify(&problem, &s), Ok(())),
                    Outcome::NoSolution => assert_eq!(total, 0, "{method} n = {n}"),
                    Outcome::GaveUp { reason } => {
                        // Local search cannot prove there is none: it gives up where n = 2, 3.
                        assert!(
                            total == 0 && method == Method::Local,
                            "{method} n = {n}: {reason}"
                        )
                    }
                }
                ran.insert((method.name(), "solve"));
            }
        }
    }
    // Every method ran at least one job, and the jobs each engine claims are the jobs it ran.
    for &method in Method::ALL {
        assert!(
            ran.iter().any(|&(m, _)| m == method.name()),
            "{method} ran no job"
        );
    }
    assert!(ran.contains(&("counter", "unique")) && ran.contains(&("dlx", "list")));
}
