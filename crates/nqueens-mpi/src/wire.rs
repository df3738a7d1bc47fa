//! The two messages of the protocol, as arrays of `u64` (the one MPI datatype both ends agree
//! on without derive macros).
//!
//! - A rank to the coordinator, [`Report`]: `[fingerprint, threads, want, phase, k, m]`
//!   followed by k results of five words each, `[id, total, unique, nodes, busy in ns]`, and m
//!   positions of six, `[id, cut, pieces, total, unique, nodes]` (where a task in flight has
//!   got: its first `pieces` pieces of its tree cut at row `cut` are done and hold the three
//!   numbers). The phase says whether the rank goes on counting (0), has finished every task
//!   it was given (1), or has stopped (2: Ctrl-C or a stop from rank 0; its unfinished tasks
//!   are left where the positions say). Every message carries the task list's fingerprint, so
//!   a rank that built another list (another version of the program on some node, another
//!   `--split-depth`) is refused at once.
//! - The coordinator to a rank, [`Batch`]: `[k, id × k, m, position × m]`, k task ids and the
//!   positions of the m of them that an earlier run left in part (six words each, as above);
//!   an empty batch means that every task is handed out and the rank may finish once its own
//!   are done; `[u64::MAX]` tells the rank to stop and send where its tasks got.
//!
//! Both stay small (a report carries at most [`MAX_ENTRY_WORDS`] words of results and
//! positions, a batch at most [`MAX_BATCH`] ids and [`MAX_POSITIONED`] positions, all under
//! 4 KiB), so MPI sends them eagerly and a blocking send never waits for the other side to post
//! its receive. It may wait for the other side's MPI library to take the message in (Open MPI's
//! shared-memory transport hands the buffer back then), so no rank stops calling into MPI before
//! the job ends: a stopped rank keeps taking messages while it waits for rank 0 to end it.

use std::time::Duration;

use nqueens_solver::engines::counter::pieces::MAX_ROWS;
use nqueens_solver::engines::counter::{Fingerprint, Partial, TaskId, TaskResult};

use crate::pool::Done;
pub use crate::schedule::MAX_POSITIONED;

/// The most results one report carries (when it carries no position).
pub const MAX_RESULTS: usize = 96;

/// The most words of results and positions one report carries: [`MAX_RESULTS`] results.
pub const MAX_ENTRY_WORDS: usize = MAX_RESULTS * RESULT;

/// The most ids one batch carries.
pub const MAX_BATCH: usize = 256;

const HEADER: usize = 6;
const RESULT: usize = 5;
const POSITION: usize = 6;

/// The one-word batch that stops a rank.
const STOP: u64 = u64::MAX;

/// A malformed message (mixed-up jobs or a bug, never user input).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WireError {
    /// A message whose length does not fit its header.
    #[error("a message of {0} words that is not a report")]
    Malformed(usize),
    /// A rank that counts another task list.
    #[error("a rank counts task list {theirs}, not {ours} (another version or other options?)")]
    OtherList {
        /// The coordinator's list.
        ours: Fingerprint,
        /// The rank's.
        theirs: Fingerprint,
    },
    /// A task id beyond the list.
    #[error("task {id} is not in the list of {len} tasks")]
    UnknownTask {
        /// The id.
        id: u64,
        /// Tasks in the list.
        len: usize,
    },
}

/// Where a rank stands, as its report says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// It goes on counting.
    Counting,
    /// Every task it was given is in this report or an earlier one.
    Finished,
    /// It has stopped: the tasks it holds without a result are left where its positions say.
    Stopped,
}

/// What a rank tells the coordinator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The rank's task list.
    pub fingerprint: Fingerprint,
    /// Its worker threads.
    pub threads: usize,
    /// Tasks it asks for (0: none).
    pub want: usize,
    /// Whether it goes on.
    pub phase: Phase,
    /// Finished tasks.
    pub results: Vec<Done>,
    /// Where tasks in flight have got.
    pub positions: Vec<(TaskId, Partial)>,
}

impl Report {
    /// The message.
    pub fn encode(&self) -> Vec<u64> {
        let mut words = Vec::with_capacity(
            HEADER + RESULT * self.results.len() + POSITION * self.positions.len(),
        );
        let phase = match self.phase {
            Phase::Counting => 0,
            Phase::Finished => 1,
            Phase::Stopped => 2,
        };
        words.extend([
            self.fingerprint.0,
            self.threads as u64,
            self.want as u64,
            phase,
            self.results.len() as u64,
            self.positions.len() as u64,
        ]);
        for done in &self.results {
            words.extend([
                u64::from(done.id.0),
                done.result.total,
                done.result.unique,
                done.result.nodes,
                u64::try_from(done.busy.as_nanos()).unwrap_or(u64::MAX),
            ]);
        }
        for (id, partial) in &self.positions {
            words.extend(position_words(*id, partial));
        }
        words
    }

    /// Reads a message of a rank counting a list of `len` tasks with this fingerprint.
    pub fn decode(words: &[u64], ours: Fingerprint, len: usize) -> Result<Report, WireError> {
        let malformed = || WireError::Malformed(words.len());
        let (header, body) = words.split_at_checked(HEADER).ok_or_else(malformed)?;
        let theirs = Fingerprint(header[0]);
        if theirs != ours {
            return Err(WireError::OtherList { ours, theirs });
        }
        let count = |word: u64| usize::try_from(word).ok().filter(|&c| c <= MAX_ENTRY_WORDS);
        let (k, m) = count(header[4])
            .zip(count(header[5]))
            .ok_or_else(malformed)?;
        let entries = RESULT * k + POSITION * m;
        if entries > MAX_ENTRY_WORDS || body.len() != entries {
            return Err(malformed());
        }
        let phase = match header[3] {
            0 => Phase::Counting,
            1 => Phase::Finished,
            2 => Phase::Stopped,
            _ => return Err(malformed()),
        };
        let (results, positions) = body.split_at(RESULT * k);
        let results = results
            .chunks_exact(RESULT)
            .map(|r| {
                Ok(Done {
                    id: task_id(r[0], len)?,
                    result: TaskResult {
                        total: r[1],
                        unique: r[2],
                        nodes: r[3],
                    },
                    busy: Duration::from_nanos(r[4]),
                })
            })
            .collect::<Result<_, WireError>>()?;
        let positions = positions
            .chunks_exact(POSITION)
            .map(|p| position(p, len, malformed))
            .collect::<Result<_, WireError>>()?;
        Ok(Report {
            fingerprint: theirs,
            threads: usize::try_from(header[1]).map_err(|_| malformed())?,
            want: usize::try_from(header[2]).map_err(|_| malformed())?,
            phase,
            results,
            positions,
        })
    }

    /// Splits `results` and `positions` into reports that each fit a message, in order; the
    /// last one says `phase` and asks for `want` tasks, the others go on counting and ask for
    /// none. At least one report, even with nothing to carry.
    pub fn split(
        fingerprint: Fingerprint,
        threads: usize,
        want: usize,
        phase: Phase,
        mut results: Vec<Done>,
        mut positions: Vec<(TaskId, Partial)>,
    ) -> Vec<Report> {
        let mut reports = Vec::new();
        loop {
            let take_results = results.len().min(MAX_RESULTS);
            let room = (MAX_ENTRY_WORDS - RESULT * take_results) / POSITION;
            let take_positions = positions.len().min(room);
            let last = take_results == results.len() && take_positions == positions.len();
            reports.push(Report {
                fingerprint,
                threads,
                want: if last { want } else { 0 },
                phase: if last { phase } else { Phase::Counting },
                results: results.drain(..take_results).collect(),
                positions: positions.drain(..take_positions).collect(),
            });
            if last {
                return reports;
            }
        }
    }
}

/// A position as six words.
fn position_words(id: TaskId, partial: &Partial) -> [u64; POSITION] {
    let found = &partial.found;
    [
        u64::from(id.0),
        u64::from(partial.cut),
        partial.pieces,
        found.total,
        found.unique,
        found.nodes,
    ]
}

/// The position in six words, of a task of a list of `len` tasks; `malformed` if its cut row
/// is beyond any board's.
fn position(
    words: &[u64],
    len: usize,
    malformed: impl Fn() -> WireError,
) -> Result<(TaskId, Partial), WireError> {
    let id = task_id(words[0], len)?;
    let cut = u32::try_from(words[1])
        .ok()
        .filter(|&c| c as usize <= MAX_ROWS)
        .ok_or_else(malformed)?;
    let found = TaskResult {
        total: words[3],
        unique: words[4],
        nodes: words[5],
    };
    let pieces = words[2];
    Ok((id, Partial { cut, pieces, found }))
}

fn task_id(word: u64, len: usize) -> Result<TaskId, WireError> {
    match u32::try_from(word) {
        Ok(id) if (id as usize) < len => Ok(TaskId(id)),
        _ => Err(WireError::UnknownTask { id: word, len }),
    }
}

/// What rank 0 sends a rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Batch {
    /// Tasks to count, each from its start or from where an earlier run left it; none when
    /// every task is handed out.
    Tasks(Vec<(TaskId, Option<Partial>)>),
    /// Stop, and send where the tasks in flight got.
    Stop,
}

impl Batch {
    /// The message.
    pub fn encode(&self) -> Vec<u64> {
        let tasks = match self {
            Batch::Stop => return vec![STOP],
            Batch::Tasks(tasks) => tasks,
        };
        let mut words = Vec::with_capacity(2 + tasks.len() + POSITION * MAX_POSITIONED);
        words.push(tasks.len() as u64);
        words.extend(tasks.iter().map(|(id, _)| u64::from(id.0)));
        let positioned: Vec<_> = tasks
            .iter()
            .filter_map(|(id, from)| Some((*id, (*from)?)))
            .collect();
        words.push(positioned.len() as u64);
        for (id, partial) in positioned {
            words.extend(position_words(id, &partial));
        }
        words
    }

    /// Reads a batch for a list of `len` tasks.
    pub fn decode(words: &[u64], len: usize) -> Result<Batch, WireError> {
        if words == [STOP] {
            return Ok(Batch::Stop);
        }
        let malformed = || WireError::Malformed(words.len());
        let k = words
            .first()
            .and_then(|&k| usize::try_from(k).ok())
            .filter(|&k| k <= MAX_BATCH)
            .ok_or_else(malformed)?;
        let ids = words.get(1..1 + k).ok_or_else(malformed)?;
        let m = words
            .get(1 + k)
            .and_then(|&m| usize::try_from(m).ok())
            .filter(|&m| m <= MAX_POSITIONED.min(k))
            .ok_or_else(malformed)?;
        let rest = &words[2 + k..];
        if rest.len() != POSITION * m {
            return Err(malformed());
        }
        let mut tasks: Vec<(TaskId, Option<Partial>)> = ids
            .iter()
            .map(|&w| Ok((task_id(w, len)?, None)))
            .collect::<Result<_, WireError>>()?;
        for words in rest.chunks_exact(POSITION) {
            let (id, partial) = position(words, len, malformed)?;
            let task = tasks
                .iter_mut()
                .find(|(task, from)| *task == id && from.is_none())
                .ok_or_else(malformed)?;
            task.1 = Some(partial);
        }
        Ok(Batch::Tasks(tasks))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn partial(pieces: u64) -> Partial {
        Partial {
            cut: 9,
            pieces,
            found: TaskResult {
                total: 8 * pieces,
                unique: pieces,
                nodes: 1000 * pieces,
            },
        }
    }

    fn done(id: u32) -> Done {
        Done {
            id: TaskId(id),
            result: TaskResult {
                total: 16,
                unique: 2,
                nodes: 999,
            },
            busy: Duration::from_micros(1500),
        }
    }

    #[test]
    fn reports_and_batches_round_trip() {
        let report = Report {
            fingerprint: Fingerprint(0xfeed),
            threads: 3,
            want: 12,
            phase: Phase::Stopped,
            results: vec![done(7)],
            positions: vec![(TaskId(5), partial(4)), (TaskId(2), partial(1))],
        };
        let words = report.encode();
        assert_eq!(words.len(), 6 + 5 + 12);
        assert_eq!(Report::decode(&words, Fingerprint(0xfeed), 8), Ok(report));
        let tasks = vec![
            (TaskId(0), None),
            (TaskId(5), Some(partial(3))),
            (TaskId(6), None),
        ];
        let batch = Batch::Tasks(tasks);
        assert_eq!(batch.encode(), [3, 0, 5, 6, 1, 5, 9, 3, 24, 3, 3000]);
        assert_eq!(Batch::decode(&batch.encode(), 7), Ok(batch));
        assert_eq!(Batch::decode(&Batch::Stop.encode(), 7), Ok(Batch::Stop));
        let exhausted = Batch::Tasks(Vec::new());
        assert_eq!(Batch::decode(&exhausted.encode(), 7), Ok(exhausted));
    }

    #[test]
    fn the_largest_messages_stay_under_4_kib() {
        let results: Vec<Done> = (0..200).map(done).collect();
        let positions: Vec<_> = (0..300).map(|i| (TaskId(i), partial(1))).collect();
        let reports = Report::split(
            Fingerprint(1),
            4,
            7,
            Phase::Stopped,
            results.clone(),
            positions.clone(),
        );
        // Everything once, in order; only the last asks and says it stopped.
        let back: Vec<Done> = reports.iter().flat_map(|r| r.results.clone()).collect();
        let placed: Vec<_> = reports.iter().flat_map(|r| r.positions.clone()).collect();
        assert_eq!((back, placed), (results, positions));
        for (i, report) in reports.iter().enumerate() {
            let last = i + 1 == reports.len();
            assert_eq!(report.phase == Phase::Stopped, last);
            assert_eq!(report.want, if last { 7 } else { 0 });
            let words = report.encode();
            assert!(8 * words.len() < 4096, "{} words", words.len());
            assert_eq!(
                Report::decode(&words, Fingerprint(1), 300).as_ref(),
                Ok(report)
            );
        }
        let empty = Report::split(Fingerprint(1), 4, 0, Phase::Finished, vec![], vec![]);
        assert_eq!(empty.len(), 1);
        let tasks: Vec<_> = (0..MAX_BATCH as u32)
            .map(|i| (TaskId(i), (i < MAX_POSITIONED as u32).then(|| partial(2))))
            .collect();
        let words = Batch::Tasks(tasks).encode();
        assert!(8 * words.len() < 4096, "{} words", words.len());
    }

    #[test]
    fn bad_messages_are_refused() {
        let ours = Fingerprint(1);
        let good = Report {
            fingerprint: ours,
            threads: 1,
            want: 0,
            phase: Phase::Finished,
            results: Vec::new(),
            positions: Vec::new(),
        };
        let mut other = good.clone();
        other.fingerprint = Fingerprint(2);
        assert_eq!(
            Report::decode(&other.encode(), ours, 8),
            Err(WireError::OtherList {
                ours,
                theirs: Fingerprint(2)
            })
        );
        assert_eq!(
            Report::decode(&[1, 1], ours, 8),
            Err(WireError::Malformed(2))
        );
        let mut short = good.encode();
        short[4] = 1;
        assert_eq!(
            Report::decode(&short, ours, 8),
            Err(WireError::Malformed(6))
        );
        let mut beyond = good.encode();
        beyond[4] = 1;
        beyond.extend([8, 0, 0, 0, 0]);
        assert_eq!(
            Report::decode(&beyond, ours, 8),
            Err(WireError::UnknownTask { id: 8, len: 8 })
        );
        let mut phase = good.encode();
        phase[3] = 3;
        assert!(Report::decode(&phase, ours, 8).is_err());
        let mut cut = good.encode();
        cut[5] = 1;
        cut.extend([1, 33, 0, 0, 0, 0]);
        assert!(
            Report::decode(&cut, ours, 8).is_err(),
            "a cut below any board"
        );
        // A batch: ids beyond the list, too many, positions of tasks not in it.
        assert!(Batch::decode(&[2, 3, 9, 0], 8).is_err());
        assert!(Batch::decode(&[MAX_BATCH as u64 + 1], 8).is_err());
        assert!(Batch::decode(&[1, 3, 1, 4, 9, 1, 0, 0, 0], 8).is_err());
        assert!(Batch::decode(&[1, 3, 0, 7], 8).is_err());
        // Seeded garbage never panics.
        let mut rng = nqueens_support::SplitMix64::new(18);
        for len in 0..400 {
            let words: Vec<u64> = (0..len % 23).map(|_| rng.next_u64() % 11).collect();
            let x = rng.next_u64();
            let _ = Report::decode(&words, Fingerprint(x % 3), 8);
            let _ = Batch::decode(&words, 8);
        }
    }
}
