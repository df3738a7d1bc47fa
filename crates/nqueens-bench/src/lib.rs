//! The benchmark lab of the `nqueens` command (`nqueens bench` and its hidden `bench-run`
//! child): every method on the same work, each run in a fresh process. The `nqueens` binary
//! parses the flags ([`BenchArgs`], [`BenchRunArgs`]) and calls [`run`] or [`run_child_job`];
//! the lab re-runs that same executable for every child, and hands back a [`Verdict`] or an
//! error ([`Failure`]: an answer found wrong). Its CSV and SVG files go through the front
//! end's own writer ([`Files`]). Not published: it serves that binary alone.
//!
//! Two studies share one runner and one report writer:
//! - the *method matrix* (`matrix`): jobs (`solve`, `count`, `completion`: counting the
//!   completions of a random partial board) × methods × n. Before anything runs, each method's
//!   own [`Engine::check`](nqueens_solver::Engine::check) says whether it can do the job on that
//!   board; the ones that cannot are listed as skipped with the engine's reason, so methods
//!   added later take part without any change here. After R repeats a cell has its median
//!   time with the minimum and maximum;
//! - the *completion study* (`study`, `--completion-study`): where completion gets hard, for
//!   each size and share of queens placed, over seeded random instances.
//!
//! One file, one job, bottom to top: `values` parses what a command line names (a board
//! size, a method, seconds; the CLI's own flags use it too), `host` is what the front end and
//! the lab hand each other, `cell` the cell types, `args` the flags, this module the
//! dispatch; `runner` runs one job with one method in a fresh process (the hidden
//! `bench-run` subcommand, `child`, does the job on one thread and prints one report line: the job's own time, the
//! answer and its peak resident memory; `process` enforces the time limit, killing the
//! child) and judges the answer as it arrives (solutions through [`nqueens_solver::verify()`]);
//! `check` holds the answers to each other and to the published OEIS counts (any
//! disagreement is printed and the command exits 1); `report` writes the table, the CSV
//! files and the SVG plots of both studies.

mod args;
mod cell;
mod check;
mod child;
mod host;
mod matrix;
mod process;
mod report;
mod runner;
mod study;
mod values;

use std::time::Duration;

use anyhow::Result;
use nqueens_solver::methods::Method;

pub use args::{BenchArgs, Sizes};
pub use child::{BenchRunArgs, run_child_job};
pub use host::{Failure, Files, Verdict};
pub use values::{method_parser, parse_n, time_limit_parser};

use cell::distinct;

/// Runs the bench the flags ask for: the method matrix, or the completion study.
pub fn run(args: BenchArgs, files: &dyn Files) -> Result<Verdict> {
    // Before a run of minutes, not after it.
    for path in args.csv.iter().chain(&args.svg) {
        files.check_path(path)?;
    }
    if args.completion_study {
        study::run(&study_plan(&args)?, files)
    } else {
        matrix::run(&args, files)
    }
}

/// The completion study's plan from the flags and their presets.
fn study_plan(args: &BenchArgs) -> Result<study::StudyPlan> {
    let sizes = match (&args.sizes, args.quick) {
        (Some(sizes), _) => sizes.0.clone(),
        (None, true) => vec![12, 16],
        (None, false) => vec![50, 100, 200, 500],
    };
    let percents = match (&args.ratios, args.quick) {
        (Some(ratios), _) => ratios.0.clone(),
        (None, true) => vec![20, 40, 60, 80],
        (None, false) => (1..=19).map(|i| 5 * i).collect(),
    };
    if let Some(bad) = percents.iter().find(|&&p| p >= 100) {
        anyhow::bail!("--ratios takes percentages below 100, not {bad}");
    }
    let methods = if args.methods.is_empty() {
        Method::ALL.to_vec()
    } else {
        distinct(&args.methods)
    };
    let limit = args.timeout.unwrap_or(if args.quick { 5.0 } else { 10.0 });
    Ok(study::StudyPlan {
        sizes,
        percents,
        instances: args.instances.unwrap_or(if args.quick { 3 } else { 10 }),
        limit: Duration::from_secs_f64(limit),
        methods,
        seed: args.seed,
        csv: args.csv.clone(),
        svg: args.svg.clone(),
    })
}
