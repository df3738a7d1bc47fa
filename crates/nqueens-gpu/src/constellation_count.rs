//! The GPU's count from constellations ([`GpuCounter::count_constellations`]): every
//! representative cut on the host into starts, the starts counted by the constellation kernel
//! (plain completions, no symmetry check), and the totals multiplied on the host (see
//! [`constellations`]).

use nqueens_solver::engines::counter::MAX_N;
use nqueens_solver::runs::device::{DeviceError, SubBoard, SubBoardResult};
use wgpu::util::DeviceExt;

use crate::constellations::{self, Rows};
use crate::{GpuCounter, GpuError, Kernel, build_pipeline, bytes};

/// What a count from constellations found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConstellationCount {
    /// The solutions of the n×n board.
    pub total: u64,
    /// Queens placed, by the host and by the kernel (not the class kernel's count: the
    /// searches differ).
    pub nodes: u64,
    /// Representatives searched.
    pub constellations: u64,
    /// Starts the host cut them into (before any was cut deeper).
    pub starts: u64,
    /// The kernel's steps on the starts it counted.
    pub steps: u64,
    /// Starts the kernel gave up on (cut a row deeper and sent again).
    pub gave_up: u64,
}

impl GpuCounter {
    /// The solutions of the n×n board (1 ≤ n ≤ 32), counted from constellations: the host
    /// cuts every representative (`rows` of the tuning left to the kernel; the starts in the
    /// cut's order, constellation by constellation), the kernel counts their completions, and the host
    /// multiplies each by its orbit's size. Total only: unique solutions need the class
    /// kernel ([`Device`](nqueens_solver::runs::Device)).
    pub fn count_constellations(&mut self, n: u32) -> Result<ConstellationCount, DeviceError> {
        if !(1..=MAX_N).contains(&n) {
            return Err(DeviceError(GpuError::TooLarge(n).to_string()));
        }
        let kernel_rows = self.tuning.rows.min(self.max_rows());
        let starts = constellations::starts(n, kernel_rows);
        let multiplicity: Vec<u64> = starts
            .constellations
            .iter()
            .map(|c| u64::from(c.multiplicity))
            .collect();
        let mut count = ConstellationCount {
            total: starts.host.solutions,
            nodes: starts.host.nodes,
            constellations: starts.constellations.len() as u64,
            starts: starts.boards.len() as u64,
            ..ConstellationCount::default()
        };
        let tables = starts.tables;
        let mut todo = starts.boards;
        while !todo.is_empty() {
            let found = self.count_starts(n, &tables, &todo)?;
            let mut again = Vec::new();
            for (board, found) in todo.iter().zip(found) {
                let k = board.b1 as usize;
                match found {
                    Some((result, steps)) => {
                        count.total += result.eightfold * multiplicity[k];
                        count.nodes += result.nodes;
                        count.steps += u64::from(steps);
                    }
                    None => {
                        count.gave_up += 1;
                        let (b1, row) = (board.b1, board.row + 1);
                        let part = constellations::cut(&tables[k], b1, b1, board, row, &mut again);
                        count.total += part.solutions * multiplicity[k];
                        count.nodes += part.nodes;
                    }
                }
            }
            todo = again;
        }
        Ok(count)
    }

    /// What the constellation kernel finds for each start (of the n×n board, under `tables`,
    /// indexed by the starts' `b1`) and the steps it took: `None` where it gave up. For tests
    /// against [`constellations::emulate`] and to measure the lanes' work.
    pub fn count_starts(
        &mut self,
        n: u32,
        tables: &[Rows],
        boards: &[SubBoard],
    ) -> Result<Vec<Option<(SubBoardResult, u32)>>, DeviceError> {
        self.load_constellations(tables)?;
        self.count_with(Kernel::Constellations, n, boards, |b| {
            let last = tables[b.b1 as usize].last;
            (last + 1).saturating_sub(b.row) as usize
        })
    }

    /// Builds the constellation kernel (once) and uploads `tables`.
    fn load_constellations(&mut self, tables: &[Rows]) -> Result<(), DeviceError> {
        if self.constellation.is_none() {
            self.device.push_error_scope(wgpu::ErrorFilter::Validation);
            let pipeline = build_pipeline(&self.device, &self.tuning, true);
            if let Some(e) = pollster::block_on(self.device.pop_error_scope()) {
                return Err(DeviceError(format!(
                    "the constellation kernel does not build: {e}"
                )));
            }
            self.constellation = Some(pipeline);
        }
        let words: Vec<u32> = tables.iter().flat_map(Rows::words).collect();
        self.constellation_tables = Some(self.device.create_buffer_init(
            &wgpu::util::BufferInitDescriptor {
                label: Some("constellation tables"),
                contents: &bytes(&words),
                usage: wgpu::BufferUsages::STORAGE,
            },
        ));
        Ok(())
    }
}
