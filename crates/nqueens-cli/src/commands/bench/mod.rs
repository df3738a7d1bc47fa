//! `nqueens bench`: every method on the same work, each run in a fresh process.
//!
//! Two studies share one runner and one report writer:
//! - the *method matrix* ([`matrix`]): jobs (`solve`, `count`, `completion`: counting the
//!   completions of a random partial board) × methods × n. Before anything runs, each method's
//!   own [`Engine::check`](nqueens::Engine::check) says whether it can do the job on that
//!   board; the ones that cannot are listed as skipped with the engine's reason, so methods
//!   added later take part without any change here. After R repeats a cell has its median
//!   time with the minimum and maximum;
//! - the *completion study* ([`study`], `--completion-study`): where completion gets hard, for
//!   each size and share of queens placed, over seeded random instances.
//!
//! One file, one job: this module holds the flags, the cell types and the dispatch; [`runner`]
//! runs one job with one method in a fresh process (the hidden `bench-run` subcommand,
//! [`child`], does the job on one thread and prints one report line: the job's own time, the
//! answer and its peak resident memory; [`process`] enforces the time limit, killing the
//! child) and judges the answer as it arrives (solutions through [`nqueens::verify()`]);
//! [`check`] holds the answers to each other and to the published OEIS counts (any
//! disagreement is printed and the command exits 1); [`report`] writes the table, the CSV
//! files and the SVG plots of both studies.

mod check;
mod child;
mod matrix;
mod process;
mod report;
mod runner;
mod study;

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::{Args, ValueEnum};
use nqueens::Job;
use nqueens::methods::Method;

pub use child::{BenchRunArgs, run_child_job};

use self::check::Checked;
use crate::Status;
use crate::args::{method_parser, parse_n};

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
    /// Count the solutions of a random blocked board: a quarter of the squares blocked, every
    /// row and column keeping an open one (as `gen-blocked N --blocks ⌊n²/4⌋ --min-free 1`
    /// draws it).
    Blocked,
}

impl BenchJob {
    const ALL: [BenchJob; 4] = [
        BenchJob::Solve,
        BenchJob::Count,
        BenchJob::Completion,
        BenchJob::Blocked,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BenchJob::Solve => "solve",
            BenchJob::Count => "count",
            BenchJob::Completion => "completion",
            BenchJob::Blocked => "blocked",
        }
    }

    /// The engine job behind this bench job.
    fn engine_job(self) -> Job {
        match self {
            BenchJob::Solve => Job::Solve,
            BenchJob::Count | BenchJob::Completion | BenchJob::Blocked => Job::Count,
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
    /// rows fixed, blocked over n = 8 … 28; 3 repeats, 10 s limit. Each method runs up to its
    /// own size limit or the time limit.
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

/// The board of a completion or blocked cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The share of the rows fixed (`--fixed`), or for a blocked board of the squares blocked,
    /// in percent.
    pub percent: u32,
    /// How many queens are fixed: that share of n, rounded down, at least one (none on a
    /// blocked board).
    pub queens: u32,
    /// The command that draws the same board (`nqueens gen-completion ...`,
    /// `nqueens gen-blocked ...`).
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

/// Runs the bench the flags ask for: the method matrix, or the completion study.
pub fn run(args: BenchArgs) -> Result<Status> {
    // Before a run of minutes, not after it.
    for path in args.csv.iter().chain(&args.svg) {
        crate::output::check_output_path(path)?;
    }
    if args.completion_study {
        study::run(&study_plan(&args)?)
    } else {
        matrix::run(&args)
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
