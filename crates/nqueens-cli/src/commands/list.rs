//! `nqueens list`: enumerate solutions.

use std::ops::ControlFlow;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use nqueens_solver::Job;
use nqueens_solver::board::symmetry::Group;
use nqueens_solver::formats::render::SolutionWriter;

use crate::args::{BoardArgs, MethodArgs, OutputArgs};
use crate::output;
use crate::status::Status;

/// Print every solution, or the first K (exit 1 if there is none).
#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Stop after K solutions.
    #[arg(long, short, value_name = "K")]
    pub limit: Option<u64>,
    /// One solution per class up to rotation and reflection: the first of each class (its
    /// smallest column list), as count --unique counts them (OEIS A002562 for a bare board).
    /// With fixed queens or blocked squares, up to the rotations and reflections that map them
    /// onto themselves (--stats names them; most such boards keep none, and every solution is
    /// listed).
    #[arg(long, short)]
    pub unique: bool,
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
    let published = if args.unique {
        nqueens_solver::instances::oeis::unique(problem.n())
    } else {
        nqueens_solver::instances::oeis::total(problem.n())
    };
    if !problem.is_completion()
        && let Some(total) = published
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
    // Up to symmetry, the engine lists every solution and only the first of each class is
    // written, so the limit counts the classes.
    let group = args.unique.then(|| Group::of(&problem));
    let engine_limit = if args.unique && args.limit != Some(0) {
        None
    } else {
        args.limit
    };
    engine.list(&problem, engine_limit, &mut |solution| {
        if group.as_ref().is_some_and(|g| !g.is_canonical(solution)) {
            return ControlFlow::Continue(());
        }
        let written = super::check_solution(name, &problem, solution)
            .and_then(|()| writer.write(solution).map_err(anyhow::Error::from));
        if let Some(found) = &found {
            found.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        match written {
            Ok(()) if group.is_some() && Some(writer.written()) == args.limit => {
                ControlFlow::Break(())
            }
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
    if args.unique {
        args.method.report_symmetries(&problem);
    }
    if listed == 0 && args.limit != Some(0) {
        // Like `solve`: no solution, no output file (the unpublished one is deleted).
        eprintln!("no solution");
        return Ok(Status::NoSolution);
    }
    writer.finish()?;
    Ok(Status::Success)
}
