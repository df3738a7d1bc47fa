//! Counts the solutions of a problem in Knuth's format and prints the work counters the way
//! DLX1 reports them, for side-by-side comparisons.
//!
//! ```text
//! cargo run --release -p exact-cover --example count -- pent-6x10.dlx
//! ```

use std::time::Instant;

use exact_cover::{Problem, Solver};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: count FILE");
        std::process::exit(2)
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("count: {path}: {e}");
        std::process::exit(2)
    });
    let problem = Problem::parse(&text).unwrap_or_else(|e| {
        eprintln!("count: {path}: {e}");
        std::process::exit(2)
    });
    let start = Instant::now();
    let mut solver = Solver::new(&problem);
    let count = solver.count();
    let stats = solver.stats();
    eprintln!(
        "Altogether {count} solutions, {} updates, {} nodes, {:.3} s.",
        stats.updates,
        stats.nodes,
        start.elapsed().as_secs_f64()
    );
}
