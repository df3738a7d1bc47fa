//! Where input comes from and output goes, and the one rule every command follows so that no
//! run destroys a file: **read and check every input first, create outputs after, and publish
//! an output only when the command succeeded.**
//!
//! - Inputs are opened through [`read_input`] or [`open_input`] (a path, or `-` for standard
//!   input). Each one is remembered by device and inode, so that
//! - [`open`] refuses an output that is one of the inputs: the same file under another name, a
//!   symbolic link or a hard link to it (device and inode compared), with a one-line usage
//!   error. It also refuses one file named as two outputs (`sat --proof f -o f`), a directory,
//!   and a path that cannot name a file ([`check_output_path`]: one ending in `/`, `/.` or
//!   `/..`), which would otherwise be resolved to the file before the slash.
//! - An output file is written under a temporary name beside its target,
//!   `.NAME.PID.partial`. [`Output::flush`] (or [`Output::finish`]) marks it complete; `main`
//!   then calls [`settle`] with the command's verdict, which renames every complete output onto
//!   its target after a success (exit 0, or 10/20 for `sat`) and deletes every temporary file
//!   otherwise: no solution (1), a limit (3), Ctrl-C (130), an error (2). So `list 3 -o f` and
//!   `xc nothing.dlx -o f` leave `f` as it was, and a run that fails half-way never truncates
//!   it. Targets that are not regular files (`/dev/null`, a FIFO, a terminal) are written
//!   directly.
//! - The temporary files go on every exit the program sees: an error or a verdict through
//!   [`settle`]; Ctrl-C, which a staged output turns into a stop request (writes to it then
//!   fail, so a command that only writes, such as `cnf`, stops at once); a second Ctrl-C, whose
//!   handler deletes them before the process dies; a file-size limit (`ulimit -f`), whose
//!   SIGXFSZ is ignored so that the write fails with a message instead ([`ignore_file_size_signal`]).
//!   What SIGKILL or a power cut leaves is deleted by the next run that writes beside it:
//!   [`open`] removes the `.NAME.PID.partial` files (any NAME) of processes that no longer
//!   exist from the folder it writes to.
//! - Every input reader checks the stop flag before each read and, on a pipe or a terminal,
//!   waits for data in slices of [`POLL_MS`], so Ctrl-C ends `verify -` at once even while the
//!   other end of its pipe is idle (exit 130).
//! - Every read and write error names its path ("cannot write /dev/full: No space left on
//!   device"), keeping the system's kind so a closed pipe still ends the program quietly.

use std::ffi::OsStr;
use std::fs::{self, File, Metadata};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::os::fd::{AsFd, AsRawFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result, anyhow, bail};

use crate::interrupt;

/// How long an input reader waits for data on a pipe before it looks at the stop flag again,
/// in milliseconds (a signal usually ends the wait at once; this bounds the rare case where
/// another thread took it).
pub const POLL_MS: i32 = 100;

/// A file by identity: device and inode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    fn of(metadata: &Metadata) -> FileId {
        FileId {
            dev: metadata.dev(),
            ino: metadata.ino(),
        }
    }
}

/// The inputs read so far (their names and identities) and the outputs opened so far.
static INPUTS: Mutex<Vec<(String, FileId)>> = Mutex::new(Vec::new());
static OUTPUTS: Mutex<Vec<(String, OutputId)>> = Mutex::new(Vec::new());

/// The outputs written in full, waiting for the command's verdict ([`settle`]).
static COMPLETE: Mutex<Vec<Staged>> = Mutex::new(Vec::new());

/// An output by identity: an existing file's device and inode, or the absolute path a new file
/// will get.
#[derive(Clone, Debug, PartialEq, Eq)]
enum OutputId {
    File(FileId),
    New(PathBuf),
}

/// A file written under a temporary name, to be renamed onto its target.
#[derive(Debug)]
struct Staged {
    /// The target as the user named it, for messages.
    name: String,
    temp: PathBuf,
    target: PathBuf,
}

/// How a path is named in messages: `-` is standard input (or output).
pub fn display_name(path: &Path) -> String {
    if is_std(path) {
        "standard input".to_string()
    } else {
        path.display().to_string()
    }
}

fn is_std(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Remembers `file` (opened as `name`) as an input, when it is a regular file.
fn remember_input(name: &str, metadata: &Metadata) {
    if metadata.is_file() {
        let mut inputs = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
        inputs.push((name.to_string(), FileId::of(metadata)));
    }
}

/// Opens an input for reading: the file at `path`, or standard input for `-`. Returns the name
/// to use in messages and a buffered reader whose errors name it and which stops at Ctrl-C
/// (see the [module documentation](self)). A directory is refused.
pub fn open_input(path: &Path) -> Result<(String, Box<dyn BufRead>)> {
    let name = display_name(path);
    let file = if is_std(path) {
        // Standard input's own descriptor, unbuffered: data waiting in the standard library's
        // buffer would be invisible to the wait for data below.
        let fd = io::stdin().as_fd().try_clone_to_owned();
        File::from(fd.with_context(|| format!("cannot read {name}"))?)
    } else {
        File::open(path).with_context(|| format!("cannot read {name}"))?
    };
    let metadata = file
        .metadata()
        .with_context(|| format!("cannot read {name}"))?;
    if metadata.is_dir() {
        bail!("cannot read {name}: it is a directory");
    }
    remember_input(&name, &metadata);
    let reader = Named {
        inner: Watched::new(file, &metadata),
        name: name.clone(),
        verb: "read",
    };
    Ok((name, Box::new(BufReader::with_capacity(1 << 16, reader))))
}

/// Reads a whole input (see [`open_input`]) of at most `limit` bytes, a bound the caller takes
/// from what its format can need: a longer input is refused with an error rather than read
/// until memory runs out (`/dev/zero`, a wrong file). A UTF-8 byte-order mark at the start is
/// dropped. Returns the name for messages and the text.
pub fn read_input(path: &Path, limit: u64, what: &str) -> Result<(String, String)> {
    let (name, reader) = open_input(path)?;
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        bail!(
            "{name} is longer than {} MiB, more than {what} can need",
            limit >> 20
        );
    }
    let bytes = nqueens_support::strip_bom_bytes(&bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        anyhow::anyhow!("{name}: line {line}: the file is not UTF-8 text")
    })?;
    Ok((name, text.to_string()))
}

/// The error a read or a write gives once Ctrl-C asked the command to stop (its kind is not
/// `Interrupted`, which readers retry).
fn stopped() -> io::Error {
    io::Error::other("interrupted")
}

/// A reader that gives up once a stop was requested: it checks the flag before every read, and
/// where a read can wait forever (a pipe, a terminal, a socket) it first waits for data in
/// slices of [`POLL_MS`], checking the flag between them.
struct Watched {
    file: File,
    may_wait: bool,
}

impl Watched {
    fn new(file: File, metadata: &Metadata) -> Self {
        Watched {
            file,
            may_wait: !metadata.is_file(),
        }
    }
}

impl Read for Watched {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if interrupt::requested() {
                return Err(stopped());
            }
            if !self.may_wait || readable(self.file.as_raw_fd()) {
                return self.file.read(buf);
            }
        }
    }
}

/// Whether `fd` has data (or an end, or an error) to read, after waiting at most [`POLL_MS`];
/// false when the wait timed out or a signal cut it short.
fn readable(fd: RawFd) -> bool {
    let mut poll = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd for the duration of the call; poll(2) only writes `revents`.
    let ready = unsafe { libc::poll(&mut poll, 1, POLL_MS) };
    // An error other than EINTR (which means "look at the flag") is left to the read to report.
    ready > 0 || (ready < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted)
}

/// A reader or writer whose errors name the file: "cannot write PATH: REASON", the kind kept.
struct Named<T> {
    inner: T,
    name: String,
    verb: &'static str,
}

impl<T> Named<T> {
    fn wrap(&self, err: io::Error) -> io::Error {
        if err.kind() == io::ErrorKind::Interrupted {
            return err;
        }
        io::Error::new(
            err.kind(),
            format!("cannot {} {}: {err}", self.verb, self.name),
        )
    }
}

impl<T: Read> Read for Named<T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| self.wrap(e))
    }
}

impl<T: Write> Write for Named<T> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(|e| self.wrap(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(|e| self.wrap(e))
    }
}

/// Where the bytes go.
enum Sink {
    Stdout(io::Stdout),
    /// Straight into the target (standard output's stand-ins, devices, FIFOs).
    Direct(File),
    /// Into a temporary file, deleted when dropped unless flushed; a flush hands `staged` over
    /// to [`settle`], which renames the file onto its target if the command succeeded.
    Staged {
        file: File,
        staged: Option<Staged>,
    },
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Stdout(out) => out.write(buf),
            // A file output stops at Ctrl-C, so that a command that only writes ends at once
            // and its temporary file is deleted.
            Sink::Direct(_) | Sink::Staged { .. } if interrupt::requested() => Err(stopped()),
            Sink::Direct(file) | Sink::Staged { file, .. } => file.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Stdout(out) => out.flush(),
            Sink::Direct(file) => file.flush(),
            Sink::Staged { file, staged } => {
                file.flush()?;
                if let Some(staged) = staged.take() {
                    COMPLETE
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(staged);
                }
                Ok(())
            }
        }
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        // Never flushed: never published.
        if let Sink::Staged {
            staged: Some(staged),
            ..
        } = self
        {
            let _ = fs::remove_file(&staged.temp);
        }
    }
}

/// Publishes or discards the outputs once the command is over: after a success, renames every
/// complete output onto its target (in the order they were completed); otherwise deletes them
/// all, leaving their targets as they were. Returns the first rename that failed (the others
/// are deleted too).
pub fn settle(success: bool) -> Result<()> {
    let complete = std::mem::take(&mut *COMPLETE.lock().unwrap_or_else(|e| e.into_inner()));
    let mut failed = None;
    for staged in complete {
        if success && failed.is_none() {
            if let Err(e) = fs::rename(&staged.temp, &staged.target) {
                failed = Some(anyhow!("cannot write {}: {e}", staged.name));
            } else {
                continue;
            }
        }
        let _ = fs::remove_file(&staged.temp);
    }
    failed.map_or(Ok(()), Err)
}

/// A buffered output (see the [module documentation](self)): standard output, or a file that
/// appears under its name only if [`flush`](Write::flush) or [`finish`](Output::finish) was
/// called and the command succeeds.
pub struct Output {
    inner: BufWriter<Named<Sink>>,
}

impl Output {
    /// Writes what is buffered and marks the file complete (see [`settle`]).
    pub fn finish(mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf)
    }

    /// Writes what is buffered and, the first time, marks the file complete: call it once
    /// everything is written.
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A buffered writer to `path`, or to standard output when `None` or `-`; see the [module
/// documentation](self) for when the file appears and what is refused.
pub fn open(path: Option<&Path>) -> Result<Output> {
    let (name, sink) = match path {
        None => ("standard output".to_string(), Sink::Stdout(io::stdout())),
        Some(path) if is_std(path) => ("standard output".to_string(), Sink::Stdout(io::stdout())),
        Some(path) => (path.display().to_string(), open_file(path)?),
    };
    Ok(Output {
        inner: BufWriter::with_capacity(
            1 << 16,
            Named {
                inner: sink,
                name,
                verb: "write",
            },
        ),
    })
}

/// Writes `contents` to `path` through [`open`] and marks it complete: it appears when the
/// command succeeds.
pub fn write_file(path: &Path, contents: &[u8]) -> Result<()> {
    let mut out = open(Some(path))?;
    out.write_all(contents)?;
    Ok(out.finish()?)
}

/// Refuses a path that cannot name a file to write: a directory, or a path whose last
/// component is empty, `.` or `..` (it ends in `/`, `/.` or `/..`). Without this, `-o in.txt/`
/// would be resolved to `in.txt` itself (Rust's paths drop a trailing `/` and `.`), and
/// `-o y.txt/` would create a file `y.txt`. Commands that run long call it before they start.
pub fn check_output_path(path: &Path) -> Result<()> {
    let name = path.display();
    let bytes = path.as_os_str().as_bytes();
    let last = bytes.rsplit(|&b| b == b'/').next().unwrap_or_default();
    if matches!(last, b"" | b"." | b"..") {
        bail!(
            "cannot write {name}: a path ending in '/', '/.' or '/..' names a directory, not a file"
        );
    }
    if fs::metadata(path).is_ok_and(|m| m.is_dir()) {
        bail!("cannot write {name}: it is a directory, not a regular file");
    }
    Ok(())
}

fn open_file(path: &Path) -> Result<Sink> {
    let name = path.display().to_string();
    let existing = fs::metadata(path).ok();
    if let Some(metadata) = &existing {
        let id = FileId::of(metadata);
        let inputs = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((input, _)) = inputs.iter().find(|(_, other)| *other == id) {
            if *input == name {
                bail!("the output {name} is also an input; write to another file");
            }
            bail!("the output {name} is the same file as the input {input}; write to another file");
        }
    }
    check_output_path(path)?;
    // A device, FIFO or socket is written as it is; only files are staged.
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        let file = fs::OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("cannot write {name}"))?;
        return Ok(Sink::Direct(file));
    }
    // A file we may not write stays refused, as if it were written directly (opening it to
    // write, without truncating, changes nothing).
    if existing.is_some() {
        fs::OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("cannot write {name}"))?;
    }
    // Follow a symbolic link, so that the file it names is replaced, not the link.
    let target = fs::canonicalize(path).unwrap_or_else(|_| absolute(path));
    let id = match &existing {
        Some(metadata) => OutputId::File(FileId::of(metadata)),
        None => OutputId::New(target.clone()),
    };
    {
        let mut outputs = OUTPUTS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((first, _)) = outputs.iter().find(|(_, other)| *other == id) {
            bail!("{name} is named as two outputs ({first} and {name}); give each its own file");
        }
        outputs.push((name.clone(), id));
    }
    let dir = target.parent().unwrap_or(Path::new("."));
    let file_name = target.file_name().unwrap_or(OsStr::new("output"));
    remove_stale_temporaries(dir, file_name);
    let temp = dir.join(temp_name(file_name, std::process::id()));
    // Ctrl-C must now delete the temporary file rather than kill the process with it in place:
    // take it as a stop request (commands that search have already), and let a second one,
    // which kills, delete it first.
    interrupt::install();
    nqueens_support::interrupt::remove_if_killed(&temp);
    let file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        // Its directory must take a new file (the temporary one) even where the target exists.
        .with_context(|| format!("cannot create {name}"))?;
    if let Some(metadata) = &existing {
        let _ = fs::set_permissions(&temp, metadata.permissions());
    }
    Ok(Sink::Staged {
        file,
        staged: Some(Staged { name, temp, target }),
    })
}

/// The temporary name of an output `file_name` written by process `pid`.
fn temp_name(file_name: &OsStr, pid: u32) -> PathBuf {
    let mut name = b".".to_vec();
    name.extend_from_slice(file_name.as_bytes());
    name.extend_from_slice(format!(".{pid}.partial").as_bytes());
    PathBuf::from(OsStr::from_bytes(&name))
}

/// Deletes the temporary files that processes no longer running left in `dir`, where this run
/// writes `file_name` (killed by SIGKILL, a crash, a power cut): `.NAME.PID.partial` files of
/// any NAME, regular files only, whose PID names no process. A PID that names one (perhaps
/// another program that reused the number) keeps its file; this process's own number marks a
/// stale file only for `file_name`, which it has not created yet (another may be its own).
fn remove_stale_temporaries(dir: &Path, file_name: &OsStr) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let entry_name = entry.file_name();
        let Some((name, pid)) = entry_name
            .as_bytes()
            .strip_prefix(b".")
            .and_then(|rest| rest.strip_suffix(b".partial"))
            .and_then(|rest| Some(rest.split_at(rest.iter().rposition(|&b| b == b'.')?)))
            .map(|(name, dot_pid)| (name, &dot_pid[1..]))
            .filter(|(name, pid)| !name.is_empty() && pid.iter().all(u8::is_ascii_digit))
            .and_then(|(name, pid)| Some((name, std::str::from_utf8(pid).ok()?.parse().ok()?)))
            .filter(|&(_, pid): &(&[u8], libc::pid_t)| pid > 0)
        else {
            continue;
        };
        let stale = if pid as u32 == std::process::id() {
            name == file_name.as_bytes()
        } else {
            !process_exists(pid)
        };
        if stale && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether a process with this id exists (kill(2) with signal 0 sends nothing, only checks).
fn process_exists(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 performs the existence and permission checks only.
    let sent = unsafe { libc::kill(pid, 0) };
    sent == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Makes a file-size limit (`ulimit -f`) an error rather than a death: without this, SIGXFSZ
/// kills the process mid-write with no message and leaves its temporary file behind; ignored,
/// the write fails with EFBIG ("File too large"), which the command reports in one line while
/// the temporary file is deleted.
pub fn ignore_file_size_signal() {
    // SAFETY: setting a signal's disposition to SIG_IGN has no other effect.
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
}

fn absolute(path: &Path) -> PathBuf {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let dir = dir.map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let dir = fs::canonicalize(&dir).unwrap_or(dir);
    match path.file_name() {
        Some(name) => dir.join(name),
        None => path.to_path_buf(),
    }
}
