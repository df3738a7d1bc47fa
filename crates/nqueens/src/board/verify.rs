//! The independent judge of every engine.
//!
//! [`verify`] shares no code with any solver: it reads a [`Solution`] as a plain list of
//! columns and checks the rules of the puzzle from scratch, in O(n) time and about 5n bits of
//! memory (so it also checks answers for n = 10^8). When a rule is broken it reports the first
//! offending queen in row order together with the earlier queen it clashes with.

use std::sync::atomic::{AtomicBool, Ordering};

use thiserror::Error;

use crate::board::{Numbering, Problem, Queen, Solution};

/// Why a claimed solution does not solve a problem. Squares are shown 1-based as `ROW:COL` by
/// `Display`, or as a front end numbers them ([`Violation::describe`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Violation {
    /// The solution has a different number of rows than the board.
    WrongSize {
        /// The board size.
        expected: u32,
        /// Rows in the solution.
        found: usize,
    },
    /// A queen's column is outside the board.
    OffBoard {
        /// 0-based row.
        row: u32,
        /// 0-based column.
        col: u32,
        /// The board size.
        n: u32,
    },
    /// A fixed queen of the problem is not where the problem put it.
    FixedQueenMoved {
        /// The square the problem fixed.
        fixed: Queen,
        /// Where the solution has that row's queen.
        found: Queen,
    },
    /// A queen stands on a blocked square.
    OnBlocked {
        /// The queen.
        queen: Queen,
    },
    /// Two queens share a column.
    SameColumn {
        /// The earlier queen.
        first: Queen,
        /// The later queen.
        second: Queen,
    },
    /// Two queens share a diagonal (row − column equal).
    SameDiagonal {
        /// The earlier queen.
        first: Queen,
        /// The later queen.
        second: Queen,
    },
    /// Two queens share an anti-diagonal (row + column equal).
    SameAntiDiagonal {
        /// The earlier queen.
        first: Queen,
        /// The later queen.
        second: Queen,
    },
}

impl Violation {
    /// The message with squares numbered the front end's way.
    pub fn describe(&self, numbering: Numbering) -> String {
        let q = |queen: &Queen| numbering.square(*queen);
        let attack = |first: &Queen, second: &Queen, line: &str| {
            format!(
                "queens {} and {} attack each other along {line}",
                q(first),
                q(second)
            )
        };
        match self {
            Violation::WrongSize { expected, found } => {
                format!("the solution has {found} rows but the board has {expected}")
            }
            Violation::OffBoard { row, col, n } => format!(
                "the queen on row {} is in column {}, off the {n}-column board{}",
                numbering.index(*row),
                numbering.index(*col),
                if numbering == Numbering::ZeroBased {
                    " (0-based)"
                } else {
                    ""
                }
            ),
            Violation::FixedQueenMoved { fixed, found } => format!(
                "fixed queen {} was moved: row {} has its queen on {}",
                q(fixed),
                numbering.index(fixed.row),
                q(found)
            ),
            Violation::OnBlocked { queen } => {
                format!("the queen on {} stands on a blocked square", q(queen))
            }
            Violation::SameColumn { first, second } => attack(first, second, "a column"),
            Violation::SameDiagonal { first, second } => attack(first, second, "a diagonal"),
            Violation::SameAntiDiagonal { first, second } => {
                attack(first, second, "an anti-diagonal")
            }
        }
    }
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe(Numbering::OneBased))
    }
}

/// Checks that `solution` places n non-attacking queens on the board of `problem`, keeps
/// every fixed queen where the problem put it and puts none on a blocked square.
///
/// ```
/// use nqueens_solver::{verify, Problem, Solution, Violation};
/// let p = Problem::new(4).unwrap();
/// assert_eq!(verify(&p, &Solution::from_columns(vec![1, 3, 0, 2])), Ok(()));
/// let err = verify(&p, &Solution::from_columns(vec![0, 2, 3, 1])).unwrap_err();
/// assert_eq!(err.to_string(), "queens 2:3 and 3:4 attack each other along a diagonal");
/// ```
pub fn verify(problem: &Problem, solution: &Solution) -> Result<(), Violation> {
    scan(problem, solution, &AtomicBool::new(false)).map(|_| ())
}

/// [`verify`] that looks at `stop` every [`STOP_ROWS`] rows and answers `None` once it is
/// raised: the check of a board of 10⁹ rows takes seconds, and Ctrl-C must not wait for it.
pub fn verify_until(
    problem: &Problem,
    solution: &Solution,
    stop: &AtomicBool,
) -> Option<Result<(), Violation>> {
    match scan(problem, solution, stop) {
        Ok(true) => Some(Ok(())),
        Ok(false) => None,
        Err(violation) => Some(Err(violation)),
    }
}

/// Rows [`verify_until`] checks between two looks at its stop flag.
pub const STOP_ROWS: u64 = 1 << 20;

/// The bytes [`verify`] takes for a board of n rows: one bit per column, diagonal and
/// anti-diagonal (5n bits), for the memory estimates of the jobs whose answers it checks.
pub fn verify_bytes(n: u32) -> u64 {
    5 * u64::from(n).div_ceil(8) + 24
}

/// The check itself: `Ok(true)` when every rule holds, `Ok(false)` if `stop` was raised first.
fn scan(problem: &Problem, solution: &Solution, stop: &AtomicBool) -> Result<bool, Violation> {
    let n = problem.n();
    let columns = solution.columns();
    if columns.len() != n as usize {
        return Err(Violation::WrongSize {
            expected: n,
            found: columns.len(),
        });
    }
    for (row, &col) in columns.iter().enumerate() {
        if col >= n {
            return Err(Violation::OffBoard {
                row: row as u32,
                col,
                n,
            });
        }
    }
    for &fixed in problem.fixed() {
        let col = columns[fixed.row as usize];
        if col != fixed.col {
            return Err(Violation::FixedQueenMoved {
                fixed,
                found: Queen::new(fixed.row, col),
            });
        }
    }
    for &square in problem.blocked() {
        if columns[square.row as usize] == square.col {
            return Err(Violation::OnBlocked { queen: square });
        }
    }

    // Lines are numbered so that each fits a bitset: columns 0..n, diagonals (row − col + n − 1)
    // and anti-diagonals (row + col) 0..2n−1.
    let n64 = u64::from(n);
    let mut column_seen = BitSet::new(n64);
    let mut diagonal_seen = BitSet::new(2 * n64);
    let mut anti_diagonal_seen = BitSet::new(2 * n64);
    let diagonal = |row: u64, col: u64| row + n64 - 1 - col;
    let anti_diagonal = |row: u64, col: u64| row + col;
    for (row, &col) in (0u64..).zip(columns) {
        if row & (STOP_ROWS - 1) == 0 && stop.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let col = u64::from(col);
        // The clash is with the one earlier queen on the same line; find it by a second scan.
        let earlier = |same_line: &dyn Fn(u64, u64) -> bool| {
            let (r, c) = (0u64..row)
                .zip(columns)
                .map(|(r, &c)| (r, u64::from(c)))
                .find(|&(r, c)| same_line(r, c))
                .expect("a line marked as seen has an earlier queen on it");
            Queen::new(r as u32, c as u32)
        };
        let this = Queen::new(row as u32, col as u32);
        if !column_seen.insert(col) {
            let first = earlier(&|_, c| c == col);
            return Err(Violation::SameColumn {
                first,
                second: this,
            });
        }
        let d = diagonal(row, col);
        if !diagonal_seen.insert(d) {
            let first = earlier(&|r, c| diagonal(r, c) == d);
            return Err(Violation::SameDiagonal {
                first,
                second: this,
            });
        }
        let a = anti_diagonal(row, col);
        if !anti_diagonal_seen.insert(a) {
            let first = earlier(&|r, c| anti_diagonal(r, c) == a);
            return Err(Violation::SameAntiDiagonal {
                first,
                second: this,
            });
        }
    }
    Ok(true)
}

/// A fixed-size set of small integers, one bit each.
struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    fn new(len: u64) -> Self {
        BitSet {
            words: vec![0; len.div_ceil(64) as usize],
        }
    }

    /// Adds `i`; false when it was already there.
    fn insert(&mut self, i: u64) -> bool {
        let word = &mut self.words[(i / 64) as usize];
        let bit = 1u64 << (i % 64);
        let fresh = *word & bit == 0;
        *word |= bit;
        fresh
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sol(columns: &[u32]) -> Solution {
        Solution::from_columns(columns.to_vec())
    }

    /// Obviously right and quadratic: every pair of rows.
    fn attacks_pairwise(columns: &[u32]) -> bool {
        (0..columns.len()).any(|i| {
            (i + 1..columns.len()).any(|j| {
                let (ci, cj) = (i64::from(columns[i]), i64::from(columns[j]));
                ci == cj || (ci - cj).unsigned_abs() == (j - i) as u64
            })
        })
    }

    #[test]
    fn accepts_the_two_solutions_of_four() {
        let p = Problem::new(4).unwrap();
        assert_eq!(verify(&p, &sol(&[1, 3, 0, 2])), Ok(()));
        assert_eq!(verify(&p, &sol(&[2, 0, 3, 1])), Ok(()));
    }

    #[test]
    fn names_each_kind_of_violation() {
        let p = Problem::new(4).unwrap();
        let q = Queen::new;
        assert_eq!(
            verify(&p, &sol(&[1, 3, 0])),
            Err(Violation::WrongSize {
                expected: 4,
                found: 3
            })
        );
        assert_eq!(
            verify(&p, &sol(&[1, 3, 0, 4])),
            Err(Violation::OffBoard {
                row: 3,
                col: 4,
                n: 4
            })
        );
        assert_eq!(
            verify(&p, &sol(&[1, 3, 1, 2])),
            Err(Violation::SameColumn {
                first: q(0, 1),
                second: q(2, 1)
            })
        );
        assert_eq!(
            verify(&p, &sol(&[0, 3, 1, 2])),
            Err(Violation::SameDiagonal {
                first: q(2, 1),
                second: q(3, 2)
            })
        );
        assert_eq!(
            verify(&p, &sol(&[2, 1, 3, 0])),
            Err(Violation::SameAntiDiagonal {
                first: q(0, 2),
                second: q(1, 1)
            })
        );
        let fixed = Problem::with_fixed(4, [q(1, 0)]).unwrap();
        assert_eq!(
            verify(&fixed, &sol(&[1, 3, 0, 2])),
            Err(Violation::FixedQueenMoved {
                fixed: q(1, 0),
                found: q(1, 3)
            })
        );
        assert_eq!(verify(&fixed, &sol(&[2, 0, 3, 1])), Ok(()));
    }

    #[test]
    fn agrees_with_the_pairwise_check_on_every_placement_of_five() {
        let p = Problem::new(5).unwrap();
        let mut columns = [0u32; 5];
        let mut valid = 0;
        for code in 0..5u32.pow(5) {
            let mut rest = code;
            for c in &mut columns {
                *c = rest % 5;
                rest /= 5;
            }
            let ok = verify(&p, &sol(&columns)).is_ok();
            assert_eq!(ok, !attacks_pairwise(&columns), "{columns:?}");
            valid += usize::from(ok);
        }
        assert_eq!(valid, 10);
    }
}
