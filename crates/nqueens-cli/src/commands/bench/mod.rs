//! `nqueens bench`: every method on the same work, each run in a fresh process.
//!
//! The matrix is jobs (`solve`, `count`, `completion`: counting the completions of a random
//! partial board) × methods × n. Before anything runs, each method's own
//! [`Engine::check`](nqueens::Engine::check) says whether it can do the job on that board; the
//! ones that cannot are listed as skipped with the engine's reason, so methods added later
//! take part without any change here.
//!
//! This module holds the flags and the driver that walks the matrix. Each run re-invokes this
//! executable with the hidden `bench-run` subcommand ([`child`]), which does the one job on one
//! thread and prints one report line: the time the job itself took, the answer and its own
//! peak resident memory. The parent ([`process`]) enforces the time limit (killing the
//! child). After R repeats the cell has its median time with the minimum
//! and maximum.
//!
//! Every answer is checked ([`check`]): solutions go through [`nqueens::verify()`] as they
//! arrive, counts must agree across repeats, across methods and with the published OEIS count.
//! Any disagreement is printed and the command exits 1. [`report`] writes the table, the CSV
//! and the SVG plot.

mod check;
mod child;
mod process;
mod report;
mod study;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use nqueens::instances::generate::random_partial;
use nqueens::methods::{Config, Method};
use nqueens::{Job, Problem, Solution, formats::partial, verify};

pub use child::{BenchRunArgs, run_child_job};

use self::check::{Checked, Disagreement, cross_check};
use self::child::{Answer, Report};
use crate::args::{method_parser, parse_n};
use crate::{Failure, Status};

/// How long past its time budget a child may run before it is killed.
const KILL_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// Random draws allowed for a completion instance; with hundreds of queens a diagonal clash is
/// almost certain, and the cell is skipped rather than searched for minutes.
const INSTANCE_TRIES: u64 = 200_000;

/// What a bench row asks of a method: a workload (`--workloads`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ValueEnum)]
pub enum BenchJob {
    /// Find one solution of the empty board.
    Solve,
    /// Count all solutions of the empty board (checked against OEIS A000170).
    Count,
    /// Count the completions of a random partial board with a share of the rows fixed
    /// (--fixed; by default 25%: ⌊n/4⌋ queens, at least one).
    Completion,
}

impl BenchJob {
    const ALL: [BenchJob; 3] = [BenchJob::Solve, BenchJob::Count, BenchJob::Completion];

    pub fn name(self) -> &'static str {
        match self {
            BenchJob::Solve => "solve",
            BenchJob::Count => "count",
            BenchJob::Completion => "completion",
        }
    }

    /// The engine job behind this bench job.
    fn engine_job(self) -> Job {
        match self {
            BenchJob::Solve => Job::Solve,
            BenchJob::Count | BenchJob::Completion => Job::Count,
        }
    }
}

/// Compare the methods on the same work: a table, CSV and an SVG plot (exit 1 on a wrong answer).
///
/// Runs workloads × methods × n, each in a fresh process on one thread with a time limit, reports
/// the median time (min–max over the repeats) and the peak memory, and cross-checks every
/// answer: solutions through the verifier, counts against each other and OEIS. Exits 1 if any
/// answer is wrong or two disagree.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// A small matrix that finishes in well under a minute (n = 6, 8, 10; 3 repeats; 5 s limit).
    #[arg(long, conflicts_with = "scale")]
    pub quick: bool,
    /// The big picture, for the plot (several minutes): solve over n = 10 … 10^7 (10, 30, 100,
    /// 300, …), count over n = 8 … 16, completion over n = 8 … 32 with 10%, 25% and 50% of the
    /// rows fixed; 3 repeats, 10 s limit. Each method runs up to its own size limit or the time
    /// limit.
    #[arg(long)]
    pub scale: bool,
    // Named for what is measured: cargo and make users read `--jobs` as parallelism, so the
    // old name is only a hidden alias. (`--tasks` would clash with the counter's tasks.)
    /// Workloads to run, comma-separated [default: all].
    #[arg(
        long = "workloads",
        alias = "jobs",
        value_name = "WORKLOAD",
        value_delimiter = ','
    )]
    pub jobs: Vec<BenchJob>,
    /// Methods to compare, comma-separated [default: every method but auto].
    #[arg(long, value_name = "METHOD", value_delimiter = ',', value_parser = method_parser())]
    pub methods: Vec<Method>,
    // `--n` (a long flag with a one-letter name) is the hidden old alias.
    /// Board sizes: a list like 6,8,10, a range like 4-12, or a range with a step like 4-16:2
    /// [default: 6-14:2, or 6-10:2 with --quick, or per workload with --scale].
    #[arg(long = "sizes", alias = "n", value_name = "SIZES", value_parser = parse_sizes)]
    pub sizes: Option<Sizes>,
    /// Runs per cell; the median is reported [default: 5, or 3 with --quick or --scale].
    #[arg(long, short = 'r', value_name = "R", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeats: Option<u32>,
    /// Time limit per run in seconds; a method that hits it is not run on larger n
    /// [default: 30, or 5 with --quick, or 10 with --scale].
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<f64>,
    /// Share of the rows whose queen the completion boards fix, in percent, comma-separated:
    /// one plot panel each [default: 25, or 10,25,50 with --scale].
    #[arg(long, value_name = "PERCENT", value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=99))]
    pub fixed: Vec<u32>,
    /// Instead of the matrix, the completion phase-transition study: for each size (--sizes,
    /// default 50,100,200,500) and share of rows with a queen (--ratios), draw instances by
    /// random sequential placement and time every method that can complete them (--methods,
    /// default all that can, auto included); writes the share of completable instances and
    /// each method's median and 95th-percentile time (--csv, --svg).
    #[arg(long, conflicts_with_all = ["scale", "jobs", "fixed", "repeats"])]
    pub completion_study: bool,
    /// The study's shares of rows with a queen, in percent: a list or a range with a step
    /// [default: 5-95:5, or 20-80:20 with --quick].
    #[arg(long, value_name = "PERCENTS", value_parser = parse_sizes, requires = "completion_study")]
    pub ratios: Option<Sizes>,
    /// The study's instances per size and share [default: 10, or 3 with --quick].
    #[arg(long, value_name = "I", value_parser = clap::value_parser!(u32).range(1..=10_000), requires = "completion_study")]
    pub instances: Option<u32>,
    /// Seed of the random partial boards of the completion workload.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Write one CSV row per workload × method × n (the `job` column) to this file.
    #[arg(long, value_name = "PATH")]
    pub csv: Option<PathBuf>,
    /// Draw time against n (log scale), one line per method and a panel per workload, to this SVG file.
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
}

/// Board sizes for `--sizes`.
#[derive(Clone, Debug)]
pub struct Sizes(Vec<u32>);

fn parse_sizes(text: &str) -> Result<Sizes, String> {
    let mut sizes = Vec::new();
    for part in text.split(',').map(str::trim) {
        let (range, step) = match part.split_once(':') {
            Some((range, step)) => (range, parse_n(step).map_err(|e| format!("step: {e}"))?),
            None => (part, 1),
        };
        match range.split_once('-') {
            Some((low, high)) => {
                let (low, high) = (parse_n(low)?, parse_n(high)?);
                if low > high {
                    return Err(format!("the range {low}-{high} is empty"));
                }
                sizes.extend((low..=high).step_by(step as usize));
            }
            None => sizes.push(parse_n(range)?),
        }
    }
    sizes.sort_unstable();
    sizes.dedup();
    Ok(Sizes(sizes))
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err("expected a number of seconds between 0 and 86400, like 2.5".into()),
    }
}

/// How a cell ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellStatus {
    /// Every repeat ran and its answer checked out.
    Ok,
    /// The method cannot do this job on this board (the reason says why), or timed out on a
    /// smaller one.
    Skipped,
    /// A run hit the time limit.
    Timeout,
    /// The method stopped at a limit of its own before deciding.
    GaveUp,
    /// The child failed (crashed, or reported an error).
    Failed,
    /// The answer is wrong: an invalid solution, or a count that disagrees.
    Wrong,
}

impl CellStatus {
    pub fn name(self) -> &'static str {
        match self {
            CellStatus::Ok => "ok",
            CellStatus::Skipped => "skipped",
            CellStatus::Timeout => "timeout",
            CellStatus::GaveUp => "gave-up",
            CellStatus::Failed => "failed",
            CellStatus::Wrong => "WRONG",
        }
    }
}

/// The partial board of a completion cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The share of the rows fixed, in percent (`--fixed`).
    pub percent: u32,
    /// How many queens are fixed: that share of n, rounded down, at least one.
    pub queens: u32,
    /// The command that draws the same board (`nqueens gen-completion ...`).
    pub command: String,
}

/// One job × method × n.
#[derive(Clone, Debug)]
pub struct Cell {
    pub job: BenchJob,
    pub method: Method,
    pub n: u32,
    /// The completion job's board.
    pub board: Option<Board>,
    /// Seconds of each run that finished.
    pub seconds: Vec<f64>,
    pub peak_rss_kb: Option<u64>,
    /// The checked answer of each run that finished.
    pub answers: Vec<Checked>,
    /// The engine's own counters from the last run (`nodes=...`), machine-independent.
    pub stats: String,
    pub status: CellStatus,
    pub reason: String,
}

impl Cell {
    fn new(job: BenchJob, method: Method, n: u32, board: Option<Board>) -> Self {
        Cell {
            job,
            method,
            n,
            board,
            seconds: Vec::new(),
            peak_rss_kb: None,
            answers: Vec::new(),
            stats: String::new(),
            status: CellStatus::Ok,
            reason: String::new(),
        }
    }

    /// The last run's answer as text (`found`, `none`, a count), empty before any.
    fn answer(&self) -> String {
        self.answers
            .last()
            .map_or(String::new(), Checked::to_string)
    }

    fn median(&self) -> Option<f64> {
        let mut s = self.seconds.clone();
        s.sort_by(f64::total_cmp);
        let len = s.len();
        match len {
            0 => None,
            _ if len % 2 == 1 => Some(s[len / 2]),
            _ => Some((s[len / 2 - 1] + s[len / 2]) / 2.0),
        }
    }

    fn min(&self) -> Option<f64> {
        self.seconds.iter().copied().reduce(f64::min)
    }

    fn max(&self) -> Option<f64> {
        self.seconds.iter().copied().reduce(f64::max)
    }
}

/// Marks the cells each disagreement names as wrong, with its reason.
/// The methods named with `--methods`, each once, in the order first named.
fn distinct(named: &[Method]) -> Vec<Method> {
    let mut methods = Vec::new();
    for &m in named {
        if !methods.contains(&m) {
            methods.push(m);
        }
    }
    methods
}

fn mark_wrong(cells: &mut [Cell], found: &[Disagreement]) {
    for disagreement in found {
        for &i in &disagreement.wrong {
            cells[i].status = CellStatus::Wrong;
            cells[i].reason = disagreement.fault.reason();
        }
    }
}

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
    }
}

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

pub fn run(args: BenchArgs) -> Result<Status> {
    if args.completion_study {
        return study::run(&study_plan(&args)?);
    }
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
    let mut instances: BTreeMap<(u32, u32), Instance> = BTreeMap::new();
    let mut no_instance: BTreeMap<(u32, u32), String> = BTreeMap::new();
    if jobs.contains(&BenchJob::Completion) {
        for &percent in &percents {
            for n in sizes_for(BenchJob::Completion) {
                let k = fixed_queens(n, percent);
                let seed = args.seed.wrapping_add(u64::from(n));
                let problem = match random_partial(n, k, seed, INSTANCE_TRIES) {
                    Ok(problem) => problem,
                    Err(err) => {
                        no_instance.insert((n, percent), format!("no partial board: {err}"));
                        continue;
                    }
                };
                let path = workdir.path().join(format!("completion-{n}-{percent}.txt"));
                let command = format!("nqueens gen-completion {n} --queens {k} --seed {seed}");
                std::fs::write(&path, partial::write(&problem, &command))
                    .with_context(|| format!("cannot write {}", path.display()))?;
                let board = Board {
                    percent,
                    queens: k,
                    command,
                };
                instances.insert(
                    (n, percent),
                    Instance {
                        problem,
                        path,
                        board,
                    },
                );
            }
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
            _ => vec![(job, None)],
        })
        .collect();
    for &(job, percent) in &series {
        for &method in &methods {
            let mut timed_out_at = None;
            for n in sizes_for(job) {
                let key = (n, percent.unwrap_or(0));
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
                writeln!(table, "{}", report::table_row(&cell))?;
                table.flush()?;
                cells.push(cell);
            }
        }
    }
    drop(table);

    let problems = cross_check(&cells);
    mark_wrong(&mut cells, &problems);
    if let Some(path) = &args.csv {
        std::fs::write(path, report::csv(&cells))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.svg {
        let caption = report::machine_caption(repeats, limit, load.as_deref());
        let plot = report::svg(&cells, &series, &methods, limit, &caption);
        std::fs::write(path, plot).with_context(|| format!("cannot write {}", path.display()))?;
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
        return Ok(Status::Success);
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
    for _ in 0..repeats {
        let mut command = Command::new(exe);
        command
            .arg("bench-run")
            .arg("--job")
            .arg(cell.job.name())
            .arg("--method")
            .arg(cell.method.name())
            .arg(cell.n.to_string());
        if let Some(path) = fix_file {
            command.arg("--fix-file").arg(path);
        }
        // The engine stops itself at the budget; killing it is the backstop for the work no
        // budget covers (building a huge formula, say).
        command
            .arg("--time-limit")
            .arg(format!("{}", limit.as_secs_f64()));
        let child = process::run_child(&mut command, limit + KILL_GRACE)?;
        if child.timed_out {
            cell.peak_rss_kb = cell.peak_rss_kb.max(child.peak_rss_kb);
            cell.status = CellStatus::Timeout;
            cell.reason = format!("over the {:.1} s limit", limit.as_secs_f64());
            return Ok(());
        }
        let report = match (child.code, child.stdout.trim_end().parse::<Report>()) {
            (Some(0), Ok(report)) => report,
            (Some(3), _) if child.stderr.contains("time limit reached") => {
                cell.status = CellStatus::Timeout;
                cell.reason = format!("over the {:.1} s limit", limit.as_secs_f64());
                return Ok(());
            }
            (Some(3), _) => {
                cell.status = CellStatus::GaveUp;
                cell.reason = child.stderr.trim().to_string();
                return Ok(());
            }
            (Some(0), Err(err)) => {
                cell.status = CellStatus::Failed;
                cell.reason = err.to_string();
                return Ok(());
            }
            (code, _) => {
                cell.status = CellStatus::Failed;
                let code = code.map_or("a signal".to_string(), |c| format!("exit {c}"));
                cell.reason = format!("{code}: {}", child.stderr.trim().replace('\n', " "));
                return Ok(());
            }
        };
        // The child's own figure where it has one; `wait4`'s includes the parent's memory.
        cell.peak_rss_kb = cell
            .peak_rss_kb
            .max(report.peak_rss_kb.or(child.peak_rss_kb));
        cell.seconds.push(report.seconds);
        cell.stats = report.stats;
        cell.answers.push(match report.answer {
            Answer::Count(count) => Checked::Count(count),
            Answer::NoSolution => Checked::NoSolution,
            Answer::Found(columns) => match verify(problem, &Solution::from_columns(columns)) {
                Ok(()) => Checked::Found,
                Err(violation) => Checked::Invalid(violation.to_string()),
            },
        });
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
