//! One bench run, for the method matrix and the completion study alike: the hidden
//! `bench-run` command line for one job, one method and one board ([`crate::child`] on the
//! other side), run in a fresh process under the time limit ([`crate::process`]), its report
//! line read back and its answer judged on arrival: a solution goes through
//! [`nqueens_solver::verify()`] at once and only the verdict is kept, so a 10^7-queen solution is never
//! held in memory. What the answers mean across runs is for [`crate::check`] and the study.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use anyhow::Result;
use nqueens_solver::methods::Method;
use nqueens_solver::{Problem, Solution, verify};

use crate::cell::{BenchJob, Checked};
use crate::child::{Answer, Report};
use crate::process;

/// How long past its time budget a child may run before it is killed: the engine stops itself
/// at the budget, and the kill is the backstop for the work no budget covers (building a huge
/// formula, say).
const KILL_GRACE: Duration = Duration::from_secs(2);

/// What to run.
#[derive(Clone, Copy, Debug)]
pub struct Run<'a> {
    /// The job, as `bench-run --job` takes it.
    pub job: BenchJob,
    pub method: Method,
    /// The board (its fixed queens come from `fix_file`).
    pub problem: &'a Problem,
    /// The partial board in the `--fix-file` format, for the jobs that complete one.
    pub fix_file: Option<&'a Path>,
    /// The time budget the child gets.
    pub limit: Duration,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ran {
    /// The child answered: the job's own time, its peak memory (the child's figure where it
    /// has one, else the parent's upper bound), the engine's counters and the judged answer.
    Answered {
        seconds: f64,
        peak_rss_kb: Option<u64>,
        stats: String,
        answer: Checked,
    },
    /// Over the time limit (the engine's own budget, or killed at the backstop).
    TimedOut { peak_rss_kb: Option<u64> },
    /// The method stopped at a limit of its own before deciding (its message).
    GaveUp(String),
    /// The child failed: crashed, reported an error, or wrote a line that does not parse.
    Failed(String),
}

/// Runs `run` once in a fresh child process of `exe` (this executable).
pub fn run_once(exe: &Path, run: &Run<'_>) -> Result<Ran> {
    let mut command = Command::new(exe);
    command
        .arg("bench-run")
        .arg("--job")
        .arg(run.job.name())
        .arg("--method")
        .arg(run.method.name())
        .arg(run.problem.n().to_string());
    if let Some(path) = run.fix_file {
        command.arg("--fix-file").arg(path);
    }
    command
        .arg("--time-limit")
        .arg(format!("{}", run.limit.as_secs_f64()));
    let child = process::run_child(&mut command, run.limit + KILL_GRACE)?;
    if child.timed_out {
        return Ok(Ran::TimedOut {
            peak_rss_kb: child.peak_rss_kb,
        });
    }
    Ok(
        match (child.code, child.stdout.trim_end().parse::<Report>()) {
            (Some(0), Ok(report)) => Ran::Answered {
                seconds: report.seconds,
                // The child's own figure where it has one; `wait4`'s includes the parent's memory.
                peak_rss_kb: report.peak_rss_kb.or(child.peak_rss_kb),
                stats: report.stats,
                answer: match report.answer {
                    Answer::Count(count) => Checked::Count(count),
                    Answer::NoSolution => Checked::NoSolution,
                    Answer::Found(columns) => {
                        match verify(run.problem, &Solution::from_columns(columns)) {
                            Ok(()) => Checked::Found,
                            Err(violation) => Checked::Invalid(violation.to_string()),
                        }
                    }
                },
            },
            (Some(3), _) if child.stderr.contains("time limit reached") => Ran::TimedOut {
                peak_rss_kb: child.peak_rss_kb,
            },
            (Some(3), _) => Ran::GaveUp(child.stderr.trim().to_string()),
            (Some(0), Err(err)) => Ran::Failed(err.to_string()),
            (code, _) => {
                let code = code.map_or("a signal".to_string(), |c| format!("exit {c}"));
                Ran::Failed(format!(
                    "{code}: {}",
                    child.stderr.trim().replace('\n', " ")
                ))
            }
        },
    )
}
