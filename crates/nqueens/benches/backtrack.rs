//! The backtracking hot path: counting (single thread), finding a first solution, and counting
//! the completions of a partial board. `cargo bench -p nqueens-solver --bench backtrack`.
//!
//! Other engines add their own files next to this one.

use divan::{Bencher, black_box};
use nqueens_solver::engines::backtrack::Backtrack;
use nqueens_solver::instances::generate::{DEFAULT_TRIES, random_partial};
use nqueens_solver::{Engine, Outcome, Problem};

fn main() {
    divan::main();
}

/// All solutions of the empty board, one thread (A000170).
#[divan::bench(args = [8, 10, 12])]
fn count(bencher: Bencher, n: u32) {
    let problem = Problem::new(n).unwrap();
    bencher.bench_local(|| {
        let mut engine = Backtrack::new(1);
        engine.count(black_box(&problem), false).unwrap().total
    });
}

/// The first solution in row-by-row, left-to-right order.
#[divan::bench(args = [16, 20, 24])]
fn solve(bencher: Bencher, n: u32) {
    let problem = Problem::new(n).unwrap();
    bencher.bench_local(|| {
        let mut engine = Backtrack::new(1);
        matches!(
            engine.solve(black_box(&problem)).unwrap(),
            Outcome::Found(_)
        )
    });
}

/// The completions of a random partial board with n/4 queens (the `bench` completion job).
#[divan::bench(args = [10, 12, 14])]
fn completion(bencher: Bencher, n: u32) {
    let problem = random_partial(n, n / 4, 1 + u64::from(n), DEFAULT_TRIES).unwrap();
    bencher.bench_local(|| {
        let mut engine = Backtrack::new(1);
        engine.count(black_box(&problem), false).unwrap().total
    });
}
