//! What every CLI test needs: the real binary, its exit code and output, and readers for the
//! text formats it writes.

use assert_cmd::Command;
use nqueens_solver::Solution;

/// The `nqueens` binary cargo built for these tests.
pub fn nqueens() -> Command {
    Command::cargo_bin("nqueens").expect("the nqueens binary is built")
}

/// Runs the binary with `stdin` as standard input; returns (exit code, stdout, stderr).
pub fn run_with(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = nqueens()
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("runs");
    (
        out.status.code().expect("exits normally"),
        String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    )
}

/// Runs the binary with empty standard input; returns (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    run_with(args, "")
}

/// An error: exit `code`, nothing on stdout, exactly one line on stderr, starting `error: ` and
/// containing `expected`.
pub fn assert_one_line_error(args: &[&str], code: i32, expected: &str) {
    let (status, stdout, stderr) = run(args);
    assert_eq!(status, code, "{args:?}: {stderr}");
    assert_eq!(stdout, "", "{args:?}");
    assert_eq!(
        stderr.lines().count(),
        1,
        "{args:?}: one line, got {stderr:?}"
    );
    assert!(
        stderr.starts_with("error: ") && stderr.contains(expected),
        "{args:?}: {stderr:?} should contain {expected:?}"
    );
    assert!(!stderr.contains("panicked"), "{args:?}");
}

/// A usage error: [`assert_one_line_error`] with exit 2.
pub fn assert_usage_error(args: &[&str], expected: &str) {
    assert_one_line_error(args, 2, expected);
}

/// Reads one `coords` line (1-based `ROW:COL` pairs, in any order) as a solution; the blocked
/// squares it marks (`!ROW:COL`) are left out.
pub fn parse_coords(line: &str) -> Solution {
    let mut pairs: Vec<(u32, u32)> = line
        .split_whitespace()
        .filter(|token| !token.starts_with('!'))
        .map(|pair| {
            let (row, col) = pair.split_once(':').expect("ROW:COL");
            (row.parse().expect("a row"), col.parse().expect("a column"))
        })
        .collect();
    pairs.sort_unstable();
    assert!(
        pairs
            .iter()
            .enumerate()
            .all(|(i, &(row, _))| row as usize == i + 1),
        "one queen per row: {line}"
    );
    Solution::from_columns(pairs.into_iter().map(|(_, col)| col - 1).collect())
}

/// The 0-based columns of a `permutation` line.
pub fn parse_permutation(line: &str) -> Vec<u32> {
    line.split_whitespace()
        .map(|c| c.parse::<u32>().expect("a number") - 1)
        .collect()
}

/// Writes `text` to `name` in `dir`; returns the path as a string for the command line.
pub fn write_temp(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("writes the temporary file");
    path.display().to_string()
}

/// A counter run's stderr after the line it opens its checkpoint with (`new checkpoint F: ...`
/// or `resuming from F: ...`), which must be there.
pub fn after_opening(stderr: &str) -> &str {
    let (first, rest) = stderr.split_once('\n').unwrap_or((stderr, ""));
    assert!(
        first.starts_with("new checkpoint ") || first.starts_with("resuming from "),
        "no checkpoint line first: {stderr}"
    );
    rest
}

/// Records (complete lines after the header) in a checkpoint file.
pub fn records(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.matches('\n').count().saturating_sub(1))
        .unwrap_or(0)
}

/// Starts the binary with `args`, sends SIGINT (Ctrl-C) after `delay`, and returns (exit
/// code, stdout, stderr).
pub fn interrupted(args: &[&str], delay: std::time::Duration) -> (i32, String, String) {
    use std::process::{Command as StdCommand, Stdio};
    let child = StdCommand::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    std::thread::sleep(delay);
    // SAFETY: kill(2) on our own unreaped child with a plain signal number.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let out = child.wait_with_output().expect("ends");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    )
}

/// The pigeonhole formula in DIMACS: `pigeons` pigeons, each in one of `holes` holes, no two in
/// one. With one pigeon more than holes (11 in 10, say) it is unsatisfiable and takes a CDCL
/// solver many seconds: a search that lasts past a limit or a Ctrl-C.
pub fn pigeonhole(pigeons: usize, holes: usize) -> String {
    let var = |p: usize, h: usize| p * holes + h + 1;
    let mut clauses = Vec::new();
    for p in 0..pigeons {
        clauses.push(
            (0..holes)
                .map(|h| format!("{} ", var(p, h)))
                .collect::<String>(),
        );
    }
    for h in 0..holes {
        for a in 0..pigeons {
            for b in a + 1..pigeons {
                clauses.push(format!("-{} -{} ", var(a, h), var(b, h)));
            }
        }
    }
    let mut text = format!("p cnf {} {}\n", pigeons * holes, clauses.len());
    for clause in clauses {
        text.push_str(&clause);
        text.push_str("0\n");
    }
    text
}
