//! Tasks in pieces: a task's tree cut at a row below its prefix, so that a task stopped midway
//! keeps what it finished, and any run (on the CPU or a GPU, in a thread, a shard or an MPI
//! rank) goes on from there.
//!
//! # Why pieces
//!
//! A task is the unit of the schedule, the checkpoint and the shards, and at the record sizes it
//! is huge: at n = 27 the 1.96 million tasks average some 1.5·10¹² queens each (25 minutes on
//! one core), at n = 28 hours. Both counting loops look at a stop flag every millisecond or so,
//! so a stop is quick at any n; what remains is not to lose a task's work so far. So a task is
//! counted in *pieces*: the walk (`Walk`) searches the task's tree from its prefix down to the
//! *cut row* ([`cut_row`]) with the counting loop's own rules (the class's squares, the
//! four-row lookahead) and node counting, and every node that reaches the cut row alive is a
//! piece, which a loop searches to the end. The walk gives the pieces in a fixed order (the
//! loop's depth-first order, by column), so "the first k pieces are done and held this much"
//! ([`Partial`], one checkpoint line) is a position that any later run can resume from: it
//! walks the top of the tree again, skips the first k pieces and counts the rest.
//!
//! # The invariant
//!
//! A task's result is the walk's part (the queens placed above the cut row, and any solution
//! found there on boards too small to cut) plus the results of all its pieces: node for node
//! what one search of the whole task gives (the tests compare the two). A [`Partial`] holds only
//! the pieces' part; every run of the task walks the whole top again and counts the walk's part
//! afresh, so a task resumed any number of times ends with the exact result.
//!
//! # The cut row, and the other choice
//!
//! The cut leaves [`PIECE_ROWS`] rows to each piece (never cutting above the task's own prefix,
//! nor below row n − 2, where the lanes loop needs two rows). Measured by probes of the tree,
//! pieces of 16 rows average 5.6·10⁶ queens at n = 22, 1.0·10⁶ at n = 27 and 3.6·10⁵ at
//! n = 32 (a millisecond or so of one core), so a stop loses about that per thread, and the
//! walk above them is a millionth of the work; 12 rows left pieces of a few thousand queens at
//! n = 27, where each piece's set-up outweighed its search. Up to n = 20 the cut is the task's
//! own depth, and a task is one piece: tasks there last milliseconds. The other way to keep a
//! stop's loss small, tasks fine enough at every n, needs about 10¹⁰ tasks of a second each at
//! n = 27: a task list, and a checkpoint of one line per task, far beyond any disk, while a
//! piece position costs one line per task in flight (BENCHMARKS.md has the figures).

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};

use super::attacks::State;
use super::kernel::{Loop, Scratch, TaskBoard, TaskResult};
use super::tasks::{self, Class, TaskId};

/// Rows a piece searches below the cut row (see the [module documentation](self)).
pub const PIECE_ROWS: usize = 16;

/// Rows a walk can fill: every row of the counter's largest board.
pub const MAX_ROWS: usize = 32;

/// The row at which the tasks of n with prefixes of `depth` rows are cut into pieces of
/// `piece_rows` rows: never above the prefix, never below row n − 2 (the lanes loop searches
/// two rows at least), the prefix itself (one piece per task) when n is too small to cut.
pub fn cut_row(n: u32, depth: usize, piece_rows: usize) -> usize {
    let n = n as usize;
    n.saturating_sub(piece_rows)
        .min(n.saturating_sub(2))
        .max(depth)
}

/// How far a task has got: its first `pieces` pieces (cut at row `cut`) are done, and held
/// `found`. [`Partial::start`] is a task not begun.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Partial {
    /// The row the task is cut at (pieces of another cut are other pieces).
    pub cut: u32,
    /// Pieces done, in the walk's order.
    pub pieces: u64,
    /// The pieces' results, summed (the walk's own queens are not in it).
    pub found: TaskResult,
}

impl Partial {
    /// A task not begun, to be cut at row `cut`.
    pub fn start(cut: usize) -> Self {
        Partial {
            cut: cut as u32,
            ..Partial::default()
        }
    }
}

/// How a task's count ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskEnd {
    /// Counted to the end: the task's result.
    Done(TaskResult),
    /// Stopped midway: where it got.
    Stopped(Partial),
}

/// What a worker (a thread, or a device's driver) tells its run about one task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The task has got this far (it goes on, or it was stopped there).
    Moved(Partial),
    /// The task is counted.
    Done(TaskResult),
}

/// One piece: the queens of rows `0..state.row` and the masks they leave.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Piece {
    pub queens: [u8; MAX_ROWS],
    pub state: State,
}

impl Piece {
    /// The queens of rows `0..state.row`.
    pub(crate) fn prefix(&self) -> &[u8] {
        &self.queens[..self.state.row]
    }
}

/// One row of the walk's stack: the state the row is filled from, and its squares tried.
#[derive(Clone, Copy, Default)]
struct Frame {
    state: State,
    taken: u64,
}

/// The pieces of one task, in order ([`Walk::next_piece`]), and the walk's own part of the
/// task's result ([`Walk::host`]). The task's board is the caller's, given at each step (so
/// that a walk costs no copy of it).
pub(crate) struct Walk {
    outside: u64,
    top: usize,
    cut: usize,
    queens: [u8; MAX_ROWS],
    frames: [Frame; MAX_ROWS],
    /// The row being filled; `None` once the walk is over.
    row: Option<usize>,
    /// The queens the walk placed, and any solution it found above the cut row.
    pub host: TaskResult,
}

impl Walk {
    /// The walk of the task (or sub-board) with the legal prefix `prefix` of the n×n board
    /// (n ≤ 32) down to row `cut` (at least the prefix's length, at most n), on `board`, the
    /// board of the prefix's class.
    pub(crate) fn new(board: &TaskBoard, n: u32, prefix: &[u8], cut: usize) -> Self {
        let start = State::after(prefix).expect("task prefixes are legal");
        Walk::from_state(board, n, prefix, start, cut)
    }

    /// The walk from `start` (the state after `prefix`) on `board` (the task's class).
    pub(crate) fn from_state(
        board: &TaskBoard,
        n: u32,
        prefix: &[u8],
        start: State,
        cut: usize,
    ) -> Self {
        debug_assert!(prefix.len() <= cut && cut <= n as usize && cut <= MAX_ROWS);
        let mut queens = [0; MAX_ROWS];
        queens[..prefix.len()].copy_from_slice(prefix);
        let outside = !tasks::full_mask(n);
        let top = prefix.len();
        let mut frames = [Frame::default(); MAX_ROWS];
        frames[top] = Frame {
            state: start,
            taken: if top == cut {
                // Not cut at all: the task is its one piece, given once.
                0
            } else {
                start.columns | outside | start.left | start.right | board.masks.blocked(top)
            },
        };
        Walk {
            outside,
            top,
            cut,
            queens,
            frames,
            row: Some(top),
            host: TaskResult::default(),
        }
    }

    /// The next piece (`None` after the last), searching the top of the tree on `board` (the
    /// one the walk was made with) the way the counting loop does.
    pub(crate) fn next_piece(&mut self, board: &TaskBoard) -> Option<Piece> {
        let mut row = self.row?;
        if row == self.cut {
            self.row = None;
            return Some(Piece {
                queens: self.queens,
                state: self.frames[row].state,
            });
        }
        loop {
            let Frame { state, taken } = self.frames[row];
            if taken == u64::MAX {
                if row == self.top {
                    self.row = None;
                    return None;
                }
                row -= 1;
                continue;
            }
            let bit = !taken & taken.wrapping_add(1);
            self.frames[row].taken |= bit;
            self.host.nodes += 1;
            self.queens[row] = bit.trailing_zeros() as u8;
            let next = State {
                row: row + 1,
                columns: state.columns | self.outside | bit,
                left: (state.left | bit) << 1,
                right: (state.right | bit) >> 1,
            };
            if !board.masks.dead_after(row, next) {
                if row + 1 == self.cut {
                    self.row = Some(row);
                    return Some(Piece {
                        queens: self.queens,
                        state: next,
                    });
                }
                row += 1;
                self.frames[row] = Frame {
                    state: next,
                    taken: next.columns | next.left | next.right | board.masks.blocked(row),
                };
            } else if next.columns == u64::MAX {
                // A solution above the cut (boards of a few rows).
                board.add_solution(&mut self.host, &self.queens[..=row]);
            }
        }
    }
}

/// The pieces of task `id` still to count from a position: its walk, past the pieces done.
pub(crate) struct Rest<'b> {
    id: TaskId,
    board: Cow<'b, TaskBoard>,
    walk: Walk,
    /// Pieces done before (to skip), and pieces the walk has given so far.
    skip: u64,
    given: u64,
    over: bool,
}

impl<'b> Rest<'b> {
    /// The rest of task `id` (prefix `prefix` of the n×n board, n ≤ 32, searched on `board`)
    /// from `from`.
    pub(crate) fn new(
        board: Cow<'b, TaskBoard>,
        n: u32,
        id: TaskId,
        prefix: &[u8],
        from: &Partial,
    ) -> Self {
        Rest {
            id,
            walk: Walk::new(&board, n, prefix, from.cut as usize),
            board,
            skip: from.pieces,
            given: 0,
            over: false,
        }
    }

    /// The task's board, to search its pieces on.
    pub(crate) fn board(&self) -> &TaskBoard {
        &self.board
    }

    /// The next piece to count; `Ok(None)` after the last. A position that names more pieces
    /// than the task has (a checkpoint line that passed its check value but not this walk) is
    /// [`BadPosition`].
    pub(crate) fn next_piece(&mut self) -> Result<Option<Piece>, BadPosition> {
        while !self.over {
            let Some(piece) = self.walk.next_piece(&self.board) else {
                self.over = true;
                if self.given < self.skip {
                    return Err(BadPosition {
                        id: self.id,
                        pieces: self.skip,
                        has: self.given,
                    });
                }
                break;
            };
            self.given += 1;
            if self.given > self.skip {
                return Ok(Some(piece));
            }
        }
        Ok(None)
    }

    /// The task's result, once [`next_piece`](Self::next_piece) said there is no piece left
    /// and `found` holds all of them: the walk's own part added.
    pub(crate) fn result(&self, found: &TaskResult) -> TaskResult {
        debug_assert!(self.over);
        let mut result = self.walk.host;
        result.absorb(found);
        result
    }
}

/// A saved position inside a task that names more pieces than the task has (a position
/// that passed its check value but not the task's walk).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the checkpoint says {pieces} pieces of task {id} are done, but the task has only {has}: the file was damaged or edited (delete the task's lines to count it again)"
)]
pub struct BadPosition {
    /// The task.
    pub id: TaskId,
    /// Pieces the position names.
    pub pieces: u64,
    /// Pieces the task has.
    pub has: u64,
}

/// Counts the task `id` (prefix `prefix` of the n×n board, searched on `board`) in pieces from
/// `from` on, by the fastest loop this CPU has, calling `on_piece` with the task's position
/// after each piece; stops between pieces or inside one once `stop` is raised, and then
/// returns the position of the last piece finished (see [`Rest::next_piece`] for a position
/// the task does not have).
#[allow(clippy::too_many_arguments)]
pub(crate) fn count_task(
    board: Cow<'_, TaskBoard>,
    n: u32,
    id: TaskId,
    prefix: &[u8],
    from: &Partial,
    stop: &AtomicBool,
    scratch: &mut Scratch,
    on_piece: &mut dyn FnMut(&Partial),
) -> Result<TaskEnd, BadPosition> {
    if prefix.len() == n as usize {
        // Tiny boards: the prefix is a whole solution.
        let mut result = TaskResult::default();
        board.add_solution(&mut result, prefix);
        return Ok(TaskEnd::Done(result));
    }
    let with = Loop::best_for(n, from.cut as usize);
    let mut rest = Rest::new(board, n, id, prefix, from);
    let mut partial = *from;
    while let Some(piece) = rest.next_piece()? {
        if stop.load(Ordering::Relaxed) {
            return Ok(TaskEnd::Stopped(partial));
        }
        let solved = rest
            .board()
            .solve(with, piece.prefix(), piece.state, scratch, stop);
        let Some(found) = solved else {
            return Ok(TaskEnd::Stopped(partial));
        };
        partial.found.absorb(&found);
        partial.pieces += 1;
        on_piece(&partial);
    }
    Ok(TaskEnd::Done(rest.result(&partial.found)))
}

/// The board of a task of the whole n×n board: its class's.
pub(crate) fn class_board(n: u32, prefix: &[u8]) -> Cow<'static, TaskBoard> {
    Cow::Owned(TaskBoard::new(n, Class::of(prefix)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::counter::TaskList;
    use crate::engines::counter::kernel;
    use crate::engines::counter::kernel::NEVER;
    use crate::engines::counter::split::SplitList;

    /// Every task of n = 5..=13, cut at every row from its prefix down: the same result, node
    /// for node, as one search of the whole task.
    #[test]
    fn pieces_add_up_to_the_task_node_for_node() {
        let mut scratch = Scratch::default();
        let mut cuts = 0;
        for n in 5..=13u32 {
            let list = SplitList::new(n, 0);
            for id in list.ids() {
                let prefix = list.prefix(id).unwrap();
                let whole = kernel::solve_task(n, prefix, &mut scratch);
                for cut in prefix.len()..=n as usize - 2 {
                    let mut seen = 0;
                    let end = count_task(
                        class_board(n, prefix),
                        n,
                        id,
                        prefix,
                        &Partial::start(cut),
                        &NEVER,
                        &mut scratch,
                        &mut |p| {
                            seen += 1;
                            assert_eq!(p.pieces, seen);
                        },
                    )
                    .unwrap();
                    assert_eq!(end, TaskEnd::Done(whole), "n = {n}, {prefix:?}, cut {cut}");
                    cuts += 1;
                }
            }
        }
        assert!(cuts > 1000, "{cuts}");
    }

    /// The task of n with the most queens to place.
    fn biggest_task(n: u32, scratch: &mut Scratch) -> (TaskList, TaskId) {
        let list = TaskList::new(n);
        let id = list
            .ids()
            .max_by_key(|&id| kernel::solve_task(n, list.prefix(id), scratch).nodes)
            .unwrap();
        (list, id)
    }

    /// A task resumed from each of its positions ends with the whole task's result, and a
    /// position beyond its pieces is refused.
    #[test]
    fn a_task_resumes_from_any_position() {
        let n = 12;
        let mut scratch = Scratch::default();
        let (list, id) = biggest_task(n, &mut scratch);
        let prefix = list.prefix(id);
        let whole = kernel::solve_task(n, prefix, &mut scratch);
        let cut = 8;
        let mut positions = vec![Partial::start(cut)];
        let end = count_task(
            class_board(n, prefix),
            n,
            id,
            prefix,
            &Partial::start(cut),
            &NEVER,
            &mut scratch,
            &mut |p| positions.push(*p),
        )
        .unwrap();
        assert_eq!(end, TaskEnd::Done(whole));
        assert!(positions.len() > 20, "{}", positions.len());
        for from in &positions {
            let end = count_task(
                class_board(n, prefix),
                n,
                id,
                prefix,
                from,
                &NEVER,
                &mut scratch,
                &mut |_| {},
            )
            .unwrap();
            assert_eq!(end, TaskEnd::Done(whole), "from {from:?}");
        }
        let beyond = Partial {
            pieces: positions.len() as u64,
            ..*positions.last().unwrap()
        };
        let error = count_task(
            class_board(n, prefix),
            n,
            id,
            prefix,
            &beyond,
            &NEVER,
            &mut scratch,
            &mut |_| {},
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("has only"), "{error}");
    }

    /// A raised flag stops the task before its next piece, with the position of the last one.
    #[test]
    fn a_stop_returns_the_last_position() {
        let n = 13;
        let mut scratch = Scratch::default();
        let (list, id) = biggest_task(n, &mut scratch);
        let stop = AtomicBool::new(false);
        let mut last = Partial::default();
        let end = count_task(
            class_board(n, list.prefix(id)),
            n,
            id,
            list.prefix(id),
            &Partial::start(7),
            &stop,
            &mut scratch,
            &mut |p| {
                last = *p;
                if p.pieces == 5 {
                    stop.store(true, Ordering::Relaxed);
                }
            },
        )
        .unwrap();
        assert_eq!(end, TaskEnd::Stopped(last));
        assert_eq!(last.pieces, 5);
        assert!(last.found.nodes > 0);
    }

    #[test]
    fn cut_rows() {
        assert_eq!(cut_row(16, 4, PIECE_ROWS), 4);
        assert_eq!(cut_row(20, 4, PIECE_ROWS), 4);
        assert_eq!(cut_row(21, 4, PIECE_ROWS), 5);
        assert_eq!(cut_row(27, 5, PIECE_ROWS), 11);
        assert_eq!(cut_row(32, 5, PIECE_ROWS), 16);
        assert_eq!(cut_row(16, 4, 9), 7);
        assert_eq!(cut_row(8, 4, 2), 6);
        assert_eq!(cut_row(8, 4, 1), 6, "two rows for the lanes loop");
        assert_eq!(cut_row(5, 4, 1), 4, "never above the prefix");
        assert_eq!(cut_row(4, 4, 12), 4);
    }
}
