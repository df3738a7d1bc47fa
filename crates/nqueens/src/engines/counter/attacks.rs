//! Where both counting loops start a task: the attack masks of the queens placed so far
//! ([`State`]) and the task's tie squares ([`TaskTies`]), the squares whose solutions the
//! symmetry rules check exactly. The one-board loop ([`super::kernel`]) and the eight-lane
//! loop (`lanes`) read them alike; a module of its own so that neither loop depends on the
//! other for them. Both cost O(rows) to build, once per task.

use super::tasks::Class;

/// The attack masks after some rows are filled, in the coordinates of the next row: `columns`
/// marks used columns, `left` the squares attacked along down-left diagonals, `right` along
/// down-right ones (the baseline's representation, see [`crate::engines::backtrack`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct State {
    /// The next row to fill.
    pub row: usize,
    pub columns: u64,
    pub left: u64,
    pub right: u64,
}

impl State {
    /// The state after placing the queens of `prefix` in rows `0..prefix.len()`, or `None` if
    /// two of them attack each other.
    pub(crate) fn after(prefix: &[u8]) -> Option<State> {
        let mut state = State::default();
        for &col in prefix {
            let bit = 1u64 << col;
            if (state.columns | state.left | state.right) & bit != 0 {
                return None;
            }
            state = state.place(bit);
        }
        Some(state)
    }

    pub(crate) fn place(self, bit: u64) -> State {
        State {
            row: self.row + 1,
            columns: self.columns | bit,
            left: (self.left | bit) << 1,
            right: (self.right | bit) >> 1,
        }
    }
}

/// The squares where a solution may tie with one of its images (see
/// [`super::kernel::solve_task_with`]): the
/// squares `b1` from a corner on the other border lines, where a rotation or reflection of the
/// solution also has its row-0 queen `b1` from a corner. They are the side columns in rows
/// `b1` and `n − 1 − b1`, and the last row's square `n − 1 − b1` (column `b1` of the last row
/// is the row-0 queen's column, so no queen stands there).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TaskTies {
    /// Rows `b1` and `n − 1 − b1`.
    pub side_rows: [usize; 2],
    /// Columns 0 and n − 1, as bits.
    pub side_squares: u64,
    /// Column `n − 1 − b1` of the last row, as a bit.
    pub last_square: u64,
}

impl TaskTies {
    /// No tie squares at all: every solution counts as untied (the loops then count plainly,
    /// for boards counted without symmetry).
    pub(crate) const NONE: TaskTies = TaskTies {
        side_rows: [0, 0],
        side_squares: 0,
        // No solution's last row is empty, so no last queen equals this.
        last_square: 0,
    };

    pub(crate) fn new(n: u32, class: Class) -> Self {
        let (b1, last) = (class.b1 as usize, n as usize - 1);
        TaskTies {
            side_rows: [b1, last - b1],
            side_squares: 1 | 1 << last,
            last_square: 1 << (last - b1),
        }
    }

    /// Whether the solution with these queens (one bit per row) stands on a tie square.
    pub(crate) fn touched_by(&self, placed: &[u64]) -> bool {
        self.side_rows
            .iter()
            .any(|&row| placed[row] & self.side_squares != 0)
            || placed[placed.len() - 1] == self.last_square
    }
}
