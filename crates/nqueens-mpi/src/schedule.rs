//! The coordinator's bookkeeping: which task went to which rank, which results are in, and how
//! big the next batch may be. Plain data, no threads and no messages, so every rule of the
//! schedule is tested here without MPI.
//!
//! # Exactly once
//!
//! Every task is in exactly one of three states: *pending* (not handed out, in id order),
//! *assigned* to one rank, or *done* (its result added, and recorded in the checkpoint by the
//! caller). A result is accepted only from the rank the task was assigned to, and only once:
//! anything else is a [`ScheduleError`], never a silent double count. Tasks read back from a
//! checkpoint start out done, so a resumed run hands out only the rest.
//!
//! # Positions
//!
//! A task stopped midway (module `pieces` of the counter) has a *position*: the pieces of its
//! tree done so far and what they held. The coordinator keeps the last one of every unfinished
//! task (read from the checkpoint, then as ranks report them), hands a task out with its
//! position so that the rank goes on from there (at most [`MAX_POSITIONED`] such tasks per
//! batch), and counts as this run's work only the queens placed beyond it.
//!
//! # Batches
//!
//! Ranks ask for several tasks at a time ([`Prefetch`]), so that their threads never wait on
//! the network. Near the end big batches would leave some ranks with a queue while others
//! idle, so the coordinator shrinks them (guided self-scheduling): a batch never takes more
//! than the pending tasks divided by twice the number of threads in the job, and at least one.

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use nqueens_solver::engines::counter::{Partial, TaskId, TaskResult};

/// The most tasks with a saved position one batch carries (six words each on the wire).
pub const MAX_POSITIONED: usize = 32;

/// A message that breaks the exactly-once rule (a bug or a mixed-up job, never a user error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScheduleError {
    /// A task id beyond the list.
    #[error("rank {rank} sent a result for task {id}, which the list of {len} tasks does not have")]
    UnknownTask {
        /// The sender.
        rank: usize,
        /// The id.
        id: TaskId,
        /// Tasks in the list.
        len: usize,
    },
    /// A result for a task that is not the sender's to count (another rank's, already done, or
    /// never handed out).
    #[error("rank {rank} sent a result for task {id}, which is not assigned to it ({state})")]
    NotAssigned {
        /// The sender.
        rank: usize,
        /// The id.
        id: TaskId,
        /// What the task is instead.
        state: &'static str,
    },
    /// A rank beyond the job.
    #[error("a message from rank {rank}, but the job has {ranks} ranks")]
    UnknownRank {
        /// The sender.
        rank: usize,
        /// Ranks in the job.
        ranks: usize,
    },
    /// A rank that says it is finished while it still has tasks.
    #[error("rank {rank} finished with {outstanding} of its tasks unanswered")]
    FinishedEarly {
        /// The sender.
        rank: usize,
        /// Its tasks without a result.
        outstanding: usize,
    },
    /// A sum beyond `u128`.
    #[error("the count overflowed 128 bits")]
    Overflow,
    /// A position that goes back (fewer pieces than one reported before).
    #[error(
        "rank {rank} sent a position of task {id} with {pieces} pieces, behind the {before} it had"
    )]
    Behind {
        /// The sender.
        rank: usize,
        /// The task.
        id: TaskId,
        /// Pieces in the position sent.
        pieces: u64,
        /// Pieces in the last position known.
        before: u64,
    },
}

/// Where a task stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Pending,
    Assigned(u32),
    Done,
}

/// Per-rank figures for `--stats`: what this run counted there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RankStats {
    /// Worker threads of the rank.
    pub threads: usize,
    /// Tasks it counted in this run.
    pub tasks: u64,
    /// Queens it placed in this run, in the tasks it finished.
    pub nodes: u128,
    /// Time its threads spent counting (summed over threads).
    pub busy: Duration,
}

/// Sums over done tasks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sums {
    /// Solutions.
    pub total: u128,
    /// Solutions up to symmetry.
    pub unique: u128,
    /// Queens placed.
    pub nodes: u128,
    /// Tasks done.
    pub done: u64,
}

impl Sums {
    fn add(&mut self, result: &TaskResult) -> Result<(), ScheduleError> {
        let add = |sum: u128, part: u64| {
            sum.checked_add(u128::from(part))
                .ok_or(ScheduleError::Overflow)
        };
        self.total = add(self.total, result.total)?;
        self.unique = add(self.unique, result.unique)?;
        self.nodes = add(self.nodes, result.nodes)?;
        self.done += 1;
        Ok(())
    }
}

/// The coordinator's state. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Coordinator {
    state: Vec<State>,
    pending: VecDeque<TaskId>,
    outstanding: Vec<usize>,
    ranks: Vec<RankStats>,
    sums: Sums,
    resumed: Sums,
    /// The last position of each unfinished task that has one.
    positions: HashMap<TaskId, Partial>,
    /// The queens in the position each task was handed out from (not this run's work).
    handed: HashMap<TaskId, u64>,
}

impl Coordinator {
    /// A coordinator for a list of `len` tasks and `ranks` ranks of `threads` threads each,
    /// with the results already recorded (from a checkpoint) done, and the tasks left in part
    /// to go on from `positions`.
    pub fn new(
        len: usize,
        ranks: usize,
        threads: usize,
        recorded: &[(TaskId, TaskResult)],
        positions: &[(TaskId, Partial)],
    ) -> Result<Self, ScheduleError> {
        let mut state = vec![State::Pending; len];
        let mut sums = Sums::default();
        for &(id, result) in recorded {
            match state.get_mut(id.index()) {
                Some(s @ State::Pending) => *s = State::Done,
                Some(_) => {
                    return Err(ScheduleError::NotAssigned {
                        rank: 0,
                        id,
                        state: "recorded twice",
                    });
                }
                None => return Err(ScheduleError::UnknownTask { rank: 0, id, len }),
            }
            sums.add(&result)?;
        }
        let pending = (0..len as u32)
            .map(TaskId)
            .filter(|id| state[id.index()] == State::Pending)
            .collect();
        let positions = positions
            .iter()
            .filter(|(id, _)| state.get(id.index()) == Some(&State::Pending))
            .copied()
            .collect();
        Ok(Coordinator {
            state,
            pending,
            outstanding: vec![0; ranks],
            ranks: vec![
                RankStats {
                    threads,
                    ..RankStats::default()
                };
                ranks
            ],
            sums,
            resumed: sums,
            positions,
            handed: HashMap::new(),
        })
    }

    fn check_rank(&self, rank: usize) -> Result<(), ScheduleError> {
        if rank < self.outstanding.len() {
            Ok(())
        } else {
            Err(ScheduleError::UnknownRank {
                rank,
                ranks: self.outstanding.len(),
            })
        }
    }

    /// Notes the thread count a rank reports (ranks may differ: `--threads` defaults to each
    /// machine's cores).
    pub fn set_threads(&mut self, rank: usize, threads: usize) -> Result<(), ScheduleError> {
        self.check_rank(rank)?;
        self.ranks[rank].threads = threads;
        Ok(())
    }

    /// Hands up to `want` pending tasks to `rank`, each with its position if it has one
    /// (fewer near the end, and no more than [`MAX_POSITIONED`] with positions; none once
    /// every task is handed out).
    pub fn assign(
        &mut self,
        rank: usize,
        want: usize,
    ) -> Result<Vec<(TaskId, Option<Partial>)>, ScheduleError> {
        self.check_rank(rank)?;
        let threads: usize = self.ranks.iter().map(|r| r.threads.max(1)).sum();
        let cap = (self.pending.len() / (2 * threads)).max(1);
        let take = want.min(cap).min(self.pending.len());
        let mut batch = Vec::with_capacity(take);
        let mut positioned = 0;
        while batch.len() < take {
            let Some(&id) = self.pending.front() else {
                break;
            };
            let from = self.positions.get(&id).copied();
            if from.is_some() {
                if positioned == MAX_POSITIONED {
                    break;
                }
                positioned += 1;
                self.handed.insert(id, from.map_or(0, |p| p.found.nodes));
            }
            self.pending.pop_front();
            self.state[id.index()] = State::Assigned(rank as u32);
            batch.push((id, from));
        }
        self.outstanding[rank] += batch.len();
        Ok(batch)
    }

    /// Notes where task `id`, which `rank` holds, has got.
    pub fn moved(&mut self, rank: usize, id: TaskId, now: Partial) -> Result<(), ScheduleError> {
        self.holds(rank, id)?;
        if let Some(before) = self.positions.get(&id) {
            if before.cut == now.cut && now.pieces < before.pieces {
                return Err(ScheduleError::Behind {
                    rank,
                    id,
                    pieces: now.pieces,
                    before: before.pieces,
                });
            }
        }
        self.positions.insert(id, now);
        Ok(())
    }

    /// Checks that `rank` holds task `id`.
    fn holds(&self, rank: usize, id: TaskId) -> Result<(), ScheduleError> {
        self.check_rank(rank)?;
        let len = self.state.len();
        let state = self
            .state
            .get(id.index())
            .ok_or(ScheduleError::UnknownTask { rank, id, len })?;
        let refuse = |state| Err(ScheduleError::NotAssigned { rank, id, state });
        match *state {
            State::Assigned(owner) if owner as usize == rank => Ok(()),
            State::Assigned(_) => refuse("it is another rank's"),
            State::Done => refuse("it is already counted"),
            State::Pending => refuse("it was never handed out"),
        }
    }

    /// Unfinished tasks with a position: tasks some run left in part.
    pub fn in_part(&self) -> u64 {
        self.positions.values().filter(|p| p.pieces > 0).count() as u64
    }

    /// Adds the result of task `id` counted by `rank` (which must hold it); busy is the time
    /// the task took.
    pub fn complete(
        &mut self,
        rank: usize,
        id: TaskId,
        result: &TaskResult,
        busy: Duration,
    ) -> Result<(), ScheduleError> {
        self.holds(rank, id)?;
        self.sums.add(result)?;
        self.state[id.index()] = State::Done;
        self.positions.remove(&id);
        let before = self.handed.remove(&id).unwrap_or(0);
        self.outstanding[rank] -= 1;
        let stats = &mut self.ranks[rank];
        stats.tasks += 1;
        stats.nodes += u128::from(result.nodes.saturating_sub(before));
        stats.busy += busy;
        Ok(())
    }

    /// Checks that a rank that says it is finished holds no task.
    pub fn finished(&self, rank: usize) -> Result<(), ScheduleError> {
        self.check_rank(rank)?;
        match self.outstanding[rank] {
            0 => Ok(()),
            outstanding => Err(ScheduleError::FinishedEarly { rank, outstanding }),
        }
    }

    /// Whether every task is handed out.
    pub fn exhausted(&self) -> bool {
        self.pending.is_empty()
    }

    /// Whether every task is done.
    pub fn is_complete(&self) -> bool {
        self.sums.done as usize == self.state.len()
    }

    /// Sums over all done tasks, resumed ones included.
    pub fn sums(&self) -> Sums {
        self.sums
    }

    /// Sums over the tasks read back from the checkpoint.
    pub fn resumed(&self) -> Sums {
        self.resumed
    }

    /// Per-rank figures of this run.
    pub fn rank_stats(&self) -> &[RankStats] {
        &self.ranks
    }

    /// Queens placed by this run in the tasks it finished (beyond the positions they were
    /// handed out from).
    pub fn new_nodes(&self) -> u128 {
        self.ranks.iter().map(|r| r.nodes).sum()
    }
}

/// How many tasks a rank asks for, and when. A rank asks when fewer than `depth` tasks per
/// thread are queued and no request is on its way, for enough to fill its queue to twice that.
/// The depth starts at 2 and adapts ([`observe`](Self::observe)) so that the queue outlasts
/// two round trips to the coordinator: small tasks far away need a deeper queue, long tasks a
/// shallow one (which also keeps the end of the count balanced).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefetch {
    threads: usize,
    depth: usize,
}

impl Prefetch {
    /// The deepest queue, in tasks per thread.
    pub const MAX_DEPTH: usize = 64;

    /// The policy of a rank of `threads` threads (0 is taken as 1).
    pub fn new(threads: usize) -> Self {
        Prefetch {
            threads: threads.max(1),
            depth: 2,
        }
    }

    /// Tasks queued per thread below which the rank asks for more.
    pub fn depth(self) -> usize {
        self.depth
    }

    /// Tasks to ask for with `queued` tasks not yet started (0: do not ask).
    pub fn want(self, queued: usize) -> usize {
        let low = self.depth * self.threads;
        if queued < low { 2 * low - queued } else { 0 }
    }

    /// Adapts the depth to a measured round trip (request sent to batch received) and the
    /// mean time of a task.
    pub fn observe(&mut self, round_trip: Duration, mean_task: Duration) {
        if mean_task.is_zero() {
            self.depth = Self::MAX_DEPTH;
            return;
        }
        let tasks = (2.0 * round_trip.as_secs_f64() / mean_task.as_secs_f64()).ceil();
        self.depth = (tasks as usize).clamp(2, Self::MAX_DEPTH);
    }
}

/// The load-balance efficiency of a run: busy time over all threads divided by the threads
/// times the wall time (1 when no thread ever waited).
pub fn efficiency(ranks: &[RankStats], wall: Duration) -> f64 {
    let threads: usize = ranks.iter().map(|r| r.threads).sum();
    let busy: f64 = ranks.iter().map(|r| r.busy.as_secs_f64()).sum();
    let capacity = threads as f64 * wall.as_secs_f64();
    if capacity > 0.0 { busy / capacity } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(total: u64) -> TaskResult {
        TaskResult {
            total,
            unique: total / 8,
            nodes: 10 * total,
        }
    }

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn every_task_is_handed_out_once_and_counted_once() {
        let mut c = Coordinator::new(100, 3, 1, &[], &[]).unwrap();
        let mut seen = vec![0; 100];
        let mut round = 0;
        while !c.exhausted() {
            let rank = round % 3;
            round += 1;
            for (id, _) in c.assign(rank, 4).unwrap() {
                seen[id.index()] += 1;
                c.complete(rank, id, &result(8), MS).unwrap();
            }
        }
        assert!(seen.iter().all(|&s| s == 1));
        assert!(c.is_complete());
        assert_eq!(c.sums().total, 800);
        assert_eq!(c.sums().done, 100);
        assert_eq!(c.assign(0, 4).unwrap(), []);
        let tasks: u64 = c.rank_stats().iter().map(|r| r.tasks).sum();
        assert_eq!(tasks, 100);
        for rank in 0..3 {
            c.finished(rank).unwrap();
        }
    }

    #[test]
    fn results_that_are_not_the_senders_are_refused() {
        let mut c = Coordinator::new(10, 2, 1, &[], &[]).unwrap();
        let mine = c.assign(0, 2).unwrap();
        assert_eq!(mine, [(TaskId(0), None), (TaskId(1), None)]);
        let err = c.complete(1, TaskId(0), &result(8), MS).unwrap_err();
        assert_eq!(
            err.to_string(),
            "rank 1 sent a result for task 0, which is not assigned to it (it is another rank's)"
        );
        c.complete(0, TaskId(0), &result(8), MS).unwrap();
        let twice = c.complete(0, TaskId(0), &result(8), MS).unwrap_err();
        assert!(matches!(
            twice,
            ScheduleError::NotAssigned {
                state: "it is already counted",
                ..
            }
        ));
        let never = c.complete(0, TaskId(5), &result(8), MS).unwrap_err();
        assert!(matches!(
            never,
            ScheduleError::NotAssigned {
                state: "it was never handed out",
                ..
            }
        ));
        assert!(matches!(
            c.complete(0, TaskId(10), &result(8), MS),
            Err(ScheduleError::UnknownTask { .. })
        ));
        assert!(matches!(
            c.assign(2, 1),
            Err(ScheduleError::UnknownRank { .. })
        ));
        assert_eq!(c.sums().total, 8, "only the one good result counts");
        assert_eq!(
            c.finished(0),
            Err(ScheduleError::FinishedEarly {
                rank: 0,
                outstanding: 1
            })
        );
    }

    #[test]
    fn a_resumed_run_hands_out_only_the_rest() {
        let recorded = [(TaskId(1), result(16)), (TaskId(3), result(8))];
        let mut c = Coordinator::new(5, 1, 1, &recorded, &[]).unwrap();
        assert_eq!(c.resumed().done, 2);
        assert_eq!(c.resumed().total, 24);
        let mut ids = Vec::new();
        while !c.exhausted() {
            ids.extend(c.assign(0, 1).unwrap().into_iter().map(|(id, _)| id));
        }
        assert_eq!(ids, [TaskId(0), TaskId(2), TaskId(4)]);
        for id in ids {
            c.complete(0, id, &result(8), MS).unwrap();
        }
        assert!(c.is_complete());
        assert_eq!(c.sums().total, 48);
        assert_eq!(
            c.rank_stats()[0].tasks,
            3,
            "resumed tasks are not this run's"
        );
        // A checkpoint naming a task twice or beyond the list is refused.
        assert!(Coordinator::new(5, 1, 1, &[(TaskId(1), result(8)); 2], &[]).is_err());
        assert!(Coordinator::new(5, 1, 1, &[(TaskId(5), result(8))], &[]).is_err());
    }

    /// Tasks left in part go out with their positions (a few per batch), their queens before
    /// the position are not this run's work, and positions only go forward.
    #[test]
    fn tasks_left_in_part_go_on_from_their_positions() {
        let at = |pieces: u64| Partial {
            cut: 9,
            pieces,
            found: TaskResult {
                total: 8,
                unique: 1,
                nodes: 100 * pieces,
            },
        };
        let positions: Vec<(TaskId, Partial)> = (0..40).map(|i| (TaskId(i), at(2))).collect();
        let recorded = [(TaskId(3), result(8))];
        let mut c = Coordinator::new(50, 2, 1, &recorded, &positions).unwrap();
        assert_eq!(c.in_part(), 39, "the recorded task's position is dropped");
        let first = c.assign(0, 40).unwrap();
        assert_eq!(
            first.len(),
            12,
            "capped near the end: 49 pending / (2 · 2 threads)"
        );
        assert!(first.iter().all(|(_, from)| *from == Some(at(2))));
        let mut all = first.clone();
        while !c.exhausted() {
            let batch = c.assign(1, 256).unwrap();
            assert!(batch.iter().filter(|(_, f)| f.is_some()).count() <= MAX_POSITIONED);
            all.extend(batch);
        }
        assert_eq!(all.iter().filter(|(_, f)| f.is_some()).count(), 39);
        // Moving on: forward only, and only by the rank that holds the task.
        c.moved(0, TaskId(0), at(5)).unwrap();
        assert!(matches!(
            c.moved(0, TaskId(0), at(4)),
            Err(ScheduleError::Behind {
                pieces: 4,
                before: 5,
                ..
            })
        ));
        assert!(c.moved(1, TaskId(0), at(6)).is_err());
        // The task's result counts in full; this run placed only what lay beyond its start.
        let whole = TaskResult {
            total: 16,
            unique: 2,
            nodes: 1000,
        };
        c.complete(0, TaskId(0), &whole, MS).unwrap();
        assert_eq!(c.sums().nodes, 1000 + 10 * 8);
        assert_eq!(c.new_nodes(), 1000 - 200);
        assert_eq!(c.in_part(), 38);
    }

    #[test]
    fn batches_shrink_near_the_end() {
        // 2 ranks × 2 threads: a batch takes at most pending / 8.
        let mut c = Coordinator::new(1000, 2, 2, &[], &[]).unwrap();
        assert_eq!(c.assign(0, 8).unwrap().len(), 8);
        assert_eq!(c.assign(0, 500).unwrap().len(), 124);
        while c.pending.len() > 10 {
            c.assign(1, 1000).unwrap();
        }
        assert_eq!(c.assign(1, 8).unwrap().len(), 1);
    }

    #[test]
    fn prefetch_covers_two_round_trips() {
        let mut p = Prefetch::new(4);
        assert_eq!(p.want(0), 16);
        assert_eq!(p.want(7), 9);
        assert_eq!(p.want(8), 0);
        assert_eq!(Prefetch::new(0).want(0), 4);
        // Tasks of 0.1 ms against a round trip of 2 ms: 40 tasks per thread.
        p.observe(2 * MS, Duration::from_micros(100));
        assert_eq!(p.depth(), 40);
        assert_eq!(p.want(0), 320);
        // Long tasks: the floor of two per thread.
        p.observe(2 * MS, Duration::from_secs(1));
        assert_eq!(p.depth(), 2);
        p.observe(2 * MS, Duration::ZERO);
        assert_eq!(p.depth(), Prefetch::MAX_DEPTH);
    }

    #[test]
    fn efficiency_is_busy_over_capacity() {
        let ranks = [
            RankStats {
                threads: 2,
                busy: Duration::from_secs(18),
                ..RankStats::default()
            },
            RankStats {
                threads: 2,
                busy: Duration::from_secs(20),
                ..RankStats::default()
            },
        ];
        let e = efficiency(&ranks, Duration::from_secs(10));
        assert!((e - 0.95).abs() < 1e-12);
        assert_eq!(efficiency(&ranks, Duration::ZERO), 0.0);
    }
}
