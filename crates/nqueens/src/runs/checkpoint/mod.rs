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

use super::error::CounterError;
use crate::engines::counter::kernel::TaskResult;
use crate::engines::counter::pieces::Partial;
use crate::engines::counter::tasks::{Fingerprint, TaskId};

mod header;
mod parse;
mod read;

/// The rest of `file` after the `head` already read, refused unread beyond the longest file
/// this count's checkpoint can be (a file that big is not this count's checkpoint).
pub(super) fn read_bounded(
    file: &mut File,
    path: &Path,
    header: &Header,
    head: Vec<u8>,
) -> Result<Vec<u8>, CounterError> {
    let limit = header.max_file_len();
    let mut bytes = head;
    file.take(limit + 1 - bytes.len().min(limit as usize) as u64)
        .read_to_end(&mut bytes)
        .map_err(|e| CounterError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
    if bytes.len() as u64 > limit {
        return Err(CounterError::CheckpointMismatch {
            path: path.to_path_buf(),
            reason: format!(
                "is longer than any checkpoint of this count can be (more than {limit} bytes)"
            ),
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests;

pub use header::{BoardMark, Header, position_line, record_line};
use parse::{Records, parse};
pub use read::{Contents, Holder, looks_like_checkpoint, peek_header, read};

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
        let bytes = read_bounded(&mut file, path, header, Vec::new())?;
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
