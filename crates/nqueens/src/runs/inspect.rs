//! What a checkpoint says about its count, read without running it: tasks done, in part and
//! left, the partial total, and the share of the work done (the work model of
//! `engines::counter::estimate` over the tasks not finished). The CLI's `status` shows it,
//! and a run that resumes says the same about where it starts. Reading is the checkpoint's
//! (O(file length)); the share costs one model of the unfinished tasks (a twentieth of a
//! second of one core at n = 17, a second at n = 27).

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::checkpoint::{self, Contents};
use super::error::CounterError;
use crate::engines::counter::MAX_N;
use crate::engines::counter::estimate::estimate;
use crate::engines::counter::kernel::TaskResult;
use crate::engines::counter::pieces::Partial;
use crate::engines::counter::tasks::{TaskId, TaskList};
use crate::engines::counter::work::Work;

/// A checkpoint and what it says about its count. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Status {
    /// The file as read.
    pub contents: Contents,
    /// Tasks of its shard.
    pub tasks: u64,
    /// Of those, finished ones.
    pub done: u64,
    /// Unfinished ones with some pieces done.
    pub in_part: u64,
    /// The others.
    pub left: u64,
    /// Sums over the finished tasks: solutions, solutions up to symmetry, queens placed.
    pub finished: TaskResult128,
    /// Sums over the positions of the tasks in part.
    pub partial: TaskResult128,
    /// The share of the shard's work done, by the work model; `None` where this nqueens
    /// cannot rebuild the task list (a board with fixed queens or blocked squares, whose
    /// squares the checkpoint names only by a fingerprint).
    pub share: Option<f64>,
}

/// Sums of task results, in 128 bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TaskResult128 {
    /// Solutions (each canonical one weighted by its class size).
    pub total: u128,
    /// Solutions up to symmetry.
    pub unique: u128,
    /// Queens placed.
    pub nodes: u128,
}

impl TaskResult128 {
    fn add(&mut self, result: &TaskResult) {
        self.total += u128::from(result.total);
        self.unique += u128::from(result.unique);
        self.nodes += u128::from(result.nodes);
    }
}

/// Reads the checkpoint at `path` and sums it up (see the [module documentation](self)).
pub fn status(path: &Path) -> Result<Status, CounterError> {
    let contents = checkpoint::read(path)?;
    let header = contents.header;
    let tasks = header.shard.len_of(header.tasks) as u64;
    let mut finished = TaskResult128::default();
    for (_, result) in &contents.results {
        finished.add(result);
    }
    let mut partial = TaskResult128::default();
    for (_, position) in &contents.positions {
        partial.add(&position.found);
    }
    let done = contents.results.len() as u64;
    let in_part = contents
        .positions
        .iter()
        .filter(|(_, p)| p.pieces > 0)
        .count() as u64;
    let complete = done == tasks;
    let share = whole_list(&contents).filter(|_| !complete).map(|list| {
        let done: Vec<bool> = {
            let mut done = vec![false; list.len()];
            for (id, _) in &contents.results {
                done[id.index()] = true;
            }
            done
        };
        let from: HashMap<TaskId, Partial> = contents.positions.iter().copied().collect();
        let unfinished: Vec<TaskId> = list
            .ids()
            .filter(|&id| header.shard.contains(id) && !done[id.index()])
            .collect();
        let model = estimate(&Work::Whole(list), &unfinished, &AtomicBool::new(false));
        share_done(
            &model.unwrap_or_default(),
            finished.nodes,
            &unfinished,
            &from,
        )
    });
    // A finished count needs no model, whatever its board.
    let share = if complete { Some(1.0) } else { share };
    Ok(Status {
        tasks,
        done,
        in_part,
        left: tasks - done - in_part,
        finished,
        partial,
        share,
        contents,
    })
}

/// The whole board's task list of a checkpoint, if it is one this nqueens builds (the same
/// n, depth and fingerprint).
pub(super) fn whole_list(contents: &Contents) -> Option<TaskList> {
    let header = &contents.header;
    if header.board.is_some() || !(1..=MAX_N).contains(&header.n) {
        return None;
    }
    let list = TaskList::new(header.n);
    (list.depth() == header.depth
        && list.len() == header.tasks
        && list.fingerprint() == header.fingerprint)
        .then_some(list)
}

/// The share of the work done when the tasks `unfinished` are left, some at the positions
/// `from`, and the finished ones placed `finished_nodes` queens, by `model` (the work model's
/// estimates of `unfinished`, in order): the queens placed over those placed and those the
/// model says are left, as the progress line has it.
pub(super) fn share_done(
    model: &[f32],
    finished_nodes: u128,
    unfinished: &[TaskId],
    from: &HashMap<TaskId, Partial>,
) -> f64 {
    let (mut placed, mut left) = (finished_nodes as f64, 0.0);
    for (&id, &estimate) in unfinished.iter().zip(model) {
        let estimate = f64::from(estimate);
        let at = from.get(&id).map_or(0.0, |p| p.found.nodes as f64);
        placed += at;
        left += (estimate - at).max(0.0);
    }
    placed / (placed + left).max(1.0)
}
