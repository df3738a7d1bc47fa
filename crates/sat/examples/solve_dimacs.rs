//! Solves a DIMACS file and prints the answer, the solver's counters and the time taken.
//!
//! `cargo run --release -p nqueens-sat --example solve_dimacs -- FILE [FLAGS]`
//!
//! Flags, for comparing settings on one build (the counters are deterministic):
//! `--conflicts N` (give up after N conflicts), `--time SECS`, `--no-target` (no target
//! phases), `--rephase N` (the first rephase interval; 0: never), `--no-walk` (rephase
//! without walks), `--walk-effort N` (clause visits per thousand propagations), `--no-shrink`
//! (learnt clauses minimised only), `--seed N` (a nonzero seed varies the first decisions: a
//! small random initial activity per variable), `--eliminate` (bounded variable elimination
//! before the search; the `nqueens sat` command has no solver settings).

use std::fs::File;
use std::io::BufReader;
use std::time::{Duration, Instant};

use nqueens_sat::{Limits, Options, Outcome, Solver, read_dimacs};

const USAGE: &str = "usage: solve_dimacs FILE [--conflicts N] [--time SECS] [--no-target] [--rephase N] \
     [--no-walk] [--walk-effort N] [--no-shrink] [--seed N] [--eliminate]";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or(USAGE)?;
    let mut options = Options::default();
    let mut limits = Limits::default();
    while let Some(flag) = args.next() {
        let mut value = || -> Result<u64, Box<dyn std::error::Error>> {
            Ok(args.next().ok_or(USAGE)?.parse()?)
        };
        match flag.as_str() {
            "--conflicts" => limits.conflicts = Some(value()?),
            "--time" => limits.time = Some(Duration::from_secs(value()?)),
            "--no-target" => options.target_phases = false,
            "--no-shrink" => options.shrink = false,
            "--eliminate" => options.eliminate = true,
            "--rephase" => options.rephase_interval = value()?,
            "--no-walk" => options.walk = false,
            "--walk-effort" => options.walk_effort = value()?,
            "--seed" => options.seed = value()?,
            _ => return Err(USAGE.into()),
        }
    }
    let start = Instant::now();
    let mut solver = Solver::with_options(options);
    solver.set_limits(limits);
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
