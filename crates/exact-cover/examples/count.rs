//! Counts the solutions of a problem in Knuth's format and prints the work counters the way
//! DLX1 reports them, for side-by-side comparisons. `--engine links|bits|auto` picks the engine
//! (auto: bits when the problem fits); `--choice scan|tree` forces how dancing links finds the
//! item with the fewest options (the default picks by size).
//!
//! ```text
//! cargo run --release -p nqueens-exact-cover --example count -- pent-6x10.dlx
//! cargo run --release -p nqueens-exact-cover --example count -- pent-6x10.dlx --engine links
//! cargo run --release -p nqueens-exact-cover --example count -- single-1e5.dlx --choice scan
//! ```

use std::time::Instant;

use nqueens_exact_cover::{Config, EngineChoice, ItemChoice, Problem, Solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else { usage() };
    let mut config = Config::default();
    for pair in args[1..].chunks(2) {
        match pair {
            [flag, value] if flag == "--choice" => {
                config.item_choice = match value.as_str() {
                    "scan" => ItemChoice::Scan,
                    "tree" => ItemChoice::Tree,
                    _ => usage(),
                }
            }
            [flag, value] if flag == "--engine" => {
                config.engine = match value.as_str() {
                    "links" => EngineChoice::Links,
                    "bits" => EngineChoice::Bits,
                    "auto" => EngineChoice::Auto,
                    _ => usage(),
                }
            }
            _ => usage(),
        }
    }
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("count: {path}: {e}");
        std::process::exit(2)
    });
    let problem = Problem::parse(&text).unwrap_or_else(|e| {
        eprintln!("count: {path}: {e}");
        std::process::exit(2)
    });
    let start = Instant::now();
    let mut solver = Solver::configured(&problem, config).unwrap_or_else(|e| {
        eprintln!("count: {path}: {e}");
        std::process::exit(2)
    });
    let count = solver.count().unwrap();
    let stats = solver.stats();
    eprintln!(
        "Altogether {count} solutions, {} updates, {} nodes, {:.3} s ({}).",
        stats.updates,
        stats.nodes,
        start.elapsed().as_secs_f64(),
        solver.engine().name()
    );
}

fn usage() -> ! {
    eprintln!("usage: count FILE [--engine links|bits|auto] [--choice scan|tree]");
    std::process::exit(2)
}
