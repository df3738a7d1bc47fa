//! Where input comes from and output goes, and the one rule every command follows so that no
//! run destroys a file: **read and check every input first, create outputs after, and publish
//! an output only when the command succeeded.**
//!
//! - Inputs are opened through [`read_input`] or [`open_input`] (a path, or `-` for standard
//!   input). Each one is remembered by device and inode, so that
//! - [`open`] refuses an output that is one of the inputs: the same file under another name, a
//!   symbolic link or a hard link to it (device and inode compared), with a one-line usage
//!   error. It also refuses one file named as two outputs (`sat --proof f -o f`).
//! - An output file is written under a temporary name beside its target and renamed onto it by
//!   [`Output::flush`] (or [`Output::finish`]), which commands call only once all is written;
//!   an output dropped without that (an error, or exit 1 with nothing found) is deleted and
//!   the target is left as it was. So `list 3 -o f` and `solve 2 -o f` both leave no `f`, and a
//!   run that fails half-way never truncates what `f` held. Targets that are not regular files
//!   (`/dev/null`, a FIFO, a terminal) are written directly.
//! - Every read and write error names its path ("cannot write /dev/full: No space left on
//!   device"), keeping the system's kind so a closed pipe still ends the program quietly.

use std::fs::{self, File, Metadata};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result, bail};

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

/// An output by identity: an existing file's device and inode, or the absolute path a new file
/// will get.
#[derive(Clone, Debug, PartialEq, Eq)]
enum OutputId {
    File(FileId),
    New(PathBuf),
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

/// Remembers a file a command reads by other means as one of its inputs, so that [`open`]
/// refuses to write over it. A path that does not exist is ignored (reading it will fail).
#[allow(
    dead_code,
    reason = "for commands that read their inputs themselves (checkpoints, shards)"
)]
pub fn claim_input(path: &Path) {
    if is_std(path) {
        if let Some(metadata) = stdin_metadata() {
            remember_input("standard input", &metadata);
        }
    } else if let Ok(metadata) = fs::metadata(path) {
        remember_input(&path.display().to_string(), &metadata);
    }
}

fn stdin_metadata() -> Option<Metadata> {
    use std::os::fd::AsFd;
    let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
    File::from(fd).metadata().ok()
}

/// Opens an input for reading: the file at `path`, or standard input for `-`. Returns the name
/// to use in messages and a buffered reader whose errors name it. A directory is refused.
pub fn open_input(path: &Path) -> Result<(String, Box<dyn BufRead>)> {
    let name = display_name(path);
    if is_std(path) {
        if let Some(metadata) = stdin_metadata() {
            remember_input(&name, &metadata);
        }
        let reader = Named {
            inner: io::stdin().lock(),
            name: name.clone(),
            verb: "read",
        };
        return Ok((name, Box::new(BufReader::with_capacity(1 << 16, reader))));
    }
    let file = File::open(path).with_context(|| format!("cannot read {name}"))?;
    let metadata = file
        .metadata()
        .with_context(|| format!("cannot read {name}"))?;
    if metadata.is_dir() {
        bail!("cannot read {name}: it is a directory");
    }
    remember_input(&name, &metadata);
    let reader = Named {
        inner: file,
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
    /// Into `temp`, renamed onto `target` when published; deleted if never published.
    Staged {
        file: File,
        temp: PathBuf,
        target: PathBuf,
        published: bool,
    },
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Stdout(out) => out.write(buf),
            Sink::Direct(file) | Sink::Staged { file, .. } => file.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Stdout(out) => out.flush(),
            Sink::Direct(file) => file.flush(),
            Sink::Staged {
                file,
                temp,
                target,
                published,
            } => {
                file.flush()?;
                if !*published {
                    fs::rename(&*temp, &*target)?;
                    *published = true;
                }
                Ok(())
            }
        }
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        if let Sink::Staged {
            temp,
            published: false,
            ..
        } = self
        {
            let _ = fs::remove_file(&*temp);
        }
    }
}

/// A buffered output (see the [module documentation](self)): standard output, or a file that
/// appears under its name only when [`flush`](Write::flush) or [`finish`](Output::finish) is
/// called.
pub struct Output {
    inner: BufWriter<Named<Sink>>,
}

impl Output {
    /// Writes what is buffered and publishes the file under its name.
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

    /// Writes what is buffered and, the first time, publishes the file under its name: call it
    /// once everything is written.
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
        if metadata.is_dir() {
            bail!("cannot write {name}: it is a directory");
        }
    }
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
    let file_name = target
        .file_name()
        .map_or_else(|| "output".into(), |f| f.to_string_lossy().into_owned());
    let temp = dir.join(format!(".{file_name}.{}.partial", std::process::id()));
    let file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp);
    match file {
        Ok(file) => {
            if let Some(metadata) = &existing {
                let _ = fs::set_permissions(&temp, metadata.permissions());
            }
            Ok(Sink::Staged {
                file,
                temp,
                target,
                published: false,
            })
        }
        // A directory we may not create files in, but whose file we may overwrite.
        Err(_) => {
            let file = File::create(path).with_context(|| format!("cannot create {name}"))?;
            Ok(Sink::Direct(file))
        }
    }
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
