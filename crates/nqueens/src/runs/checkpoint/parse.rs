//! Reading a checkpoint back: its header checked against the run's, then every complete
//! line after it (a result or a position), each checked against its check value, the task
//! list and the shard. One pass, O(file length); the format is described in the
//! [module documentation](super).

use std::path::Path;

use nqueens_support::excerpt;

use super::header::{Header, HeaderProblem, other_board, parse_header};
use super::{MAX_POSITION, VERSION, VERSION_2, not_a_checkpoint};
use crate::engines::counter::kernel::TaskResult;
use crate::engines::counter::pieces::{MAX_ROWS, Partial};
use crate::engines::counter::tasks::TaskId;
use crate::runs::checksum;
use crate::runs::error::CounterError;

/// What the lines after a checkpoint's header hold.
#[derive(Default)]
pub(super) struct Records {
    /// Finished tasks, in file order.
    pub(super) results: Vec<(TaskId, TaskResult)>,
    /// The last position of each unfinished task, in id order.
    pub(super) positions: Vec<(TaskId, Partial)>,
    /// Position lines, superseded ones included.
    pub(super) position_lines: u64,
    /// The header is of version 2, to be rewritten as version 3.
    pub(super) upgrade: bool,
}

/// Parses the complete lines of a checkpoint and checks them against `expected`.
pub(super) fn parse(path: &Path, bytes: &[u8], expected: &Header) -> Result<Records, CounterError> {
    let mut lines = bytes.split(|&b| b == b'\n');
    let version = check_header(path, lines.next().unwrap_or_default(), expected)?;
    let mut seen = vec![false; expected.tasks];
    let mut records = Records {
        upgrade: version == VERSION_2,
        ..Records::default()
    };
    let mut positions = std::collections::HashMap::new();
    // The slice ends with a newline, so the last piece is empty.
    let body: Vec<&[u8]> = lines.collect();
    for (index, raw) in body[..body.len().saturating_sub(1)].iter().enumerate() {
        let number = index + 2;
        let Line { id, place, found } = parse_line(path, number, raw, expected)?;
        if seen[id.index()] {
            let what = if place.is_some() {
                "has a position after its result"
            } else {
                "is recorded twice"
            };
            return Err(corrupt(path, number, format!("task {id} {what}")));
        }
        match place {
            Some((cut, pieces)) => {
                positions.insert(id, Partial { cut, pieces, found });
                records.position_lines += 1;
            }
            None => {
                seen[id.index()] = true;
                positions.remove(&id);
                records.results.push((id, found));
            }
        }
    }
    records.positions = positions.into_iter().collect();
    records.positions.sort_unstable_by_key(|&(id, _)| id);
    Ok(records)
}

/// A complete line `number` of `path`, damaged.
fn corrupt(path: &Path, line: usize, reason: String) -> CounterError {
    CounterError::CorruptCheckpoint {
        path: path.to_path_buf(),
        line,
        reason,
    }
}

/// A checkpoint `path` of another count.
fn mismatch(path: &Path, reason: String) -> CounterError {
    CounterError::CheckpointMismatch {
        path: path.to_path_buf(),
        reason,
    }
}

/// Checks the first line of `path` against the header `expected`; returns its version.
fn check_header(
    path: &Path,
    first: &[u8],
    expected: &Header,
) -> Result<&'static str, CounterError> {
    let mismatch = |reason: String| mismatch(path, reason);
    let (found, version) = parse_header(first).map_err(|problem| match problem {
        HeaderProblem::NotACheckpoint => not_a_checkpoint(path),
        HeaderProblem::Version(version) => mismatch(format!(
            "was written in checkpoint format {}; this nqueens reads formats {VERSION_2} and {VERSION} only (finish that count with the nqueens that wrote it, or start afresh with another file)",
            excerpt(&version)
        )),
        HeaderProblem::Damaged(what) => corrupt(
            path,
            1,
            format!("the header {what}: the file is damaged (start afresh with another file)"),
        ),
    })?;
    if found.n != expected.n {
        return Err(mismatch(format!(
            "is for n = {}, not n = {}",
            found.n, expected.n
        )));
    }
    if found.board != expected.board {
        return Err(mismatch(other_board(found.board, expected.board)));
    }
    if (found.depth, found.tasks, found.fingerprint)
        != (expected.depth, expected.tasks, expected.fingerprint)
    {
        return Err(mismatch(format!(
            "was written for another task list ({} tasks, task-list {}; this run has {} tasks, task-list {})",
            found.tasks, found.fingerprint, expected.tasks, expected.fingerprint
        )));
    }
    if found.shard != expected.shard {
        return Err(mismatch(format!(
            "holds shard {}, not shard {}",
            found.shard, expected.shard
        )));
    }
    Ok(version)
}

/// One line after the header: a finished task's result, or (with `place`, its cut row and
/// pieces) the position of an unfinished one.
struct Line {
    id: TaskId,
    place: Option<(u32, u64)>,
    found: TaskResult,
}

/// Parses line `number` of `path` (`raw`, without its newline) and checks it: its check
/// value, its task (in the list and in the shard) and its counts' ratio.
fn parse_line(
    path: &Path,
    number: usize,
    raw: &[u8],
    expected: &Header,
) -> Result<Line, CounterError> {
    let corrupt = |reason: String| corrupt(path, number, reason);
    let text = String::from_utf8_lossy(raw);
    let malformed = || {
        corrupt(format!(
            "expected 'ID TOTAL UNIQUE NODES CHECK' or 'ID CUT:PIECES TOTAL UNIQUE NODES CHECK', found '{}'",
            excerpt(&text)
        ))
    };
    if raw.len() > MAX_POSITION || std::str::from_utf8(raw).is_err() {
        return Err(malformed());
    }
    let Some((record, check)) = text.rsplit_once(' ') else {
        return Err(malformed());
    };
    let number_of = |f: &str| -> Option<u64> {
        (!f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
            .then(|| f.parse().ok())
            .flatten()
    };
    let fields: Vec<&str> = record.split(' ').collect();
    // A position has `CUT:PIECES` after the id.
    let place = match fields.get(1).and_then(|f| f.split_once(':')) {
        Some((cut, pieces)) if fields.len() == 5 => {
            match (
                number_of(cut).filter(|&c| c <= MAX_ROWS as u64),
                number_of(pieces),
            ) {
                (Some(cut), Some(pieces)) => Some((cut as u32, pieces)),
                _ => return Err(malformed()),
            }
        }
        _ if fields.len() == 4 => None,
        _ => return Err(malformed()),
    };
    let values: Option<Vec<u64>> = fields
        .iter()
        .enumerate()
        .filter(|&(i, _)| place.is_none() || i != 1)
        .map(|(_, f)| number_of(f))
        .collect();
    let Some(&[id, total, unique, nodes]) = values.as_deref() else {
        return Err(malformed());
    };
    if !checksum::verify(&format!("{} {record}", expected.fingerprint), check) {
        return Err(corrupt(format!(
            "record '{}' fails its check value: the file is damaged (delete that line to count its task again, or start afresh)",
            excerpt(&text)
        )));
    }
    let id = u32::try_from(id)
        .ok()
        .map(TaskId)
        .filter(|id| id.index() < expected.tasks)
        .ok_or_else(|| {
            corrupt(format!(
                "task {id} does not exist (there are {})",
                expected.tasks
            ))
        })?;
    if !expected.shard.contains(id) {
        return Err(corrupt(format!(
            "task {id} is not in shard {}",
            expected.shard
        )));
    }
    // Every class has one to eight members; on a board counted without symmetry, one.
    let rule = match expected.board {
        None => {
            (unique > total || total > unique.saturating_mul(8)).then_some("between 1 and 8 times")
        }
        Some(mark) if mark.symmetries == 1 => (unique != total).then_some("equal to"),
        Some(_) => (unique > total).then_some("at least"),
    };
    if let Some(rule) = rule {
        return Err(corrupt(format!(
            "task {id}: total {total} is not {rule} unique {unique}"
        )));
    }
    let found = TaskResult {
        total,
        unique,
        nodes,
    };
    Ok(Line { id, place, found })
}
