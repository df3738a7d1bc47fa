//! The page's requests answered end to end through [`handle`](super::handle), as the page
//! sends them.

use nqueens_solver::Solution;
use nqueens_solver::board::symmetry;
use nqueens_solver::formats::render;

use super::*;

fn call(request: Value) -> Value {
    serde_json::from_str(&handle(&request.to_string())).unwrap()
}

fn columns(answer: &Value) -> Vec<u32> {
    answer["columns"]
        .as_array()
        .unwrap_or_else(|| panic!("no columns in {answer}"))
        .iter()
        .map(|c| c.as_u64().unwrap() as u32 - 1)
        .collect()
}

#[test]
fn every_method_completes_a_board_and_keeps_the_fixed_queen() {
    let problem = Problem::with_fixed(8, [Queen::new(0, 0)]).unwrap();
    for method in METHODS.iter() {
        let answer = call(
            json!({"op": "solve", "n": 8, "fix": [[1, 1]], "method": method.name(), "seed": 3}),
        );
        if *method == Method::Construct {
            assert!(
                answer["error"].as_str().unwrap().contains("construct"),
                "{answer}"
            );
            continue;
        }
        let solution = Solution::from_columns(columns(&answer));
        assert_eq!(
            nqueens_solver::verify(&problem, &solution),
            Ok(()),
            "{method}"
        );
    }
}

#[test]
fn next_solutions_are_distinct_until_the_last() {
    let mut seen = std::collections::HashSet::new();
    for index in 0..10 {
        let answer =
            call(json!({"op": "solve", "n": 6, "fix": [], "method": "dlx", "index": index}));
        if index < 4 {
            assert!(seen.insert(columns(&answer)), "solution {index} repeats");
        } else {
            assert_eq!(answer["outcome"], "none", "{answer}");
        }
    }
}

#[test]
fn counts_match_the_published_totals_and_the_naive_oracle() {
    for n in 1..=10u64 {
        let answer = call(json!({"op": "count", "n": n, "fix": []}));
        assert_eq!(
            answer["total"].as_u64().map(u128::from),
            nqueens_solver::instances::oeis::total(n as u32),
            "n = {n}"
        );
    }
    let problem = Problem::with_fixed(8, [Queen::new(0, 0), Queen::new(1, 4)]).unwrap();
    let naive = nqueens_solver::board::naive::solutions(&problem).len() as u64;
    let answer = call(json!({"op": "count", "n": 8, "fix": [[1, 1], [2, 5]]}));
    assert_eq!(answer["total"].as_u64(), Some(naive));
}

#[test]
fn bad_boards_get_one_line_messages() {
    for (request, needle) in [
        (json!({"op": "check", "n": 0, "fix": []}), "at least 1"),
        (
            json!({"op": "check", "n": 8, "fix": [[1, 1], [2, 2]]}),
            "same diagonal",
        ),
        (
            json!({"op": "check", "n": 8, "fix": [[9, 1]]}),
            "off the 8×8 board",
        ),
        (
            json!({"op": "check", "n": 8, "fix": [[0, 1]]}),
            "off the 8×8 board",
        ),
        (
            json!({"op": "check", "n": 200_000, "fix": []}),
            "up to n = 100000",
        ),
        (json!({"op": "count", "n": 15, "fix": []}), "up to n = 14"),
        (json!({"op": "gallery", "n": 13}), "up to n = 12"),
        (
            json!({"op": "svg", "n": 257, "fix": [], "queens": []}),
            "up to n = 256",
        ),
        (
            json!({"op": "solve", "n": 8, "fix": [], "method": "counter"}),
            "does not offer",
        ),
        (
            json!({"op": "solve", "n": 8, "fix": [], "method": "nope"}),
            "unknown method",
        ),
        (json!({"op": "dance"}), "bad request"),
        // No board at all: the size is what is wrong, not the square.
        (
            json!({"op": "check", "n": 0, "fix": [[9, 9]]}),
            "the board size n must be at least 1",
        ),
    ] {
        let answer = call(request.clone());
        let message = answer["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{request}: {answer}"));
        assert!(message.contains(needle), "{request}: {message}");
        assert!(!message.contains('\n'));
    }
    assert!(handle("{").contains("error"));
}

/// n = 8 with four blocked squares (1-based), as the CLI's blocked tests take it.
const BLOCKED: [[u64; 2]; 4] = [[1, 1], [3, 6], [5, 5], [8, 2]];

fn blocked_problem() -> Problem {
    let squares = BLOCKED.map(|[r, c]| Queen::new(r as u32 - 1, c as u32 - 1));
    Problem::with_blocks(8, [], squares).unwrap()
}

#[test]
fn blocked_squares_are_counted_solved_and_replayed_as_the_oracle_says() {
    let problem = blocked_problem();
    let expected = nqueens_solver::board::naive::count(&problem);
    assert!(expected > 0 && expected < 92, "{expected}");
    let answer = call(json!({"op": "count", "n": 8, "fix": [], "block": BLOCKED}));
    assert_eq!(answer["total"].as_u64().map(u128::from), Some(expected));
    let check = call(json!({"op": "check", "n": 8, "fix": [[2, 3]], "block": BLOCKED}));
    assert_eq!(check["blocked"], 4, "{check}");

    let mut refused = Vec::new();
    for method in METHODS.iter() {
        let answer = call(
            json!({"op": "solve", "n": 8, "fix": [], "block": BLOCKED, "method": method.name(), "seed": 3}),
        );
        // The library's refusal, not a solution of the board without its blocks, from
        // exactly the methods whose engine says it does not take them.
        if !method
            .build(Job::Solve, &problem, &config(None))
            .takes_blocks()
        {
            let message = answer["error"]
                .as_str()
                .unwrap_or_else(|| panic!("{answer}"));
            assert_eq!(
                message,
                format!(
                    "the {method} method cannot find a solution: it does not take blocked squares"
                )
            );
            refused.push(*method);
            continue;
        }
        let solution = Solution::from_columns(columns(&answer));
        assert_eq!(
            nqueens_solver::verify(&problem, &solution),
            Ok(()),
            "{method}"
        );
    }
    assert!(refused.contains(&Method::Construct), "{refused:?}");

    for method in ["backtrack", "dlx", "cp", "sat"] {
        let answer = call(
            json!({"op": "trace", "n": 8, "fix": [], "block": BLOCKED, "method": method, "all": true, "seed": 5}),
        );
        let solutions: Vec<&Value> = answer["events"]
            .as_array()
            .unwrap_or_else(|| panic!("{method}: {answer}"))
            .iter()
            .filter(|e| e["t"] == "solution")
            .collect();
        assert_eq!(solutions.len() as u128, expected, "{method}");
        for event in solutions {
            let columns: Vec<u32> = event["columns"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap() as u32)
                .collect();
            let solution = Solution::from_columns(columns);
            assert_eq!(
                nqueens_solver::verify(&problem, &solution),
                Ok(()),
                "{method}"
            );
        }
    }
}

#[test]
fn blocked_squares_travel_into_the_exports() {
    let answer =
        call(json!({"op": "fix_file", "n": 8, "fix": [[2, 3]], "block": [[1, 1], [4, 7]]}));
    let board = partial::parse(answer["text"].as_str().unwrap()).unwrap();
    let problem = board.to_problem().unwrap();
    assert_eq!(problem.fixed(), &[Queen::new(1, 2)]);
    assert_eq!(problem.blocked(), &[Queen::new(0, 0), Queen::new(3, 6)]);

    let crosses = |answer: &Value| {
        let text = answer["svg"].as_str().unwrap_or_else(|| panic!("{answer}"));
        let doc = roxmltree::Document::parse(text).unwrap();
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("blocked"))
            .count()
    };
    let partial = call(
        json!({"op": "svg", "n": 4, "fix": [[1, 2]], "block": [[1, 1], [3, 3]], "queens": []}),
    );
    assert_eq!(crosses(&partial), 2);
    let solved = call(
        json!({"op": "svg", "n": 4, "fix": [], "block": [[1, 1]], "queens": [[1, 2], [2, 4], [3, 1], [4, 3]]}),
    );
    assert_eq!(crosses(&solved), 1);
}

#[test]
fn bad_blocked_squares_get_the_librarys_one_line_messages() {
    for (request, expected) in [
        (
            json!({"op": "check", "n": 8, "fix": [[1, 1]], "block": [[1, 1]]}),
            "fixed queen 1:1 stands on a blocked square",
        ),
        (
            json!({"op": "count", "n": 8, "fix": [[3, 4]], "block": [[2, 2], [3, 4]]}),
            "fixed queen 3:4 stands on a blocked square",
        ),
        (
            json!({"op": "check", "n": 8, "fix": [], "block": [[9, 1]]}),
            "blocked square 9:1 is off the 8×8 board (rows and columns run from 1 to 8)",
        ),
        (
            json!({"op": "trace", "n": 6, "fix": [[1, 2]], "block": [[1, 2]], "method": "dlx"}),
            "fixed queen 1:2 stands on a blocked square",
        ),
    ] {
        let answer = call(request.clone());
        assert_eq!(answer["error"], expected, "{request}");
    }
}

#[test]
fn the_page_offers_every_method_that_finds_solutions_auto_first() {
    let answer = call(json!({"op": "methods"}));
    let names: Vec<&str> = answer["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let expected: Vec<&str> = Method::ALL
        .iter()
        .filter(|m| **m != Method::Counter)
        .map(|m| m.name())
        .collect();
    assert_eq!(names[0], "auto");
    let mut sorted = names.clone();
    sorted.sort_unstable();
    let mut all = expected.clone();
    all.sort_unstable();
    assert_eq!(sorted, all);
    // auto solves a board beyond backtracking's n ≤ 64.
    let answer = call(json!({"op": "solve", "n": 200, "fix": [], "method": "auto"}));
    assert!(answer.get("error").is_none(), "{answer}");
}

#[test]
fn mangled_requests_get_answers_never_panics() {
    let requests = [
        r#"{"op":"solve","n":6,"fix":[[1,2]],"method":"dlx","seed":3,"index":1}"#,
        r#"{"op":"count","n":7,"fix":[[2,3],[4,4]]}"#,
        r#"{"op":"count","n":7,"fix":[[2,3]],"block":[[1,1],[5,6]]}"#,
        r#"{"op":"trace","n":5,"fix":[[1,1]],"method":"cp","all":true}"#,
        r#"{"op":"svg","n":4,"fix":[[1,2]],"queens":[[2,4],[3,1]]}"#,
        r#"{"op":"fix_file","n":5,"fix":[[5,5]]}"#,
        r#"{"op":"gallery","n":5}"#,
    ];
    let alphabet = br#"{}[],:"0123456789-.aenoxz "#;
    let mut rng = nqueens_support::SplitMix64::new(19);
    for case in 0..3000 {
        let mut bytes = requests[case % requests.len()].as_bytes().to_vec();
        for _ in 0..1 + rng.next_u64() % 3 {
            let at = (rng.next_u64() % bytes.len() as u64) as usize;
            bytes[at] = alphabet[(rng.next_u64() % alphabet.len() as u64) as usize];
        }
        let request = String::from_utf8(bytes).unwrap();
        let answer = handle(&request);
        let value: Value = serde_json::from_str(&answer)
            .unwrap_or_else(|e| panic!("{request}: the answer is not JSON ({e}): {answer}"));
        if let Some(message) = value.get("error") {
            let message = message.as_str().unwrap();
            assert!(
                !message.is_empty() && !message.contains('\n'),
                "{request}: {message}"
            );
        }
    }
}

#[test]
fn the_gallery_groups_every_solution_by_symmetry_class() {
    for n in 1..=9u32 {
        let answer = call(json!({"op": "gallery", "n": n}));
        let classes = answer["classes"].as_array().unwrap();
        assert_eq!(
            Some(classes.len() as u128),
            nqueens_solver::instances::oeis::unique(n),
            "n = {n}"
        );
        assert_eq!(
            Some(u128::from(answer["total"].as_u64().unwrap())),
            nqueens_solver::instances::oeis::total(n)
        );
        for class in classes {
            let members = class["members"].as_array().unwrap();
            let first = Solution::from_columns(columns(&json!({"columns": members[0]})));
            assert_eq!(members.len(), symmetry::orbit_size(&first), "n = {n}");
        }
    }
}

/// Any board the CLI writes opens on the page, as `read::board` reads it.
#[test]
fn board_texts_open_as_the_cli_reads_them() {
    let problem = Problem::with_blocks(6, [Queen::new(0, 1)], [Queen::new(2, 2)]).unwrap();
    let solution = nqueens_solver::board::naive::solutions(&problem)
        .into_iter()
        .next()
        .unwrap();
    for format in [
        render::Format::Unicode,
        render::Format::Json,
        render::Format::Coords,
    ] {
        let text = render::to_text(format, &problem, &solution);
        let answer = call(json!({"op": "read", "text": text}));
        assert_eq!(answer["n"], 6, "{format}: {answer}");
        let fix = answer["fix"].as_array().unwrap();
        assert_eq!(fix.len(), 6, "{format}: every queen is kept");
        assert_eq!(answer["block"], json!([[3, 3]]), "{format}");
    }
    let text = partial::write(&problem, "");
    let answer = call(json!({"op": "read", "text": text}));
    assert_eq!(answer, json!({"n": 6, "fix": [[1, 2]], "block": [[3, 3]]}));
    let bad = call(json!({"op": "read", "text": "2 4 ♕ 3\n"}));
    assert_eq!(
        bad["error"],
        "line 1, column 5: unexpected '♕': expected 1-based columns (2 4 1 3) or ROW:COL pairs (1:2 2:4 3:1 4:3)"
    );
}

#[test]
fn exports_parse_back() {
    let answer = call(json!({"op": "fix_file", "n": 8, "fix": [[1, 1], [2, 5]]}));
    let board = partial::parse(answer["text"].as_str().unwrap()).unwrap();
    let problem = board.to_problem().unwrap();
    assert_eq!(problem.n(), 8);
    assert_eq!(problem.fixed(), &[Queen::new(0, 0), Queen::new(1, 4)]);

    let solved =
        call(json!({"op": "svg", "n": 4, "fix": [], "queens": [[1, 2], [2, 4], [3, 1], [4, 3]]}));
    let full = solved["svg"].as_str().unwrap();
    roxmltree::Document::parse(full).unwrap();
    let partial = call(json!({"op": "svg", "n": 4, "fix": [[1, 2]], "queens": [[2, 4]]}));
    let text = partial["svg"].as_str().unwrap();
    let doc = roxmltree::Document::parse(text).unwrap();
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("circle"))
            .count(),
        2
    );
}
