//! `nqueens sat`: any DIMACS CNF file, solved by the CDCL solver, answered as SAT
//! competitions require.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use sat::{Outcome, Solver, read_dimacs};

use crate::Status;

/// Solve a DIMACS CNF file: prints `s SATISFIABLE` with `v ... 0` lines (exit 10) or
/// `s UNSATISFIABLE` (exit 20).
#[derive(Debug, Args)]
pub struct SatArgs {
    /// The DIMACS CNF file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Write a DRAT proof of unsatisfiability to this file (checkable with drat-trim).
    #[arg(long, value_name = "PROOF")]
    pub proof: Option<PathBuf>,

    /// Print the solver's counters and the time on stderr.
    #[arg(long)]
    pub stats: bool,
}

pub fn run(args: SatArgs) -> Result<Status> {
    let name = args.file.display().to_string();
    let start = Instant::now();
    let input = File::open(&args.file).with_context(|| format!("cannot read {name}"))?;
    let mut solver = Solver::new();
    if let Some(path) = &args.proof {
        let file =
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        solver.set_proof(BufWriter::with_capacity(1 << 16, file));
    }
    read_dimacs(BufReader::with_capacity(1 << 16, input), &mut solver)
        .with_context(|| name.clone())?;
    let outcome = solver.solve();
    solver.finish_proof().context("cannot write the proof")?;
    if args.stats {
        eprintln!(
            "elapsed={:.3}s {}",
            start.elapsed().as_secs_f64(),
            solver.stats()
        );
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    let status = match outcome {
        Outcome::Sat(model) => {
            writeln!(out, "s SATISFIABLE")?;
            let mut line = String::from("v");
            for lit in model.lits() {
                let text = lit.to_dimacs().to_string();
                if line.len() + 1 + text.len() > 78 {
                    writeln!(out, "{line}")?;
                    line = String::from("v");
                }
                line.push(' ');
                line.push_str(&text);
            }
            writeln!(out, "{line} 0")?;
            Status::Satisfiable
        }
        Outcome::Unsat => {
            writeln!(out, "s UNSATISFIABLE")?;
            Status::Unsatisfiable
        }
        Outcome::Unknown(reason) => {
            writeln!(out, "s UNKNOWN")?;
            eprintln!("{reason}");
            Status::GaveUp
        }
    };
    out.flush()?;
    Ok(status)
}
