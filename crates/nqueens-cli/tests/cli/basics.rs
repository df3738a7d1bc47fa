//! The real `nqueens` binary: outputs, exit codes and error messages.

use std::io::{BufRead, BufReader};
use std::process::{Command as StdCommand, Stdio};

use crate::util::{assert_usage_error, run, write_temp};
use nqueens_solver::{Problem, Solution, instances::oeis, verify};

#[test]
fn bad_input_is_one_line_and_exit_2() {
    assert_usage_error(
        &["solve", "abc"],
        "invalid value 'abc' for '[N]': expected a whole number, like 8",
    );
    assert_usage_error(&["solve", "0"], "the board size must be at least 1");
    assert_usage_error(&["count", "-4"], "the board size must be at least 1");
    assert_usage_error(
        &["solve", "99999999999"],
        "the board size must be at most 4294967295",
    );
    assert_usage_error(
        &["solve", "65", "--method", "backtrack"],
        "the backtrack method handles n up to 64; n = 65 is too large",
    );
    assert_usage_error(
        &["solve", "8", "--fix", "9:1"],
        "fixed queen 9:1 is off the 8×8 board",
    );
    assert_usage_error(
        &["solve", "8", "--fix", "0:3"],
        "rows and columns are numbered from 1",
    );
    assert_usage_error(
        &["solve", "8", "--fix", "three"],
        "expected ROW:COL, like 3:5",
    );
    assert_usage_error(
        &["list", "8", "--fix", "1:1", "--fix", "3:3"],
        "fixed queens 1:1 and 3:3 are on the same diagonal",
    );
    assert_usage_error(
        &["list", "8", "--fix", "2:1", "--fix", "2:5"],
        "fixed queens 2:1 and 2:5 are on the same row",
    );
    assert_usage_error(
        &["count", "8", "--fix", "1:4", "--fix", "6:4"],
        "fixed queens 1:4 and 6:4 are on the same column",
    );
    assert_usage_error(
        &["solve", "8", "--method", "magic"],
        "invalid value 'magic' for '--method <METHOD>'",
    );
    assert_usage_error(
        &["solve", "8", "--format", "pdf"],
        "invalid value 'pdf' for '--format <FORMAT>'",
    );
    assert_usage_error(&["solve", "8", "--svg-light", "red\"/>"], "is not a colour");
    assert_usage_error(
        &["count", "8", "--threads", "0"],
        "invalid value '0' for '--threads <T>'",
    );
    assert_usage_error(&["solve"], "give the board size N");
    assert_usage_error(
        &["solve", "8", "--frobnicate"],
        "unexpected argument '--frobnicate'",
    );
    assert_usage_error(
        &["solve", "8", "--fix-file", "/nonexistent/board.txt"],
        "cannot read /nonexistent/board.txt",
    );
}

#[test]
fn no_arguments_prints_help_and_exits_2() {
    let (code, stdout, stderr) = run(&[]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.contains("Usage: nqueens <COMMAND>"), "{stderr}");
}

#[test]
fn help_teaches_with_examples() {
    let (code, stdout, _) = run(&["--help"]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("Examples:") && stdout.contains("nqueens count 12 --unique"),
        "{stdout}"
    );
    let (code, stdout, _) = run(&["solve", "--help"]);
    assert_eq!(code, 0);
    for expected in [
        "--fix <ROW:COL>",
        "--fix-file <PATH>",
        "--method <METHOD>",
        "backtrack",
        "--format",
        "coords",
        "SVG output",
    ] {
        assert!(
            stdout.contains(expected),
            "solve --help lacks {expected}: {stdout}"
        );
    }
}

#[test]
fn unsolvable_problems_say_no_solution_and_exit_1() {
    for args in [
        &["solve", "2"][..],
        &["solve", "3"],
        &["list", "3"],
        &["solve", "4", "--fix", "1:1"],
    ] {
        let (code, stdout, stderr) = run(args);
        assert_eq!(
            (code, stdout.as_str(), stderr.as_str()),
            (1, "", "no solution\n"),
            "{args:?}"
        );
    }
    // Counting zero solutions is an answer, not a failure.
    assert_eq!(run(&["count", "3"]), (0, "0\n".into(), String::new()));
}

#[test]
fn every_format_of_four_and_eight_is_pinned() {
    for n in ["4", "8"] {
        for format in ["unicode", "ascii", "matrix", "coords", "json", "svg"] {
            let (code, stdout, stderr) =
                run(&["solve", n, "--method", "backtrack", "--format", format]);
            assert_eq!(code, 0, "{stderr}");
            insta::assert_snapshot!(format!("solve_{n}_{format}"), stdout);
        }
    }
}

#[test]
fn svg_output_parses_and_has_one_board_per_solution() {
    let (code, stdout, _) = run(&["list", "6", "--format", "svg", "--svg-columns", "2"]);
    assert_eq!(code, 0);
    let doc = roxmltree::Document::parse(&stdout).expect("valid XML");
    assert_eq!(
        doc.root_element()
            .children()
            .filter(|n| n.tag_name().name() == "g")
            .count(),
        4
    );
}

#[test]
fn list_prints_every_solution_and_each_is_valid() {
    let (code, stdout, _) = run(&["list", "8", "--format", "json"]);
    assert_eq!(code, 0);
    let p = Problem::new(8).unwrap();
    let mut seen = std::collections::HashSet::new();
    for line in stdout.lines() {
        let value: serde_json::Value = serde_json::from_str(line).expect("a JSON object per line");
        assert_eq!(value["n"], 8);
        let columns: Vec<u32> = value["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap() as u32 - 1)
            .collect();
        let s = Solution::from_columns(columns);
        assert_eq!(verify(&p, &s), Ok(()));
        assert!(seen.insert(s));
    }
    assert_eq!(seen.len() as u128, oeis::total(8).unwrap());

    let (code, stdout, _) = run(&["list", "8", "--limit", "5", "--format", "coords"]);
    assert_eq!((code, stdout.lines().count()), (0, 5));
    assert_eq!(
        stdout.lines().next(),
        Some("1:1 2:5 3:8 4:6 5:3 6:7 7:2 8:4")
    );
}

#[test]
fn count_prints_the_number() {
    assert_eq!(run(&["count", "8"]).1, "92\n");
    assert_eq!(run(&["count", "10", "--unique"]).1, "92\n");
    assert_eq!(run(&["count", "12", "--threads", "3"]).1, "14200\n");
    let (_, stdout, stderr) = run(&["count", "6", "--stats", "--method", "backtrack"]);
    assert_eq!(stdout, "4\n");
    assert!(stderr.starts_with("method=backtrack elapsed="), "{stderr}");
    assert!(stderr.contains(" nodes="), "{stderr}");
}

#[test]
fn fixed_queens_come_from_flags_and_files() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("board.txt");
    std::fs::write(&file, "# two queens\n8\n1:1\n2:5\n").unwrap();
    let path = file.to_str().unwrap();
    let flags = run(&[
        "list", "8", "--fix", "1:1", "--fix", "2:5", "--format", "coords",
    ]);
    let from_file = run(&["list", "--fix-file", path, "--format", "coords"]);
    assert_eq!(flags, from_file);
    assert_eq!(flags.1, "1:1 2:5 3:8 4:6 5:3 6:7 7:2 8:4\n");
    // A file and a flag combine.
    assert_eq!(run(&["count", "--fix-file", path, "--fix", "3:8"]).1, "1\n");
    assert_eq!(run(&["count", "--fix-file", path, "--fix", "3:7"]).1, "0\n");

    assert_usage_error(&["count", "9", "--fix-file", path], "N is 9 but");
    std::fs::write(&file, "8\n1:1\n2-5\n").unwrap();
    assert_usage_error(
        &["count", "--fix-file", path],
        "line 3, column 1: expected a queen as ROW:COL",
    );
}

#[test]
fn output_goes_to_a_file_in_the_format_its_extension_names() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("eight.svg");
    let (code, stdout, _) = run(&["solve", "8", "--output", svg.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (0, ""));
    let text = std::fs::read_to_string(&svg).unwrap();
    roxmltree::Document::parse(&text).expect("valid XML");
    let json = dir.path().join("eight.jsonl");
    run(&["list", "8", "--limit", "3", "-o", json.to_str().unwrap()]);
    assert_eq!(std::fs::read_to_string(&json).unwrap().lines().count(), 3);
    assert_usage_error(
        &["solve", "8", "-o", "/nonexistent/dir/x.txt"],
        "cannot create /nonexistent/dir/x.txt",
    );
}

#[test]
fn an_extension_no_format_writes_is_refused_unless_a_format_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("x.png");
    let p = png.to_str().unwrap();
    for args in [&["solve", "8", "-o", p][..], &["list", "6", "-o", p]] {
        assert_usage_error(args, &format!("--output {p}: no format writes .png files"));
        assert!(!png.exists(), "nothing written for {args:?}");
    }
    // With --format the name is the user's business; .txt and no extension are text.
    let (code, _, stderr) = run(&["solve", "8", "-o", p, "--format", "coords"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read_to_string(&png).unwrap().lines().count(), 1);
    for name in ["board.txt", "board.TXT", "board"] {
        let path = dir.path().join(name);
        let (code, _, stderr) = run(&["solve", "4", "-o", path.to_str().unwrap()]);
        assert_eq!(code, 0, "{name}: {stderr}");
        assert!(
            std::fs::read_to_string(&path).unwrap().contains('♕'),
            "{name}"
        );
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(["list", "14", "--format", "coords"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("1:1 "));
    // The reader is dropped here, closing the pipe long before 365,596 solutions are written.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn an_off_board_queen_in_a_file_names_the_file_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_temp(&dir, "board.txt", "# two queens\n8\n1:1\n9:9\n");
    assert_usage_error(
        &["solve", "--fix-file", &path],
        &format!(
            "{path}: line 4, column 1: fixed queen 9:9 is off the 8×8 board (rows and columns run from 1 to 8)"
        ),
    );
    let fine = write_temp(&dir, "fine.txt", "8\n1:1\n");
    assert_usage_error(
        &["solve", "11", "--fix-file", &fine],
        &format!("N is 11 but {fine} describes an 8×8 board"),
    );
}

/// The methods an error's advice names: `(--method a, b or c can)` or `(--method a)`.
fn advised_methods(stderr: &str) -> Vec<String> {
    let Some((_, advice)) = stderr.rsplit_once("(--method ") else {
        return Vec::new();
    };
    let advice = advice
        .trim_end()
        .trim_end_matches(')')
        .trim_end_matches(" can");
    advice
        .split([',', ' '])
        .filter(|w| !w.is_empty() && *w != "or")
        .map(str::to_string)
        .collect()
}

#[test]
fn every_method_an_error_advises_takes_the_job() {
    // Refusals of every kind; each method the advice names is run with the same arguments
    // (and a time limit): it must take the job, not refuse it in turn.
    let refused: &[&[&str]] = &[
        &["count", "70"],
        &["count", "40"],
        &["count", "70", "--method", "backtrack"],
        &["count", "8", "--method", "construct"],
        &["count", "8", "--fix", "1:1", "--method", "construct"],
        &["solve", "70", "--method", "backtrack"],
        &["solve", "20001", "--method", "cp"],
        &["solve", "8", "--method", "construct", "--fix", "1:1"],
        &["list", "8", "--method", "construct"],
        &["solve", "8", "--method", "counter"],
    ];
    let mut followed = 0;
    for args in refused {
        let (code, _, stderr) = run(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        let methods = advised_methods(&stderr);
        assert!(!methods.is_empty(), "{args:?}: no advice in {stderr:?}");
        for method in methods {
            let mut again: Vec<&str> = args.to_vec();
            if let Some(at) = again.iter().position(|a| *a == "--method") {
                again.drain(at..at + 2);
            }
            again.extend([
                "--method",
                &method,
                "--time-limit",
                "0.25",
                "-o",
                "/dev/null",
            ]);
            // The time limit must hold too: a run that ignores it is killed after a minute.
            let out = crate::util::nqueens()
                .args(&again)
                .timeout(std::time::Duration::from_secs(60))
                .output()
                .unwrap();
            let code = out.status.code().unwrap_or(-1);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                [0, 1, 3].contains(&code),
                "{again:?} (advised by {args:?}) exited {code}: {stderr}"
            );
            followed += 1;
        }
    }
    assert!(followed > 20, "{followed}");
}
