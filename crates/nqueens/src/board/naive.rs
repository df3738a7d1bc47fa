//! The oracle: every completion of a board found the obvious way, one row at a time, each new
//! queen compared with every queen already placed (O(n) per candidate square, so O(n · n!)
//! at worst). It shares no code with any engine or with [`verify()`](crate::verify), and is only
//! for small boards (n ≤ 10 or so): the tests hold every fast engine to it.

use std::collections::BTreeSet;

use super::{Problem, Queen, Solution};

/// Whether two queens attack each other (same row, column or diagonal).
fn attacks(a: Queen, b: Queen) -> bool {
    a.row == b.row || a.col == b.col || a.row.abs_diff(b.row) == a.col.abs_diff(b.col)
}

/// Every completion of `problem`, in lexicographic order of the columns.
///
/// ```
/// use nqueens_solver::{Problem, board::naive};
/// assert_eq!(naive::solutions(&Problem::new(6).unwrap()).len(), 4);
/// ```
pub fn solutions(problem: &Problem) -> BTreeSet<Solution> {
    fn place(problem: &Problem, placed: &mut Vec<Queen>, out: &mut BTreeSet<Solution>) {
        let n = problem.n();
        let row = placed.len() as u32;
        if row == n {
            out.insert(Solution::from_columns(
                placed.iter().map(|q| q.col).collect(),
            ));
            return;
        }
        let fixed_here = problem.fixed().iter().find(|q| q.row == row);
        for col in 0..n {
            let queen = Queen::new(row, col);
            // A blocked square takes no queen: a linear scan, as obvious as the rest.
            if fixed_here.is_some_and(|&q| q != queen) || problem.blocked().contains(&queen) {
                continue;
            }
            // A queen may not attack any fixed queen either (fixed queens in later rows).
            if placed
                .iter()
                .chain(problem.fixed())
                .any(|&q| q != queen && attacks(q, queen))
            {
                continue;
            }
            placed.push(queen);
            place(problem, placed, out);
            placed.pop();
        }
    }
    let mut out = BTreeSet::new();
    place(problem, &mut Vec::new(), &mut out);
    out
}

/// The number of completions of `problem` (the size of [`solutions`]).
pub fn count(problem: &Problem) -> u128 {
    solutions(problem).len() as u128
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_boards_have_the_published_counts() {
        // OEIS A000170 for n = 1..8, typed in here so the oracle does not lean on the table the
        // engines are checked against.
        let expected = [1u128, 0, 0, 2, 10, 4, 40, 92];
        for (n, &want) in (1..=8).zip(&expected) {
            assert_eq!(count(&Problem::new(n).unwrap()), want, "n = {n}");
        }
    }

    #[test]
    fn fixed_queens_are_kept() {
        let p = Problem::with_fixed(8, [Queen::new(0, 0)]).unwrap();
        let all = solutions(&p);
        assert_eq!(all.len(), 4);
        assert!(all.iter().all(|s| s.columns()[0] == 0));
    }
}
