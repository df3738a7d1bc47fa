//! What a user must be able to trust: no input is ever destroyed by an output, a failed run
//! leaves no output file behind, every command reads `-` as standard input, no small file or
//! argument makes the binary abort (checked under `ulimit -v 8000000`), and error messages are
//! one short line that names the file and quotes it safely.

use std::fs;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{assert_usage_error, run, run_with, write_temp};

fn cnf_of_4() -> String {
    run(&["cnf", "4"]).1
}

fn read(path: &str) -> String {
    fs::read_to_string(path).expect("the file is there")
}

// --- No input destroyed -------------------------------------------------------------------

#[test]
fn a_proof_over_the_formula_is_refused_and_the_formula_kept() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = cnf_of_4();
    let x = write_temp(&dir, "x.cnf", &cnf);
    assert_usage_error(
        &["sat", &x, "--proof", &x],
        "is also an input; write to another file",
    );
    assert_eq!(read(&x), cnf, "the formula is untouched");

    // The same file under other names: a symbolic link and a hard link.
    let link = dir.path().join("link.cnf");
    std::os::unix::fs::symlink(&x, &link).unwrap();
    let hard = dir.path().join("hard.cnf");
    fs::hard_link(&x, &hard).unwrap();
    for other in [&link, &hard] {
        let other = other.display().to_string();
        assert_usage_error(
            &["sat", &x, "--proof", &other],
            "is the same file as the input",
        );
        assert_usage_error(&["sat", &x, "-o", &other], "is the same file as the input");
        assert_usage_error(
            &["sat", &other, "--proof", &x],
            "is the same file as the input",
        );
    }
    assert_eq!(read(&x), cnf, "the formula is untouched");
}

#[test]
fn a_rejected_formula_leaves_the_proof_and_answer_files_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write_temp(&dir, "bad.cnf", "p cnf 2 1\n1 x 0\n");
    let proof = write_temp(&dir, "p.drat", "an older proof\n");
    let answer = write_temp(&dir, "answer", "an older answer\n");
    let (code, _, stderr) = run(&["sat", &bad, "--proof", &proof, "-o", &answer]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(read(&proof), "an older proof\n");
    assert_eq!(read(&answer), "an older answer\n");
    let new = dir.path().join("new.drat").display().to_string();
    let (code, _, _) = run(&["sat", &bad, "--proof", &new]);
    assert_eq!(code, 2);
    assert!(!Path::new(&new).exists(), "no proof file is created");
}

#[test]
fn one_file_named_as_two_outputs_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let x = write_temp(&dir, "x.cnf", &cnf_of_4());
    let out = dir.path().join("out").display().to_string();
    assert_usage_error(
        &["sat", &x, "--proof", &out, "-o", &out],
        "named as two outputs",
    );
    assert!(!Path::new(&out).exists());
}

#[test]
fn an_output_over_a_partial_board_or_standard_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let board = write_temp(&dir, "b.txt", "8\n1:1\n");
    for command in [
        vec!["solve", "--fix-file", &board, "-o", &board],
        vec!["list", "--fix-file", &board, "--limit", "2", "-o", &board],
        vec!["cnf", "--fix-file", &board, "-o", &board],
        vec!["xc-export", "--fix-file", &board, "-o", &board],
    ] {
        assert_usage_error(&command, "is also an input");
        assert_eq!(read(&board), "8\n1:1\n", "{command:?}");
    }
    // `sat - -o x.cnf < x.cnf`: standard input is that very file.
    let cnf = cnf_of_4();
    let x = write_temp(&dir, "x.cnf", &cnf);
    let out = nqueens_cmd()
        .args(["sat", "-", "-o", &x])
        .stdin(fs::File::open(&x).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is the same file as the input"));
    assert_eq!(read(&x), cnf);
}

#[test]
fn list_and_solve_leave_no_output_file_when_there_is_no_solution() {
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("f").display().to_string();
    for command in [["list", "3"], ["solve", "2"]] {
        let (code, stdout, stderr) = run(&[command[0], command[1], "-o", &fresh]);
        assert_eq!((code, stdout.as_str()), (1, ""), "{command:?}: {stderr}");
        assert!(
            !Path::new(&fresh).exists(),
            "{command:?} left an output file"
        );
    }
    // An existing file is left as it was, by both.
    let kept = write_temp(&dir, "kept", "keep me\n");
    for command in [["list", "3"], ["solve", "2"]] {
        assert_eq!(run(&[command[0], command[1], "-o", &kept]).0, 1);
        assert_eq!(read(&kept), "keep me\n", "{command:?}");
    }
    // A success writes the file, through a symbolic link too, and leaves no temporary file.
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&kept, &link).unwrap();
    assert_eq!(
        run(&["list", "4", "-f", "coords", "-o", link.to_str().unwrap()]).0,
        0
    );
    assert_eq!(read(&kept), "1:2 2:4 3:1 4:3\n1:3 2:1 3:4 4:2\n");
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

// --- Messages -----------------------------------------------------------------------------

#[test]
fn a_write_error_names_its_path_and_gives_the_reason_once() {
    for command in [
        vec!["list", "4", "-o", "/dev/full"],
        vec!["solve", "8", "-o", "/dev/full"],
        vec!["cnf", "4", "-o", "/dev/full"],
        vec!["gen-completion", "8", "-k", "2", "-o", "/dev/full"],
        vec!["xc-export", "4", "-o", "/dev/full"],
    ] {
        assert_usage_error(&command, "cannot write /dev/full: No space left on device");
    }
    let dir = tempfile::tempdir().unwrap();
    let x = write_temp(&dir, "x.cnf", &cnf_of_4());
    let (code, _, stderr) = run(&["sat", &x, "--proof", "/dev/full"]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("/dev/full"), "{stderr}");
    assert_eq!(stderr.matches("No space left").count(), 1, "{stderr}");
}

#[test]
fn read_errors_name_the_file() {
    assert_usage_error(
        &["solve", "--fix-file", "/nonexistent/board"],
        "cannot read /nonexistent/board",
    );
    assert_usage_error(
        &["solve", "--fix-file", "/"],
        "cannot read /: it is a directory",
    );
    assert_usage_error(&["sat", "/nonexistent.cnf"], "cannot read /nonexistent.cnf");
    assert_usage_error(&["verify", "/"], "cannot read /: it is a directory");
}

#[test]
fn a_byte_order_mark_is_accepted_in_every_input_file() {
    let dir = tempfile::tempdir().unwrap();
    let board = write_temp(&dir, "b.txt", "\u{feff}4\n1:2\n");
    let (code, stdout, stderr) = run(&["solve", "--fix-file", &board, "-f", "coords"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "1:2 2:4 3:1 4:3\n"),
        "{stderr}"
    );
    let solutions = write_temp(&dir, "s.txt", "\u{feff}2 4 1 3\n");
    let (code, stdout, stderr) = run(&["verify", &solutions]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "ok: 1 solution of 4-queens verified\n");
}

#[test]
fn errors_quote_a_short_excerpt_with_control_characters_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = format!("\u{1b}]0;pwned\u{7}{}\n", "x".repeat(10_000));
    let board = write_temp(&dir, "b.txt", &hostile);
    let (code, _, stderr) = run(&["solve", "--fix-file", &board]);
    assert_eq!(code, 2);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("\\u{1b}]0;pwned\\u{7}xxx"), "{stderr}");
    assert!(
        stderr.chars().count() < 400,
        "{} chars",
        stderr.chars().count()
    );
    assert!(
        !stderr.trim_end().chars().any(char::is_control),
        "{stderr:?}"
    );

    let board = write_temp(&dir, "c.txt", "2\n.\u{1b}[2J\n..\n");
    let (code, _, stderr) = run(&["solve", "--fix-file", &board]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("line 2, column 2: '\\u{1b}' is not a cell"),
        "{stderr}"
    );
    assert!(
        !stderr.trim_end().chars().any(char::is_control),
        "{stderr:?}"
    );

    let solutions = write_temp(&dir, "s.txt", "2 4 1 3\n2 \u{1b}[2J\n");
    let (code, _, stderr) = run(&["verify", &solutions]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("s.txt:2:3: unexpected '\\u{1b}'"),
        "{stderr}"
    );
    assert!(
        !stderr.trim_end().chars().any(char::is_control),
        "{stderr:?}"
    );
}

// --- Standard input -----------------------------------------------------------------------

#[test]
fn sat_reads_a_pipe_and_writes_its_answer_with_dash_o() {
    let cnf = run(&["cnf", "8"]).1;
    let (code, stdout, stderr) = run_with(&["sat", "-"], &cnf);
    assert_eq!(code, 10, "{stderr}");
    assert!(stdout.starts_with("s SATISFIABLE\nv "), "{stdout}");

    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("answer").display().to_string();
    let (code, stdout, _) = run_with(&["sat", "-", "-o", &answer], &run(&["cnf", "3"]).1);
    assert_eq!((code, stdout.as_str()), (20, ""));
    assert_eq!(read(&answer), "s UNSATISFIABLE\n");

    let (code, _, stderr) = run_with(&["sat", "-"], "p cnf 1 1\n1 x 0\n");
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("error: standard input: line 2"),
        "{stderr}"
    );
}

#[test]
fn fix_file_reads_a_pipe() {
    let board = run(&["gen-completion", "8", "-k", "2", "--seed", "3"]).1;
    let (code, stdout, stderr) = run_with(&["solve", "--fix-file", "-", "-f", "coords"], &board);
    assert_eq!(code, 0, "{stderr}");
    let problem = nqueens_solver::formats::partial::parse(&board)
        .unwrap()
        .to_problem()
        .unwrap();
    let solution = crate::util::parse_coords(stdout.trim());
    assert_eq!(nqueens_solver::verify(&problem, &solution), Ok(()));
    let (code, _, stderr) = run_with(&["solve", "--fix-file", "-"], "8\n1:x\n");
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("error: standard input: line 2, column 1"),
        "{stderr}"
    );
}

// --- No crash from a small input ------------------------------------------------------------

#[test]
fn a_huge_board_with_one_random_queen_is_drawn_in_little_memory() {
    let (code, stdout, stderr) = run(&["gen-completion", "4294967295", "-k", "1", "--seed", "5"]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(lines[0], "4294967295");
    assert!(nqueens_solver::formats::partial::parse_square(lines[1]).is_ok());
}

#[test]
fn an_svg_of_every_16_queens_solution_streams() {
    // The picture of all 14,772,512 boards is 18 GB; held in memory it could not be made under
    // a 2 GB address-space limit, streamed it starts at once. Read its start and hang up.
    let mut child = Command::new("sh")
        .args(["-c", "ulimit -v 2000000; exec \"$0\" \"$@\""])
        .arg(binary())
        .args(["list", "16", "-f", "svg"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = vec![0; 200_000];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(
        status.code(),
        Some(0),
        "a closed pipe ends it quietly: {stderr}"
    );
    let head = String::from_utf8_lossy(&head);
    // 14,772,512 boards, 4 to a row: 3,693,128 rows of 16·40 + 16 pixels, plus the margin:
    // 16 + 3,693,128 · 656 = 2,422,691,984 pixels high.
    assert!(
        head.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="2640" height="2422691984" viewBox="0 0 2640 2422691984">"#),
        "{}",
        &head[..200]
    );
    assert!(head.contains("<title>14772512 solutions of 16-queens</title>"));
    assert!(head.contains("<title>solution 100</title>"));
}

#[test]
fn a_streamed_svg_is_the_same_picture_as_a_kept_one() {
    // Bare boards stream (the count is known); boards with fixed queens are kept and drawn at
    // the end. Both must give the same picture for the same solutions.
    let streamed = run(&["list", "6", "-f", "svg"]).1;
    let solutions = run(&["list", "6", "-f", "coords"]).1;
    let parsed: Vec<nqueens_solver::Solution> =
        solutions.lines().map(crate::util::parse_coords).collect();
    let problem = nqueens_solver::Problem::new(6).unwrap();
    let style = nqueens_solver::formats::render::SvgStyle::default();
    assert_eq!(
        streamed,
        nqueens_solver::formats::render::svg(&problem, &parsed, &style)
    );
    let limited = run(&["list", "8", "-f", "svg", "--limit", "5"]).1;
    assert!(limited.contains("<title>5 solutions of 8-queens</title>"));
    assert_eq!(limited.matches("<g transform").count(), 5);
    roxmltree::Document::parse(&limited).expect("well-formed XML");
}

/// Where `cargo test` built the binary.
fn binary() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("nqueens")
}

fn nqueens_cmd() -> Command {
    Command::new(binary())
}

/// How one run under the address-space limit ended.
struct Ending {
    code: Option<i32>,
    stderr: String,
    elapsed: Duration,
}

/// Runs the binary with `args` (and `stdin`) under `ulimit -v 8000000` (8 GB of address space),
/// killing it after `limit`.
fn run_limited(args: &[&str], stdin: &[u8], limit: Duration) -> Ending {
    use std::io::Write;
    let start = Instant::now();
    let mut child = Command::new("sh")
        .args(["-c", "ulimit -v 8000000; exec \"$0\" \"$@\""])
        .arg(binary())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs sh");
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin);
    drop(input);
    let mut stderr_pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = (&mut stderr_pipe).take(1 << 20).read_to_end(&mut text);
        String::from_utf8_lossy(&text).into_owned()
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ending {
        code: status.code(),
        stderr: reader.join().unwrap(),
        elapsed: start.elapsed(),
    }
}

/// Runs every case under the 8 GB limit and lists those that crashed: killed by a signal (an
/// abort), an allocation failure, a panic, an exit code outside `allowed`, or more than one
/// line on stderr.
fn crashes(cases: &[(Vec<String>, Vec<u8>)]) -> Vec<String> {
    let mut bad = Vec::new();
    for (args, stdin) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let ending = run_limited(&args, stdin, Duration::from_secs(60));
        let allowed = [0, 1, 2, 3, 10, 20];
        let crashed = !ending.code.is_some_and(|c| allowed.contains(&c))
            || ending.stderr.contains("memory allocation")
            || ending.stderr.contains("panicked")
            || ending.stderr.lines().count() > 1;
        if crashed {
            bad.push(format!(
                "{args:?} -> {:?} after {:.1}s: {}",
                ending.code,
                ending.elapsed.as_secs_f64(),
                ending.stderr.chars().take(300).collect::<String>()
            ));
        }
    }
    bad
}

fn case(args: &[&str]) -> (Vec<String>, Vec<u8>) {
    (args.iter().map(|a| (*a).to_string()).collect(), Vec::new())
}

fn piped(args: &[&str], stdin: &[u8]) -> (Vec<String>, Vec<u8>) {
    (
        args.iter().map(|a| (*a).to_string()).collect(),
        stdin.to_vec(),
    )
}

/// Small hostile files, by name: each below 1 MB.
fn hostile_files() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("empty", Vec::new()),
        ("bom-only", b"\xEF\xBB\xBF".to_vec()),
        ("huge-n", b"4294967295\n".to_vec()),
        (
            "huge-n-queen",
            b"4294967295\n1:1\n4294967295:4294967295\n".to_vec(),
        ),
        ("huge-n-drawn", b"4294967295\n. Q\n".to_vec()),
        ("long-line", vec![b'7'; 900_000]),
        ("many-queens", {
            let mut text = b"3\n".to_vec();
            for _ in 0..50_000 {
                text.extend_from_slice(b"1:1\n");
            }
            text
        }),
        ("binary", (0..=255u8).cycle().take(100_000).collect()),
        ("escape", b"\x1b]0;pwned\x07\n\x1b[2J 1 2\n".to_vec()),
        (
            "numbers",
            b"4294967295 4294967295 1\n99999999999999999999\n".to_vec(),
        ),
        ("coords", b"4294967295:1 1:4294967295\n".to_vec()),
        ("big-permutation", {
            let mut text = Vec::new();
            for c in (1..=150_000u32).rev() {
                text.extend_from_slice(format!("{c} ").as_bytes());
            }
            text.push(b'\n');
            text
        }),
        ("cnf-ok", b"p cnf 3 2\n1 -2 0\n2 3 0\n".to_vec()),
        ("cnf-big-var", b"p cnf 3 1\n2147483647 0\n".to_vec()),
        ("dlx", b"a b | c\na c\nb\n".to_vec()),
    ]
}

/// A device every write to fails ("No space left on device").
const FULL: &str = "/dev/full";

/// Every command, with hostile arguments and hostile files, under an 8 GB address-space limit.
#[test]
fn no_argument_or_small_file_makes_any_command_abort() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<(String, Vec<u8>)> = hostile_files()
        .into_iter()
        .map(|(name, bytes)| {
            let path = dir.path().join(name);
            fs::write(&path, &bytes).unwrap();
            (path.display().to_string(), bytes)
        })
        .collect();
    let max = "4294967295";
    let mut cases = vec![
        case(&["gen-completion", max, "-k", "1"]),
        case(&["gen-completion", max, "-k", max]),
        case(&["gen-completion", max, "-k", "2147483648"]),
        case(&[
            "gen-completion",
            "100000000",
            "-k",
            "3",
            "--max-tries",
            "18446744073709551615",
        ]),
        case(&["gen-completion", "0", "-k", "0"]),
        // The construction streams n = 2³² − 1 (46 GB of text): into a full device, so that it
        // ends at its first write (`huge::the_largest_construction_streams_in_constant_memory`
        // reads its first rows).
        case(&["solve", max, "-o", FULL]),
        case(&["solve", max, "-f", "permutation", "-o", FULL]),
        case(&["solve", max, "--fix", "1:1"]),
        case(&["solve", max, "--fix", "4294967295:4294967295"]),
        case(&["solve", "2147483648", "-m", "local"]),
        case(&["solve", max, "-m", "dlx"]),
        case(&["solve", max, "-m", "cp"]),
        case(&["solve", max, "-m", "backtrack"]),
        case(&["solve", max, "-f", "svg"]),
        case(&["solve", "20000", "-f", "svg"]),
        case(&[
            "solve",
            "8",
            "--svg-columns",
            max,
            "--svg-cell",
            "1000",
            "--svg-margin",
            "1000",
        ]),
        case(&["list", "16", "-f", "svg", "--limit", "3"]),
        case(&["list", max, "--limit", "1"]),
        case(&[
            "list",
            "12",
            "-f",
            "svg",
            "--svg-columns",
            max,
            "--limit",
            "2",
        ]),
        case(&[
            "list",
            "8",
            "--limit",
            "18446744073709551615",
            "-f",
            "coords",
        ]),
        case(&["count", max]),
        case(&["count", "0"]),
        case(&["xc-export", max]),
        case(&["xc-export", "100000"]),
        case(&["cnf", max]),
        case(&["cnf", "100000"]),
        case(&["verify", "/dev/zero"]),
        case(&["verify", "-", "-n", max]),
        piped(&["verify", "-", "-n", max], b"1\n"),
        piped(&["verify", "-"], b"1:4294967295\n"),
        case(&["solve", "--fix-file", "/dev/zero"]),
        case(&["solve", "--fix-file", "/dev/null"]),
        piped(&["solve", "--fix-file", "-"], &[b'#'; 500_000]),
        piped(&["sat", "-"], b"p cnf 3 1\n-1 -2 -3 0\n"),
        case(&["sat", "/dev/null"]),
        case(&["xc", "/dev/null"]),
        // Endless or huge inputs end at the readers' bounds.
        case(&["sat", "/dev/zero"]),
        case(&["xc", "/dev/zero"]),
        piped(&["xc", "-"], &b"n = 8\n".repeat(12_000_000)),
        case(&["merge"]),
        case(&["bench", "--help"]),
    ];
    for (path, _) in &files {
        cases.push(case(&["solve", "--fix-file", path, "-o", FULL]));
        cases.push(case(&["list", "--fix-file", path, "--limit", "1"]));
        cases.push(case(&["cnf", "--fix-file", path]));
        cases.push(case(&["xc-export", "--fix-file", path]));
        cases.push(case(&["verify", path]));
        cases.push(case(&["verify", path, "-n", max]));
        cases.push(case(&["sat", path]));
        cases.push(case(&["xc", path]));
    }
    let bad = crashes(&cases);
    assert!(bad.is_empty(), "{} crashes:\n{}", bad.len(), bad.join("\n"));
}

/// The cases of the SAT solver and the shard files:
/// `p cnf 1000000000 2` (37 bytes; unsatisfiable, as a model would list a billion variables),
/// `--shard 1/4294967295` then `merge`, `solve 4000 -m sat --encoding compact` and the
/// documented limit n = 15,000.
#[test]
fn the_sat_and_shard_cases_do_not_abort() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = write_temp(&dir, "big.cnf", "p cnf 1000000000 2\n1 0\n-1 0\n");
    let shard = dir.path().join("shard.json").display().to_string();
    let mut cases = vec![
        case(&["sat", &cnf]),
        piped(&["sat", "-"], b"p cnf 2147483647 1\n2147483647 0\n"),
        case(&["solve", "4000", "-m", "sat", "--encoding", "compact"]),
        case(&["solve", "15000", "-m", "sat", "--encoding", "compact"]),
        case(&["count", "10", "--shard", "1/4294967295", "-o", &shard]),
    ];
    let bad = crashes(&cases);
    cases.clear();
    if Path::new(&shard).exists() {
        cases.push(case(&["merge", &shard]));
    }
    let bad: Vec<String> = bad.into_iter().chain(crashes(&cases)).collect();
    assert!(bad.is_empty(), "{} crashes:\n{}", bad.len(), bad.join("\n"));
}
