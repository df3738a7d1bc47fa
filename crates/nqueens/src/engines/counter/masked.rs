//! The counter on boards with fixed queens or blocked squares: the same counting loops, under
//! per-row masks of the allowed squares, with no symmetry rules, and the same runs
//! ([`super::Counter::run_problem`]): threads, pieces, checkpoints.
//!
//! # The invariant
//!
//! Row r may take exactly the squares [`allowed_rows`] gives it: the fixed queen's square on a
//! row that has one, otherwise every square that is not blocked and not attacked by a fixed
//! queen. A placement of one queen per row on allowed squares, none attacking another, is
//! then exactly a solution of the problem (a fixed queen's row takes nothing else, and no
//! other queen can attack it), so the loops of [`super::kernel`] count the problem's solutions
//! unchanged: they already read a mask of allowed squares per row (the whole board's
//! symmetry rules are such masks). The whole-board trick of counting one member per
//! symmetry class does not apply; the loops count every solution once
//! ([`Weighing::Plain`](super::kernel::Weighing)).
//!
//! # Tasks
//!
//! The first rows are filled every legal way ([`prefixes`]), as few rows as give [`TASKS`]
//! tasks or more: the same list for every run of one board, whatever its threads, so that a
//! checkpoint of one run resumes in any other. Each task costs what its subtree costs, O(1)
//! per queen placed, counted in pieces like the whole board's (module `pieces`), by the lanes
//! loop where the CPU has it.
//!
//! The list is named by a fingerprint (FNV-1a over a text naming the format, n, the depth, the
//! board, the symmetries its classes are counted under and every prefix, as the whole board's
//! list is), and the board by its *mark* ([`BoardMark`]): a fingerprint of the allowed squares
//! of every row, and the number of symmetries the count uses. A checkpoint's header carries
//! both, so a checkpoint of one board is refused for another, and one counted up to symmetry
//! for a count of all solutions.
//!
//! # Up to symmetry
//!
//! The board keeps the symmetries that map its fixed queens and its blocked squares onto
//! themselves ([`Group::of`]). With the identity alone, every solution is its own class and
//! the unique count is the total. Otherwise, when classes are asked for, the tasks enumerate
//! their solutions ([`kernel::visit_completions`](super::kernel)) and count the canonical ones
//! under the group, O(|group| · n) each.

use std::fmt::Write as _;

use super::attacks::State;
use super::checkpoint::BoardMark;
use super::kernel::{RowMasks, TaskBoard};
use super::tasks::{Fingerprint, Fnv1a, TaskId, full_mask, list_fingerprint};
use crate::board::Problem;
use crate::board::symmetry::{Group, Symmetry};

/// Tasks the prefixes aim at ([`prefixes`] takes the level of the tree nearest it): enough
/// that 16 threads and more finish together, few enough that each task's set-up and its
/// result's way to the run's thread (a few microseconds) are nothing beside its search. (Stops
/// and resumes do not depend on it: tasks are counted in pieces.) `count 17 --fix 1:3 --block
/// 9:9` has 1,616 tasks of 0.3 ms each: its next level, 13,442 tasks, counted 11 % slower on
/// one thread (interleaved runs, with 0.9 % more instructions).
pub const TASKS: usize = 1 << 12;

/// The squares each row may take, as bit masks (see the module essay). O(n · k) for k fixed
/// queens, plus O(b) for b blocked squares.
pub(crate) fn allowed_rows(problem: &Problem) -> Vec<u64> {
    let n = problem.n();
    let mut allowed = vec![full_mask(n); n as usize];
    for square in problem.blocked() {
        allowed[square.row as usize] &= !(1u64 << square.col);
    }
    for queen in problem.fixed() {
        for (row, mask) in (0..n).zip(allowed.iter_mut()) {
            if row == queen.row {
                *mask = 1 << queen.col;
                continue;
            }
            let distance = row.abs_diff(queen.row);
            let mut attacked = 1u64 << queen.col;
            if let Some(col) = queen.col.checked_sub(distance) {
                attacked |= 1 << col;
            }
            if queen.col + distance < n {
                attacked |= 1 << (queen.col + distance);
            }
            *mask &= !attacked;
        }
    }
    allowed
}

/// Every legal way to fill the first rows under `masks`, as many rows as give the number of
/// ways nearest `target` (by ratio: of the last level below it and the first at or above it,
/// the nearer), but at most n − 2 rows, so that every task has two rows left for the lanes
/// loop: the number of rows, the prefixes (that many bytes each, in order) and how many there
/// are.
pub(crate) fn prefixes(masks: &RowMasks, target: usize) -> (usize, Vec<u8>, usize) {
    let n = masks.n();
    let (mut prefixes, mut states) = (Vec::new(), vec![State::default()]);
    let mut depth = 0;
    while states.len() < target && depth + 2 < n {
        let (mut longer, mut next) = (Vec::new(), Vec::with_capacity(4 * states.len()));
        for (at, state) in states.iter().enumerate() {
            let mut free = !(state.columns | state.left | state.right | masks.blocked(depth));
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                longer.extend_from_slice(&prefixes[at * depth..(at + 1) * depth]);
                longer.push(bit.trailing_zeros() as u8);
                next.push(state.place(bit));
            }
        }
        if next.len() >= target && states.len().saturating_mul(next.len()) > target * target {
            // This level is nearer the target than the next.
            break;
        }
        (prefixes, states) = (longer, next);
        depth += 1;
    }
    (depth, prefixes, states.len())
}

/// The task list of a board with fixed queens or blocked squares, and the board its tasks are
/// searched on. See the [module documentation](self).
#[derive(Clone)]
pub(crate) struct MaskedList {
    n: u32,
    depth: usize,
    /// The prefixes, `depth` bytes each, and how many there are (a board of one or two rows
    /// has one, of no row; a board with no solution may have none).
    prefixes: Vec<u8>,
    len: usize,
    board: TaskBoard,
    fingerprint: Fingerprint,
    mark: BoardMark,
}

impl MaskedList {
    /// The list of `problem` (1 ≤ n ≤ 32), counting classes under the board's own group when
    /// `unique` is asked for and the group has more than the identity.
    pub(crate) fn new(problem: &Problem, unique: bool) -> Self {
        let n = problem.n();
        let allowed = allowed_rows(problem);
        let group = Some(Group::of(problem)).filter(|g| unique && !g.is_trivial());
        let mut text = format!("nqueens-counter-board v1 n={n}\n");
        for mask in &allowed {
            let _ = writeln!(text, "{mask:x}");
        }
        let mark = BoardMark {
            squares: fingerprint_of(&text),
            symmetries: group.as_ref().map_or(1, |g| g.members().len() as u32),
        };
        // The list's text names the group's members too (the mark says only how many).
        let members: Vec<String> = match &group {
            Some(group) => group.members().iter().map(|&s| index_of(s)).collect(),
            None => vec![index_of(Symmetry::Identity)],
        };
        let board = TaskBoard::masked(&allowed, group);
        let (depth, prefixes, len) = prefixes(&board.masks, TASKS);
        let head = format!(
            "nqueens-counter-masked-tasks v1 n={n} depth={depth} tasks={len} board={} group={}\n",
            mark.squares,
            members.join(",")
        );
        MaskedList {
            n,
            depth,
            len,
            fingerprint: list_fingerprint(&head, &prefixes, depth),
            prefixes,
            board,
            mark,
        }
    }

    pub(crate) fn n(&self) -> u32 {
        self.n
    }

    /// Rows each prefix fills.
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// Number of tasks.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The prefix of task `id` (in the list).
    pub(crate) fn prefix(&self, id: TaskId) -> &[u8] {
        let start = id.index() * self.depth;
        &self.prefixes[start..start + self.depth]
    }

    /// The identity of the list (and of the board, whose mark it covers).
    pub(crate) fn fingerprint(&self) -> Fingerprint {
        self.fingerprint
    }

    /// The board's mark for checkpoint headers.
    pub(crate) fn mark(&self) -> BoardMark {
        self.mark
    }

    /// The board every task is searched on.
    pub(crate) fn board(&self) -> &TaskBoard {
        &self.board
    }
}

/// FNV-1a of a text.
fn fingerprint_of(text: &str) -> Fingerprint {
    let mut hash = Fnv1a::new();
    hash.write(text.as_bytes());
    Fingerprint(hash.0)
}

/// A symmetry's place in [`Symmetry::ALL`], as text.
fn index_of(symmetry: Symmetry) -> String {
    let at = Symmetry::ALL.iter().position(|&s| s == symmetry);
    at.map_or_else(String::new, |i| i.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Queen;
    use crate::board::naive;
    use crate::engines::counter::pieces::PIECE_ROWS;
    use crate::engines::counter::{Counter, Report, RunOptions};
    use nqueens_support::SplitMix64;

    /// The counter's run of `problem` on `threads` threads, in pieces of `piece_rows` rows.
    fn count(problem: &Problem, unique: bool, threads: usize, piece_rows: usize) -> Report {
        let mut counter = Counter::new(threads);
        counter.piece_rows = piece_rows;
        counter
            .run_problem(problem, unique, &RunOptions::default())
            .unwrap()
    }

    /// Random boards with blocked squares and fixed queens, some symmetric: the masked
    /// counter's totals equal the naive oracle's, and its unique counts the number of classes
    /// the oracle's solutions fall into under the board's group, on one and on three threads,
    /// with tasks whole or cut into pieces of two rows (solutions found above the cut too).
    #[test]
    fn masked_counts_match_the_oracle_and_its_classes() {
        let mut rng = SplitMix64::new(80);
        let mut symmetric = 0;
        for round in 0..240 {
            let n = 1 + rng.below(9);
            let mut blocked: Vec<Queen> = (0..rng.below(2 * n))
                .map(|_| Queen::new(rng.below(n), rng.below(n)))
                .collect();
            if round % 2 == 0 {
                // Close the set under the half turn, so that some symmetry survives.
                let turned: Vec<Queen> = blocked
                    .iter()
                    .map(|&q| Queen::new(n - 1 - q.row, n - 1 - q.col))
                    .collect();
                blocked.extend(turned);
            }
            let fixed: Vec<Queen> = if round % 5 == 0 {
                vec![Queen::new(rng.below(n), rng.below(n))]
            } else {
                Vec::new()
            };
            let Ok(problem) = Problem::with_blocks(n, fixed, blocked) else {
                continue;
            };
            let solutions = naive::solutions(&problem);
            let group = Group::of(&problem);
            symmetric += usize::from(!group.is_trivial());
            let classes = solutions.iter().filter(|s| group.is_canonical(s)).count();
            for (threads, piece_rows) in [(1, PIECE_ROWS), (3, 2)] {
                let report = count(&problem, true, threads, piece_rows);
                assert_eq!(report.total, solutions.len() as u128, "{problem:?}");
                assert_eq!(report.unique, classes as u128, "{problem:?}");
                // Without classes every solution of a masked board is its own (the whole
                // board counts its classes always).
                let report = count(&problem, false, threads, piece_rows);
                if problem.is_completion() {
                    assert_eq!(report.unique, report.total, "{problem:?}");
                }
            }
        }
        assert!(symmetric > 30, "only {symmetric} symmetric boards drawn");
    }

    /// Boards of n = 10..14 with blocks, where the lanes loop runs the tasks (on CPUs that have
    /// it): the counts agree with plain backtracking.
    #[test]
    fn masked_counts_agree_with_backtracking_on_larger_boards() {
        use crate::Engine;
        let mut rng = SplitMix64::new(81);
        for n in 10..=14 {
            let blocked: Vec<Queen> = (0..3 * n)
                .map(|_| Queen::new(rng.below(n), rng.below(n)))
                .collect();
            let problem = Problem::with_blocks(n, [], blocked).unwrap();
            let expected = crate::engines::backtrack::Backtrack::default()
                .count(&problem, false)
                .unwrap()
                .total;
            assert_eq!(
                count(&problem, false, 2, PIECE_ROWS).total,
                expected,
                "n = {n}"
            );
        }
    }
}
