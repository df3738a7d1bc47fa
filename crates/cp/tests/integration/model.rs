//! Building a model: what the solver refuses, and the search callback as a plain closure.

use std::ops::ControlFlow;

use nqueens_cp::{Error, SearchConfig, Solver, Strength, View};

/// Two solvers with three variables each: the second one's variables have the first one's
/// indices, and every call that takes a variable refuses them.
#[test]
fn a_variable_of_another_solver_is_refused() {
    let mut solver = Solver::new();
    let own = solver.new_vars(3, 0, 2).unwrap();
    let mut other = Solver::new();
    let foreign = other.new_vars(3, 0, 2).unwrap();
    assert_eq!(own[1].index(), foreign[1].index());
    let refused = Err(Error::ForeignVariable { index: 1 });
    assert_eq!(solver.fix(foreign[1], 0), refused);
    assert_eq!(solver.remove(foreign[1], 0), refused);
    assert_eq!(solver.not_equal(own[0], foreign[1]), refused);
    assert_eq!(solver.not_equal(foreign[1].plus(1), own[0]), refused);
    let views: Vec<View> = vec![own[0].into(), foreign[1].into()];
    for strength in [Strength::Pairwise, Strength::Value, Strength::Bounds] {
        assert_eq!(solver.all_different(&views, strength), refused);
    }
    let config = SearchConfig {
        priority: vec![foreign[1]],
        ..SearchConfig::default()
    };
    let result = solver.search(&config, |_| ControlFlow::Continue(()));
    assert_eq!(result.unwrap_err(), Error::ForeignVariable { index: 1 });
    assert_eq!(
        Error::ForeignVariable { index: 1 }.to_string(),
        "variable 1 was made by another solver, not this one"
    );
    // Nothing of it reached the model: 3 free variables of 3 values each.
    assert!(!solver.is_infeasible());
    assert_eq!(solver.values(own[1]), [0, 1, 2]);
    let all = solver.search(&SearchConfig::default(), |_| ControlFlow::Continue(()));
    assert_eq!(all.unwrap().solutions, 27);
}

#[test]
#[should_panic(expected = "variable 2 was made by another solver, not this one")]
fn a_question_about_a_variable_of_another_solver_panics() {
    let mut solver = Solver::new();
    solver.new_vars(3, 0, 2).unwrap();
    let mut other = Solver::new();
    let foreign = other.new_vars(3, 5, 9).unwrap();
    solver.min(foreign[2]);
}

/// A clone of a solver is the same model: it takes the original's variables.
#[test]
fn a_clone_takes_the_variables_of_the_original() {
    let mut solver = Solver::new();
    let x = solver.new_vars(2, 0, 1).unwrap();
    let mut copy = solver.clone();
    copy.not_equal(x[0], x[1]).unwrap();
    copy.fix(x[0], 1).unwrap();
    let mut seen = Vec::new();
    let result = copy.search(&SearchConfig::default(), |sol| {
        seen.push(sol.values());
        ControlFlow::Continue(())
    });
    assert_eq!(result.unwrap().solutions, 1);
    assert_eq!(seen, [vec![1, 0]]);
}

/// The callback is a closure with no written types: its argument's type comes from `search`.
#[test]
fn the_search_callback_is_a_closure_without_written_types() {
    let mut solver = Solver::new();
    let x = solver.new_vars(4, 0, 3).unwrap();
    let diagonal =
        |sign: i32| -> Vec<View> { x.iter().zip(0..).map(|(&v, i)| v.plus(sign * i)).collect() };
    for views in [diagonal(0), diagonal(1), diagonal(-1)] {
        solver.all_different(&views, Strength::Bounds).unwrap();
    }
    let mut boards = Vec::new();
    let result = solver.search(&SearchConfig::default(), |sol| {
        boards.push(x.iter().map(|&v| sol.value(v)).collect::<Vec<_>>());
        ControlFlow::Continue(())
    });
    assert_eq!(result.unwrap().solutions, 2);
    boards.sort();
    assert_eq!(boards, [[1, 3, 0, 2], [2, 0, 3, 1]]);
}

/// A count a limit ended is no count: 10 queens have 724 solutions (OEIS A000170); a node
/// budget of 200 ends the search after some of them, and the search answers
/// `Err(Error::Stopped)` with those, never `Ok` with a short count.
#[test]
fn a_count_a_limit_ended_is_no_count() {
    use nqueens_cp::{LimitReached, Limits, Stopped};
    let n = 10;
    let mut solver = Solver::new();
    let x = solver.new_vars(n as usize, 0, n - 1).unwrap();
    let columns: Vec<View> = x.iter().map(|&v| v.into()).collect();
    let up: Vec<View> = x.iter().zip(0..).map(|(&v, i)| v.plus(i)).collect();
    let down: Vec<View> = x.iter().zip(0..).map(|(&v, i)| v.minus(i)).collect();
    for views in [&columns, &up, &down] {
        solver.all_different(views, Strength::Bounds).unwrap();
    }
    let mut config = SearchConfig {
        limits: Limits {
            nodes: Some(200),
            ..Limits::default()
        },
        ..SearchConfig::default()
    };
    let mut visited = 0u128;
    let result = solver.search(&config, |_| {
        visited += 1;
        ControlFlow::Continue(())
    });
    let Err(Error::Stopped(Stopped { reason, found })) = result else {
        panic!("a count under 200 nodes: {result:?}");
    };
    assert_eq!(reason, LimitReached::Nodes);
    assert_eq!(found, visited);
    assert!(0 < found && found < 724, "{found}");
    config.limits = Limits::none();
    let all = solver.search(&config, |_| ControlFlow::Continue(()));
    assert_eq!(all.unwrap().solutions, 724);
}
