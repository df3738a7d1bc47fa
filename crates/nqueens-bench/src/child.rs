//! The child side of a bench run: the hidden `bench-run` subcommand does one job with one
//! method on one thread and prints one [`Report`] line: the time the job itself took (process
//! start-up and board parsing excluded), the answer, and the engine's own counters.
//!
//! The line is written by `Report`'s `Display` and read back by its `FromStr`, so the two sides
//! cannot drift: `SECONDS<TAB>ANSWER<TAB>PEAK<TAB>STATS`, where `ANSWER` is `count N`, `none`,
//! or `found` followed by the 0-based column of each row's queen, and `PEAK` is the child's
//! peak resident memory in KiB (`-` where the system does not say). Seconds are written in
//! Rust's shortest round-tripping form, so parsing gives back the exact `f64`.
//!
//! The child measures its own peak memory (Linux: `VmHWM` in `/proc/self/status`) because the
//! parent's view, `ru_maxrss` from `wait4`, starts from the parent's own resident size at the
//! fork: after the parent has read a 10^7-queen solution, every later child would seem to
//! need as much memory as the parent.

use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use nqueens_solver::formats::read;
use nqueens_solver::methods::{Config, Method};
use nqueens_solver::{Outcome, Problem};

use crate::cell::BenchJob;
use crate::host::Verdict;
use crate::values::{method_parser, parse_n, time_limit_parser};

/// The hidden subcommand `bench` runs in each child: one job, one thread, then the time the job
/// took and the answer on standard output.
#[derive(Debug, Args)]
pub struct BenchRunArgs {
    /// The job.
    #[arg(long, value_name = "JOB")]
    pub job: BenchJob,
    /// The method.
    #[arg(long, value_name = "METHOD", value_parser = method_parser())]
    pub method: Method,
    /// Board size.
    #[arg(value_name = "N", value_parser = parse_n)]
    pub n: u32,
    /// The board of a completion or blocked job (any board file the tool reads).
    #[arg(long, value_name = "PATH")]
    pub fix_file: Option<PathBuf>,

    /// The run's time budget: the engine stops itself at it (exit 3, "time limit reached").
    #[arg(long, value_name = "SECS", value_parser = time_limit_parser)]
    pub time_limit: Option<std::time::Duration>,
}

/// What a child reports: one line.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Seconds the job took, measured inside the child.
    pub seconds: f64,
    pub answer: Answer,
    /// The child's peak resident memory in KiB, where the system reports it.
    pub peak_rss_kb: Option<u64>,
    /// The engine's own counters (`nodes=...`), on one line.
    pub stats: String,
}

/// The answer a child reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The number of solutions (or completions).
    Count(u128),
    /// A solution: the 0-based column of the queen in each row.
    Found(Vec<u32>),
    /// The board has no solution.
    NoSolution,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\t", self.seconds)?;
        match &self.answer {
            Answer::Count(count) => write!(f, "count {count}")?,
            Answer::NoSolution => f.write_str("none")?,
            Answer::Found(columns) => {
                f.write_str("found")?;
                for c in columns {
                    write!(f, " {c}")?;
                }
            }
        }
        match self.peak_rss_kb {
            Some(kb) => write!(f, "\t{kb}")?,
            None => f.write_str("\t-")?,
        }
        write!(f, "\t{}", self.stats)
    }
}

/// Why a child's output is not a report line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a bench report line: {0}")]
pub struct BadReport(String);

impl FromStr for Report {
    type Err = BadReport;

    fn from_str(line: &str) -> Result<Self, Self::Err> {
        let bad = || BadReport(nqueens_support::excerpt(line));
        let mut fields = line.splitn(4, '\t');
        let (Some(seconds), Some(answer), Some(peak), Some(stats)) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(bad());
        };
        let peak_rss_kb = match peak {
            "-" => None,
            kb => Some(kb.parse().map_err(|_| bad())?),
        };
        if stats.contains(['\n', '\r']) {
            return Err(bad());
        }
        let seconds: f64 = seconds.parse().map_err(|_| bad())?;
        if !seconds.is_finite() || seconds < 0.0 {
            return Err(bad());
        }
        let answer = if answer == "none" {
            Answer::NoSolution
        } else if let Some(count) = answer.strip_prefix("count ") {
            Answer::Count(count.parse().map_err(|_| bad())?)
        } else if let Some(columns) = answer.strip_prefix("found") {
            if !columns.is_empty() && !columns.starts_with(' ') {
                return Err(bad());
            }
            Answer::Found(
                columns
                    .split(' ')
                    .skip(1)
                    .map(str::parse)
                    .collect::<Result<_, _>>()
                    .map_err(|_| bad())?,
            )
        } else {
            return Err(bad());
        };
        Ok(Report {
            seconds,
            answer,
            peak_rss_kb,
            stats: stats.to_string(),
        })
    }
}

/// `nqueens bench-run`: reads the board, runs the job once and prints the report line.
pub fn run_child_job(args: BenchRunArgs) -> Result<Verdict> {
    let problem = match &args.fix_file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let board = read::board(&text, read::Options::default())
                .with_context(|| path.display().to_string())?;
            if board.n != args.n {
                bail!(
                    "{} describes n = {}, not {}",
                    path.display(),
                    board.n,
                    args.n
                );
            }
            board.to_problem()?
        }
        None => Problem::new(args.n)?,
    };
    let job = args.job.engine_job();
    let mut config = Config::default();
    config.limits.time = args.time_limit;
    let mut engine = args.method.build(job, &problem, &config);
    engine.check(job, &problem)?;
    let start = Instant::now();
    let answer = match args.job {
        BenchJob::Solve => engine.solve(&problem).map(|outcome| match outcome {
            Outcome::Found(solution) => Answer::Found(solution.into_columns()),
            Outcome::NoSolution => Answer::NoSolution,
        }),
        BenchJob::Count | BenchJob::Completion | BenchJob::Blocked => engine
            .count(&problem, false)
            .map(|counts| Answer::Count(counts.total)),
    };
    let answer = match answer {
        Ok(answer) => answer,
        Err(e) => match e.stopped() {
            Some(stopped) => {
                eprintln!("gave up: {}", stopped.reason);
                return Ok(Verdict::GaveUp);
            }
            None => return Err(e.into()),
        },
    };
    let seconds = start.elapsed().as_secs_f64();
    let report = Report {
        seconds,
        answer,
        peak_rss_kb: own_peak_rss_kb(),
        stats: engine.stats().to_string().replace(['\n', '\r', '\t'], " "),
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "{report}")?;
    out.flush()?;
    Ok(Verdict::Success)
}

/// This process's peak resident memory in KiB (`VmHWM`), on Linux.
fn own_peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    line.trim().trim_end_matches("kB").trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(report: &Report) {
        let line = report.to_string();
        assert!(!line.contains('\n'), "one line: {line:?}");
        assert_eq!(line.parse::<Report>().as_ref(), Ok(report), "{line:?}");
    }

    #[test]
    fn reports_round_trip() {
        for answer in [
            Answer::Count(0),
            Answer::Count(u128::MAX),
            Answer::Found(vec![]),
            Answer::Found(vec![0]),
            Answer::Found(vec![1, 3, 0, 2]),
            Answer::NoSolution,
        ] {
            for seconds in [0.0, 1.5e-7, 0.1 + 0.2, 12.345_678_901_234, 86_400.0] {
                for stats in ["", "nodes=31", "nodes=1 conflicts=2\tx"] {
                    round_trip(&Report {
                        seconds,
                        answer: answer.clone(),
                        peak_rss_kb: (stats.len() % 2 == 1).then_some(4096),
                        stats: stats.to_string(),
                    });
                }
            }
        }
    }

    #[test]
    fn random_reports_round_trip() {
        let mut rng = nqueens_support::SplitMix64::new(14);
        for _ in 0..500 {
            let answer = match rng.next_u64() % 3 {
                0 => Answer::Count(u128::from(rng.next_u64()) * u128::from(rng.next_u64())),
                1 => Answer::Found(
                    (0..rng.next_u64() % 20)
                        .map(|_| rng.next_u64() as u32)
                        .collect(),
                ),
                _ => Answer::NoSolution,
            };
            let seconds = f64::from_bits(rng.next_u64() >> 2) % 1e6;
            round_trip(&Report {
                seconds: if seconds.is_finite() { seconds } else { 1.0 },
                answer,
                peak_rss_kb: Some(rng.next_u64()),
                stats: format!("nodes={}", rng.next_u64()),
            });
        }
    }

    #[test]
    fn the_line_format_is_pinned() {
        let report = Report {
            seconds: 0.25,
            answer: Answer::Found(vec![1, 3, 0, 2]),
            peak_rss_kb: Some(3800),
            stats: "nodes=8".into(),
        };
        assert_eq!(report.to_string(), "0.25\tfound 1 3 0 2\t3800\tnodes=8");
    }

    #[test]
    fn malformed_lines_are_refused() {
        for line in [
            "",
            "0.5",
            "0.5\tcount 3",
            "0.5\tcount 3\t-",
            "x\tcount 3\t-\t",
            "-1\tcount 3\t-\t",
            "NaN\tcount 3\t-\t",
            "inf\tnone\t-\t",
            "0.5\tcount -3\t-\t",
            "0.5\tcount\t-\t",
            "0.5\tfound1 2\t-\t",
            "0.5\tfound 1  2\t-\t",
            "0.5\tfound x\t-\t",
            "0.5\tmaybe\t-\t",
            "0.5\tnone\t12x\t",
            "0.5\tnone\t\t",
            "0.5\tnone\t-\tstats\nmore",
        ] {
            assert!(line.parse::<Report>().is_err(), "{line:?}");
        }
    }
}
