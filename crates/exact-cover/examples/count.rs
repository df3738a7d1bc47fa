//! Counts the solutions of a problem in Knuth's format and prints the work counters the way
//! DLX1 reports them, for side-by-side comparisons. `--choice scan|tree` forces how the item
//! with the fewest options is found (the default picks by size).
//!
//! ```text
//! cargo run --release -p exact-cover --example count -- pent-6x10.dlx
//! cargo run --release -p exact-cover --example count -- single-1e5.dlx --choice scan
//! ```

use std::time::Instant;

use exact_cover::{ItemChoice, Problem, Solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, choice) = match args.as_slice() {
        [path] => (path, ItemChoice::Auto),
        [path, flag, choice] if flag == "--choice" => match choice.as_str() {
            "scan" => (path, ItemChoice::Scan),
            "tree" => (path, ItemChoice::Tree),
            _ => usage(),
        },
        _ => usage(),
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("count: {path}: {e}");
        std::process::exit(2)
    });
    let problem = Problem::parse(&text).unwrap_or_else(|e| {
        eprintln!("count: {path}: {e}");
        std::process::exit(2)
    });
    let start = Instant::now();
    let mut solver = Solver::new(&problem);
    solver.set_item_choice(choice);
    let count = solver.count();
    let stats = solver.stats();
    eprintln!(
        "Altogether {count} solutions, {} updates, {} nodes, {:.3} s.",
        stats.updates,
        stats.nodes,
        start.elapsed().as_secs_f64()
    );
}

fn usage() -> ! {
    eprintln!("usage: count FILE [--choice scan|tree]");
    std::process::exit(2)
}
