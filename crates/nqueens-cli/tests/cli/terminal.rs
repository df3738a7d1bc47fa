//! The CLI in a terminal: a pseudo-terminal 80 columns wide stands in for the user's, so the
//! progress line and Ctrl-C are seen as a person sees them.

use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use nqueens_solver::instances::oeis;

use crate::util::run;

/// A pseudo-terminal of `columns` × 24: (master, slave).
fn open_pty(columns: u16) -> (OwnedFd, OwnedFd) {
    let mut master = -1;
    let mut slave = -1;
    let size = libc::winsize {
        ws_row: 24,
        ws_col: columns,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: openpty writes two descriptors into the integers it is given and reads the
    // window size; the name and termios pointers may be null.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and are owned by nobody else.
    unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

/// Everything the terminal showed, read until the last writer closed it.
fn read_all(master: OwnedFd) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut file = std::fs::File::from(master);
        let mut bytes = Vec::new();
        let mut buffer = [0u8; 4096];
        // Linux answers EIO once the slave side is closed: that is the end.
        while let Ok(read) = file.read(&mut buffer) {
            if read == 0 {
                break;
            }
            bytes.extend_from_slice(&buffer[..read]);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// What each redraw leaves on screen: the text between carriage returns and newlines, with
/// the clear-to-end-of-line sequence taken out.
fn screen_lines(shown: &str) -> Vec<String> {
    shown
        .replace("\x1b[K", "")
        .split(['\r', '\n'])
        .filter(|line| !line.is_empty())
        .map(str::to_string)
        .collect()
}

/// Starts `nqueens ARGS` on a new 80-column terminal (its width from the terminal alone, not
/// `$COLUMNS`), with progress shown at once; returns the child and the reader of its screen.
fn spawn_on_terminal(args: &[&str]) -> (std::process::Child, std::thread::JoinHandle<String>) {
    let (master, slave) = open_pty(80);
    let child = StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .env("NQUEENS_PROGRESS_DELAY_MS", "0")
        .env_remove("COLUMNS")
        .stdin(Stdio::null())
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    (child, read_all(master))
}

/// Sends SIGINT (what Ctrl-C sends) to `child`, checks that it exits 130, and returns what it
/// showed on its terminal.
fn interrupt(mut child: std::process::Child, shown: std::thread::JoinHandle<String>) -> String {
    // SAFETY: kill sends a signal to the child we spawned and have not reaped.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let status = child.wait().unwrap();
    let shown = shown.join().unwrap();
    assert_eq!(status.code(), Some(130), "{shown:?}");
    shown
}

#[test]
fn ctrl_c_saves_the_checkpoint_says_so_and_the_count_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("count17.ckpt");
    let checkpoint_text = checkpoint.display().to_string();
    let args = ["count", "17", "-j", "1", "--checkpoint", &checkpoint_text];
    let (mut child, shown) = spawn_on_terminal(&args);
    // Interrupt once the counter is under way.
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::fs::metadata(&checkpoint).map_or(0, |m| m.len()) < 2000
        && Instant::now() < deadline
        && child.try_wait().unwrap().is_none()
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let shown = interrupt(child, shown);
    let lines = screen_lines(&shown);
    let (message, progress) = lines.split_last().expect("something was shown");
    assert!(
        progress.iter().any(|line| line.contains(" tasks (")),
        "no progress line in {shown:?}"
    );
    // The progress lines, redrawn in place, fit the terminal; the line that names the new
    // checkpoint is said once and may wrap.
    for line in progress.iter().filter(|line| line.contains(" tasks")) {
        assert!(
            line.chars().count() < 80,
            "a progress line wider than the terminal: {line:?}"
        );
    }
    // The message starts on a cleared line: nothing of the progress line is glued to it.
    assert!(
        shown.contains("\r\x1b[Kinterrupted: "),
        "the line was not cleared: {shown:?}"
    );
    let saved: usize = message
        .strip_prefix("interrupted: ")
        .and_then(|rest| rest.split_once(" of "))
        .and_then(|(saved, _)| saved.parse().ok())
        .unwrap_or_else(|| panic!("unexpected message {message:?}"));
    assert!(
        message.ends_with(&format!(
            " tasks saved in {checkpoint_text} — run the same command to resume"
        )),
        "{message:?}"
    );
    assert!(shown.ends_with("resume\r\n"), "{shown:?}");
    let records = std::fs::read_to_string(&checkpoint)
        .unwrap()
        .lines()
        .count()
        - 1;
    assert_eq!(saved, records, "the message counts what the file holds");
    assert!(saved > 0);

    // The same command again finishes the count, with the right total.
    let (code, stdout, stderr) = run(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, format!("{}\n", oeis::total(17).unwrap()));
}

#[test]
fn ctrl_c_without_a_checkpoint_says_nothing_was_saved() {
    let (child, shown) =
        spawn_on_terminal(&["list", "18", "--format", "coords", "-o", "/dev/null"]);
    std::thread::sleep(Duration::from_millis(500));
    let shown = interrupt(child, shown);
    let lines = screen_lines(&shown);
    let last = lines.last().expect("a message");
    assert!(
        last.starts_with("interrupted after ") && last.ends_with(" s"),
        "{shown:?}"
    );
    // The listing showed its elapsed time and its solutions while it ran.
    assert!(
        lines.iter().any(|line| line.contains(" solutions")),
        "{shown:?}"
    );
}
