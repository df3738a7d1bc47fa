//! `nqueens gen-completion`: a random partial board for completion benchmarks and tests.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueEnum};
use nqueens_solver::formats::partial;
use nqueens_solver::instances::generate::{self, GenerateError, Placement};

use crate::args::parse_n;
use crate::output;
use crate::status::Status;

/// Write a random partial board (K non-attacking queens) for --fix-file.
///
/// Three ways to place the K queens: `uniform` (the default) draws uniformly over all
/// placements of K non-attacking queens by rejection, which gets slow from about 0.6·N queens;
/// `sequential` places queens one at a time on random unattacked squares of random rows,
/// restarting when stuck, and reaches nearly full boards (the hard instances, with or without
/// a completion); `from-solution` keeps K random queens of a random solution found by local
/// search, so the board always has a completion. The board is written in the --fix-file
/// format; the same seed gives the same board everywhere. A request the method cannot reach is
/// refused at once with the reason (exit 2); exit 3 if the allowed draws or attempts ran out.
#[derive(Debug, Args)]
pub struct GenCompletionArgs {
    /// Board size.
    #[arg(value_name = "N", value_parser = parse_n)]
    pub n: u32,
    /// How many queens to place.
    #[arg(long, short = 'k', value_name = "K")]
    pub queens: u32,
    /// How to place them.
    #[arg(long, value_enum, value_name = "HOW", default_value_t = PlacementArg::Uniform)]
    pub method: PlacementArg,
    /// Seed of the random draw (the same seed gives the same board everywhere).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Random draws (uniform) or restarts (sequential) allowed before giving up [default:
    /// uniform 10000000, sequential 5000000/N between 32 and 1000].
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_tries: Option<u64>,
    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
}

/// The placements as the command line names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlacementArg {
    /// Uniform over all non-attacking placements (rejection sampling).
    Uniform,
    /// Random sequential placement, restarting when stuck.
    Sequential,
    /// K random queens of a random solution (always completable).
    FromSolution,
}

impl From<PlacementArg> for Placement {
    fn from(arg: PlacementArg) -> Placement {
        match arg {
            PlacementArg::Uniform => Placement::Uniform,
            PlacementArg::Sequential => Placement::Sequential,
            PlacementArg::FromSolution => Placement::FromSolution,
        }
    }
}

pub fn run(args: GenCompletionArgs) -> Result<Status> {
    let placement = Placement::from(args.method);
    let problem =
        match generate::generate(placement, args.n, args.queens, args.seed, args.max_tries) {
            Ok(problem) => problem,
            Err(GenerateError::OutOfTries { n, queens, tries }) => {
                eprintln!(
                    "no non-attacking placement of {queens} queens on {} found in \
                 {tries} random draws; such placements get rare as K grows (try fewer queens, \
                 a larger --max-tries or --method sequential)",
                    nqueens_solver::board::ABoard(n)
                );
                return Ok(Status::GaveUp);
            }
            Err(err @ GenerateError::OutOfAttempts { .. }) => {
                eprintln!("{err}");
                return Ok(Status::GaveUp);
            }
            Err(err) => return Err(err.into()),
        };
    let comment = format!(
        "random partial board: nqueens gen-completion {} --queens {} --method {} --seed {}",
        args.n,
        args.queens,
        placement.name(),
        args.seed
    );
    let mut out = output::open(args.output.as_deref())?;
    out.write_all(partial::write(&problem, &comment).as_bytes())?;
    out.finish()?;
    Ok(Status::Success)
}
