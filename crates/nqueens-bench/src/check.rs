//! The cross-checks: every answer the bench collects is judged here, from the cells alone.
//!
//! [`cross_check`] is a pure function of the finished cells. A cell is wrong on its own when a
//! solution failed the verifier (the parent runs [`nqueens_solver::verify()`] on each reported
//! solution as it arrives and keeps only the verdict, so a 10^7-queen solution is not held in
//! memory), when a count of the whole board is not OEIS A000170's, or when its repeats
//! answered differently. The cells that are right on their own are then grouped by job and
//! board, and every group must give one answer: the published one where there is one (the
//! count, or whether the board has a solution at all), else the first method's. The driver
//! marks the cells each [`Disagreement`] names as wrong and exits 1 if there is any.

use std::collections::BTreeMap;
use std::fmt;

use nqueens_solver::instances::oeis;
use nqueens_solver::methods::Method;

use crate::cell::{BenchJob, Cell, CellStatus, Checked};

/// Something wrong in the cells: where, which cells, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The job, board and (for one cell's fault) method, as `count backtrack n=6`.
    pub at: String,
    /// Indices of the cells whose answers are wrong (for a disagreement without a published
    /// answer, all of the group).
    pub wrong: Vec<usize>,
    pub fault: Fault,
}

/// What is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A reported solution breaks the rules.
    InvalidSolution(String),
    /// A count of the whole board differs from the published one.
    NotOeis { counted: u128, published: u128 },
    /// Two repeats of one cell answered differently.
    Repeats { first: String, then: String },
    /// The methods answered one job on one board differently.
    Methods {
        /// The published answer, if there is one.
        expected: Option<String>,
        /// The completion board, as the command that draws it.
        board: Option<String>,
        /// Every method's answer in the group.
        answers: Vec<(Method, String)>,
    },
}

impl Fault {
    /// The reason a wrong cell shows in the table and the CSV.
    pub fn reason(&self) -> String {
        match self {
            Fault::InvalidSolution(violation) => format!("invalid solution: {violation}"),
            Fault::NotOeis { counted, published } => {
                format!("counted {counted}, OEIS A000170 has {published}")
            }
            Fault::Repeats { first, then } => format!("repeats disagree: {first} then {then}"),
            Fault::Methods { .. } => "answers disagree".into(),
        }
    }
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Fault::Methods {
            expected,
            board,
            answers,
        } = &self.fault
        else {
            return write!(f, "{}: {}", self.at, self.fault.reason());
        };
        write!(f, "{}: answers disagree", self.at)?;
        if let Some(board) = board {
            write!(f, " (board: {board})")?;
        } else if let Some(expected) = expected.as_ref().filter(|_| self.at.starts_with("count")) {
            write!(f, " (OEIS A000170: {expected})")?;
        }
        let answers: Vec<String> = answers.iter().map(|(m, a)| format!("{m}={a}")).collect();
        write!(f, ": {}", answers.join(", "))
    }
}

/// The fault of one cell on its own, if any: the first run whose solution is invalid, whose
/// whole-board count is not OEIS's, or whose answer differs from the first run's.
fn own_fault(cell: &Cell) -> Option<Fault> {
    let first = cell.answers.first()?.to_string();
    for answer in &cell.answers {
        match answer {
            Checked::Invalid(violation) => return Some(Fault::InvalidSolution(violation.clone())),
            &Checked::Count(counted) if cell.job == BenchJob::Count => {
                if let Some(published) = oeis::total(cell.n).filter(|&p| p != counted) {
                    return Some(Fault::NotOeis { counted, published });
                }
            }
            _ => {}
        }
        let then = answer.to_string();
        if then != first {
            return Some(Fault::Repeats { first, then });
        }
    }
    None
}

/// The published answer of a job on an empty board, as a cell's answer text.
fn expected(job: BenchJob, n: u32) -> Option<String> {
    match job {
        BenchJob::Count => oeis::total(n).map(|t| t.to_string()),
        // A board with no solution is rare but possible (n = 2, 3): say so, not found.
        BenchJob::Solve => Some(
            if oeis::total(n) == Some(0) {
                "none"
            } else {
                "found"
            }
            .into(),
        ),
        BenchJob::Completion | BenchJob::Blocked => None,
    }
}

/// Judges every finished cell (status ok, or already marked wrong; timed-out, skipped, failed
/// and gave-up cells have no answer to judge) and lists what is wrong, cells on their own
/// first, then the groups that disagree, in the order of the cells.
pub fn cross_check(cells: &[Cell]) -> Vec<Disagreement> {
    let finished = |cell: &Cell| {
        matches!(cell.status, CellStatus::Ok | CellStatus::Wrong) && !cell.answers.is_empty()
    };
    let mut found = Vec::new();
    let mut groups: BTreeMap<(BenchJob, u32, Option<u32>), Vec<usize>> = BTreeMap::new();
    for (i, cell) in cells.iter().enumerate() {
        if !finished(cell) {
            continue;
        }
        match own_fault(cell) {
            Some(fault) => found.push(Disagreement {
                at: format!("{} {} n={}", cell.job.name(), cell.method, cell.n),
                wrong: vec![i],
                fault,
            }),
            None => {
                let fixed = cell.board.as_ref().map(|b| b.queens);
                groups.entry((cell.job, cell.n, fixed)).or_default().push(i);
            }
        }
    }
    for ((job, n, _), members) in groups {
        let answer = |i: usize| cells[i].answers[0].to_string();
        let expected = expected(job, n);
        let Some(reference) = expected
            .clone()
            .or_else(|| members.first().map(|&i| answer(i)))
        else {
            continue;
        };
        if members.iter().all(|&i| answer(i) == reference) {
            continue;
        }
        let wrong = members
            .iter()
            .copied()
            .filter(|&i| expected.is_none() || answer(i) != reference)
            .collect();
        let board = cells[members[0]].board.as_ref().map(|b| b.command.clone());
        found.push(Disagreement {
            at: format!("{} n={n}", job.name()),
            wrong,
            fault: Fault::Methods {
                expected,
                board,
                answers: members
                    .iter()
                    .map(|&i| (cells[i].method, answer(i)))
                    .collect(),
            },
        });
    }
    found
}

/// Marks the cells each disagreement names as wrong, with its reason.
pub fn mark_wrong(cells: &mut [Cell], found: &[Disagreement]) {
    for disagreement in found {
        for &i in &disagreement.wrong {
            cells[i].status = CellStatus::Wrong;
            cells[i].reason = disagreement.fault.reason();
        }
    }
}

#[cfg(test)]
mod tests {
    use nqueens_solver::{Problem, Solution, verify};

    use super::*;
    use crate::cell::Board;

    fn cell(job: BenchJob, method: Method, n: u32, answers: Vec<Checked>) -> Cell {
        let mut cell = Cell::new(job, method, n, None);
        cell.seconds = vec![1e-3; answers.len()];
        cell.answers = answers;
        cell
    }

    fn completion(method: Method, n: u32, queens: u32, answer: u128) -> Cell {
        let board = Board {
            percent: 25,
            queens,
            command: format!("nqueens gen-completion {n} --queens {queens} --seed 9"),
        };
        let mut cell = cell(
            BenchJob::Completion,
            method,
            n,
            vec![Checked::Count(answer)],
        );
        cell.board = Some(board);
        cell
    }

    /// The verifier's own words for two queens in one column, as the parent records them.
    fn invalid_8() -> Checked {
        let columns = vec![0, 0, 4, 7, 5, 2, 6, 1];
        let violation = verify(&Problem::new(8).unwrap(), &Solution::from_columns(columns))
            .expect_err("two queens share column 1");
        Checked::Invalid(violation.to_string())
    }

    #[test]
    fn right_answers_pass() {
        use Method::*;
        let cells = [
            cell(BenchJob::Solve, Backtrack, 8, vec![Checked::Found; 3]),
            cell(BenchJob::Solve, Dlx, 8, vec![Checked::Found]),
            cell(BenchJob::Solve, Cp, 3, vec![Checked::NoSolution]),
            cell(BenchJob::Count, Backtrack, 6, vec![Checked::Count(4); 2]),
            cell(BenchJob::Count, Counter, 6, vec![Checked::Count(4)]),
            completion(Backtrack, 8, 2, 7),
            completion(Dlx, 8, 2, 7),
            // Another board of the same size is another group.
            completion(Cp, 8, 4, 1),
        ];
        assert_eq!(cross_check(&cells), vec![]);
    }

    #[test]
    fn a_wrong_count_is_caught_against_oeis() {
        let cells = [cell(
            BenchJob::Count,
            Method::Backtrack,
            6,
            vec![Checked::Count(5)],
        )];
        let found = cross_check(&cells);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].wrong, vec![0]);
        assert_eq!(
            found[0].fault,
            Fault::NotOeis {
                counted: 5,
                published: 4
            }
        );
        assert_eq!(
            found[0].to_string(),
            "count backtrack n=6: counted 5, OEIS A000170 has 4"
        );
    }

    #[test]
    fn a_wrong_count_in_a_later_repeat_is_caught() {
        let cells = [cell(
            BenchJob::Count,
            Method::Dlx,
            8,
            vec![Checked::Count(92), Checked::Count(92), Checked::Count(91)],
        )];
        let found = cross_check(&cells);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].to_string(),
            "count dlx n=8: counted 91, OEIS A000170 has 92"
        );
    }

    #[test]
    fn a_wrong_solution_is_caught() {
        let cells = [
            cell(BenchJob::Solve, Method::Dlx, 8, vec![Checked::Found]),
            cell(
                BenchJob::Solve,
                Method::Backtrack,
                8,
                vec![Checked::Found, invalid_8()],
            ),
        ];
        let found = cross_check(&cells);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].wrong, vec![1]);
        assert!(matches!(found[0].fault, Fault::InvalidSolution(_)));
        let message = found[0].to_string();
        assert!(
            message.starts_with("solve backtrack n=8: invalid solution: queens"),
            "{message}"
        );
    }

    #[test]
    fn methods_that_disagree_on_a_completion_are_all_suspect() {
        // No published count for a random board: neither answer can be trusted.
        let cells = [
            completion(Method::Auto, 8, 2, 2),
            completion(Method::Backtrack, 8, 2, 3),
            completion(Method::Dlx, 10, 2, 17),
        ];
        let found = cross_check(&cells);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].wrong, vec![0, 1]);
        assert_eq!(
            found[0].to_string(),
            "completion n=8: answers disagree (board: nqueens gen-completion 8 --queens 2 --seed 9): auto=2, backtrack=3"
        );
        assert_eq!(found[0].fault.reason(), "answers disagree");
    }

    #[test]
    fn a_method_without_a_solution_where_one_exists_is_wrong() {
        let cells = [
            cell(BenchJob::Solve, Method::Backtrack, 8, vec![Checked::Found]),
            cell(BenchJob::Solve, Method::Cp, 8, vec![Checked::NoSolution]),
            cell(BenchJob::Solve, Method::Dlx, 3, vec![Checked::Found]),
        ];
        let found = cross_check(&cells);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].wrong, vec![2], "n = 3 has no solution");
        assert_eq!(
            found[1].wrong,
            vec![1],
            "only the one that differs from OEIS"
        );
        assert_eq!(
            found[1].to_string(),
            "solve n=8: answers disagree: backtrack=found, cp=none"
        );
    }

    #[test]
    fn repeats_that_disagree_are_caught() {
        let cells = [completion(Method::Cp, 12, 3, 20)];
        let mut cells = cells.to_vec();
        cells[0].answers.push(Checked::Count(21));
        let found = cross_check(&cells);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].fault.reason(), "repeats disagree: 20 then 21");
    }

    #[test]
    fn a_cell_wrong_on_its_own_is_not_reported_twice() {
        let cells = [
            cell(
                BenchJob::Count,
                Method::Backtrack,
                6,
                vec![Checked::Count(4)],
            ),
            cell(BenchJob::Count, Method::Sat, 6, vec![Checked::Count(5)]),
        ];
        let found = cross_check(&cells);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].wrong, vec![1]);
    }

    #[test]
    fn cells_without_answers_are_not_judged() {
        let mut cells = Vec::new();
        for status in [
            CellStatus::Skipped,
            CellStatus::Timeout,
            CellStatus::GaveUp,
            CellStatus::Failed,
        ] {
            let mut c = cell(BenchJob::Count, Method::Sat, 6, vec![]);
            c.status = status;
            cells.push(c);
        }
        cells.push(cell(
            BenchJob::Count,
            Method::Cp,
            6,
            vec![Checked::Count(4)],
        ));
        assert_eq!(cross_check(&cells), vec![]);
    }

    #[test]
    fn judging_is_the_same_after_the_cells_are_marked() {
        let mut cells = vec![
            cell(
                BenchJob::Count,
                Method::Backtrack,
                8,
                vec![Checked::Count(91)],
            ),
            completion(Method::Backtrack, 8, 2, 2),
            completion(Method::Dlx, 8, 2, 3),
        ];
        let first = cross_check(&cells);
        mark_wrong(&mut cells, &first);
        assert!(cells.iter().all(|c| c.status == CellStatus::Wrong));
        assert_eq!(cells[0].reason, "counted 91, OEIS A000170 has 92");
        assert_eq!(cross_check(&cells), first);
    }
}
