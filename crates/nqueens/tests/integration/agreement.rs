//! Every method on every job it supports, over n = 1..=12 (and 1..=4 threads where threads
//! apply): each answer is checked against OEIS and each solution against `verify`. This is the
//! cross-engine layer of the tests; the per-engine files go deeper.

use std::collections::BTreeSet;

use nqueens_solver::instances::oeis;
use nqueens_solver::methods::{Config, Method};
use nqueens_solver::{Engine, Job, Problem, Solution, verify};

use crate::common;

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
                match common::answer(e.solve(&problem)) {
                    common::Answer::Found(s) => assert_eq!(verify(&problem, &s), Ok(())),
                    common::Answer::NoSolution => assert_eq!(total, 0, "{method} n = {n}"),
                    common::Answer::GaveUp { reason } => {
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

/// A count a limit ended is no count, for every method that counts: under a small node budget
/// (the SAT method's unit is a conflict, per model) n = 10 ends in `EngineError::Stopped` with the node
/// limit and the solutions found so far, below OEIS's 724, never `Ok` with a short total (the
/// counter, which may finish before it looks at the budget, answers the whole count).
/// Listing stops the same way, with the solutions it visited.
#[test]
fn a_count_a_limit_ended_is_no_count_for_any_method() {
    let n = 10;
    let total = oeis::total(n).unwrap();
    let problem = Problem::new(n).unwrap();
    let mut counted = 0;
    for &method in Method::ALL {
        let mut config = Config::default();
        // The SAT method's budget is conflicts per model's search: one is soon spent.
        config.limits.nodes = Some(if method == Method::Sat { 1 } else { 200 });
        config.threads = 1;
        let mut engine = method.build(Job::Count, &problem, &config);
        if engine.check(Job::Count, &problem).is_err() {
            continue;
        }
        let result = engine.count(&problem, false);
        let stopped = match &result {
            Err(e) => e.stopped(),
            // The counter looks at its node budget between batches of tasks, and may finish
            // first: then its answer is the whole count.
            Ok(counts) if matches!(method, Method::Counter | Method::Auto) => {
                assert_eq!(counts.total, total, "{method}");
                continue;
            }
            Ok(_) => None,
        };
        let Some(stopped) = stopped else {
            panic!("{method}: a count under 200 nodes answered {result:?}");
        };
        assert_eq!(
            stopped.reason,
            nqueens_solver::LimitReached::Nodes,
            "{method}"
        );
        assert!(stopped.found < total, "{method}: {stopped:?}");
        counted += 1;

        let mut engine = method.build(Job::List, &problem, &config);
        if engine.check(Job::List, &problem).is_ok() {
            let mut seen = 0u128;
            let end = engine.list(&problem, None, &mut |_| {
                seen += 1;
                std::ops::ControlFlow::Continue(())
            });
            let stopped = end.as_ref().map_err(|e| e.stopped());
            assert!(
                matches!(stopped, Err(Some(s)) if s.found == seen && seen < total),
                "{method}: {end:?} after {seen}"
            );
        }
    }
    assert!(counted >= 4, "only {counted} methods count");
}
