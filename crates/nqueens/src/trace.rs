//! Replays of a search, step by step, told by the engines themselves: what backtracking,
//! dancing links, constraint programming and CDCL SAT do to the board, one event at a time,
//! for the web page's replay and Python's `trace`.
//!
//! Each engine reports its own steps through a hook that costs the searches nobody watches
//! nothing ([`Backtrack::trace`], [`nqueens_exact_cover::Observer`] under [`Dlx::trace`], `cp`'s
//! `Observer::step` under [`Cp::trace`], `nqueens_sat::Observer` under [`Sat::trace`]); this module
//! turns them into board events. So a replay is the search the product runs, node for node:
//! the events that count as nodes ([`Event::is_node`]) number exactly the `nodes` of the
//! engine's `--stats` (for sat, its `decisions`), for the same method, job and seed.
//!
//! - **backtrack**: row by row, the lowest free column first: a [`Event::Place`] per queen
//!   placed (a node), the queens below a row taken back ([`Event::Remove`]) before the row's
//!   next square is tried;
//! - **dlx**: Algorithm X on the exact cover encoding (rows and columns primary, diagonals
//!   secondary): [`Event::Branch`] on the item with the fewest options (a node, covering it),
//!   then per option its queen and the [`Event::Cover`] of its other items, taken back
//!   ([`Event::Uncover`], [`Event::Remove`]) before the next; items are named as the
//!   encoding and `xc-export` name them ([`Line::name`]): `r3`, `c5`, `a8` (the anti-diagonal
//!   of ROW + COL = 8) and `b-2` (the diagonal of ROW − COL = −2), rows and columns 1-based;
//! - **cp**: binary branching `row = col` ([`Event::Assign`]) then `row ≠ col`
//!   ([`Event::Refute`]) on the smallest domain, each with the rows' domains after the
//!   all-different propagation (both branches are nodes), and Luby restarts with a seed;
//! - **sat**: CDCL on the pairwise encoding: each decision ([`Event::Decide`], a queen on a
//!   square or none there, counted as the nodes, which are the solver's `decisions`), each
//!   conflict, the learnt clause with its back-jump ([`Event::Learn`]) and restarts; what
//!   unit propagation implies between decisions is not an event (the solver does not report
//!   single propagations), so the board shows the decisions and each solution in full.
//!
//! A replay stops at the first solution, or with `all` at the end of the search, or when the
//! engine's node budget (`max_nodes`; for sat, as for its engine, a budget of conflicts) runs
//! out ([`Trace::truncated`]). Cost: the engine's own
//! search plus O(n) per event.

use std::ops::ControlFlow;

use serde::Serialize;

use crate::board::{Problem, Queen};
use crate::engine::EngineError;
use crate::engine::{Engine, Enumeration, Job, LimitReached, Limits, Stats, Stopped};
use crate::engines::backtrack::{self, Backtrack};
use crate::engines::cp::{self, Cp};
use crate::engines::dlx::{self, Dlx, Encoding, Line};
use crate::engines::sat::{self, Sat};
use crate::methods;

/// The largest board a replay takes: the domains travel as one 64-bit mask per row.
pub const MAX_N: u32 = 64;

/// The methods a replay shows: the rows of the table marked
/// [`traceable`](crate::engine::Descriptor::traceable), each with its replay below.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Row-by-row backtracking.
    Backtrack,
    /// Algorithm X with dancing links (on the bit engine where it would run, the same tree).
    Dlx,
    /// Constraint programming.
    Cp,
    /// CDCL SAT on the pairwise encoding.
    Sat,
}

impl Method {
    /// Every method a replay shows.
    pub const ALL: [Method; 4] = [Method::Backtrack, Method::Dlx, Method::Cp, Method::Sat];

    /// The method of the table this replay shows.
    pub fn method(self) -> methods::Method {
        match self {
            Method::Backtrack => methods::Method::Backtrack,
            Method::Dlx => methods::Method::Dlx,
            Method::Cp => methods::Method::Cp,
            Method::Sat => methods::Method::Sat,
        }
    }

    /// The method's name, as `--method` spells it (its row's).
    pub fn name(self) -> &'static str {
        self.method().name()
    }

    /// The method called `name`, or a one-line reason naming the ones there are.
    pub fn parse(name: &str) -> Result<Method, String> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
                let (last, others) = names.split_last().expect("a replay shows some method");
                format!(
                    "a replay shows {} or {last}, not '{name}'",
                    others.join(", ")
                )
            })
    }
}

/// One step of a search (rows `r` and columns `c` 0-based; domains `d` one mask per row, bit
/// `c` set while column `c` is possible).
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Event {
    /// A queen goes on (r, c): a node of backtracking; the queen of an option exact cover
    /// tries.
    Place { r: u32, c: u32 },
    /// The queen on (r, c) is taken back.
    Remove { r: u32, c: u32 },
    /// Exact cover branches on an item, and covers it: a node.
    Branch { item: String },
    /// Exact cover covers one of the other items of the option it tries.
    Cover { item: String },
    /// Exact cover uncovers an item.
    Uncover { item: String },
    /// CP's left branch `row r = column c`, with the domains after propagation; `failed`:
    /// a domain emptied, so the search backs up. A node.
    Assign {
        r: u32,
        c: u32,
        d: Vec<u64>,
        failed: bool,
    },
    /// CP's right branch `row r ≠ column c`, after everything below the left branch was
    /// searched; `d` and `failed` as for [`Event::Assign`]. A node.
    Refute {
        r: u32,
        c: u32,
        d: Vec<u64>,
        failed: bool,
    },
    /// CP or SAT restarts from the root (CP: seeded first-solution searches).
    Restart,
    /// SAT decides, opening decision `level`: a queen on (r, c) (`queen`) or none there; `r`
    /// and `c` are null for an auxiliary variable of the compact encoding. A node.
    Decide {
        r: Option<u32>,
        c: Option<u32>,
        queen: bool,
        level: u32,
    },
    /// SAT's propagation made a clause false at decision `level`.
    Conflict { level: u32 },
    /// SAT learns a clause of `size` literals and LBD `lbd` from the conflict, and jumps back
    /// to decision level `backjump`: the decisions above it are undone.
    Learn { size: u32, lbd: u32, backjump: u32 },
    /// Every row has its queen: the solution's columns, row by row.
    Solution { columns: Vec<u32> },
}

impl Event {
    /// Whether this event is one of the nodes the engine counts (for `method`'s replay).
    pub fn is_node(&self, method: Method) -> bool {
        match self {
            Event::Place { .. } => method == Method::Backtrack,
            Event::Branch { .. }
            | Event::Assign { .. }
            | Event::Refute { .. }
            | Event::Decide { .. } => true,
            _ => false,
        }
    }
}

/// A recorded search.
#[derive(Clone, Debug, Serialize)]
pub struct Trace {
    /// The board size.
    pub n: u32,
    /// The method's name.
    pub method: &'static str,
    /// The rows' domains after the root's propagation, before the first branch (cp only;
    /// empty otherwise, and for a root that failed).
    pub start: Vec<u64>,
    /// The steps, in order.
    pub events: Vec<Event>,
    /// The nodes the engine counted, as its `--stats` says them (for sat, its `decisions`):
    /// the number of node events.
    pub nodes: u64,
    /// Solutions met.
    pub solutions: u64,
    /// Whether the node budget ran out before the search ended.
    pub truncated: bool,
}

/// What to replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The whole search (every solution) rather than the search for the first one.
    pub all: bool,
    /// The engine's seed (dlx, cp and sat; backtracking has no random choice).
    pub seed: Option<u64>,
    /// The node budget: the replay stops there, cut short.
    pub max_nodes: u64,
}

/// The replay of `method` on `problem` as `settings` say.
pub fn run(method: Method, problem: &Problem, settings: Settings) -> Result<Trace, EngineError> {
    let n = problem.n();
    if n > MAX_N {
        return Err(EngineError::Unsupported {
            method: method.name(),
            job: if settings.all { Job::List } else { Job::Solve },
            reason: format!("a replay takes boards up to n = {MAX_N}"),
        });
    }
    let limits = Limits {
        nodes: Some(settings.max_nodes),
        ..Limits::default()
    };
    let mut trace = Trace {
        n,
        method: method.name(),
        start: Vec::new(),
        events: Vec::new(),
        nodes: 0,
        solutions: 0,
        truncated: false,
    };
    let (end, stats) = match method {
        Method::Backtrack => replay_backtrack(problem, settings, limits, &mut trace),
        Method::Dlx => replay_dlx(problem, settings, limits, &mut trace),
        Method::Cp => replay_cp(problem, settings, limits, &mut trace),
        Method::Sat => replay_sat(problem, settings, limits, &mut trace),
    };
    match end {
        Ok(_) => {}
        Err(EngineError::Stopped {
            stopped:
                Stopped {
                    reason: LimitReached::Nodes,
                    ..
                },
            ..
        }) => trace.truncated = true,
        Err(e) => return Err(e),
    }
    let nodes = if method == Method::Sat {
        "decisions"
    } else {
        "nodes"
    };
    trace.nodes = u64::try_from(stats.get(nodes).unwrap_or(0)).unwrap_or(u64::MAX);
    Ok(trace)
}

/// Backtracking's replay: a queen placed per node, the rows below taken back first.
fn replay_backtrack(
    problem: &Problem,
    settings: Settings,
    limits: Limits,
    trace: &mut Trace,
) -> (Result<Enumeration, EngineError>, Stats) {
    let n = problem.n();
    let mut engine = Backtrack::new(1);
    engine.limits = limits;
    // The queens on the board, by row, as the events left them.
    let mut board: Vec<Option<u32>> = vec![None; n as usize];
    let end = engine.trace(problem, settings.all, &mut |step| match step {
        backtrack::TraceStep::Place { row, col } => {
            take_back(&mut trace.events, &mut board, row);
            board[row as usize] = Some(col);
            trace.events.push(Event::Place { r: row, c: col });
        }
        backtrack::TraceStep::Solution(solution) => {
            trace.solutions += 1;
            trace.events.push(solution_event(solution));
        }
    });
    (end, engine.stats())
}

/// Dancing links' replay: the line branched on, each option's queen and covers, and what
/// backing up takes back.
fn replay_dlx(
    problem: &Problem,
    settings: Settings,
    limits: Limits,
    trace: &mut Trace,
) -> (Result<Enumeration, EngineError>, Stats) {
    let mut engine = Dlx::new(Encoding::Secondary, settings.seed);
    engine.limits = limits;
    // By open level: the line branched on and the square tried there.
    let mut open: Vec<(Line, Option<Queen>)> = Vec::new();
    let end = engine.trace(problem, settings.all, &mut |step| match step {
        dlx::TraceStep::Branch { line, .. } => {
            trace.events.push(Event::Branch { item: line.name() });
            open.push((line, None));
        }
        dlx::TraceStep::Try { square, .. } => {
            let top = open.last_mut().expect("a square is tried on an open level");
            if let Some(old) = top.1.take() {
                take_back_square(&mut trace.events, top.0, old);
            }
            let square = square.expect("the dlx method's encoding has no gadgets");
            trace.events.push(Event::Place {
                r: square.row,
                c: square.col,
            });
            for line in lines(square) {
                if line != top.0 {
                    trace.events.push(Event::Cover { item: line.name() });
                }
            }
            top.1 = Some(square);
        }
        dlx::TraceStep::BackUp { .. } => {
            let (line, square) = open.pop().expect("a back-up closes an open level");
            if let Some(square) = square {
                take_back_square(&mut trace.events, line, square);
            }
            trace.events.push(Event::Uncover { item: line.name() });
        }
        dlx::TraceStep::Solution(solution) => {
            trace.solutions += 1;
            trace.events.push(solution_event(solution));
        }
    });
    (end, engine.stats())
}

/// Constraint programming's replay: each branch with the domains after propagation.
fn replay_cp(
    problem: &Problem,
    settings: Settings,
    limits: Limits,
    trace: &mut Trace,
) -> (Result<Enumeration, EngineError>, Stats) {
    let n = problem.n();
    let mut engine = Cp::new();
    engine.seed = settings.seed;
    engine.limits = limits;
    let end = engine.trace(problem, settings.all, &mut |step| {
        let event = match step {
            cp::TraceStep::Root { domains, .. } => {
                trace.start = masks(n, &domains);
                return ControlFlow::Continue(());
            }
            cp::TraceStep::Assign {
                row,
                col,
                failed,
                domains,
            } => Event::Assign {
                r: row,
                c: col,
                d: masks(n, &domains),
                failed,
            },
            cp::TraceStep::Refute {
                row,
                col,
                failed,
                domains,
            } => Event::Refute {
                r: row,
                c: col,
                d: masks(n, &domains),
                failed,
            },
            cp::TraceStep::Restart => Event::Restart,
            cp::TraceStep::Solution(solution) => {
                trace.solutions += 1;
                solution_event(solution)
            }
        };
        trace.events.push(event);
        ControlFlow::Continue(())
    });
    (end, engine.stats())
}

/// CDCL's replay: decisions, conflicts, learnt clauses and restarts.
fn replay_sat(
    problem: &Problem,
    settings: Settings,
    limits: Limits,
    trace: &mut Trace,
) -> (Result<Enumeration, EngineError>, Stats) {
    let mut engine = Sat::new(sat::Encoding::Pairwise, settings.seed.unwrap_or(0));
    engine.limits = limits;
    let end = engine.trace(problem, settings.all, &mut |step| {
        trace.events.push(match step {
            sat::TraceStep::Decide {
                level,
                square,
                queen,
            } => Event::Decide {
                r: square.map(|q| q.row),
                c: square.map(|q| q.col),
                queen,
                level,
            },
            sat::TraceStep::Conflict { level } => Event::Conflict { level },
            sat::TraceStep::Learn {
                size,
                lbd,
                backjump,
            } => Event::Learn {
                size,
                lbd,
                backjump,
            },
            sat::TraceStep::Restart => Event::Restart,
            sat::TraceStep::Solution(solution) => {
                trace.solutions += 1;
                solution_event(solution)
            }
        });
    });
    (end, engine.stats())
}

/// The event of a solution.
fn solution_event(solution: &crate::board::Solution) -> Event {
    Event::Solution {
        columns: solution.columns().to_vec(),
    }
}

/// Takes back the queens of rows `from..`, the deepest first, as a search backing up would.
fn take_back(events: &mut Vec<Event>, board: &mut [Option<u32>], from: u32) {
    for row in (from as usize..board.len()).rev() {
        if let Some(c) = board[row].take() {
            events.push(Event::Remove { r: row as u32, c });
        }
    }
}

/// Takes back the square exact cover tried for the line `branched`: the option's other lines
/// uncovered, the last covered first, then its queen.
fn take_back_square(events: &mut Vec<Event>, branched: Line, square: Queen) {
    for line in lines(square).into_iter().rev() {
        if line != branched {
            events.push(Event::Uncover { item: line.name() });
        }
    }
    events.push(Event::Remove {
        r: square.row,
        c: square.col,
    });
}

/// The four lines through a square, in the order the encoding lists an option's items.
fn lines(square: Queen) -> [Line; 4] {
    let (r, c) = (square.row, square.col);
    [
        Line::Row(r),
        Line::Column(c),
        Line::AntiDiagonal(r + c),
        Line::Diagonal(r as i32 - c as i32),
    ]
}

/// The rows' domains as masks.
fn masks(n: u32, domains: &cp::Domains<'_>) -> Vec<u64> {
    (0..n)
        .map(|row| {
            (0..n)
                .filter(|&col| domains.allows(row, col))
                .fold(0u64, |mask, col| mask | 1 << col)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_replays_are_the_rows_marked_traceable() {
        let replayed: Vec<methods::Method> = Method::ALL.iter().map(|m| m.method()).collect();
        for &m in methods::Method::ALL {
            assert_eq!(
                replayed.contains(&m),
                m.descriptor().traceable,
                "{m}: a replay and the row's flag disagree"
            );
        }
        assert_eq!(
            Method::parse("local"),
            Err("a replay shows backtrack, dlx, cp or sat, not 'local'".to_string())
        );
    }
}
