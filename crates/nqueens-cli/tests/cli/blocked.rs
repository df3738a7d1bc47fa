//! Blocked n-Queens from the outside: `--block`, blocked squares in partial-board files (both
//! forms), every method's count agreeing with the naive oracle, `verify` refusing a queen on a
//! blocked square, and the errors a user meets.

use nqueens_solver::board::naive;
use nqueens_solver::{Problem, Queen};

use crate::util::{
    assert_one_line_error, assert_usage_error, parse_coords, run, run_with, write_temp,
};

#[test]
fn every_method_that_takes_blocks_counts_what_the_oracle_counts() {
    let blocked = [
        Queen::new(0, 0),
        Queen::new(2, 5),
        Queen::new(4, 4),
        Queen::new(7, 1),
    ];
    let expected = naive::count(&Problem::with_blocks(8, [], blocked).unwrap());
    let mut args = vec!["count", "8"];
    let squares: Vec<String> = blocked.iter().map(|q| q.to_string()).collect();
    for s in &squares {
        args.extend(["--block", s.as_str()]);
    }
    for method in [
        "auto",
        "backtrack",
        "counter",
        "dlx",
        "dlx-gadgets",
        "sat",
        "cp",
    ] {
        let mut with_method = args.clone();
        with_method.extend(["--method", method]);
        let (code, out, err) = run(&with_method);
        assert_eq!(code, 0, "{method}: {err}");
        assert_eq!(out.trim(), expected.to_string(), "{method}");
    }
    // Every listed solution leaves the blocked squares empty.
    let mut list = args.clone();
    list[0] = "list";
    list.extend(["-f", "coords"]);
    let (code, out, _) = run(&list);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count() as u128, expected);
    for line in out.lines() {
        let solution = parse_coords(line);
        for q in blocked {
            assert_ne!(solution.columns()[q.row as usize], q.col, "{line}");
        }
    }
}

/// Up to symmetry, a blocked board keeps the symmetries that map its blocked squares onto
/// themselves: a set closed under the half turn (and nothing else) halves the classes of
/// solutions not fixed by the turn, one kept by the transpose too keeps those; every method's
/// `--unique` gives the oracle's number of classes, and a board that keeps no symmetry has as
/// many classes as solutions.
#[test]
fn unique_counts_use_the_symmetries_the_blocked_squares_keep() {
    use nqueens_solver::board::symmetry::Group;
    let boards: [(u32, &[Queen], usize); 3] = [
        // Closed under the half turn only.
        (
            8,
            &[
                Queen::new(0, 1),
                Queen::new(7, 6),
                Queen::new(3, 5),
                Queen::new(4, 2),
            ],
            2,
        ),
        // Closed under the transpose and the anti-transpose (and so the half turn).
        (
            8,
            &[
                Queen::new(1, 2),
                Queen::new(2, 1),
                Queen::new(5, 6),
                Queen::new(6, 5),
            ],
            4,
        ),
        // No symmetry at all.
        (
            8,
            &[Queen::new(0, 1), Queen::new(3, 3), Queen::new(6, 0)],
            1,
        ),
    ];
    for (n, blocked, group_size) in boards {
        let problem = Problem::with_blocks(n, [], blocked.iter().copied()).unwrap();
        let group = Group::of(&problem);
        assert_eq!(group.members().len(), group_size, "{blocked:?}");
        let solutions = naive::solutions(&problem);
        let classes = solutions.iter().filter(|s| group.is_canonical(s)).count();
        if group_size > 1 {
            assert!(classes < solutions.len(), "{blocked:?}");
        } else {
            assert_eq!(classes, solutions.len());
        }
        let squares: Vec<String> = blocked.iter().map(|q| q.to_string()).collect();
        let mut args = vec!["count".to_string(), n.to_string(), "--unique".into()];
        for s in &squares {
            args.extend(["--block".into(), s.clone()]);
        }
        for method in ["auto", "backtrack", "counter", "dlx", "sat", "cp"] {
            let mut with_method: Vec<&str> = args.iter().map(String::as_str).collect();
            with_method.extend(["--method", method]);
            let (code, out, err) = run(&with_method);
            assert_eq!(code, 0, "{method}: {err}");
            assert_eq!(out.trim(), classes.to_string(), "{method} on {blocked:?}");
        }
    }
}

#[test]
fn partial_board_files_carry_blocked_squares_in_both_forms() {
    let dir = tempfile::tempdir().unwrap();
    let listed = write_temp(&dir, "listed.txt", "# blocked\n6\n1:2\n!2:3\n!3:1\n");
    let drawn = write_temp(
        &dir,
        "drawn.txt",
        "6\n. Q . . . .\n. . x . . .\nx . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n",
    );
    let (_, a, _) = run(&["count", "--fix-file", &listed]);
    let (_, b, _) = run(&["count", "--fix-file", &drawn]);
    let problem =
        Problem::with_blocks(6, [Queen::new(0, 1)], [Queen::new(1, 2), Queen::new(2, 0)]).unwrap();
    assert_eq!(naive::count(&problem), 1);
    assert_eq!(a.trim(), "1");
    assert_eq!(a, b);
    // The solution drawn as text shows the blocked squares, and solves the same file.
    let (code, out, err) = run(&["solve", "--fix-file", &listed, "-f", "ascii"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains('x'), "{out}");
    let (code, out, err) = run(&["solve", "--fix-file", &listed, "-f", "permutation"]);
    assert_eq!(code, 0, "{err}");
    let (code, ok, err) = run_with(&["verify", "-", "--fix-file", &listed], &out);
    assert_eq!(code, 0, "{err}");
    assert!(ok.starts_with("ok: 1 solution"), "{ok}");
}

#[test]
fn verify_refuses_a_queen_on_a_blocked_square() {
    let (code, _, err) = run_with(&["verify", "-", "--block", "1:2"], "2 4 1 3\n");
    assert_eq!(code, 1);
    assert_eq!(
        err.trim(),
        "error: standard input:1: the queen on 1:2 stands on a blocked square"
    );
    let (code, _, _) = run_with(&["verify", "-", "--block", "1:2"], "3 1 4 2\n");
    assert_eq!(code, 0);
}

#[test]
fn bad_blocked_squares_are_usage_errors_that_name_them() {
    assert_one_line_error(
        &["count", "4", "--block", "5:1"],
        2,
        "error: blocked square 5:1 is off the 4×4 board (rows and columns run from 1 to 4)",
    );
    assert_one_line_error(
        &["solve", "4", "--fix", "1:2", "--block", "1:2"],
        2,
        "error: fixed queen 1:2 stands on a blocked square",
    );
    assert_usage_error(&["count", "4", "--block", "1-2"], "expected ROW:COL");
    // A method that cannot honour blocks refuses and names the ones that can.
    let (code, _, err) = run(&["solve", "8", "--block", "4:4", "--method", "construct"]);
    assert_eq!(code, 2);
    assert!(err.contains("does not take blocked squares"), "{err}");
    assert!(err.contains("backtrack"), "{err}");
    // A board blocked so that no solution is left: exit 1 for solve, 0 for count.
    let (code, _, _) = run(&["solve", "4", "--block", "1:2", "--block", "1:3"]);
    assert_eq!(code, 1);
    let (code, out, _) = run(&["count", "4", "--block", "1:2", "--block", "1:3"]);
    assert_eq!((code, out.trim()), (0, "0"));
}

#[test]
fn csplib_instances_and_gen_blocked_from_the_outside() {
    let dir = tempfile::tempdir().unwrap();
    let essence = write_temp(
        &dir,
        "b.param",
        "language ESSENCE' 1.0\nletting n = 4\nletting blocks = [[1,2],\n[4,3],\n]\n",
    );
    // --instance and --fix-file read it alike: 4-queens without 1:2 and 4:3 keeps 3 1 4 2.
    for flag in ["--instance", "--fix-file"] {
        let (code, out, err) = run(&["solve", flag, &essence, "-f", "permutation"]);
        assert_eq!((code, out.trim()), (0, "3 1 4 2"), "{flag}: {err}");
    }
    let diagonals = write_temp(
        &dir,
        "d.param",
        "n = 5\nnumdiags = 2\ndiags = [[4, 1], [6, 0]]\n",
    );
    let (_, all, _) = run(&["count", "--instance", &diagonals]);
    let (_, none, _) = run(&["count", "--instance", &diagonals, "--diagonals", "0"]);
    assert_eq!(none.trim(), "10");
    let expected = naive::count(
        &Problem::with_blocks(
            5,
            [],
            (0..5u32)
                .flat_map(|r| (0..5u32).map(move |c| Queen::new(r, c)))
                .filter(|q| q.row + q.col == 4 || q.row as i64 - q.col as i64 == 2),
        )
        .unwrap(),
    );
    assert_eq!(all.trim(), expected.to_string());
    assert_usage_error(
        &["count", "--instance", &diagonals, "--diagonals", "3"],
        "3 diagonals asked for, but diags lists 2",
    );
    assert_usage_error(&["count", "5", "--diagonals", "1"], "give --instance PATH");
    let broken = write_temp(
        &dir,
        "x.param",
        "letting n = 4\nletting blocks = [[1,2] [3,4]]\n",
    );
    assert_usage_error(
        &["count", "--instance", &broken],
        "line 2, column 25: expected ',' or ']', found '['",
    );
    // gen-blocked: the same seed gives the same board; it reads back and counts.
    let (code, a, err) = run(&[
        "gen-blocked",
        "9",
        "--blocks",
        "25",
        "--min-free",
        "2",
        "--seed",
        "4",
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, b, _) = run(&[
        "gen-blocked",
        "9",
        "--blocks",
        "25",
        "--min-free",
        "2",
        "--seed",
        "4",
    ]);
    assert_eq!(a, b);
    assert_eq!(a.lines().filter(|l| l.starts_with('!')).count(), 25);
    let board = nqueens_solver::formats::partial::parse(&a)
        .unwrap()
        .to_problem()
        .unwrap();
    let (code, out, _) = run_with(&["count", "--fix-file", "-"], &a);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), naive::count(&board).to_string());
    assert_usage_error(
        &["gen-blocked", "4", "--blocks", "13", "--min-free", "1"],
        "cannot block 13 squares of a 4×4 board keeping 1 open in every row and column: at most 12",
    );
}

/// `list --unique` lists exactly the first member of each class under the symmetries the board
/// keeps (the oracle: the naive solutions that are canonical under `Group::of`), as many as
/// `count --unique` counts; `--stats` names the symmetries used.
#[test]
fn list_unique_gives_one_solution_per_class_and_stats_name_the_symmetries() {
    use nqueens_solver::board::symmetry::Group;
    let boards: [(&[&str], &str); 4] = [
        (&[], "all 8 rotations and reflections"),
        (
            &["--block", "1:1"],
            "2 of 8: identity, main-diagonal reflection",
        ),
        (
            &[
                "--block", "1:1", "--block", "8:8", "--block", "1:8", "--block", "8:1",
            ],
            "all 8 rotations and reflections",
        ),
        (&["--block", "1:2"], "1 of 8: identity"),
    ];
    for (flags, group_words) in boards {
        let blocked: Vec<Queen> = flags
            .chunks(2)
            .map(|pair| nqueens_solver::formats::partial::parse_square(pair[1]).unwrap())
            .collect();
        let problem = Problem::with_blocks(8, [], blocked).unwrap();
        let group = Group::of(&problem);
        let expected: Vec<Vec<u32>> = naive::solutions(&problem)
            .into_iter()
            .filter(|s| group.is_canonical(s))
            .map(|s| s.into_columns())
            .collect();
        let mut list = vec!["list", "8", "--unique", "-f", "coords", "--stats"];
        list.extend(flags);
        let (code, out, err) = run(&list);
        assert_eq!(code, 0, "{flags:?}: {err}");
        let mut listed: Vec<Vec<u32>> = out
            .lines()
            .map(|l| parse_coords(l).into_columns())
            .collect();
        listed.sort();
        assert_eq!(listed, expected, "{flags:?}");
        assert!(
            err.contains(&format!("symmetries={group_words}\n")),
            "{flags:?}: {err}"
        );
        let mut count = vec!["count", "8", "--unique", "--stats"];
        count.extend(flags);
        for method in ["auto", "backtrack", "dlx"] {
            let mut with_method = count.clone();
            with_method.extend(["--method", method]);
            let (code, out, err) = run(&with_method);
            assert_eq!(code, 0, "{err}");
            assert_eq!(out.trim(), expected.len().to_string(), "{method} {flags:?}");
            assert!(
                err.contains(&format!("symmetries={group_words}\n")),
                "{err}"
            );
        }
    }
    // A limit counts classes.
    let (_, out, _) = run(&["list", "8", "--unique", "--limit", "5", "-f", "permutation"]);
    assert_eq!(out.lines().count(), 5);
}
