//! `nqueens gen-completion`: a random partial board for completion benchmarks and tests.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use nqueens::formats::partial;
use nqueens::instances::generate::{DEFAULT_TRIES, GenerateError, random_partial};

use crate::Status;
use crate::args::parse_n;
use crate::output;

/// Write a random partial board (K non-attacking queens) for --fix-file.
///
/// The K queens are drawn uniformly over all placements of K non-attacking queens on the n×n
/// board (rejection sampling), and written in the --fix-file format. The same seed gives the
/// same board everywhere. Exit 3 if no placement turned up in the allowed number of draws.
#[derive(Debug, Args)]
pub struct GenCompletionArgs {
    /// Board size.
    #[arg(value_name = "N", value_parser = parse_n)]
    pub n: u32,
    /// How many queens to place.
    #[arg(long, short = 'k', value_name = "K")]
    pub queens: u32,
    /// Seed of the random draw (the same seed gives the same board everywhere).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Random draws allowed before giving up (placements get rare as K approaches N).
    #[arg(long, value_name = "T", default_value_t = DEFAULT_TRIES, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_tries: u64,
    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
}

pub fn run(args: GenCompletionArgs) -> Result<Status> {
    let problem = match random_partial(args.n, args.queens, args.seed, args.max_tries) {
        Ok(problem) => problem,
        Err(GenerateError::OutOfTries { n, queens, tries }) => {
            eprintln!(
                "no non-attacking placement of {queens} queens on a {n}×{n} board found in \
                 {tries} random draws; such placements get rare as K grows (try fewer queens \
                 or a larger --max-tries)"
            );
            return Ok(Status::GaveUp);
        }
        Err(err) => return Err(err.into()),
    };
    let comment = format!(
        "random partial board: nqueens gen-completion {} --queens {} --seed {}",
        args.n, args.queens, args.seed
    );
    let mut out = output::open(args.output.as_deref())?;
    out.write_all(partial::write(&problem, &comment).as_bytes())?;
    out.finish()?;
    Ok(Status::Success)
}
