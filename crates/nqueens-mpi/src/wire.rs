//! The two messages of the protocol, as arrays of `u64` (the one MPI datatype both ends agree
//! on without derive macros).
//!
//! - A rank to the coordinator, [`Report`]: `[fingerprint, threads, want, finished, k]`
//!   followed by k results of five words each, `[id, total, unique, nodes, busy in ns]`. Every
//!   message carries the task list's fingerprint, so a rank that built another list (another
//!   version of the program on some node, another `--split-depth`) is refused at once.
//! - The coordinator to a rank: a batch of task ids; an empty batch means that every task is
//!   handed out and the rank may finish once its own are done.
//!
//! Both stay small (a report carries at most [`MAX_RESULTS`] results, a batch at most
//! [`MAX_BATCH`] ids, both under 4 KiB), so MPI sends them eagerly and a blocking send never
//! waits for the other side to post its receive.

use std::time::Duration;

use nqueens::engines::counter::{Fingerprint, TaskId, TaskResult};

use crate::pool::Done;

/// The most results one report carries.
pub const MAX_RESULTS: usize = 96;

/// The most ids one batch carries.
pub const MAX_BATCH: usize = 256;

const HEADER: usize = 5;
const RESULT: usize = 5;

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

/// What a rank tells the coordinator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The rank's task list.
    pub fingerprint: Fingerprint,
    /// Its worker threads.
    pub threads: usize,
    /// Tasks it asks for (0: none).
    pub want: usize,
    /// Whether it is done: every task handed to it is in this or an earlier report.
    pub finished: bool,
    /// Finished tasks.
    pub results: Vec<Done>,
}

impl Report {
    /// The message.
    pub fn encode(&self) -> Vec<u64> {
        let mut words = Vec::with_capacity(HEADER + RESULT * self.results.len());
        words.extend([
            self.fingerprint.0,
            self.threads as u64,
            self.want as u64,
            u64::from(self.finished),
            self.results.len() as u64,
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
        let k = usize::try_from(header[4]).map_err(|_| malformed())?;
        if header[3] > 1 || k > MAX_RESULTS || body.len() != RESULT * k {
            return Err(malformed());
        }
        let results = body
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
        Ok(Report {
            fingerprint: theirs,
            threads: usize::try_from(header[1]).map_err(|_| malformed())?,
            want: usize::try_from(header[2]).map_err(|_| malformed())?,
            finished: header[3] == 1,
            results,
        })
    }
}

fn task_id(word: u64, len: usize) -> Result<TaskId, WireError> {
    match u32::try_from(word) {
        Ok(id) if (id as usize) < len => Ok(TaskId(id)),
        _ => Err(WireError::UnknownTask { id: word, len }),
    }
}

/// A batch as a message.
pub fn encode_batch(ids: &[TaskId]) -> Vec<u64> {
    ids.iter().map(|id| u64::from(id.0)).collect()
}

/// Reads a batch for a list of `len` tasks.
pub fn decode_batch(words: &[u64], len: usize) -> Result<Vec<TaskId>, WireError> {
    if words.len() > MAX_BATCH {
        return Err(WireError::Malformed(words.len()));
    }
    words.iter().map(|&w| task_id(w, len)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_and_batches_round_trip() {
        let report = Report {
            fingerprint: Fingerprint(0xfeed),
            threads: 3,
            want: 12,
            finished: false,
            results: vec![Done {
                id: TaskId(7),
                result: TaskResult {
                    total: 16,
                    unique: 2,
                    nodes: 999,
                },
                busy: Duration::from_micros(1500),
            }],
        };
        let words = report.encode();
        assert_eq!(words.len(), 10);
        assert_eq!(Report::decode(&words, Fingerprint(0xfeed), 8), Ok(report));
        let ids = [TaskId(0), TaskId(5)];
        assert_eq!(decode_batch(&encode_batch(&ids), 6), Ok(ids.to_vec()));
    }

    #[test]
    fn bad_messages_are_refused() {
        let ours = Fingerprint(1);
        let good = Report {
            fingerprint: ours,
            threads: 1,
            want: 0,
            finished: true,
            results: Vec::new(),
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
            Err(WireError::Malformed(5))
        );
        let mut beyond = good.encode();
        beyond[4] = 1;
        beyond.extend([8, 0, 0, 0, 0]);
        assert_eq!(
            Report::decode(&beyond, ours, 8),
            Err(WireError::UnknownTask { id: 8, len: 8 })
        );
        assert!(decode_batch(&[3, 9], 8).is_err());
        assert!(decode_batch(&vec![0; MAX_BATCH + 1], 8).is_err());
        // Seeded garbage never panics.
        let mut rng = nqueens_support::SplitMix64::new(18);
        for len in 0..200 {
            let words: Vec<u64> = (0..len % 17).map(|_| rng.next_u64() % 11).collect();
            let x = rng.next_u64();
            let _ = Report::decode(&words, Fingerprint(x % 3), 8);
            let _ = decode_batch(&words, 8);
        }
    }
}
