//! `Solver::first` without a seed races the declared order against random ones: fast where
//! the declared order is slow by accident, never far behind where it is not, the same answer
//! every time, and within the solver's limits.

use nqueens_exact_cover::{Config, EngineChoice, OptionId, Problem, Solver, instances};
use nqueens_exact_cover::{LimitReached, Limits, Stopped};

/// N queens as exact cover in the plainest order a script would write: rows then columns
/// (primary, in natural order), diagonals secondary, one option per square row by row. The
/// declared order's first solution at n = 64 takes over 300 million nodes.
fn queens_in_natural_order(n: usize) -> Problem {
    let mut text = String::new();
    for r in 0..n {
        text += &format!("r{r} ");
    }
    for c in 0..n {
        text += &format!("c{c} ");
    }
    text += "|";
    for d in 0..2 * n - 1 {
        text += &format!(" a{d} b{d}");
    }
    text += "\n";
    for r in 0..n {
        for c in 0..n {
            text += &format!("r{r} c{c} a{} b{}\n", r + c, r + n - 1 - c);
        }
    }
    Problem::parse(&text).unwrap()
}

/// Whether `options` cover every primary item exactly once and no secondary item twice with
/// different colors (no colors here: at most once).
fn is_exact_cover(problem: &Problem, options: &[OptionId]) -> bool {
    let mut used = vec![0u32; problem.items().len()];
    for &option in options {
        for entry in problem.option(option) {
            used[entry.item.index()] += 1;
        }
    }
    problem.items().iter().zip(&used).all(|(item, &times)| {
        times <= 1 && (times == 1 || item.kind != nqueens_exact_cover::ItemKind::Primary)
    })
}

fn solver(problem: &Problem, engine: EngineChoice) -> Solver {
    let config = Config {
        engine,
        ..Config::default()
    };
    Solver::configured(problem, config).unwrap()
}

#[test]
fn an_accidentally_slow_order_is_raced() {
    for n in [64, 100] {
        let problem = queens_in_natural_order(n);
        for engine in [EngineChoice::Links, EngineChoice::Bits] {
            let mut solver = solver(&problem, engine);
            // Without the race this limit is reached long before the first solution.
            solver.set_limits(Limits {
                nodes: Some(1_000_000),
                ..Limits::default()
            });
            let found = solver
                .first()
                .unwrap()
                .expect("a solution within the node limit");
            assert!(is_exact_cover(&problem, &found), "n = {n}: {found:?}");
            assert_eq!(found.len(), n);
            let stats = solver.stats();
            assert!(stats.nodes < 100_000, "n = {n}: {stats:?}");
            assert_eq!(stats.solutions, 1);
        }
    }
}

#[test]
fn the_race_is_the_same_on_both_engines_and_every_time() {
    let problem = queens_in_natural_order(64);
    let mut links = solver(&problem, EngineChoice::Links);
    let mut bits = solver(&problem, EngineChoice::Bits);
    let found = links.first().unwrap();
    assert!(found.is_some());
    assert_eq!(bits.first().unwrap(), found);
    assert_eq!(links.stats().nodes, bits.stats().nodes);
    assert_eq!(links.stats().restarts, bits.stats().restarts);
    assert_eq!(
        links.first().unwrap(),
        found,
        "a second call gives the same answer"
    );
}

#[test]
fn an_easy_declared_order_keeps_its_first_solution() {
    let problems = [
        Problem::parse("A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n").unwrap(),
        instances::langford(8).unwrap(),
        instances::pentominoes(6, 10).unwrap(),
        instances::sudoku(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        ),
    ];
    for problem in problems {
        let mut solver = Solver::new(&problem);
        let raced = solver.first().unwrap();
        assert_eq!(solver.stats().restarts, 0);
        let declared = solver.solutions().next().transpose().unwrap();
        assert!(declared.is_some());
        assert_eq!(raced, declared);
    }
}

#[test]
fn no_solution_costs_at_most_about_twice_the_plain_search() {
    // Langford pairs exist only for n ≡ 0 or 3 (mod 4); a full-size pentomino box with one
    // piece's cells short has none either.
    for problem in [
        instances::langford(9).unwrap(),
        instances::langford(10).unwrap(),
    ] {
        let mut solver = Solver::new(&problem);
        assert_eq!(solver.count().unwrap(), 0);
        let plain = solver.stats().nodes;
        assert_eq!(solver.first(), Ok(None), "a complete search proved it");
        let raced = solver.stats().nodes;
        assert!(
            raced <= 2 * plain + (1 << 13),
            "plain {plain} nodes, raced {raced}"
        );
    }
}

#[test]
fn preselected_options_are_in_every_restart() {
    let n = 64;
    let problem = queens_in_natural_order(n);
    let mut solver = Solver::new(&problem);
    // A queen at row 10, column 40, and one at row 50, column 3.
    let picks = [
        OptionId((10 * n + 40) as u32),
        OptionId((50 * n + 3) as u32),
    ];
    for &option in &picks {
        solver.select(option).unwrap();
    }
    solver.set_limits(Limits {
        nodes: Some(1_000_000),
        ..Limits::default()
    });
    let found = solver.first().unwrap().expect("a completion");
    assert_eq!(&found[..2], &picks);
    assert!(is_exact_cover(&problem, &found));
}

#[test]
fn the_limits_bound_the_whole_race() {
    // The first round's two orders take 4,096 nodes each: a limit of 3,000 nodes ends the
    // race within the declared order's round, and the limit counts every order's nodes.
    let problem = queens_in_natural_order(64);
    let mut solver = Solver::new(&problem);
    solver.set_limits(Limits {
        nodes: Some(3_000),
        ..Limits::default()
    });
    assert_eq!(solver.first(), Err(Stopped::new(LimitReached::Nodes, 0)));
    assert_eq!(solver.stats().nodes, 3_000);
    // Langford pairs for n = 10 do not exist, and neither order proves it within 6,000
    // nodes: the random order's round ends at the limit.
    let mut solver = Solver::new(&instances::langford(10).unwrap());
    solver.set_limits(Limits {
        nodes: Some(6_000),
        ..Limits::default()
    });
    assert_eq!(solver.first(), Err(Stopped::new(LimitReached::Nodes, 0)));
    assert_eq!(solver.stats().nodes, 6_000);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    solver.set_limits(Limits {
        stop: Some(stop),
        ..Limits::default()
    });
    assert_eq!(solver.first(), Err(Stopped::new(LimitReached::Stopped, 0)));
}
