//! The requests the page sends and the answers it gets, as JSON, on top of the `nqueens`
//! library: its problems and their checks, its methods (built with one thread), its symmetry
//! classes, its SVG renderer and its partial-board file format.
//!
//! Squares travel 1-based (`[row, col]`, `[1, 1]` the top-left square), as users read them and
//! as the CLI and the URL write them; solutions travel as 1-based column lists, row by row.
//! Every request about a board takes its fixed queens (`fix`) and its blocked squares (`block`,
//! optional: none when left out), the library's [`Problem::with_blocks`]; a method that does
//! not take blocked squares refuses the board with the library's reason, as the CLI does.
//!
//! The requests are told apart and answered here; solving lives in `solve.rs`, the gallery
//! and the SVG in `pictures.rs`.

mod pictures;
mod solve;

use std::sync::LazyLock;

use nqueens_solver::formats::{partial, read};
use nqueens_solver::trace;
use nqueens_solver::{Config, Job, Method, Problem, Queen};
use serde::Deserialize;
use serde_json::{Value, json};

use pictures::{gallery, svg};
use solve::solve;

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
/// [`Descriptor::on_page`]: nqueens_solver::engine::Descriptor::on_page
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
        return Err(nqueens_solver::ProblemError::ZeroSize.to_string());
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

fn config(seed: Option<u64>) -> Config {
    let mut config = Config::default();
    config.threads = 1;
    config.seed = seed;
    config.limits.nodes = Some(SOLVE_NODES);
    config
}

#[cfg(test)]
mod tests;
