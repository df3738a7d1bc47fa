//! What several test modules share: the proptest strategy for partial boards, and the check of
//! unique counts on a board with a corner queen.

use nqueens_solver::engines::backtrack::Backtrack;
use nqueens_solver::{Engine, Problem, Queen};
use proptest::prelude::*;

/// Random partial boards: n in `1..=max_n`, up to `max_queens` queens on random squares, kept
/// only if no two attack each other.
pub fn partial_board(max_n: u32, max_queens: usize) -> impl Strategy<Value = Problem> {
    (1u32..=max_n).prop_flat_map(move |n| {
        proptest::collection::vec((0..n, 0..n), 0..=max_queens).prop_filter_map(
            "attacking queens",
            move |squares| {
                Problem::with_fixed(n, squares.into_iter().map(|(r, c)| Queen::new(r, c))).ok()
            },
        )
    })
}

/// A corner queen on 8×8 keeps the reflection in its diagonal: `engine` finds its 4
/// completions and counts their classes under that reflection as the backtracking engine does.
pub fn assert_corner_queen_counts_match_backtracking(engine: &mut dyn Engine) {
    let fixed = Problem::with_fixed(8, [Queen::new(0, 0)]).unwrap();
    let counts = engine.count(&fixed, true).unwrap();
    assert_eq!(counts.total, 4);
    assert_eq!(counts, Backtrack::default().count(&fixed, true).unwrap());
}

/// What `solve` answered, with a stop at a limit as an answer of its own (`GaveUp`, with the
/// limit in words) and any other error a test failure.
#[derive(Debug)]
pub enum Answer {
    /// A solution.
    Found(nqueens_solver::Solution),
    /// The engine proved there is none.
    NoSolution,
    /// A limit stopped the search (local search's attempts among them).
    GaveUp {
        /// Which limit, in words.
        reason: String,
    },
}

/// `result` as an [`Answer`]; panics on an error that is no stop.
pub fn answer(result: Result<nqueens_solver::Outcome, nqueens_solver::EngineError>) -> Answer {
    match result {
        Ok(nqueens_solver::Outcome::Found(s)) => Answer::Found(s),
        Ok(nqueens_solver::Outcome::NoSolution) => Answer::NoSolution,
        Err(e) => match e.stopped() {
            Some(stopped) => Answer::GaveUp {
                reason: stopped.reason.to_string(),
            },
            None => panic!("{e}"),
        },
    }
}
