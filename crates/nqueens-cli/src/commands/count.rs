//! `nqueens count`: count solutions.

use std::io::Write;
use std::time::Instant;

use anyhow::{Result, anyhow};
use clap::Args;
use nqueens::Job;

use crate::Status;
use crate::args::{BoardArgs, MethodArgs, all_cores};
use crate::output;

/// Count the solutions (all of them, or up to symmetry with --unique) and print the number.
#[derive(Debug, Args)]
pub struct CountArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Count solutions up to rotation and reflection (OEIS A002562) instead of all (A000170).
    #[arg(long, short)]
    pub unique: bool,
    /// Worker threads [default: all cores].
    #[arg(long, short = 'j', value_name = "T", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub threads: Option<u32>,
    #[command(flatten)]
    pub method: MethodArgs,
    /// Write the count to this file instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<std::path::PathBuf>,
}

pub fn run(args: CountArgs) -> Result<Status> {
    let problem = args.board.problem()?;
    let job = if args.unique {
        Job::CountUnique
    } else {
        Job::Count
    };
    let threads = args.threads.map_or_else(all_cores, |t| t as usize);
    let (config, progress) = args.method.config(threads);
    let mut engine = args.method.method.build(job, &problem, &config);
    engine.check(job, &problem)?;
    let start = Instant::now();
    let counts = engine.count(&problem, args.unique)?;
    drop(progress);
    args.method.report(engine.as_ref(), start.elapsed());
    let mut out = output::open(args.output.as_deref())?;
    let shown = if args.unique {
        counts.unique.ok_or_else(|| {
            anyhow!(
                "the {} method did not count unique solutions",
                engine.name()
            )
        })?
    } else {
        counts.total
    };
    writeln!(out, "{shown}")?;
    out.flush()?;
    Ok(Status::Success)
}
