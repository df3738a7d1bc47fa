//! What can go wrong in a long count beyond a bad problem (files and their contents, a
//! device, a count that contradicts the published one), and the check against the published
//! table. A module of its own, below the run's parts and below the crate's error enum, which
//! lifts [`CounterError`].

use std::path::PathBuf;

use super::part::Shard;
use crate::board::Problem;
use crate::engine::{Counts, EngineError};
use crate::engines::counter::ledger::Overflow;
use crate::engines::counter::pieces::BadPosition;
use crate::engines::counter::tasks::TaskId;
use crate::instances::oeis;

/// A device failed (lost, out of memory, a driver error): its own words.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DeviceError(pub String);

/// What can go wrong in a long count: the search's own refusals and stops, files and their
/// contents, a device, a total that contradicts the published one.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CounterError {
    /// The search refused the job or stopped at a limit (the crate-wide error lifts it as
    /// its own engine error).
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// Reading or writing a file failed (the system's message is the error's source, so a
    /// caller printing the chain, like the CLI, shows it once).
    #[error("{}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A checkpoint line that is complete but wrong.
    #[error("checkpoint {} line {line}: {reason}", path.display())]
    CorruptCheckpoint {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A checkpoint of another count.
    #[error("checkpoint {} {reason}", path.display())]
    CheckpointMismatch {
        /// The file.
        path: PathBuf,
        /// Which count it belongs to instead.
        reason: String,
    },
    /// Another process has the checkpoint open (it holds the file's lock).
    #[error("checkpoint {} is in use by {}: two runs on one checkpoint would ruin it", path.display(), match pid { Some(pid) => format!("process {pid}"), None => "another process".to_string() })]
    CheckpointInUse {
        /// The file.
        path: PathBuf,
        /// The process named in the file's header, if it could be read.
        pid: Option<u32>,
    },
    /// A saved position inside a task that names more pieces than the task has.
    #[error(
        "the checkpoint says {pieces} pieces of task {id} are done, but the task has only {has}: the file was damaged or edited (delete the task's lines to count it again)"
    )]
    BadPosition {
        /// The task.
        id: TaskId,
        /// Pieces the position names.
        pieces: u64,
        /// Pieces the task has.
        has: u64,
    },
    /// Shard results that do not add up to one count.
    #[error("{0}")]
    Merge(String),
    /// An audit that cannot be made as asked (a task that is not there, a checkpoint it
    /// cannot recount).
    #[error("{0}")]
    Audit(String),
    /// A split into more shards than the count has tasks.
    #[error(
        "shard {shard} is not a part of n = {n}: its count has {tasks} tasks, so it splits at most {tasks} ways"
    )]
    TooManyShards {
        /// The shard asked for.
        shard: Shard,
        /// Board size.
        n: u32,
        /// Tasks in the list.
        tasks: usize,
    },
    /// A final count that contradicts the published one (see [`check_published`]).
    #[error("{what} of n = {n} came out as {}, but the published count is {} (OEIS A000170 and A002562); {cause}", show(*total, *unique), show(published(*n).0, unique.map(|_| published(*n).1)))]
    WrongTotal {
        /// What was counted ("the count", "the merged count").
        what: &'static str,
        /// Board size.
        n: u32,
        /// The total found.
        total: u128,
        /// The count up to symmetry found, where it was counted.
        unique: Option<u128>,
        /// The likely cause, and what to do.
        cause: String,
    },
    /// The device counting the tasks failed; the tasks it finished are kept.
    #[error("{device} failed: {source}")]
    Device {
        /// The device ([`super::device::Device::describe`]).
        device: String,
        /// What went wrong.
        source: DeviceError,
    },
    /// A sum beyond `u128` (no board this counter can finish comes near).
    #[error("the count overflowed 128 bits")]
    Overflow,
}

impl From<Overflow> for CounterError {
    fn from(_: Overflow) -> Self {
        CounterError::Overflow
    }
}

impl From<BadPosition> for CounterError {
    fn from(bad: BadPosition) -> Self {
        CounterError::BadPosition {
            id: bad.id,
            pieces: bad.pieces,
            has: bad.has,
        }
    }
}

/// The published (total, unique) counts of n, or zeros beyond the table.
fn published(n: u32) -> (u128, u128) {
    (
        oeis::total(n).unwrap_or_default(),
        oeis::unique(n).unwrap_or_default(),
    )
}

fn show(total: u128, unique: Option<u128>) -> String {
    match unique {
        Some(unique) => format!("{total} ({unique} up to symmetry)"),
        None => total.to_string(),
    }
}

/// Checks a final count of the whole n×n board (no fixed queens) against the published table
/// ([`oeis`], n ≤ 27): a count that differs is never an answer but a [`CounterError::WrongTotal`]
/// naming `cause`, the likely reason. Beyond the table there is nothing to check against.
pub fn check_published(
    what: &'static str,
    n: u32,
    total: u128,
    unique: Option<u128>,
    cause: &str,
) -> Result<(), CounterError> {
    let Some(known) = oeis::known(n) else {
        return Ok(());
    };
    if total == known.total && unique.is_none_or(|u| u == known.unique) {
        return Ok(());
    }
    Err(CounterError::WrongTotal {
        what,
        n,
        total,
        unique,
        cause: cause.to_string(),
    })
}

/// Checks a method's plain count of `problem` (no run, no file) against the published table,
/// when the board is the whole plain one: what every front end does after an engine's count,
/// so that a wrong total from any method is a [`CounterError::WrongTotal`] naming `method`.
pub fn check_count(problem: &Problem, counts: &Counts, method: &str) -> Result<(), CounterError> {
    if problem.is_completion() {
        return Ok(());
    }
    let cause = format!(
        "a bug in the {method} method or a hardware fault (memory, CPU) is the likely cause"
    );
    check_published(
        "the count",
        problem.n(),
        counts.total,
        counts.unique,
        &cause,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Queen;

    /// A plain count that differs from the published one is refused, naming the method; a
    /// right one, a board with blocked squares, and a board beyond the table pass.
    #[test]
    fn a_plain_count_is_held_to_the_published_one() {
        let counts = |total, unique| Counts { total, unique };
        let eight = Problem::new(8).unwrap();
        let wrong = check_count(&eight, &counts(91, None), "sat").unwrap_err();
        assert!(matches!(
            wrong,
            CounterError::WrongTotal {
                n: 8,
                total: 91,
                ..
            }
        ));
        let text = wrong.to_string();
        assert!(
            text.contains("came out as 91") && text.contains("the sat method"),
            "{text}"
        );
        let unique = check_count(&eight, &counts(92, Some(11)), "counter").unwrap_err();
        assert!(
            unique.to_string().contains("92 (11 up to symmetry)"),
            "{unique}"
        );
        check_count(&eight, &counts(92, Some(12)), "counter").unwrap();
        check_count(&eight, &counts(92, None), "dlx").unwrap();
        let blocked = Problem::with_blocks(8, [], [Queen::new(0, 0)]).unwrap();
        check_count(&blocked, &counts(1, None), "dlx").unwrap();
        let beyond = Problem::new(28).unwrap();
        check_count(&beyond, &counts(1, None), "counter").unwrap();
    }
}
