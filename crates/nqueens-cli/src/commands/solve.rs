//! `nqueens solve`: one solution.
//!
//! A method whose answer is a formula (the construction) hands over strides instead of a
//! board ([`Engine::strided`](nqueens_solver::Engine::strided)): they are checked without the
//! board and written row by row from the formula, so `solve 4294967295` streams its 46 GB of
//! text in constant memory. Every other answer is a held [`Solution`], checked by the
//! independent verifier before it is written.

use std::time::Instant;

use anyhow::Result;
use clap::Args;
use nqueens_solver::formats::render::{Format, SolutionWriter};
use nqueens_solver::{Job, Outcome, Problem, Solution};

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
    if let Some(strided) = engine.strided(&problem) {
        drop(progress);
        args.method.report(engine.as_ref(), start.elapsed());
        super::check_strided(engine.name(), &problem, &strided)?;
        write(&args.output, format, &problem, strided.columns())?;
        return Ok(Status::Success);
    }
    let outcome = engine.solve(&problem);
    drop(progress);
    args.method.report(engine.as_ref(), start.elapsed());
    // A limit that stopped the search is an error: `main` says which (exit 3), or only that
    // Ctrl-C stopped it.
    let outcome = outcome?;
    match outcome {
        Outcome::Found(solution) => {
            super::check_solution(engine.name(), &problem, &solution)?;
            write(&args.output, format, &problem, columns(&solution))?;
            Ok(Status::Success)
        }
        Outcome::NoSolution => {
            eprintln!("no solution");
            Ok(Status::NoSolution)
        }
    }
}

fn columns(solution: &Solution) -> impl Iterator<Item = u32> + '_ {
    solution.columns().iter().copied()
}

/// Writes the solution whose columns `rows` gives, row by row, where the flags say.
fn write(
    output: &OutputArgs,
    format: Format,
    problem: &Problem,
    rows: impl Iterator<Item = u32>,
) -> Result<()> {
    // A huge answer is gigabytes of text: a stop ends the writing at its next chunk.
    let out = UntilInterrupted(output::open(output.output.as_deref())?);
    let mut writer = SolutionWriter::new(out, format, problem, output.svg.style());
    writer.write_rows(rows)?;
    writer.finish()?;
    Ok(())
}
