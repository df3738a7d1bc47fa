//! Solutions written as strides, and their check without the board.
//!
//! A board of 4·10⁹ rows takes 17 GB as a list of columns, but the explicit constructions
//! (`engines::construct`) place their queens in a handful of *strides*: runs of consecutive
//! rows whose columns step two to the right each row. A [`StridedSolution`] is that
//! description, a few numbers whatever n; [`StridedSolution::columns`] expands it row by row
//! in constant memory, for a writer that streams the board.
//!
//! [`verify_strides`] checks such a solution against a [`Problem`] without expanding it, in
//! O(k²) for k strides (plus O(k) per fixed queen or blocked square), and answers exactly what
//! [`crate::verify()`] answers for the expanded columns, violation and squares included. Why it
//! can: inside one stride two queens j − i rows apart are 2(j − i) columns apart, never 0 and
//! never ±(j − i), so a stride never attacks itself. Between queen i of stride a (row
//! Rₐ + i, column cₐ + 2i) and queen j of a later stride b, each line is one linear equation:
//!
//! | line          | the two queens share it when          |
//! |---------------|---------------------------------------|
//! | column        | 2(i − j) = c_b − cₐ                   |
//! | diagonal      | i − j = (Rₐ − cₐ) − (R_b − c_b)       |
//! | anti-diagonal | 3(i − j) = (R_b + c_b) − (Rₐ + cₐ)    |
//!
//! so each asks whether i − j takes one given value t (when the divisions are exact) with
//! 0 ≤ i < lₐ and 0 ≤ j < l_b: an interval test, and the smallest such j is the first clash in
//! row order. This shares no code with the construction whose strides it checks, nor with
//! `verify`; the tests hold the two checkers to each other on random strides.

use crate::board::verify::Violation;
use crate::board::{Problem, Queen};

/// `len` queens on consecutive rows, the first in column `col` (0-based) and each next one
/// [`Stride::STEP`] columns to the right of the one above.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stride {
    col: u32,
    len: u32,
}

impl Stride {
    /// Columns between the queens of two consecutive rows of a stride.
    pub const STEP: u32 = 2;

    /// The stride of `len` queens from column `col`; `None` when its last column would pass
    /// `u32::MAX` (no board has it).
    ///
    /// ```
    /// use nqueens_solver::board::stride::Stride;
    /// assert_eq!(Stride::new(1, 3).unwrap().last_col(), Some(5));
    /// assert!(Stride::new(u32::MAX - 1, 2).is_none());
    /// ```
    pub fn new(col: u32, len: u32) -> Option<Self> {
        let last = u64::from(col) + u64::from(Self::STEP) * u64::from(len.saturating_sub(1));
        u32::try_from(last).ok().map(|_| Stride { col, len })
    }

    /// The column of its first queen.
    pub fn col(self) -> u32 {
        self.col
    }

    /// Its number of queens (rows).
    pub fn len(self) -> u32 {
        self.len
    }

    /// Whether it holds no queen.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The column of its last queen; `None` when it is empty.
    pub fn last_col(self) -> Option<u32> {
        self.len.checked_sub(1).map(|i| self.column(i))
    }

    /// The column of its `i`-th queen (0-based). Needs `i < len`.
    fn column(self, i: u32) -> u32 {
        self.col + Self::STEP * i
    }
}

/// A placement of one queen per row given as [`Stride`]s in row order: the first stride starts
/// on row 0 and each next one on the row after the previous one ends. A claim, like
/// [`crate::Solution`]; [`verify_strides`] decides whether it solves a problem.
///
/// ```
/// use nqueens_solver::board::stride::{Stride, StridedSolution};
/// // 2 4 1 3 (1-based): columns 1, 3, then 0, 2.
/// let s = StridedSolution::new([Stride::new(1, 2).unwrap(), Stride::new(0, 2).unwrap()]);
/// assert_eq!(s.columns().collect::<Vec<_>>(), [1, 3, 0, 2]);
/// assert_eq!(s.column(2), Some(0));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StridedSolution {
    /// Non-empty strides, in row order.
    strides: Vec<Stride>,
}

impl StridedSolution {
    /// The placement the strides describe, one after the other (empty ones are dropped).
    pub fn new(strides: impl IntoIterator<Item = Stride>) -> Self {
        StridedSolution {
            strides: strides.into_iter().filter(|s| !s.is_empty()).collect(),
        }
    }

    /// The strides, in row order, none empty.
    pub fn strides(&self) -> &[Stride] {
        &self.strides
    }

    /// The number of rows (queens) in all.
    pub fn rows(&self) -> u64 {
        self.strides.iter().map(|s| u64::from(s.len)).sum()
    }

    /// The column of the queen on `row`, or `None` past the last row. O(k) for k strides.
    pub fn column(&self, row: u32) -> Option<u32> {
        self.locate(u64::from(row))
            .map(|(stride, i)| stride.column(i))
    }

    /// The columns row by row, computed as they are read (constant memory).
    pub fn columns(&self) -> Columns<'_> {
        Columns {
            strides: &self.strides,
            next: self.strides.first().map_or(0, |s| s.col),
            left: self.strides.first().map_or(0, |s| s.len),
        }
    }

    /// The stride holding `row`, and the row's index in it.
    fn locate(&self, row: u64) -> Option<(Stride, u32)> {
        let mut start = 0u64;
        for &stride in &self.strides {
            let end = start + u64::from(stride.len);
            if row < end {
                return Some((stride, (row - start) as u32));
            }
            start = end;
        }
        None
    }
}

/// The columns of a [`StridedSolution`], row by row ([`StridedSolution::columns`]).
#[derive(Clone, Debug)]
pub struct Columns<'s> {
    /// The current stride and those after it.
    strides: &'s [Stride],
    /// The next column of the current stride.
    next: u32,
    /// Queens of the current stride not yet given.
    left: u32,
}

impl Iterator for Columns<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.left == 0 {
            let (_, rest) = self.strides.split_first()?;
            let next = rest.first()?;
            self.strides = rest;
            self.next = next.col;
            self.left = next.len;
        }
        let col = self.next;
        self.left -= 1;
        // The last queen of a stride may sit in column u32::MAX: step only when another follows.
        if self.left > 0 {
            self.next += Stride::STEP;
        }
        Some(col)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let rest: u64 = self.strides.iter().skip(1).map(|s| u64::from(s.len)).sum();
        let left = u64::from(self.left) + rest;
        let left = usize::try_from(left).ok();
        (left.unwrap_or(usize::MAX), left)
    }
}

/// [`crate::verify()`] for a solution given as strides, without expanding it: the same answer,
/// the same first violation, in O(k²) for k strides (see the [module documentation](self)).
///
/// ```
/// use nqueens_solver::board::stride::{verify_strides, Stride, StridedSolution};
/// use nqueens_solver::Problem;
/// let four = Problem::new(4).unwrap();
/// let s = |strides: &[(u32, u32)]| {
///     StridedSolution::new(strides.iter().map(|&(col, len)| Stride::new(col, len).unwrap()))
/// };
/// assert_eq!(verify_strides(&four, &s(&[(1, 2), (0, 2)])), Ok(()));
/// assert_eq!(
///     verify_strides(&four, &s(&[(0, 2), (1, 2)])).unwrap_err().to_string(),
///     "queens 2:3 and 3:2 attack each other along an anti-diagonal"
/// );
/// ```
pub fn verify_strides(problem: &Problem, solution: &StridedSolution) -> Result<(), Violation> {
    let n = problem.n();
    let rows = solution.rows();
    if rows != u64::from(n) {
        return Err(Violation::WrongSize {
            expected: n,
            found: usize::try_from(rows).unwrap_or(usize::MAX),
        });
    }
    let placed = placed(solution);
    for &(row, stride) in &placed {
        if let Some(i) = first_off_board(stride, n) {
            return Err(Violation::OffBoard {
                row: (row + u64::from(i)) as u32,
                col: stride.column(i),
                n,
            });
        }
    }
    let column = |row: u32| {
        solution
            .column(row)
            .expect("every row of the board is placed")
    };
    for &fixed in problem.fixed() {
        let col = column(fixed.row);
        if col != fixed.col {
            return Err(Violation::FixedQueenMoved {
                fixed,
                found: Queen::new(fixed.row, col),
            });
        }
    }
    for &square in problem.blocked() {
        if column(square.row) == square.col {
            return Err(Violation::OnBlocked { queen: square });
        }
    }
    first_clash(&placed).map_or(Ok(()), Err)
}

/// Each stride with its first row.
fn placed(solution: &StridedSolution) -> Vec<(u64, Stride)> {
    let mut row = 0u64;
    solution
        .strides
        .iter()
        .map(|&stride| {
            let at = row;
            row += u64::from(stride.len);
            (at, stride)
        })
        .collect()
}

/// The index of the first queen of `stride` in a column ≥ n, if any.
fn first_off_board(stride: Stride, n: u32) -> Option<u32> {
    let last = stride.last_col()?;
    if last < n {
        None
    } else if stride.col >= n {
        Some(0)
    } else {
        Some((n - stride.col).div_ceil(Stride::STEP))
    }
}

/// The lines two queens can share, in the order [`crate::verify()`] looks at them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Line {
    Column,
    Diagonal,
    AntiDiagonal,
}

/// The clash [`crate::verify()`] reports first: the smallest later queen's row, then the line
/// in verify's order, then the earliest queen it clashes with.
fn first_clash(placed: &[(u64, Stride)]) -> Option<Violation> {
    let mut first: Option<((u64, Line, u64), Violation)> = None;
    for (b, &(row_b, stride_b)) in placed.iter().enumerate() {
        for &(row_a, stride_a) in &placed[..b] {
            for line in [Line::Column, Line::Diagonal, Line::AntiDiagonal] {
                let Some((i, j)) = meeting((row_a, stride_a), (row_b, stride_b), line) else {
                    continue;
                };
                let earlier = Queen::new((row_a + i) as u32, stride_a.column(i as u32));
                let later = Queen::new((row_b + j) as u32, stride_b.column(j as u32));
                let key = (u64::from(later.row), line, u64::from(earlier.row));
                if first.as_ref().is_some_and(|(best, _)| *best <= key) {
                    continue;
                }
                let (first_queen, second) = (earlier, later);
                let violation = match line {
                    Line::Column => Violation::SameColumn {
                        first: first_queen,
                        second,
                    },
                    Line::Diagonal => Violation::SameDiagonal {
                        first: first_queen,
                        second,
                    },
                    Line::AntiDiagonal => Violation::SameAntiDiagonal {
                        first: first_queen,
                        second,
                    },
                };
                first = Some((key, violation));
            }
        }
    }
    first.map(|(_, violation)| violation)
}

/// The queens (i of stride a, j of the later stride b, smallest j) that share `line`, if any.
fn meeting(a: (u64, Stride), b: (u64, Stride), line: Line) -> Option<(u64, u64)> {
    let (row_a, col_a) = (i64::try_from(a.0).ok()?, i64::from(a.1.col));
    let (row_b, col_b) = (i64::try_from(b.0).ok()?, i64::from(b.1.col));
    let step = i64::from(Stride::STEP);
    // i − j must equal `difference / divisor`, exactly.
    let (difference, divisor) = match line {
        Line::Column => (col_b - col_a, step),
        Line::Diagonal => ((row_a - col_a) - (row_b - col_b), step - 1),
        Line::AntiDiagonal => ((row_b + col_b) - (row_a + col_a), step + 1),
    };
    if difference % divisor != 0 {
        return None;
    }
    let t = difference / divisor;
    // 0 ≤ j < len_b and 0 ≤ i = j + t < len_a.
    let j = 0.max(-t);
    (j < i64::from(b.1.len).min(i64::from(a.1.len) - t)).then(|| ((j + t) as u64, j as u64))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::{Solution, verify};

    fn strided(strides: &[(u32, u32)]) -> StridedSolution {
        StridedSolution::new(
            strides
                .iter()
                .map(|&(col, len)| Stride::new(col, len).unwrap()),
        )
    }

    fn expanded(solution: &StridedSolution) -> Solution {
        Solution::from_columns(solution.columns().collect())
    }

    #[test]
    fn columns_step_two_within_a_stride_and_restart_at_the_next() {
        let s = strided(&[(3, 3), (0, 0), (u32::MAX, 1), (2, 2)]);
        assert_eq!(s.strides().len(), 3);
        assert_eq!(s.columns().collect::<Vec<_>>(), [3, 5, 7, u32::MAX, 2, 4]);
        assert_eq!(s.columns().size_hint(), (6, Some(6)));
        assert_eq!(s.rows(), 6);
        let rows: Vec<_> = (0..7).map(|row| s.column(row)).collect();
        assert_eq!(
            rows,
            [
                Some(3),
                Some(5),
                Some(7),
                Some(u32::MAX),
                Some(2),
                Some(4),
                None
            ]
        );
        assert_eq!(strided(&[]).columns().next(), None);
    }

    #[test]
    fn names_each_violation_as_verify_does() {
        let p = Problem::new(4).unwrap();
        let q = Queen::new;
        let check = |s: &[(u32, u32)]| verify_strides(&p, &strided(s));
        assert_eq!(
            check(&[(1, 2), (0, 1)]),
            Err(Violation::WrongSize {
                expected: 4,
                found: 3
            })
        );
        assert_eq!(
            check(&[(1, 2), (0, 2), (0, 1)]),
            Err(Violation::WrongSize {
                expected: 4,
                found: 5
            })
        );
        assert_eq!(
            check(&[(0, 1), (1, 3)]),
            Err(Violation::OffBoard {
                row: 3,
                col: 5,
                n: 4
            })
        );
        assert_eq!(
            check(&[(1, 2), (1, 2)]),
            Err(Violation::SameColumn {
                first: q(0, 1),
                second: q(2, 1)
            })
        );
        let fixed = Problem::with_blocks(4, [q(1, 0)], [q(3, 2)]).unwrap();
        assert_eq!(
            verify_strides(&fixed, &strided(&[(1, 2), (0, 2)])),
            Err(Violation::FixedQueenMoved {
                fixed: q(1, 0),
                found: q(1, 3)
            })
        );
        let blocked = Problem::with_blocks(4, [], [q(3, 2)]).unwrap();
        assert_eq!(
            verify_strides(&blocked, &strided(&[(1, 2), (0, 2)])),
            Err(Violation::OnBlocked { queen: q(3, 2) })
        );
    }

    #[test]
    fn a_board_of_four_billion_rows_is_checked_from_its_strides() {
        // n = 2³² − 1 is 3 mod 6: 4, 6, …, n − 1, 2; 5, 7, …, n, 1, 3 (1-based).
        let n = u32::MAX;
        let half = n / 2;
        let s = strided(&[(3, half - 1), (1, 1), (4, n - half - 2), (0, 1), (2, 1)]);
        assert_eq!(verify_strides(&Problem::new(n).unwrap(), &s), Ok(()));
        // Its last two queens swapped: 1-based, the queen on row n − 1 is in column 3, on the
        // anti-diagonal row + column = n + 2 of the first stride's queen on row n / 3, whose
        // column is 2·row + 2.
        let wrong = strided(&[(3, half - 1), (1, 1), (4, n - half - 2), (2, 1), (0, 1)]);
        assert_eq!(
            verify_strides(&Problem::new(n).unwrap(), &wrong)
                .unwrap_err()
                .to_string(),
            "queens 1431655765:2863311532 and 4294967294:3 attack each other along an anti-diagonal"
        );
    }

    fn strides_of(n: u32) -> impl Strategy<Value = Vec<(u32, u32)>> {
        prop::collection::vec((0..n + 2, 0..n.min(5) + 1), 0..6)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// The stride checker and the independent `verify` give the same answer, violation
        /// and squares included, on random strides of small boards with random fixed queens
        /// and blocked squares.
        #[test]
        fn agrees_with_verify_on_the_expanded_board(
            (n, strides, fixed, blocked) in (1u32..13).prop_flat_map(|n| (
                Just(n),
                strides_of(n),
                prop::option::of((0..n, 0..n)),
                prop::collection::vec((0..n, 0..n), 0..3),
            ))
        ) {
            let fixed: Vec<Queen> = fixed.map(|(r, c)| Queen::new(r, c)).into_iter().collect();
            let blocked = blocked.into_iter().map(|(r, c)| Queen::new(r, c));
            let Ok(problem) = Problem::with_blocks(n, fixed, blocked) else {
                return Ok(());
            };
            let s = strided(&strides);
            prop_assert_eq!(verify_strides(&problem, &s), verify(&problem, &expanded(&s)));
        }

        /// Strides that add up to the board: many solve it, and the two still agree.
        #[test]
        fn agrees_with_verify_on_strides_that_fill_the_board(
            (n, cuts, cols) in (4u32..40).prop_flat_map(|n| (
                Just(n),
                prop::collection::vec(1..n, 0..4),
                prop::collection::vec(0..n, 5),
            ))
        ) {
            let mut cuts = cuts;
            cuts.extend([0, n]);
            cuts.sort_unstable();
            cuts.dedup();
            let strides: Vec<(u32, u32)> = cuts
                .windows(2)
                .zip(&cols)
                .map(|(w, &col)| (col, w[1] - w[0]))
                .collect();
            let s = strided(&strides);
            let problem = Problem::new(n).unwrap();
            prop_assert_eq!(verify_strides(&problem, &s), verify(&problem, &expanded(&s)));
        }
    }
}
