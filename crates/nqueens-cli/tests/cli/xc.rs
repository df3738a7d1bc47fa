//! The exact cover side of the binary: `--method dlx` and `dlx-gadgets`, `nqueens xc` and
//! `nqueens xc-export`.

use std::path::PathBuf;

use crate::util::{interrupted, parse_coords, run, run_with, write_temp};
use nqueens_solver::{Problem, Queen, Solution, instances::oeis, verify};

/// A fixture of the exact-cover crate's tests.
fn fixture(name: &str) -> String {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "exact-cover",
        "tests",
        "fixtures",
        name,
    ]
    .iter()
    .collect();
    path.to_str().expect("a UTF-8 path").to_string()
}

#[test]
fn dlx_methods_count_a000170() {
    for method in ["dlx", "dlx-gadgets"] {
        for n in 1..=10u32 {
            let (code, stdout, stderr) = run(&["count", &n.to_string(), "--method", method]);
            assert_eq!(code, 0, "{method} n={n}: {stderr}");
            assert_eq!(stdout, format!("{}\n", oeis::total(n).unwrap()), "{method}");
        }
        let (code, stdout, _) = run(&["count", "8", "--unique", "--method", method]);
        assert_eq!((code, stdout.as_str()), (0, "12\n"), "{method}");
    }
}

#[test]
fn dlx_methods_list_and_solve_verified_boards() {
    for method in ["dlx", "dlx-gadgets"] {
        let (code, stdout, _) = run(&["list", "6", "--method", method, "--format", "coords"]);
        assert_eq!(code, 0);
        let problem = Problem::new(6).unwrap();
        let boards: Vec<Solution> = stdout.lines().map(parse_coords).collect();
        assert_eq!(boards.len(), 4, "{method}: {stdout}");
        for board in &boards {
            assert_eq!(verify(&problem, board), Ok(()));
        }
        // Gadgets make first solutions of large boards slow (see the dlx module).
        let sizes: &[&str] = if method == "dlx" {
            &["8", "30", "64"]
        } else {
            &["8", "12"]
        };
        for &n in sizes {
            let (code, stdout, stderr) = run(&[
                "solve", n, "--method", method, "--format", "coords", "--stats",
            ]);
            assert_eq!(code, 0, "{method} n={n}: {stderr}");
            let n: u32 = n.parse().unwrap();
            let board = parse_coords(stdout.trim());
            assert_eq!(verify(&Problem::new(n).unwrap(), &board), Ok(()));
            assert!(
                stderr.starts_with(&format!("method={method} ")) && stderr.contains(" nodes="),
                "{stderr}"
            );
        }
        // Fixed queens are kept.
        let (code, stdout, _) = run(&[
            "solve", "8", "--fix", "1:1", "--fix", "2:5", "--method", method, "--format", "coords",
        ]);
        assert_eq!(code, 0);
        let problem = Problem::with_fixed(8, [Queen::new(0, 0), Queen::new(1, 4)]).unwrap();
        assert_eq!(verify(&problem, &parse_coords(stdout.trim())), Ok(()));
        let (code, _, stderr) = run(&["solve", "4", "--fix", "1:1", "--method", method]);
        assert_eq!((code, stderr.as_str()), (1, "no solution\n"));
        let (code, _, stderr) = run(&["solve", "1001", "--method", method]);
        assert_eq!(code, 2);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("1000"), "{stderr}");
    }
}

#[test]
fn xc_prints_the_first_solution_as_options() {
    let (code, stdout, stderr) = run(&["xc", &fixture("knuth.dlx")]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let mut options: Vec<&str> = stdout.lines().collect();
    options.sort_unstable();
    assert_eq!(options, ["A D", "B G", "C E F"]);
    // Colors are printed as written.
    let (code, stdout, _) = run(&["xc", &fixture("xcc.dlx")]);
    assert_eq!(code, 0);
    let mut options: Vec<&str> = stdout.lines().collect();
    options.sort_unstable();
    assert_eq!(options, ["p r x:A y", "q x:A"]);
}

#[test]
fn xc_counts_limits_and_seeds() {
    let colors = fixture("shared-color.dlx");
    assert_eq!(
        run(&["xc", &colors, "--count"]),
        (0, "3\n".into(), String::new())
    );
    // Every solution, separated by blank lines; each a set of options covering a and b.
    let (code, stdout, _) = run(&["xc", &colors, "--limit", "10"]);
    assert_eq!(code, 0);
    let mut solutions: Vec<Vec<&str>> = stdout
        .split("\n\n")
        .map(|block| {
            let mut options: Vec<&str> = block.lines().collect();
            options.sort_unstable();
            options
        })
        .collect();
    solutions.sort();
    assert_eq!(
        solutions,
        [vec!["a x", "b"], vec!["a x:1", "b"], vec!["a x:1", "b x:1"]]
    );
    let (_, two, _) = run(&["xc", &colors, "--limit", "2"]);
    assert_eq!(two.split("\n\n").count(), 2, "{two}");
    // A seed gives the same order every time.
    let seeded = run(&["xc", &colors, "--limit", "3", "--seed", "9"]);
    assert_eq!(seeded, run(&["xc", &colors, "--limit", "3", "--seed", "9"]));
    assert_eq!(seeded.0, 0);
    // Statistics on stderr only.
    let (code, stdout, stderr) = run(&["xc", &colors, "--count", "--stats"]);
    assert_eq!((code, stdout.as_str()), (0, "3\n"));
    assert!(
        stderr.starts_with("engine=bits elapsed=")
            && stderr.contains(" nodes=")
            && stderr.ends_with(" solutions=3\n"),
        "{stderr}"
    );
}

/// A file of the repository's `examples/` folder.
fn example(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "..", "examples", name]
        .iter()
        .collect();
    path.to_str().expect("a UTF-8 path").to_string()
}

#[test]
fn xc_engines_agree_and_say_which_ran() {
    let pentominoes = example("pentominoes-3x20.dlx");
    let mut nodes = Vec::new();
    for engine in ["links", "bits", "auto"] {
        let (code, stdout, stderr) =
            run(&["xc", &pentominoes, "--count", "--stats", "--engine", engine]);
        assert_eq!((code, stdout.as_str()), (0, "8\n"), "{engine}: {stderr}");
        let ran = if engine == "links" { "links" } else { "bits" };
        assert!(
            stderr.starts_with(&format!("engine={ran} ")),
            "{engine}: {stderr}"
        );
        assert_eq!(stderr.contains(" updates="), ran == "links", "{stderr}");
        let count = stderr
            .split_whitespace()
            .find_map(|field| field.strip_prefix("nodes="))
            .expect("nodes=");
        nodes.push(count.to_string());
        // The same solutions in the same order, with a seed too.
        let listed = run(&[
            "xc",
            &pentominoes,
            "--limit",
            "3",
            "--seed",
            "5",
            "--engine",
            engine,
        ]);
        assert_eq!(listed.0, 0);
        let links = run(&[
            "xc",
            &pentominoes,
            "--limit",
            "3",
            "--seed",
            "5",
            "--engine",
            "links",
        ]);
        assert_eq!(listed, links, "{engine}");
    }
    assert_eq!(nodes, ["32970", "32970", "32970"]);
    // The colored example and the Sudoku.
    let (code, stdout, _) = run(&["xc", &example("edge-matching-4x4.dlx"), "--count"]);
    assert_eq!((code, stdout.as_str()), (0, "32\n"));
    let (code, stdout, _) = run(&["xc", &example("sudoku-9x9.dlx")]);
    assert_eq!(code, 0);
    assert_eq!(stdout.lines().count(), 81);
    // A problem too large for the bit engine: one line, exit 2; auto takes dancing links.
    let mut big = (0..1100).map(|i| format!("x{i} ")).collect::<String>();
    big.push('\n');
    for i in 0..1100 {
        big.push_str(&format!("x{i}\n"));
    }
    let (code, stdout, stderr) = run_with(&["xc", "-", "--count", "--engine", "bits"], &big);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        "error: standard input: the bit engine does not take this problem: 1100 primary items (the bit engine takes at most 1024)\n"
    );
    let (code, stdout, stderr) = run_with(&["xc", "-", "--count", "--stats"], &big);
    assert_eq!((code, stdout.as_str()), (0, "1\n"));
    assert!(stderr.starts_with("engine=links "), "{stderr}");
    let (code, _, stderr) = run(&["xc", &pentominoes, "--engine", "fast"]);
    assert_eq!(code, 2);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn xc_without_solution_exits_1() {
    let unsolvable = fixture("unsolvable.dlx");
    assert_eq!(
        run(&["xc", &unsolvable]),
        (1, String::new(), "no solution\n".into())
    );
    assert_eq!(
        run(&["xc", &unsolvable, "--count"]),
        (0, "0\n".into(), String::new())
    );
}

#[test]
fn xc_export_round_trips_through_xc() {
    for encoding in ["secondary", "gadgets"] {
        for n in [1u32, 4, 6, 8] {
            let (code, exported, _) = run(&["xc-export", &n.to_string(), "--encoding", encoding]);
            assert_eq!(code, 0);
            assert!(exported.starts_with(&format!("| {n}-queens")), "{exported}");
            let (code, stdout, _) = run_with(&["xc", "-", "--count"], &exported);
            assert_eq!(code, 0);
            assert_eq!(stdout, format!("{}\n", oeis::total(n).unwrap()));
        }
    }
    // The item line and a square's option, as documented.
    let (_, four, _) = run(&["xc-export", "4"]);
    let lines: Vec<&str> = four.lines().collect();
    assert_eq!(
        lines[1],
        "r3 c3 r2 c2 r4 c4 r1 c1 | a2 a3 a4 a5 a6 a7 a8 b-3 b-2 b-1 b0 b1 b2 b3"
    );
    assert_eq!(lines[2], "r1 c1 a2 b0");
    assert_eq!(lines.len(), 2 + 16);
    // The first solution, decoded by hand: one option per row, none sharing a column.
    let (code, stdout, _) = run_with(&["xc", "-"], &four);
    assert_eq!(code, 0);
    let mut options: Vec<&str> = stdout.lines().collect();
    options.sort_unstable();
    assert!(
        options == ["r1 c2 a3 b-1", "r2 c4 a6 b-2", "r3 c1 a4 b2", "r4 c3 a7 b1"]
            || options == ["r1 c3 a4 b-2", "r2 c1 a3 b1", "r3 c4 a7 b-1", "r4 c2 a6 b2"],
        "{options:?}"
    );
    // Fixed queens are built in: only completions remain.
    let (code, exported, _) = run(&["xc-export", "8", "--fix", "1:1"]);
    assert_eq!(code, 0);
    assert!(
        exported.starts_with("| 8-queens with 1 fixed queen"),
        "{exported}"
    );
    let (_, stdout, _) = run_with(&["xc", "-", "--count"], &exported);
    assert_eq!(stdout, "4\n");
}

#[test]
fn xc_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("a b\na c\n", "line 2, column 3: unknown item 'c'"),
        (
            "x | y\ny\n",
            "line 2, column 1: the option has no primary item",
        ),
        ("| only a comment\n", "no item line"),
        (
            "a | b\na b:\n",
            "line 2, column 3: 'b:' is not ITEM or ITEM:COLOR",
        ),
    ];
    for (i, (text, expected)) in cases.into_iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.dlx"));
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        let (code, stdout, stderr) = run(&["xc", path]);
        assert_eq!((code, stdout.as_str()), (2, ""), "{text:?}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(&format!("error: {path}: ")) && stderr.contains(expected),
            "{stderr:?} should name {expected:?}"
        );
    }
    assert_eq!(
        run_with(&["xc", "-"], "a b\na c\n"),
        (
            2,
            String::new(),
            "error: standard input: line 2, column 3: unknown item 'c'\n".into()
        )
    );
    let (code, _, stderr) = run(&["xc", "/nonexistent/p.dlx"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("error: cannot read /nonexistent/p.dlx"),
        "{stderr}"
    );
    let knuth = fixture("knuth.dlx");
    for args in [
        &["xc", &knuth, "--count", "--limit", "2"][..],
        &["xc", &knuth, "--limit", "0"],
        &["xc"],
        &["xc-export", "1001"],
        &["xc-export", "4", "--encoding", "colors"],
    ] {
        let (code, stdout, stderr) = run(args);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn xc_input_is_read_with_care() {
    // A byte-order mark at the start is accepted; Windows line ends too.
    let (code, stdout, stderr) = run_with(&["xc", "-", "--count"], "\u{feff}a b\r\na\r\nb\r\n");
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "1\n", ""));
    // An escape sequence in the input reaches the terminal escaped, and a huge token is cut.
    let (code, _, stderr) = run_with(&["xc", "-"], "a\na \u{1b}]0;pwned\u{7}\n");
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: standard input: line 2, column 3: unknown item '\\u{1b}]0;pwned\\u{7}'\n"
    );
    let huge = format!("a\na {}\n", "y".repeat(100_000));
    let (code, _, stderr) = run_with(&["xc", "-"], &huge);
    assert_eq!(code, 2);
    assert!(
        stderr.len() < 400 && stderr.ends_with("…'\n"),
        "{stderr:.100}"
    );
    // An endless line ends in an error, not in memory exhaustion.
    if std::path::Path::new("/dev/zero").exists() {
        let (code, stdout, stderr) = run(&["xc", "/dev/zero"]);
        assert_eq!((code, stdout.as_str()), (2, ""));
        assert!(
            stderr.starts_with("error: /dev/zero: line 1, column 16777217: the line is longer"),
            "{stderr}"
        );
    }
    // Text that is not UTF-8 is located.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("latin1.dlx");
    std::fs::write(&path, b"a b\nb a \xe9\n").unwrap();
    let path = path.to_str().unwrap();
    let (code, _, stderr) = run(&["xc", path]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        format!("error: {path}: line 2, column 5: the text is not UTF-8\n")
    );
}

#[test]
fn time_limits_stop_exact_cover_searches_with_exit_3() {
    use std::time::{Duration, Instant};
    let pentominoes = format!(
        "{}/../../examples/pentominoes-6x10.dlx",
        env!("CARGO_MANIFEST_DIR")
    );
    for args in [
        &["solve", "64", "-m", "dlx-gadgets", "--time-limit", "1"][..],
        &["count", "16", "-m", "dlx", "--time-limit", "0.5"],
        &[
            "xc",
            &pentominoes,
            "--count",
            "--engine",
            "links",
            "--time-limit",
            "0.5",
        ],
    ] {
        let start = Instant::now();
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, 3, "{args:?}: {stderr}");
        assert!(!stdout.contains(char::is_numeric), "{args:?}: {stdout}");
        assert!(stderr.contains("time limit reached"), "{args:?}: {stderr}");
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{args:?}: {:?}",
            start.elapsed()
        );
    }
    // A run under the limit is unaffected.
    let (code, stdout, _) = run(&["count", "10", "-m", "dlx", "--time-limit", "30"]);
    assert_eq!((code, stdout.as_str()), (0, "724\n"));
}

#[test]
fn ctrl_c_says_interrupted_once_and_never_gave_up() {
    // Two solutions of the 64-queens cover: the enumeration in the declared order takes far
    // longer than the 300 ms before Ctrl-C to find the first.
    let dir = tempfile::tempdir().unwrap();
    let (code, text, _) = run(&["xc-export", "64"]);
    assert_eq!(code, 0);
    let path = write_temp(&dir, "q64.dlx", &text);
    for engine in [&["--engine", "bits"][..], &["--engine", "links"]] {
        let args = [&["xc", path.as_str(), "--limit", "2"][..], engine].concat();
        let (code, _, stderr) = interrupted(&args, std::time::Duration::from_millis(300));
        assert_eq!(code, 130, "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr:?}");
        assert!(
            stderr.starts_with("interrupted after "),
            "{args:?}: {stderr:?}"
        );
    }
}

/// The queens of `xc`'s options for an exported N-Queens problem (`rR cC …`, 1-based).
fn queens_of_options(n: u32, options: &str) -> Solution {
    let mut cols = vec![u32::MAX; n as usize];
    for line in options.lines() {
        let mut words = line.split(' ');
        let row: u32 = words.next().unwrap()[1..].parse().unwrap();
        let col: u32 = words.next().unwrap()[1..].parse().unwrap();
        cols[row as usize - 1] = col - 1;
    }
    Solution::from_columns(cols)
}

#[test]
fn xc_finds_one_solution_fast_whatever_the_order() {
    for n in [64u32, 200] {
        let (_, organ_pipe, _) = run(&["xc-export", &n.to_string()]);
        // The same problem with the rows and columns in natural order, as a script writes it.
        let natural: String = organ_pipe
            .lines()
            .enumerate()
            .map(|(i, line)| match i {
                1 => {
                    let secondary = line.split_once('|').unwrap().1;
                    let rows = (1..=n).map(|r| format!("r{r} "));
                    let cols = (1..=n).map(|c| format!("c{c} "));
                    format!("{}|{secondary}\n", rows.chain(cols).collect::<String>())
                }
                _ => format!("{line}\n"),
            })
            .collect();
        for text in [&organ_pipe, &natural] {
            // Without the race of orders either takes minutes (over 300 million nodes at 64).
            let (code, stdout, stderr) =
                run_with(&["xc", "-", "--stats", "--time-limit", "20"], text);
            assert_eq!(code, 0, "n = {n}: {stderr}");
            let solution = queens_of_options(n, &stdout);
            verify(&Problem::new(n).unwrap(), &solution).unwrap();
            let nodes: u64 = stderr
                .split("nodes=")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert!(nodes < 100_000, "n = {n}: {stderr}");
        }
        // A seed is that order alone, and --limit 2 enumerates: both still give boards.
        let (code, stdout, _) = run_with(&["xc", "-", "--seed", "1"], &natural);
        assert_eq!(code, 0);
        verify(&Problem::new(n).unwrap(), &queens_of_options(n, &stdout)).unwrap();
    }
    let (_, help, _) = run(&["xc", "--help"]);
    assert!(help.contains("How much the order matters"), "{help}");
}
