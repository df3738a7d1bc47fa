//! Every job under control at every size: a count of any n stops at its time limit or at a
//! signal and keeps the pieces of its tasks in flight, and a count resumed from inside its tasks
//! gives the exact total. The waits are bounded so that a hang fails; none asserts a time.

use std::process::{Child, Command as StdCommand, Output, Stdio};
use std::time::{Duration, Instant};

use crate::util::run;
use nqueens::instances::oeis;

/// Waits for `child` at most `limit`; a child still running then is killed and the test fails.
pub fn wait_bounded(mut child: Child, limit: Duration, what: &str) -> Output {
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} still ran after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
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
    let child = spawn(&["count", "30", "--time-limit", "1"]);
    let out = wait_bounded(child, Duration::from_secs(60), "count 30 --time-limit 1");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert_eq!(stderr, "gave up: time limit reached (counter method)\n");
    assert!(out.stdout.is_empty());
}

#[test]
fn sigint_and_sigterm_end_a_count_of_30_and_keep_its_tasks_in_part() {
    let dir = tempfile::tempdir().unwrap();
    for (name, sig) in [("SIGINT", libc::SIGINT), ("SIGTERM", libc::SIGTERM)] {
        let checkpoint = dir.path().join(format!("{name}.ckpt"));
        let path = checkpoint.to_str().unwrap();
        let child = spawn(&["count", "30", "-j", "2", "--checkpoint", path]);
        // Signal once the run has written its header and counted a while.
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::fs::metadata(&checkpoint).map_or(0, |m| m.len()) == 0
            && Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(500));
        signal(&child, sig);
        let out = wait_bounded(child, Duration::from_secs(60), name);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(130), "{name}: {stderr}");
        let kept = positions(&checkpoint);
        assert!(!kept.is_empty(), "{name}: no task kept its pieces");
        assert_eq!(
            stderr,
            format!(
                "interrupted: 0 of 3822562 tasks saved in {path}, and {} more in part — run the same command to resume\n",
                kept.len()
            ),
            "{name}"
        );
        // The same command resumes those tasks from their pieces (here stopped again by a
        // time limit, further on).
        let (code, _, stderr) = run(&[
            "count",
            "30",
            "-j",
            "2",
            "--checkpoint",
            path,
            "--time-limit",
            "1",
        ]);
        assert_eq!(code, 3, "{stderr}");
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
