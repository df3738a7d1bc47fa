//! What the tool writes, it reads back: every format that carries a board goes back in through
//! `--fix-file`, `--instance` and `verify`, blocked squares included, and a bad file is one
//! line that names the character and where it is.

use nqueens_solver::board::naive;
use nqueens_solver::{Problem, Queen, Solution};

use crate::util::{assert_usage_error, run, run_with, write_temp};

/// The board of these tests: 8×8, two blocked squares, one fixed queen.
const BOARD: [&str; 6] = ["8", "--block", "1:1", "--block", "3:3", "--fix"];

/// `solve` on [`BOARD`] (the fixed queen on 2:4) in `format`.
fn solved(format: &str) -> String {
    let mut args = vec!["solve"];
    args.extend(BOARD);
    args.extend(["2:4", "-f", format]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{format}: {err}");
    out
}

/// The queens of a `coords` line (blocked squares, marked `!`, left out).
fn queens(coords: &str) -> Vec<String> {
    let mut queens: Vec<String> = coords
        .split_whitespace()
        .filter(|t| !t.starts_with('!'))
        .map(String::from)
        .collect();
    queens.sort();
    queens
}

#[test]
fn every_format_with_a_board_reads_back_through_fix_file_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let reference = solved("coords");
    assert!(reference.contains(" !1:1 !3:3"), "{reference}");
    for format in [
        "unicode",
        "ascii",
        "matrix",
        "json",
        "coords",
        "permutation",
    ] {
        let text = solved(format);
        let path = write_temp(&dir, &format!("board.{format}"), &text);
        // The file as a board: every queen kept (so the same solution comes back), the blocked
        // squares blocked where the format keeps them; with N given or not.
        for args in [
            vec!["solve", "--fix-file", &path, "-f", "coords"],
            vec!["solve", "8", "--fix-file", &path, "-f", "coords"],
        ] {
            let (code, out, err) = run(&args);
            assert_eq!(code, 0, "{format} {args:?}: {err}");
            assert_eq!(queens(&out), queens(&reference), "{format}");
            let keeps_blocks = !matches!(format, "matrix" | "permutation");
            assert_eq!(out.contains("!1:1 !3:3"), keeps_blocks, "{format}: {out}");
        }
        // The file as solutions: verify reads it, alone and against the board it solves.
        let (code, out, err) = run(&["verify", &path]);
        assert_eq!(
            (code, out.as_str()),
            (0, "ok: 1 solution of 8-queens verified\n"),
            "{format}: {err}"
        );
        let (code, _, err) = run(&["verify", &path, "--fix-file", &path]);
        assert_eq!(code, 0, "{format}: {err}");
    }
}

/// SVG is the one format written and not read: a picture given back says so and names the
/// formats that read back, wherever a board or a solution file is read.
#[test]
fn an_svg_picture_is_refused_with_the_formats_that_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_temp(&dir, "board.svg", &solved("svg"));
    let said = "line 1, column 1: this is an SVG picture, which is written to be looked at and \
                is not read back: write the board in the coords, json, unicode or ascii format \
                to read it";
    let (code, _, err) = run(&["verify", &path]);
    assert_eq!(
        (code, err),
        (2, format!("error: {path}:1:1: {}\n", &said[18..]))
    );
    assert_usage_error(&["solve", "--fix-file", &path], &format!("{path}: {said}"));
    let xml = format!("<?xml version=\"1.0\"?>\n{}", solved("svg"));
    let (code, _, err) = run_with(&["verify", "-"], &xml);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("standard input:1:1: this is an SVG picture"),
        "{err}"
    );
}

#[test]
fn verify_holds_a_solution_to_the_blocked_squares_its_own_line_records() {
    // 2 4 1 3 puts a queen on 1:2: a record that blocks 1:2 is a wrong claim (exit 1).
    for text in [
        "{\"n\":4,\"columns\":[2,4,1,3],\"blocked\":[[1,2]]}\n",
        "1:2 2:4 3:1 4:3 !1:2\n",
    ] {
        let (code, _, err) = run_with(&["verify", "-"], text);
        assert_eq!(code, 1, "{text}");
        assert_eq!(
            err.trim(),
            "error: standard input:1: the queen on 1:2 stands on a blocked square",
            "{text}"
        );
    }
    // And to the fixed queens a json record lists.
    let (code, _, err) = run_with(
        &["verify", "-"],
        "{\"n\":4,\"columns\":[2,4,1,3],\"fixed\":[[1,3]]}\n",
    );
    assert_eq!(code, 1);
    assert!(err.contains("1:3"), "{err}");
}

#[test]
fn instance_files_read_back_through_verify_instance() {
    let dir = tempfile::tempdir().unwrap();
    let instance = write_temp(
        &dir,
        "i.param",
        "letting n = 8\nletting blocks = [[1,1], [2,3], [5,5]]\n",
    );
    let problem = Problem::with_blocks(
        8,
        [],
        [Queen::new(0, 0), Queen::new(1, 2), Queen::new(4, 4)],
    )
    .unwrap();
    let (code, json, err) = run(&["list", "--instance", &instance, "-f", "json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json.lines().count() as u128, naive::count(&problem));
    let (code, out, err) = run_with(&["verify", "-", "--instance", &instance], &json);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!(
            "ok: {} solutions of 8-queens verified\n",
            json.lines().count()
        )
    );
    // A solution of the bare board that uses a blocked square fails against the instance.
    let (code, _, err) = run_with(
        &["verify", "-", "--instance", &instance],
        "1 5 8 6 3 7 2 4\n",
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("the queen on 1:1 stands on a blocked square"),
        "{err}"
    );
    // --instance takes instances only, and says what the file is instead.
    let drawn = write_temp(&dir, "drawn.txt", &solved("unicode"));
    assert_usage_error(
        &["verify", "-", "--instance", &drawn],
        "is a drawn board, not a CSPLib instance",
    );
    // gen-blocked's file reads back through --fix-file, for list and for verify.
    let (code, generated, err) = run(&["gen-blocked", "8", "--blocks", "10", "--seed", "2"]);
    assert_eq!(code, 0, "{err}");
    let path = write_temp(&dir, "g.txt", &generated);
    let (code, listed, err) = run(&["list", "--fix-file", &path, "-f", "coords"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run_with(&["verify", "-", "--fix-file", &path], &listed);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("ok: "), "{out}");
}

#[test]
fn bad_input_names_the_character_and_its_place() {
    assert_eq!(
        run_with(&["verify", "-"], "2 4 ♕ 3\n").2.trim(),
        "error: standard input:1:5: unexpected '♕': expected 1-based columns (2 4 1 3) or \
         ROW:COL pairs (1:2 2:4 3:1 4:3)"
    );
    assert_eq!(
        run_with(&["verify", "-"], "{\"n\":4,\"columns\":[2,4,1,♛]}\n")
            .2
            .trim(),
        "error: standard input:1:25: expected a whole number, found '♛'"
    );
    assert_eq!(
        run_with(&["verify", "-"], "♕ · ·\n· · ♕\n· ♕ y\n").2.trim(),
        "error: standard input:3:5: 'y' is not a cell: use Q for a queen, x for a blocked square and . for an empty one"
    );
    let dir = tempfile::tempdir().unwrap();
    let drawn = write_temp(&dir, "b.txt", "× · ♕ ·\n♕ · ·\n");
    assert_usage_error(
        &["solve", "--fix-file", &drawn],
        "b.txt: line 2, column 6: row 2 has 3 cells, expected 4",
    );
}

/// `--diagonals` on a blocked-queens file points at its blocks, not inside `letting n = 8`; the
/// help says what a `diags` pair means, and the README too.
#[test]
fn diagonals_of_a_blocks_file_point_at_its_blocks_and_are_documented() {
    let (_, help, _) = run(&["solve", "--help"]);
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for rule in [
        "[d, 1] excludes the diagonal row + column = d",
        "[d, 0] the diagonal row − column = d − (n − 1), rows and columns counted from 0",
        "1-based [row, column]",
    ] {
        assert!(help.contains(rule), "{rule}: {help}");
    }
    let readme = include_str!("../../../../README.md")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        readme.contains("`[d, 1]` excludes the anti-diagonal of the squares whose row + column = d, `[d, 0]` the diagonal of those whose row − column = d − (n − 1)"),
        "the README explains diags"
    );
    let dir = tempfile::tempdir().unwrap();
    let instance = write_temp(
        &dir,
        "i.param",
        "letting n = 8\nletting blocks = [[1,1], [2,3]]\n",
    );
    assert_usage_error(
        &["count", "--instance", &instance, "--diagonals", "1"],
        "i.param: line 2, column 9: a number of diagonals was asked for, but this is a blocked n-Queens file (blocks, not diags)",
    );
}

/// The reading of each notation is the library's: the CLI agrees with `read::board` on every
/// written format, blocked squares included (an oracle on the text itself).
#[test]
fn the_cli_reads_what_the_library_reads() {
    let text = solved("json");
    let board = nqueens_solver::formats::read::board(&text, Default::default()).unwrap();
    let problem = board.to_problem().unwrap();
    let (code, out, err) = run_with(&["solve", "--fix-file", "-", "-f", "permutation"], &text);
    assert_eq!(code, 0, "{err}");
    let columns: Vec<u32> = out
        .split_whitespace()
        .map(|c| c.parse::<u32>().unwrap() - 1)
        .collect();
    assert!(nqueens_solver::verify(&problem, &Solution::from_columns(columns)).is_ok());
    assert_eq!(problem.blocked(), [Queen::new(0, 0), Queen::new(2, 2)]);
}

/// `gen-blocked` draws its board on request, and the drawing reads back as the same board; a
/// board left with a fully blocked row or column says so.
#[test]
fn gen_blocked_draws_its_board_and_warns_of_dead_rows() {
    let args = [
        "gen-blocked",
        "8",
        "--blocks",
        "20",
        "--min-free",
        "1",
        "--seed",
        "5",
    ];
    let (code, listed, err) = run(&args);
    assert_eq!((code, err.as_str()), (0, ""));
    let board = nqueens_solver::formats::partial::parse(&listed).unwrap();
    for (format, cell) in [("unicode", '×'), ("ascii", 'x')] {
        let mut drawn_args = args.to_vec();
        drawn_args.extend(["-f", format]);
        let (code, drawn, err) = run(&drawn_args);
        assert_eq!((code, err.as_str()), (0, ""), "{format}");
        assert_eq!(drawn.lines().count(), 8, "{drawn}");
        assert_eq!(drawn.matches(cell).count(), 20, "{drawn}");
        let read = nqueens_solver::formats::read::board(&drawn, Default::default()).unwrap();
        assert_eq!(read, board, "{format}");
        // And the CLI counts the drawing as it counts the list.
        let (_, a, _) = run_with(&["count", "--fix-file", "-"], &drawn);
        let (_, b, _) = run_with(&["count", "--fix-file", "-"], &listed);
        assert_eq!(a, b, "{format}");
    }
    // 60 of 64 squares blocked with no open square kept: rows die, and a warning names them.
    let (code, text, err) = run(&["gen-blocked", "8", "--blocks", "60"]);
    assert_eq!(code, 0);
    let problem = nqueens_solver::formats::partial::parse(&text)
        .unwrap()
        .to_problem()
        .unwrap();
    let dead_rows: Vec<String> = (0..8u32)
        .filter(|&r| (0..8).all(|c| problem.is_blocked(r, c)))
        .map(|r| (r + 1).to_string())
        .collect();
    assert!(dead_rows.len() >= 4, "{text}");
    assert!(
        err.starts_with(&format!("warning: rows {}", dead_rows.join(", "))),
        "{err}"
    );
    assert!(
        err.contains("no solution") && err.contains("--min-free 1"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(naive::count(&problem), 0);
    assert_usage_error(
        &["gen-blocked", "1001", "--blocks", "1", "-f", "ascii"],
        "the ascii format draws all n² squares and is limited to n ≤ 1000; for n = 1001 use \
         --format fix-file (the default)",
    );
    // The advice names only formats gen-blocked takes.
    let (_, _, stderr) = run(&["gen-blocked", "1001", "--blocks", "1", "-f", "unicode"]);
    assert!(!stderr.contains("permutation"), "{stderr}");
}

/// The formats with no mark for a blocked square say in `--help` that they drop them; the
/// ones that keep them say how.
#[test]
fn help_says_which_formats_keep_blocked_squares() {
    let (code, help, _) = run(&["solve", "--help"]);
    assert_eq!(code, 0);
    for (format, says) in [
        ("unicode:", "blocked squares ×"),
        ("ascii:", "blocked squares x"),
        ("matrix:", "blocked squares are 0s: not kept"),
        ("coords:", "!ROW:COL"),
        ("json:", "\"blocked\""),
        ("svg:", "crossed out"),
        ("permutation:", "not kept"),
    ] {
        let at = help
            .find(format)
            .unwrap_or_else(|| panic!("{format}: {help}"));
        let entry: String = help[at..].split("\n          - ").next().unwrap().into();
        assert!(
            entry
                .replace('\n', " ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(says),
            "{format}: {entry}"
        );
    }
}
