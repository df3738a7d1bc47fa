//! `nqueens xc FILE`: solve any exact cover problem written in Knuth's format.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use exact_cover::{Problem, Solver};

use crate::Status;
use crate::output;

/// Solve an exact cover problem in Knuth's format (as read by his DLX programs).
///
/// The first line that is not a comment lists the primary items, then `|`, then the secondary
/// items; every later line is one option, the items it covers (`ITEM:COLOR` gives a secondary
/// item a color). Lines starting with `|` are comments. By default the first solution is
/// printed, its options one per line; with --limit, solutions are separated by a blank line.
/// Exit 1 if there is no solution.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    nqueens xc-export 8 | nqueens xc -          one 8-queens solution, as options\n  \
    nqueens xc pent.dlx --count --stats         count, with nodes and link updates\n  \
    nqueens xc pent.dlx --limit 3 --seed 7      three solutions in a random order")]
pub struct XcArgs {
    /// The problem file (`-` reads standard input).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Print the number of solutions instead of solutions.
    #[arg(long, short, conflicts_with = "limit")]
    pub count: bool,
    /// Print up to K solutions.
    #[arg(long, short, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Search in a random order from this seed (the same seed gives the same order).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Print the time and the counters (nodes, link updates, solutions) on stderr.
    #[arg(long)]
    pub stats: bool,
    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
}

pub fn run(args: XcArgs) -> Result<Status> {
    let stdin = args.file.as_os_str() == "-";
    let name = if stdin {
        "standard input".to_string()
    } else {
        args.file.display().to_string()
    };
    // Read through the bounded reader: an endless input (a device, a runaway pipe) ends in an
    // error instead of exhausting memory.
    let problem = if stdin {
        Problem::read(std::io::stdin().lock())
    } else {
        let file =
            std::fs::File::open(&args.file).with_context(|| format!("cannot read {name}"))?;
        Problem::read(file)
    };
    let problem = problem.with_context(|| name.clone())?;
    let mut solver = match args.seed {
        Some(seed) => Solver::with_seed(&problem, seed),
        None => Solver::new(&problem),
    };
    let start = Instant::now();
    let mut out = output::open(args.output.as_deref())?;
    let found = if args.count {
        let count = solver.count();
        writeln!(out, "{count}")?;
        None
    } else {
        let limit = args.limit.unwrap_or(1);
        let mut printed = 0u64;
        let mut failed = None;
        solver.for_each(|options| {
            let mut write = || -> std::io::Result<()> {
                if printed > 0 {
                    writeln!(out)?;
                }
                for &option in options {
                    writeln!(out, "{}", problem.option_text(option))?;
                }
                Ok(())
            };
            if let Err(err) = write() {
                failed = Some(err);
                return ControlFlow::Break(());
            }
            printed += 1;
            if printed == limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if let Some(err) = failed {
            return Err(err.into());
        }
        Some(printed)
    };
    out.flush()?;
    if args.stats {
        let stats = solver.stats();
        eprintln!(
            "elapsed={:.3}s nodes={} updates={} solutions={}",
            start.elapsed().as_secs_f64(),
            stats.nodes,
            stats.updates,
            stats.solutions
        );
    }
    if found == Some(0) {
        eprintln!("no solution");
        return Ok(Status::NoSolution);
    }
    Ok(Status::Success)
}
