//! Checkpoint files: each finished task's result, appended as it comes, so an interrupted count
//! resumes where it stopped.
//!
//! # Format (text, one record per line)
//!
//! ```text
//! nqueens-counter-checkpoint v2 n=17 depth=4 tasks=10912 task-list=fb3c0ae91037c0b6 shard=1/1 check=5d0a8b1e pid=0000012345
//! 4 1896 237 211634 9e1f00c2
//! 0 128 16 20553 41d7a6b3
//! ```
//!
//! The header names the board size, the task list (its length and [`Fingerprint`]) and the shard;
//! a file whose header differs in any of them is refused, and so is a file of another format
//! version (v1 files had no check values). Each record is `ID TOTAL UNIQUE NODES CHECK` for one
//! task, in the order tasks finished.
//!
//! # Check values
//!
//! `check=` in the header is the CRC-32 ([`super::checksum`]) of the header text before it; a
//! record's `CHECK` is the CRC-32 of the task list's fingerprint, a space and the record's text
//! before it (so a record copied in from a checkpoint of another count fails too). A complete
//! line whose check value does not match is a loud error naming the file and the line: the user
//! can delete that line (its task is then counted again) or start afresh. The check values
//! guard against accidents (a flipped bit, a bad sector, a slip in an editor), not against
//! forgery; for n ≤ 27 the final total is also checked against the published counts.
//!
//! # One run at a time
//!
//! A run holds an exclusive advisory lock (`flock`) on the checkpoint for as long as it is
//! open, and writes its process id into the header's fixed-width `pid=` field (outside the
//! header's check value, rewritten in place by each run that opens the file). A second run on
//! the same file finds the lock taken and reports the process id it reads there: the lock says
//! *whether* the file is in use, the header says *by whom*, with no second file to clean up
//! after a crash (the kernel drops the lock of a dead process; the stale id is overwritten by
//! the next run). A file system without `flock` support runs unlocked. Only regular files are
//! taken: a FIFO or a device would block or never end, and the reader never reads more than
//! the header and one record per task of the shard can take.
//!
//! # Durability
//!
//! A record is written with a single `write` as soon as its task finishes, so a killed process
//! loses nothing it reported; the file is `fsync`ed at most [`SYNC_INTERVAL`] after a record
//! (the run calls [`Checkpoint::sync_if_due`] on a timer, so this holds while every task is
//! long), when the run ends, and on the way out of a failed run. A process killed in the middle
//! of a write leaves a *torn* last line (no newline): on resume it is dropped (the file is cut
//! back to the last complete line) and its task runs again. Any other damage (a complete line
//! that does not parse or fails its check value, an unknown or repeated task id) is an error:
//! the file is not trusted, and the user decides.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nqueens_support::excerpt;

use super::CounterError;
use super::checksum;
use super::kernel::TaskResult;
use super::shard::Shard;
use super::tasks::{Fingerprint, TaskId, TaskList};

/// The longest a finished record stays in the page cache before it is forced to disk.
pub const SYNC_INTERVAL: Duration = Duration::from_secs(1);

const MAGIC: &str = "nqueens-counter-checkpoint";
const VERSION: &str = "v2";

/// Digits of the header's `pid=` field.
const PID_DIGITS: usize = 10;

/// The longest header line a checkpoint can have (without its newline).
const MAX_HEADER: usize = 256;

/// The longest record line (without its newline): a task id (10 digits), three 64-bit numbers
/// (20 digits each), the check value (8) and four spaces.
pub const MAX_RECORD: usize = 10 + 3 * 20 + 8 + 4;

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

    /// The part of the header its check value covers.
    fn body(&self) -> String {
        format!(
            "{MAGIC} {VERSION} n={} depth={} tasks={} task-list={} shard={}",
            self.n, self.depth, self.tasks, self.fingerprint, self.shard
        )
    }

    /// The header line as process `pid` writes it, with its newline.
    pub fn line(&self, pid: u32) -> String {
        let body = self.body();
        let check = checksum::check(&body);
        format!("{body} check={check} pid={pid:0PID_DIGITS$}\n")
    }

    /// The most bytes a checkpoint of this run can hold: the header, one record per task of
    /// the shard, and one torn record.
    fn max_file_len(&self) -> u64 {
        let records = self.shard.len_of(self.tasks) as u64 + 1;
        (MAX_HEADER as u64 + 1) + records * (MAX_RECORD as u64 + 1)
    }
}

/// One record line as a checkpoint of the task list `fingerprint` holds it, with its check
/// value and newline (public so that tests can write well-formed records).
pub fn record_line(fingerprint: Fingerprint, id: TaskId, result: &TaskResult) -> String {
    let body = format!("{id} {} {} {}", result.total, result.unique, result.nodes);
    let check = checksum::check(&format!("{fingerprint} {body}"));
    format!("{body} {check}\n")
}

/// An open checkpoint, locked, positioned for appending.
#[derive(Debug)]
pub struct Checkpoint {
    file: File,
    path: PathBuf,
    fingerprint: Fingerprint,
    /// When the oldest record not yet synced was written.
    unsynced_since: Option<Instant>,
}

impl Checkpoint {
    /// Opens and locks the checkpoint at `path` for a run described by `header`, creating it if
    /// it does not exist (or holds no complete line), and returns it with the records already
    /// there.
    pub fn open(
        path: &Path,
        header: &Header,
    ) -> Result<(Checkpoint, Vec<(TaskId, TaskResult)>), CounterError> {
        let io_error = |source| CounterError::Io {
            path: path.to_path_buf(),
            source,
        };
        // A FIFO would block the open or the read, a device would never end: refuse both
        // before opening where possible, and again on what was opened.
        if let Ok(meta) = std::fs::metadata(path) {
            refuse_special(path, &meta.file_type())?;
        }
        let mut file = open_options().open(path).map_err(io_error)?;
        refuse_special(path, &file.metadata().map_err(io_error)?.file_type())?;
        if !try_lock(&file).map_err(io_error)? {
            return Err(CounterError::CheckpointInUse {
                path: path.to_path_buf(),
                pid: holder(&mut file),
            });
        }
        let limit = header.max_file_len();
        let mut bytes = Vec::new();
        (&mut file)
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(io_error)?;
        if bytes.len() as u64 > limit {
            return Err(CounterError::CheckpointMismatch {
                path: path.to_path_buf(),
                reason: format!(
                    "is longer than any checkpoint of this count can be (more than {limit} bytes)"
                ),
            });
        }
        // Everything after the last newline is a torn write.
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if complete == 0 && !is_torn_header(&bytes, header) {
            // Not a torn header of this run: some other file, which must not be overwritten.
            return Err(not_a_checkpoint(path));
        }
        let pid = std::process::id();
        let records = if complete == 0 {
            file.set_len(0).map_err(io_error)?;
            file.seek(SeekFrom::Start(0)).map_err(io_error)?;
            file.write_all(header.line(pid).as_bytes())
                .map_err(io_error)?;
            file.sync_all().map_err(io_error)?;
            sync_directory(path);
            Vec::new()
        } else {
            let records = parse(path, &bytes[..complete], header)?;
            if complete < bytes.len() {
                file.set_len(complete as u64).map_err(io_error)?;
            }
            // Claim the header's pid field (same width, so nothing else moves).
            let header_end = bytes.iter().position(|&b| b == b'\n').unwrap_or(0);
            let at = header_end.saturating_sub(PID_DIGITS) as u64;
            file.seek(SeekFrom::Start(at)).map_err(io_error)?;
            file.write_all(format!("{pid:0PID_DIGITS$}").as_bytes())
                .map_err(io_error)?;
            file.seek(SeekFrom::End(0)).map_err(io_error)?;
            records
        };
        Ok((
            Checkpoint {
                file,
                path: path.to_path_buf(),
                fingerprint: header.fingerprint,
                unsynced_since: None,
            },
            records,
        ))
    }

    /// Appends one task's result (one `write`), syncing if the oldest unsynced record is older
    /// than [`SYNC_INTERVAL`].
    pub fn record(&mut self, id: TaskId, result: &TaskResult) -> Result<(), CounterError> {
        let line = record_line(self.fingerprint, id, result);
        self.file
            .write_all(line.as_bytes())
            .map_err(|e| self.io_error(e))?;
        self.unsynced_since.get_or_insert_with(Instant::now);
        self.sync_if_due()
    }

    /// Syncs if a record has waited [`SYNC_INTERVAL`] or longer; the run calls this on a timer
    /// as well as after each record.
    pub fn sync_if_due(&mut self) -> Result<(), CounterError> {
        match self.unsynced_since {
            Some(since) if since.elapsed() >= SYNC_INTERVAL => self.sync(),
            _ => Ok(()),
        }
    }

    /// Whether every record written so far has been synced.
    pub fn is_synced(&self) -> bool {
        self.unsynced_since.is_none()
    }

    /// Forces every record written so far to disk.
    pub fn sync(&mut self) -> Result<(), CounterError> {
        if self.unsynced_since.is_some() {
            self.file.sync_data().map_err(|e| self.io_error(e))?;
            self.unsynced_since = None;
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

impl Drop for Checkpoint {
    /// A run that fails (or panics) still leaves what it recorded on disk, as far as it can.
    fn drop(&mut self) {
        if self.unsynced_since.is_some() {
            let _ = self.file.sync_data();
        }
    }
}

fn open_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Opening a FIFO that appeared after the check above must not block either.
        options.custom_flags(libc::O_NONBLOCK);
    }
    options
}

/// Refuses anything but a regular file.
fn refuse_special(path: &Path, kind: &std::fs::FileType) -> Result<(), CounterError> {
    if kind.is_file() {
        return Ok(());
    }
    let what = if kind.is_dir() {
        "a directory"
    } else {
        special_kind(kind)
    };
    Err(CounterError::CheckpointMismatch {
        path: path.to_path_buf(),
        reason: format!("is {what}, not a regular file"),
    })
}

#[cfg(unix)]
fn special_kind(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &std::fs::FileType) -> &'static str {
    "a special file"
}

/// Takes the exclusive advisory lock without waiting: `Ok(false)` if another process holds it.
/// A file system that cannot lock (some network ones) is used unlocked.
#[cfg(unix)]
fn try_lock(file: &File) -> io::Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: `flock` only reads the descriptor, which `file` keeps open; the lock is released
    // when the file is closed.
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if rc == 0 {
        return Ok(true);
    }
    let error = io::Error::last_os_error();
    match error.raw_os_error() {
        Some(libc::EWOULDBLOCK) => Ok(false),
        Some(libc::ENOLCK | libc::EOPNOTSUPP | libc::ENOSYS) => Ok(true),
        _ => Err(error),
    }
}

#[cfg(not(unix))]
fn try_lock(_: &File) -> io::Result<bool> {
    Ok(true)
}

/// The process id in the header of a locked checkpoint, if it can be read.
fn holder(file: &mut File) -> Option<u32> {
    let mut head = Vec::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    file.take(MAX_HEADER as u64 + 1)
        .read_to_end(&mut head)
        .ok()?;
    let line = head.split(|&b| b == b'\n').next()?;
    let line = std::str::from_utf8(line).ok()?;
    let (_, pid) = line.rsplit_once(" pid=")?;
    pid.parse().ok().filter(|&pid| pid != 0)
}

/// Whether `bytes` (no newline) could be a header of this run cut short by a crash.
fn is_torn_header(bytes: &[u8], header: &Header) -> bool {
    let line = header.line(0);
    let fixed = &line.as_bytes()[..line.len() - 1 - PID_DIGITS];
    if bytes.len() <= fixed.len() {
        return fixed.starts_with(bytes);
    }
    bytes.starts_with(fixed)
        && bytes.len() - fixed.len() <= PID_DIGITS
        && bytes[fixed.len()..].iter().all(u8::is_ascii_digit)
}

fn not_a_checkpoint(path: &Path) -> CounterError {
    CounterError::CorruptCheckpoint {
        path: path.to_path_buf(),
        line: 1,
        reason: format!(
            "not an nqueens counter checkpoint (expected a line starting '{MAGIC} {VERSION}')"
        ),
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
    let mut lines = bytes.split(|&b| b == b'\n');
    let first = lines.next().unwrap_or_default();
    let found = parse_header(first).map_err(|problem| match problem {
        HeaderProblem::NotACheckpoint => not_a_checkpoint(path),
        HeaderProblem::Version(version) => mismatch(format!(
            "was written in checkpoint format {}; this nqueens reads format {VERSION} only (finish that count with the nqueens that wrote it, or start afresh with another file)",
            excerpt(&version)
        )),
        HeaderProblem::Damaged(what) => corrupt(
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
    // The slice ends with a newline, so the last piece is empty.
    let body: Vec<&[u8]> = lines.collect();
    for (index, raw) in body[..body.len().saturating_sub(1)].iter().enumerate() {
        let number = index + 2;
        let text = String::from_utf8_lossy(raw);
        let malformed = || {
            corrupt(
                number,
                format!(
                    "expected 'ID TOTAL UNIQUE NODES CHECK', found '{}'",
                    excerpt(&text)
                ),
            )
        };
        if raw.len() > MAX_RECORD || std::str::from_utf8(raw).is_err() {
            return Err(malformed());
        }
        let Some((record, check)) = text.rsplit_once(' ') else {
            return Err(malformed());
        };
        let values: Option<Vec<u64>> = record
            .split(' ')
            .map(|f| {
                (!f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| f.parse().ok())
                    .flatten()
            })
            .collect();
        let Some(&[id, total, unique, nodes]) = values.as_deref() else {
            return Err(malformed());
        };
        if !checksum::verify(&format!("{} {record}", expected.fingerprint), check) {
            return Err(corrupt(
                number,
                format!(
                    "record '{}' fails its check value: the file is damaged (delete that line to count its task again, or start afresh)",
                    excerpt(&text)
                ),
            ));
        }
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

/// Why a first line is not a usable header.
enum HeaderProblem {
    /// Not a checkpoint at all.
    NotACheckpoint,
    /// A checkpoint of another format version (the version word).
    Version(String),
    /// This format, but damaged (what is wrong).
    Damaged(&'static str),
}

/// The fields of a header line.
fn parse_header(line: &[u8]) -> Result<Header, HeaderProblem> {
    let line = std::str::from_utf8(line).map_err(|_| HeaderProblem::NotACheckpoint)?;
    let mut words = line.split(' ');
    if words.next() != Some(MAGIC) {
        return Err(HeaderProblem::NotACheckpoint);
    }
    match words.next() {
        Some(VERSION) => {}
        Some(other) if other.starts_with('v') => {
            return Err(HeaderProblem::Version(other.to_string()));
        }
        _ => return Err(HeaderProblem::NotACheckpoint),
    }
    if line.len() > MAX_HEADER {
        return Err(HeaderProblem::Damaged("is too long"));
    }
    let (rest, pid) = line
        .rsplit_once(" pid=")
        .ok_or(HeaderProblem::Damaged("has no pid field"))?;
    if pid.len() != PID_DIGITS || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return Err(HeaderProblem::Damaged("has a malformed pid field"));
    }
    let (body, check) = rest
        .rsplit_once(" check=")
        .ok_or(HeaderProblem::Damaged("has no check value"))?;
    if !checksum::verify(body, check) {
        return Err(HeaderProblem::Damaged("fails its check value"));
    }
    let mut words = body.split(' ').skip(2);
    let mut field = |key: &str| {
        let word = words.next()?;
        word.strip_prefix(key)?.strip_prefix('=').map(str::to_owned)
    };
    let header = (|| {
        Some(Header {
            n: field("n")?.parse().ok()?,
            depth: field("depth")?.parse().ok()?,
            tasks: field("tasks")?.parse().ok()?,
            fingerprint: field("task-list")?.parse().ok()?,
            shard: field("shard")?.parse().ok()?,
        })
    })();
    match header {
        Some(header) if words.next().is_none() => Ok(header),
        _ => Err(HeaderProblem::Damaged("is malformed")),
    }
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

    fn record(id: u32, total: u64) -> String {
        record_line(header().fingerprint, TaskId(id), &result(total))
    }

    fn me() -> String {
        header().line(std::process::id())
    }

    #[test]
    fn records_round_trip_with_check_values() {
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
        assert!(text.starts_with("nqueens-counter-checkpoint v2 n=8 depth=4 tasks=78 task-list="));
        let pid = format!(" pid={:010}\n", std::process::id());
        assert!(text.lines().next().unwrap().len() <= MAX_HEADER);
        assert!(text.contains(&pid), "{text}");
        // The check value covers the fingerprint, the id and the three numbers.
        let fingerprint = header().fingerprint;
        let check = checksum::check(&format!("{fingerprint} 3 16 2 116"));
        assert!(text.ends_with(&format!("\n3 16 2 116 {check}\n{}", record(0, 8))));
    }

    #[test]
    fn the_timer_syncs_a_lone_record() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ckpt");
        let (mut checkpoint, _) = Checkpoint::open(&path, &header()).unwrap();
        checkpoint.record(TaskId(3), &result(16)).unwrap();
        assert!(!checkpoint.is_synced());
        checkpoint.sync_if_due().unwrap();
        assert!(!checkpoint.is_synced(), "not yet due");
        std::thread::sleep(SYNC_INTERVAL + Duration::from_millis(50));
        checkpoint.sync_if_due().unwrap();
        assert!(checkpoint.is_synced());
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
        assert!(std::fs::read_to_string(&path).unwrap().ends_with(&format!(
            "\n{}{}",
            record(1, 8),
            record(7, 16)
        )));
        // A torn header is no checkpoint at all: it is started afresh, whoever wrote it.
        let other = header().line(4_000_000_000);
        for cut in [0, 21, other.len() - 6, other.len() - 1] {
            std::fs::write(&path, &other[..cut]).unwrap();
            let (_, old) = Checkpoint::open(&path, &header()).unwrap();
            assert!(old.is_empty());
            assert_eq!(std::fs::read_to_string(&path).unwrap(), me(), "cut {cut}");
        }
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
        let good = me();
        let r1 = record(1, 8);
        let v1 = good.replace(" v2 ", " v1 ");
        let cases: Vec<(String, &str)> = vec![
            (
                format!("{good}{r1}x 8 1 9 00000000\n"),
                "line 3: expected 'ID TOTAL UNIQUE NODES CHECK', found 'x 8 1 9 00000000'",
            ),
            (
                format!("{good}{r1}{r1}"),
                "line 3: task 1 is recorded twice",
            ),
            (
                format!(
                    "{good}{}",
                    record_line(header().fingerprint, TaskId(78), &result(8))
                ),
                "line 2: task 78 does not exist (there are 78)",
            ),
            (
                format!(
                    "{good}{}",
                    record_line(
                        header().fingerprint,
                        TaskId(1),
                        &TaskResult {
                            total: 9,
                            unique: 1,
                            nodes: 9
                        }
                    )
                ),
                "line 2: task 1: total 9 is not between 1 and 8 times unique 1",
            ),
            (
                format!("{good}{}", r1.replacen("8", "16", 1)),
                "line 2: record '1 16 1 108 ",
            ),
            (
                format!("{good}1 8 1 108\n"),
                "line 2: expected 'ID TOTAL UNIQUE NODES CHECK', found '1 8 1 108'",
            ),
            (
                format!("{good}{r1}1 8 1 108 0\u{1b}]0;x\u{7}\n"),
                "line 3: record '1 8 1 108 0\\u{1b}]0;x\\u{7}' fails its check value",
            ),
            (
                "hello\n".to_string(),
                "line 1: not an nqueens counter checkpoint",
            ),
            (
                good.replacen("n=8", "n=9", 1),
                "line 1: the header fails its check value: the file is damaged",
            ),
            (
                v1,
                "was written in checkpoint format v1; this nqueens reads format v2 only",
            ),
            (
                Header::new(&TaskList::new(9), Shard::ALL).line(1),
                "is for n = 9, not n = 8",
            ),
            (
                Header::new(&TaskList::new(8), "2/3".parse().unwrap()).line(1),
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
        std::fs::write(&path, other.line(1)).unwrap();
        let error = Checkpoint::open(&path, &header()).unwrap_err().to_string();
        assert!(
            error.contains("was written for another task list"),
            "{error}"
        );
    }

    #[test]
    fn a_second_open_names_the_holder_and_special_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ckpt");
        let (_held, _) = Checkpoint::open(&path, &header()).unwrap();
        let error = Checkpoint::open(&path, &header()).unwrap_err().to_string();
        assert_eq!(
            error,
            format!(
                "checkpoint {} is in use by process {}: two runs on one checkpoint would ruin it",
                path.display(),
                std::process::id()
            )
        );
        let error = Checkpoint::open(dir.path(), &header())
            .unwrap_err()
            .to_string();
        assert!(
            error.ends_with("is a directory, not a regular file"),
            "{error}"
        );
        #[cfg(unix)]
        {
            let error = Checkpoint::open(Path::new("/dev/zero"), &header())
                .unwrap_err()
                .to_string();
            assert!(
                error.ends_with("is a device, not a regular file"),
                "{error}"
            );
        }
    }

    #[test]
    fn a_file_longer_than_the_format_allows_is_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ckpt");
        let limit = header().max_file_len() as usize;
        let text = format!("{}{}", me(), "\n".repeat(limit));
        std::fs::write(&path, &text).unwrap();
        let error = Checkpoint::open(&path, &header()).unwrap_err().to_string();
        assert!(
            error.contains(&format!(
                "is longer than any checkpoint of this count can be (more than {limit} bytes)"
            )),
            "{error}"
        );
    }
}
