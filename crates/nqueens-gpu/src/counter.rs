//! [`GpuCounter`]: the adapter's device, its pipelines and tables, the slots a dispatch's
//! buffers live in and the batches in flight, and the dispatch itself (pack, submit, read
//! back). Its [`Device`](nqueens_solver::runs::Device) side (batches of tasks) is in
//! `batches.rs`, its count from constellations in `constellation_count.rs`; the crate's
//! essay (`lib.rs`) says how a batch runs.

use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use nqueens_solver::engines::counter::{MAX_N, TaskResult};
use nqueens_solver::runs::device::{
    self, DeviceError, Split, SplitBuffers, SubBoard, SubBoardResult,
};
use wgpu::util::DeviceExt;

use crate::adapter::{Adapter, Choice, pick};
use crate::buffers::{
    BOARD_WORDS, Kernel, Measured, RESULT_WORDS, Slot, build_pipeline, bytes, pack, table_words,
};
use crate::error::GpuError;
use crate::tuning::{MAX_BUDGET, Memory, SOFTWARE_BUDGET, STACK_ROWS, Tuning};

/// Sub-boards per dispatch at most: 52 MiB of sub-boards and 24 MiB of results, below every
/// adapter's smallest storage-buffer binding limit (128 MiB).
pub const CHUNK: usize = 1 << 20;

/// A result's `state` word (the shader's constants of the same names).
pub(crate) const UNTOUCHED: u32 = 0;
pub(crate) const DONE: u32 = 1;
pub(crate) const GAVE_UP: u32 = 2;

/// The counter's loop on one GPU. See the [crate documentation](crate).
pub struct GpuCounter {
    pub(crate) adapter: Adapter,
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    pub(crate) pipeline: wgpu::ComputePipeline,
    pub(crate) tuning: Tuning,
    /// The class tables of each n counted, on the device.
    pub(crate) tables: Vec<(u32, wgpu::Buffer)>,
    /// The constellation kernel and the tables of the constellations counted last, made on
    /// first use.
    pub(crate) constellation: Option<wgpu::ComputePipeline>,
    pub(crate) constellation_tables: Option<wgpu::Buffer>,
    /// The first error the device reported outside a call that could return it.
    pub(crate) error: Arc<Mutex<Option<String>>>,
    /// Where the tasks are cut into sub-boards (from the rows to search when `None`).
    pub(crate) start_row: Option<usize>,
    /// Threads that split and pack.
    pub(crate) threads: usize,
    /// Buffers for one dispatch each, reused; `free` lists the ones not in flight.
    pub(crate) slots: Vec<Slot>,
    pub(crate) free: Vec<usize>,
    /// The batches submitted and not yet finished, oldest first.
    pub(crate) queued: VecDeque<Batch>,
    /// The split's buffers and the sub-board lists of finished batches, reused.
    pub(crate) split_buffers: SplitBuffers,
    pub(crate) spare: Vec<Vec<SubBoard>>,
    /// Nanoseconds per timestamp tick, where the adapter writes timestamps.
    pub(crate) tick: Option<f64>,
    pub(crate) measured: Measured,
}

/// A dispatch on its way.
pub(crate) struct InFlight {
    pub(crate) slot: usize,
    /// Its sub-boards: `boards[first..first + count]` of its batch.
    pub(crate) first: usize,
    pub(crate) count: usize,
    pub(crate) submission: wgpu::SubmissionIndex,
    pub(crate) mapped: Arc<Mutex<Option<Result<(), wgpu::BufferAsyncError>>>>,
}

/// A batch submitted: the host's part of its tasks, its sub-boards and their dispatches.
pub(crate) struct Batch {
    pub(crate) n: u32,
    pub(crate) split: Split,
    pub(crate) boards: Vec<SubBoard>,
    pub(crate) dispatches: Vec<InFlight>,
}

/// What the kernel said about one sub-board.
pub(crate) enum Outcome {
    /// Counted, in this many steps.
    Done(SubBoardResult, u32),
    GaveUp,
    Untouched,
}

impl fmt::Debug for GpuCounter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GpuCounter({})", self.adapter)
    }
}

impl GpuCounter {
    /// Opens the adapter `choice` names and builds the kernel on it, tuned by the
    /// `NQUEENS_GPU_*` variables over the defaults for the adapter's kind
    /// ([`Tuning::from_env`]). `Ok(None)` when `choice` is [`Choice::Hardware`] and there is no
    /// hardware GPU.
    pub fn open(choice: Choice) -> Result<Option<GpuCounter>, GpuError> {
        let Some((raw, adapter)) = pick(choice)? else {
            return Ok(None);
        };
        let base = if adapter.is_hardware() {
            Tuning::gpu()
        } else {
            Tuning::software()
        };
        GpuCounter::build(&raw, adapter, Tuning::from_env(base)?).map(Some)
    }

    /// [`open`](Self::open) with this tuning (on a software driver, the budget is at most
    /// [`SOFTWARE_BUDGET`], which the driver's loop limit requires).
    pub fn open_tuned(choice: Choice, tuning: Tuning) -> Result<Option<GpuCounter>, GpuError> {
        match pick(choice)? {
            Some((raw, adapter)) => GpuCounter::build(&raw, adapter, tuning).map(Some),
            None => Ok(None),
        }
    }

    pub(crate) fn build(
        raw: &wgpu::Adapter,
        adapter: Adapter,
        mut tuning: Tuning,
    ) -> Result<GpuCounter, GpuError> {
        tuning.check()?;
        if !adapter.is_hardware() {
            tuning.budget = tuning.budget.min(SOFTWARE_BUDGET);
        }
        if tuning.stack == Memory::Workgroup {
            tuning.rows = tuning.rows.min(STACK_ROWS);
        }
        let timestamps = raw.features().contains(wgpu::Features::TIMESTAMP_QUERY);
        let (device, queue) = pollster::block_on(raw.request_device(&wgpu::DeviceDescriptor {
            label: Some("nqueens counter"),
            required_features: if timestamps {
                wgpu::Features::TIMESTAMP_QUERY
            } else {
                wgpu::Features::empty()
            },
            required_limits: raw.limits(),
            ..Default::default()
        }))
        .map_err(|e| GpuError::Open {
            adapter: adapter.to_string(),
            reason: e.to_string(),
        })?;
        let error = Arc::new(Mutex::new(None));
        let sink = error.clone();
        device.on_uncaptured_error(Box::new(move |e| {
            let mut slot = sink.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            slot.get_or_insert_with(|| e.to_string());
        }));
        device.push_error_scope(wgpu::ErrorFilter::Validation);
        let pipeline = build_pipeline(&device, &tuning, false);
        if let Some(e) = pollster::block_on(device.pop_error_scope()) {
            return Err(GpuError::Open {
                adapter: adapter.to_string(),
                reason: format!("the counting kernel does not build: {e}"),
            });
        }
        Ok(GpuCounter {
            tick: timestamps.then(|| f64::from(queue.get_timestamp_period())),
            device,
            queue,
            pipeline,
            tables: Vec::new(),
            constellation: None,
            constellation_tables: None,
            error,
            start_row: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            slots: Vec::new(),
            free: Vec::new(),
            queued: VecDeque::new(),
            split_buffers: SplitBuffers::default(),
            spare: Vec::new(),
            measured: Measured::default(),
            tuning,
            adapter,
        })
    }

    /// The adapter it runs on.
    pub fn adapter(&self) -> &Adapter {
        &self.adapter
    }

    /// The tuning it was opened with.
    pub fn tuning(&self) -> &Tuning {
        &self.tuning
    }

    /// Cuts tasks into sub-boards at `row` instead of the default (the tuning's rows from the
    /// bottom), for tests and tuning; never so high that the kernel's stack would overflow.
    pub fn set_start_row(&mut self, row: Option<usize>) {
        self.start_row = row;
    }

    /// Sets the steps an invocation may take before it gives up (1 to [`MAX_BUDGET`]), for
    /// tests.
    pub fn set_budget(&mut self, budget: u32) {
        self.tuning.budget = budget.clamp(1, MAX_BUDGET);
    }

    /// The first error the device reported, if any (then taken).
    pub(crate) fn take_error(&self) -> Option<String> {
        self.error
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take()
    }

    /// The class tables of n, made on first use.
    pub(crate) fn tables(&mut self, n: u32) -> usize {
        if let Some(i) = self.tables.iter().position(|(m, _)| *m == n) {
            return i;
        }
        let words: Vec<u32> = device::class_tables(n)
            .iter()
            .flat_map(table_words)
            .collect();
        let buffer = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("class tables"),
                contents: &bytes(&words),
                usage: wgpu::BufferUsages::STORAGE,
            });
        self.tables.push((n, buffer));
        self.tables.len() - 1
    }

    /// Rows the kernel may search below a sub-board's first row (its stack's size).
    pub(crate) fn max_rows(&self) -> usize {
        match self.tuning.stack {
            Memory::Workgroup => STACK_ROWS,
            Memory::Private => MAX_N as usize,
        }
    }

    /// Where the tasks of n are cut into sub-boards.
    pub(crate) fn start_row(&self, n: u32) -> usize {
        let lowest = (n as usize).saturating_sub(self.max_rows());
        match self.start_row {
            Some(row) => row.max(lowest),
            None => device::start_row_for(n, self.tuning.rows).max(lowest),
        }
    }

    /// What the kernel finds for each of these sub-boards of the n×n board (n ≤ 32): `None`
    /// where the invocation ran out of steps and gave up. (Sub-boards no invocation took are
    /// sent again until one does.)
    pub fn count_sub_boards(
        &mut self,
        n: u32,
        boards: &[SubBoard],
    ) -> Result<Vec<Option<SubBoardResult>>, DeviceError> {
        Ok(self
            .count_sub_boards_stepped(n, boards)?
            .into_iter()
            .map(|f| f.map(|(result, _)| result))
            .collect())
    }

    /// [`count_sub_boards`](Self::count_sub_boards) with the steps the kernel took on each
    /// (loop iterations and 8n per tied solution's check), to measure the lanes' work.
    pub fn count_sub_boards_stepped(
        &mut self,
        n: u32,
        boards: &[SubBoard],
    ) -> Result<Vec<Option<(SubBoardResult, u32)>>, DeviceError> {
        self.count_with(Kernel::Classes, n, boards, |b| {
            n as usize - (b.row as usize).min(n as usize)
        })
    }

    /// Counts `boards` with `kernel`; `rows` gives the rows the kernel searches below each.
    pub(crate) fn count_with(
        &mut self,
        kernel: Kernel,
        n: u32,
        boards: &[SubBoard],
        rows: impl Fn(&SubBoard) -> usize,
    ) -> Result<Vec<Option<(SubBoardResult, u32)>>, DeviceError> {
        if !(1..=MAX_N).contains(&n) {
            return Err(DeviceError(GpuError::TooLarge(n).to_string()));
        }
        if let Some(deep) = boards.iter().find(|b| rows(b) > self.max_rows()) {
            return Err(DeviceError(format!(
                "a sub-board of n = {n} from row {} is deeper than this kernel's stack ({} rows)",
                deep.row,
                self.max_rows()
            )));
        }
        let mut found: Vec<Option<Option<(SubBoardResult, u32)>>> = vec![None; boards.len()];
        let mut todo: Vec<usize> = (0..boards.len()).collect();
        while !todo.is_empty() {
            let batch: Vec<SubBoard> = todo.iter().map(|&i| boards[i]).collect();
            let mut again = Vec::new();
            for (chunk, first) in batch.chunks(CHUNK).zip((0..).step_by(CHUNK)) {
                let flight = self.dispatch_with(kernel, n, chunk, first)?;
                for (k, outcome) in self.collect(flight)?.into_iter().enumerate() {
                    let i = todo[first + k];
                    match outcome {
                        Outcome::Done(result, steps) => found[i] = Some(Some((result, steps))),
                        Outcome::GaveUp => found[i] = Some(None),
                        Outcome::Untouched => again.push(i),
                    }
                }
            }
            todo = again;
        }
        Ok(found
            .into_iter()
            .map(|f| f.expect("every sub-board counted"))
            .collect())
    }

    /// A free slot for `count` sub-boards, grown (or made) if none is large enough.
    pub(crate) fn take_slot(&mut self, count: usize) -> usize {
        if let Some(k) = self
            .free
            .iter()
            .position(|&s| self.slots[s].capacity >= count)
        {
            return self.free.swap_remove(k);
        }
        let capacity = count.next_power_of_two().clamp(1 << 12, CHUNK).max(count);
        let slot = Slot::new(&self.device, capacity, self.tick.is_some());
        match self.free.pop() {
            Some(s) => {
                self.slots[s] = slot;
                s
            }
            None => {
                self.slots.push(slot);
                self.slots.len() - 1
            }
        }
    }

    /// Packs `boards` (at most [`CHUNK`], sub-boards `first..` of their batch) into a free slot
    /// and starts the class kernel on them.
    pub(crate) fn dispatch(
        &mut self,
        n: u32,
        boards: &[SubBoard],
        first: usize,
    ) -> Result<InFlight, DeviceError> {
        self.dispatch_with(Kernel::Classes, n, boards, first)
    }

    /// [`dispatch`](Self::dispatch) with `kernel` (the constellation kernel reads the tables
    /// [`load_constellations`](Self::load_constellations) uploaded).
    pub(crate) fn dispatch_with(
        &mut self,
        kernel: Kernel,
        n: u32,
        boards: &[SubBoard],
        first: usize,
    ) -> Result<InFlight, DeviceError> {
        let count = boards.len();
        debug_assert!((1..=CHUNK).contains(&count));
        let tables = match kernel {
            Kernel::Classes => Some(self.tables(n)),
            Kernel::Constellations => None,
        };
        let s = self.take_slot(count);
        let (Some(table_buffer), Some(pipeline)) = (
            match tables {
                Some(i) => Some(&self.tables[i].1),
                None => self.constellation_tables.as_ref(),
            },
            match kernel {
                Kernel::Classes => Some(&self.pipeline),
                Kernel::Constellations => self.constellation.as_ref(),
            },
        ) else {
            return Err(DeviceError(
                "the constellation kernel was not loaded".to_string(),
            ));
        };
        let workgroup = self.tuning.workgroup;
        let invocations = if self.tuning.refill {
            (count as u32).min(self.tuning.lanes)
        } else {
            count as u32
        };
        let groups = invocations.div_ceil(workgroup);
        let across = groups.min(self.adapter.max_workgroups_per_dimension.max(1));
        let down = groups.div_ceil(across);
        let started = Instant::now();
        let slot = &self.slots[s];
        self.queue.write_buffer(
            &slot.params,
            0,
            &bytes(&[n, count as u32, across * workgroup, self.tuning.budget]),
        );
        let size = wgpu::BufferSize::new((count * BOARD_WORDS * 4) as u64).expect("count ≥ 1");
        {
            let mut view = self
                .queue
                .write_buffer_with(&slot.boards, 0, size)
                .ok_or_else(|| DeviceError("the sub-boards cannot be uploaded".to_string()))?;
            pack(boards, &mut view, self.threads);
        }
        self.measured.pack += started.elapsed();
        let results_size = (count * RESULT_WORDS * 4) as u64;
        let mut entries = vec![
            wgpu::BindGroupEntry {
                binding: 0,
                resource: slot.params.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: table_buffer.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: slot.boards.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 3,
                resource: slot.results.as_entire_binding(),
            },
        ];
        if self.tuning.refill {
            entries.push(wgpu::BindGroupEntry {
                binding: 4,
                resource: slot.taken.as_entire_binding(),
            });
        }
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("count"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("count"),
            });
        encoder.clear_buffer(&slot.results, 0, Some(results_size));
        if self.tuning.refill {
            encoder.clear_buffer(&slot.taken, 0, None);
        }
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("count"),
                timestamp_writes: slot.timestamps.as_ref().map(|(queries, _)| {
                    wgpu::ComputePassTimestampWrites {
                        query_set: queries,
                        beginning_of_pass_write_index: Some(0),
                        end_of_pass_write_index: Some(1),
                    }
                }),
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(across, down, 1);
        }
        encoder.copy_buffer_to_buffer(&slot.results, 0, &slot.readback, 0, results_size);
        let mut readback_size = results_size;
        if let Some((queries, resolved)) = &slot.timestamps {
            encoder.resolve_query_set(queries, 0..2, resolved, 0);
            encoder.copy_buffer_to_buffer(resolved, 0, &slot.readback, results_size, 16);
            readback_size += 16;
        }
        let submission = self.queue.submit([encoder.finish()]);
        let mapped = Arc::new(Mutex::new(None));
        let sink = mapped.clone();
        slot.readback
            .slice(..readback_size)
            .map_async(wgpu::MapMode::Read, move |result| {
                *sink.lock().unwrap_or_else(|p| p.into_inner()) = Some(result);
            });
        self.measured.dispatches += 1;
        Ok(InFlight {
            slot: s,
            first,
            count,
            submission,
            mapped,
        })
    }

    /// Waits for a dispatch and reads what the kernel said of each of its sub-boards.
    pub(crate) fn collect(&mut self, flight: InFlight) -> Result<Vec<Outcome>, DeviceError> {
        let polled = self
            .device
            .poll(wgpu::PollType::WaitForSubmissionIndex(flight.submission));
        if let Some(e) = self.take_error() {
            return Err(DeviceError(e));
        }
        polled.map_err(|e| DeviceError(e.to_string()))?;
        match flight
            .mapped
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            Some(Ok(())) => {}
            Some(Err(e)) => return Err(DeviceError(e.to_string())),
            None => return Err(DeviceError("the results never arrived".to_string())),
        }
        let slot = &self.slots[flight.slot];
        let results_size = flight.count * RESULT_WORDS * 4;
        let stamped = slot.timestamps.is_some();
        let readback_size = results_size + if stamped { 16 } else { 0 };
        let data = slot
            .readback
            .slice(..readback_size as u64)
            .get_mapped_range();
        let word = |bytes: &[u8], i: usize| {
            u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4 bytes"))
        };
        let found = data[..results_size]
            .chunks_exact(RESULT_WORDS * 4)
            .map(|record| match word(record, 4) {
                DONE => Outcome::Done(
                    SubBoardResult {
                        eightfold: u64::from(word(record, 0)),
                        tied: TaskResult {
                            total: u64::from(word(record, 1)),
                            unique: u64::from(word(record, 2)),
                            nodes: 0,
                        },
                        nodes: u64::from(word(record, 3)),
                    },
                    word(record, 5),
                ),
                GAVE_UP => Outcome::GaveUp,
                state => {
                    debug_assert_eq!(state, UNTOUCHED, "a result's state");
                    Outcome::Untouched
                }
            })
            .collect();
        if let (Some(tick), true) = (self.tick, stamped) {
            let stamps = &data[results_size..results_size + 16];
            let at = |i: usize| {
                u64::from_le_bytes(stamps[8 * i..8 * i + 8].try_into().expect("8 bytes"))
            };
            self.measured.pass(at(0), at(1), tick);
        }
        drop(data);
        slot.readback.unmap();
        self.free.push(flight.slot);
        Ok(found)
    }

    /// Starts every dispatch of `boards` (sub-boards of a batch).
    pub(crate) fn dispatch_all(
        &mut self,
        n: u32,
        boards: &[SubBoard],
    ) -> Result<Vec<InFlight>, DeviceError> {
        boards
            .chunks(CHUNK)
            .zip((0..).step_by(CHUNK))
            .map(|(chunk, first)| self.dispatch(n, chunk, first))
            .collect()
    }
}
