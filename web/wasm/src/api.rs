//! The requests the page sends and the answers it gets, as JSON, on top of the `nqueens`
//! library: its problems and their checks, its methods (built with one thread), its symmetry
//! classes, its SVG renderer and its partial-board file format.
//!
//! Squares travel 1-based (`[row, col]`, `[1, 1]` the top-left square), as users read them and
//! as the CLI and the URL write them; solutions travel as 1-based column lists, row by row.
//! Every request about a board takes its fixed queens (`fix`) and its blocked squares (`block`,
//! optional: none when left out), the library's [`Problem::with_blocks`]; a method that does
//! not take blocked squares refuses the board with the library's reason, as the CLI does.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::LazyLock;

use nqueens::board::symmetry;
use nqueens::formats::{partial, read, render};
use nqueens::trace;
use nqueens::{Config, Engine, Job, Method, Outcome, Problem, Queen, Solution};
use serde::Deserialize;
use serde_json::{Value, json};

/// The largest board the page sends (the permutation plot of the construction).
pub const MAX_N: u32 = 100_000;
/// The largest board whose completions the page counts live.
pub const MAX_COUNT_N: u32 = 14;
/// The largest board whose solutions the gallery shows by symmetry class.
pub const MAX_GALLERY_N: u32 = 12;
/// The largest board exported as SVG (every square is drawn: n = 256 is 65 536 of them).
pub const MAX_SVG_N: u32 = 256;
/// The node budget of one solve: the page never waits forever for a hopeless completion.
pub const SOLVE_NODES: u64 = 50_000_000;
/// The largest board the replay shows (domains travel as masks the page reads 32 bits of).
pub const REPLAY_MAX_N: u32 = 16;
/// The node budget of one replay: beyond it the search is cut short (and says so).
pub const REPLAY_NODES: u64 = 50_000;

/// The methods the page offers, in the order of its picker (`auto` first, the default): the
/// rows of the library's table that say so ([`Descriptor::on_page`]): every method that finds
/// solutions (the counter only counts whole boards, with threads the browser does not have).
///
/// [`Descriptor::on_page`]: nqueens::engine::Descriptor::on_page
pub static METHODS: LazyLock<Vec<Method>> = LazyLock::new(|| {
    Method::ALL
        .iter()
        .copied()
        .filter(|m| m.descriptor().on_page)
        .collect()
});

/// One request from the page.
#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
enum Request {
    /// The methods the page offers ([`METHODS`]), by name.
    Methods,
    /// Is this a valid board (size, fixed queens and blocked squares)?
    Check {
        n: u64,
        fix: Vec<[u64; 2]>,
        #[serde(default)]
        block: Vec<[u64; 2]>,
    },
    /// The `index`-th solution (0-based) the method finds.
    Solve {
        n: u64,
        fix: Vec<[u64; 2]>,
        #[serde(default)]
        block: Vec<[u64; 2]>,
        method: String,
        #[serde(default)]
        seed: Option<u64>,
        #[serde(default)]
        index: u64,
    },
    /// How many completions the board has.
    Count {
        n: u64,
        fix: Vec<[u64; 2]>,
        #[serde(default)]
        block: Vec<[u64; 2]>,
    },
    /// Every solution of an empty board, grouped by symmetry class.
    Gallery { n: u64 },
    /// The board (fixed queens and the other queens shown) as SVG.
    Svg {
        n: u64,
        fix: Vec<[u64; 2]>,
        #[serde(default)]
        block: Vec<[u64; 2]>,
        queens: Vec<[u64; 2]>,
    },
    /// The board's fixed queens and blocked squares in the partial-board file format
    /// (`--fix-file`).
    FixFile {
        n: u64,
        fix: Vec<[u64; 2]>,
        #[serde(default)]
        block: Vec<[u64; 2]>,
    },
    /// The board a text describes, read as the CLI's `--fix-file` reads it (any board the tool
    /// writes): `{"n", "fix", "block"}`, squares 1-based.
    Read {
        text: String,
        #[serde(default)]
        diagonals: Option<usize>,
    },
    /// The steps of a method's search, for the replay.
    Trace {
        n: u64,
        fix: Vec<[u64; 2]>,
        #[serde(default)]
        block: Vec<[u64; 2]>,
        method: String,
        #[serde(default)]
        all: bool,
        #[serde(default)]
        seed: Option<u64>,
    },
}

/// The answer to a request given as JSON text: a result, or `{"error": "..."}`.
pub fn handle(request: &str) -> String {
    let answer = serde_json::from_str::<Request>(request)
        .map_err(|e| format!("bad request: {e}"))
        .and_then(run);
    match answer {
        Ok(value) => value.to_string(),
        Err(message) => error_json(&message),
    }
}

/// `{"error": message}` as JSON text.
pub fn error_json(message: &str) -> String {
    json!({ "error": message }).to_string()
}

fn run(request: Request) -> Result<Value, String> {
    match request {
        Request::Methods => Ok(json!({
            "methods": METHODS.iter().map(|m| m.name()).collect::<Vec<_>>()
        })),
        Request::Check { n, fix, block } => {
            let problem = problem(n, &fix, &block)?;
            Ok(json!({
                "n": problem.n(),
                "fixed": problem.fixed().len(),
                "blocked": problem.blocked().len(),
            }))
        }
        Request::Solve {
            n,
            fix,
            block,
            method,
            seed,
            index,
        } => solve(&problem(n, &fix, &block)?, &method, seed, index),
        Request::Count { n, fix, block } => {
            let problem = problem(n, &fix, &block)?;
            if problem.n() > MAX_COUNT_N {
                return Err(format!(
                    "the page counts completions of boards up to n = {MAX_COUNT_N}"
                ));
            }
            let mut engine = Method::Backtrack.build(Job::Count, &problem, &Config::default());
            let counts = engine.count(&problem, false).map_err(|e| e.to_string())?;
            Ok(json!({ "total": u64::try_from(counts.total).unwrap_or(u64::MAX) }))
        }
        Request::Gallery { n } => gallery(&problem(n, &[], &[])?),
        Request::Svg {
            n,
            fix,
            block,
            queens,
        } => {
            let problem = problem(n, &fix, &block)?;
            if problem.n() > MAX_SVG_N {
                return Err(format!(
                    "the page exports SVG for boards up to n = {MAX_SVG_N} (n² squares); export the --fix-file text instead"
                ));
            }
            let queens = squares(&queens, problem.n(), "queen")?;
            Ok(json!({ "svg": svg(&problem, &queens) }))
        }
        Request::FixFile { n, fix, block } => {
            let problem = problem(n, &fix, &block)?;
            Ok(json!({ "text": partial::write(&problem, "made in the nqueens web playground") }))
        }
        Request::Read { text, diagonals } => {
            let board =
                read::board(&text, read::Options { diagonals }).map_err(|e| e.to_string())?;
            let problem = board.to_problem().map_err(|e| e.to_string())?;
            if problem.n() > MAX_N {
                return Err(format!(
                    "the page takes boards up to n = {MAX_N}, not {}",
                    problem.n()
                ));
            }
            let one_based = |squares: &[Queen]| -> Vec<[u64; 2]> {
                squares
                    .iter()
                    .map(|q| [u64::from(q.row) + 1, u64::from(q.col) + 1])
                    .collect()
            };
            Ok(json!({
                "n": problem.n(),
                "fix": one_based(problem.fixed()),
                "block": one_based(problem.blocked()),
            }))
        }
        Request::Trace {
            n,
            fix,
            block,
            method,
            all,
            seed,
        } => {
            let problem = problem(n, &fix, &block)?;
            if problem.n() > REPLAY_MAX_N {
                return Err(format!("the replay takes boards up to n = {REPLAY_MAX_N}"));
            }
            let method = trace::Method::parse(&method)?;
            let settings = trace::Settings {
                all,
                seed,
                max_nodes: REPLAY_NODES,
            };
            let trace = trace::run(method, &problem, settings).map_err(|e| e.to_string())?;
            serde_json::to_value(trace).map_err(|e| e.to_string())
        }
    }
}

/// The problem of size `n` with the queens `fix` and the blocked squares `block` (1-based), or
/// the one-line reason there is none (the library's, for a queen on a blocked square).
fn problem(n: u64, fix: &[[u64; 2]], block: &[[u64; 2]]) -> Result<Problem, String> {
    let n = u32::try_from(n)
        .ok()
        .filter(|&n| n <= MAX_N)
        .ok_or_else(|| format!("the page takes boards up to n = {MAX_N}, not {n}"))?;
    if n == 0 {
        // Said before any square is judged against a board that is not there.
        return Err(nqueens::ProblemError::ZeroSize.to_string());
    }
    let fixed = squares(fix, n, "fixed queen")?;
    let blocked = squares(block, n, "blocked square")?;
    Problem::with_blocks(n, fixed, blocked).map_err(|e| e.to_string())
}

/// 1-based `[row, col]` pairs as squares of the n×n board; 0 and anything beyond n are refused
/// here, naming the square as `what` (a pair need not fit a `u32`, so the library cannot).
fn squares(pairs: &[[u64; 2]], n: u32, what: &str) -> Result<Vec<Queen>, String> {
    pairs
        .iter()
        .map(|&[row, col]| {
            let inside = |v: u64| v >= 1 && v <= u64::from(n);
            if !inside(row) || !inside(col) {
                return Err(format!(
                    "{what} {row}:{col} is off the {n}×{n} board (rows and columns run from 1 to {n})"
                ));
            }
            Ok(Queen::new((row - 1) as u32, (col - 1) as u32))
        })
        .collect()
}

fn method_named(name: &str) -> Result<Method, String> {
    let method: Method = name.parse().map_err(|e: nqueens::methods::UnknownMethod| {
        format!(
            "{e} (the page offers {})",
            METHODS
                .iter()
                .map(|m| m.name())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    if !METHODS.contains(&method) {
        return Err(format!("the page does not offer the method '{name}'"));
    }
    Ok(method)
}

fn config(seed: Option<u64>) -> Config {
    let mut config = Config::default();
    config.threads = 1;
    config.seed = seed;
    config.limits.nodes = Some(SOLVE_NODES);
    config
}

/// The `index`-th solution: enumerating methods skip `index` solutions, local search takes
/// seed + `index`, the construction knows one solution only.
fn solve(problem: &Problem, method: &str, seed: Option<u64>, index: u64) -> Result<Value, String> {
    let method = method_named(method)?;
    let (seed, skip) = match method {
        Method::Local => (Some(seed.unwrap_or(0).wrapping_add(index)), 0),
        Method::Construct if index > 0 => {
            return Err(
                "the construction knows one solution for each n; pick another method for the next"
                    .into(),
            );
        }
        _ => (seed, index),
    };
    let job = if skip == 0 { Job::Solve } else { Job::List };
    let mut engine = method
        .engine_for(job, problem, &config(seed))
        .map_err(|e| e.to_string())?;
    let outcome = if skip == 0 {
        engine.solve(problem).map_err(|e| e.to_string())?
    } else {
        let mut found = None;
        let mut seen = 0;
        let end = engine.for_each(problem, &mut |s| {
            if seen == skip {
                found = Some(s.clone());
                return ControlFlow::Break(());
            }
            seen += 1;
            ControlFlow::Continue(())
        });
        match (found, end) {
            (Some(solution), _) => Outcome::Found(solution),
            (None, Err(nqueens::EngineError::GaveUp { reason, .. })) => Outcome::GaveUp {
                reason: reason.to_string(),
            },
            (None, Err(e)) => return Err(e.to_string()),
            (None, Ok(_)) => {
                return Ok(json!({
                    "method": method.name(),
                    "outcome": "none",
                    "message": format!("the board has only {seen} solutions"),
                    "stats": stats(engine.as_ref()),
                }));
            }
        }
    };
    let stats = stats(engine.as_ref());
    Ok(match outcome {
        Outcome::Found(solution) => {
            if let Err(v) = nqueens::verify(problem, &solution) {
                return Err(format!("{method} gave a wrong solution: {v}"));
            }
            json!({
                "method": method.name(),
                "outcome": "found",
                "columns": solution.columns().iter().map(|c| c + 1).collect::<Vec<_>>(),
                "stats": stats,
            })
        }
        Outcome::NoSolution => json!({
            "method": method.name(),
            "outcome": "none",
            "message": "the board has no completion",
            "stats": stats,
        }),
        Outcome::GaveUp { reason } => json!({
            "method": method.name(),
            "outcome": "gave_up",
            "message": format!("{method} gave up: {reason}"),
            "stats": stats,
        }),
    })
}

fn stats(engine: &dyn Engine) -> BTreeMap<&'static str, u64> {
    engine
        .stats()
        .iter()
        .map(|(name, value)| (name, u64::try_from(value).unwrap_or(u64::MAX)))
        .collect()
}

/// Every solution of the empty board, grouped by symmetry class: each class's canonical form
/// and its members, classes in the order their first member was found.
fn gallery(problem: &Problem) -> Result<Value, String> {
    if problem.n() > MAX_GALLERY_N {
        return Err(format!(
            "the gallery shows boards up to n = {MAX_GALLERY_N}"
        ));
    }
    let mut engine = Method::Backtrack.build(Job::List, problem, &config(None));
    let mut order: Vec<Solution> = Vec::new();
    let mut classes: BTreeMap<Vec<u32>, Vec<Vec<u32>>> = BTreeMap::new();
    engine
        .for_each(problem, &mut |s| {
            let canonical = symmetry::canonical(s);
            let one_based = |s: &Solution| s.columns().iter().map(|c| c + 1).collect::<Vec<_>>();
            let members = classes
                .entry(canonical.columns().to_vec())
                .or_insert_with(|| {
                    order.push(canonical.clone());
                    Vec::new()
                });
            members.push(one_based(s));
            ControlFlow::Continue(())
        })
        .map_err(|e| e.to_string())?;
    let total: usize = classes.values().map(Vec::len).sum();
    let classes: Vec<Value> = order
        .iter()
        .map(|canonical| {
            let members = &classes[canonical.columns()];
            json!({
                "canonical": canonical.columns().iter().map(|c| c + 1).collect::<Vec<_>>(),
                "members": members,
            })
        })
        .collect();
    Ok(json!({ "n": problem.n(), "total": total, "classes": classes }))
}

/// The board as SVG: a complete solution through the library's renderer (as `nqueens solve
/// --format svg` draws it), a partial board in the same colours with the queens placed so far
/// and its blocked squares crossed out.
fn svg(problem: &Problem, queens: &[Queen]) -> String {
    let style = render::SvgStyle::default();
    let n = problem.n();
    let mut columns = vec![u32::MAX; n as usize];
    for q in problem.fixed().iter().chain(queens) {
        columns[q.row as usize] = q.col;
    }
    if columns.iter().all(|&c| c != u32::MAX) {
        let solution = Solution::from_columns(columns);
        if nqueens::verify(problem, &solution).is_ok() {
            return render::svg(problem, &[solution], &style);
        }
    }
    let cell = 40u64;
    let margin = 16u64;
    let side = u64::from(n) * cell + 2 * margin;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{side}\" height=\"{side}\" viewBox=\"0 0 {side} {side}\">\n"
    );
    for row in 0..u64::from(n) {
        for col in 0..u64::from(n) {
            let fill = if (row + col) % 2 == 0 {
                "#f0d9b5"
            } else {
                "#b58863"
            };
            out.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{cell}\" height=\"{cell}\" fill=\"{fill}\"/>\n",
                margin + col * cell,
                margin + row * cell
            ));
        }
    }
    // Crossed as the library's renderer crosses them, in the queens' colour.
    for square in problem.blocked() {
        let (x, y) = (
            margin + u64::from(square.col) * cell,
            margin + u64::from(square.row) * cell,
        );
        let (near, far) = (cell / 4, cell - cell / 4);
        out.push_str(&format!(
            "<path class=\"blocked\" d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"#1a1a1a\" stroke-width=\"{}\"><title>blocked {square}</title></path>\n",
            x + near,
            y + near,
            x + far,
            y + far,
            x + far,
            y + near,
            x + near,
            y + far,
            cell / 12
        ));
    }
    let fixed: std::collections::HashSet<Queen> = problem.fixed().iter().copied().collect();
    for q in problem.fixed().iter().chain(queens) {
        let fill = if fixed.contains(q) {
            "#b3261e"
        } else {
            "#1a1a1a"
        };
        out.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\"><title>{q}</title></circle>\n",
            margin + u64::from(q.col) * cell + cell / 2,
            margin + u64::from(q.row) * cell + cell / 2,
            cell * 3 / 8
        ));
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
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
            assert_eq!(nqueens::verify(&problem, &solution), Ok(()), "{method}");
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
                nqueens::instances::oeis::total(n as u32),
                "n = {n}"
            );
        }
        let problem = Problem::with_fixed(8, [Queen::new(0, 0), Queen::new(1, 4)]).unwrap();
        let naive = nqueens::board::naive::solutions(&problem).len() as u64;
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
        let expected = nqueens::board::naive::count(&problem);
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
            assert_eq!(nqueens::verify(&problem, &solution), Ok(()), "{method}");
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
                assert_eq!(nqueens::verify(&problem, &solution), Ok(()), "{method}");
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
                nqueens::instances::oeis::unique(n),
                "n = {n}"
            );
            assert_eq!(
                Some(u128::from(answer["total"].as_u64().unwrap())),
                nqueens::instances::oeis::total(n)
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
        let solution = nqueens::board::naive::solutions(&problem)
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

        let solved = call(
            json!({"op": "svg", "n": 4, "fix": [], "queens": [[1, 2], [2, 4], [3, 1], [4, 3]]}),
        );
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
}
