//! What the lab measures and how it judged it: a workload ([`BenchJob`]), one workload ×
//! method × n ([`Cell`]) with the board it ran on ([`Board`]), each run's checked answer
//! ([`Checked`]) and how the cell ended ([`CellStatus`]).
//!
//! Plain data written once for every part of the lab: the runner fills cells, the checks
//! judge them, the report prints them. A cell's median, minimum and maximum are computed from
//! its runs' seconds on demand (O(R log R) for R repeats).

use std::fmt;

use clap::ValueEnum;
use nqueens_solver::Job;
use nqueens_solver::methods::Method;

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
    pub(crate) const ALL: [BenchJob; 4] = [
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
    pub(crate) fn engine_job(self) -> Job {
        match self {
            BenchJob::Solve => Job::Solve,
            BenchJob::Count | BenchJob::Completion | BenchJob::Blocked => Job::Count,
        }
    }
}

/// One run's answer after the parent's check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checked {
    /// A count of solutions or completions.
    Count(u128),
    /// A solution that the verifier accepted.
    Found,
    /// A solution that the verifier rejected, with its reason.
    Invalid(String),
    /// The method says the board has no solution.
    NoSolution,
}

impl fmt::Display for Checked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Checked::Count(count) => write!(f, "{count}"),
            Checked::Found | Checked::Invalid(_) => f.write_str("found"),
            Checked::NoSolution => f.write_str("none"),
        }
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
    pub(crate) fn new(job: BenchJob, method: Method, n: u32, board: Option<Board>) -> Self {
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
    pub(crate) fn answer(&self) -> String {
        self.answers
            .last()
            .map_or(String::new(), Checked::to_string)
    }

    pub(crate) fn median(&self) -> Option<f64> {
        let mut s = self.seconds.clone();
        s.sort_by(f64::total_cmp);
        let len = s.len();
        match len {
            0 => None,
            _ if len % 2 == 1 => Some(s[len / 2]),
            _ => Some((s[len / 2 - 1] + s[len / 2]) / 2.0),
        }
    }

    pub(crate) fn min(&self) -> Option<f64> {
        self.seconds.iter().copied().reduce(f64::min)
    }

    pub(crate) fn max(&self) -> Option<f64> {
        self.seconds.iter().copied().reduce(f64::max)
    }
}

/// The methods named with `--methods`, each once, in the order first named.
pub(crate) fn distinct(named: &[Method]) -> Vec<Method> {
    let mut methods = Vec::new();
    for &m in named {
        if !methods.contains(&m) {
            methods.push(m);
        }
    }
    methods
}
