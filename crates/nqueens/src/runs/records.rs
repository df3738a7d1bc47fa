//! A run's books at either end of its count: what it opens with (the checkpoint's finished
//! tasks and the positions of unfinished ones, the tasks still to count) and, while it
//! counts, the checkpoint as the count's [`Records`]: each finished task appended as it is
//! handed over, the file synced on the count's idle ticks, the positions of the tasks in
//! flight written every [`POSITION_INTERVAL`]. Opening reads the file once (O(its length));
//! a record is one `write`.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use super::checkpoint::{Checkpoint, POSITION_INTERVAL};
use super::error::CounterError;
use super::part::Shard;
use crate::engines::counter::drive::Records;
use crate::engines::counter::kernel::TaskResult;
use crate::engines::counter::ledger::{Ledger, Sums};
use crate::engines::counter::pieces::Partial;
use crate::engines::counter::tasks::TaskId;
use crate::engines::counter::work::Work;

/// What a run starts from.
pub(super) struct Books {
    /// Over the tasks the checkpoint holds finished.
    pub sums: Sums,
    /// Where the checkpoint's unfinished tasks had got (at this run's cut row).
    pub from: HashMap<TaskId, Partial>,
    /// The shard's tasks still to count, in id order.
    pub pending: Vec<TaskId>,
}

impl Books {
    /// Opens the checkpoint at `path`, if any, for a run over `shard` of `work` cut at row
    /// `cut`, and reads what it holds.
    pub fn open(
        path: Option<&Path>,
        work: &Work,
        shard: Shard,
        cut: usize,
    ) -> Result<(Option<Checkpoint>, Books), CounterError> {
        let mut done = vec![false; work.len()];
        let mut books = Books {
            sums: Sums::default(),
            from: HashMap::new(),
            pending: Vec::new(),
        };
        let file = match path {
            Some(path) => {
                let (file, records) = Checkpoint::open(path, &work.header(shard))?;
                for (id, result) in &records {
                    done[id.index()] = true;
                    books.sums.add(result)?;
                }
                // A position of another cut row names other pieces: such a task starts over.
                books.from.extend(
                    file.positions()
                        .iter()
                        .filter(|(_, partial)| partial.cut as usize == cut)
                        .copied(),
                );
                Some(file)
            }
            None => None,
        };
        books.pending = work
            .ids()
            .filter(|&id| shard.contains(id) && !done[id.index()])
            .collect();
        Ok((file, books))
    }
}

/// The checkpoint as a count's records (none without one).
pub(super) struct CheckpointRecords {
    pub file: Option<Checkpoint>,
    last_positions: Instant,
}

impl CheckpointRecords {
    pub fn new(file: Option<Checkpoint>) -> Self {
        CheckpointRecords {
            file,
            last_positions: Instant::now(),
        }
    }
}

impl Records for CheckpointRecords {
    type Error = CounterError;

    fn finished(&mut self, id: TaskId, result: &TaskResult) -> Result<(), CounterError> {
        match self.file.as_mut() {
            Some(file) => file.record(id, result),
            None => Ok(()),
        }
    }

    fn idle(&mut self) -> Result<(), CounterError> {
        match self.file.as_mut() {
            Some(file) => file.sync_if_due(),
            None => Ok(()),
        }
    }

    fn tick(&mut self, ledger: &mut Ledger) -> Result<(), CounterError> {
        if self.last_positions.elapsed() < POSITION_INTERVAL {
            return Ok(());
        }
        self.last_positions = Instant::now();
        match self.file.as_mut() {
            Some(file) => ledger.write_positions(|id, partial| file.record_position(id, partial)),
            None => Ok(()),
        }
    }
}
