//! Solves a DIMACS file and prints the answer, the solver's counters and the time taken.
//!
//! `cargo run --release -p nqueens-sat --example solve_dimacs -- FILE`

use std::fs::File;
use std::io::BufReader;
use std::time::Instant;

use sat::{Outcome, Solver, read_dimacs};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: solve_dimacs FILE")?;
    let start = Instant::now();
    let mut solver = Solver::new();
    read_dimacs(BufReader::new(File::open(&path)?), &mut solver)?;
    let parsed = start.elapsed();
    let outcome = solver.solve();
    let total = start.elapsed();
    let answer = match outcome {
        Outcome::Sat(_) => "SATISFIABLE",
        Outcome::Unsat => "UNSATISFIABLE",
        Outcome::Unknown(_) => "UNKNOWN",
    };
    println!("s {answer}");
    println!("c {}", solver.stats());
    println!(
        "c parse {:.3} s, total {:.3} s",
        parsed.as_secs_f64(),
        total.as_secs_f64()
    );
    Ok(())
}
