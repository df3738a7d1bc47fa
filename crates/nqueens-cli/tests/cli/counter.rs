//! `nqueens count` with the counter: `auto`, checkpoints (killed and resumed), shards and
//! `nqueens merge`.

use std::path::Path;
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use crate::util::{assert_one_line_error, run};
use nqueens::instances::oeis;

#[test]
fn auto_counts_with_the_counter_and_falls_back_for_fixed_queens() {
    let (code, stdout, stderr) = run(&["count", "12", "--stats"]);
    assert_eq!((code, stdout.as_str()), (0, "14200\n"));
    assert!(stderr.starts_with("method=counter "), "{stderr}");
    let (code, stdout, _) = run(&["count", "12", "--unique", "-j", "3"]);
    assert_eq!((code, stdout.as_str()), (0, "1787\n"));
    // A completion breaks the symmetry: auto runs backtrack, and says so.
    let (code, stdout, stderr) = run(&["count", "8", "--fix", "1:1", "--stats"]);
    assert_eq!((code, stdout.as_str()), (0, "4\n"));
    assert!(stderr.starts_with("method=backtrack "), "{stderr}");
    // Asking the counter itself for one is a clear error.
    assert_one_line_error(
        &["count", "8", "--fix", "1:1", "--method", "counter"],
        2,
        "the counter method cannot count solutions: fixed queens break the board symmetry it relies on; use backtrack",
    );
    assert_one_line_error(&["solve", "8", "--method", "counter"], 2, "it only counts");
    // The baseline is still there.
    let (code, stdout, stderr) = run(&["count", "10", "--method", "backtrack", "--stats"]);
    assert_eq!((code, stdout.as_str()), (0, "724\n"));
    assert!(stderr.starts_with("method=backtrack "), "{stderr}");
}

#[test]
fn shards_print_json_and_merge_to_the_total() {
    let dir = tempfile::tempdir().unwrap();
    let n = 13;
    let mut files = Vec::new();
    for i in 1..=3 {
        let (code, stdout, _) = run(&["count", "13", "--shard", &format!("{i}/3")]);
        assert_eq!(code, 0);
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(json["n"], n);
        assert_eq!(json["shard"], format!("{i}/3"));
        for key in ["tasks", "subtotal", "unique", "elapsed"] {
            assert!(json[key].is_number(), "{key} in {stdout}");
        }
        let path = dir.path().join(format!("s{i}.json"));
        std::fs::write(&path, stdout).unwrap();
        files.push(path.display().to_string());
    }
    let args = |extra: &[&str], files: &[String]| {
        let mut v = vec!["merge".to_string()];
        v.extend(files.iter().cloned());
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let all = args(&[], &files);
    let (code, stdout, _) = run(&all.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        (code, stdout),
        (0, format!("{}\n", oeis::total(n).unwrap()))
    );
    let unique = args(&["--unique"], &files);
    let (code, stdout, _) = run(&unique.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        (code, stdout),
        (0, format!("{}\n", oeis::unique(n).unwrap()))
    );

    let missing = args(&[], &files[..2]);
    assert_one_line_error(
        &missing.iter().map(String::as_str).collect::<Vec<_>>(),
        2,
        "missing shard 3/3",
    );
    let twice = args(&[], &[files[0].clone(), files[0].clone(), files[1].clone()]);
    assert_one_line_error(
        &twice.iter().map(String::as_str).collect::<Vec<_>>(),
        2,
        "shard 1/3 appears twice",
    );
    assert_one_line_error(
        &["count", "13", "--shard", "4/3"],
        2,
        "invalid shard '4/3': expected I/K with 1 ≤ I ≤ K",
    );
    assert_one_line_error(
        &["count", "13", "--shard", "1/3", "--method", "backtrack"],
        2,
        "--checkpoint and --shard need the counter method, not backtrack",
    );
}

/// Records (complete lines after the header) in a checkpoint file.
fn records(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.matches('\n').count().saturating_sub(1))
        .unwrap_or(0)
}

#[test]
fn a_killed_count_resumes_from_its_checkpoint() {
    let n = 16;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("count16.ckpt");
    let path_text = path.display().to_string();
    let args = ["count", "16", "-j", "1", "--checkpoint", path_text.as_str()];
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once a good part of the work is on file (or give up waiting and kill it anyway).
    let deadline = Instant::now() + Duration::from_secs(30);
    while records(&path) < 1000 && Instant::now() < deadline {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let saved = records(&path);
    let (code, stdout, stderr) = run(&[&args[..], &["--stats"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, format!("{}\n", oeis::total(n).unwrap()));
    // The second run only did what the first left undone.
    let tasks_run: usize = stderr
        .split_whitespace()
        .find_map(|w| w.strip_prefix("tasks="))
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no tasks= in {stderr}"));
    assert_eq!(tasks_run + saved, records(&path), "{stderr}");
    // Resuming a finished count redoes nothing and gives the same answer, unique included.
    let (code, stdout, stderr) = run(&[&args[..], &["--unique", "--stats"]].concat());
    assert_eq!(
        (code, stdout),
        (0, format!("{}\n", oeis::unique(n).unwrap()))
    );
    assert!(stderr.contains(" tasks=0"), "{stderr}");
}

#[test]
fn a_foreign_checkpoint_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.ckpt");
    let p = path.display().to_string();
    let (code, stdout, _) = run(&["count", "9", "--checkpoint", &p]);
    assert_eq!((code, stdout.as_str()), (0, "352\n"));
    assert_one_line_error(
        &["count", "10", "--checkpoint", &p],
        2,
        &format!("checkpoint {p} is for n = 9, not n = 10"),
    );
    assert_one_line_error(
        &["count", "9", "--shard", "1/2", "--checkpoint", &p],
        2,
        &format!("checkpoint {p} holds shard 1/1, not shard 1/2"),
    );
    let other = dir.path().join("notes.txt");
    std::fs::write(&other, "my notes\nsecond line\n").unwrap();
    let o = other.display().to_string();
    assert_one_line_error(
        &["count", "9", "--checkpoint", &o],
        2,
        "line 1: not an nqueens counter checkpoint",
    );
    assert_eq!(
        std::fs::read_to_string(&other).unwrap(),
        "my notes\nsecond line\n"
    );
    // A checkpoint that cannot be created: the path and the system's reason, once each.
    let missing = dir.path().join("no-such-dir").join("c.ckpt");
    let m = missing.display().to_string();
    let (code, stdout, stderr) = run(&["count", "9", "--checkpoint", &m]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        format!("error: {m}: No such file or directory (os error 2)\n")
    );
}

#[test]
fn progress_is_silent_unless_asked_for_off_a_terminal() {
    // Quick runs print nothing on stderr either way; the flag is accepted.
    let (code, stdout, stderr) = run(&["count", "10", "--progress"]);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "724\n", ""));
    let (code, _, stderr) = run(&["count", "10"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
}
