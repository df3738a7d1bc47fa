//! Every job under control at every size: a count of any n stops at its time limit or at a
//! signal and keeps the pieces of its tasks in flight, and a count resumed from inside its tasks
//! gives the exact total. The waits are bounded so that a hang fails; none asserts a time.

use std::process::{Child, Command as StdCommand, Output, Stdio};
use std::time::{Duration, Instant};

use crate::util::{after_opening, run};
use nqueens_solver::instances::oeis;

/// Waits for `child` (reading its output as it comes) at most `limit`; a child still running
/// then is killed and the test fails.
pub fn wait_bounded(child: Child, limit: Duration, what: &str) -> Output {
    let pid = child.id() as libc::pid_t;
    let (finished, wait) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let late = wait.recv_timeout(limit) == Err(std::sync::mpsc::RecvTimeoutError::Timeout);
        if late {
            // SAFETY: kill(2) on the child, which is not reaped before this thread is joined
            // (wait_with_output returns only after it exits, and then `finished` is dropped).
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        late
    });
    let out = child.wait_with_output().unwrap();
    drop(finished);
    assert!(
        !watchdog.join().unwrap(),
        "{what} still ran after {limit:?}"
    );
    out
}

/// The binary with `args`, its output piped.
pub fn spawn(args: &[&str]) -> Child {
    StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Sends `signal` to `child`.
pub fn signal(child: &Child, signal: libc::c_int) {
    // SAFETY: kill(2) on our own unreaped child with a plain signal number.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
}

/// The position lines of a checkpoint: `(task, pieces)`.
fn positions(path: &std::path::Path) -> Vec<(u32, u64)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .filter_map(|line| {
            let mut words = line.split(' ');
            let id = words.next()?.parse().ok()?;
            let (_, pieces) = words.next()?.split_once(':')?;
            Some((id, pieces.parse().ok()?))
        })
        .collect()
}

#[test]
fn a_time_limit_ends_a_count_of_30_with_exit_3() {
    // The whole board, and a board with a blocked square (the counter under per-row masks,
    // whose tasks are a hundredth of the board each).
    for args in [
        &["count", "30", "--time-limit", "1"][..],
        &["count", "30", "--block", "1:1", "--time-limit", "1"],
    ] {
        let out = wait_bounded(spawn(args), Duration::from_secs(60), &args.join(" "));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(3), "{args:?}: {stderr}");
        assert!(
            stderr.ends_with("gave up: time limit reached (counter method)\n"),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn sigint_and_sigterm_end_a_count_of_30_and_keep_its_tasks_in_part() {
    let dir = tempfile::tempdir().unwrap();
    // The whole board, and a board with a blocked square (its own tasks and checkpoint).
    for (name, sig, board) in [
        ("SIGINT", libc::SIGINT, &["30"][..]),
        ("SIGTERM", libc::SIGTERM, &["30"]),
        ("SIGTERM-blocked", libc::SIGTERM, &["30", "--block", "1:1"]),
    ] {
        let checkpoint = dir.path().join(format!("{name}.ckpt"));
        let path = checkpoint.to_str().unwrap();
        let with = |more: &[&str]| -> Vec<String> {
            let args = ["count"].iter().chain(board).chain(more);
            args.map(|a| a.to_string()).collect()
        };
        let args = with(&["-j", "2", "--checkpoint", path]);
        let child = spawn(&args.iter().map(String::as_str).collect::<Vec<_>>());
        // Signal once the run has written its header and counted a while (a tenth of a second
        // is thousands of pieces a task at n = 30).
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::fs::metadata(&checkpoint).map_or(0, |m| m.len()) == 0
            && Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(200));
        signal(&child, sig);
        let out = wait_bounded(child, Duration::from_secs(60), name);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(130), "{name}: {stderr}");
        let stderr = after_opening(&stderr);
        let kept = positions(&checkpoint);
        assert!(!kept.is_empty(), "{name}: no task kept its pieces");
        let tasks = if board.len() == 1 { "3822562" } else { "tasks" };
        let said = format!(
            " tasks saved in {path}, and {} more in part — run the same command to resume\n",
            kept.len()
        );
        assert!(
            stderr.starts_with("interrupted: 0 of ") && stderr.ends_with(&said),
            "{name}: {stderr}"
        );
        assert!(stderr.contains(&format!(" of {tasks}")) || board.len() > 1);
        // The same command resumes those tasks from their pieces (here stopped again by a
        // time limit, further on, saying what it kept).
        let args = with(&["-j", "2", "--checkpoint", path, "--time-limit", "0.5"]);
        let (code, _, stderr) = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(code, 3, "{stderr}");
        let stderr = after_opening(&stderr);
        assert!(
            stderr.starts_with("gave up: time limit reached (counter method): 0 of ")
                && stderr.contains(&format!(" tasks saved in {path}, and "))
                && stderr.ends_with(" more in part — run the same command to resume\n"),
            "{name}: {stderr}"
        );
        let further = positions(&checkpoint);
        for (id, pieces) in kept {
            let last = further.iter().rev().find(|&&(task, _)| task == id);
            assert!(
                last.is_some_and(|&(_, now)| now > pieces),
                "{name}: task {id} did not go on from piece {pieces}: {further:?}"
            );
        }
    }
}

/// The shard JSON's numbers that do not depend on the run: everything but the time.
fn counted(json: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(json).expect("one line of JSON");
    let field = |name: &str| value[name].to_string();
    ["n", "tasks", "task_list", "subtotal", "unique", "nodes"]
        .map(field)
        .join(" ")
}

#[test]
fn a_count_stopped_inside_its_tasks_resumes_to_the_exact_total_node_for_node() {
    let whole = run(&["count", "16", "--shard", "1/1"]);
    assert_eq!(whole.0, 0, "{}", whole.2);
    let nodes: u64 = serde_json::from_str::<serde_json::Value>(&whole.1).unwrap()["nodes"]
        .as_u64()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("n16.ckpt");
    let path = checkpoint.to_str().unwrap();
    let (mut stops, mut in_part) = (0, 0);
    let resumed = loop {
        // Pieces of 9 rows (the tasks of n = 16 cut at row 7), and a budget of a sixth of the
        // count a run: every run stops inside some of its tasks.
        let out = StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"))
            .args(["count", "16", "--shard", "1/1", "--checkpoint", path])
            .env("NQUEENS_PIECE_ROWS", "9")
            .env("NQUEENS_NODE_LIMIT", (nodes / 6).to_string())
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        match out.status.code() {
            Some(0) => break stdout,
            Some(3) => {
                stops += 1;
                in_part += positions(&checkpoint).len();
            }
            code => panic!("{code:?}: {}", String::from_utf8_lossy(&out.stderr)),
        }
        assert!(stops < 60, "the count never finished");
    };
    assert!(stops >= 3, "{stops}");
    assert!(in_part > 0, "no run stopped inside a task");
    assert_eq!(counted(&resumed), counted(&whole.1));
    let total: u128 = serde_json::from_str::<serde_json::Value>(&resumed).unwrap()["subtotal"]
        .as_u64()
        .unwrap()
        .into();
    assert_eq!(total, oeis::total(16).unwrap());
}

/// A board with a fixed queen and blocked squares (no symmetry left), counted by the counter
/// under masks and stopped inside its tasks again and again by a node budget: each stop says
/// what it kept, and the resumed count equals the uninterrupted one and plain backtracking's.
#[test]
fn a_masked_count_stopped_inside_its_tasks_resumes_to_the_exact_total() {
    let board = [
        "count", "15", "--fix", "1:3", "--block", "8:8", "--block", "12:5",
    ];
    let with = |more: &[&str]| -> Vec<String> {
        board.iter().chain(more).map(|a| a.to_string()).collect()
    };
    let run_with = |more: &[&str]| {
        let args = with(more);
        run(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (code, whole, stderr) = run_with(&["--stats"]);
    assert_eq!(code, 0, "{stderr}");
    let nodes: u64 = stderr
        .split_whitespace()
        .find_map(|w| w.strip_prefix("nodes="))
        .and_then(|v| v.parse().ok())
        .expect("--stats names the nodes");
    let (code, backtracked, _) = run_with(&["--method", "backtrack"]);
    assert_eq!((code, &backtracked), (0, &whole));
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("masked.ckpt");
    let path = checkpoint.to_str().unwrap();
    let (mut stops, mut in_part) = (0, 0);
    let resumed = loop {
        // Pieces of 8 rows (the tasks cut at row 7), and a budget of a sixth of the count a
        // run.
        let out = StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"))
            .args(with(&["--checkpoint", path]))
            .env("NQUEENS_PIECE_ROWS", "8")
            .env("NQUEENS_NODE_LIMIT", (nodes / 6).to_string())
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        match out.status.code() {
            Some(0) => break String::from_utf8(out.stdout).unwrap(),
            Some(3) => {
                stops += 1;
                in_part += positions(&checkpoint).len();
                let stderr = after_opening(&stderr);
                assert!(
                    stderr.starts_with("gave up: node limit reached (counter method): ")
                        && stderr.contains(&format!(" tasks saved in {path}"))
                        && stderr.ends_with(" — run the same command to resume\n"),
                    "{stderr}"
                );
            }
            code => panic!("{code:?}: {stderr}"),
        }
        assert!(stops < 60, "the count never finished");
    };
    assert!(stops >= 3, "{stops}");
    assert!(in_part > 0, "no run stopped inside a task");
    assert_eq!(resumed, whole);
    // The checkpoint is this board's: another board, or the bare board, is refused.
    let (code, _, stderr) = run(&["count", "15", "--fix", "1:3", "--checkpoint", path]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("was written for another board (board "),
        "{stderr}"
    );
    let (code, _, stderr) = run(&["count", "15", "--checkpoint", path]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not the bare board"), "{stderr}");
}

/// The binary with `args`, output piped, in an address space of `bytes` (`ulimit -v`).
pub fn spawn_capped(args: &[&str], bytes: u64) -> Child {
    use std::os::unix::process::CommandExt;
    let mut command = StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"));
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe and touches only the child's own limits; the
    // struct lives for the call.
    unsafe {
        command.pre_exec(move || {
            let cap = libc::rlimit {
                rlim_cur: bytes as libc::rlim_t,
                rlim_max: bytes as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &cap) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    command.spawn().unwrap()
}

/// 4 GB of address space (`ulimit -v 4000000`).
const FOUR_GB: u64 = 4_000_000 * 1024;

#[test]
fn huge_boards_in_a_few_bytes_are_refused_in_one_line_or_answered_never_aborted() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let diagonal = file(
        "diagonal.param",
        "n = 4294967295\ndiags = [[4294967294, 1]]\n",
    );
    let repeated = file(
        "repeated.param",
        &format!(
            "n = 100000\ndiags = [{}[5, 1]]\n",
            "[5, 1], ".repeat(300_000)
        ),
    );
    // (The construction of any n, plain or from an instance file, streams: see
    // `huge::the_largest_construction_streams_in_constant_memory`.)
    let refused: [(&[&str], &str); 3] = [
        (
            &["solve", "4294967295", "--block", "1:1", "-f", "permutation"],
            "the local method needs about",
        ),
        (
            &["solve", "3000000000", "-m", "local", "-f", "permutation"],
            "the local method needs about",
        ),
        (
            &["solve", "--instance", &diagonal, "-f", "coords"],
            "line 2, column 1: the excluded diagonals block 4294967295 squares of the 4294967295×4294967295 board",
        ),
    ];
    for (args, message) in refused {
        let out = wait_bounded(
            spawn_capped(args, FOUR_GB),
            Duration::from_secs(60),
            &args.join(" "),
        );
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: ")
                && stderr.contains(message)
                && stderr.lines().count() == 1,
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // A line repeated 300,000 times is one line: a board with a diagonal blocked, solved.
    let args = ["solve", "--instance", &repeated, "-f", "permutation"];
    let out = wait_bounded(
        spawn_capped(&args, FOUR_GB),
        Duration::from_secs(60),
        "repeated",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let columns = crate::util::parse_permutation(std::str::from_utf8(&out.stdout).unwrap());
    assert_eq!(columns.len(), 100_000);
    assert!(
        columns
            .iter()
            .enumerate()
            .all(|(row, &col)| row as u32 + col != 5)
    );
    // A blocked square on a board of 4·10⁹ rows: written at once.
    let args = ["gen-blocked", "4294967295", "--blocks", "1"];
    let out = wait_bounded(
        spawn_capped(&args, FOUR_GB),
        Duration::from_secs(60),
        "gen-blocked",
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with('!')).count(),
        1,
        "{stdout}"
    );
}

#[test]
fn ctrl_c_stops_huge_solves_while_they_search_check_or_write() {
    // 10⁸ rows: local search takes seconds to start, the construction seconds to check and
    // write its 900 MB of text; SIGINT a moment in ends either within a bounded wait.
    for method in ["local", "construct"] {
        let child = spawn(&["solve", "100000000", "-m", method, "-f", "permutation"]);
        std::thread::sleep(Duration::from_millis(300));
        signal(&child, libc::SIGINT);
        let out = wait_bounded(child, Duration::from_secs(60), method);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(130), "{method}: {stderr}");
        assert!(
            stderr.starts_with("interrupted after "),
            "{method}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{method}: {stderr}");
    }
}
