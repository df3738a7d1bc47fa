//! Long counts as jobs: the counter's search (`crate::engines::counter`) driven for hours or
//! weeks, across interruptions, machines and devices, to a total worth its last digit.
//!
//! The search exposes hooks (its task list, pieces and positions, a stop flag, each task's
//! result: `engines::counter::drive`); this floor drives them. One file per concern:
//!
//! - [`job`]: [`CountRun`], a count as one job, in parts: prepare the work and the shard,
//!   open the books (module `records`), count (the search's driver, with the checkpoint as
//!   its records), close the books; [`RunOptions`], [`Report`], [`Saved`].
//! - [`checkpoint`]: the append-only file a run resumes from (results, positions, a
//!   header naming the count), locked while open, synced within a second.
//! - [`audit`]: chosen or sampled finished tasks of a checkpoint recounted by a second,
//!   independent search (plain backtracking) and compared with the file.
//! - [`forecast`]: a count's work foretold before it starts: the work model's total checked
//!   by a short probe of randomly drawn tasks, with its uncertainty and the time it implies.
//! - [`inspect`]: what a checkpoint says about its count without running it (tasks done, in
//!   part and left, the partial total, the share of the work done): `status`, and the
//!   "resuming" line of a run.
//! - [`checksum`]: the CRC-32 every checkpoint line and shard result carries.
//! - [`part`] and [`shard`]: a count split K ways, and the K results merged back.
//! - [`device`]: counting on a GPU: the trait a device implements, the host's split into
//!   sub-boards, and the driver that hands it batches.
//! - [`distributed`]: what a front end that schedules tasks itself (MPI) takes.
//! - [`error`]: what a run can fail with, and the check of a final total against the
//!   published counts ([`check_published`]): a mismatch is [`CounterError::WrongTotal`],
//!   naming the likely cause, never a number.
//!
//! Task ids, the checkpoint format and the shard format are the counter's, unchanged from
//! run to run: a count started on one machine, thread count or device finishes on another.
//!
//! # Trusting the last digit
//!
//! A count is only worth its last digit, and a long one passes through files. Every
//! checkpoint line and every shard result carries a CRC-32 that catches accidental damage; a
//! checkpoint is locked while a run has it open; and the final total of a whole board with
//! n ≤ 27 (a run here, or a merge) is compared with the published counts. The count's
//! bookkeeping wakes at least every 100 ms, so records are synced within
//! [`checkpoint::SYNC_INTERVAL`] even while every task is long.

pub mod audit;
pub mod checkpoint;
pub mod checksum;
pub mod device;
pub mod distributed;
pub mod error;
pub mod forecast;
pub mod inspect;
pub mod job;
pub mod part;
mod records;
pub mod shard;
#[cfg(test)]
mod tests;

pub use checkpoint::Checkpoint;
pub use device::{DEVICE_BATCH_TIME, Device, DeviceError, SharedDevice};
pub use distributed::{SplitList, TaskCounter};
pub use error::{CounterError, check_count, check_published};
pub use job::{CountRun, Opened, OpenedSink, Report, RunOptions, Saved};
pub use shard::{Merged, Shard, ShardResult};
