//! The counter on boards with fixed queens or blocked squares: the same counting loops, under
//! per-row masks of the allowed squares, with no symmetry rules, and the same drive (threads,
//! pieces; module `drive`), so a long run (`crate::runs`) checkpoints it as it does the whole
//! board.
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
use super::kernel::{RowMasks, TaskBoard};
use super::tasks::{Fingerprint, Fnv1a, TaskId, full_mask, list_fingerprint};
use crate::board::Problem;
use crate::board::symmetry::{Group, Symmetry};

/// What names a board with fixed queens or blocked squares in a checkpoint header: a
/// fingerprint of the squares each row allows, and the number of symmetries the count's
/// classes are taken under (1: every solution is its own class; the task list's fingerprint
/// names the symmetries themselves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardMark {
    /// The board's fingerprint.
    pub squares: Fingerprint,
    /// Symmetries of the board the classes are counted under (1 to 8).
    pub symmetries: u32,
}

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
