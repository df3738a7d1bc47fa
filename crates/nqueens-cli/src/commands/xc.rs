//! `nqueens xc FILE`: solve any exact cover problem written in Knuth's format.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use nqueens_exact_cover::{Config, EngineChoice, Problem, Solver};

use crate::output;
use crate::progress::ProgressLine;
use crate::status::Status;

/// Solve an exact cover problem in Knuth's format (as read by his DLX programs).
///
/// The first line that is not a comment lists the primary items, then `|`, then the secondary
/// items; every later line is one option, the items it covers (`ITEM:COLOR` gives a secondary
/// item a color). Lines starting with `|` are comments. By default the first solution is
/// printed, its options one per line; with --limit, solutions are separated by a blank line.
/// Exit 1 if there is no solution.
///
/// How much the order matters: counting and listing visit the whole tree, so the order of the
/// items and options changes only the order of the solutions (the declared one, Knuth's DLX1
/// order, or with --seed a random one). The time to one solution can change a
/// millionfold: 64 queens with the rows and columns in natural order take over 300 million
/// nodes in the declared order and about 100 in most random ones. So one solution (the
/// default, or --limit 1) without --seed races orders: the declared order runs for 4,096
/// nodes, then a random order for as many, each round twice as long, the declared order
/// resuming where it paused, until one finds a solution or proves there is none. It costs at
/// most about twice the declared search, the answer is the same on every run, and a problem
/// ordered well by hand still gets its declared first solution. With --seed, that seed's
/// order alone: every item's options shuffled, and ties between items going to the first in
/// a random order of the items, both drawn from the seed before the search, so a seeded
/// search costs what the declared one does.
///
/// Two engines search the same tree (the same nodes, the same solutions in the same order,
/// for every seed): dancing links for any problem, and bit sets, many times faster, for
/// problems with at most 1,024 primary items whose tables fit in 64 MiB. The files in the
/// repository's `examples/` folder are ready to try.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples (files in the repository's examples/ folder):\n  \
    nqueens xc examples/pentominoes-6x10.dlx --count --stats      9356 tilings, engine and nodes\n  \
    nqueens xc examples/pentominoes-3x20.dlx --engine links -c    the same count by dancing links\n  \
    nqueens xc examples/sudoku-9x9.dlx                            the puzzle's solution, as options\n  \
    nqueens xc examples/langford-8.dlx --limit 3 --seed 7         three solutions in a random order\n  \
    nqueens xc examples/edge-matching-4x4.dlx --count             a colored problem (XCC)\n  \
    nqueens xc-export 8 | nqueens xc -                            one 8-queens solution, as options"
)]
pub struct XcArgs {
    /// The problem file (`-` reads standard input).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Print the number of solutions instead of solutions.
    #[arg(long, short, conflicts_with = "limit")]
    pub count: bool,
    /// Print up to K solutions.
    #[arg(long, short, value_name = "K", value_parser = crate::args::at_least_one)]
    pub limit: Option<u64>,
    /// Search in a random order from this seed (the same seed gives the same order), and
    /// in that order only.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Print the engine, the time and the counters (nodes, solutions, link updates for
    /// dancing links, and the random orders given up when one solution is raced) on stderr.
    #[arg(long)]
    pub stats: bool,
    /// The search engine: `bits` (bit sets, for problems that fit), `links` (dancing links,
    /// any problem), or `auto`: bits when the problem fits.
    #[arg(long, value_enum, value_name = "ENGINE", default_value_t = EngineArg::Auto)]
    pub engine: EngineArg,

    /// Show elapsed time, nodes per second and solutions found on stderr even when it is not a
    /// terminal (on a terminal they are shown for runs longer than a second anyway).
    #[arg(long)]
    pub progress: bool,
    /// Give up after SECS seconds of search (exit 3); solutions already printed stay.
    #[arg(long, value_name = "SECS", value_parser = crate::args::time_limit_parser)]
    pub time_limit: Option<std::time::Duration>,
    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
}

/// `--engine`: which search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// Bit sets when the problem fits, dancing links otherwise.
    Auto,
    /// Dancing links (any problem).
    Links,
    /// Bit sets (an error if the problem does not fit).
    Bits,
}

pub fn run(args: XcArgs) -> Result<Status> {
    // Read through the bounded reader: an endless input (a device, a runaway pipe) ends in an
    // error instead of exhausting memory, and Ctrl-C stops the reading.
    let (name, input) = output::open_input(&args.file)?;
    let problem = Problem::read(input).with_context(|| name.clone())?;
    let engine = match args.engine {
        EngineArg::Links => EngineChoice::Links,
        EngineArg::Bits => EngineChoice::Bits,
        EngineArg::Auto => EngineChoice::Auto,
    };
    let config = Config {
        seed: args.seed,
        engine,
        ..Config::default()
    };
    let mut solver = Solver::configured(&problem, config).with_context(|| name.clone())?;
    let progress = if args.count {
        ProgressLine::for_stderr(args.progress)
    } else {
        ProgressLine::for_stream(args.progress, args.output.as_deref())
    };
    solver.set_limits(nqueens_solver::Limits {
        time: args.time_limit,
        stop: crate::interrupt::stop_flag(),
        work: progress.as_ref().map(|line| line.work("nodes")),
        ..nqueens_solver::Limits::default()
    });
    let start = Instant::now();
    let mut out = output::open(args.output.as_deref())?;
    let found = progress.as_ref().map(ProgressLine::solutions);
    let mut stopped = None;
    let found = if args.count {
        match solver.count() {
            Ok(count) => writeln!(out, "{count}")?,
            Err(stop) => stopped = Some(stop),
        }
        None
    } else {
        let limit = args.limit.unwrap_or(1);
        let mut printed = 0u64;
        let mut failed = None;
        let mut print = |options: &[nqueens_exact_cover::OptionId]| -> ControlFlow<()> {
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
            if let Some(found) = &found {
                found.store(printed, std::sync::atomic::Ordering::Relaxed);
            }
            if printed == limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        if limit == 1 {
            // One solution: the solver's race of orders (see `--help`), not the enumeration.
            match solver.first() {
                Ok(Some(options)) => {
                    let _ = print(&options);
                }
                Ok(None) => {}
                Err(stop) => stopped = Some(stop),
            }
        } else if let Err(stop) = solver.for_each(print) {
            stopped = Some(stop);
        }
        if let Some(err) = failed {
            return Err(err.into());
        }
        Some(printed)
    };
    drop(progress);
    out.flush()?;
    if args.stats {
        let stats = solver.stats();
        let updates = match solver.engine() {
            nqueens_exact_cover::Engine::Links => format!(" updates={}", stats.updates),
            nqueens_exact_cover::Engine::Bits => String::new(),
        };
        let restarts = match stats.restarts {
            0 => String::new(),
            k => format!(" restarts={k}"),
        };
        eprintln!(
            "engine={} elapsed={:.3}s nodes={}{updates} solutions={}{restarts}",
            solver.engine().name(),
            start.elapsed().as_secs_f64(),
            stats.nodes,
            stats.solutions
        );
    }
    if let Some(stopped) = stopped {
        // Stopped by Ctrl-C: the interrupt line alone says so (from `main`), not "gave up".
        if !crate::interrupt::requested() {
            let by = format!("{} engine", solver.engine().name());
            let reason = stopped.reason.to_string();
            eprintln!("{}", crate::status::gave_up_line(&reason, &by));
        }
        return Ok(Status::GaveUp);
    }
    if found == Some(0) {
        eprintln!("no solution");
        return Ok(Status::NoSolution);
    }
    Ok(Status::Success)
}
