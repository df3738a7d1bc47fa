//! `nqueens count` with the counter: `auto`, checkpoints (killed and resumed), shards and
//! `nqueens merge`.

use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use crate::util::{after_opening, assert_one_line_error, records, run, write_temp};
use nqueens_solver::instances::oeis;

#[test]
fn auto_counts_with_the_counter_with_or_without_fixed_queens() {
    let (code, stdout, stderr) = run(&["count", "12", "--stats"]);
    assert_eq!((code, stdout.as_str()), (0, "14200\n"));
    assert!(stderr.starts_with("method=counter "), "{stderr}");
    let (code, stdout, _) = run(&["count", "12", "--unique", "-j", "3"]);
    assert_eq!((code, stdout.as_str()), (0, "1787\n"));
    // A completion breaks the symmetry: auto still runs the counter, under per-row masks, and
    // agrees with backtracking.
    let (code, stdout, stderr) = run(&["count", "8", "--fix", "1:1", "--stats"]);
    assert_eq!((code, stdout.as_str()), (0, "4\n"));
    assert!(stderr.starts_with("method=counter "), "{stderr}");
    for extra in [&[][..], &["--unique"][..]] {
        let args = [
            &["count", "13", "--fix", "2:5", "--block", "7:7"][..],
            extra,
        ]
        .concat();
        let by_counter = run(&[&args[..], &["-m", "counter"]].concat());
        let by_backtrack = run(&[&args[..], &["-m", "backtrack"]].concat());
        assert_eq!(by_counter.0, 0, "{}", by_counter.2);
        assert_eq!(by_counter.1, by_backtrack.1, "{args:?}");
    }
    // Shards are the whole board's: a completion is refused with them (a checkpoint takes it).
    assert_one_line_error(
        &["count", "8", "--fix", "1:1", "--shard", "1/2"],
        2,
        "--shard splits whole boards only",
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

#[test]
fn a_killed_count_resumes_from_its_checkpoint() {
    // n = 17: long enough (about 2 s on one thread) that the kill lands mid-count.
    let n = 17;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("count17.ckpt");
    let path_text = path.display().to_string();
    let args = ["count", "17", "-j", "1", "--checkpoint", path_text.as_str()];
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
    assert!(tasks_run > 0, "the kill came after the count had finished");
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

/// A tiny deterministic generator (an LCG), for positions and byte values.
fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

/// A finished count's checkpoint, written by the binary: (path, contents).
fn finished_checkpoint(dir: &tempfile::TempDir, n: u32) -> (String, Vec<u8>) {
    let path = dir.path().join(format!("n{n}.ckpt")).display().to_string();
    let (code, stdout, stderr) = run(&["count", &n.to_string(), "--checkpoint", &path]);
    assert_eq!(
        (code, stdout),
        (0, format!("{}\n", oeis::total(n).unwrap())),
        "{stderr}"
    );
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

/// Exit 0 with the published count, or a one-line error (exit 1 or 2) and nothing on stdout:
/// never a wrong number. Returns the exit code and stderr.
fn right_or_refused(args: &[&str], right: &str) -> (i32, String) {
    let (code, stdout, stderr) = run(args);
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    if code == 0 {
        assert_eq!(stdout, right, "{args:?}: a wrong count with exit 0");
    } else {
        assert!(matches!(code, 1 | 2), "{args:?}: exit {code}: {stderr}");
        assert_eq!(stdout, "", "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    }
    (code, stderr)
}

#[test]
fn random_byte_corruptions_of_a_real_checkpoint_never_resume_to_a_wrong_count() {
    // Before check values, 7 of these 300 corruptions resumed to a wrong count with exit 0
    // (a digit of a record's total changed into another digit, say).
    let n = 12;
    let dir = tempfile::tempdir().unwrap();
    let (_, bytes) = finished_checkpoint(&dir, n);
    let right = format!("{}\n", oeis::total(n).unwrap());
    let path = dir.path().join("flipped.ckpt").display().to_string();
    let header = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
    let digits: Vec<usize> = (header..bytes.len())
        .filter(|&i| bytes[i].is_ascii_digit())
        .collect();
    let mut state = 300;
    let mut caught = 0;
    for case in 0..300 {
        let mut damaged = bytes.clone();
        let at = if case % 2 == 0 {
            // Any byte, any new value.
            let at = next(&mut state) as usize % bytes.len();
            damaged[at] ^= 1 + (next(&mut state) % 255) as u8;
            at
        } else {
            // A digit of a record into another digit: still a well-formed record.
            let at = digits[next(&mut state) as usize % digits.len()];
            damaged[at] = b'0' + ((damaged[at] - b'0') + 1 + (next(&mut state) % 9) as u8) % 10;
            at
        };
        std::fs::write(&path, &damaged).unwrap();
        let (code, stderr) = right_or_refused(&["count", "12", "--checkpoint", &path], &right);
        if code != 0 && at >= header {
            assert!(
                stderr.contains(&format!("checkpoint {path} line ")),
                "{stderr}"
            );
            caught += 1;
        }
    }
    assert!(caught > 250, "{caught}");
}

#[test]
fn edited_and_truncated_checkpoints_are_refused_or_recounted() {
    let n = 10;
    let dir = tempfile::tempdir().unwrap();
    let (path, bytes) = finished_checkpoint(&dir, n);
    let text = String::from_utf8(bytes.clone()).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // A record's total edited by hand (to 10^30, or by one) fails its check value: the error
    // names the file and the line.
    for edit in ["1000000000000000000000000000000", "1"] {
        let mut fields: Vec<String> = lines[5].split(' ').map(str::to_string).collect();
        fields[1] = edit.to_string();
        let mut edited = lines.clone();
        edited[5] = fields.join(" ");
        std::fs::write(&path, edited.join("\n") + "\n").unwrap();
        assert_one_line_error(
            &["count", "10", "--checkpoint", &path],
            2,
            &format!("checkpoint {path} line 6: "),
        );
    }
    // Cut anywhere: the torn tail is dropped and recounted.
    let mut state = 7;
    for _ in 0..12 {
        let cut = next(&mut state) as usize % bytes.len();
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let (code, stdout, stderr) = run(&["count", "10", "--checkpoint", &path]);
        assert_eq!((code, stdout.as_str()), (0, "724\n"), "cut {cut}: {stderr}");
    }
    // A record rewritten with a fresh check value (a forgery, or a faulty machine) gets past
    // the check values but not the published count: exit 1, no number printed.
    let fingerprint = nqueens_solver::engines::counter::TaskList::new(n).fingerprint();
    let numbers = |line: &str| -> Vec<u64> {
        line.split(' ')
            .take(4)
            .map(|x| x.parse().unwrap())
            .collect()
    };
    // A record that stays plausible (total ≤ 8 · unique) with 2 more solutions.
    let victim = (1..lines.len())
        .find(|&i| {
            let f = numbers(&lines[i]);
            f[2] > 0 && f[1] + 2 <= 8 * f[2]
        })
        .unwrap();
    let f = numbers(&lines[victim]);
    lines[victim] = nqueens_solver::runs::checkpoint::record_line(
        fingerprint,
        nqueens_solver::engines::counter::TaskId(f[0] as u32),
        &nqueens_solver::engines::counter::TaskResult {
            total: f[1] + 2,
            unique: f[2],
            nodes: f[3],
        },
    )
    .trim_end()
    .to_string();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    for unique in [false, true] {
        let mut args = vec!["count", "10", "--checkpoint", &path];
        if unique {
            args.push("--unique");
        }
        // The line saying where the run resumes, then the error.
        let (code, stdout, stderr) = run(&args);
        assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
        let error = after_opening(&stderr);
        assert!(error.starts_with("error: the count of n = 10 came out as 726 (92 up to symmetry), but the published count is 724 (92 up to symmetry) (OEIS A000170 and A002562); a damaged checkpoint or a hardware fault"), "{stderr}");
        assert_eq!(error.lines().count(), 1, "{stderr}");
    }
}

#[test]
fn an_old_format_checkpoint_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (path, bytes) = finished_checkpoint(&dir, 9);
    let text = String::from_utf8(bytes)
        .unwrap()
        .replacen(" v3 ", " v1 ", 1);
    std::fs::write(&path, &text).unwrap();
    assert_one_line_error(
        &["count", "9", "--checkpoint", &path],
        2,
        &format!(
            "checkpoint {path} was written in checkpoint format v1; this nqueens reads formats v2 and v3 only"
        ),
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn a_second_run_on_a_checkpoint_in_use_names_the_holder_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("busy.ckpt");
    let p = path.display().to_string();
    let mut first = StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(["count", "17", "-j", "1", "--checkpoint", &p])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !std::fs::read(&path).is_ok_and(|b| b.contains(&b'\n')) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let (code, stdout, stderr) = run(&["count", "17", "--checkpoint", &p]);
    let still_running = first.try_wait().unwrap().is_none();
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(still_running, "the first run ended too soon for the test");
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "error: checkpoint {p} is in use by process {}: two runs on one checkpoint would ruin it\n",
            first.id()
        )
    );
    // The first run's records are intact: resuming finishes the count.
    let (code, stdout, stderr) = run(&["count", "17", "--checkpoint", &p]);
    assert_eq!(
        (code, stdout),
        (0, format!("{}\n", oeis::total(17).unwrap())),
        "{stderr}"
    );
}

#[test]
fn special_files_and_the_output_as_checkpoint_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let status = StdCommand::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    let f = fifo.display().to_string();
    // Before, a FIFO hung the run and /dev/zero was read until memory ran out.
    let out = crate::util::nqueens()
        .args(["count", "9", "--checkpoint", &f])
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!("error: checkpoint {f} is a FIFO, not a regular file\n")
    );
    assert_one_line_error(
        &["count", "9", "--checkpoint", "/dev/zero"],
        2,
        "checkpoint /dev/zero is a device, not a regular file",
    );
    let d = dir.path().display().to_string();
    assert_one_line_error(
        &["count", "9", "--checkpoint", &d],
        2,
        "is a directory, not a regular file",
    );
    // -o the checkpoint itself, directly or through a link, before or after it exists.
    let ckpt = dir.path().join("c.ckpt").display().to_string();
    assert_one_line_error(
        &["count", "9", "--checkpoint", &ckpt, "-o", &ckpt],
        2,
        &format!("--output {ckpt} is the checkpoint"),
    );
    let (code, _, _) = run(&["count", "9", "--checkpoint", &ckpt]);
    assert_eq!(code, 0);
    let before = std::fs::read(&ckpt).unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&ckpt, &link).unwrap();
    let l = link.display().to_string();
    assert_one_line_error(
        &["count", "9", "--checkpoint", &ckpt, "-o", &l],
        2,
        "is the checkpoint",
    );
    assert_eq!(std::fs::read(&ckpt).unwrap(), before);
}

/// The three shard files of a count of 10, written by the binary.
fn shard_files(dir: &tempfile::TempDir) -> Vec<String> {
    (1..=3)
        .map(|i| {
            let (code, stdout, _) = run(&["count", "10", "--shard", &format!("{i}/3")]);
            assert_eq!(code, 0);
            write_temp(dir, &format!("s{i}.json"), &stdout)
        })
        .collect()
}

#[test]
fn damaged_edited_and_forged_shard_files_never_merge_to_a_wrong_count() {
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(&dir);
    let merge = |files: &[String], extra: &[&str]| {
        let mut args = vec!["merge"];
        args.extend(files.iter().map(String::as_str));
        args.extend(extra);
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let original = std::fs::read_to_string(&files[1]).unwrap();
    // A subtotal edited to 10^30 (before: merged and printed).
    let edited = original.replacen(
        "\"subtotal\":",
        "\"subtotal\":1000000000000000000000000000000",
        1,
    );
    std::fs::write(&files[1], &edited).unwrap();
    let args = merge(&files, &[]);
    assert_one_line_error(
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        2,
        &format!("{}: fails its check value", files[1]),
    );
    // Random byte damage.
    let mut state = 11;
    for _ in 0..100 {
        let mut bytes = original.clone().into_bytes();
        let at = next(&mut state) as usize % bytes.len();
        bytes[at] ^= 1 + (next(&mut state) % 255) as u8;
        std::fs::write(&files[1], &bytes).unwrap();
        let args = merge(&files, &[]);
        right_or_refused(
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            "724\n",
        );
    }
    // Resealed: an implausible subtotal, then a plausible wrong one (exit 1, no number).
    let reseal = |subtotal: u128, unique: u128| {
        let mut r: nqueens_solver::runs::ShardResult = serde_json::from_str(&original).unwrap();
        (r.subtotal, r.unique) = (subtotal, unique);
        std::fs::write(&files[1], r.sealed().to_json()).unwrap();
    };
    reseal(10u128.pow(30), 3);
    let args = merge(&files, &[]);
    assert_one_line_error(
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        2,
        "subtotal 1000000000000000000000000000000 is not between 1 and 8 times unique 3",
    );
    let good: nqueens_solver::runs::ShardResult = serde_json::from_str(&original).unwrap();
    reseal(good.subtotal + 8, good.unique + 1);
    for extra in [&[][..], &["--unique"][..]] {
        let args = merge(&files, extra);
        assert_one_line_error(
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            1,
            "the merged count of n = 10 came out as 732 (93 up to symmetry), but the published count is 724 (92 up to symmetry)",
        );
    }
    // A byte-order mark is fine.
    std::fs::write(&files[1], format!("\u{feff}{original}")).unwrap();
    let args = merge(&files, &[]);
    let (code, stdout, _) = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!((code, stdout.as_str()), (0, "724\n"));
    // Reads are bounded: /dev/zero is refused, not read to the end of memory.
    let args = merge(&[files[0].clone(), "/dev/zero".to_string()], &[]);
    assert_one_line_error(
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        2,
        "/dev/zero: not a shard result (longer than 4096 bytes)",
    );
    // -o one of the inputs is refused.
    let args = merge(&files, &["-o", &files[2]]);
    assert_one_line_error(
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        2,
        "is one of the shard files",
    );
}

#[test]
fn more_shards_than_tasks_are_refused_and_missing_shards_are_listed_briefly() {
    // Before, 1/4294967295 was accepted, and merge then aborted allocating for every shard.
    assert_one_line_error(
        &["count", "10", "--shard", "1/4294967295"],
        2,
        "shard 1/4294967295 is not a part of n = 10: its count has 412 tasks, so it splits at most 412 ways",
    );
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, _) = run(&["count", "10", "--shard", "1/400"]);
    assert_eq!(code, 0);
    let file = write_temp(&dir, "one.json", &stdout);
    assert_one_line_error(
        &["merge", &file],
        2,
        "missing shards 2/400, 3/400, 4/400, 5/400, 6/400, 7/400, 8/400, 9/400, and 391 more",
    );
}

#[test]
fn auto_refuses_counts_beyond_the_counter_and_lists_big_boards_fast() {
    // Before, these ran plain backtracking silently, for longer than the age of the universe.
    for args in [&["count", "33"][..], &["count", "64", "--unique"][..]] {
        let out = crate::util::nqueens()
            .args(args)
            .timeout(Duration::from_secs(20))
            .output()
            .unwrap();
        let (code, stdout, stderr) = (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        );
        assert_eq!((code, stdout.as_str()), (Some(2), ""), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("is beyond the counter (it covers n ≤ 32; the largest board ever counted is n = 27), and plain backtracking would need about"),
            "{stderr}"
        );
        assert!(
            stderr
                .trim_end()
                .ends_with("(--method backtrack, dlx, dlx-gadgets, sat or cp can)"),
            "{stderr}"
        );
    }
    // By name, backtracking runs, and says what it is in for.
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(["count", "33", "--method", "backtrack", "-j", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(running);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("note: counting n = 33 by plain backtracking, which needs roughly"),
        "{stderr}"
    );
    // A first solution of a big board under auto comes at once (constraint programming).
    let out = crate::util::nqueens()
        .args([
            "list",
            "40",
            "--limit",
            "1",
            "--format",
            "permutation",
            "--stats",
        ])
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let columns = crate::util::parse_permutation(stdout.lines().next().unwrap());
    assert_eq!(stdout.lines().count(), 1);
    assert_eq!(columns.len(), 40);
    for (r1, &c1) in columns.iter().enumerate() {
        for (r2, &c2) in columns.iter().enumerate().skip(r1 + 1) {
            assert_ne!(c1, c2);
            assert_ne!((r2 - r1) as i64, (i64::from(c1) - i64::from(c2)).abs());
        }
    }
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .starts_with("method=cp ")
    );
}

#[test]
fn a_time_limit_stops_every_counting_method_with_exit_3() {
    use std::time::{Duration, Instant};
    for args in [
        &["count", "20", "--time-limit", "1"][..],
        &["count", "17", "-m", "backtrack", "--time-limit", "0.5"],
        &["count", "14", "-m", "cp", "--time-limit", "0.5"],
    ] {
        let start = Instant::now();
        let (code, stdout, stderr) = run(args);
        assert_eq!((code, stdout.as_str()), (3, ""), "{args:?}: {stderr}");
        assert!(
            stderr.contains("gave up: time limit reached"),
            "{args:?}: {stderr}"
        );
        assert!(
            start.elapsed() < Duration::from_secs(4),
            "{args:?} took {:?}",
            start.elapsed()
        );
    }
    // Under the limit nothing changes.
    let (code, stdout, _) = run(&["count", "10", "--time-limit", "30"]);
    assert_eq!((code, stdout.as_str()), (0, "724\n"));
}

#[test]
fn a_count_stopped_at_its_limit_resumes_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("n17.ckpt");
    let path = checkpoint.to_str().unwrap();
    let (code, _, stderr) = run(&[
        "count",
        "17",
        "-j",
        "1",
        "--time-limit",
        "0.3",
        "--checkpoint",
        path,
    ]);
    assert_eq!(code, 3, "{stderr}");
    let (code, stdout, stderr) = run(&["count", "17", "--checkpoint", path]);
    assert_eq!((code, stdout.as_str()), (0, "95815104\n"), "{stderr}");
}

#[test]
fn two_interrupts_within_a_second_are_one_and_say_so() {
    // What `timeout -s INT` does: SIGINT to the child, then to its process group, microseconds
    // apart. The second must not kill the first's clean stop.
    for _ in 0..3 {
        let child = StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"))
            .args(["count", "17", "-j", "1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        for _ in 0..2 {
            // SAFETY: kill(2) on our own unreaped child with a plain signal number.
            assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
            std::thread::sleep(Duration::from_micros(100));
        }
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(130), "{stderr}");
        assert!(stderr.starts_with("interrupted after "), "{stderr}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_completion_count_that_cannot_finish_says_so_before_it_starts() {
    use std::io::{BufRead, BufReader};
    let (code, board, _) = run(&[
        "gen-completion",
        "50",
        "--queens",
        "20",
        "--method",
        "from-solution",
        "--seed",
        "2",
    ]);
    assert_eq!(code, 0);
    let dir = tempfile::tempdir().unwrap();
    let path = write_temp(&dir, "b50.txt", &board);
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(["count", "--fix-file", &path])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first line comes at once (the estimate takes milliseconds), not after the count.
    let stderr = child.stderr.take().unwrap();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stderr).read_line(&mut line);
        let _ = sender.send(line);
    });
    let line = receiver.recv_timeout(Duration::from_secs(10));
    child.kill().unwrap();
    child.wait().unwrap();
    let line = line.expect("a note on stderr within 10 s");
    assert!(
        line.starts_with(
            "note: counting the solutions of this board by plain backtracking needs about "
        ) && line.contains("years")
            && line.contains("Ctrl-C stops it"),
        "{line}"
    );
    // A small completion is counted without a word.
    let (code, stdout, stderr) = run(&["count", "8", "--fix", "1:1"]);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "4\n", ""));
}
