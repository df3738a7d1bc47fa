//! Checkpoint files: each finished task's result, appended as it comes, so an interrupted count
//! resumes where it stopped.
//!
//! # Format (text, one record per line)
//!
//! ```text
//! nqueens-counter-checkpoint v1 n=17 depth=4 tasks=10912 task-list=fb3c0ae91037c0b6 shard=1/1
//! 4 1896 237 211634
//! 0 128 16 20553
//! ```
//!
//! The header names the board size, the task list (its length and [`Fingerprint`]) and the shard;
//! a file whose header differs in any of them is refused. Each record is `ID TOTAL UNIQUE NODES`
//! for one task, in the order tasks finished.
//!
//! # Durability
//!
//! A record is written with a single `write` as soon as its task finishes, so a killed process
//! loses nothing it reported; the file is `fsync`ed at most [`SYNC_INTERVAL`] after a record and
//! when the run ends, so a power failure loses at most that much work. A process killed in the
//! middle of a write leaves a *torn* last line (no newline): on resume it is dropped (the file is
//! cut back to the last complete line) and its task runs again. Any other damage (a complete
//! line that does not parse, an unknown or repeated task id) is an error: the file is not
//! trusted, and the user decides.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::CounterError;
use super::kernel::TaskResult;
use super::shard::Shard;
use super::tasks::{Fingerprint, TaskId, TaskList};

/// The longest a finished record stays in the page cache before it is forced to disk.
pub const SYNC_INTERVAL: Duration = Duration::from_secs(1);

const MAGIC: &str = "nqueens-counter-checkpoint";
const VERSION: &str = "v1";

/// What a checkpoint belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Board size.
    pub n: u32,
    /// Rows fixed per task.
    pub depth: usize,
    /// Number of tasks in the whole list.
    pub tasks: usize,
    /// The task list's identity.
    pub fingerprint: Fingerprint,
    /// The part of the list this run counts.
    pub shard: Shard,
}

impl Header {
    /// The header of a run over `shard` of `tasks`.
    pub fn new(tasks: &TaskList, shard: Shard) -> Self {
        Header {
            n: tasks.n(),
            depth: tasks.depth(),
            tasks: tasks.len(),
            fingerprint: tasks.fingerprint(),
            shard,
        }
    }

    fn line(&self) -> String {
        format!(
            "{MAGIC} {VERSION} n={} depth={} tasks={} task-list={} shard={}\n",
            self.n, self.depth, self.tasks, self.fingerprint, self.shard
        )
    }
}

/// An open checkpoint, positioned for appending.
#[derive(Debug)]
pub struct Checkpoint {
    file: File,
    path: PathBuf,
    /// When the oldest record not yet synced was written.
    unsynced_since: Option<Instant>,
}

impl Checkpoint {
    /// Opens the checkpoint at `path` for a run described by `header`, creating it if it does
    /// not exist (or holds no complete line), and returns it with the records already there.
    pub fn open(
        path: &Path,
        header: &Header,
    ) -> Result<(Checkpoint, Vec<(TaskId, TaskResult)>), CounterError> {
        let io_error = |source| CounterError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io_error)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io_error)?;
        // Everything after the last newline is a torn write.
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if complete == 0 && !header.line().as_bytes().starts_with(&bytes) {
            // Not a torn header of this run: some other file, which must not be overwritten.
            return Err(CounterError::CorruptCheckpoint {
                path: path.to_path_buf(),
                line: 1,
                reason: format!(
                    "not an nqueens counter checkpoint (expected a line starting '{MAGIC} {VERSION}')"
                ),
            });
        }
        let records = if complete == 0 {
            file.set_len(0).map_err(io_error)?;
            file.seek(SeekFrom::Start(0)).map_err(io_error)?;
            file.write_all(header.line().as_bytes()).map_err(io_error)?;
            file.sync_all().map_err(io_error)?;
            sync_directory(path);
            Vec::new()
        } else {
            let records = parse(path, &bytes[..complete], header)?;
            if complete < bytes.len() {
                file.set_len(complete as u64).map_err(io_error)?;
            }
            file.seek(SeekFrom::End(0)).map_err(io_error)?;
            records
        };
        Ok((
            Checkpoint {
                file,
                path: path.to_path_buf(),
                unsynced_since: None,
            },
            records,
        ))
    }

    /// Appends one task's result (one `write`), syncing if the oldest unsynced record is older
    /// than [`SYNC_INTERVAL`].
    pub fn record(&mut self, id: TaskId, result: &TaskResult) -> Result<(), CounterError> {
        let line = format!("{id} {} {} {}\n", result.total, result.unique, result.nodes);
        self.file
            .write_all(line.as_bytes())
            .map_err(|e| self.io_error(e))?;
        let since = *self.unsynced_since.get_or_insert_with(Instant::now);
        if since.elapsed() >= SYNC_INTERVAL {
            self.sync()?;
        }
        Ok(())
    }

    /// Forces every record written so far to disk.
    pub fn sync(&mut self) -> Result<(), CounterError> {
        if self.unsynced_since.take().is_some() {
            self.file.sync_data().map_err(|e| self.io_error(e))?;
        }
        Ok(())
    }

    fn io_error(&self, source: io::Error) -> CounterError {
        CounterError::Io {
            path: self.path.clone(),
            source,
        }
    }
}

/// Makes a newly created file's directory entry durable (best effort: not every platform can).
fn sync_directory(path: &Path) {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

/// Parses the complete lines of a checkpoint and checks them against `expected`.
fn parse(
    path: &Path,
    bytes: &[u8],
    expected: &Header,
) -> Result<Vec<(TaskId, TaskResult)>, CounterError> {
    let corrupt = |line: usize, reason: String| CounterError::CorruptCheckpoint {
        path: path.to_path_buf(),
        line,
        reason,
    };
    let mismatch = |reason: String| CounterError::CheckpointMismatch {
        path: path.to_path_buf(),
        reason,
    };
    let text = std::str::from_utf8(bytes).map_err(|_| corrupt(1, "not a text file".into()))?;
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let found = parse_header(first).ok_or_else(|| {
        corrupt(
            1,
            format!(
                "not an nqueens counter checkpoint (expected a line starting '{MAGIC} {VERSION}')"
            ),
        )
    })?;
    if found.n != expected.n {
        return Err(mismatch(format!(
            "is for n = {}, not n = {}",
            found.n, expected.n
        )));
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
    let mut seen = vec![false; expected.tasks];
    let mut records = Vec::new();
    for (index, line) in lines.enumerate() {
        let number = index + 2;
        let fields: Vec<&str> = line.split(' ').collect();
        let values: Option<Vec<u64>> = fields.iter().map(|f| f.parse().ok()).collect();
        let Some(&[id, total, unique, nodes]) = values.as_deref() else {
            return Err(corrupt(
                number,
                format!("expected 'ID TOTAL UNIQUE NODES', found '{line}'"),
            ));
        };
        let id = u32::try_from(id)
            .ok()
            .map(TaskId)
            .filter(|id| id.index() < expected.tasks)
            .ok_or_else(|| {
                corrupt(
                    number,
                    format!("task {id} does not exist (there are {})", expected.tasks),
                )
            })?;
        if !expected.shard.contains(id) {
            return Err(corrupt(
                number,
                format!("task {id} is not in shard {}", expected.shard),
            ));
        }
        if std::mem::replace(&mut seen[id.index()], true) {
            return Err(corrupt(number, format!("task {id} is recorded twice")));
        }
        if unique > total || total > unique.saturating_mul(8) {
            return Err(corrupt(
                number,
                format!("task {id}: total {total} is not between 1 and 8 times unique {unique}"),
            ));
        }
        records.push((
            id,
            TaskResult {
                total,
                unique,
                nodes,
            },
        ));
    }
    Ok(records)
}

/// The fields of a header line, if it is one.
fn parse_header(line: &str) -> Option<Header> {
    let mut words = line.split(' ');
    if words.next()? != MAGIC || words.next()? != VERSION {
        return None;
    }
    let mut field = |key: &str| {
        let word = words.next()?;
        word.strip_prefix(key)?.strip_prefix('=').map(str::to_owned)
    };
    let header = Header {
        n: field("n")?.parse().ok()?,
        depth: field("depth")?.parse().ok()?,
        tasks: field("tasks")?.parse().ok()?,
        fingerprint: field("task-list")?.parse().ok()?,
        shard: field("shard")?.parse().ok()?,
    };
    words.next().is_none().then_some(header)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header::new(&TaskList::new(8), Shard::ALL)
    }

    fn result(total: u64) -> TaskResult {
        TaskResult {
            total,
            unique: total / 8,
            nodes: 100 + total,
        }
    }

    #[test]
    fn records_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ckpt");
        let (mut checkpoint, old) = Checkpoint::open(&path, &header()).unwrap();
        assert!(old.is_empty());
        checkpoint.record(TaskId(3), &result(16)).unwrap();
        checkpoint.record(TaskId(0), &result(8)).unwrap();
        checkpoint.sync().unwrap();
        drop(checkpoint);
        let (_, old) = Checkpoint::open(&path, &header()).unwrap();
        assert_eq!(old, vec![(TaskId(3), result(16)), (TaskId(0), result(8))]);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("nqueens-counter-checkpoint v1 n=8 depth=4 tasks=78 task-list="));
        assert!(text.ends_with("\n3 16 2 116\n0 8 1 108\n"));
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ckpt");
        let (mut checkpoint, _) = Checkpoint::open(&path, &header()).unwrap();
        checkpoint.record(TaskId(1), &result(8)).unwrap();
        drop(checkpoint);
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"7 16 2").unwrap();
        drop(file);
        let (mut checkpoint, old) = Checkpoint::open(&path, &header()).unwrap();
        assert_eq!(old, vec![(TaskId(1), result(8))]);
        checkpoint.record(TaskId(7), &result(16)).unwrap();
        drop(checkpoint);
        assert!(
            std::fs::read_to_string(&path)
                .unwrap()
                .ends_with("\n1 8 1 108\n7 16 2 116\n")
        );
        // A torn header is no checkpoint at all: it is started afresh.
        std::fs::write(&path, "nqueens-counter-check").unwrap();
        let (_, old) = Checkpoint::open(&path, &header()).unwrap();
        assert!(old.is_empty());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), header().line());
        // Any other file without a newline is not touched.
        std::fs::write(&path, "precious").unwrap();
        let error = Checkpoint::open(&path, &header()).unwrap_err().to_string();
        assert!(
            error.contains("line 1: not an nqueens counter checkpoint"),
            "{error}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious");
    }

    #[test]
    fn damage_and_mismatches_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ckpt");
        let good = header().line();
        let cases: [(String, &str); 8] = [
            (
                format!("{good}1 8 1 9\nx 8 1 9\n"),
                "line 3: expected 'ID TOTAL UNIQUE NODES', found 'x 8 1 9'",
            ),
            (
                format!("{good}1 8 1 9\n1 8 1 9\n"),
                "line 3: task 1 is recorded twice",
            ),
            (
                format!("{good}78 8 1 9\n"),
                "line 2: task 78 does not exist (there are 78)",
            ),
            (
                format!("{good}1 9 1 9\n"),
                "line 2: task 1: total 9 is not between 1 and 8 times unique 1",
            ),
            (
                format!("{good}1 8 1\n"),
                "line 2: expected 'ID TOTAL UNIQUE NODES', found '1 8 1'",
            ),
            (
                "hello\n".to_string(),
                "line 1: not an nqueens counter checkpoint",
            ),
            (
                Header::new(&TaskList::new(9), Shard::ALL).line(),
                "is for n = 9, not n = 8",
            ),
            (
                Header::new(&TaskList::new(8), "2/3".parse().unwrap()).line(),
                "holds shard 2/3, not shard 1/1",
            ),
        ];
        for (text, message) in cases {
            std::fs::write(&path, &text).unwrap();
            let error = Checkpoint::open(&path, &header()).unwrap_err().to_string();
            assert!(error.contains(message), "{error:?} lacks {message:?}");
            assert!(!error.contains('\n'));
            // The file is left as it was.
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
        let other = Header {
            fingerprint: Fingerprint(header().fingerprint.0 ^ 1),
            ..header()
        };
        std::fs::write(&path, other.line()).unwrap();
        let error = Checkpoint::open(&path, &header()).unwrap_err().to_string();
        assert!(
            error.contains("was written for another task list"),
            "{error}"
        );
    }
}
