//! Counting on a device that runs thousands of small searches at once (a GPU): the counter's
//! tasks cut into *sub-boards* on the host, the per-class tables a device kernel reads, and
//! the [`Device`] trait through which [`CountRun::run`](super::CountRun::run) drives one.
//!
//! # The invariant
//!
//! A device computes exactly what the CPU loops compute: the same [`TaskResult`] for every
//! task, node counts included, so its results go into the same checkpoints and shard files,
//! and a count started on a GPU finishes on a CPU (or the other way round). To get there the
//! host does the top of each task's tree itself and hands the device the rest:
//!
//! - [`split`] searches each task's tree from the task's prefix down to `start_row` with the
//!   counting loop's own rules (the class's allowed squares, the four-row lookahead of
//!   `RowMasks::dead_after`) and counts those rows' queens as the loop would; every node
//!   that reaches `start_row` alive becomes a [`SubBoard`]. (A solution found above
//!   `start_row`, on tiny boards, is counted by the host.)
//! - The device searches each sub-board to the end with the same loop and returns its
//!   [`Completions`]: solutions on no tie square, the exact orbit count of the tied ones, and
//!   the queens it placed. [`count_sub_board`] is the CPU's version of that, the oracle the
//!   device kernels are tested against sub-board by sub-board.
//! - [`Split::finish`] adds each task's sub-board results to the host's part.
//!
//! Masks are `u32` (n ≤ 32, the counter's limit), bits at or above n set in the row tables,
//! so a kernel needs no 64-bit arithmetic but for its counters.
//!
//! # What it costs
//!
//! Splitting visits only the top `start_row` rows, a small fraction of the tree for the
//! depths [`start_row`] picks; a sub-board is 9 words to upload and its result 8 words to read
//! back. Batches are sized by the caller ([`CountRun::run`](super::CountRun::run) aims at a
//! quarter of a second a batch), so progress, Ctrl-C, time limits and checkpoints work at
//! batch granularity with no change to the task list.

use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::engines::counter::kernel::{Completions, Scratch, TaskResult};
use crate::engines::counter::pieces::MAX_ROWS;

mod driver;
mod split;
#[cfg(test)]
mod tests;

pub use crate::engines::counter::kernel::Completions as SubBoardResult;
pub use driver::drive;
use split::count_sub_board_with;
pub use split::{
    ClassTable, Split, SplitBuffers, SubBoard, class_tables, count_sub_board, split,
    split_on_threads, start_row, start_row_for,
};

/// Rows a sub-board's prefix may hold (every row of the counter's largest board, so a
/// sub-board can always be cut one row deeper).
pub const MAX_SPLIT_ROWS: usize = MAX_ROWS;

/// Rows a device's search of one sub-board covers at most (when the task list leaves more):
/// about 10⁵–10⁶ queens per sub-board, small enough that the slowest of a batch of thousands
/// does not hold the rest up for long, large enough that one sub-board outweighs its upload.
pub const DEVICE_ROWS: usize = 12;

/// How long one batch of pieces on a [`Device`] should take ([`drive`]): short enough for
/// progress, Ctrl-C and checkpoints to follow the run closely and to stay far below a display
/// driver's watchdog, long enough that the batch's set-up is small beside its work.
pub const DEVICE_BATCH_TIME: Duration = Duration::from_millis(250);

/// A task counter that takes many tasks at once (a GPU): the counter hands it batches of
/// task prefixes and records the results as they come.
///
/// A device either answers each batch at once ([`solve_batch`](Device::solve_batch)), or is
/// *pipelined*: it takes a batch with [`submit`](Device::submit), returns as soon as the batch is
/// on its way, and gives the results of the oldest batch with [`finish`](Device::finish). The
/// counter then keeps two batches queued, so the host's part of batch k + 1 (for a GPU: the
/// split into sub-boards, on every core) runs while the device counts batch k.
pub trait Device: Send {
    /// What it is, for `--stats` and messages ("NVIDIA H100 PCIe (Vulkan)").
    fn describe(&self) -> String;

    /// The results of the tasks of the n×n board with these prefixes (from the standard
    /// [`TaskList`](crate::engines::counter::TaskList) of n), in the same order: each exactly what
    /// [`TaskCounter`](super::TaskCounter) gives for the task.
    fn solve_batch(&mut self, n: u32, prefixes: &[&[u8]]) -> Result<Vec<TaskResult>, DeviceError>;

    /// Whether the device takes batches through [`submit`](Device::submit) and
    /// [`finish`](Device::finish) (the counter then keeps two in flight).
    fn pipelined(&self) -> bool {
        false
    }

    /// Queues a batch (as [`solve_batch`](Device::solve_batch) would take it) and returns
    /// once the device has it, before it is counted. Only for a [`pipelined`](Device::pipelined)
    /// device.
    fn submit(&mut self, n: u32, prefixes: &[&[u8]]) -> Result<(), DeviceError> {
        let _ = (n, prefixes);
        Err(DeviceError(format!(
            "{} takes whole batches only (it is not pipelined)",
            self.describe()
        )))
    }

    /// The results of the oldest batch still queued, in its order; waits for them.
    fn finish(&mut self) -> Result<Vec<TaskResult>, DeviceError> {
        Err(DeviceError("no batch was submitted".to_string()))
    }

    /// How long one batch should take (the counter sizes batches to it): short enough for
    /// progress, Ctrl-C and checkpoints to follow the run, long enough that a batch's set-up is
    /// small beside its work.
    fn batch_time(&self) -> Duration {
        DEVICE_BATCH_TIME
    }

    /// The fewest pieces a batch should hold, whatever time it then takes (1 by default). A
    /// device that runs thousands of searches at once idles on fewer (a GPU: fewer sub-boards
    /// than it has lanes), and such a batch lasts as long as its largest search, however few
    /// pieces it holds: sized by time alone, batches would shrink towards one piece each, and
    /// a count to a crawl (see [`drive`]).
    fn min_batch(&self) -> usize {
        1
    }

    /// What the device measured since it was opened, as `name=value` pairs for `--stats`
    /// (none by default).
    fn stats(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
}

pub use super::error::DeviceError;

/// A [`Device`] shared between the caller and a counter run.
#[derive(Clone)]
pub struct SharedDevice(pub Arc<Mutex<dyn Device>>);

impl SharedDevice {
    /// Wraps a device.
    pub fn new(device: impl Device + 'static) -> Self {
        SharedDevice(Arc::new(Mutex::new(device)))
    }

    /// The device's [`Device::describe`].
    pub fn describe(&self) -> String {
        match self.0.lock() {
            Ok(device) => device.describe(),
            Err(_) => "a device that failed".to_string(),
        }
    }
}

impl SharedDevice {
    /// The device's [`Device::stats`].
    pub fn stats(&self) -> Vec<(&'static str, String)> {
        match self.0.lock() {
            Ok(device) => device.stats(),
            Err(_) => Vec::new(),
        }
    }
}

impl fmt::Debug for SharedDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SharedDevice({})", self.describe())
    }
}

/// A [`Device`] that is the CPU's one-board loop run over [`split`]'s sub-boards: what a
/// device kernel does, in plain Rust (the tests check the split with it; a device backend
/// can compare itself with it). With `pipelined`, it takes batches through
/// [`Device::submit`] and [`Device::finish`] (counting each at once), a stand-in for the
/// counter's pipelined path.
#[derive(Debug, Default)]
pub struct SplitOnCpu {
    /// Where the tasks are cut ([`start_row`] of n when `None`).
    pub start_row: Option<usize>,
    /// Whether it says it is [pipelined](Device::pipelined).
    pub pipelined: bool,
    /// The results of the batches submitted and not yet finished.
    queued: VecDeque<Vec<TaskResult>>,
}

impl Device for SplitOnCpu {
    fn describe(&self) -> String {
        "the CPU, sub-board by sub-board".to_string()
    }

    fn solve_batch(&mut self, n: u32, prefixes: &[&[u8]]) -> Result<Vec<TaskResult>, DeviceError> {
        let split = split(n, prefixes, self.start_row.unwrap_or_else(|| start_row(n)));
        let mut scratch = Scratch::default();
        let results: Vec<Completions> = split
            .boards
            .iter()
            .map(|board| count_sub_board_with(n, board, &mut scratch))
            .collect();
        Ok(split.finish(&results))
    }

    fn pipelined(&self) -> bool {
        self.pipelined
    }

    fn submit(&mut self, n: u32, prefixes: &[&[u8]]) -> Result<(), DeviceError> {
        let results = self.solve_batch(n, prefixes)?;
        self.queued.push_back(results);
        Ok(())
    }

    fn finish(&mut self) -> Result<Vec<TaskResult>, DeviceError> {
        self.queued
            .pop_front()
            .ok_or_else(|| DeviceError("no batch was submitted".to_string()))
    }
}
