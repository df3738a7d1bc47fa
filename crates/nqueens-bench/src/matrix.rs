//! The method matrix of `nqueens bench`: workloads × methods × n, each cell R runs of one
//! method in a fresh process ([`crate::runner`]), after the method's own
//! [`Engine::check`](nqueens_solver::Engine::check) said it can do the job on that board (else the cell
//! is skipped with the engine's reason). A method that times out is skipped for larger n.
//! Every answer is judged as it arrives, then all together ([`crate::check`]); the table, the
//! CSV and the SVG come from [`crate::report`].

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use nqueens_solver::instances::generate::{random_blocked, random_partial};
use nqueens_solver::methods::{Config, Method};
use nqueens_solver::{Problem, formats::partial};

use crate::args::BenchArgs;
use crate::cell::{BenchJob, Board, Cell, CellStatus, distinct};
use crate::check::{cross_check, mark_wrong};
use crate::host::{Failure, Files, Verdict};
use crate::report;
use crate::runner::{self, Ran, Run};

/// Random draws allowed for a completion instance; with hundreds of queens a diagonal clash is
/// almost certain, and the cell is skipped rather than searched for minutes.
const INSTANCE_TRIES: u64 = 200_000;

/// The board sizes of the `--scale` preset for one workload.
fn scale_sizes(job: BenchJob) -> Vec<u32> {
    match job {
        // 10, 30, 100, 300, … 10^7: even steps on the plot's log axis.
        BenchJob::Solve => (1..=7)
            .flat_map(|e| [10u32.pow(e), 3 * 10u32.pow(e)])
            .filter(|&n| n <= 10_000_000)
            .collect(),
        BenchJob::Count => vec![8, 10, 11, 12, 13, 14, 15, 16],
        BenchJob::Completion => vec![8, 12, 16, 20, 24, 28, 32],
        BenchJob::Blocked => vec![8, 12, 16, 20, 24, 28],
    }
}

/// The share of the squares a blocked board blocks, in percent.
const BLOCKED_PERCENT: u32 = 25;

/// The number of queens a completion board of size `n` fixes for `percent`.
fn fixed_queens(n: u32, percent: u32) -> u32 {
    u32::try_from(u64::from(n) * u64::from(percent) / 100)
        .unwrap_or(n)
        .max(1)
}

/// A completion instance: the board, where the children read it, and how to draw it again.
struct Instance {
    problem: Problem,
    path: PathBuf,
    board: Board,
}

/// Runs the matrix the flags describe; exit 1 on a wrong or disagreeing answer.
pub fn run(args: &BenchArgs, files: &dyn Files) -> Result<Verdict> {
    let jobs = if args.jobs.is_empty() {
        BenchJob::ALL.to_vec()
    } else {
        let mut jobs = args.jobs.clone();
        jobs.sort_unstable();
        jobs.dedup();
        jobs
    };
    let methods: Vec<Method> = if args.methods.is_empty() {
        Method::ALL
            .iter()
            .copied()
            .filter(|&m| m != Method::Auto)
            .collect()
    } else {
        distinct(&args.methods)
    };
    let sizes_for = |job: BenchJob| match (&args.sizes, args.quick, args.scale) {
        (Some(sizes), _, _) => sizes.0.clone(),
        (None, true, _) => vec![6, 8, 10],
        (None, false, true) => scale_sizes(job),
        (None, false, false) => vec![6, 8, 10, 12, 14],
    };
    let percents = match (args.fixed.is_empty(), args.scale) {
        (false, _) => {
            let mut percents = args.fixed.clone();
            percents.sort_unstable();
            percents.dedup();
            percents
        }
        (true, true) => vec![10, 25, 50],
        (true, false) => vec![25],
    };
    let repeats = args
        .repeats
        .unwrap_or(if args.quick || args.scale { 3 } else { 5 });
    let default_limit = match (args.quick, args.scale) {
        (true, _) => 5.0,
        (false, true) => 10.0,
        (false, false) => 30.0,
    };
    let limit = Duration::from_secs_f64(args.timeout.unwrap_or(default_limit));
    let load = report::load_average();
    let exe = std::env::current_exe().context("cannot find the nqueens executable to re-run")?;

    // The completion instances, one per n and share fixed, written where the children can
    // read them.
    let workdir = tempfile::Builder::new()
        .prefix("nqueens-bench-")
        .tempdir()
        .context("cannot create a temporary directory for the completion boards")?;
    // By workload, n and share (fixed or blocked).
    let mut instances: BTreeMap<(BenchJob, u32, u32), Instance> = BTreeMap::new();
    let mut no_instance: BTreeMap<(BenchJob, u32, u32), String> = BTreeMap::new();
    let mut boards = Vec::new();
    if jobs.contains(&BenchJob::Completion) {
        boards.extend(percents.iter().map(|&p| (BenchJob::Completion, p)));
    }
    if jobs.contains(&BenchJob::Blocked) {
        boards.push((BenchJob::Blocked, BLOCKED_PERCENT));
    }
    for (job, percent) in boards {
        for n in sizes_for(job) {
            let seed = args.seed.wrapping_add(u64::from(n));
            let (drawn, queens, command) = if job == BenchJob::Blocked {
                let blocks = u64::from(n) * u64::from(n) * u64::from(percent) / 100;
                let drawn = random_blocked(n, blocks, 1, seed)
                    .map_err(|err| format!("no blocked board: {err}"));
                let command =
                    format!("nqueens gen-blocked {n} --blocks {blocks} --min-free 1 --seed {seed}");
                (drawn, 0, command)
            } else {
                let k = fixed_queens(n, percent);
                let drawn = random_partial(n, k, seed, INSTANCE_TRIES)
                    .map_err(|err| format!("no partial board: {err}"));
                let command = format!("nqueens gen-completion {n} --queens {k} --seed {seed}");
                (drawn, k, command)
            };
            let problem = match drawn {
                Ok(problem) => problem,
                Err(reason) => {
                    no_instance.insert((job, n, percent), reason);
                    continue;
                }
            };
            let path = workdir
                .path()
                .join(format!("{}-{n}-{percent}.txt", job.name()));
            std::fs::write(&path, partial::write(&problem, &command))
                .with_context(|| format!("cannot write {}", path.display()))?;
            let board = Board {
                percent,
                queens,
                command,
            };
            instances.insert(
                (job, n, percent),
                Instance {
                    problem,
                    path,
                    board,
                },
            );
        }
    }

    let mut table = std::io::stdout().lock();
    writeln!(table, "{}", report::table_header())?;
    let mut cells = Vec::new();
    // Each workload (completion: each share fixed) × method is one series over n.
    let series: Vec<(BenchJob, Option<u32>)> = jobs
        .iter()
        .flat_map(|&job| match job {
            BenchJob::Completion => percents.iter().map(|&p| (job, Some(p))).collect(),
            BenchJob::Blocked => vec![(job, Some(BLOCKED_PERCENT))],
            _ => vec![(job, None)],
        })
        .collect();
    for &(job, percent) in &series {
        for &method in &methods {
            let mut timed_out_at = None;
            // Cells skipped for one reason, shown as one row: (the first, its sizes).
            let mut skipped: Option<(Cell, Vec<u32>)> = None;
            for n in sizes_for(job) {
                let key = (job, n, percent.unwrap_or(0));
                let instance = instances.get(&key);
                let problem = match instance {
                    Some(instance) => instance.problem.clone(),
                    None => Problem::new(n)?,
                };
                let mut cell = Cell::new(job, method, n, instance.map(|i| i.board.clone()));
                let engine_job = job.engine_job();
                let engine = method.build(engine_job, &problem, &Config::default());
                if let Some(reason) = no_instance.get(&key) {
                    cell.status = CellStatus::Skipped;
                    cell.reason = reason.clone();
                } else if let Err(err) = engine.check(engine_job, &problem) {
                    cell.status = CellStatus::Skipped;
                    cell.reason = err.to_string();
                } else if let Some(smaller) = timed_out_at {
                    cell.status = CellStatus::Skipped;
                    cell.reason = format!("timed out at n = {smaller}");
                } else {
                    let fix_file = instance.map(|i| i.path.as_path());
                    run_cell(&exe, &mut cell, &problem, fix_file, repeats, limit)?;
                    if cell.status == CellStatus::Timeout {
                        timed_out_at = Some(n);
                    }
                    // Show a cell that is wrong on its own as wrong in its row already.
                    let own = cross_check(std::slice::from_ref(&cell));
                    mark_wrong(std::slice::from_mut(&mut cell), &own);
                }
                match &mut skipped {
                    Some((first, sizes))
                        if cell.status == CellStatus::Skipped && cell.reason == first.reason =>
                    {
                        sizes.push(n);
                    }
                    _ => {
                        if let Some((first, sizes)) = skipped.take() {
                            writeln!(table, "{}", report::skipped_row(&first, &sizes))?;
                        }
                        if cell.status == CellStatus::Skipped {
                            skipped = Some((cell.clone(), vec![n]));
                        } else {
                            writeln!(table, "{}", report::table_row(&cell))?;
                        }
                    }
                }
                table.flush()?;
                cells.push(cell);
            }
            if let Some((first, sizes)) = skipped {
                writeln!(table, "{}", report::skipped_row(&first, &sizes))?;
                table.flush()?;
            }
        }
    }
    drop(table);

    let problems = cross_check(&cells);
    mark_wrong(&mut cells, &problems);
    if let Some(path) = &args.csv {
        files.write(path, report::csv(&cells).as_bytes())?;
    }
    if let Some(path) = &args.svg {
        let caption = report::machine_caption(repeats, limit, load.as_deref());
        let plot = report::svg(&cells, &series, &methods, limit, &caption);
        files.write(path, plot.as_bytes())?;
    }
    let failed: Vec<&Cell> = cells
        .iter()
        .filter(|c| c.status == CellStatus::Failed)
        .collect();
    if problems.is_empty() && failed.is_empty() {
        let tally = |status: CellStatus| cells.iter().filter(|c| c.status == status).count();
        eprintln!(
            "bench: every answer checked: {} ok, {} skipped, {} timed out, {} gave up",
            tally(CellStatus::Ok),
            tally(CellStatus::Skipped),
            tally(CellStatus::Timeout),
            tally(CellStatus::GaveUp)
        );
        return Ok(Verdict::Success);
    }
    for problem in &problems {
        eprintln!("bench: {problem}");
    }
    for cell in &failed {
        eprintln!(
            "bench: {} {} n={} failed: {}",
            cell.job.name(),
            cell.method,
            cell.n,
            cell.reason
        );
    }
    let mut summary = String::new();
    if !problems.is_empty() {
        let _ = write!(summary, "{} wrong or disagreeing answers", problems.len());
    }
    if !failed.is_empty() {
        if !summary.is_empty() {
            summary.push_str(" and ");
        }
        let _ = write!(summary, "{} failed runs", failed.len());
    }
    Err(Failure(format!("bench found {summary} (listed above)")).into())
}

/// Runs one cell's repeats, filling in times, memory, checked answers and status; stops at the
/// first run that does not finish with an answer.
fn run_cell(
    exe: &Path,
    cell: &mut Cell,
    problem: &Problem,
    fix_file: Option<&Path>,
    repeats: u32,
    limit: Duration,
) -> Result<()> {
    let run = Run {
        job: cell.job,
        method: cell.method,
        problem,
        fix_file,
        limit,
    };
    for _ in 0..repeats {
        match runner::run_once(exe, &run)? {
            Ran::Answered {
                seconds,
                peak_rss_kb,
                stats,
                answer,
            } => {
                cell.peak_rss_kb = cell.peak_rss_kb.max(peak_rss_kb);
                cell.seconds.push(seconds);
                cell.stats = stats;
                cell.answers.push(answer);
            }
            Ran::TimedOut { peak_rss_kb } => {
                cell.peak_rss_kb = cell.peak_rss_kb.max(peak_rss_kb);
                cell.status = CellStatus::Timeout;
                cell.reason = format!("over the {:.1} s limit", limit.as_secs_f64());
                return Ok(());
            }
            Ran::GaveUp(reason) => {
                cell.status = CellStatus::GaveUp;
                cell.reason = reason;
                return Ok(());
            }
            Ran::Failed(reason) => {
                cell.status = CellStatus::Failed;
                cell.reason = reason;
                return Ok(());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_share_fixed_is_a_quarter_as_before() {
        for n in 1..200 {
            assert_eq!(fixed_queens(n, 25), (n / 4).max(1), "n = {n}");
        }
        assert_eq!(fixed_queens(32, 50), 16);
        assert_eq!(fixed_queens(8, 10), 1);
    }

    #[test]
    fn the_scale_preset_sweeps_solve_to_ten_million() {
        let solve = scale_sizes(BenchJob::Solve);
        assert_eq!(solve.first(), Some(&10));
        assert_eq!(solve.last(), Some(&10_000_000));
        assert!(solve.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(scale_sizes(BenchJob::Count).last(), Some(&16));
    }
}
