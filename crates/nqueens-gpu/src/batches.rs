//! [`GpuCounter`] as the counter's [`Device`]: batches of the counter's tasks cut into
//! sub-boards on the host, counted by the class kernel, and added up per task (see the
//! [crate documentation](crate)).

use std::time::{Duration, Instant};

use nqueens_solver::engines::counter::{MAX_N, TaskResult};
use nqueens_solver::runs::device::{self, Device, DeviceError, Split};

use crate::counter::{Batch, GpuCounter, Outcome};
use crate::error::GpuError;

impl Device for GpuCounter {
    fn describe(&self) -> String {
        self.adapter.to_string()
    }

    /// [`submit`](Device::submit) and [`finish`](Device::finish) in one.
    fn solve_batch(&mut self, n: u32, prefixes: &[&[u8]]) -> Result<Vec<TaskResult>, DeviceError> {
        if !self.queued.is_empty() {
            return Err(DeviceError(
                "a whole batch was asked for while others are queued".to_string(),
            ));
        }
        self.submit(n, prefixes)?;
        self.finish()
    }

    fn pipelined(&self) -> bool {
        true
    }

    /// Cuts the tasks into sub-boards on every core and starts counting them.
    fn submit(&mut self, n: u32, prefixes: &[&[u8]]) -> Result<(), DeviceError> {
        if !(1..=MAX_N).contains(&n) {
            return Err(DeviceError(GpuError::TooLarge(n).to_string()));
        }
        let started = Instant::now();
        let mut split = Split {
            host: Vec::new(),
            boards: self.spare.pop().unwrap_or_default(),
        };
        let start_row = self.start_row(n);
        device::split_on_threads(
            n,
            prefixes,
            start_row,
            self.threads,
            &mut self.split_buffers,
            &mut split,
        );
        self.measured.split += started.elapsed();
        let boards = std::mem::take(&mut split.boards);
        self.measured.pieces += prefixes.len() as u64;
        self.measured.sub_boards += boards.len() as u64;
        let dispatches = self.dispatch_all(n, &boards)?;
        self.queued.push_back(Batch {
            n,
            split,
            boards,
            dispatches,
        });
        Ok(())
    }

    /// Waits for the oldest batch, and cuts the sub-boards the kernel gave up on a row
    /// deeper (and sends again those it never took) until every piece is counted.
    fn finish(&mut self) -> Result<Vec<TaskResult>, DeviceError> {
        let Some(mut batch) = self.queued.pop_front() else {
            return Err(DeviceError("no batch was submitted".to_string()));
        };
        loop {
            let mut again = Vec::new();
            for flight in std::mem::take(&mut batch.dispatches) {
                let first = flight.first;
                let found = self.collect(flight)?;
                let started = Instant::now();
                for (board, outcome) in batch.boards[first..].iter().zip(found) {
                    match outcome {
                        Outcome::Done(result, steps) => {
                            self.measured.nodes += result.nodes;
                            self.measured.steps += u64::from(steps);
                            batch.split.add(board, &result);
                        }
                        Outcome::GaveUp => {
                            self.measured.gave_up += 1;
                            again.extend(batch.split.refine(batch.n, board, 1));
                        }
                        Outcome::Untouched => {
                            self.measured.untouched += 1;
                            again.push(*board);
                        }
                    }
                }
                self.measured.collect += started.elapsed();
            }
            let done = std::mem::replace(&mut batch.boards, again);
            if self.spare.len() < 2 {
                self.spare.push(done);
            }
            if batch.boards.is_empty() {
                return Ok(batch.split.host);
            }
            batch.dispatches = self.dispatch_all(batch.n, &batch.boards)?;
        }
    }

    fn batch_time(&self) -> Duration {
        Duration::from_millis(self.tuning.batch_ms)
    }

    /// On a GPU, enough pieces for as many sub-boards as the kernel has lanes, at the rate of
    /// sub-boards per piece seen so far (1 before the first batch). A software driver runs a
    /// few lanes per core, and a lone one no slower than its share: 1.
    fn min_batch(&self) -> usize {
        let m = &self.measured;
        if m.sub_boards == 0 || !self.adapter.is_hardware() {
            return 1;
        }
        let per_piece = m.sub_boards as f64 / m.pieces as f64;
        (f64::from(self.tuning.lanes) / per_piece).ceil().max(1.0) as usize
    }

    fn stats(&self) -> Vec<(&'static str, String)> {
        let m = &self.measured;
        let per_second = |count: u64, time: Duration| {
            format!("{:.3e}", count as f64 / time.as_secs_f64().max(1e-9))
        };
        let mut stats = vec![
            ("sub_boards", m.sub_boards.to_string()),
            ("split_per_s", per_second(m.sub_boards, m.split)),
            ("split_s", format!("{:.3}", m.split.as_secs_f64())),
            ("pack_s", format!("{:.3}", m.pack.as_secs_f64())),
            ("collect_s", format!("{:.3}", m.collect.as_secs_f64())),
            ("dispatches", m.dispatches.to_string()),
            (
                "steps_per_node",
                format!("{:.4}", m.steps as f64 / m.nodes.max(1) as f64),
            ),
            ("gave_up", m.gave_up.to_string()),
            ("untouched", m.untouched.to_string()),
        ];
        match (self.tick, m.first_tick) {
            (Some(tick), Some(first)) => {
                let span = (m.last_tick - first) as f64 * tick;
                stats.push(("gpu_busy_s", format!("{:.3}", m.busy_ns * 1e-9)));
                stats.push((
                    "gpu_wait",
                    format!("{:.3}", 1.0 - m.busy_ns / span.max(1.0)),
                ));
            }
            _ => stats.push(("gpu_wait", "unknown".to_string())),
        }
        stats.push(("threads", self.threads.to_string()));
        stats.push(("tuning", self.tuning.to_string().replace(' ', ",")));
        stats
    }
}
