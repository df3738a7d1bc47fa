//! The work of one count: its task list, and the board each task is searched on. The whole
//! board's tasks ([`TaskList`]) are searched on their class's board, one per class; a board
//! with fixed queens or blocked squares has a list of its own ([`MaskedList`]) that keeps its
//! boards: one for all its tasks, or, counted up to its symmetries, one per row-0 column. A count runs either the same way (module `drive`, and a long run in
//! `crate::runs`): threads or a device, pieces, positions, checkpoints. A module of its own,
//! below the counter's run and the work model (`estimate`), which both read it.

use std::borrow::Cow;

use super::kernel::TaskBoard;
use super::masked::MaskedList;
use super::pieces;
use super::tasks::{Fingerprint, TaskId, TaskList};
use crate::board::Problem;

/// The tasks of one count. See the [module documentation](self).
pub(crate) enum Work {
    /// The whole n×n board, counted by symmetry classes.
    Whole(TaskList),
    /// A board with fixed queens or blocked squares.
    Masked(Box<MaskedList>),
}

impl Work {
    /// The work of counting `problem`'s solutions (and, for a board with fixed queens or
    /// blocked squares, its classes under the board's own symmetries when `unique`; the whole
    /// board counts both always). n ≤ 32.
    pub(crate) fn of(problem: &Problem, unique: bool) -> Self {
        if problem.is_completion() {
            Work::Masked(Box::new(MaskedList::new(problem, unique)))
        } else {
            Work::Whole(TaskList::new(problem.n()))
        }
    }

    pub(crate) fn n(&self) -> u32 {
        match self {
            Work::Whole(list) => list.n(),
            Work::Masked(list) => list.n(),
        }
    }

    /// Rows each task's prefix fills.
    pub(crate) fn depth(&self) -> usize {
        match self {
            Work::Whole(list) => list.depth(),
            Work::Masked(list) => list.depth(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Work::Whole(list) => list.len(),
            Work::Masked(list) => list.len(),
        }
    }

    pub(crate) fn fingerprint(&self) -> Fingerprint {
        match self {
            Work::Whole(list) => list.fingerprint(),
            Work::Masked(list) => list.fingerprint(),
        }
    }

    /// The prefix of task `id` (in the list).
    pub(crate) fn prefix(&self, id: TaskId) -> &[u8] {
        match self {
            Work::Whole(list) => list.prefix(id),
            Work::Masked(list) => list.prefix(id),
        }
    }

    /// Every task id, in order.
    pub(crate) fn ids(&self) -> impl ExactSizeIterator<Item = TaskId> + use<> {
        (0..self.len() as u32).map(TaskId)
    }

    /// Whether this is the whole board.
    pub(crate) fn is_whole(&self) -> bool {
        matches!(self, Work::Whole(_))
    }

    /// The board the task with this prefix is searched on, if the list keeps it (a board
    /// with fixed queens or blocked squares); the whole board's tasks each make their class's.
    pub(crate) fn kept_board(&self, prefix: &[u8]) -> Option<&TaskBoard> {
        match self {
            Work::Whole(_) => None,
            Work::Masked(list) => Some(list.board(prefix)),
        }
    }

    /// The board the task with this prefix is searched on.
    pub(crate) fn board(&self, prefix: &[u8]) -> Cow<'_, TaskBoard> {
        match self.kept_board(prefix) {
            Some(board) => Cow::Borrowed(board),
            None => pieces::class_board(self.n(), prefix),
        }
    }
}
