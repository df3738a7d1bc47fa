//! Completion at scale from the outside: `gen-completion --method`, and `auto` on the boards it
//! draws (every answer checked by the library's verifier).

use std::time::Instant;

use nqueens_solver::formats::partial;
use nqueens_solver::instances::generate::{Placement, generate};

use crate::util::{assert_one_line_error, run};

fn parse(text: &str) -> nqueens_solver::Problem {
    partial::parse(text).unwrap().to_problem().unwrap()
}

#[test]
fn each_method_writes_the_board_the_library_draws() {
    for (name, placement) in [
        ("uniform", Placement::Uniform),
        ("sequential", Placement::Sequential),
        ("from-solution", Placement::FromSolution),
    ] {
        let args = [
            "gen-completion",
            "30",
            "-k",
            "12",
            "--method",
            name,
            "--seed",
            "5",
        ];
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(out.contains(&format!("--method {name} --seed 5")), "{out}");
        let problem = parse(&out);
        assert_eq!(problem.fixed().len(), 12);
        assert_eq!(
            problem,
            generate(placement, 30, 12, 5, None).unwrap(),
            "{name}"
        );
        assert_eq!(run(&args).1, out, "{name}: same seed, same board");
    }
}

#[test]
fn from_solution_boards_always_complete() {
    for seed in 0..5 {
        let (_, board, _) = run(&[
            "gen-completion",
            "60",
            "-k",
            "50",
            "--method",
            "from-solution",
            "--seed",
            &seed.to_string(),
        ]);
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("b.txt");
        std::fs::write(&file, &board).unwrap();
        let (code, out, err) = run(&[
            "solve",
            "--fix-file",
            file.to_str().unwrap(),
            "-f",
            "permutation",
        ]);
        assert_eq!(code, 0, "seed {seed}: {err}");
        let columns: Vec<u32> = out
            .split_whitespace()
            .map(|c| c.parse::<u32>().unwrap() - 1)
            .collect();
        let solution = nqueens_solver::Solution::from_columns(columns);
        assert_eq!(nqueens_solver::verify(&parse(&board), &solution), Ok(()));
    }
}

#[test]
fn large_sequential_and_from_solution_boards_come_fast() {
    for method in ["sequential", "from-solution"] {
        let start = Instant::now();
        let (code, out, err) = run(&["gen-completion", "3000", "-k", "2700", "--method", method]);
        assert_eq!(code, 0, "{method}: {err}");
        assert_eq!(parse(&out).fixed().len(), 2700);
        assert!(
            start.elapsed().as_secs_f64() < 10.0,
            "{method}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn impossible_requests_are_refused_at_once() {
    let start = Instant::now();
    for method in ["uniform", "sequential", "from-solution"] {
        assert_one_line_error(
            &["gen-completion", "8", "-k", "9", "--method", method],
            2,
            "cannot place 9 non-attacking queens on an 8×8 board: at most 8 fit",
        );
    }
    assert_one_line_error(
        &["gen-completion", "1000", "-k", "999"],
        2,
        "a uniform draw of 999 non-attacking queens on a 1000×1000 board succeeds about once in 10^",
    );
    assert_one_line_error(
        &[
            "gen-completion",
            "2000",
            "-k",
            "2000",
            "--method",
            "sequential",
        ],
        2,
        "random sequential placement on a 2000×2000 board gets stuck after about",
    );
    assert_one_line_error(
        &[
            "gen-completion",
            "3",
            "-k",
            "1",
            "--method",
            "from-solution",
        ],
        2,
        "the 3×3 board has no solution, so no queens of one can be kept",
    );
    assert!(start.elapsed().as_secs_f64() < 20.0);
    let (code, _, err) = run(&["gen-completion", "8", "-k", "2", "--method", "random"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn the_completion_study_writes_checked_csv_and_a_plot() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, svg) = (dir.path().join("s.csv"), dir.path().join("s.svg"));
    let (code, out, err) = run(&[
        "bench",
        "--completion-study",
        "--sizes",
        "10",
        "--ratios",
        "30,80",
        "--instances",
        "2",
        "--methods",
        "auto,backtrack,dlx,cp",
        "--timeout",
        "5",
        "--csv",
        csv.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("every answer checked"), "{err}");
    // A line per point, every method timed.
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(out.lines().nth(1).unwrap().contains("auto "), "{out}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 2 * 2 * 4, "{text}");
    for row in &rows {
        assert!(["found", "none"].contains(&row[6]), "{row:?}");
        // Every method agrees with the instance's verdict.
        assert_eq!(row[6] == "found", row[8] == "yes", "{row:?}");
        // The board is the one gen-completion draws for that seed.
        let (n, k, seed) = (row[0], row[2], row[4]);
        let (_, board, _) = run(&[
            "gen-completion",
            n,
            "-k",
            k,
            "--method",
            "sequential",
            "--seed",
            seed,
        ]);
        assert_eq!(parse(&board).fixed().len(), k.parse::<usize>().unwrap());
    }
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg") && plot.trim_end().ends_with("</svg>"));
    assert!(plot.contains("share of instances with a completion"));
    assert!(plot.contains(r#"data-method="auto" data-quantile="0.95""#));
}

#[test]
fn the_completion_study_refuses_bad_flags() {
    let (code, _, err) = run(&["bench", "--completion-study", "--ratios", "50,100"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("percentages below 100"), "{err}");
    let (code, _, err) = run(&["bench", "--ratios", "50"]);
    assert_eq!(code, 2, "{err}");
}
