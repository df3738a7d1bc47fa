//! Running one child process: spawn it with piped output, kill it at the time limit, and read
//! its exit status, its output and its peak resident memory.
//!
//! Both pipes are drained by reader threads while the child runs: a child that prints a
//! solution of a huge board writes megabytes, more than a pipe holds, and would otherwise block
//! on a full pipe until the time limit killed it. On Unix the parent waits with `wait4`, which
//! also returns the child's `ru_maxrss`; elsewhere the limit is enforced and memory is not
//! measured. `ru_maxrss` counts from the parent's resident size at the fork, so it is only an
//! upper bound: a child that finishes reports its own peak instead (see `child`), and one
//! killed at the limit has its peak read from `/proc/PID/status` just before the kill.

use std::io::Read;
use std::process::{Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

/// How a child ended.
#[derive(Debug)]
pub struct ChildEnd {
    /// The exit code (`None`: killed by a signal).
    pub code: Option<i32>,
    /// The parent killed it at the time limit.
    pub timed_out: bool,
    /// Peak resident memory in KiB, where the platform reports it: read just before the kill
    /// for a child that timed out, else `ru_maxrss` (an upper bound, see the module comment).
    pub peak_rss_kb: Option<u64>,
    pub stdout: String,
    pub stderr: String,
}

/// Reads a pipe to the end on its own thread (lossy UTF-8: a child's output is text).
fn drain(pipe: Option<impl Read + Send + 'static>) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

fn joined(reader: JoinHandle<String>) -> String {
    reader.join().unwrap_or_default()
}

/// A running process's peak resident memory in KiB (`VmHWM`), where `/proc` has it.
#[cfg(unix)]
fn peak_of(pid: libc::pid_t) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    line.trim().trim_end_matches("kB").trim().parse().ok()
}

/// Runs `command` with piped output, kills it after `limit`, and reads its peak memory.
#[cfg(unix)]
pub fn run_child(command: &mut Command, limit: Duration) -> Result<ChildEnd> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("cannot start a bench child process")?;
    let pid = libc::pid_t::try_from(child.id()).context("process id out of range")?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let start = Instant::now();
    let mut timed_out = false;
    let mut peak_at_kill = None;
    let mut status: libc::c_int = 0;
    // SAFETY: `rusage` is plain old data, for which all-zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        let flags = if timed_out { 0 } else { libc::WNOHANG };
        // SAFETY: `pid` is our own child, not yet reaped (std's `Child` only reaps in `wait`,
        // which we never call); `status` and `usage` are valid for writes.
        let reaped = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if reaped == pid {
            break;
        }
        if reaped < 0 {
            let err = std::io::Error::last_os_error();
            if err.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err).context("cannot wait for a bench child process");
        }
        if start.elapsed() >= limit {
            timed_out = true;
            peak_at_kill = peak_of(pid);
            // SAFETY: killing our own unreaped child; the pid cannot have been reused.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            continue;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Ok(ChildEnd {
        code,
        timed_out,
        // On Linux `ru_maxrss` is in kilobytes.
        peak_rss_kb: peak_at_kill.or_else(|| u64::try_from(usage.ru_maxrss).ok()),
        stdout: joined(stdout),
        stderr: joined(stderr),
    })
}

/// Without `wait4`: the limit is enforced, the memory is not measured.
#[cfg(not(unix))]
pub fn run_child(command: &mut Command, limit: Duration) -> Result<ChildEnd> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("cannot start a bench child process")?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if start.elapsed() >= limit && !timed_out {
            timed_out = true;
            child.kill()?;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    Ok(ChildEnd {
        code: status.code(),
        timed_out,
        peak_rss_kb: None,
        stdout: joined(stdout),
        stderr: joined(stderr),
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn output_larger_than_a_pipe_does_not_block_the_child() {
        // 1 MiB on stdout: without the reader threads the child blocks at 64 KiB and is killed.
        let mut command = Command::new("sh");
        command.args([
            "-c",
            "head -c 1048576 /dev/zero | tr '\\0' x; echo done >&2",
        ]);
        let end = run_child(&mut command, Duration::from_secs(20)).unwrap();
        assert!(!end.timed_out);
        assert_eq!(end.code, Some(0));
        assert_eq!(end.stdout.len(), 1 << 20);
        assert_eq!(end.stderr, "done\n");
        assert!(end.peak_rss_kb.is_some_and(|kb| kb > 0));
    }

    #[test]
    fn a_child_past_the_limit_is_killed() {
        let mut command = Command::new("sleep");
        command.arg("30");
        let start = Instant::now();
        let end = run_child(&mut command, Duration::from_millis(200)).unwrap();
        assert!(end.timed_out);
        assert_eq!(end.code, None, "killed by a signal");
        assert!(start.elapsed() < Duration::from_secs(10));
    }
}
