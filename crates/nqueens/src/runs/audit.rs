//! Auditing a checkpoint: chosen or sampled finished tasks recounted by a second, independent
//! search and compared with what the file records, so that a second party can check a record
//! count task by task without trusting the machine that made it.
//!
//! # The second search
//!
//! The counter counts a task's solutions through their canonical images only, under its
//! class's pruning rules, with a lookahead, in lanes of eight boards, in pieces. The recount
//! shares none of that: it is the plain backtracking loop (one bitboard per row, no rules,
//! no lookahead) over every placement of the rows below the task's prefix, and for each
//! solution found it builds the eight images with the board's own symmetry maps
//! (`board::symmetry`), keeps the solution if it is the canonical one by the counter's
//! published definition (the image whose row-0 queen is farthest from its nearest corner,
//! ties to the lexicographically smaller column list), and weighs it by the number of
//! distinct images. Its total and unique must equal the recorded ones; the queens placed
//! differ (the plain loop places many more), so they are not compared.
//!
//! # What it costs
//!
//! The plain loop visits the task's whole subtree without the class's rules, and builds eight
//! images of every solution: over every task of n = 14 it places 3.4 times the counter's
//! queens (11.0 million against 3.3 million) and takes 21 times as long (0.83 s against
//! 0.040 s), over n = 15 3.6 times the queens and 16 times as long (5.2 s against 0.33 s; one
//! thread each, the `checked` profile, a 2-core machine shared with other work). So a recount
//! costs some twenty times what the counter spent on its task: milliseconds at n = 17, hours
//! for the big tasks of n = 27, and a record is audited by sampling. The tasks are recounted
//! on `threads` threads, a task per thread, and a raised stop flag ends them within a row's
//! work.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use nqueens_support::SplitMix64;

use super::checkpoint::Contents;
use super::error::CounterError;
use super::inspect::whole_list;
use crate::board::Solution;
use crate::board::symmetry::{Symmetry, orbit_size};
use crate::engines::counter::kernel::TaskResult;
use crate::engines::counter::tasks::{TaskId, full_mask};

/// Which finished tasks to recount.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// `count` of them drawn at random (all of them if there are fewer), from `seed`.
    Sample {
        /// How many.
        count: usize,
        /// The generator's seed: the same seed draws the same tasks.
        seed: u64,
    },
    /// These, by id.
    Tasks(Vec<TaskId>),
}

/// One recounted task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recount {
    /// The task.
    pub id: TaskId,
    /// What the checkpoint records.
    pub recorded: TaskResult,
    /// Solutions and solutions up to symmetry by the second search (its `nodes`: the queens
    /// it placed).
    pub recounted: TaskResult,
}

impl Recount {
    /// Whether the two searches found the same solutions.
    pub fn agrees(&self) -> bool {
        (self.recorded.total, self.recorded.unique) == (self.recounted.total, self.recounted.unique)
    }
}

/// The finished tasks `choice` names, with their recorded results, in id order.
pub fn choose(
    contents: &Contents,
    choice: &Choice,
) -> Result<Vec<(TaskId, TaskResult)>, CounterError> {
    let mut finished = contents.results.clone();
    finished.sort_unstable_by_key(|&(id, _)| id);
    let mut chosen = match choice {
        Choice::Sample { count, seed } => {
            let mut rng = SplitMix64::new(*seed);
            let count = (*count).min(finished.len());
            // The first `count` places of a partial Fisher–Yates shuffle.
            for i in 0..count {
                let j = i + rng.below_u64((finished.len() - i) as u64) as usize;
                finished.swap(i, j);
            }
            finished.truncate(count);
            finished
        }
        Choice::Tasks(ids) => {
            let mut chosen = Vec::with_capacity(ids.len());
            for &id in ids {
                let at = finished.binary_search_by_key(&id, |&(id, _)| id);
                let Ok(at) = at else {
                    let why = if id.index() >= contents.header.tasks {
                        format!("does not exist (there are {})", contents.header.tasks)
                    } else if !contents.header.shard.contains(id) {
                        format!("is not in shard {}", contents.header.shard)
                    } else {
                        "is not finished in this checkpoint".to_string()
                    };
                    return Err(CounterError::Audit(format!("task {id} {why}")));
                };
                chosen.push(finished[at]);
            }
            chosen
        }
    };
    chosen.sort_unstable_by_key(|&(id, _)| id);
    chosen.dedup_by_key(|&mut (id, _)| id);
    Ok(chosen)
}

/// Recounts `chosen` (tasks of the checkpoint `contents`, a whole board's) on `threads`
/// threads by the second search; `None` if `stop` was raised first.
pub fn recount(
    contents: &Contents,
    chosen: &[(TaskId, TaskResult)],
    threads: usize,
    stop: &AtomicBool,
) -> Result<Option<Vec<Recount>>, CounterError> {
    let list = whole_list(contents).ok_or_else(|| {
        CounterError::Audit(
            "this nqueens recounts checkpoints of the whole board over its own task list only (not of a board with fixed queens or blocked squares, nor of another version's list)".into(),
        )
    })?;
    let n = list.n();
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::with_capacity(chosen.len()));
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, chosen.len().max(1)) {
            scope.spawn(|| {
                while let Some(&(id, recorded)) = chosen.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let Some(recounted) = recount_task(n, list.prefix(id), stop) else {
                        return;
                    };
                    if let Ok(mut done) = done.lock() {
                        done.push(Recount {
                            id,
                            recorded,
                            recounted,
                        });
                    }
                }
            });
        }
    });
    if stop.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let mut done = done.into_inner().unwrap_or_default();
    done.sort_unstable_by_key(|r| r.id);
    Ok(Some(done))
}

/// The solutions of the n×n board whose first rows are `prefix`, each canonical one weighted
/// by its class size, by plain backtracking (see the [module documentation](self)); `None`
/// if `stop` was raised.
pub fn recount_task(n: u32, prefix: &[u8], stop: &AtomicBool) -> Option<TaskResult> {
    let mut columns: Vec<u8> = prefix.to_vec();
    let (mut cols, mut left, mut right) = (0u64, 0u64, 0u64);
    for &col in prefix {
        let bit = 1u64 << col;
        cols |= bit;
        left = (left | bit) << 1;
        right = (right | bit) >> 1;
    }
    let mut found = TaskResult::default();
    let mut search = Plain {
        n,
        full: full_mask(n),
        columns: &mut columns,
        found: &mut found,
        stop,
    };
    search.place(cols, left, right).then_some(found)
}

/// The plain backtracking loop's state.
struct Plain<'a> {
    n: u32,
    full: u64,
    columns: &'a mut Vec<u8>,
    found: &'a mut TaskResult,
    stop: &'a AtomicBool,
}

impl Plain<'_> {
    /// Places the queens of the rows after `columns`; false if stopped.
    fn place(&mut self, cols: u64, left: u64, right: u64) -> bool {
        if self.columns.len() == self.n as usize {
            self.solution();
            return true;
        }
        if self.stop.load(Ordering::Relaxed) {
            return false;
        }
        let mut free = self.full & !(cols | left | right);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.found.nodes += 1;
            self.columns.push(bit.trailing_zeros() as u8);
            let going = self.place(cols | bit, (left | bit) << 1, (right | bit) >> 1);
            self.columns.pop();
            if !going {
                return false;
            }
        }
        true
    }

    /// Counts the solution in `columns` if it is its class's canonical member.
    fn solution(&mut self) {
        let last = self.n - 1;
        let solution = Solution::from_columns(self.columns.iter().map(|&c| u32::from(c)).collect());
        // The eight images, the identity first, by the board's own symmetry maps.
        let images: Vec<Solution> = Symmetry::ALL.iter().map(|s| s.apply(&solution)).collect();
        let key = |image: &Solution| {
            let first = image.columns()[0];
            std::cmp::Reverse(first.min(last - first))
        };
        let canonical = images
            .iter()
            .min_by(|a, b| {
                key(a)
                    .cmp(&key(b))
                    .then_with(|| a.columns().cmp(b.columns()))
            })
            .expect("eight images");
        if canonical == &solution {
            self.found.total += orbit_size(&solution) as u64;
            self.found.unique += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::counter::TaskList;
    use crate::engines::counter::kernel::{Scratch, solve_task};
    use crate::instances::oeis;

    /// Task by task, the plain recount finds what the counter finds, and the tasks add up
    /// to the published counts.
    #[test]
    fn the_plain_recount_agrees_with_the_counter_on_every_task() {
        let never = AtomicBool::new(false);
        let mut scratch = Scratch::default();
        for n in [5, 6, 8, 9, 11] {
            let list = TaskList::new(n);
            let (mut total, mut unique) = (0u128, 0u128);
            for id in list.ids() {
                let prefix = list.prefix(id);
                let plain = recount_task(n, prefix, &never).unwrap();
                let counter = solve_task(n, prefix, &mut scratch);
                assert_eq!(
                    (plain.total, plain.unique),
                    (counter.total, counter.unique),
                    "n = {n}, task {id}"
                );
                total += u128::from(plain.total);
                unique += u128::from(plain.unique);
            }
            assert_eq!(total, oeis::total(n).unwrap(), "n = {n}");
            assert_eq!(Some(unique), oeis::unique(n), "n = {n}");
        }
    }

    #[test]
    fn a_raised_stop_ends_the_recount() {
        let list = TaskList::new(12);
        let stop = AtomicBool::new(true);
        assert_eq!(recount_task(12, list.prefix(TaskId(0)), &stop), None);
    }
}
