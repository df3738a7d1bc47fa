//! Task lists for front ends that schedule tasks themselves (the MPI front end, `nqueens-mpi`,
//! through `crate::runs::distributed`): a task list that can be split deeper, and counting
//! one task by id.
//!
//! A distributed front end needs the search's hooks rather than a whole run: the
//! deterministic list of tasks ([`SplitList`]) and a way to count one task on any machine
//! from n and its id alone ([`TaskCounter`]), in pieces from a saved position.
//!
//! # Splitting deeper
//!
//! The standard list ([`TaskList::new`]) fixes four rows below n = 24 (42,832 tasks at
//! n = 22): plenty for one machine, too few for a thousand machines of sixteen threads, where
//! a balanced schedule needs a hundred tasks or more per thread. [`SplitList::new`] with
//! `extra` rows extends every task's prefix by `extra` more rows, in every legal way its class
//! rules allow. The result is the same list the task format would give at the greater depth:
//! the prefixes in lexicographic order, ids their positions, and the fingerprint the format's
//! own (`nqueens-counter-tasks v2 n=<n> depth=<depth>` and one line per prefix), so it differs
//! from the standard list's, and a checkpoint or shard result of one is never taken for the
//! other. With `extra = 0` the list *is* the standard one, fingerprint included. Building the
//! list costs one pass over the legal prefixes (O(tasks · depth)); a prefix is a slice lookup.

use std::sync::atomic::AtomicBool;

use super::kernel::{self, Scratch, TaskResult};
use super::pieces::{self, BadPosition, Partial, TaskEnd};
use super::tasks::{Class, ClassRules, Fingerprint, TaskId, TaskList, full_mask, list_fingerprint};

/// The most rows a list may be split beyond the standard depth.
pub const MAX_EXTRA_ROWS: usize = 2;

/// The task list of one n, at the standard depth or split deeper. See the
/// [module documentation](self).
#[derive(Clone, Debug)]
pub struct SplitList {
    n: u32,
    depth: usize,
    extra: usize,
    /// The split prefixes, `depth` bytes each (empty when `extra` is 0: the base list holds
    /// them).
    prefixes: Vec<u8>,
    base: TaskList,
    fingerprint: Fingerprint,
}

impl SplitList {
    /// The list of board size n (1 ≤ n ≤ 64) with `extra` rows beyond the standard depth
    /// (at most [`MAX_EXTRA_ROWS`], and never beyond n rows in all).
    pub fn new(n: u32, extra: usize) -> Self {
        let base = TaskList::new(n);
        let extra = extra.min(MAX_EXTRA_ROWS).min(n as usize - base.depth());
        if extra == 0 {
            return SplitList {
                n,
                depth: base.depth(),
                extra,
                prefixes: Vec::new(),
                fingerprint: base.fingerprint(),
                base,
            };
        }
        let depth = base.depth() + extra;
        let mut prefixes = Vec::new();
        let mut prefix = Vec::with_capacity(depth);
        for id in base.ids() {
            let start = base.prefix(id);
            let rules = ClassRules::new(n, Class::of(start));
            prefix.clear();
            prefix.extend_from_slice(start);
            extend(n, depth, &rules.allowed, &mut prefix, &mut prefixes);
        }
        let head = format!("nqueens-counter-tasks v2 n={n} depth={depth}\n");
        SplitList {
            n,
            depth,
            extra,
            fingerprint: list_fingerprint(&head, &prefixes, depth),
            prefixes,
            base,
        }
    }

    /// The board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// Rows fixed by each task.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Rows beyond the standard depth (after capping).
    pub fn extra(&self) -> usize {
        self.extra
    }

    /// Number of tasks.
    pub fn len(&self) -> usize {
        if self.extra == 0 {
            self.base.len()
        } else {
            self.prefixes.len() / self.depth
        }
    }

    /// Whether there is no task (n = 2 and n = 3).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The identity of this list.
    pub fn fingerprint(&self) -> Fingerprint {
        self.fingerprint
    }

    /// The prefix of a task, or `None` for an id beyond the list.
    pub fn prefix(&self, id: TaskId) -> Option<&[u8]> {
        if id.index() >= self.len() {
            return None;
        }
        if self.extra == 0 {
            return Some(self.base.prefix(id));
        }
        let start = id.index() * self.depth;
        Some(&self.prefixes[start..start + self.depth])
    }

    /// Every task id, in order.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = TaskId> + use<> {
        (0..self.len() as u32).map(TaskId)
    }

    /// The row its tasks are cut into pieces at, for pieces of `piece_rows` rows
    /// ([`pieces::cut_row`]): every rank of a job must use the same.
    pub fn cut(&self, piece_rows: usize) -> usize {
        pieces::cut_row(self.n, self.depth, piece_rows)
    }
}

/// Appends to `out` every legal extension of `prefix` to `depth` rows under `allowed`.
fn extend(n: u32, depth: usize, allowed: &[u64], prefix: &mut Vec<u8>, out: &mut Vec<u8>) {
    if prefix.len() == depth {
        out.extend_from_slice(prefix);
        return;
    }
    let row = prefix.len();
    let mut attacked = 0u64;
    for (r, &col) in prefix.iter().enumerate() {
        let distance = (row - r) as u32;
        attacked |= 1 << col;
        attacked |= (1u64 << col) << distance;
        attacked |= (1u64 << col) >> distance;
    }
    let mut free = allowed[row] & !attacked & full_mask(n);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        prefix.push(bit.trailing_zeros() as u8);
        extend(n, depth, allowed, prefix, out);
        prefix.pop();
    }
}

/// Counts single tasks, reusing its scratch space from task to task (one per thread).
#[derive(Default)]
pub struct TaskCounter {
    scratch: Box<Scratch>,
}

impl std::fmt::Debug for TaskCounter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TaskCounter")
    }
}

impl TaskCounter {
    /// The result of task `id` of `list`, or `None` for an id beyond the list.
    pub fn count(&mut self, list: &SplitList, id: TaskId) -> Option<TaskResult> {
        let prefix = list.prefix(id)?;
        Some(kernel::solve_task(list.n(), prefix, &mut self.scratch))
    }

    /// Counts task `id` of `list` in pieces from `from` (its start, [`Partial::start`] of the
    /// list's [`cut`](SplitList::cut), or a position saved by an earlier run), calling
    /// `on_piece` with its position after each piece; stops within milliseconds once `stop`
    /// is raised and says where it got. The finished result is [`count`](Self::count)'s,
    /// node for node. A position the task does not have is [`BadPosition`].
    ///
    /// # Panics
    /// If `id` is beyond the list.
    pub fn count_from(
        &mut self,
        list: &SplitList,
        id: TaskId,
        from: &Partial,
        stop: &AtomicBool,
        on_piece: &mut dyn FnMut(&Partial),
    ) -> Result<TaskEnd, BadPosition> {
        let n = list.n();
        let prefix = list.prefix(id).expect("a task of the list");
        let board = pieces::class_board(n, prefix);
        pieces::count_task(
            board,
            n,
            id,
            prefix,
            from,
            stop,
            &mut self.scratch,
            on_piece,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instances::oeis;
    use std::sync::atomic::Ordering;

    fn sum(list: &SplitList) -> (u128, u128) {
        let mut counter = TaskCounter::default();
        list.ids().fold((0, 0), |(total, unique), id| {
            let r = counter.count(list, id).unwrap();
            (total + u128::from(r.total), unique + u128::from(r.unique))
        })
    }

    #[test]
    fn no_extra_rows_is_the_standard_list() {
        for n in [1, 4, 8, 11, 17, 24] {
            let base = TaskList::new(n);
            let split = SplitList::new(n, 0);
            assert_eq!(split.fingerprint(), base.fingerprint(), "n = {n}");
            assert_eq!(split.len(), base.len());
            assert_eq!(split.depth(), base.depth());
            for id in base.ids() {
                assert_eq!(split.prefix(id), Some(base.prefix(id)));
            }
            assert_eq!(split.prefix(TaskId(base.len() as u32)), None);
        }
    }

    #[test]
    fn a_deeper_split_matches_the_format_at_that_depth() {
        // The format at depth 5: every legal prefix once, sorted, with a fingerprint of its own.
        let split = SplitList::new(12, 1);
        assert_eq!(split.depth(), 5);
        let prefixes: Vec<&[u8]> = split.ids().map(|id| split.prefix(id).unwrap()).collect();
        assert!(prefixes.windows(2).all(|w| w[0] < w[1]));
        assert!(
            prefixes
                .iter()
                .all(|p| crate::engines::counter::attacks::State::after(p).is_some())
        );
        assert_ne!(split.fingerprint(), TaskList::new(12).fingerprint());
        assert_ne!(split.fingerprint(), SplitList::new(12, 2).fingerprint());
        assert!(split.len() > 3 * TaskList::new(12).len());
    }

    #[test]
    fn split_lists_count_the_published_totals() {
        for n in 5..=12 {
            for extra in 0..=2 {
                let list = SplitList::new(n, extra);
                let (total, unique) = sum(&list);
                assert_eq!(total, oeis::total(n).unwrap(), "n = {n}, +{extra}");
                assert_eq!(unique, oeis::unique(n).unwrap(), "n = {n}, +{extra}");
            }
        }
    }

    #[test]
    fn two_rows_deeper_give_a_thousand_ranks_of_sixteen_threads_enough_tasks_at_n_22() {
        // A balanced schedule wants a hundred tasks or more per thread: 42,832 standard tasks
        // are 2.6 per thread of 1,024 × 16, one row deeper 508,202 (31), two rows 5,163,565
        // (315).
        let threads = 1024 * 16;
        let lens = [0, 1, 2].map(|extra| SplitList::new(22, extra).len());
        assert_eq!(lens, [42_832, 508_202, 5_163_565]);
        assert!(lens[1] < 100 * threads);
        assert!(lens[2] >= 100 * threads);
        // One row deeper is enough for 1,024 ranks of one thread.
        assert!(lens[1] >= 100 * 1024);
    }

    /// Counting a task in pieces, stopped after each piece and resumed from there, gives its
    /// whole result, on split lists too.
    #[test]
    fn a_task_counted_from_its_positions_is_the_task() {
        use crate::engines::counter::kernel::NEVER;
        use std::sync::atomic::AtomicBool;
        let mut counter = TaskCounter::default();
        for extra in [0, 1] {
            let list = SplitList::new(12, extra);
            let cut = list.cut(5);
            for id in list.ids().step_by(97) {
                let whole = counter.count(&list, id).unwrap();
                let mut from = Partial::start(cut);
                let stop = AtomicBool::new(false);
                let end = loop {
                    stop.store(false, Ordering::Relaxed);
                    // Stop after one piece, then go on from where it got.
                    let mut on_piece = |_: &Partial| stop.store(true, Ordering::Relaxed);
                    match counter.count_from(&list, id, &from, &stop, &mut on_piece) {
                        Ok(TaskEnd::Stopped(partial)) => from = partial,
                        end => break end.unwrap(),
                    }
                };
                assert_eq!(end, TaskEnd::Done(whole), "+{extra}, task {id}");
                let from_start =
                    counter.count_from(&list, id, &Partial::start(cut), &NEVER, &mut |_| {});
                assert_eq!(from_start.unwrap(), TaskEnd::Done(whole));
            }
        }
    }

    #[test]
    fn extra_rows_are_capped() {
        assert_eq!(SplitList::new(4, 2).extra(), 0);
        assert_eq!(SplitList::new(5, 2).extra(), 1);
        assert_eq!(SplitList::new(20, 9).extra(), MAX_EXTRA_ROWS);
    }
}
