//! `nqueens bench` and its hidden child `nqueens bench-run`: the benchmark lab is the
//! `nqueens_bench` crate; this module lends it the CLI's file writer ([`output`]) and turns
//! its verdicts into the CLI's statuses.

use std::path::Path;

use anyhow::Result;
use nqueens_bench::{BenchArgs, BenchRunArgs, Files, Verdict};

use crate::output;
use crate::status::{Failure, Status};

/// The CLI's outputs, for the lab's CSV and SVG files: staged beside their targets and
/// published only when the command succeeds.
struct Outputs;

impl Files for Outputs {
    fn check_path(&self, path: &Path) -> Result<()> {
        output::check_output_path(path)
    }

    fn write(&self, path: &Path, contents: &[u8]) -> Result<()> {
        output::write_file(path, contents)
    }
}

/// `nqueens bench`: the method matrix or the completion study.
pub fn run(args: BenchArgs) -> Result<Status> {
    status(nqueens_bench::run(args, &Outputs))
}

/// `nqueens bench-run`: one job of the lab, in the child process.
pub fn run_child_job(args: BenchRunArgs) -> Result<Status> {
    status(nqueens_bench::run_child_job(args))
}

/// The lab's verdict as a status; a wrong answer it found is a failed check (exit 1).
fn status(verdict: Result<Verdict>) -> Result<Status> {
    match verdict {
        Ok(Verdict::Success) => Ok(Status::Success),
        Ok(Verdict::GaveUp) => Ok(Status::GaveUp),
        Err(err) => match err.downcast::<nqueens_bench::Failure>() {
            Ok(failure) => Err(Failure(failure.0).into()),
            Err(err) => Err(err),
        },
    }
}
