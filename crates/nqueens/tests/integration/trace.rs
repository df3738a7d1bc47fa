//! Replays of a search (`nqueens_solver::trace`) are the engines' own searches: the boards their events
//! draw at each solution are exactly the solutions the naive oracle knows, their node events
//! number exactly the nodes the engine counts when nobody watches, and they end where the
//! search ends.

use std::collections::BTreeSet;

use nqueens_solver::board::naive;
use nqueens_solver::engines::backtrack::Backtrack;
use nqueens_solver::engines::cp::Cp;
use nqueens_solver::engines::dlx::{Dlx, Encoding};
use nqueens_solver::engines::sat::{self, Sat};
use nqueens_solver::trace::{self, Event, Method, Settings, Trace};
use nqueens_solver::{Engine, Outcome, Problem, Queen};

/// The same engine as the replay runs, as the CLI builds it for `--method`, unwatched.
fn engine(method: Method, seed: Option<u64>) -> Box<dyn Engine> {
    match method {
        Method::Backtrack => Box::new(Backtrack::new(1)),
        Method::Dlx => Box::new(Dlx::new(Encoding::Secondary, seed)),
        Method::Cp => {
            let mut cp = Cp::new();
            cp.seed = seed;
            Box::new(cp)
        }
        Method::Sat => Box::new(Sat::new(sat::Encoding::Pairwise, seed.unwrap_or(0))),
    }
}

/// The counter the engine's `--stats` names for the nodes a replay counts.
fn node_stat(method: Method) -> &'static str {
    if method == Method::Sat {
        "decisions"
    } else {
        "nodes"
    }
}

fn problems() -> Vec<Problem> {
    let mut problems: Vec<Problem> = (1..=8).map(|n| Problem::new(n).unwrap()).collect();
    problems.push(Problem::with_fixed(8, [Queen::new(0, 0)]).unwrap());
    problems.push(Problem::with_fixed(7, [Queen::new(2, 3), Queen::new(0, 0)]).unwrap());
    problems.push(Problem::with_fixed(6, [Queen::new(0, 0)]).unwrap());
    // Propagation alone completes this one: CP branches nowhere.
    problems.push(Problem::with_fixed(4, [Queen::new(0, 1)]).unwrap());
    problems
}

fn settings(all: bool, seed: Option<u64>) -> Settings {
    Settings {
        all,
        seed,
        max_nodes: 1_000_000,
    }
}

/// The board each event leaves, read back: `Place`/`Remove` for backtracking and exact cover
/// (the fixed queens are on it from the start: exact cover preselects them), the domains of
/// single value for CP. Returns the boards at the `Solution` events.
fn boards_at_solutions(problem: &Problem, trace: &Trace) -> Vec<Vec<u32>> {
    let n = trace.n as usize;
    let mut board = vec![u32::MAX; n];
    if trace.method == "dlx" {
        for q in problem.fixed() {
            board[q.row as usize] = q.col;
        }
    }
    // CP's domains before its first step: a search that propagation alone solves has none.
    for (row, &mask) in trace.start.iter().enumerate() {
        if mask.count_ones() == 1 {
            board[row] = mask.trailing_zeros();
        }
    }
    let mut found = Vec::new();
    for event in &trace.events {
        match event {
            Event::Place { r, c } => {
                assert_eq!(
                    board[*r as usize],
                    u32::MAX,
                    "a queen placed on a row with one"
                );
                board[*r as usize] = *c;
            }
            Event::Remove { r, c } => {
                assert_eq!(board[*r as usize], *c, "a queen removed that is not there");
                board[*r as usize] = u32::MAX;
            }
            Event::Assign { d, .. } | Event::Refute { d, .. } => {
                for (row, &mask) in d.iter().enumerate() {
                    board[row] = if mask.count_ones() == 1 {
                        mask.trailing_zeros()
                    } else {
                        u32::MAX
                    };
                }
            }
            Event::Solution { columns } if trace.method == "sat" => {
                // SAT's propagations are no events: its solutions come whole.
                found.push(columns.clone());
            }
            Event::Solution { columns } => {
                assert!(
                    board.iter().all(|&c| c != u32::MAX),
                    "{}: a solution with an empty row: {board:?}",
                    trace.method
                );
                assert_eq!(
                    &board, columns,
                    "{}: the board drawn is the solution",
                    trace.method
                );
                found.push(board.clone());
            }
            _ => {}
        }
    }
    found
}

fn node_events(trace: &Trace, method: Method) -> u64 {
    trace.events.iter().filter(|e| e.is_node(method)).count() as u64
}

#[test]
fn a_whole_replay_meets_every_solution_once_and_counts_the_engines_nodes() {
    for problem in problems() {
        let oracle: BTreeSet<Vec<u32>> = naive::solutions(&problem)
            .into_iter()
            .map(|s| s.into_columns())
            .collect();
        for method in Method::ALL {
            let what = format!(
                "{} on n = {} {:?}",
                method.name(),
                problem.n(),
                problem.fixed()
            );
            let trace = trace::run(method, &problem, settings(true, None)).unwrap();
            assert!(!trace.truncated, "{what}");
            let found = boards_at_solutions(&problem, &trace);
            assert_eq!(found.len(), oracle.len(), "{what}: each solution once");
            assert_eq!(found.into_iter().collect::<BTreeSet<_>>(), oracle, "{what}");
            assert_eq!(trace.solutions as usize, oracle.len(), "{what}");

            // The nodes of the same search unwatched, as `list N --method M --stats` counts
            // them.
            let mut unwatched = engine(method, None);
            unwatched
                .for_each(&problem, &mut |_| std::ops::ControlFlow::Continue(()))
                .unwrap();
            let nodes = unwatched.stats().get(node_stat(method)).unwrap() as u64;
            assert_eq!(trace.nodes, nodes, "{what}");
            assert_eq!(
                node_events(&trace, method),
                nodes,
                "{what}: one node event per node"
            );
        }
    }
}

#[test]
fn a_first_solution_replay_is_the_solve_of_the_same_seed() {
    for problem in problems() {
        for method in Method::ALL {
            for seed in [None, Some(3), Some(77)] {
                let what = format!(
                    "{} seed {seed:?} on n = {} {:?}",
                    method.name(),
                    problem.n(),
                    problem.fixed()
                );
                let trace = trace::run(method, &problem, settings(false, seed)).unwrap();
                let mut unwatched = engine(method, seed);
                let outcome = unwatched.solve(&problem).unwrap();
                let nodes = unwatched.stats().get(node_stat(method)).unwrap() as u64;
                assert_eq!(trace.nodes, nodes, "{what}");
                assert_eq!(node_events(&trace, method), nodes, "{what}");
                let found = boards_at_solutions(&problem, &trace);
                match outcome {
                    Outcome::Found(solution) => {
                        assert_eq!(found, vec![solution.into_columns()], "{what}");
                        assert!(
                            matches!(trace.events.last(), Some(Event::Solution { .. })),
                            "{what}"
                        );
                    }
                    Outcome::NoSolution => assert!(found.is_empty(), "{what}"),
                }
            }
        }
    }
}

#[test]
fn exact_cover_covers_and_uncovers_in_nested_pairs_and_ends_where_it_began() {
    let problem = Problem::new(6).unwrap();
    let trace = trace::run(Method::Dlx, &problem, settings(true, None)).unwrap();
    let mut open: Vec<&str> = Vec::new();
    for event in &trace.events {
        match event {
            Event::Branch { item } => {
                assert!(
                    item.starts_with(['r', 'c']),
                    "branches on a primary line: {item}"
                );
                open.push(item);
            }
            Event::Cover { item } => open.push(item),
            Event::Uncover { item } => assert_eq!(open.pop(), Some(item.as_str())),
            _ => {}
        }
    }
    assert!(open.is_empty());
    // The items are named as the encoding names them (what `xc-export` writes): every name
    // the replay uses is an item of the encoded problem.
    let encoded = nqueens_solver::engines::dlx::encode(
        &problem,
        nqueens_solver::engines::dlx::Encoding::Secondary,
    );
    let names: std::collections::BTreeSet<&str> = encoded
        .problem
        .items()
        .iter()
        .map(|item| item.name.as_str())
        .collect();
    for event in &trace.events {
        if let Event::Branch { item } | Event::Cover { item } | Event::Uncover { item } = event {
            assert!(
                names.contains(item.as_str()),
                "{item} is not an item of the encoding"
            );
        }
    }
    assert!(
        trace
            .events
            .iter()
            .any(|e| matches!(e, Event::Cover { item } if item.starts_with('b')))
    );
    assert!(
        trace
            .events
            .iter()
            .any(|e| matches!(e, Event::Cover { item } if item.starts_with('a')))
    );
}

#[test]
fn the_node_budget_cuts_a_replay_short_and_says_so() {
    let problem = Problem::new(12).unwrap();
    // (SAT's budget counts conflicts, as its engine's does: below.)
    for method in [Method::Backtrack, Method::Dlx, Method::Cp] {
        let trace = trace::run(
            method,
            &problem,
            Settings {
                all: true,
                seed: None,
                max_nodes: 500,
            },
        )
        .unwrap();
        assert!(trace.truncated, "{}", method.name());
        let nodes = node_events(&trace, method);
        assert!(
            (450..=500).contains(&nodes),
            "{}: {nodes} node events",
            method.name()
        );
        assert_eq!(trace.nodes, nodes, "{}", method.name());
    }
}

#[test]
fn a_replay_names_what_it_cannot_take() {
    assert!(
        Method::parse("local")
            .unwrap_err()
            .contains("backtrack, dlx, cp or sat")
    );
    assert_eq!(Method::parse("cp"), Ok(Method::Cp));
    let big = Problem::new(65).unwrap();
    let error = trace::run(Method::Cp, &big, settings(false, None)).unwrap_err();
    assert!(error.to_string().contains("up to n = 64"), "{error}");
}

#[test]
fn a_sat_replay_tells_decisions_conflicts_and_back_jumps_that_hang_together() {
    // Every solution of n = 8: hundreds of conflicts and learnt clauses, 92 models.
    let problem = Problem::new(8).unwrap();
    let trace = trace::run(Method::Sat, &problem, settings(true, None)).unwrap();
    assert_eq!(trace.solutions, 92);
    let mut level = 0;
    let (mut conflicts, mut learnt) = (0u64, 0u64);
    for event in &trace.events {
        match event {
            Event::Decide { level: l, r, c, .. } => {
                assert_eq!(*l, level + 1, "a decision opens the next level");
                assert!(
                    r.is_some() && c.is_some(),
                    "pairwise: every variable is a square"
                );
                level = *l;
            }
            Event::Conflict { level: l } => {
                assert!(*l <= level);
                conflicts += 1;
            }
            Event::Learn {
                size,
                lbd,
                backjump,
            } => {
                assert!(*backjump < level && *lbd <= *size && *size > 0);
                level = *backjump;
                learnt += 1;
            }
            Event::Restart => level = 0,
            Event::Solution { columns } => {
                nqueens_solver::verify(
                    &problem,
                    &nqueens_solver::Solution::from_columns(columns.clone()),
                )
                .unwrap();
                // The next model's search starts from the root.
                level = 0;
            }
            other => panic!("not a SAT event: {other:?}"),
        }
    }
    let mut unwatched = engine(Method::Sat, None);
    unwatched.count(&problem, false).unwrap();
    assert_eq!(
        conflicts,
        unwatched.stats().get("conflicts").unwrap() as u64
    );
    assert!(learnt > 0 && learnt <= conflicts);
}
