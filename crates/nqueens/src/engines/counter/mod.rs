//! The record-class counter: all solutions (OEIS A000170) and the solutions up to symmetry
//! (A002562) of the n×n board, using the board's eight symmetries and many threads. This is
//! the counting search and its [`Engine`]; a long count as a job (checkpoints, shards, a
//! device, distributed runs) is `crate::runs`, which drives this search through its hooks.
//!
//! # What is counted
//!
//! Each symmetry class of solutions is counted once, through its *canonical* member, and
//! weighted by the size of the class (2, 4 or 8; 1 only for n = 1). Every solution has exactly
//! one queen on each of the four border lines (row 0, row n − 1, column 0, column n − 1), and
//! each of those queens stands some distance from the nearer corner of its line. The eight
//! symmetries permute the four border queens, so some image of every solution has, in row 0,
//! the border queen *farthest* from its corner, in the left half: that image is canonical (ties
//! between images broken lexicographically, `kernel::canonical_orbit`). Its row-0 column `b1`
//! names its *class*, and every other border queen is at most `b1` from a corner, so:
//!
//! - the queens of columns 0 and n − 1 stand in rows at most `b1` from the top or the bottom,
//!   and the last row's queen in a column at most `b1` from the left or the right;
//! - if `b1` is the middle column (n odd), the mirror image starts the same way, and the rule
//!   "row-1 queen in the left half" keeps one of each mirror pair;
//! - an image other than the identity can be canonical too only if it has a border queen `b1`
//!   from a corner in row 0, so only solutions with a queen on one of five *tie squares* (the
//!   side columns in rows `b1` and n − 1 − `b1`, the last row in column n − 1 − `b1`) can be
//!   non-canonical or have a class smaller than eight. A solution on none counts 8; one on a tie
//!   square goes through the exact check, which also finds the classes of 2 and 4.
//!
//! These rules are square masks per row ([`tasks::ClassRules`]), so the inner loop is a plain
//! counting loop over per-row masks that also records the queen of each row, with no symmetry
//! code in it. Why the *farthest* border queen: the largest class (`b1` next to the middle)
//! has no rule at all beyond its row-0 queen, so its tree is a plain subtree, as lean per
//! solution as the baseline's; the classes with small `b1`, whose rules cut late in the tree,
//! hold few solutions. (Takaken's 2003 program orders the other way, the *nearest* border queen
//! in row 0; there the big classes are the ones whose rules cut late. At n = 16 that order
//! visits 161 million nodes with this loop, this one 130 million; the baseline's full tree has
//! 1 141 million.)
//!
//! # The inner loop
//!
//! Bitboards as in [`crate::engines::backtrack`] (one `u64` each for used columns and the two diagonal
//! directions, shifted one square per row), with these changes, each measured: the masks of
//! the row being filled stay in registers and the explicit stack takes a frame only when the
//! search descends from a row that still has squares to try (m-queens' trick: the last
//! candidate of a row replaces its frame); before descending, the loop checks that each of the
//! next four rows still has a free square under the current masks (lookahead: a dead end costs
//! no push and no pop, and the rows' own class rules take part); bits at or above n are kept
//! set in the masks, so a row is exhausted when its mask is all ones and a solution is a
//! placement that fills every column, with no row counter compared. One node (one queen
//! placed) costs O(1) word operations and no allocation.
//!
//! Where the CPU has AVX2 and BMI2 (checked at run time), the same tree is searched by the
//! lanes loop (module `lanes`): the nodes of a row are kept in a batch, and each step places eight
//! queens at once in the lanes of one vector register, with no branch that depends on the
//! board. It visits exactly the same nodes (the tests compare both loops task by task, results
//! and node counts) and is 3 to 4 times faster per node; the one-board loop runs everywhere
//! else (and in WebAssembly).
//!
//! # Boards with fixed queens or blocked squares
//!
//! Such a board keeps few of the eight symmetries (usually none), so the class rules do not
//! apply as they are; module `masked` runs the same two loops under per-row masks of the
//! squares each row may take (the fixed queen's square, or every square neither blocked nor
//! attacked by a fixed queen), with tasks made by filling the first rows. Up to symmetry, such
//! a board counts the classes under the symmetries it keeps, with rules of the same kind
//! (module `grouped`: masks and tie squares for each row-0 column, the whole board's own
//! rules when it keeps all eight), so a unique count searches a fraction of the tree and
//! costs less than the total. Its count is the whole board's (module `work` holds either
//! list): threads, pieces and positions.
//!
//! # Tasks, threads, pieces: the hooks a long run drives
//!
//! The count is split into tasks by pre-placing the first rows ([`tasks`]: the same list, with
//! the same ids and fingerprint, for every run of one n; [`split`] splits it deeper). Worker
//! threads pull task ids from a shared counter and hand their results, in batches, to the
//! thread that runs the count, which adds them up (in `u128`, checked: module `ledger`) and reports
//! progress (module `drive`).
//!
//! At the record sizes a task lasts minutes to hours, so a task is counted in *pieces*
//! ([`pieces`]): both loops look at a stop flag every millisecond or so, a stopped task says how
//! many of its pieces it finished (its *position*), and a count can start a task from a
//! position. Tasks in flight report their pieces ten times a second, so progress moves from
//! the first second, and a model of every task's work ([`estimate`]) turns it into a share of
//! the work done and an ETA.
//!
//! These are the hooks `crate::runs` drives a long count through: the task list, pieces and
//! positions, the stop flag, and each task's result (`drive::Records`); there they go to
//! checkpoints, shards, a device's driver and distributed runs.
//!
//! # References
//!
//! Kenji Takahashi, *N-Queens Solutions* ver. 3.1 (2003): symmetry classes read off the border
//! queens, bounds on the border rows and columns, and the exact check of the few tied
//! solutions (this module orders the border queens the other way round). Jeff Somers (2002)
//! and sudden6's m-queens: bitboards with an explicit stack, and (m-queens) checking rows
//! beyond the next for a free square. Facts and figures from these are used here; the code is
//! this crate's own.

pub(crate) mod attacks;
mod descriptor;

pub(crate) mod drive;
pub mod estimate;
mod grouped;
pub mod kernel;
pub(crate) mod ledger;
mod masked;
pub mod pieces;
// Off x86-64 the lanes loop is never chosen (`lanes::available()` is false), so its buffers
// and board are built by nothing.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
mod lanes;
pub mod split;
pub mod tasks;
pub(crate) mod work;

use std::collections::HashMap;

use crate::board::Problem;
use crate::engine::{Counts, Descriptor, Engine, EngineError, Job, Limits, ProgressSink, Stats};
use drive::{NoRecords, Plan, Workers};
use work::Work;

pub use descriptor::{BACKTRACK_NODES_PER_SECOND, DESCRIPTOR};
pub use kernel::TaskResult;
pub use masked::BoardMark;
pub use pieces::{BadPosition, Partial, TaskEnd};
pub use split::{SplitList, TaskCounter};
pub use tasks::{Fingerprint, TaskId, TaskList};

/// The largest board the counter takes: its task list grows like n⁵, and no count beyond
/// n ≈ 30 would finish anyway.
pub const MAX_N: u32 = 32;

/// The counting engine. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Counter {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Where counts report progress.
    pub progress: Option<ProgressSink>,
    /// When to give up (time budget, stop flag, and a node budget over the queens this count
    /// places; checked at least every 100 ms): the loops stop within milliseconds.
    pub limits: Limits,
    /// Rows each piece of a task searches (module [`pieces`]): [`pieces::PIECE_ROWS`]; fewer
    /// cut small boards' tasks into pieces too (for tests). Positions saved with another value
    /// are not resumed: such tasks start over.
    pub piece_rows: usize,
    stats: Stats,
}

impl Default for Counter {
    fn default() -> Self {
        Counter::new(1)
    }
}

impl Counter {
    /// A counter with `threads` worker threads (0 is taken as 1).
    pub fn new(threads: usize) -> Self {
        Counter {
            threads: threads.max(1),
            progress: None,
            limits: Limits::default(),
            piece_rows: pieces::PIECE_ROWS,
            stats: Stats::default(),
        }
    }

    /// Records a count's figures as its [`Engine::stats`]: the queens it placed, the tasks it
    /// counted, and (where the CPU's loops ran) the boards each step searched (8 where the
    /// lanes loop ran, 1 for the one-board loop).
    pub(crate) fn record_stats(&mut self, nodes: u128, tasks: u64, lanes: Option<u32>) {
        self.stats = Stats::default();
        self.stats.set("nodes", nodes);
        self.stats.set("tasks", u128::from(tasks));
        if let Some(lanes) = lanes {
            self.stats.set("lanes", u128::from(lanes));
        }
    }
}

impl Engine for Counter {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn check(&self, job: Job, problem: &Problem) -> Result<(), EngineError> {
        let unsupported = |reason: &str| {
            Err(EngineError::Unsupported {
                method: self.name(),
                job,
                reason: reason.into(),
            })
        };
        match job {
            Job::Count | Job::CountUnique => {}
            Job::Solve | Job::List => {
                return unsupported(
                    "it only counts (it never builds the solutions); use backtrack",
                );
            }
        }
        crate::engine::check_size(self.name(), problem, MAX_N)
    }

    /// The whole board by symmetry classes; a board with fixed queens or blocked squares under
    /// per-row masks (module `masked`), up to the symmetries the board keeps; on the CPU
    /// threads (module `drive`).
    fn count(&mut self, problem: &Problem, unique: bool) -> Result<Counts, EngineError> {
        let job = if unique { Job::CountUnique } else { Job::Count };
        self.check(job, problem)?;
        self.count_work(&Work::of(problem, unique), unique)
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

impl Counter {
    /// Counts `work` on the CPU's threads (the count of [`Engine::count`], from its work).
    fn count_work(&mut self, work: &Work, unique: bool) -> Result<Counts, EngineError> {
        let n = work.n();
        let pending: Vec<TaskId> = work.ids().collect();
        let cut = pieces::cut_row(n, work.depth(), self.piece_rows);
        let plan = Plan {
            work,
            pending: &pending,
            from: &HashMap::new(),
            cut,
            sums: ledger::Sums::default(),
            tasks: work.len() as u64,
            model: None,
        };
        let driven = drive::drive(self, &plan, Workers::Threads, &mut NoRecords);
        match driven.end {
            Ok(None) => {}
            Ok(Some(reason)) => {
                // The tasks counted to their end before the stop.
                let found = driven.ledger.sums.total;
                return Err(EngineError::stopped_by(self.name(), reason, found));
            }
            Err(e) => return Err(EngineError::Failed(Box::new(e))),
        }
        let sums = driven.ledger.sums;
        let lanes = kernel::lanes_per_step(n, cut);
        self.record_stats(driven.ledger.new_nodes(), sums.done, Some(lanes));
        Ok(Counts {
            total: sums.total,
            unique: unique.then_some(sums.unique),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instances::oeis;

    #[test]
    fn small_boards_match_oeis_with_every_thread_count() {
        for threads in 1..=3 {
            let mut counter = Counter::new(threads);
            for n in 1..=12 {
                let problem = Problem::new(n).unwrap();
                let counts = counter.count(&problem, true).unwrap();
                assert_eq!(counts.total, oeis::total(n).unwrap(), "n = {n}");
                assert_eq!(counts.unique, oeis::unique(n), "n = {n}");
            }
        }
    }

    #[test]
    fn jobs_it_cannot_do_are_refused_up_front() {
        let counter = Counter::default();
        let problem = Problem::new(8).unwrap();
        assert!(counter.check(Job::List, &problem).is_err());
        assert!(counter.check(Job::Solve, &problem).is_err());
        let big = Problem::new(33).unwrap();
        assert_eq!(
            counter.check(Job::Count, &big).unwrap_err().to_string(),
            "the counter method handles n up to 32; n = 33 is too large"
        );
    }
}
