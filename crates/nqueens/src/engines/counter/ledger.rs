//! A count's books, kept on the thread that runs it: the sums over finished tasks (in
//! `u128`, checked), the tasks in flight and where each has got, the queens this run placed,
//! and what the work model (module `estimate`) says is left. A step costs O(1) (a hash-map
//! update); the figures progress shows cost O(tasks in flight), and the model's share is
//! kept as a running sum.

use std::collections::HashMap;

use super::kernel::TaskResult;
use super::pieces::Partial;
use super::tasks::TaskId;

/// A sum beyond `u128` (no board this counter can finish comes near).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the count overflowed 128 bits")]
pub struct Overflow;

/// Sums over finished tasks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sums {
    /// Solutions.
    pub total: u128,
    /// Solutions up to symmetry.
    pub unique: u128,
    /// Queens placed.
    pub nodes: u128,
    /// Tasks.
    pub done: u64,
}

impl Sums {
    /// Adds one finished task's result.
    pub fn add(&mut self, result: &TaskResult) -> Result<(), Overflow> {
        let add = |sum: u128, part: u64| sum.checked_add(u128::from(part)).ok_or(Overflow);
        self.total = add(self.total, result.total)?;
        self.unique = add(self.unique, result.unique)?;
        self.nodes = add(self.nodes, result.nodes)?;
        self.done += 1;
        Ok(())
    }
}

/// Where a run starts task `id`: the position the checkpoint holds (`from`), or the task's
/// beginning, cut at row `cut`. (Most runs resume none: no lookup then.)
pub fn start_of(from: &HashMap<TaskId, Partial>, id: TaskId, cut: usize) -> Partial {
    match from.is_empty() {
        true => Partial::start(cut),
        false => from.get(&id).copied().unwrap_or(Partial::start(cut)),
    }
}

/// A task in flight, as far as the run has heard.
struct Flight {
    /// Where this run started it.
    base: Partial,
    /// Where it has got.
    now: Partial,
    /// The pieces of the last position written to the checkpoint (or read from it).
    written: u64,
}

/// The run's bookkeeping on its main thread: finished tasks, tasks in flight, the queens this
/// run placed, and what the work model says is left.
pub struct Ledger<'a> {
    cut: usize,
    /// Over finished tasks, those read back from the checkpoint included.
    pub sums: Sums,
    /// Where the checkpoint's unfinished tasks had got.
    from: &'a HashMap<TaskId, Partial>,
    flight: HashMap<TaskId, Flight>,
    /// Queens placed by this run in the tasks it finished.
    run_nodes: u128,
    /// The tasks this run counts, in id order, and which of them are finished.
    pending: &'a [TaskId],
    finished: Vec<bool>,
    /// The model's estimate of each pending task's queens, once it is there, and their sum
    /// over the tasks not finished.
    model: Option<(Vec<f32>, f64)>,
}

impl<'a> Ledger<'a> {
    pub(super) fn new(
        cut: usize,
        from: &'a HashMap<TaskId, Partial>,
        sums: Sums,
        pending: &'a [TaskId],
    ) -> Self {
        Ledger {
            cut,
            sums,
            from,
            flight: HashMap::new(),
            run_nodes: 0,
            pending,
            finished: vec![false; pending.len()],
            model: None,
        }
    }

    /// Takes the work model's estimates (one per pending task) on board.
    pub(super) fn adopt(&mut self, estimates: &[f32]) {
        if self.model.is_none() {
            let left = estimates
                .iter()
                .zip(&self.finished)
                .filter(|&(_, &finished)| !finished)
                .map(|(&e, _)| f64::from(e))
                .sum();
            self.model = Some((estimates.to_vec(), left));
        }
    }

    /// The model's estimate of the queens of task `id`.
    fn estimate(&self, id: TaskId) -> Option<f64> {
        let (estimates, _) = self.model.as_ref()?;
        let at = self.pending.binary_search(&id).ok()?;
        Some(f64::from(estimates[at]))
    }

    /// The queens still to place, as the model has it.
    pub(super) fn nodes_left(&self) -> Option<u128> {
        let (_, left) = *self.model.as_ref()?;
        let flying: f64 = self
            .flight
            .iter()
            .map(|(&id, f)| (f.now.found.nodes as f64).min(self.estimate(id).unwrap_or(0.0)))
            .sum();
        Some((left - flying).max(0.0) as u128)
    }

    /// The queens placed in the shard so far, by earlier runs too.
    pub(super) fn nodes_done(&self) -> u128 {
        let flying: u128 = self
            .flight
            .values()
            .map(|f| u128::from(f.now.found.nodes))
            .sum();
        self.sums.nodes + flying
    }

    /// Where this run starts task `id`.
    pub(super) fn base(&self, id: TaskId) -> Partial {
        start_of(self.from, id, self.cut)
    }

    pub(super) fn moved(&mut self, id: TaskId, now: Partial) {
        let base = self.base(id);
        self.flight
            .entry(id)
            .or_insert(Flight {
                base,
                now: base,
                written: base.pieces,
            })
            .now = now;
    }

    pub(super) fn finish(&mut self, id: TaskId, result: &TaskResult) -> Result<(), Overflow> {
        let base = self.base(id);
        if !self.flight.is_empty() {
            self.flight.remove(&id);
        }
        if let Ok(at) = self.pending.binary_search(&id) {
            self.finished[at] = true;
            if let Some((estimates, left)) = &mut self.model {
                *left -= f64::from(estimates[at]);
            }
        }
        self.sums.add(result)?;
        self.run_nodes += u128::from(result.nodes - base.found.nodes);
        Ok(())
    }

    /// Queens placed by this run, in finished tasks and in the pieces of tasks in flight.
    pub fn new_nodes(&self) -> u128 {
        let flying: u128 = self
            .flight
            .values()
            .map(|f| u128::from(f.now.found.nodes - f.base.found.nodes))
            .sum();
        self.run_nodes + flying
    }

    /// Unfinished tasks the checkpoint holds a position of: those in flight that finished a
    /// piece, and those resumed from a position this run did not take up.
    pub fn in_part(&self) -> u64 {
        let flying = self.flight.values().filter(|f| f.now.pieces > 0).count();
        let waiting = self
            .from
            .iter()
            .filter(|&(id, partial)| partial.pieces > 0 && !self.flight.contains_key(id))
            .filter(|&(id, _)| {
                let at = self.pending.binary_search(id);
                at.is_ok_and(|at| !self.finished[at])
            })
            .count();
        (flying + waiting) as u64
    }

    /// Hands `write` where each task in flight has got, if it got further since it was last
    /// written (in id order), and takes it as written.
    pub fn write_positions<E>(
        &mut self,
        mut write: impl FnMut(TaskId, &Partial) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut moved: Vec<(&TaskId, &mut Flight)> = self
            .flight
            .iter_mut()
            .filter(|(_, f)| f.now.pieces > f.written)
            .collect();
        moved.sort_unstable_by_key(|(id, _)| **id);
        for (&id, flight) in moved {
            write(id, &flight.now)?;
            flight.written = flight.now.pieces;
        }
        Ok(())
    }
}
