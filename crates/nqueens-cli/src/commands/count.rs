//! `nqueens count`: count solutions, optionally with a checkpoint (`--checkpoint`) or one shard
//! of the count (`--shard I/K`, printed as JSON for `nqueens merge`); both use the counter.

use std::io::Write;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use clap::Args;
use nqueens::Job;
use nqueens::engines::counter::{Counter, RunOptions, Shard};
use nqueens::methods::Method;

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
    /// Record each finished task in FILE (appended, synced at least once a second) and resume
    /// from it: rerun the same command after an interruption to get the exact count.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Count only part I of K of the work (1 ≤ I ≤ K) and print it as one line of JSON; add
    /// the K parts up with `nqueens merge`.
    #[arg(long, value_name = "I/K", value_parser = parse_shard)]
    pub shard: Option<Shard>,
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse::<Shard>().map_err(|e| e.to_string())
}

pub fn run(args: CountArgs) -> Result<Status> {
    let problem = args.board.problem()?;
    let job = if args.unique {
        Job::CountUnique
    } else {
        Job::Count
    };
    let threads = args.threads.map_or_else(all_cores, |t| t as usize);
    if args.checkpoint.is_some() || args.shard.is_some() {
        return run_counter(&args, &problem, threads);
    }
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

/// `--checkpoint` and `--shard`: runs that only the counter can do.
fn run_counter(args: &CountArgs, problem: &nqueens::Problem, threads: usize) -> Result<Status> {
    let method = args.method.method;
    if !matches!(method, Method::Auto | Method::Counter) {
        bail!(
            "--checkpoint and --shard need the counter method, not {}",
            method.name()
        );
    }
    let job = if args.unique {
        Job::CountUnique
    } else {
        Job::Count
    };
    let (config, progress) = args.method.config(threads);
    let mut counter = Counter::new(threads);
    counter.progress = config.progress.clone();
    nqueens::Engine::check(&counter, job, problem)?;
    let options = RunOptions {
        checkpoint: args.checkpoint.clone(),
        shard: args.shard,
    };
    let report = counter.run(problem.n(), &options)?;
    drop(progress);
    args.method.report(&counter, report.elapsed);
    let mut out = output::open(args.output.as_deref())?;
    if args.shard.is_some() {
        writeln!(out, "{}", report.shard_result().to_json())?;
    } else if args.unique {
        writeln!(out, "{}", report.unique)?;
    } else {
        writeln!(out, "{}", report.total)?;
    }
    out.flush()?;
    Ok(Status::Success)
}
