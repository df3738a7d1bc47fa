//! Huge boards through the binary: `--method construct` and `local`, the streamed formats, the
//! grid limit and `nqueens verify`.

use std::collections::HashSet;
use std::io::Write;

use crate::util::{parse_permutation, run, run_with};
use nqueens_solver::{Problem, Solution, verify};

#[test]
fn construct_solves_every_listed_size_and_refuses_two_and_three() {
    for n in ["1", "4", "5", "8", "9", "14", "15", "1000", "100000"] {
        let (code, stdout, stderr) = run(&["solve", n, "-m", "construct", "-f", "permutation"]);
        assert_eq!(code, 0, "n = {n}: {stderr}");
        let columns = parse_permutation(&stdout);
        let problem = Problem::new(n.parse().unwrap()).unwrap();
        assert_eq!(
            verify(&problem, &Solution::from_columns(columns)),
            Ok(()),
            "n = {n}"
        );
    }
    for n in ["2", "3"] {
        let (code, stdout, stderr) = run(&["solve", n, "-m", "construct"]);
        assert_eq!(
            (code, stdout.as_str(), stderr.as_str()),
            (1, "", "no solution\n")
        );
    }
}

#[test]
fn construct_refuses_fixed_queens_and_counting() {
    let (code, _, stderr) = run(&["solve", "8", "-m", "construct", "--fix", "1:1"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: the construct method cannot find a solution: the construction cannot keep fixed \
         queens; local search can (--method backtrack, dlx, dlx-gadgets, sat, cp or local can)\n"
    );
    let (code, _, stderr) = run(&["count", "8", "-m", "construct"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: the construct method cannot count"));
}

#[test]
fn auto_uses_the_construction_for_big_boards() {
    let (code, stdout, stderr) = run(&["solve", "100", "--stats", "-f", "permutation"]);
    assert_eq!(code, 0);
    assert!(stderr.starts_with("method=construct "), "{stderr}");
    // n = 100 is 4 mod 6: the evens, then the odds.
    let expected: Vec<u32> = (0..50)
        .map(|k| 2 * k + 1)
        .chain((0..50).map(|k| 2 * k))
        .collect();
    assert_eq!(parse_permutation(&stdout), expected);
}

#[test]
fn local_search_gives_many_valid_solutions_by_seed() {
    let problem = Problem::new(8).unwrap();
    let mut distinct = HashSet::new();
    for seed in 0..100 {
        let seed = seed.to_string();
        let (code, stdout, stderr) = run(&[
            "solve",
            "8",
            "-m",
            "local",
            "--seed",
            &seed,
            "-f",
            "permutation",
        ]);
        assert_eq!(code, 0, "seed {seed}: {stderr}");
        let columns = parse_permutation(&stdout);
        assert_eq!(
            verify(&problem, &Solution::from_columns(columns.clone())),
            Ok(())
        );
        distinct.insert(columns);
    }
    assert!(distinct.len() >= 20, "only {} distinct", distinct.len());
    // The same seed, the same answer.
    let a = run(&[
        "solve",
        "5000",
        "-m",
        "local",
        "--seed",
        "9",
        "-f",
        "permutation",
    ]);
    let b = run(&[
        "solve",
        "5000",
        "-m",
        "local",
        "--seed",
        "9",
        "-f",
        "permutation",
    ]);
    assert_eq!(a, b);
}

#[test]
fn local_search_keeps_fixed_queens_and_gives_up_on_impossible_ones() {
    let (code, stdout, stderr) = run(&[
        "solve", "200", "-m", "local", "--fix", "1:1", "--fix", "100:37", "-f", "coords",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let queens: Vec<&str> = stdout.split_whitespace().collect();
    assert_eq!(queens.len(), 200);
    assert_eq!(queens[0], "1:1");
    assert_eq!(queens[99], "100:37");
    // The JSON output lists the fixed queens too.
    let (_, json, _) = run(&["solve", "200", "-m", "local", "--fix", "1:1", "-f", "json"]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["fixed"], serde_json::json!([[1, 1]]));
    assert_eq!(value["columns"][0], 1);

    // A corner queen on 4×4 leaves no solution: local search cannot prove it, so it stops at
    // its limit with exit 3, and never prints a board.
    let (code, stdout, stderr) = run(&["solve", "4", "-m", "local", "--fix", "1:1"]);
    assert_eq!((code, stdout.as_str()), (3, ""));
    assert_eq!(
        stderr,
        "gave up after 1000 attempts of 1000 repair steps each (local method)\n"
    );
}

#[test]
fn grid_formats_are_refused_for_large_boards() {
    for format in ["unicode", "ascii", "matrix", "svg"] {
        let (code, stdout, stderr) = run(&["solve", "1001", "-f", format]);
        assert_eq!((code, stdout.as_str()), (2, ""), "{format}");
        assert_eq!(
            stderr,
            format!(
                "error: the {format} format draws all n² squares and is limited to n ≤ 1000; \
                 for n = 1001 use --format permutation, coords or json\n"
            )
        );
    }
    // At the limit the grid is still drawn.
    let (code, stdout, _) = run(&["solve", "1000", "-f", "ascii"]);
    assert_eq!(code, 0);
    assert_eq!(stdout.lines().count(), 1000);
    // With no format asked for, a huge board is written as a permutation.
    let (code, stdout, _) = run(&["solve", "1001"]);
    assert_eq!(code, 0);
    assert_eq!(parse_permutation(&stdout).len(), 1001);
}

#[test]
fn the_three_streamed_formats_agree() {
    let n = "20000";
    let (_, permutation, _) = run(&["solve", n, "-m", "local", "-f", "permutation"]);
    let (_, coords, _) = run(&["solve", n, "-m", "local", "-f", "coords"]);
    let (_, json, _) = run(&["solve", n, "-m", "local", "-f", "json"]);
    let columns = parse_permutation(&permutation);
    let from_coords: Vec<u32> = coords
        .split_whitespace()
        .enumerate()
        .map(|(row, pair)| {
            let (r, c) = pair.split_once(':').unwrap();
            assert_eq!(r.parse::<usize>().unwrap(), row + 1);
            c.parse::<u32>().unwrap() - 1
        })
        .collect();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["n"], 20000);
    let from_json: Vec<u32> = value["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap() as u32 - 1)
        .collect();
    assert_eq!(columns.len(), 20000);
    assert_eq!(columns, from_coords);
    assert_eq!(columns, from_json);
}

#[test]
fn verify_accepts_what_solve_and_list_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    let path = path.to_str().unwrap();
    let (code, stdout, _) = run(&["solve", "1000000", "-o", path]);
    assert_eq!((code, stdout.as_str()), (0, ""));
    let (code, stdout, stderr) = run(&["verify", path]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(stdout, "ok: 1 solution of 1000000-queens verified\n");

    let (_, listed, _) = run(&["list", "8", "-f", "coords"]);
    let (code, stdout, _) = run_with(&["verify", "-"], &listed);
    assert_eq!(code, 0);
    assert_eq!(stdout, "ok: 92 solutions of 8-queens verified\n");
    let (code, stdout, _) = run_with(&["verify", "-", "-n", "8"], "2 4 1 3\n");
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
}

#[test]
fn verify_names_the_first_conflict_and_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("claims.txt");
    let mut file = std::fs::File::create(&path).unwrap();
    writeln!(file, "# from another tool\n2 4 1 3\n\n1 3 4 2\n1 3 5 2 4").unwrap();
    drop(file);
    let path = path.to_str().unwrap();
    let (code, stdout, stderr) = run(&["verify", path]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        format!("error: {path}:4: queens 2:3 and 3:4 attack each other along a diagonal\n")
    );
    let cases = [
        (
            "1:2 2:4 2:1 4:3\n",
            1,
            "standard input:1: queens 2:4 and 2:1 attack each other along a row",
        ),
        (
            "2 4 1 1\n",
            1,
            "standard input:1: queens 3:1 and 4:1 attack each other along a column",
        ),
        (
            "2 4 1 5\n",
            1,
            "standard input:1: the queen on row 4 is in column 5, off the 4-column board",
        ),
        ("2 4 one 3\n", 2, "standard input:1:5: unexpected 'o'"),
        (
            "1:2 4\n",
            2,
            "standard input:1:5: the line mixes ROW:COL pairs and plain columns",
        ),
        ("# nothing\n", 2, "standard input holds no solution"),
    ];
    for (input, expected_code, message) in cases {
        let (code, stdout, stderr) = run_with(&["verify", "-"], input);
        assert_eq!((code, stdout.as_str()), (expected_code, ""), "{input:?}");
        assert_eq!(stderr.lines().count(), 1, "{input:?}");
        assert!(
            stderr.starts_with(&format!("error: {message}")),
            "{input:?}: {stderr:?}"
        );
    }
    let (code, _, stderr) = run(&["verify", "/no/such/file"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: cannot read /no/such/file"));
}

/// The first rows a streamed line holds (its last, perhaps cut, token left out) in `format`.
fn first_rows(format: &str, head: &str) -> Vec<u32> {
    let (body, separator) = match format {
        "json" => (
            head.strip_prefix("{\"n\":4294967295,\"columns\":[")
                .expect("the JSON object opens with n and the columns"),
            ',',
        ),
        _ => (head, ' '),
    };
    let mut tokens: Vec<&str> = body.split(separator).collect();
    tokens.pop();
    (1u32..)
        .zip(tokens)
        .map(|(row, token)| {
            let column = match token.split_once(':') {
                Some((r, c)) if format == "coords" => {
                    assert_eq!(r.parse::<u32>().unwrap(), row, "{token}");
                    c
                }
                _ => token,
            };
            column.parse::<u32>().expect("a column") - 1
        })
        .collect()
}

#[test]
fn the_largest_construction_streams_in_constant_memory() {
    use std::io::Read;
    use std::time::Duration;

    use crate::stops::{spawn_capped, wait_bounded};

    // n = 2³² − 1 held as columns is 17 GB; streamed from its formula it fits in 200 MB of
    // address space, plain or read from a two-line instance file, in every line format. The
    // reader takes 256 KiB and closes the pipe: the writer then ends quietly, exit 0.
    let n = u32::MAX;
    let construction = nqueens_solver::engines::construct::strides(n).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let instance = dir.path().join("plain.essence");
    std::fs::write(&instance, "letting n = 4294967295\nletting blocks = []\n").unwrap();
    let instance = instance.to_str().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["solve", "4294967295", "-f", "permutation"], "permutation"),
        (&["solve", "4294967295", "-f", "coords"], "coords"),
        (&["solve", "4294967295", "-f", "json"], "json"),
        (
            &["solve", "--instance", instance, "-f", "permutation"],
            "permutation",
        ),
    ];
    for (args, format) in cases {
        let mut child = spawn_capped(args, 200 << 20);
        let mut head = String::new();
        let stdout = child.stdout.take().unwrap();
        stdout.take(256 << 10).read_to_string(&mut head).unwrap();
        // Closes the pipe.
        let out = wait_bounded(child, Duration::from_secs(60), &args.join(" "));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            (out.status.code(), stderr.as_str()),
            (Some(0), ""),
            "{args:?}"
        );
        assert_eq!(head.len(), 256 << 10, "{args:?}");
        let rows = first_rows(format, &head);
        assert!(rows.len() > 10_000, "{args:?}: {} rows", rows.len());
        for (row, &col) in (0u32..).zip(&rows) {
            assert_eq!(Some(col), construction.column(row), "{args:?}: row {row}");
        }
    }
}
