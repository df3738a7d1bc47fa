//! `nqueens solve`: one solution.

use std::time::Instant;

use anyhow::Result;
use clap::Args;
use nqueens_solver::formats::render::SolutionWriter;
use nqueens_solver::{Job, Outcome};

use crate::args::{BoardArgs, MethodArgs, OutputArgs};
use crate::interrupt::UntilInterrupted;
use crate::output;
use crate::status::Status;

/// Find one solution and draw it (exit 1 if there is none).
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    #[command(flatten)]
    pub method: MethodArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: SolveArgs) -> Result<Status> {
    let problem = args.board.problem()?;
    let format = args.output.format_for(problem.n())?;
    let (config, progress) = args.method.config(1);
    let mut engine = args.method.engine_for(Job::Solve, &problem, &config)?;
    let start = Instant::now();
    let outcome = engine.solve(&problem);
    drop(progress);
    args.method.report(engine.as_ref(), start.elapsed());
    // A limit that stopped the search is an error: `main` says which (exit 3), or only that
    // Ctrl-C stopped it.
    let outcome = outcome?;
    match outcome {
        Outcome::Found(solution) => {
            super::check_solution(engine.name(), &problem, &solution)?;
            // A huge answer is gigabytes of text: a stop ends the writing at its next chunk.
            let out = UntilInterrupted(output::open(args.output.output.as_deref())?);
            let mut writer = SolutionWriter::new(out, format, &problem, args.output.svg.style());
            writer.write(&solution)?;
            writer.finish()?;
            Ok(Status::Success)
        }
        Outcome::NoSolution => {
            eprintln!("no solution");
            Ok(Status::NoSolution)
        }
    }
}
