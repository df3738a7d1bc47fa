//! A user's own program on the nqueens libraries, written from their READMEs alone: exact cover,
//! incremental SAT, constraint programming and the long counter, each with a fact to check.
//!
//! ```text
//! cargo run --release            # from this folder
//! ```
//!
//! Each line it prints is a fact the workspace's suite checks (`scripts/test-libraries.sh`).

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use nqueens_cp::{SearchConfig, Strength, View};
use nqueens_exact_cover::{Limits, Problem, Solver};
use nqueens_sat::{ClauseSink, Lit, Outcome};
use nqueens_solver::{CountRun, ProgressSink, RunOptions};

fn main() {
    exact_cover();
    incremental_sat();
    constraint_programming();
    long_count();
}

/// Knuth's example of an exact cover problem (TAOCP 7.2.2.1, (6)), in his text format, and
/// Langford pairs from the crate's generators.
fn exact_cover() {
    let problem = Problem::parse("a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n")
        .expect("Knuth's format");
    let mut solver = Solver::new(&problem);
    let first = solver
        .first()
        .expect("no limit set")
        .expect("Knuth's example has a solution");
    let mut options: Vec<String> = first.iter().map(|&id| problem.option_text(id)).collect();
    options.sort();
    println!(
        "exact cover: Knuth's example is covered by {}",
        options.join(" | ")
    );
    let count = Solver::new(&problem).count().expect("no limit set");
    println!("exact cover: {count} solution(s) to Knuth's example");

    let langford = nqueens_exact_cover::instances::langford(7).expect("Langford pairs");
    let count = Solver::new(&langford).count().expect("no limit set");
    println!("exact cover: Langford pairs of 7: {count} arrangements");

    // A count a limit ended is no count: it says why, and what it had found so far.
    let langford = nqueens_exact_cover::instances::langford(11).expect("Langford pairs");
    let mut solver = Solver::new(&langford);
    solver.set_limits(Limits {
        nodes: Some(1000),
        ..Limits::default()
    });
    match solver.count() {
        Ok(count) => println!("exact cover: Langford pairs of 11: {count} arrangements"),
        Err(stopped) => println!(
            "exact cover: Langford pairs of 11 under 1000 nodes: {stopped} ({} found)",
            stopped.found
        ),
    }
}

/// One solver reused as IPASIR allows: solve, add a clause, solve under assumptions, read the
/// assumptions the formula refutes.
fn incremental_sat() {
    let mut solver = nqueens_sat::Solver::new();
    let (a, b, c) = (solver.new_var(), solver.new_var(), solver.new_var());
    solver.add_clause(&[Lit::positive(a), Lit::positive(b)]);
    solver.add_clause(&[Lit::negative(a), Lit::positive(c)]);
    let first = matches!(solver.solve(), Outcome::Sat(_));
    println!("sat: (a or b) and (not a or c) is satisfiable: {first}");

    // A clause added after a solve, then a call under assumptions.
    solver.add_clause(&[Lit::negative(b), Lit::positive(c)]);
    let assumed = [Lit::negative(c), Lit::positive(a)];
    let under = solver.solve_with(&assumed);
    let mut failed: Vec<String> = solver
        .failed_assumptions()
        .iter()
        .map(|&lit| if lit == assumed[0] { "not c" } else { "a" }.to_string())
        .collect();
    failed.sort();
    println!(
        "sat: with (not b or c) added, under not c and a: {}, refuted by {}",
        if matches!(under, Outcome::Unsat) {
            "unsatisfiable"
        } else {
            "satisfiable"
        },
        failed.join(", ")
    );
    // The assumptions held for that call only.
    let again = solver.solve();
    match again {
        Outcome::Sat(model) => println!(
            "sat: without assumptions again satisfiable, c = {}",
            model.value(c)
        ),
        other => println!("sat: without assumptions: {other:?}"),
    }
}

/// Eight queens as three all-different constraints over offset views.
fn constraint_programming() {
    let mut solver = nqueens_cp::Solver::new();
    let x = solver.new_vars(8, 0, 7).expect("eight variables");
    let shifted =
        |sign: i32| -> Vec<View> { x.iter().zip(0..).map(|(&v, i)| v.plus(sign * i)).collect() };
    for views in [shifted(0), shifted(1), shifted(-1)] {
        solver
            .all_different(&views, Strength::Bounds)
            .expect("views of this solver");
    }
    let mut first = None;
    let result = solver
        .search(&SearchConfig::default(), |solution| {
            if first.is_none() {
                first = Some(x.iter().map(|&v| solution.value(v)).collect::<Vec<i32>>());
            }
            ControlFlow::Continue(())
        })
        .expect("a search of this solver's variables");
    println!(
        "cp: {} solutions to eight queens, the first {:?}",
        result.solutions,
        first.unwrap_or_default()
    );
}

/// The record-class counter on two threads, with progress and Ctrl-C as its stop flag.
fn long_count() {
    nqueens_support::interrupt::install();
    let updates = Arc::new(AtomicU64::new(0));
    let seen = Arc::clone(&updates);
    let mut run = CountRun::new(2);
    run.progress = Some(ProgressSink::new(move |_| {
        seen.fetch_add(1, Ordering::Relaxed);
    }));
    run.limits.stop = nqueens_support::interrupt::stop_flag();
    match run.run(12, &RunOptions::default()) {
        Ok(report) => println!(
            "counter: n = 12 has {} solutions, {} unique; progress reported: {}",
            report.total,
            report.unique,
            updates.load(Ordering::Relaxed) > 0
        ),
        Err(err) => {
            eprintln!("counter: {err}");
            let interrupted = nqueens_support::interrupt::requested();
            std::process::exit(if interrupted {
                nqueens_support::interrupt::EXIT_CODE.into()
            } else {
                1
            });
        }
    }
}
