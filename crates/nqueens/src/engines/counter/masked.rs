//! The counter on boards with fixed queens or blocked squares: the same counting loops, under
//! per-row masks of the allowed squares (and, up to symmetry, the rules of the board's own
//! symmetries), and the same drive (threads, pieces; module `drive`), so a long run
//! (`crate::runs`) checkpoints it as it does the whole board.
//!
//! # The invariant
//!
//! Row r may take exactly the squares [`allowed_rows`] gives it: the fixed queen's square on a
//! row that has one, otherwise every square that is not blocked and not attacked by a fixed
//! queen. A placement of one queen per row on allowed squares, none attacking another, is
//! then exactly a solution of the problem (a fixed queen's row takes nothing else, and no
//! other queen can attack it), so the loops of [`super::kernel`] count the problem's solutions
//! unchanged: they already read a mask of allowed squares per row (the whole board's
//! symmetry rules are such masks). Counted without symmetry, the loops count every solution
//! once ([`Weighing::Plain`](super::kernel::Weighing)).
//!
//! # Tasks
//!
//! The first rows are filled every legal way ([`prefixes`]), as few rows as give [`TASKS`]
//! tasks or more (at least one row up to symmetry, whose rules depend on the row-0 queen):
//! the same list for every run of one board, whatever its threads, so that a checkpoint of one
//! run resumes in any other. Each task costs what its subtree costs, O(1) per queen placed,
//! counted in pieces like the whole board's (module `pieces`), by the lanes loop where the CPU
//! has it.
//!
//! The list is named by a fingerprint (FNV-1a over a text naming the format, n, the depth, the
//! board, the symmetries its classes are counted under and every prefix, as the whole board's
//! list is), and the board by its *mark* ([`BoardMark`]): a fingerprint of the allowed squares
//! of every row, and the number of symmetries the count uses. A checkpoint's header carries
//! both, so a checkpoint of one board is refused for another, and one counted up to symmetry
//! for a count of all solutions. The format is version 1 counted without symmetry and
//! version 2 up to symmetry (version 1 enumerated every solution there, with per-task results
//! of another meaning: its checkpoints are refused).
//!
//! # Up to symmetry
//!
//! The board keeps the symmetries that map its fixed queens and its blocked squares onto
//! themselves ([`Group::of`]). With the identity alone, every solution is its own class and
//! the unique count is the total. Otherwise, when classes are asked for, each class is counted
//! through one member, weighted by its size, as the whole board's are: the group's rules for a
//! row-0 queen in column c (module `grouped`) are square masks and tie squares, so the list
//! keeps one board per row-0 column (the board's masks and that column's rules), its prefixes
//! obey them, and both loops search only what the rules leave, about 1/|group| of the tree,
//! checking exactly only the few solutions on a tie square: `count 17 --block 9:9 --unique`
//! costs about a fifth of the total (BENCHMARKS.md). (Enumerating every solution and checking
//! it against the group, as this count once did, cost five times the total and more.)

use std::fmt::Write as _;
use std::sync::Arc;

use super::attacks::State;
use super::grouped::GroupRules;
use super::kernel::TaskBoard;
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

/// Every legal way to fill the first rows of the n×n board, row r of a prefix whose row-0
/// queen is in column `a` taking the squares `blocked(Some(a), r)` does not block (row 0: the
/// squares `blocked(None, 0)` does not), as many rows as give the number of ways nearest
/// `target` (by ratio: of the last level below it and the first at or above it, the nearer),
/// but at most n − 2 rows, so that every task has two rows left for the lanes loop, and at
/// least `least` (at most n): the number of rows, the prefixes (that many bytes each, in
/// order) and how many there are.
pub(crate) fn prefixes(
    n: usize,
    target: usize,
    least: usize,
    blocked: impl Fn(Option<u8>, usize) -> u64,
) -> (usize, Vec<u8>, usize) {
    let (mut prefixes, mut states) = (Vec::new(), vec![State::default()]);
    let mut depth = 0;
    while depth < least || (states.len() < target && depth + 2 < n) {
        let (mut longer, mut next) = (Vec::new(), Vec::with_capacity(4 * states.len()));
        for (at, state) in states.iter().enumerate() {
            let first = (depth > 0).then(|| prefixes[at * depth]);
            let mut free = !(state.columns | state.left | state.right | blocked(first, depth));
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                longer.extend_from_slice(&prefixes[at * depth..(at + 1) * depth]);
                longer.push(bit.trailing_zeros() as u8);
                next.push(state.place(bit));
            }
        }
        if depth >= least
            && next.len() >= target
            && states.len().saturating_mul(next.len()) > target * target
        {
            // This level is nearer the target than the next.
            break;
        }
        (prefixes, states) = (longer, next);
        depth += 1;
    }
    (depth, prefixes, states.len())
}

/// The task list of a board with fixed queens or blocked squares, and the boards its tasks are
/// searched on. See the [module documentation](self).
#[derive(Clone)]
pub(crate) struct MaskedList {
    n: u32,
    depth: usize,
    /// The prefixes, `depth` bytes each, and how many there are (a board of one or two rows
    /// counted without symmetry has one, of no row; a board with no solution may have none).
    prefixes: Vec<u8>,
    len: usize,
    /// The board of every task (counted without symmetry), or of the tasks whose row-0 queen
    /// is in column c, at index c (counted up to the board's group).
    boards: Vec<TaskBoard>,
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
        let grouped = group.is_some();
        let boards: Vec<TaskBoard> = match group {
            None => vec![TaskBoard::masked(&allowed)],
            Some(group) => {
                let group = Arc::new(group);
                (0..n)
                    .map(|a| {
                        let rules = GroupRules::new(n, a, group.members());
                        let rows: Vec<u64> = allowed
                            .iter()
                            .zip(&rules.allowed)
                            .map(|(x, y)| x & y)
                            .collect();
                        TaskBoard::grouped(&rows, rules.ties, Arc::clone(&group))
                    })
                    .collect()
            }
        };
        // Row 0 of a grouped list: the columns some board allows.
        let row_0 = boards
            .iter()
            .fold(u64::MAX, |row, b| row & b.masks.blocked(0));
        let (depth, prefixes, len) =
            prefixes(n as usize, TASKS, usize::from(grouped), |a, r| match a {
                Some(a) if grouped => boards[usize::from(a)].masks.blocked(r),
                None if grouped => row_0,
                _ => boards[0].masks.blocked(r),
            });
        // Version 2: a list counted up to the board's group holds only the prefixes its
        // symmetry rules allow, and its tasks count classes (version 1 enumerated every
        // solution); counted without symmetry, the list is version 1's.
        let version = if grouped { 2 } else { 1 };
        let head = format!(
            "nqueens-counter-masked-tasks v{version} n={n} depth={depth} tasks={len} board={} group={}\n",
            mark.squares,
            members.join(",")
        );
        MaskedList {
            n,
            depth,
            len,
            fingerprint: list_fingerprint(&head, &prefixes, depth),
            prefixes,
            boards,
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

    /// The board the task with this prefix is searched on.
    pub(crate) fn board(&self, prefix: &[u8]) -> &TaskBoard {
        match prefix.first() {
            Some(&a) if self.boards.len() > 1 => &self.boards[usize::from(a)],
            _ => &self.boards[0],
        }
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
    use std::collections::BTreeSet;
    use std::ops::ControlFlow;

    use nqueens_support::SplitMix64;

    use super::*;
    use crate::Queen;
    use crate::board::Solution;
    use crate::engine::Engine;
    use crate::engines::backtrack::Backtrack;
    use crate::engines::counter::grouped::subgroups;
    use crate::engines::counter::kernel::{Loop, NEVER, Scratch};
    use crate::engines::counter::work::Work;
    use crate::engines::counter::{Counter, lanes};
    use crate::instances::oeis;

    /// The classes of `problem` the slow, plain way: every solution from the backtracking
    /// engine, each turned into the smallest of its images under the board's group, the
    /// distinct ones counted. (The solutions, the classes.)
    fn oracle(problem: &Problem) -> (u128, u128) {
        let members = Group::of(problem).members().to_vec();
        let mut classes = BTreeSet::new();
        let mut solutions = 0;
        Backtrack::default()
            .for_each(problem, &mut |s: &Solution| {
                solutions += 1;
                classes.insert(members.iter().map(|g| g.apply(s)).min().unwrap());
                ControlFlow::Continue(())
            })
            .unwrap();
        (solutions, classes.len() as u128)
    }

    /// A board of size n whose blocked squares (and, now and then, fixed queens) are whole
    /// orbits of the group `members`: it keeps at least those symmetries.
    fn symmetric_board(n: u32, members: &[Symmetry], rng: &mut SplitMix64) -> Problem {
        let orbit = |q: Queen| -> BTreeSet<Queen> {
            members.iter().map(|g| g.apply_to_queen(q, n)).collect()
        };
        let square = |rng: &mut SplitMix64| Queen::new(rng.below(n), rng.below(n));
        let mut fixed = BTreeSet::new();
        if rng.below(3) == 0 {
            fixed = orbit(square(rng));
        }
        let mut blocked = BTreeSet::new();
        for _ in 0..rng.below(n + 1) {
            blocked.extend(
                orbit(square(rng))
                    .into_iter()
                    .filter(|q| !fixed.contains(q)),
            );
        }
        // A fixed orbit whose queens attack each other is no board: block it instead.
        Problem::with_blocks(n, fixed.iter().copied(), blocked.iter().copied()).unwrap_or_else(
            |_| Problem::with_blocks(n, [], blocked.into_iter().chain(fixed)).unwrap(),
        )
    }

    /// Up to symmetry, boards whose masks keep each of the ten subgroups of the eight
    /// symmetries (n = 1..=10, fixed seed, some with fixed queens) count as the oracle does,
    /// on one thread and on three, with the whole task in one piece and cut into pieces.
    #[test]
    fn symmetric_masks_count_their_classes_as_the_oracle_does() {
        let mut rng = SplitMix64::new(50);
        let mut kept: Vec<Vec<Symmetry>> = Vec::new();
        for n in 1..=10u32 {
            for members in subgroups() {
                for round in 0..3 {
                    let problem = symmetric_board(n, &members, &mut rng);
                    let group = Group::of(&problem);
                    assert!(members.iter().all(|g| group.members().contains(g)));
                    if !kept.contains(&group.members().to_vec()) {
                        kept.push(group.members().to_vec());
                    }
                    let (total, classes) = oracle(&problem);
                    let mut counter = Counter::new(1 + round % 3);
                    counter.piece_rows = 2 + round;
                    let counts = counter.count(&problem, true).unwrap();
                    let at = format!("n = {n}, {problem:?}");
                    assert_eq!(counts.total, total, "{at}");
                    assert_eq!(counts.unique, Some(classes), "{at}");
                    assert_eq!(counter.count(&problem, false).unwrap().total, total, "{at}");
                }
            }
        }
        assert_eq!(kept.len(), 10, "every subgroup is some board's group");
    }

    /// The plain board, counted through a list of its own group's rules (all eight
    /// symmetries: the whole board's class rules on per-column boards), gives OEIS A000170
    /// and A002562.
    #[test]
    fn the_empty_board_counted_by_its_group_rules_matches_oeis() {
        for n in 1..=12 {
            let problem = Problem::new(n).unwrap();
            let work = Work::Masked(Box::new(MaskedList::new(&problem, true)));
            let counts = Counter::new(2).count_work(&work, true).unwrap();
            assert_eq!(counts.total, oeis::total(n).unwrap(), "n = {n}");
            assert_eq!(counts.unique, oeis::unique(n), "n = {n}");
        }
    }

    /// Every task of a list counted up to a group gives the same result, node for node, by
    /// the one-board loop and by the lanes loop.
    #[test]
    fn both_loops_agree_task_by_task_on_grouped_lists() {
        if !lanes::available() {
            return;
        }
        let mut rng = SplitMix64::new(7);
        let mut scratch = Scratch::default();
        for n in [10, 11, 12] {
            for members in subgroups().into_iter().skip(1) {
                let problem = symmetric_board(n, &members, &mut rng);
                let list = MaskedList::new(&problem, true);
                for id in (0..list.len() as u32).map(TaskId) {
                    let prefix = list.prefix(id);
                    let board = list.board(prefix);
                    let start = State::after(prefix).unwrap();
                    let solve = |with, scratch: &mut Scratch| {
                        board.solve(with, prefix, start, scratch, &NEVER).unwrap()
                    };
                    let one = solve(Loop::OneBoard, &mut scratch);
                    assert_eq!(one, solve(Loop::Lanes, &mut scratch), "n = {n}, {prefix:?}");
                }
            }
        }
    }
}
