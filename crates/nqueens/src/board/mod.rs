//! The board model: squares, problems (a board size and the queens already placed on it) and
//! solutions (the column of the queen in each row), also written as a few strides of rows
//! for boards too large to list ([`stride`], checked without expanding them).
//!
//! Everything here is 0-based. Users see squares 1-based as `ROW:COL` (the `Display` of
//! [`Queen`]), which is also the notation of the CLI's `--fix` and of partial-board files.

pub mod naive;
pub mod stride;
pub mod symmetry;
pub mod verify;

use std::collections::HashMap;
use std::fmt;

use thiserror::Error;

/// A queen on a square, 0-based.
///
/// `Display` writes it the way users type it: 1-based `ROW:COL`.
///
/// ```
/// use nqueens_solver::Queen;
/// assert_eq!(Queen::new(0, 2).to_string(), "1:3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Queen {
    /// Row, 0-based from the top.
    pub row: u32,
    /// Column, 0-based from the left.
    pub col: u32,
}

impl Queen {
    /// The queen on row `row`, column `col` (both 0-based).
    pub const fn new(row: u32, col: u32) -> Self {
        Queen { row, col }
    }
}

impl fmt::Display for Queen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", u64::from(self.row) + 1, u64::from(self.col) + 1)
    }
}

/// Why a [`Problem`] cannot be built. Every variant names the squares involved: 1-based
/// `ROW:COL` in its `Display`, or as a front end numbers them ([`ProblemError::describe`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ProblemError {
    /// n = 0.
    ZeroSize,
    /// A fixed queen lies outside the n×n board.
    OffBoard {
        /// The offending queen.
        queen: Queen,
        /// The board size.
        n: u32,
    },
    /// The same square was given twice.
    Duplicate {
        /// The repeated square.
        queen: Queen,
    },
    /// Two fixed queens share a row.
    SameRow {
        /// The queen given first.
        first: Queen,
        /// The queen given later.
        second: Queen,
    },
    /// Two fixed queens share a column.
    SameColumn {
        /// The queen given first.
        first: Queen,
        /// The queen given later.
        second: Queen,
    },
    /// Two fixed queens share a diagonal (row − column equal).
    SameDiagonal {
        /// The queen given first.
        first: Queen,
        /// The queen given later.
        second: Queen,
    },
    /// Two fixed queens share an anti-diagonal (row + column equal).
    SameAntiDiagonal {
        /// The queen given first.
        first: Queen,
        /// The queen given later.
        second: Queen,
    },
    /// A blocked square lies outside the n×n board.
    BlockedOffBoard {
        /// The square.
        square: Queen,
        /// The board size.
        n: u32,
    },
    /// A fixed queen stands on a blocked square.
    FixedOnBlocked {
        /// The queen (and the square).
        queen: Queen,
    },
}

impl ProblemError {
    /// The message with squares numbered the front end's way.
    pub fn describe(&self, numbering: Numbering) -> String {
        let q = |queen: &Queen| numbering.square(*queen);
        let pair = |first: &Queen, second: &Queen, line: &str| {
            format!(
                "fixed queens {} and {} are on the same {line}",
                q(first),
                q(second)
            )
        };
        match self {
            ProblemError::ZeroSize => "the board size n must be at least 1".to_string(),
            ProblemError::OffBoard { queen, n } => format!(
                "fixed queen {} is off the {n}×{n} board ({})",
                q(queen),
                numbering.range(*n)
            ),
            ProblemError::Duplicate { queen } => format!("fixed queen {} is given twice", q(queen)),
            ProblemError::SameRow { first, second } => pair(first, second, "row"),
            ProblemError::SameColumn { first, second } => pair(first, second, "column"),
            ProblemError::SameDiagonal { first, second } => pair(first, second, "diagonal"),
            ProblemError::SameAntiDiagonal { first, second } => {
                pair(first, second, "anti-diagonal")
            }
            ProblemError::BlockedOffBoard { square, n } => format!(
                "blocked square {} is off the {n}×{n} board ({})",
                q(square),
                numbering.range(*n)
            ),
            ProblemError::FixedOnBlocked { queen } => {
                format!("fixed queen {} stands on a blocked square", q(queen))
            }
        }
    }
}

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(Numbering::OneBased))
    }
}

/// How messages number squares: 1-based `ROW:COL`, as the CLI, the files and the page do, or
/// 0-based `(row, col)`, as Python does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Numbering {
    /// `3:5` is row 3, column 5, counting from 1.
    #[default]
    OneBased,
    /// `(2, 4)` is the same square, counting from 0.
    ZeroBased,
}

impl Numbering {
    /// A square.
    pub fn square(self, queen: Queen) -> String {
        match self {
            Numbering::OneBased => queen.to_string(),
            Numbering::ZeroBased => format!("({}, {})", queen.row, queen.col),
        }
    }

    /// A row or column number.
    pub fn index(self, zero_based: u32) -> u64 {
        u64::from(zero_based) + u64::from(self == Numbering::OneBased)
    }

    /// "rows and columns run from 1 to n", or from 0 to n − 1.
    pub fn range(self, n: u32) -> String {
        match self {
            Numbering::OneBased => format!("rows and columns run from 1 to {n}"),
            Numbering::ZeroBased => format!(
                "0-based rows and columns run from 0 to {}",
                u64::from(n).saturating_sub(1)
            ),
        }
    }
}

/// "a 9×9 board", "an 8×8 board", "an 11×11 board": a board size in a sentence, with the
/// article English reads it with (eight, eleven, eighteen, eighty… take "an").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ABoard(pub u32);

impl std::fmt::Display for ABoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0;
        let digits = n.to_string();
        // The number is read from its leading group of one to three digits: "eight …",
        // "eleven …", "eighteen …", "eight hundred …".
        let lead = &digits[..(digits.len() - 1) % 3 + 1];
        let an = lead.starts_with('8') || (lead.len() == 2 && (lead == "11" || lead == "18"));
        write!(f, "{} {n}×{n} board", if an { "an" } else { "a" })
    }
}

/// An N-Queens problem: place `n` non-attacking queens on an n×n board, keeping the queens in
/// `fixed` where they are (the *completion* variant; plain N-Queens when `fixed` is empty).
///
/// A `Problem` is valid by construction: n ≥ 1, every fixed queen is on the board, and no two
/// fixed queens attack each other. It may still have no solution.
///
/// ```
/// use nqueens_solver::{Problem, ProblemError, Queen};
/// let p = Problem::with_fixed(8, [Queen::new(0, 0)]).unwrap();
/// assert_eq!(p.fixed_column(0), Some(0));
/// let err = Problem::with_fixed(8, [Queen::new(0, 0), Queen::new(2, 2)]).unwrap_err();
/// assert_eq!(err.to_string(), "fixed queens 1:1 and 3:3 are on the same diagonal");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Problem {
    n: u32,
    /// Sorted by row (rows are distinct).
    fixed: Vec<Queen>,
    /// Squares no queen may take (blocked n-Queens), sorted, each once; none holds a fixed
    /// queen.
    blocked: Vec<Queen>,
}

impl Problem {
    /// Plain N-Queens on an n×n board.
    pub fn new(n: u32) -> Result<Self, ProblemError> {
        Self::with_fixed(n, [])
    }

    /// The completion problem: n×n with the given queens already placed.
    ///
    /// Checks run in the order the queens are given, so the error names the first queen that
    /// breaks a rule together with the earlier queen it clashes with. Costs O(k) for k queens.
    pub fn with_fixed(
        n: u32,
        fixed: impl IntoIterator<Item = Queen>,
    ) -> Result<Self, ProblemError> {
        if n == 0 {
            return Err(ProblemError::ZeroSize);
        }
        let mut by_row: HashMap<u32, Queen> = HashMap::new();
        let mut by_col: HashMap<u32, Queen> = HashMap::new();
        let mut by_diagonal: HashMap<i64, Queen> = HashMap::new();
        let mut by_anti_diagonal: HashMap<u64, Queen> = HashMap::new();
        let mut queens = Vec::new();
        for queen in fixed {
            if queen.row >= n || queen.col >= n {
                return Err(ProblemError::OffBoard { queen, n });
            }
            if let Some(&first) = by_row.get(&queen.row) {
                return Err(if first == queen {
                    ProblemError::Duplicate { queen }
                } else {
                    ProblemError::SameRow {
                        first,
                        second: queen,
                    }
                });
            }
            if let Some(&first) = by_col.get(&queen.col) {
                return Err(ProblemError::SameColumn {
                    first,
                    second: queen,
                });
            }
            let diagonal = i64::from(queen.row) - i64::from(queen.col);
            if let Some(&first) = by_diagonal.get(&diagonal) {
                return Err(ProblemError::SameDiagonal {
                    first,
                    second: queen,
                });
            }
            let anti_diagonal = u64::from(queen.row) + u64::from(queen.col);
            if let Some(&first) = by_anti_diagonal.get(&anti_diagonal) {
                return Err(ProblemError::SameAntiDiagonal {
                    first,
                    second: queen,
                });
            }
            by_row.insert(queen.row, queen);
            by_col.insert(queen.col, queen);
            by_diagonal.insert(diagonal, queen);
            by_anti_diagonal.insert(anti_diagonal, queen);
            queens.push(queen);
        }
        queens.sort_unstable();
        Ok(Problem {
            n,
            fixed: queens,
            blocked: Vec::new(),
        })
    }

    /// The blocked variant (with the completion's fixed queens, if any): no queen may stand on
    /// a square of `blocked` (Gent, Jefferson and Nightingale's blocked n-Queens). A square
    /// given twice counts once. Costs O(k + b log b).
    ///
    /// ```
    /// use nqueens_solver::{Problem, Queen};
    /// let p = Problem::with_blocks(4, [], [Queen::new(0, 1)]).unwrap();
    /// assert!(p.is_blocked(0, 1) && !p.is_blocked(0, 2));
    /// let err = Problem::with_blocks(4, [Queen::new(0, 1)], [Queen::new(0, 1)]).unwrap_err();
    /// assert_eq!(err.to_string(), "fixed queen 1:2 stands on a blocked square");
    /// ```
    pub fn with_blocks(
        n: u32,
        fixed: impl IntoIterator<Item = Queen>,
        blocked: impl IntoIterator<Item = Queen>,
    ) -> Result<Self, ProblemError> {
        let mut problem = Self::with_fixed(n, fixed)?;
        let mut squares = Vec::new();
        for square in blocked {
            if square.row >= n || square.col >= n {
                return Err(ProblemError::BlockedOffBoard { square, n });
            }
            if problem.fixed_column(square.row) == Some(square.col) {
                return Err(ProblemError::FixedOnBlocked { queen: square });
            }
            squares.push(square);
        }
        squares.sort_unstable();
        squares.dedup();
        problem.blocked = squares;
        Ok(problem)
    }

    /// The board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The fixed queens, sorted by row.
    pub fn fixed(&self) -> &[Queen] {
        &self.fixed
    }

    /// Whether the board is not the plain one: some queens are fixed (the completion
    /// variant) or some squares blocked. Such a board has none of the plain board's
    /// symmetry, and neither the counter nor the construction takes it.
    pub fn is_completion(&self) -> bool {
        !self.fixed.is_empty() || !self.blocked.is_empty()
    }

    /// The blocked squares, sorted by row, then column.
    pub fn blocked(&self) -> &[Queen] {
        &self.blocked
    }

    /// Whether the square (row, col) is blocked. O(log b).
    pub fn is_blocked(&self, row: u32, col: u32) -> bool {
        self.blocked.binary_search(&Queen::new(row, col)).is_ok()
    }

    /// The column of the fixed queen on `row`, if that row has one. O(log k).
    #[inline]
    pub fn fixed_column(&self, row: u32) -> Option<u32> {
        self.fixed
            .binary_search_by_key(&row, |q| q.row)
            .ok()
            .map(|i| self.fixed[i].col)
    }
}

/// A placement of one queen per row: `columns()[row]` is the column of the queen on `row`.
///
/// A `Solution` is only a claim; [`crate::verify()`] decides whether it solves a [`Problem`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Solution {
    columns: Vec<u32>,
}

impl Solution {
    /// The placement with the queen of row `i` in column `columns[i]` (0-based).
    pub fn from_columns(columns: Vec<u32>) -> Self {
        Solution { columns }
    }

    /// The number of rows (the board size, for a solution of a problem).
    pub fn n(&self) -> u32 {
        u32::try_from(self.columns.len()).expect("a solution has at most u32::MAX rows")
    }

    /// The column of each row's queen, 0-based.
    pub fn columns(&self) -> &[u32] {
        &self.columns
    }

    /// Gives the columns back.
    pub fn into_columns(self) -> Vec<u32> {
        self.columns
    }

    /// The queens, row by row.
    pub fn queens(&self) -> impl ExactSizeIterator<Item = Queen> + '_ {
        self.columns
            .iter()
            .enumerate()
            .map(|(row, &col)| Queen::new(row as u32, col))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_ends_number_squares_their_way() {
        let error = Problem::with_fixed(8, [Queen::new(0, 0), Queen::new(1, 1)]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "fixed queens 1:1 and 2:2 are on the same diagonal"
        );
        assert_eq!(
            error.describe(Numbering::ZeroBased),
            "fixed queens (0, 0) and (1, 1) are on the same diagonal"
        );
        let off = ProblemError::OffBoard {
            queen: Queen::new(8, 2),
            n: 8,
        };
        assert_eq!(
            off.describe(Numbering::ZeroBased),
            "fixed queen (8, 2) is off the 8×8 board (0-based rows and columns run from 0 to 7)"
        );
        let violation = crate::verify(
            &Problem::new(2).unwrap(),
            &Solution::from_columns(vec![5, 1]),
        )
        .unwrap_err();
        assert_eq!(
            violation.to_string(),
            "the queen on row 1 is in column 6, off the 2-column board"
        );
        assert_eq!(
            violation.describe(Numbering::ZeroBased),
            "the queen on row 0 is in column 5, off the 2-column board (0-based)"
        );
    }

    #[test]
    fn board_sizes_take_the_article_they_are_read_with() {
        let said = |n| ABoard(n).to_string();
        for n in [
            8, 11, 18, 80, 89, 800, 8_000, 11_000, 18_500, 80_000, 800_000, 8_000_000,
        ] {
            assert!(said(n).starts_with("an "), "{}", said(n));
        }
        for n in [
            1, 4, 9, 10, 12, 19, 28, 100, 108, 111, 118, 1_100, 1_800, 110_000,
        ] {
            assert!(said(n).starts_with("a "), "{}", said(n));
        }
        assert_eq!(said(8), "an 8×8 board");
    }

    #[test]
    fn errors_name_the_squares() {
        let q = Queen::new;
        assert_eq!(Problem::new(0), Err(ProblemError::ZeroSize));
        assert_eq!(
            Problem::with_fixed(4, [q(4, 0)]).unwrap_err().to_string(),
            "fixed queen 5:1 is off the 4×4 board (rows and columns run from 1 to 4)"
        );
        assert_eq!(
            Problem::with_fixed(4, [q(1, 1), q(1, 1)]).unwrap_err(),
            ProblemError::Duplicate { queen: q(1, 1) }
        );
        assert_eq!(
            Problem::with_fixed(4, [q(1, 0), q(1, 3)]).unwrap_err(),
            ProblemError::SameRow {
                first: q(1, 0),
                second: q(1, 3)
            }
        );
        assert_eq!(
            Problem::with_fixed(4, [q(0, 2), q(3, 2)]).unwrap_err(),
            ProblemError::SameColumn {
                first: q(0, 2),
                second: q(3, 2)
            }
        );
        assert_eq!(
            Problem::with_fixed(5, [q(1, 0), q(4, 3)]).unwrap_err(),
            ProblemError::SameDiagonal {
                first: q(1, 0),
                second: q(4, 3)
            }
        );
        assert_eq!(
            Problem::with_fixed(5, [q(0, 3), q(3, 0)])
                .unwrap_err()
                .to_string(),
            "fixed queens 1:4 and 4:1 are on the same anti-diagonal"
        );
    }

    #[test]
    fn fixed_queens_are_sorted_and_looked_up_by_row() {
        let p = Problem::with_fixed(8, [Queen::new(5, 1), Queen::new(0, 4)]).unwrap();
        assert_eq!(p.fixed(), &[Queen::new(0, 4), Queen::new(5, 1)]);
        assert_eq!(p.fixed_column(5), Some(1));
        assert_eq!(p.fixed_column(1), None);
        assert!(p.is_completion());
        assert!(!Problem::new(8).unwrap().is_completion());
    }

    #[test]
    fn solution_lists_its_queens() {
        let s = Solution::from_columns(vec![1, 3, 0, 2]);
        let queens: Vec<String> = s.queens().map(|q| q.to_string()).collect();
        assert_eq!(queens, ["1:2", "2:4", "3:1", "4:3"]);
        assert_eq!(s.n(), 4);
    }
}
