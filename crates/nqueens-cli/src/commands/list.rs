//! `nqueens list`: enumerate solutions.

use std::ops::ControlFlow;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use nqueens::Job;
use nqueens::formats::render::SolutionWriter;

use crate::Status;
use crate::args::{BoardArgs, MethodArgs, OutputArgs};
use crate::output;

/// Print every solution, or the first K (exit 1 if there is none).
#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Stop after K solutions.
    #[arg(long, short, value_name = "K")]
    pub limit: Option<u64>,
    #[command(flatten)]
    pub method: MethodArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: ListArgs) -> Result<Status> {
    let problem = args.board.problem()?;
    let format = args.output.format_for(problem.n())?;
    let (config, progress) = args.method.config(1);
    // Solutions scrolling past on the terminal are progress enough.
    let progress = progress.filter(|_| {
        args.method.progress
            || args.output.output.is_some()
            || !std::io::IsTerminal::is_terminal(&std::io::stdout())
    });
    let mut engine = args.method.engine_for(Job::List, &problem, &config)?;
    let out = output::open(args.output.output.as_deref())?;
    let mut writer = SolutionWriter::new(out, format, &problem, args.output.svg.style());
    // A picture of all solutions of a bare board has a size known from the published counts,
    // so it is streamed (`list 16 -o all.svg` is 18 GB of SVG, never held in memory).
    if !problem.is_completion()
        && let Some(total) = nqueens::instances::oeis::total(problem.n())
    {
        let total = u64::try_from(total).unwrap_or(u64::MAX);
        writer.stream_svg(args.limit.map_or(total, |limit| limit.min(total)));
    }
    let name = engine.name();
    let start = Instant::now();
    // The callback cannot return an error, so the first one is kept and stops the search.
    let mut failed: Option<anyhow::Error> = None;
    let found = progress
        .as_ref()
        .map(crate::progress::ProgressLine::solutions);
    engine.list(&problem, args.limit, &mut |solution| {
        let written = super::check_solution(name, &problem, solution)
            .and_then(|()| writer.write(solution).map_err(anyhow::Error::from));
        if let Some(found) = &found {
            found.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        match written {
            Ok(()) => ControlFlow::Continue(()),
            Err(err) => {
                failed = Some(err);
                ControlFlow::Break(())
            }
        }
    })?;
    drop(progress);
    if let Some(err) = failed {
        return Err(err);
    }
    let listed = writer.written();
    args.method.report(engine.as_ref(), start.elapsed());
    if listed == 0 && args.limit != Some(0) {
        // Like `solve`: no solution, no output file (the unpublished one is deleted).
        eprintln!("no solution");
        return Ok(Status::NoSolution);
    }
    writer.finish()?;
    Ok(Status::Success)
}
