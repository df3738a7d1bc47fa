//! The rules every command that writes a file keeps, each checked over every such command
//! (`-o` of solve, list, count, count --shard, xc, cnf, xc-export, sat, merge, gen-completion and
//! gen-blocked, `sat --proof`, `count --checkpoint`, `bench --csv` and `--svg`):
//!
//! 1. an output that is an input, under any name (`in.txt/`, `in.txt/.`, `d/../in.txt`, a
//!    symbolic or hard link), is refused and the input kept;
//! 2. a path ending in `/` or naming a directory is refused, and nothing is created;
//! 3. an existing output is left as it was on every exit but success: no solution, a limit, an
//!    error, Ctrl-C, a file-size limit;
//! 4. no temporary `.NAME.PID.partial` file outlives a run, and those that a killed run left are
//!    deleted by the next run that writes beside them.
//!
//! Ctrl-C is sent once the process has taken SIGINT as a stop request (read from
//! `/proc/PID/status`, not guessed with a delay), and every wait for an exit is bounded.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::util::{pigeonhole, run, run_with, write_temp};

const KEPT: &str = "keep me\n";

fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("nqueens")
}

/// The files in `dir` whose names end in `.partial`.
fn partials(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".partial"))
        .collect()
}

/// The files a test writes beside its outputs: a partial board, an instance file, a DIMACS
/// formula, an exact cover problem and a shard result, each with the command line that reads
/// it (`{IN}`) and writes `{OUT}`.
struct Inputs {
    dir: tempfile::TempDir,
}

impl Inputs {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        let shard = run(&["count", "8", "--shard", "1/1"]).1;
        for (name, text) in [
            ("board.txt", "8\n1:1\n".to_string()),
            (
                "inst.param",
                "letting n = 8\nletting blocks = [[1,2]]\n".into(),
            ),
            ("g.cnf", "p cnf 3 2\n1 0\n-3 2 0\n".into()),
            ("p.dlx", "a b\na b\n".into()),
            ("s.json", shard),
        ] {
            fs::write(dir.path().join(name), text).unwrap();
        }
        Inputs { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string()
    }

    /// Every command that reads a file and writes another: (input file, arguments).
    fn readers_and_writers(&self) -> Vec<(&'static str, Vec<&'static str>)> {
        vec![
            (
                "board.txt",
                vec!["solve", "--fix-file", "{IN}", "-o", "{OUT}"],
            ),
            (
                "board.txt",
                vec!["list", "--fix-file", "{IN}", "-l", "2", "-o", "{OUT}"],
            ),
            (
                "board.txt",
                vec!["count", "--fix-file", "{IN}", "-o", "{OUT}"],
            ),
            (
                "board.txt",
                vec!["cnf", "--fix-file", "{IN}", "-o", "{OUT}"],
            ),
            (
                "board.txt",
                vec!["xc-export", "--fix-file", "{IN}", "-o", "{OUT}"],
            ),
            (
                "inst.param",
                vec!["list", "--instance", "{IN}", "-o", "{OUT}"],
            ),
            ("g.cnf", vec!["sat", "{IN}", "-o", "{OUT}"]),
            ("g.cnf", vec!["sat", "{IN}", "--proof", "{OUT}"]),
            ("p.dlx", vec!["xc", "{IN}", "-o", "{OUT}"]),
            ("s.json", vec!["merge", "{IN}", "-o", "{OUT}"]),
        ]
    }
}

/// Every command that writes a file, with `{OUT}` for the file: each succeeds when `{OUT}` is
/// a fresh file name.
fn writers(inputs: &Inputs) -> Vec<Vec<String>> {
    let cnf = inputs.path("g.cnf");
    let dlx = inputs.path("p.dlx");
    let shard = inputs.path("s.json");
    let lines: [&[&str]; 15] = [
        &["solve", "8", "-o", "{OUT}"],
        &["list", "6", "-o", "{OUT}"],
        &["count", "8", "-o", "{OUT}"],
        &["count", "8", "--shard", "1/2", "-o", "{OUT}"],
        &["count", "8", "--checkpoint", "{OUT}"],
        &["xc", &dlx, "-o", "{OUT}"],
        &["cnf", "4", "-o", "{OUT}"],
        &["xc-export", "4", "-o", "{OUT}"],
        &["sat", &cnf, "-o", "{OUT}"],
        &["sat", &cnf, "--proof", "{OUT}"],
        &["merge", &shard, "-o", "{OUT}"],
        &["gen-completion", "8", "-k", "2", "-o", "{OUT}"],
        &["gen-blocked", "8", "--blocks", "3", "-o", "{OUT}"],
        &[
            "bench",
            "--quick",
            "--methods",
            "backtrack",
            "--csv",
            "{OUT}",
        ],
        &[
            "bench",
            "--quick",
            "--methods",
            "backtrack",
            "--svg",
            "{OUT}",
        ],
    ];
    lines
        .iter()
        .map(|line| line.iter().map(|a| (*a).to_string()).collect())
        .collect()
}

fn fill(args: &[String], out: &str) -> Vec<String> {
    args.iter().map(|a| a.replace("{OUT}", out)).collect()
}

fn run_args(args: &[String]) -> (i32, String, String) {
    run(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

// --- Rule 1 ---------------------------------------------------------------------------------

#[test]
fn an_output_that_is_an_input_under_any_name_is_refused_and_the_input_kept() {
    let inputs = Inputs::new();
    let dir = inputs.dir.path();
    for (input, line) in inputs.readers_and_writers() {
        let path = inputs.path(input);
        let before = fs::read(&path).unwrap();
        let link = dir.join(format!("link-{input}"));
        let hard = dir.join(format!("hard-{input}"));
        let _ = fs::remove_file(&link);
        let _ = fs::remove_file(&hard);
        std::os::unix::fs::symlink(&path, &link).unwrap();
        fs::hard_link(&path, &hard).unwrap();
        let names = [
            path.clone(),
            format!("{path}/"),
            format!("{path}/."),
            format!("{path}//"),
            dir.join("sub/..").join(input).display().to_string(),
            link.display().to_string(),
            hard.display().to_string(),
        ];
        for out in names {
            let args: Vec<String> = line
                .iter()
                .map(|a| a.replace("{IN}", &path).replace("{OUT}", &out))
                .collect();
            let (code, _, stderr) = run_args(&args);
            assert_eq!(code, 2, "{args:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
            assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
            assert_eq!(fs::read(&path).unwrap(), before, "{args:?} changed {input}");
        }
    }
    assert_eq!(partials(dir), Vec::<String>::new());
}

// --- Rule 2 ---------------------------------------------------------------------------------

#[test]
fn a_path_ending_in_a_slash_or_naming_a_directory_is_refused_by_every_writer() {
    let inputs = Inputs::new();
    let dir = inputs.dir.path();
    let kept = write_temp(&inputs.dir, "kept.txt", KEPT);
    let fresh = dir.join("fresh.txt").display().to_string();
    let sub = dir.join("sub").display().to_string();
    for line in writers(&inputs) {
        for out in [
            format!("{fresh}/"),
            format!("{fresh}/."),
            format!("{kept}/"),
            format!("{kept}/."),
            format!("{kept}/.."),
            sub.clone(),
            format!("{sub}/"),
        ] {
            let args = fill(&line, &out);
            let (code, _, stderr) = run_args(&args);
            assert_eq!(code, 2, "{args:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
            assert!(
                stderr.contains("directory"),
                "{args:?}: {stderr} should say why"
            );
            assert!(!Path::new(&fresh).exists(), "{args:?} created a file");
            assert_eq!(fs::read_to_string(&kept).unwrap(), KEPT, "{args:?}");
            assert_eq!(fs::read_dir(&sub).unwrap().count(), 0, "{args:?}");
        }
        // And the same line writes a fresh file (`sat` answers 10, satisfiable).
        let args = fill(&line, &fresh);
        let (code, _, stderr) = run_args(&args);
        assert!(matches!(code, 0 | 10), "{args:?}: {code} {stderr}");
        assert!(Path::new(&fresh).is_file(), "{args:?}");
        fs::remove_file(&fresh).unwrap();
    }
    assert_eq!(partials(dir), Vec::<String>::new());
}

// --- Rule 3 ---------------------------------------------------------------------------------

#[test]
fn an_existing_output_is_left_as_it_was_on_no_solution_a_limit_or_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let none = write_temp(&dir, "none.dlx", "a b\n");
    let php = write_temp(&dir, "php.cnf", &pigeonhole(11, 10));
    let q64 = write_temp(&dir, "q64.dlx", &run(&["xc-export", "64"]).1);
    let bad = write_temp(&dir, "bad.cnf", "p cnf 2 1\n1 x 0\n");
    let out = write_temp(&dir, "out.txt", KEPT);
    let cases: [(&[&str], i32); 13] = [
        (&["solve", "2", "-o", "{OUT}"], 1),
        (&["list", "3", "-o", "{OUT}"], 1),
        (&["xc", &none, "-o", "{OUT}"], 1),
        (&["xc", &none, "--limit", "5", "-o", "{OUT}"], 1),
        (&["xc", &none, "--seed", "3", "-o", "{OUT}"], 1),
        (&["xc", &none, "--count", "-o", "{OUT}"], 0),
        // A limit, after some output was written.
        (&["list", "16", "--time-limit", "0.3", "-o", "{OUT}"], 3),
        (
            &[
                "xc",
                &q64,
                "--limit",
                "2",
                "--time-limit",
                "0.3",
                "-o",
                "{OUT}",
            ],
            3,
        ),
        (&["sat", &php, "--time-limit", "0.3", "-o", "{OUT}"], 3),
        (&["sat", &php, "--time-limit", "0.3", "--proof", "{OUT}"], 3),
        (&["count", "19", "--time-limit", "0.3", "-o", "{OUT}"], 3),
        // Errors.
        (&["sat", &bad, "-o", "{OUT}"], 2),
        (&["gen-completion", "8", "-k", "9", "-o", "{OUT}"], 2),
    ];
    for (line, expected) in cases {
        let args: Vec<String> = line.iter().map(|a| a.replace("{OUT}", &out)).collect();
        let (code, _, stderr) = run_args(&args);
        assert_eq!(code, expected, "{args:?}: {stderr}");
        if expected == 0 {
            // `--count` of no solution is the answer 0: a success, written.
            assert_eq!(fs::read_to_string(&out).unwrap(), "0\n", "{args:?}");
            fs::write(&out, KEPT).unwrap();
        }
        assert_eq!(fs::read_to_string(&out).unwrap(), KEPT, "{args:?}");
        assert_eq!(partials(dir.path()), Vec::<String>::new(), "{args:?}");
    }
}

/// Whether process `pid` has a handler for SIGINT (its `SigCgt` mask in `/proc`).
fn catches_sigint(pid: u32) -> bool {
    let Ok(status) = fs::read_to_string(format!("/proc/{pid}/status")) else {
        return false;
    };
    status
        .lines()
        .find_map(|line| line.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (libc::SIGINT - 1)) != 0)
}

/// Waits at most `limit` for `child` to end.
fn wait_for(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    None
}

/// Waits (at most a minute) until `ready` holds for `child`, sends it one SIGINT, and waits
/// (at most a minute) for it to end: its exit code and stderr. A child that ignores the signal
/// is killed and fails the test.
fn ctrl_c_once(mut child: Child, ready: impl Fn(u32) -> bool) -> (i32, String) {
    let pid = child.id();
    let start = Instant::now();
    while !ready(pid) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "it ended before Ctrl-C"
        );
        assert!(start.elapsed() < Duration::from_secs(60), "never ready");
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: kill(2) on our own unreaped child with a plain signal number.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGINT) }, 0);
    let Some(status) = wait_for(&mut child, Duration::from_secs(60)) else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("still running a minute after the first Ctrl-C");
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    (status.code().unwrap_or(-1), stderr)
}

fn start(args: &[&str]) -> Child {
    Command::new(binary())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn ctrl_c_leaves_an_existing_output_as_it_was_and_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let php = write_temp(&dir, "php.cnf", &pigeonhole(11, 10));
    let q64 = write_temp(&dir, "q64.dlx", &run(&["xc-export", "64"]).1);
    let out = write_temp(&dir, "out.txt", KEPT);
    let proof = write_temp(&dir, "proof.drat", KEPT);
    let temp_exists = |dir: PathBuf| move |_: u32| !partials(&dir).is_empty();
    let lines: [&[&str]; 4] = [
        &["xc", &q64, "--limit", "2", "-o", &out],
        &["sat", &php, "-o", &out, "--proof", &proof],
        &["list", "16", "-o", &out],
        // A command that only writes: it stops at its next write. (n = 100 writes 22 MB in
        // over half a second; n = 300 spent 3.5 s of CPU building its formula before a write.)
        &["cnf", "100", "-o", &out],
    ];
    for args in lines {
        let child = start(args);
        // Ready once its temporary file exists (it takes Ctrl-C as a stop request by then).
        let ready = temp_exists(dir.path().to_path_buf());
        let (code, stderr) = ctrl_c_once(child, |pid| ready(pid) && catches_sigint(pid));
        assert_eq!(code, 130, "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("interrupted"), "{args:?}: {stderr}");
        assert_eq!(fs::read_to_string(&out).unwrap(), KEPT, "{args:?}");
        assert_eq!(fs::read_to_string(&proof).unwrap(), KEPT, "{args:?}");
        assert_eq!(partials(dir.path()), Vec::<String>::new(), "{args:?}");
    }
}

#[test]
fn a_file_size_limit_is_one_error_line_and_leaves_the_output_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let out = write_temp(&dir, "out.cnf", KEPT);
    let checkpoint = dir.path().join("c.ckpt").display().to_string();
    for args in [
        vec!["cnf", "60", "-o", out.as_str()],
        vec!["list", "10", "-f", "svg", "-o", out.as_str()],
    ] {
        // 100 blocks (of 512 or 1024 bytes): the output is megabytes.
        let ended = Command::new("sh")
            .args(["-c", "ulimit -f 100; exec \"$0\" \"$@\""])
            .arg(binary())
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&ended.stderr);
        assert_eq!(ended.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("File too large"), "{stderr}");
        assert_eq!(fs::read_to_string(&out).unwrap(), KEPT);
        assert_eq!(partials(dir.path()), Vec::<String>::new(), "{args:?}");
    }
    // The checkpoint, appended to in place, gets the error too instead of a silent death.
    let ended = Command::new("sh")
        .args(["-c", "ulimit -f 1; exec \"$0\" \"$@\""])
        .arg(binary())
        .args(["count", "14", "--checkpoint", &checkpoint])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&ended.stderr);
    assert_eq!(ended.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("File too large"), "{stderr}");
}

// --- Rule 4 ---------------------------------------------------------------------------------

#[test]
fn the_temporary_file_of_a_killed_run_is_deleted_by_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big.cnf").display().to_string();
    let mut child = start(&["cnf", "300", "-o", &out]);
    let start_time = Instant::now();
    let temp = format!(".big.cnf.{}.partial", child.id());
    while !dir.path().join(&temp).exists() {
        assert!(start_time.elapsed() < Duration::from_secs(60), "no {temp}");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(partials(dir.path()), vec![temp.clone()]);
    // A file of a live process (this one, or process 1), a name of another pattern and a
    // directory are kept; a dead process's file of another name goes too.
    let live = format!(".big.cnf.{}.partial", std::process::id());
    let kept = [
        live.as_str(),
        ".other.cnf.1.partial",
        ".notes.x.partial",
        ".d.999999999.partial",
    ];
    for name in &kept[..3] {
        fs::write(dir.path().join(name), "").unwrap();
    }
    fs::create_dir(dir.path().join(kept[3])).unwrap();
    fs::write(dir.path().join(".old.txt.999999999.partial"), "").unwrap();
    let (code, _, stderr) = run(&["cnf", "4", "-o", &out]);
    assert_eq!(code, 0, "{stderr}");
    let mut left = partials(dir.path());
    left.sort();
    let mut expected = kept.map(str::to_string).to_vec();
    expected.sort();
    assert_eq!(left, expected);
    assert!(fs::read_to_string(&out).unwrap().contains("p cnf 16 "));
}

/// The next run writing anything in the folder deletes a killed writer's temporary file, not
/// only the next run writing the same file.
#[test]
fn a_run_writing_another_file_beside_deletes_a_killed_writers_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.txt").display().to_string();
    let mut child = start(&["cnf", "300", "-o", &big]);
    let start_time = Instant::now();
    let temp = format!(".big.txt.{}.partial", child.id());
    while !dir.path().join(&temp).exists() {
        assert!(start_time.elapsed() < Duration::from_secs(60), "no {temp}");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(partials(dir.path()), vec![temp]);
    let small = dir.path().join("small.txt").display().to_string();
    let (code, _, stderr) = run(&["solve", "8", "-o", &small]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(partials(dir.path()), Vec::<String>::new());
    assert!(!dir.path().join("big.txt").exists());
}

// --- Inputs: `-` everywhere, bounded, and stopped by Ctrl-C ---------------------------------

#[test]
fn merge_reads_a_shard_from_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let one = run(&["count", "8", "--shard", "1/2"]).1;
    let two = write_temp(&dir, "two.json", &run(&["count", "8", "--shard", "2/2"]).1);
    let (code, stdout, stderr) = run_with(&["merge", "-", &two], &one);
    assert_eq!((code, stdout.as_str()), (0, "92\n"), "{stderr}");
    let (code, stdout, stderr) = run_with(
        &["merge", "-", "--unique"],
        &run(&["count", "8", "--shard", "1/1"]).1,
    );
    assert_eq!((code, stdout.as_str()), (0, "12\n"), "{stderr}");
}

/// `cat shard-*.json | nqueens merge -`: one result per line, checked as files are, each
/// named by its line.
#[test]
fn merge_reads_every_shard_from_standard_input_one_per_line() {
    let shards: Vec<String> = (1..=3)
        .map(|i| run(&["count", "9", "--shard", &format!("{i}/3")]).1)
        .collect();
    let all = shards.concat();
    let (code, stdout, stderr) = run_with(&["merge", "-"], &all);
    assert_eq!((code, stdout.as_str()), (0, "352\n"), "{stderr}");
    let (code, stdout, stderr) = run_with(&["merge", "-", "--unique"], &format!("\n{all}\n"));
    assert_eq!((code, stdout.as_str()), (0, "46\n"), "{stderr}");
    let twice = format!("{}{}{}", shards[0], shards[1], shards[0]);
    let missing = format!("{}{}", shards[0], shards[2]);
    for (input, said) in [
        (
            twice,
            "error: 2 problems: shard 1/3 appears twice: standard input line 1 and standard input line 3; missing shard 3/3\n",
        ),
        (missing, "error: missing shard 2/3\n"),
    ] {
        assert_eq!(
            run_with(&["merge", "-"], &input),
            (2, String::new(), said.to_string())
        );
    }
    // Standard input and files together.
    let dir = tempfile::tempdir().unwrap();
    let third = write_temp(&dir, "3.json", &shards[2]);
    let (code, stdout, stderr) = run_with(&["merge", "-", &third], &shards[..2].concat());
    assert_eq!((code, stdout.as_str()), (0, "352\n"), "{stderr}");
}

#[test]
fn sat_refuses_an_endless_device_and_stops_an_endless_pipe_at_the_first_ctrl_c() {
    // It used to read for ever: give it a minute.
    let mut child = start(&["sat", "/dev/zero"]);
    let status = wait_for(&mut child, Duration::from_secs(60));
    if status.is_none() {
        let _ = child.kill();
    }
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.and_then(|s| s.code()), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "error: /dev/zero: line 1 is longer than 268435456 bytes, more than a DIMACS line can need\n"
    );
    // Endless blank lines, which no bound stops: Ctrl-C does, the first one.
    let mut yes = Command::new("yes")
        .arg("")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let child = Command::new(binary())
        .args(["sat", "-"])
        .stdin(yes.stdout.take().unwrap())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (code, stderr) = ctrl_c_once(child, catches_sigint);
    let _ = yes.kill();
    let _ = yes.wait();
    assert_eq!(code, 130, "{stderr}");
    assert!(stderr.starts_with("interrupted"), "{stderr}");
}

#[test]
fn ctrl_c_stops_a_command_waiting_on_an_idle_pipe_at_once() {
    for args in [
        &["verify", "-"][..],
        &["sat", "-"],
        &["xc", "-"],
        &["solve", "--fix-file", "-"],
        &["merge", "-"],
    ] {
        // Our end of the pipe stays open and silent.
        let mut child = Command::new(binary())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take();
        let (code, stderr) = ctrl_c_once(child, catches_sigint);
        drop(input);
        assert_eq!(code, 130, "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("interrupted"), "{args:?}: {stderr}");
    }
}
