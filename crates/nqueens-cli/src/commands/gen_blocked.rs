//! `nqueens gen-blocked`: a random blocked n-Queens instance, as the published sets are made.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use nqueens::formats::partial;
use nqueens::instances::generate::{self, GenerateError};

use crate::Status;
use crate::args::parse_n;
use crate::output;

/// Write a random blocked n-Queens board (M blocked squares) for --fix-file.
///
/// The generator of Gent, Jefferson and Nightingale's blocked n-Queens sets (CSPLib problem
/// 80): the squares in a random order, each blocked if its row and its column keep more than
/// --min-free open squares, until M are blocked; a fresh order when one gets stuck. The board
/// is written in the --fix-file format, one `!ROW:COL` line per blocked square; the same seed
/// gives the same board everywhere. More blocks than the rows can give is refused at once
/// (exit 2); exit 3 if every order got stuck.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    nqueens gen-blocked 28 --blocks 300 --min-free 8 --seed 1 | nqueens solve --fix-file -\n  \
    nqueens gen-blocked 10 --blocks 40 --seed 3 -o b.txt && nqueens count --fix-file b.txt")]
pub struct GenBlockedArgs {
    /// Board size.
    #[arg(value_name = "N", value_parser = parse_n)]
    pub n: u32,
    /// How many squares to block.
    #[arg(long, short = 'm', value_name = "M")]
    pub blocks: u64,
    /// Open squares every row and column keeps at least.
    #[arg(long, value_name = "L", default_value_t = 0)]
    pub min_free: u32,
    /// Seed of the random order (the same seed gives the same board everywhere).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
}

pub fn run(args: GenBlockedArgs) -> Result<Status> {
    let problem = match generate::random_blocked(args.n, args.blocks, args.min_free, args.seed) {
        Ok(problem) => problem,
        Err(err @ GenerateError::BlocksOutOfAttempts { .. }) => {
            eprintln!("{err}");
            return Ok(Status::GaveUp);
        }
        Err(err) => return Err(err.into()),
    };
    let comment = format!(
        "random blocked board: nqueens gen-blocked {} --blocks {} --min-free {} --seed {}",
        args.n, args.blocks, args.min_free, args.seed
    );
    let mut out = output::open(args.output.as_deref())?;
    out.write_all(partial::write(&problem, &comment).as_bytes())?;
    out.finish()?;
    Ok(Status::Success)
}
