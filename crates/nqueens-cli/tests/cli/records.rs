//! A record run as people run one: `status` of a checkpoint or a shard result, the "new
//! checkpoint" and "resuming" lines, the progress line after a resume, `audit`, `count
//! --estimate`, and a merge that lists every problem it finds.

use std::process::Command as StdCommand;

use crate::util::{assert_one_line_error, run, write_temp};
use nqueens_solver::engines::counter::{TaskId, TaskResult};
use nqueens_solver::instances::oeis;
use nqueens_solver::runs::checkpoint::record_line;

/// Runs the binary with extra environment variables; returns (exit code, stdout, stderr).
fn run_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The result lines of a checkpoint: (id, total, unique, nodes).
fn results(path: &str) -> Vec<(u32, u64, u64, u64)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(' ').collect::<Vec<_>>())
        .filter(|f| f.len() == 5)
        .map(|f| {
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

/// The number after `before` in `text`, up to the next space, comma or `%`.
fn number_after(text: &str, before: &str) -> f64 {
    let at = text
        .find(before)
        .unwrap_or_else(|| panic!("{before:?} in {text}"))
        + before.len();
    let word: String = text[at..]
        .chars()
        .take_while(|c| !matches!(c, ' ' | ',' | '%' | ')'))
        .collect();
    word.parse()
        .unwrap_or_else(|_| panic!("{word:?} after {before:?} in {text}"))
}

fn shard_json(n: u32) -> serde_json::Value {
    let (code, stdout, stderr) = run(&["count", &n.to_string(), "--shard", "1/1"]);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

#[test]
fn status_shows_a_checkpoint_stopped_midway_and_merge_says_what_to_run() {
    let whole = shard_json(14);
    let (tasks, nodes) = (
        whole["tasks"].as_u64().unwrap(),
        whole["nodes"].as_u64().unwrap(),
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p14.ckpt").display().to_string();
    // Stopped by a node budget of half the count, inside some of its tasks.
    let half = (nodes / 2).to_string();
    let env = [
        ("NQUEENS_PIECE_ROWS", "7"),
        ("NQUEENS_NODE_LIMIT", half.as_str()),
    ];
    let (code, _, stderr) = run_env(&["count", "14", "-j", "2", "--checkpoint", &path], &env);
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "new checkpoint {path}: the count starts from its beginning\n"
        )),
        "{stderr}"
    );
    let (code, status, stderr) = run(&["status", &path]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        status.starts_with(&format!(
            "{path}: counter checkpoint (format v3) of n = 14, the whole board, shard 1/1\n"
        )),
        "{status}"
    );
    let finished = results(&path);
    let done = number_after(&status, "tasks: ") as usize;
    let in_part = number_after(&status, " done, ") as u64;
    let left = number_after(&status, " in part, ") as u64;
    assert_eq!(done, finished.len(), "{status}");
    assert_eq!(done as u64 + in_part + left, tasks, "{status}");
    assert!(status.contains(&format!(", of {tasks}\n")), "{status}");
    let share = number_after(&status, "work done: ");
    assert!((25.0..75.0).contains(&share), "{status}");
    let total: u64 = finished.iter().map(|r| r.1).sum();
    assert!(
        status.contains(&format!("partial total: {total} solutions")),
        "{status}"
    );
    assert!(status.contains("lock: free"), "{status}");
    // Merge names what the file is and what to run, not its length.
    assert_one_line_error(
        &["merge", &path],
        2,
        &format!("{path}: a counter checkpoint of n = 14, shard 1/1, not a shard result"),
    );
    let (_, _, stderr) = run(&["merge", &path]);
    assert!(
        stderr.contains(&format!("`nqueens status {path}`")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("`nqueens count 14 --checkpoint {path}`")),
        "{stderr}"
    );
    assert!(!stderr.contains("4096"), "{stderr}");
    // The resume says where it starts, over the whole count.
    let (code, stdout, stderr) = run(&["count", "14", "--checkpoint", &path]);
    assert_eq!(
        (code, stdout),
        (0, format!("{}\n", oeis::total(14).unwrap()))
    );
    assert!(
        stderr.starts_with(&format!(
            "resuming from {path}: {done} of {tasks} tasks done"
        )),
        "{stderr}"
    );
    let (_, status, _) = run(&["status", &path]);
    assert!(
        status.contains(&format!("tasks: {tasks} done, 0 in part, 0 left")),
        "{status}"
    );
    assert!(
        status.contains(&format!("complete: {} solutions", oeis::total(14).unwrap())),
        "{status}"
    );
    // A mistyped path starts a new count, and says so.
    let typo = dir.path().join("p14.ckpy").display().to_string();
    let (code, _, stderr) = run(&["count", "12", "--checkpoint", &typo]);
    assert_eq!(code, 0);
    assert_eq!(
        stderr,
        format!("new checkpoint {typo}: the count starts from its beginning\n")
    );
    // A shard result.
    let (code, stdout, _) = run(&["count", "12", "--shard", "2/3"]);
    assert_eq!(code, 0);
    let shard = write_temp(&dir, "s2.json", &stdout);
    let (code, status, _) = run(&["status", &shard]);
    assert_eq!(code, 0);
    assert!(
        status.starts_with(&format!("{shard}: shard result 2/3 of n = 12")),
        "{status}"
    );
    assert!(status.contains("check value: intact"), "{status}");
    let other = write_temp(&dir, "notes.txt", "my notes\n");
    assert_one_line_error(
        &["status", &other],
        2,
        "neither a counter checkpoint nor a shard result",
    );
}

#[test]
fn the_progress_line_after_a_resume_counts_the_whole_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p17.ckpt").display().to_string();
    let args = ["count", "17", "-j", "1", "--checkpoint", &path];
    let (code, _, stderr) = run(&[&args[..], &["--time-limit", "0.3"]].concat());
    assert_eq!(code, 3, "{stderr}");
    let saved = results(&path).len();
    // "K of T tasks saved in F": T is the whole count's task list.
    let (_, after) = stderr
        .split_once(&format!("{saved} of "))
        .unwrap_or_else(|| panic!("no '{saved} of' in {stderr}"));
    let tasks: usize = after.split(' ').next().unwrap().parse().unwrap();
    assert!(
        stderr.contains(&format!("{saved} of {tasks} tasks saved")),
        "{stderr}"
    );
    // The resumed run draws a line a second into a pipe; a limit ends it before the count's
    // end (n = 17 on one thread takes many seconds), so the test costs the same on any machine.
    let (code, _, stderr) = run_env(
        &[&args[..], &["--progress", "--time-limit", "2.5"]].concat(),
        &[("NQUEENS_PROGRESS_DELAY_MS", "0")],
    );
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "resuming from {path}: {saved} of {tasks} tasks done"
        )),
        "{stderr}"
    );
    // The progress lines: "DONE/TASKS tasks ...".
    let lines: Vec<(usize, &str)> = stderr
        .lines()
        .filter_map(|l| {
            let (done, rest) = l.split_once('/')?;
            Some((done.parse().ok()?, rest))
        })
        .collect();
    assert!(!lines.is_empty(), "no progress line: {stderr}");
    for (done, rest) in lines {
        let line = format!("{done}/{rest}");
        assert!(rest.starts_with(&format!("{tasks} tasks")), "{line}");
        assert!(done >= saved, "{line}: {saved} were done before");
    }
}

#[test]
fn audit_agrees_on_a_finished_count_and_names_an_edited_task() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p13.ckpt").display().to_string();
    let (code, stdout, _) = run(&["count", "13", "--checkpoint", &path]);
    assert_eq!((code, stdout.as_str()), (0, "73712\n"));
    let (code, stdout, stderr) = run(&["audit", &path, "--sample", "20", "--seed", "3"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout.lines().filter(|l| l.ends_with(": agrees")).count(),
        20,
        "{stdout}"
    );
    assert!(
        stderr.starts_with("all 20 recounted tasks agree"),
        "{stderr}"
    );
    // One task's total changed, its check value recomputed: the file still loads.
    let text = std::fs::read_to_string(&path).unwrap();
    let fingerprint = text
        .split_whitespace()
        .find_map(|w| w.strip_prefix("task-list="))
        .unwrap()
        .parse()
        .unwrap();
    let &(id, total, unique, nodes) = results(&path).iter().find(|r| r.1 > 8).unwrap();
    let edited = TaskResult {
        total: total - 1,
        unique,
        nodes,
    };
    let old = record_line(
        fingerprint,
        TaskId(id),
        &TaskResult {
            total,
            unique,
            nodes,
        },
    );
    let new = record_line(fingerprint, TaskId(id), &edited);
    assert!(text.contains(&old));
    std::fs::write(&path, text.replace(&old, &new)).unwrap();
    let (code, _, stderr) = run(&["status", &path]);
    assert_eq!(code, 0, "the edited file loads: {stderr}");
    for choice in [
        vec!["--sample", "100000"],
        vec!["--tasks", &format!("0,{id}")],
    ] {
        let args = [&["audit", path.as_str()][..], &choice[..]].concat();
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 1, "{args:?}: {stderr}");
        assert!(
            stdout.contains(&format!("task {id}: recorded {} ({unique} unique), recounted {total} ({unique} unique): DISAGREES", total - 1)),
            "{stdout}"
        );
        assert_eq!(stdout.matches("DISAGREES").count(), 1, "{stdout}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!("disagrees with the file: task {id} (")),
            "{stderr}"
        );
    }
    assert_one_line_error(
        &["audit", &path, "--tasks", "99999"],
        2,
        "task 99999 does not exist",
    );
    // The count resumed from the edited file is caught by the published total.
    let (code, stdout, _) = run(&["count", "13", "--checkpoint", &path]);
    assert_eq!((code, stdout.as_str()), (1, ""));
}

#[test]
fn merge_lists_the_duplicate_and_the_missing_shard() {
    let dir = tempfile::tempdir().unwrap();
    let s1 = dir.path().join("s1.json").display().to_string();
    let s2 = dir.path().join("s2.json").display().to_string();
    for (shard, file) in [("1/3", &s1), ("2/3", &s2)] {
        let (code, _, stderr) = run(&["count", "12", "--shard", shard, "-o", file]);
        assert_eq!(code, 0, "{stderr}");
    }
    assert_one_line_error(
        &["merge", &s1, &s1, &s2],
        2,
        &format!("2 problems: shard 1/3 appears twice: {s1} and {s1}; missing shard 3/3"),
    );
}

#[test]
fn the_estimate_brackets_the_work_the_count_does() {
    let nodes = shard_json(13)["nodes"].as_u64().unwrap() as f64;
    let (code, stdout, stderr) = run(&["count", "13", "--estimate", "-j", "2"]);
    assert_eq!(code, 0, "{stderr}");
    let about = number_after(&stdout, "about ");
    // "(LOW to HIGH, three standard errors)"
    let inside = stdout.split_once('(').unwrap().1.split_once(',').unwrap().0;
    let (low, high) = inside.split_once(" to ").unwrap();
    let (low, high): (f64, f64) = (low.parse().unwrap(), high.parse().unwrap());
    assert!(low <= nodes && nodes <= high, "{nodes} outside: {stdout}");
    assert!(high - low <= 0.4 * about, "{stdout}");
    assert!(
        stdout.contains("estimated time on 2 thread(s): "),
        "{stdout}"
    );
    assert_one_line_error(
        &["count", "13", "--estimate", "--fix", "1:2"],
        2,
        "--estimate foretells counts of the whole board only",
    );
}

#[test]
fn status_names_the_running_process_that_holds_the_lock() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("p20.ckpt");
    let path = checkpoint.display().to_string();
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(["count", "20", "-j", "1", "--checkpoint", &path])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The header carries the run's id once the run has taken the lock.
    let mine = format!("pid={:010}", child.id());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !std::fs::read_to_string(&checkpoint).is_ok_and(|t| t.contains(&mine))
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let (code, status, stderr) = run(&["status", &path]);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(code, 0, "{stderr}");
    assert!(
        status.contains(&format!("lock: held by process {}, running\n", child.id())),
        "{status}"
    );
    let tasks = nqueens_solver::engines::counter::TaskList::new(20).len();
    assert!(status.contains(&format!(" left, of {tasks}\n")), "{status}");
    // Killed, the process holds nothing: the lock is free, the last run named.
    let (_, status, _) = run(&["status", &path]);
    assert!(
        status.contains(&format!(
            "lock: free (the last run was process {})",
            child.id()
        )),
        "{status}"
    );
}

#[test]
fn status_of_a_board_with_fixed_queens_and_of_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.ckpt").display().to_string();
    let args = [
        "count",
        "12",
        "--fix",
        "1:3",
        "--block",
        "5:5",
        "--checkpoint",
        &path,
    ];
    let (code, stdout, stderr) = run(&args);
    assert_eq!(code, 0, "{stderr}");
    let total = stdout.trim();
    let (code, status, stderr) = run(&["status", &path]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        status.contains("a board with fixed queens or blocked squares (board "),
        "{status}"
    );
    // Finished: all the work is done, whatever the model could say.
    assert!(
        status.contains("work done: 100% (every task finished)"),
        "{status}"
    );
    assert!(
        status.contains(&format!("complete: {total} solutions")),
        "{status}"
    );
    // Audit recounts whole boards only, and says so.
    assert_one_line_error(
        &["audit", &path],
        2,
        "recounts checkpoints of the whole board",
    );
    // A checkpoint is read from its file, not a pipe.
    let text = std::fs::read_to_string(&path).unwrap();
    let (code, stdout, stderr) = crate::util::run_with(&["status", "-"], &text);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        "error: standard input: a checkpoint is read from its file (name it), not from standard input\n"
    );
}
