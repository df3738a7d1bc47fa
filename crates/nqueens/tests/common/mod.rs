//! What several test files share: the proptest strategy for partial boards.
//! (Each test file that needs it says `mod common;`.)

use nqueens::{Problem, Queen};
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
