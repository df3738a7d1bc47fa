//! Reading a checkpoint without running its count: what `status` and `audit` show. The file
//! is opened read-only and never locked for longer than a glance (a shared lock taken and
//! dropped at once, to learn whether a run holds it), its header is taken as it is (any n,
//! task list and shard), and every line is checked as a run would check it. One pass,
//! O(file length); the format is described in the [module documentation](super).

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::time::SystemTime;

use super::header::{Header, HeaderProblem, parse_header};
use super::parse::parse;
use super::{
    MAGIC, MAX_HEADER, VERSION, VERSION_2, not_a_checkpoint, read_bounded, refuse_special,
};
use crate::engines::counter::kernel::TaskResult;
use crate::engines::counter::pieces::Partial;
use crate::engines::counter::tasks::TaskId;
use crate::runs::error::CounterError;

/// Whether a process holds a checkpoint's lock, and which one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder {
    /// No run has the file open.
    Free,
    /// A run has it open: the process id its header names (if readable) and whether that
    /// process is alive (`None` where that cannot be asked).
    Held {
        /// The id in the header's `pid=` field.
        pid: Option<u32>,
        /// Whether a process of that id exists.
        alive: Option<bool>,
    },
}

/// What a checkpoint holds, read without taking it over.
#[derive(Clone, Debug)]
pub struct Contents {
    /// What it belongs to.
    pub header: Header,
    /// Its format version (`v3`, or `v2` before positions).
    pub version: &'static str,
    /// Finished tasks, in the order they finished.
    pub results: Vec<(TaskId, TaskResult)>,
    /// The last position of each unfinished task it holds one of, in id order.
    pub positions: Vec<(TaskId, Partial)>,
    /// Position lines, superseded ones included.
    pub position_lines: u64,
    /// Bytes after the last complete line (a write cut short; dropped on resume).
    pub torn: usize,
    /// When the file was last written.
    pub modified: Option<SystemTime>,
    /// The process id in the header (0 when no run has opened it since it was written).
    pub pid: Option<u32>,
    /// Who holds its lock now.
    pub holder: Holder,
}

/// Whether `text` begins like a checkpoint (its first word is the format's), so that a tool
/// handed one by mistake can say what it is.
pub fn looks_like_checkpoint(text: &[u8]) -> bool {
    let text = text.strip_prefix("\u{feff}".as_bytes()).unwrap_or(text);
    text.starts_with(MAGIC.as_bytes())
}

/// The header of a checkpoint whose first line is `text`'s (the rest is ignored), if it is
/// one this nqueens reads.
pub fn peek_header(text: &[u8]) -> Option<Header> {
    let first = text.split(|&b| b == b'\n').next()?;
    parse_header(first).ok().map(|(header, _)| header)
}

/// Reads the checkpoint at `path` as it is, checking every line as a run would, without
/// locking it for longer than a glance (a shared lock taken and dropped at once, to learn
/// whether a run holds it) and without writing to it.
pub fn read(path: &Path) -> Result<Contents, CounterError> {
    let io_error = |source| CounterError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Ok(meta) = std::fs::metadata(path) {
        refuse_special(path, &meta.file_type())?;
    }
    let mut file = File::open(path).map_err(io_error)?;
    let meta = file.metadata().map_err(io_error)?;
    refuse_special(path, &meta.file_type())?;
    let locked = held(&file);
    let mut head = Vec::new();
    (&mut file)
        .take(MAX_HEADER as u64 + 1)
        .read_to_end(&mut head)
        .map_err(io_error)?;
    let first = head
        .split(|&b| b == b'\n')
        .next()
        .unwrap_or_default()
        .to_vec();
    let (header, version) = parse_header(&first).map_err(|problem| match problem {
        HeaderProblem::NotACheckpoint => not_a_checkpoint(path),
        HeaderProblem::Version(version) => CounterError::CheckpointMismatch {
            path: path.to_path_buf(),
            reason: format!(
                "was written in checkpoint format {}; this nqueens reads formats {VERSION_2} and {VERSION} only",
                nqueens_support::excerpt(&version)
            ),
        },
        HeaderProblem::Damaged(what) => CounterError::CorruptCheckpoint {
            path: path.to_path_buf(),
            line: 1,
            reason: format!("the header {what}: the file is damaged"),
        },
    })?;
    let bytes = read_bounded(&mut file, path, &header, head)?;
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let records = parse(path, &bytes[..complete], &header)?;
    let pid = std::str::from_utf8(&first)
        .ok()
        .and_then(|line| line.rsplit_once(" pid="))
        .and_then(|(_, pid)| pid.parse().ok());
    let holder = match locked {
        false => Holder::Free,
        true => {
            let pid = pid.filter(|&pid| pid != 0);
            Holder::Held {
                pid,
                alive: pid.and_then(alive),
            }
        }
    };
    Ok(Contents {
        header,
        version,
        results: records.results,
        positions: records.positions,
        position_lines: records.position_lines,
        torn: bytes.len() - complete,
        modified: meta.modified().ok(),
        pid,
        holder,
    })
}

/// Whether another process holds the file's lock: a shared lock is tried and, if granted,
/// dropped at once (a run that starts in that instant finds the file in use and says so).
#[cfg(unix)]
fn held(file: &File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: `flock` only reads the descriptor, which `file` keeps open.
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_SH | libc::LOCK_NB) };
    if rc == 0 {
        // SAFETY: as above.
        unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_UN) };
        return false;
    }
    std::io::Error::last_os_error().raw_os_error() == Some(libc::EWOULDBLOCK)
}

#[cfg(not(unix))]
fn held(_: &File) -> bool {
    false
}

/// Whether process `pid` exists (`kill(pid, 0)`: permission denied still means it does).
#[cfg(unix)]
fn alive(pid: u32) -> Option<bool> {
    let pid = libc::pid_t::try_from(pid).ok()?;
    // SAFETY: signal 0 sends nothing; it only asks whether the process exists.
    let rc = unsafe { libc::kill(pid, 0) };
    Some(rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM))
}

#[cfg(not(unix))]
fn alive(_: u32) -> Option<bool> {
    None
}
