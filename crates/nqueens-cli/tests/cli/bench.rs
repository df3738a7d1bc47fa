//! `nqueens bench` and `nqueens gen-completion` from the outside.

use std::collections::{BTreeMap, BTreeSet};

use nqueens_solver::methods::Method;
use predicates::prelude::*;

use crate::util::nqueens;

/// Parses the CSV (no field of a tiny run needs quoting except `reason`, which is last, so
/// splitting on all but the last column's commas is exact).
fn read_csv(text: &str) -> (Vec<String>, Vec<BTreeMap<String, String>>) {
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let rows = lines
        .map(|line| {
            let fields: Vec<&str> = line.splitn(header.len(), ',').collect();
            assert_eq!(fields.len(), header.len(), "{line}");
            header
                .iter()
                .cloned()
                .zip(fields.iter().map(|f| f.to_string()))
                .collect()
        })
        .collect();
    (header, rows)
}

#[test]
fn a_tiny_matrix_writes_the_table_csv_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("bench.csv");
    let svg = dir.path().join("bench.svg");
    nqueens()
        .args([
            "bench",
            "--sizes",
            "5-6",
            "-r",
            "2",
            "--timeout",
            "60",
            "--csv",
        ])
        .arg(&csv)
        .arg("--svg")
        .arg(&svg)
        .assert()
        .success()
        .stdout(predicate::str::starts_with("job "))
        .stdout(predicate::str::contains("backtrack"))
        .stderr(predicate::str::starts_with("bench: every answer checked: "));

    let (header, rows) = read_csv(&std::fs::read_to_string(&csv).unwrap());
    for column in [
        "job",
        "method",
        "n",
        "median_s",
        "min_s",
        "max_s",
        "peak_rss_kb",
        "answer",
        "status",
    ] {
        assert!(header.iter().any(|h| h == column), "no column {column}");
    }
    // Every job × method (but auto) × n has a row.
    let methods: Vec<&str> = Method::ALL
        .iter()
        .filter(|&&m| m != Method::Auto)
        .map(|m| m.name())
        .collect();
    assert_eq!(rows.len(), 4 * methods.len() * 2);
    let mut ok_methods: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for row in &rows {
        assert!(methods.contains(&row["method"].as_str()));
        match row["status"].as_str() {
            "ok" => {
                let (min, median, max): (f64, f64, f64) = (
                    row["min_s"].parse().unwrap(),
                    row["median_s"].parse().unwrap(),
                    row["max_s"].parse().unwrap(),
                );
                assert!(0.0 <= min && min <= median && median <= max, "{row:?}");
                assert!(row["peak_rss_kb"].parse::<u64>().unwrap() > 0);
                let expected = match (row["job"].as_str(), row["n"].as_str()) {
                    ("count", "5") => "10",
                    ("count", "6") => "4",
                    ("solve", _) => "found",
                    _ => row["answer"].as_str(),
                };
                assert_eq!(row["answer"], expected, "{row:?}");
                if row["method"] == "backtrack" {
                    assert!(row["stats"].starts_with("nodes="), "{row:?}");
                }
                ok_methods
                    .entry(row["job"].clone())
                    .or_default()
                    .insert(row["method"].clone());
            }
            // A method may decline a job (skipped) or, like local search, stop at a limit of
            // its own (gave-up); either way it says why.
            "skipped" | "gave-up" => assert!(!row["reason"].is_empty(), "{row:?}"),
            other => panic!("unexpected status {other}: {row:?}"),
        }
    }
    // The baseline does everything.
    for job in ["solve", "count", "completion", "blocked"] {
        assert!(ok_methods[job].contains("backtrack"));
    }

    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG is well-formed XML");
    let panels: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("panel"))
        .collect();
    assert_eq!(panels.len(), 4);
    for panel in panels {
        let job = panel.attribute("data-job").unwrap();
        let lines: BTreeSet<String> = panel
            .descendants()
            .filter(|n| n.has_tag_name("polyline") && n.attribute("class") == Some("series"))
            .map(|n| n.attribute("data-method").unwrap().to_string())
            .collect();
        let count = panel
            .descendants()
            .filter(|n| n.has_tag_name("polyline"))
            .count();
        assert_eq!(count, lines.len(), "one line per method in {job}");
        assert_eq!(lines, ok_methods[job], "the lines of {job}");
    }
    let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(texts.contains(&"n (board size)"));
    assert!(texts.contains(&"median time per run"));
    let caption = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("caption"))
        .and_then(|n| n.text())
        .unwrap();
    assert!(caption.contains("cores"), "{caption}");
}

// A wrong or disagreeing answer failing the bench is pinned by the unit tests of
// `nqueens-bench`'s `check::cross_check`, which feed it deliberately wrong cells.

#[test]
fn bench_usage_errors_are_one_line() {
    for (args, message) in [
        (&["bench", "--sizes", "9-4"][..], "the range 9-4 is empty"),
        (
            &["bench", "--sizes", "0"][..],
            "the board size must be at least 1",
        ),
        (
            &["bench", "--timeout=0"][..],
            "expected a number of seconds",
        ),
        (
            &["bench", "--workloads", "dance"][..],
            "invalid value 'dance'",
        ),
        (&["bench", "--n", "9-4"][..], "the range 9-4 is empty"),
        (&["bench", "--jobs", "dance"][..], "invalid value 'dance'"),
    ] {
        nqueens()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message))
            .stderr(predicate::function(|s: &str| s.lines().count() == 1));
    }
}

#[test]
fn the_old_flag_names_still_work_but_are_not_advertised() {
    let run = |args: &[&str]| {
        let out = nqueens()
            .args(["bench", "--methods", "backtrack", "-r", "1"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        // The table without the timings: job, method, n, answer, status.
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .skip(1)
            .map(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                format!(
                    "{} {} {} {}",
                    words[0],
                    words[1],
                    words[2],
                    words[words.len() - 2]
                )
            })
            .collect::<Vec<_>>()
    };
    let new = run(&["--workloads", "count,solve", "--sizes", "5-6"]);
    assert_eq!(
        new,
        [
            "solve backtrack 5 found",
            "solve backtrack 6 found",
            "count backtrack 5 10",
            "count backtrack 6 4"
        ]
    );
    assert_eq!(run(&["--jobs", "count,solve", "--n", "5-6"]), new);
    let help = nqueens().args(["bench", "--help"]).output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("--workloads <WORKLOAD>"), "{help}");
    assert!(help.contains("--sizes <SIZES>"), "{help}");
    assert!(!help.contains("--jobs") && !help.contains("--n "), "{help}");
}

#[test]
fn a_timeout_is_drawn_as_a_marker_and_later_sizes_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, svg) = (dir.path().join("b.csv"), dir.path().join("b.svg"));
    // Counting the 14.8 million solutions of n = 16 on one thread takes seconds, never 50 ms.
    nqueens()
        .args(["bench", "--workloads", "count", "--methods", "backtrack"])
        .args([
            "--sizes",
            "6,16,17",
            "-r",
            "1",
            "--timeout",
            "0.05",
            "--csv",
        ])
        .arg(&csv)
        .arg("--svg")
        .arg(&svg)
        .assert()
        .success()
        .stderr(predicate::str::contains("1 ok, 1 skipped, 1 timed out"));
    let (_, rows) = read_csv(&std::fs::read_to_string(&csv).unwrap());
    let status: Vec<&str> = rows.iter().map(|r| r["status"].as_str()).collect();
    assert_eq!(status, ["ok", "timeout", "skipped"]);
    assert_eq!(rows[2]["reason"], "timed out at n = 16");
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let markers: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("timeout"))
        .map(|n| {
            (
                n.attribute("data-method").unwrap(),
                n.attribute("data-n").unwrap(),
            )
        })
        .collect();
    assert_eq!(markers, [("backtrack", "16")]);
    let line = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("series"))
        .unwrap();
    assert_eq!(
        line.attribute("points").unwrap().split(' ').count(),
        1,
        "only n = 6 finished"
    );
}

#[test]
fn each_share_of_fixed_queens_is_a_panel_and_a_csv_column() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, svg) = (dir.path().join("b.csv"), dir.path().join("b.svg"));
    nqueens()
        .args([
            "bench",
            "--workloads",
            "completion",
            "--methods",
            "backtrack,cp",
        ])
        .args(["--sizes", "8,12", "--fixed", "50,25", "-r", "1", "--csv"])
        .arg(&csv)
        .arg("--svg")
        .arg(&svg)
        .assert()
        .success()
        .stdout(predicate::str::is_match(r"completion 50% +backtrack +12 ").unwrap());
    let (_, rows) = read_csv(&std::fs::read_to_string(&csv).unwrap());
    let fixed: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["n"].as_str(), r["fixed"].as_str()))
        .collect();
    // 25% first (sorted), each method over n: ⌊n/4⌋ then ⌊n/2⌋ queens.
    assert_eq!(
        fixed,
        [
            ("8", "2"),
            ("12", "3"),
            ("8", "2"),
            ("12", "3"),
            ("8", "4"),
            ("12", "6"),
            ("8", "4"),
            ("12", "6")
        ]
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let panels: Vec<Option<&str>> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("panel"))
        .map(|n| n.attribute("data-fixed"))
        .collect();
    assert_eq!(panels, [Some("25"), Some("50")]);
}

/// The blocked workload counts the solutions of the board `gen-blocked` draws with the seed the
/// bench names, and every method that counts agrees with the naive oracle on it; a method
/// skipped for one reason at every size says so once, on one row.
#[test]
fn the_blocked_workload_counts_gen_blocked_boards_and_skips_say_why_once() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("b.csv");
    let out = nqueens()
        .args(["bench", "--workloads", "blocked"])
        .args(["--methods", "backtrack,dlx,counter,construct,local"])
        .args(["--sizes", "6,7,8", "-r", "1", "--csv"])
        .arg(&csv)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let table = String::from_utf8(out.stdout).unwrap();
    let (_, rows) = read_csv(&std::fs::read_to_string(&csv).unwrap());
    assert_eq!(rows.len(), 5 * 3, "one CSV row per method and size");
    for row in rows.iter().filter(|r| r["status"] == "ok") {
        let n: u32 = row["n"].parse().unwrap();
        // The bench's board: a quarter of the squares, seed 1 + n (the default --seed is 1).
        let problem = nqueens_solver::instances::generate::random_blocked(
            n,
            u64::from(n * n / 4),
            1,
            1 + u64::from(n),
        )
        .unwrap();
        assert_eq!(
            row["answer"],
            nqueens_solver::board::naive::count(&problem).to_string(),
            "{row:?}"
        );
        assert_eq!(row["job"], "blocked");
    }
    assert_eq!(rows.iter().filter(|r| r["status"] == "ok").count(), 3 * 3);
    // construct and local cannot count: one row each, the sizes as a range, the reason once.
    for method in ["construct", "local"] {
        let lines: Vec<&str> = table
            .lines()
            .filter(|l| l.contains(&format!(" {method} ")))
            .collect();
        assert_eq!(lines.len(), 1, "{table}");
        assert!(
            lines[0].contains("6–8") && lines[0].contains("skipped: the"),
            "{table}"
        );
    }
    let reasons: Vec<&str> = table.lines().filter(|l| l.contains("skipped:")).collect();
    assert_eq!(reasons.len(), 2, "{table}");
}

#[test]
fn scale_and_quick_do_not_mix() {
    nqueens()
        .args(["bench", "--scale", "--quick"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
}

#[test]
fn gen_completion_writes_a_board_the_solver_reads() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("board.txt");
    nqueens()
        .args(["gen-completion", "8", "--queens", "3", "--seed", "2", "-o"])
        .arg(&file)
        .assert()
        .success();
    let text = std::fs::read_to_string(&file).unwrap();
    let board = nqueens_solver::formats::partial::parse(&text).unwrap();
    assert_eq!((board.n, board.queens.len()), (8, 3));
    board
        .to_problem()
        .expect("the queens do not attack each other");
    // Same seed, same board; and the file is what the library draws.
    nqueens()
        .args(["gen-completion", "8", "-k", "3", "--seed", "2"])
        .assert()
        .success()
        .stdout(text.clone());
    let drawn = nqueens_solver::instances::generate::random_partial(
        8,
        3,
        2,
        nqueens_solver::instances::generate::DEFAULT_TRIES,
    );
    assert_eq!(board.to_problem().unwrap(), drawn.unwrap());
    nqueens()
        .arg("count")
        .arg("--fix-file")
        .arg(&file)
        .assert()
        .success();
}

#[test]
fn gen_completion_errors() {
    nqueens()
        .args(["gen-completion", "4", "--queens", "5"])
        .assert()
        .code(2)
        .stderr("error: cannot place 5 non-attacking queens on a 4×4 board: at most 4 fit\n");
    nqueens()
        .args(["gen-completion", "3", "--queens", "3"])
        .assert()
        .code(2)
        .stderr("error: cannot place 3 non-attacking queens on a 3×3 board: at most 2 fit\n");
    nqueens()
        .args([
            "gen-completion",
            "12",
            "--queens",
            "12",
            "--max-tries",
            "100",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "no non-attacking placement of 12 queens on a 12×12 board found in 100 random draws",
        ));
    nqueens().args(["gen-completion", "8"]).assert().code(2);
}
