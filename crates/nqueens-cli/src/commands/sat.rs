//! `nqueens sat`: any DIMACS CNF file, solved by the CDCL solver, answered as SAT
//! competitions require.
//!
//! The formula is read and checked whole before the proof file or the `--output` file is
//! created, so a rejected input leaves both untouched, and both appear only with an answer
//! (exit 10 or 20): a search stopped by a limit or Ctrl-C leaves them as they were (see
//! [`crate::output`]). The model lists every variable the header declares.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use nqueens_sat::{ClauseSink, Cnf, Lit, Outcome, Solver, Var, read_dimacs};

use crate::output;
use crate::status::Status;

/// Conflicts before the first simplification by default: a formula the search answers
/// sooner (a few hundredths of a second) is never simplified, where the passes' work, linear in
/// the formula, would cost more than the search (on small formulas, up to four times the
/// instructions of the whole run).
const SIMPLIFY_DELAY: u64 = 5_000;

/// Solve a DIMACS CNF file: prints `s SATISFIABLE` with `v ... 0` lines (exit 10) or
/// `s UNSATISFIABLE` (exit 20).
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    nqueens sat formula.cnf                    solve a file\n  \
    nqueens cnf 8 | nqueens sat -              solve what another command writes\n  \
    nqueens sat f.cnf --proof f.drat -o f.out  answer to a file, DRAT proof beside it\n  \
    nqueens sat f.cnf --stats                  say what the search and the passes did\n  \
    nqueens sat f.cnf --no-simplify            the search alone\n  \
    nqueens sat f.cnf --factor                 fresh variables for shared clause parts too")]
pub struct SatArgs {
    /// The DIMACS CNF file (`-` reads standard input).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Write a DRAT proof of unsatisfiability to this file (checkable with drat-trim).
    #[arg(long, value_name = "PROOF")]
    pub proof: Option<PathBuf>,

    /// Write the answer (`s ...` and `v ...` lines) to this file instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,

    /// Print the solver's counters and the time on stderr.
    #[arg(long)]
    pub stats: bool,

    /// Show elapsed time and conflicts per second on stderr even when it is not a terminal
    /// (on a terminal they are shown for runs longer than a second anyway).
    #[arg(long)]
    pub progress: bool,

    /// Simplify from the start: the passes (below) run before the first search
    /// instead of after its first 5,000 conflicts.
    ///
    /// By default the formula is simplified once the search has made 5,000 conflicts (a
    /// formula answered sooner is left as it is), and again now and then: equivalent literals
    /// replaced by one of them (found in the binary clauses and by matching gates of the same
    /// inputs), failed literals fixed, variables eliminated by resolution with a bound that
    /// grows from round to round, learnt clauses shortened by propagation (vivification). It
    /// answers industrial formulas (circuits, software verification) far sooner and a few
    /// others later. The passes are bounded in work, stop at --time-limit and Ctrl-C as the
    /// search does, and answer `s UNKNOWN` when the memory they need is not to be had.
    #[arg(long, conflicts_with = "no_simplify")]
    pub simplify: bool,

    /// No simplification: the search alone, on the formula as given.
    #[arg(long)]
    pub no_simplify: bool,

    /// Also factor: each elimination run first replaces the clauses `l ∨ C` that come for
    /// several literals `l` and several short parts `C` by clauses on a fresh variable
    /// (bounded variable addition). Off by default: it answers pigeonhole formulas far sooner
    /// and some circuits a little, and others later. The model leaves the fresh variables
    /// out; a proof defines them by RAT lemmas (drat-trim checks those) and numbers them after
    /// the highest variable the formula's clauses name.
    #[arg(long, conflicts_with = "no_simplify")]
    pub factor: bool,

    /// Give up after SECS seconds of search: `s UNKNOWN`, exit 3.
    #[arg(long, value_name = "SECS", value_parser = crate::args::time_limit_parser)]
    pub time_limit: Option<std::time::Duration>,
}

pub fn run(args: SatArgs) -> Result<Status> {
    let start = Instant::now();
    // Every input first: the formula, read and checked whole.
    let (name, input) = output::open_input(&args.file)?;
    let mut cnf = Cnf::new();
    let header = read_dimacs(input, &mut cnf).with_context(|| name.clone())?;
    // Then the outputs.
    let mut out = output::open(args.output.as_deref())?;
    let simplify = !args.no_simplify;
    let mut solver = Solver::with_options(nqueens_sat::Options {
        eliminate: simplify,
        eliminate_rounds: simplify,
        substitute: simplify,
        congruence: simplify,
        probe: simplify,
        vivify: simplify,
        factor: args.factor,
        simplify_delay: if args.simplify { 0 } else { SIMPLIFY_DELAY },
        ..nqueens_sat::Options::default()
    });
    if let Some(path) = &args.proof {
        solver.set_proof(output::open(Some(path))?);
    }
    cnf.add_to(&mut solver);
    drop(cnf);
    solver
        .status()
        .with_context(|| format!("{name}: the formula does not fit in memory"))?;
    let progress = crate::progress::ProgressLine::for_stderr(args.progress);
    solver.set_limits(nqueens_sat::Limits {
        time: args.time_limit,
        stop: crate::interrupt::stop_flag(),
        work: progress.as_ref().map(|line| line.work("conflicts")),
        ..nqueens_sat::Limits::default()
    });
    let outcome = solver.solve();
    drop(progress);
    // A proof is kept only with an answer (see `output::settle`): one cut short by a limit or
    // Ctrl-C is dropped unfinished, whatever its writes said.
    if !matches!(outcome, Outcome::Unknown(_)) {
        solver.finish_proof()?;
    }
    if args.stats {
        eprintln!(
            "elapsed={:.3}s {}",
            start.elapsed().as_secs_f64(),
            solver.stats()
        );
    }
    let status = match outcome {
        Outcome::Sat(model) => {
            writeln!(out, "s SATISFIABLE")?;
            // Every variable the header declares, as SAT competitions require: those no clause
            // names are free, and false.
            let mut line = String::from("v");
            for index in 0..header.vars {
                let var = Var::from_index(index);
                let text = Lit::new(var, !model.value(var)).to_dimacs().to_string();
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
            // Stopped by Ctrl-C: the interrupt line alone says so (from `main`).
            if !crate::interrupt::requested() {
                eprintln!(
                    "{}",
                    crate::status::gave_up_line(&reason.to_string(), "sat solver")
                );
            }
            Status::GaveUp
        }
    };
    out.finish()?;
    Ok(status)
}
