//! `--method cp` through the real binary: solve, list and count, fixed queens, limits.

use crate::util::{parse_coords, run};
use nqueens_solver::{Problem, Queen, instances::oeis, verify};

#[test]
fn count_matches_a000170() {
    for n in 1..=10u32 {
        let (code, stdout, _) = run(&["count", &n.to_string(), "--method", "cp"]);
        assert_eq!(code, 0, "n = {n}");
        assert_eq!(stdout, format!("{}\n", oeis::total(n).unwrap()), "n = {n}");
    }
}

#[test]
fn solve_finds_a_valid_board_and_reports_counters() {
    let (code, stdout, stderr) = run(&[
        "solve", "300", "--method", "cp", "--format", "coords", "--stats",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let solution = parse_coords(stdout.trim());
    assert_eq!(verify(&Problem::new(300).unwrap(), &solution), Ok(()));
    assert!(stderr.starts_with("method=cp "), "{stderr}");
    for counter in ["nodes=", "failures=", "propagations="] {
        assert!(stderr.contains(counter), "{stderr}");
    }
}

#[test]
fn list_completes_fixed_queens() {
    let (code, stdout, _) = run(&[
        "list", "8", "--method", "cp", "--fix", "1:1", "--format", "coords",
    ]);
    assert_eq!(code, 0);
    let p = Problem::with_fixed(8, [Queen::new(0, 0)]).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    // 4 of the 92 solutions have a queen in the corner 1:1.
    assert_eq!(lines.len(), 4);
    for line in lines {
        assert_eq!(verify(&p, &parse_coords(line)), Ok(()), "{line}");
    }
}

#[test]
fn unsolvable_and_too_large_boards_say_so() {
    let (code, stdout, stderr) = run(&["solve", "3", "--method", "cp"]);
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    let (code, _, stderr) = run(&["solve", "20001", "--method", "cp"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: the cp method handles n up to 20000; n = 20001 is too large \
         (--method construct or local can)\n"
    );
}
