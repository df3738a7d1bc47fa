//! Reads a DIMACS file into a counter (no solver) and prints its size and the time taken: the
//! reader's speed on its own.
//!
//! `cargo run --release -p nqueens-sat --example parse_dimacs -- FILE`

use std::fs::File;
use std::io::BufReader;
use std::time::Instant;

use nqueens_sat::{ClauseCounter, read_dimacs};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: parse_dimacs FILE")?;
    let start = Instant::now();
    let mut counter = ClauseCounter::default();
    read_dimacs(
        BufReader::with_capacity(1 << 16, File::open(&path)?),
        &mut counter,
    )?;
    println!(
        "{} variables, {} clauses, {} literals: {:.3} s",
        counter.vars,
        counter.clauses,
        counter.lits,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
