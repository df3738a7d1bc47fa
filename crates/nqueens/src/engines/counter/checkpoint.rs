//! Checkpoint files: each finished task's result, appended as it comes, and where the tasks in
//! flight had got when a run stopped, so an interrupted count resumes where it stopped.
//!
//! # Format (text, one record per line)
//!
//! ```text
//! nqueens-counter-checkpoint v3 n=27 depth=5 tasks=1962277 task-list=50d6e1cb6a6e0d0e shard=1/1 check=5d0a8b1e pid=0000012345
//! 4 1896 237 211634 9e1f00c2
//! 0 128 16 20553 41d7a6b3
//! 7 11:3120 52656 6582 1942118112 0c1d5a2e
//! ```
//!
//! The header names the board size, the task list (its length and [`Fingerprint`]) and the shard;
//! a board with fixed queens or blocked squares adds its mark ([`BoardMark`]: `board=` a
//! fingerprint of the squares each row allows, `symmetries=` how many of the board's
//! symmetries its classes are counted under, 1 when every solution is its own class). A file
//! whose header differs in any of them is refused, and so is a file of another format version
//! (v1 files had no check values). Each *result* `ID TOTAL UNIQUE NODES CHECK` is one
//! finished task, in the order tasks finished. A *position* `ID CUT:PIECES TOTAL UNIQUE NODES
//! CHECK` is a task stopped midway (module `pieces`): its tree cut at row `CUT`, the first
//! `PIECES` pieces done, holding the three numbers. A task's last position is where a run
//! resumes it (a position of another cut row than the run's is ignored and the task counted
//! from its start); a result supersedes its positions. A run writes a position for each task in
//! flight when it stops, and every [`POSITION_INTERVAL`] while it runs, so a crash loses at
//! most that much of each thread's work.
//!
//! Superseded positions stay in the file, and a long run of many threads writes many: a
//! thousand ranks of sixteen threads write 16,000 lines every ten minutes, about 4.8 million
//! in the 50 hours they take at n = 27, beyond the 2 million position lines the reader allows
//! a file of its 1.96 million tasks (one per task plus `SPARE_POSITIONS`; a file longer than
//! the bound is refused unread, so that no mistaken path makes a run read gigabytes). So
//! before a run's position lines pass one per task plus half the spare, the run compacts the
//! file ([`Checkpoint::compact`]): the header, the results and the last position of each
//! unfinished task, written beside it and renamed onto it. A file a run wrote is therefore
//! always within the bound, and nothing it held is lost.
//!
//! Version 2, the format before positions, is read as it is (it has results only), and its
//! header is rewritten as version 3 in place when a run opens the file: an older nqueens then
//! refuses the file by its version instead of stumbling over a position line.
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
use super::pieces::{MAX_ROWS, Partial};
use super::shard::Shard;
use super::tasks::{Fingerprint, TaskId, TaskList};

/// The longest a finished record stays in the page cache before it is forced to disk.
pub const SYNC_INTERVAL: Duration = Duration::from_secs(1);

/// How often a run writes the positions of its tasks in flight (besides when it stops).
pub const POSITION_INTERVAL: Duration = Duration::from_secs(600);

const MAGIC: &str = "nqueens-counter-checkpoint";
const VERSION: &str = "v3";

/// The version before positions, read as it is and upgraded in place.
const VERSION_2: &str = "v2";

/// Digits of the header's `pid=` field.
const PID_DIGITS: usize = 10;

/// The longest header line a checkpoint can have (without its newline).
const MAX_HEADER: usize = 256;

/// The longest record line (without its newline): a task id (10 digits), three 64-bit numbers
/// (20 digits each), the check value (8) and four spaces.
pub const MAX_RECORD: usize = 10 + 3 * 20 + 8 + 4;

/// The longest position line (without its newline): a result with `CUT:PIECES` (two and twenty
/// digits and a colon) and one more space.
pub const MAX_POSITION: usize = MAX_RECORD + 2 + 1 + 20 + 1;

/// Position lines a checkpoint may hold beyond one per task. A run compacts its file before
/// its position lines pass one per task plus half of these (see the module documentation), so
/// a file a run wrote never exceeds the bound.
const SPARE_POSITIONS: u64 = 1 << 16;

/// What names a board with fixed queens or blocked squares in a checkpoint header: a
/// fingerprint of the squares each row allows, and the number of symmetries the count's
/// classes are taken under (1: every solution is its own class; the task list's fingerprint
/// names the symmetries themselves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardMark {
    /// The board's fingerprint.
    pub squares: Fingerprint,
    /// Symmetries of the board the classes are counted under (1 to 8).
    pub symmetries: u32,
}

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
    /// The board, when it has fixed queens or blocked squares (`None`: the whole board).
    pub board: Option<BoardMark>,
}

impl Header {
    /// The header of a run over `shard` of `tasks` (the whole board's).
    pub fn new(tasks: &TaskList, shard: Shard) -> Self {
        Header {
            n: tasks.n(),
            depth: tasks.depth(),
            tasks: tasks.len(),
            fingerprint: tasks.fingerprint(),
            shard,
            board: None,
        }
    }

    /// The part of the header its check value covers.
    fn body(&self) -> String {
        let mut body = format!(
            "{MAGIC} {VERSION} n={} depth={} tasks={} task-list={} shard={}",
            self.n, self.depth, self.tasks, self.fingerprint, self.shard
        );
        if let Some(mark) = self.board {
            body += &format!(" board={} symmetries={}", mark.squares, mark.symmetries);
        }
        body
    }

    /// Position lines a checkpoint of this run may hold: one per task of the shard, plus
    /// [`SPARE_POSITIONS`].
    fn max_positions(&self) -> u64 {
        self.shard.len_of(self.tasks) as u64 + SPARE_POSITIONS
    }

    /// The header line as process `pid` writes it, with its newline.
    pub fn line(&self, pid: u32) -> String {
        let body = self.body();
        let check = checksum::check(&body);
        format!("{body} check={check} pid={pid:0PID_DIGITS$}\n")
    }

    /// The most bytes a checkpoint of this run can hold: the header, one result per task of
    /// the shard, one torn line, and positions (one per task of the shard, plus
    /// [`SPARE_POSITIONS`]).
    fn max_file_len(&self) -> u64 {
        let results = self.shard.len_of(self.tasks) as u64 + 1;
        (MAX_HEADER as u64 + 1)
            + results * (MAX_RECORD as u64 + 1)
            + self.max_positions() * (MAX_POSITION as u64 + 1)
    }
}

/// One record line as a checkpoint of the task list `fingerprint` holds it, with its check
/// value and newline (public so that tests can write well-formed records).
pub fn record_line(fingerprint: Fingerprint, id: TaskId, result: &TaskResult) -> String {
    let body = format!("{id} {} {} {}", result.total, result.unique, result.nodes);
    let check = checksum::check(&format!("{fingerprint} {body}"));
    format!("{body} {check}\n")
}

/// One position line as a checkpoint of the task list `fingerprint` holds it, with its check
/// value and newline.
pub fn position_line(fingerprint: Fingerprint, id: TaskId, partial: &Partial) -> String {
    let found = &partial.found;
    let body = format!(
        "{id} {}:{} {} {} {}",
        partial.cut, partial.pieces, found.total, found.unique, found.nodes
    );
    let check = checksum::check(&format!("{fingerprint} {body}"));
    format!("{body} {check}\n")
}

/// An open checkpoint, locked, positioned for appending.
#[derive(Debug)]
pub struct Checkpoint {
    file: File,
    path: PathBuf,
    header: Header,
    fingerprint: Fingerprint,
    /// Position lines in the file, superseded ones included.
    position_lines: u64,
    /// When the oldest record not yet synced was written.
    unsynced_since: Option<Instant>,
    /// The last position of each task the file holds no result of, by id.
    positions: Vec<(TaskId, Partial)>,
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
            Records::default()
        } else {
            let records = parse(path, &bytes[..complete], header)?;
            if complete < bytes.len() {
                file.set_len(complete as u64).map_err(io_error)?;
            }
            // Claim the header's pid field, or rewrite a version 2 header as version 3: the
            // same width either way, so nothing else moves.
            let header_end = bytes.iter().position(|&b| b == b'\n').unwrap_or(0);
            let (at, text) = if records.upgrade {
                (0, header.line(pid).trim_end().to_string())
            } else {
                (
                    header_end.saturating_sub(PID_DIGITS),
                    format!("{pid:0PID_DIGITS$}"),
                )
            };
            debug_assert_eq!(at + text.len(), header_end);
            file.seek(SeekFrom::Start(at as u64)).map_err(io_error)?;
            file.write_all(text.as_bytes()).map_err(io_error)?;
            file.seek(SeekFrom::End(0)).map_err(io_error)?;
            records
        };
        Ok((
            Checkpoint {
                file,
                path: path.to_path_buf(),
                header: *header,
                fingerprint: header.fingerprint,
                position_lines: records.position_lines,
                unsynced_since: None,
                positions: records.positions,
            },
            records.results,
        ))
    }

    /// Where the tasks the file holds no result of had got, one position per task (the
    /// last one written), in id order.
    pub fn positions(&self) -> &[(TaskId, Partial)] {
        &self.positions
    }

    /// Appends one task's result (one `write`), syncing if the oldest unsynced record is older
    /// than [`SYNC_INTERVAL`].
    pub fn record(&mut self, id: TaskId, result: &TaskResult) -> Result<(), CounterError> {
        self.append(&record_line(self.fingerprint, id, result))
    }

    /// Appends where a task in flight has got (one `write`), syncing as [`record`](Self::record)
    /// does; first compacts the file if its position lines have reached one per task plus half
    /// the spare (see the module documentation).
    pub fn record_position(&mut self, id: TaskId, partial: &Partial) -> Result<(), CounterError> {
        if self.position_lines >= self.header.max_positions() - SPARE_POSITIONS / 2 {
            self.compact()?;
        }
        self.append(&position_line(self.fingerprint, id, partial))?;
        self.position_lines += 1;
        Ok(())
    }

    /// Position lines in the file, superseded ones included.
    pub fn position_lines(&self) -> u64 {
        self.position_lines
    }

    /// Rewrites the file with its header, its results in their order and the last position of
    /// each unfinished task, and nothing else: written beside it, synced and locked, then
    /// renamed onto it, so a crash at any moment leaves either the old file or the new one
    /// whole.
    pub fn compact(&mut self) -> Result<(), CounterError> {
        let io_error = |source| CounterError::Io {
            path: self.path.clone(),
            source,
        };
        let mut bytes = Vec::new();
        self.file.seek(SeekFrom::Start(0)).map_err(io_error)?;
        (&mut self.file)
            .take(self.header.max_file_len() + 1)
            .read_to_end(&mut bytes)
            .map_err(io_error)?;
        // Every line a run writes is whole (one it could not write whole failed the run).
        let records = parse(&self.path, &bytes, &self.header)?;
        let pid = std::process::id();
        let mut text = self.header.line(pid);
        for (id, result) in &records.results {
            text += &record_line(self.fingerprint, *id, result);
        }
        for (id, partial) in &records.positions {
            text += &position_line(self.fingerprint, *id, partial);
        }
        let name = self.path.file_name().unwrap_or_default().to_string_lossy();
        let beside = self.path.with_file_name(format!(".{name}.{pid}.compact"));
        let written = open_options()
            .truncate(true)
            .open(&beside)
            .and_then(|mut file| {
                try_lock(&file)?;
                file.write_all(text.as_bytes())?;
                file.sync_all()?;
                std::fs::rename(&beside, &self.path)?;
                Ok(file)
            });
        let file = written.map_err(|source| {
            let _ = std::fs::remove_file(&beside);
            CounterError::Io {
                path: beside.clone(),
                source,
            }
        })?;
        sync_directory(&self.path);
        // The old file, and its lock, go with the old handle.
        self.file = file;
        self.position_lines = records.positions.len() as u64;
        self.unsynced_since = None;
        Ok(())
    }

    fn append(&mut self, line: &str) -> Result<(), CounterError> {
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

/// What the lines after a checkpoint's header hold.
#[derive(Default)]
struct Records {
    /// Finished tasks, in file order.
    results: Vec<(TaskId, TaskResult)>,
    /// The last position of each unfinished task, in id order.
    positions: Vec<(TaskId, Partial)>,
    /// Position lines, superseded ones included.
    position_lines: u64,
    /// The header is of version 2, to be rewritten as version 3.
    upgrade: bool,
}

/// Parses the complete lines of a checkpoint and checks them against `expected`.
fn parse(path: &Path, bytes: &[u8], expected: &Header) -> Result<Records, CounterError> {
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
    let (found, version) = parse_header(first).map_err(|problem| match problem {
        HeaderProblem::NotACheckpoint => not_a_checkpoint(path),
        HeaderProblem::Version(version) => mismatch(format!(
            "was written in checkpoint format {}; this nqueens reads formats {VERSION_2} and {VERSION} only (finish that count with the nqueens that wrote it, or start afresh with another file)",
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
        let text = String::from_utf8_lossy(raw);
        let malformed = || {
            corrupt(
                number,
                format!(
                    "expected 'ID TOTAL UNIQUE NODES CHECK' or 'ID CUT:PIECES TOTAL UNIQUE NODES CHECK', found '{}'",
                    excerpt(&text)
                ),
            )
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
        // Every class has one to eight members; on a board counted without symmetry, one.
        let rule = match expected.board {
            None => (unique > total || total > unique.saturating_mul(8))
                .then_some("between 1 and 8 times"),
            Some(mark) if mark.symmetries == 1 => (unique != total).then_some("equal to"),
            Some(_) => (unique > total).then_some("at least"),
        };
        if let Some(rule) = rule {
            return Err(corrupt(
                number,
                format!("task {id}: total {total} is not {rule} unique {unique}"),
            ));
        }
        let found = TaskResult {
            total,
            unique,
            nodes,
        };
        if seen[id.index()] {
            let what = if place.is_some() {
                "has a position after its result"
            } else {
                "is recorded twice"
            };
            return Err(corrupt(number, format!("task {id} {what}")));
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

/// Why a first line is not a usable header.
enum HeaderProblem {
    /// Not a checkpoint at all.
    NotACheckpoint,
    /// A checkpoint of another format version (the version word).
    Version(String),
    /// This format, but damaged (what is wrong).
    Damaged(&'static str),
}

/// The fields of a header line, and its version (this one or [`VERSION_2`]).
fn parse_header(line: &[u8]) -> Result<(Header, &'static str), HeaderProblem> {
    let line = std::str::from_utf8(line).map_err(|_| HeaderProblem::NotACheckpoint)?;
    let mut words = line.split(' ');
    if words.next() != Some(MAGIC) {
        return Err(HeaderProblem::NotACheckpoint);
    }
    let version = match words.next() {
        Some(VERSION) => VERSION,
        Some(VERSION_2) => VERSION_2,
        Some(other) if other.starts_with('v') => {
            return Err(HeaderProblem::Version(other.to_string()));
        }
        _ => return Err(HeaderProblem::NotACheckpoint),
    };
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
    let words: Vec<&str> = body.split(' ').skip(2).collect();
    let field = |at: usize, key: &str| -> Option<&str> {
        words.get(at)?.strip_prefix(key)?.strip_prefix('=')
    };
    let header = (|| {
        let board = match words.len() {
            5 => None,
            // A board with fixed queens or blocked squares names itself after the shard.
            7 => Some(BoardMark {
                squares: field(5, "board")?.parse().ok()?,
                symmetries: field(6, "symmetries")?.parse().ok()?,
            }),
            _ => return None,
        };
        Some(Header {
            n: field(0, "n")?.parse().ok()?,
            depth: field(1, "depth")?.parse().ok()?,
            tasks: field(2, "tasks")?.parse().ok()?,
            fingerprint: field(3, "task-list")?.parse().ok()?,
            shard: field(4, "shard")?.parse().ok()?,
            board,
        })
    })();
    header
        .map(|header| (header, version))
        .ok_or(HeaderProblem::Damaged("is malformed"))
}

/// Why a checkpoint of board `found` is not one of board `expected` (`None`: the whole board).
fn other_board(found: Option<BoardMark>, expected: Option<BoardMark>) -> String {
    match (found, expected) {
        (Some(found), None) => format!(
            "was written for a board with fixed queens or blocked squares (board {}), not the bare board",
            found.squares
        ),
        (None, _) => "was written for the bare board, not one with fixed queens or blocked squares"
            .to_string(),
        (Some(found), Some(expected)) if found.squares != expected.squares => format!(
            "was written for another board (board {}; this one is board {}): other fixed queens or blocked squares",
            found.squares, expected.squares
        ),
        (Some(found), Some(expected)) => {
            let counts = |mark: BoardMark| match mark.symmetries {
                1 => "every solution once".to_string(),
                k => format!("the solutions up to the board's {k} symmetries"),
            };
            format!(
                "counts {} and this run {}: resume it the way it was begun, or start afresh with another file",
                counts(found),
                counts(expected)
            )
        }
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

    /// A position of task `id` with `pieces` pieces done, cut at row 6.
    fn position(id: u32, pieces: u64) -> String {
        position_line(header().fingerprint, TaskId(id), &partial(pieces))
    }

    fn partial(pieces: u64) -> Partial {
        Partial {
            cut: 6,
            pieces,
            found: result(8 * pieces),
        }
    }

    #[test]
    fn positions_round_trip_and_the_last_one_counts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ckpt");
        let (mut checkpoint, _) = Checkpoint::open(&path, &header()).unwrap();
        assert!(checkpoint.positions().is_empty());
        checkpoint.record_position(TaskId(5), &partial(2)).unwrap();
        checkpoint.record_position(TaskId(3), &partial(1)).unwrap();
        checkpoint.record_position(TaskId(5), &partial(7)).unwrap();
        checkpoint.record_position(TaskId(4), &partial(1)).unwrap();
        checkpoint.record(TaskId(4), &result(16)).unwrap();
        drop(checkpoint);
        let (checkpoint, results) = Checkpoint::open(&path, &header()).unwrap();
        assert_eq!(results, vec![(TaskId(4), result(16))]);
        // Task 4 has its result; task 5's last position is the one to resume from.
        assert_eq!(
            checkpoint.positions(),
            [(TaskId(3), partial(1)), (TaskId(5), partial(7))]
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let fingerprint = header().fingerprint;
        let check = checksum::check(&format!("{fingerprint} 5 6:7 56 7 156"));
        assert!(
            text.contains(&format!("\n5 6:7 56 7 156 {check}\n")),
            "{text}"
        );
        let longest = Partial {
            cut: 32,
            pieces: u64::MAX,
            found: TaskResult {
                total: u64::MAX,
                unique: u64::MAX,
                nodes: u64::MAX,
            },
        };
        let line = position_line(fingerprint, TaskId(u32::MAX), &longest);
        assert_eq!(line.len(), MAX_POSITION + 1);
    }

    /// A run that writes more position lines than the reader allows (a long run of many
    /// threads writes some every ten minutes) compacts its file first: what it holds is
    /// kept, the superseded lines go, and the file reads back within the bound.
    #[test]
    fn positions_beyond_the_bound_compact_the_file_and_lose_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ckpt");
        let (mut checkpoint, _) = Checkpoint::open(&path, &header()).unwrap();
        checkpoint.record(TaskId(4), &result(16)).unwrap();
        let budget = header().max_positions() - SPARE_POSITIONS / 2;
        let mut most = 0;
        for pieces in 1..=budget + 100 {
            let id = TaskId(3 + 2 * (pieces % 2) as u32);
            checkpoint.record_position(id, &partial(pieces)).unwrap();
            most = most.max(checkpoint.position_lines());
        }
        assert_eq!(most, budget, "compacted when the lines reached the budget");
        assert!(checkpoint.position_lines() < 200);
        checkpoint.record(TaskId(7), &result(8)).unwrap();
        drop(checkpoint);
        let (checkpoint, results) = Checkpoint::open(&path, &header()).unwrap();
        assert_eq!(
            results,
            vec![(TaskId(4), result(16)), (TaskId(7), result(8))]
        );
        let last = budget + 100;
        assert_eq!(
            checkpoint.positions(),
            [
                (TaskId(3), partial(last - last % 2)),
                (TaskId(5), partial(last - 1 + last % 2))
            ]
        );
        drop(checkpoint);
        // Nothing is left beside it.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    /// The header of a board with fixed queens or blocked squares names it, reads back, and
    /// a record of that board counted without symmetry must have unique equal to total.
    #[test]
    fn a_masked_board_is_named_in_the_header() {
        let masked = Header {
            board: Some(BoardMark {
                squares: Fingerprint(0xfeed_beef),
                symmetries: 1,
            }),
            ..header()
        };
        let line = masked.line(12);
        assert!(
            line.contains(" shard=1/1 board=00000000feedbeef symmetries=1 check="),
            "{line}"
        );
        assert_eq!(
            parse_header(line.trim_end().as_bytes())
                .ok()
                .map(|(h, _)| h),
            Some(masked)
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ckpt");
        let (mut checkpoint, _) = Checkpoint::open(&path, &masked).unwrap();
        let plain = TaskResult {
            total: 5,
            unique: 5,
            nodes: 80,
        };
        checkpoint.record(TaskId(2), &plain).unwrap();
        drop(checkpoint);
        assert_eq!(Checkpoint::open(&path, &masked).unwrap().1.len(), 1);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text += &record_line(masked.fingerprint, TaskId(3), &result(16));
        std::fs::write(&path, &text).unwrap();
        let error = Checkpoint::open(&path, &masked).unwrap_err().to_string();
        assert!(
            error.contains("line 3: task 3: total 16 is not equal to unique 2"),
            "{error}"
        );
        // Neither the bare board nor another board takes it.
        for (other, says) in [
            (
                header(),
                "was written for a board with fixed queens or blocked squares (board 00000000feedbeef), not the bare board",
            ),
            (
                Header {
                    board: Some(BoardMark {
                        squares: Fingerprint(1),
                        symmetries: 1,
                    }),
                    ..header()
                },
                "was written for another board",
            ),
        ] {
            let error = Checkpoint::open(&path, &other).unwrap_err().to_string();
            assert!(error.contains(says), "{error}");
        }
    }

    #[test]
    fn a_version_2_file_is_read_and_its_header_upgraded_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ckpt");
        // A version 2 header, as the nqueens before positions wrote it.
        let body = header().body().replace(" v3 ", " v2 ");
        let old = format!(
            "{body} check={} pid={:010}\n{}{}",
            checksum::check(&body),
            77,
            record(1, 8),
            record(6, 16)
        );
        std::fs::write(&path, &old).unwrap();
        let (checkpoint, results) = Checkpoint::open(&path, &header()).unwrap();
        assert_eq!(
            results,
            vec![(TaskId(1), result(8)), (TaskId(6), result(16))]
        );
        drop(checkpoint);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.len(), old.len());
        assert!(text.starts_with(&me()), "{text}");
        assert!(text.ends_with(&format!("{}{}", record(1, 8), record(6, 16))));
        // And it reads as version 3 from then on.
        assert_eq!(Checkpoint::open(&path, &header()).unwrap().1.len(), 2);
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
        assert!(text.starts_with("nqueens-counter-checkpoint v3 n=8 depth=4 tasks=78 task-list="));
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
        let v1 = good.replace(" v3 ", " v1 ");
        let cases: Vec<(String, &str)> = vec![
            (
                format!("{good}{r1}x 8 1 9 00000000\n"),
                "line 3: expected 'ID TOTAL UNIQUE NODES CHECK' or 'ID CUT:PIECES TOTAL UNIQUE NODES CHECK', found 'x 8 1 9 00000000'",
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
                "line 2: expected 'ID TOTAL UNIQUE NODES CHECK' or 'ID CUT:PIECES TOTAL UNIQUE NODES CHECK', found '1 8 1 108'",
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
                "was written in checkpoint format v1; this nqueens reads formats v2 and v3 only",
            ),
            (
                Header::new(&TaskList::new(9), Shard::ALL).line(1),
                "is for n = 9, not n = 8",
            ),
            (
                Header::new(&TaskList::new(8), "2/3".parse().unwrap()).line(1),
                "holds shard 2/3, not shard 1/1",
            ),
            (
                format!("{good}{r1}{}", position(1, 3)),
                "line 3: task 1 has a position after its result",
            ),
            (
                format!("{good}{}", position(1, 3).replacen(":3 ", ":x ", 1)),
                "line 2: expected 'ID TOTAL UNIQUE NODES CHECK' or 'ID CUT:PIECES TOTAL UNIQUE NODES CHECK', found '1 6:x ",
            ),
            (
                format!(
                    "{good}{}",
                    position_line(
                        header().fingerprint,
                        TaskId(2),
                        &Partial {
                            cut: 33,
                            ..Partial::default()
                        }
                    )
                ),
                "line 2: expected",
            ),
            (
                format!("{good}{}", position(2, 3).replacen(":3 ", ":4 ", 1)),
                "line 2: record '2 6:4 ",
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
