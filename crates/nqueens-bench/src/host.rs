//! What the lab and the front end that runs it (the `nqueens` binary) hand each other: the
//! front end lends its file writer ([`Files`]), so that the CSV and SVG files follow its
//! rules (checked before a run of minutes, published only when the command succeeds); the lab
//! answers with a [`Verdict`], or an error that is a [`Failure`] when an answer was wrong.

use std::path::Path;

use anyhow::Result;

/// How a bench command ended, when it did not fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It did what was asked (exit 0).
    Success,
    /// `bench-run`: the method stopped at its limit before deciding (exit 3).
    GaveUp,
}

/// An error that means "the check failed" (a wrong answer, a failed run) rather than "you
/// used me wrongly": the front end exits 1, not 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Failure(pub String);

/// The front end's writer for the files the lab produces.
pub trait Files {
    /// Refuses a path that cannot name a file to write (a directory, a path ending in `/`),
    /// before the run starts.
    fn check_path(&self, path: &Path) -> Result<()>;
    /// Writes `contents` to `path` (published when the command succeeds).
    fn write(&self, path: &Path, contents: &[u8]) -> Result<()>;
}
