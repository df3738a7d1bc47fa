//! The nqueens counter on a GPU: [`GpuCounter`] is a [`Device`] for
//! [`CountRun::run`](nqueens_solver::runs::CountRun::run), running the counter's loop as a
//! WGSL compute shader through `wgpu` (Vulkan, Metal or DX12; Mesa's software Vulkan driver,
//! lavapipe, where there is no GPU).
//!
//! # How a batch runs
//!
//! The counter hands over batches of tasks (sized to take about a quarter of a second) and
//! keeps two of them queued ([`Device::submit`], [`Device::finish`]). On [`submit`](Device::submit)
//! the host cuts the batch's tasks into sub-boards on every core
//! ([`device::split_on_threads`]: the top rows searched on the CPU, exactly as the CPU loop
//! would), packs them (13 words each) into the upload buffer of a free *slot*, and dispatches
//! the kernel on them beside the classes' row tables ([`device::class_tables`]), then returns:
//! the split of the next batch runs while the GPU counts this one. On [`finish`](Device::finish)
//! it waits for the oldest batch, reads back 6 words per sub-board, adds them up per task
//! ([`device::Split::add`]), and sends again what the kernel gave up on (cut a row deeper) or
//! never took. Every task's result, node count included, is the one the CPU gives, so
//! checkpoints and shard results mix freely between CPUs and GPUs.
//!
//! # What it costs
//!
//! Per sub-board: the host's split (a row or two of the CPU loop), 52 bytes up and 24 bytes
//! back. A slot's buffers (sub-boards, results, read-back, parameters) grow and are reused
//! from dispatch to dispatch; the device keeps them, its pipeline and the class tables of
//! each n it has counted. `--stats` shows the sub-boards split per second of the host's
//! split, the share of the time the GPU waited for the host (from the GPU's own timestamps,
//! where the adapter has them) and the tuning ([`Tuning`]).
//!
//! # References
//!
//! The GPU counters of the records search one sub-board per thread with bit masks in
//! registers, as here: Preußer's Q27 (on FPGAs), NQueensFAF (a stack of one word per row in
//! workgroup memory, the masks recomputed on the way back up: the `queen` frames) and ygch's
//! CUDA counter (threads that take the next sub-board from an atomic counter when theirs is
//! done: `refill`). The work split and the symmetry rules are the CPU counter's own.

mod tuning;

use std::borrow::Cow;
use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nqueens_solver::engines::counter::{MAX_N, TaskResult};
use nqueens_solver::runs::device::{
    self, ClassTable, Device, DeviceError, Split, SplitBuffers, SubBoard, SubBoardResult,
};
use wgpu::util::DeviceExt;

pub use tuning::{Frame, MAX_BUDGET, Memory, SOFTWARE_BUDGET, STACK_ROWS, Tables, Tuning};

/// The kernel's source, before the tuning's switches (see [`Tuning::source`]).
const SHADER: &str = include_str!("count.wgsl");

/// Sub-boards per dispatch at most: 52 MiB of sub-boards and 24 MiB of results, below every
/// adapter's smallest storage-buffer binding limit (128 MiB).
pub const CHUNK: usize = 1 << 20;

/// Words per sub-board in the upload and per result in the read-back.
const BOARD_WORDS: usize = 13;
const RESULT_WORDS: usize = 6;

/// A result's `state` word (the shader's constants of the same names).
const UNTOUCHED: u32 = 0;
const DONE: u32 = 1;
const GAVE_UP: u32 = 2;

/// What can go wrong with a GPU.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GpuError {
    /// No adapter at all (no driver, or no GPU and no software driver).
    #[error(
        "no GPU adapter found (Vulkan, Metal or DX12): install the GPU's driver, or Mesa's software Vulkan driver for a test (Debian: apt-get install mesa-vulkan-drivers libvulkan1)"
    )]
    NoAdapter,
    /// An adapter index beyond the list.
    #[error("there is no GPU {index}: this machine has {count} (see `nqueens devices`)")]
    NoSuchAdapter {
        /// The index asked for.
        index: usize,
        /// Adapters found.
        count: usize,
    },
    /// The adapter refused to open a device.
    #[error("{adapter} cannot be opened: {reason}")]
    Open {
        /// The adapter.
        adapter: String,
        /// The driver's words.
        reason: String,
    },
    /// A board beyond the counter.
    #[error("the GPU counter handles n up to {MAX_N}; n = {0} is too large")]
    TooLarge(u32),
    /// A tuning variable with a value it does not take.
    #[error("{0}")]
    Tuning(String),
}

/// What kind of device an adapter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A GPU of its own.
    Discrete,
    /// A GPU sharing the CPU's memory.
    Integrated,
    /// A virtual machine's GPU.
    Virtual,
    /// Something else.
    Other,
    /// A driver that runs on the CPU (lavapipe, SwiftShader, WARP).
    Software,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Discrete => "discrete GPU",
            Kind::Integrated => "integrated GPU",
            Kind::Virtual => "virtual GPU",
            Kind::Other => "other",
            Kind::Software => "software (runs on the CPU)",
        })
    }
}

/// One adapter, as `nqueens devices` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adapter {
    /// Its position in [`adapters`] (what `--gpu-index` and MPI's local ranks pick).
    pub index: usize,
    /// The name the driver gives.
    pub name: String,
    /// The API it is reached through (Vulkan, Metal, DX12).
    pub backend: String,
    /// What kind of device it is.
    pub kind: Kind,
    /// The driver and its version, where the driver says.
    pub driver: String,
    /// Largest storage buffer one binding may hold, in bytes.
    pub max_storage_binding: u64,
    /// Most workgroups per dispatch dimension.
    pub max_workgroups_per_dimension: u32,
    /// Most invocations per workgroup.
    pub max_invocations_per_workgroup: u32,
}

impl Adapter {
    fn of(index: usize, adapter: &wgpu::Adapter) -> Adapter {
        let info = adapter.get_info();
        let limits = adapter.limits();
        let kind = match info.device_type {
            wgpu::DeviceType::DiscreteGpu => Kind::Discrete,
            wgpu::DeviceType::IntegratedGpu => Kind::Integrated,
            wgpu::DeviceType::VirtualGpu => Kind::Virtual,
            wgpu::DeviceType::Cpu => Kind::Software,
            wgpu::DeviceType::Other => Kind::Other,
        };
        let driver = [info.driver.as_str(), info.driver_info.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        Adapter {
            index,
            name: info.name,
            backend: format!("{:?}", info.backend),
            kind,
            driver,
            max_storage_binding: u64::from(limits.max_storage_buffer_binding_size),
            max_workgroups_per_dimension: limits.max_compute_workgroups_per_dimension,
            max_invocations_per_workgroup: limits.max_compute_invocations_per_workgroup,
        }
    }

    /// Whether it is a GPU, not a driver that runs on the CPU.
    pub fn is_hardware(&self) -> bool {
        self.kind != Kind::Software
    }
}

impl fmt::Display for Adapter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}, {})", self.name, self.backend, self.kind)
    }
}

fn instance() -> wgpu::Instance {
    wgpu::Instance::new(&wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN | wgpu::Backends::METAL | wgpu::Backends::DX12,
        ..Default::default()
    })
}

/// The adapters that can run compute shaders, hardware first (discrete, integrated,
/// virtual, other, software), in the driver's order within each kind.
fn compute_adapters(instance: &wgpu::Instance) -> Vec<wgpu::Adapter> {
    let mut adapters: Vec<wgpu::Adapter> = instance
        .enumerate_adapters(wgpu::Backends::all())
        .into_iter()
        .filter(|a| {
            a.get_downlevel_capabilities()
                .flags
                .contains(wgpu::DownlevelFlags::COMPUTE_SHADERS)
        })
        .collect();
    adapters.sort_by_key(|a| Adapter::of(0, a).kind);
    adapters
}

/// Every adapter this machine offers for counting, best first.
pub fn adapters() -> Vec<Adapter> {
    compute_adapters(&instance())
        .iter()
        .enumerate()
        .map(|(index, a)| Adapter::of(index, a))
        .collect()
}

/// Which adapter to open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The best adapter of any kind (a software driver where there is nothing else).
    Any,
    /// The best hardware GPU, or none.
    Hardware,
    /// The adapter at this index of [`adapters`].
    Index(usize),
}

/// The adapter `choice` names; `None` for [`Choice::Hardware`] on a machine without a GPU.
fn pick(choice: Choice) -> Result<Option<(wgpu::Adapter, Adapter)>, GpuError> {
    let adapters = compute_adapters(&instance());
    let index = match choice {
        Choice::Any if adapters.is_empty() => return Err(GpuError::NoAdapter),
        Choice::Any => 0,
        Choice::Hardware => match adapters
            .iter()
            .position(|a| Adapter::of(0, a).is_hardware())
        {
            Some(index) => index,
            None => return Ok(None),
        },
        Choice::Index(_) if adapters.is_empty() => return Err(GpuError::NoAdapter),
        Choice::Index(index) if index >= adapters.len() => {
            return Err(GpuError::NoSuchAdapter {
                index,
                count: adapters.len(),
            });
        }
        Choice::Index(index) => index,
    };
    let raw = adapters
        .into_iter()
        .nth(index)
        .expect("an index below the count");
    let adapter = Adapter::of(index, &raw);
    Ok(Some((raw, adapter)))
}

/// The counter's loop on one GPU. See the [crate documentation](crate).
pub struct GpuCounter {
    adapter: Adapter,
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    tuning: Tuning,
    /// The class tables of each n counted, on the device.
    tables: Vec<(u32, wgpu::Buffer)>,
    /// The first error the device reported outside a call that could return it.
    error: Arc<Mutex<Option<String>>>,
    /// Where the tasks are cut into sub-boards (from the rows to search when `None`).
    start_row: Option<usize>,
    /// Threads that split and pack.
    threads: usize,
    /// Buffers for one dispatch each, reused; `free` lists the ones not in flight.
    slots: Vec<Slot>,
    free: Vec<usize>,
    /// The batches submitted and not yet finished, oldest first.
    queued: VecDeque<Batch>,
    /// The split's buffers and the sub-board lists of finished batches, reused.
    split_buffers: SplitBuffers,
    spare: Vec<Vec<SubBoard>>,
    /// Nanoseconds per timestamp tick, where the adapter writes timestamps.
    tick: Option<f64>,
    measured: Measured,
}

/// One dispatch's buffers, grown as needed and reused.
struct Slot {
    /// Sub-boards it holds at most.
    capacity: usize,
    params: wgpu::Buffer,
    boards: wgpu::Buffer,
    results: wgpu::Buffer,
    /// The `refill` counter.
    taken: wgpu::Buffer,
    /// The results and the two timestamps, copied for the host to read.
    readback: wgpu::Buffer,
    /// The pass's start and end times, and where they are resolved.
    timestamps: Option<(wgpu::QuerySet, wgpu::Buffer)>,
}

/// A dispatch on its way.
struct InFlight {
    slot: usize,
    /// Its sub-boards: `boards[first..first + count]` of its batch.
    first: usize,
    count: usize,
    submission: wgpu::SubmissionIndex,
    mapped: Arc<Mutex<Option<Result<(), wgpu::BufferAsyncError>>>>,
}

/// A batch submitted: the host's part of its tasks, its sub-boards and their dispatches.
struct Batch {
    n: u32,
    split: Split,
    boards: Vec<SubBoard>,
    dispatches: Vec<InFlight>,
}

/// What the kernel said about one sub-board.
enum Outcome {
    /// Counted, in this many steps.
    Done(SubBoardResult, u32),
    GaveUp,
    Untouched,
}

/// The figures `--stats` shows (see [`Device::stats`]).
#[derive(Debug, Default)]
struct Measured {
    /// Pieces (tasks or parts of tasks) submitted, the sub-boards the host split them into,
    /// and the wall time it took.
    pieces: u64,
    sub_boards: u64,
    split: Duration,
    /// Wall time spent packing sub-boards and adding up results.
    pack: Duration,
    collect: Duration,
    dispatches: u64,
    /// Queens the kernel placed on the sub-boards it counted, and its steps on them (loop
    /// iterations, and 8n per symmetry check).
    nodes: u64,
    steps: u64,
    /// Sub-boards the kernel gave up on (cut deeper), and ones it never took (sent again).
    gave_up: u64,
    untouched: u64,
    /// The GPU's own clock: nanoseconds inside passes (overlaps counted once), and the span
    /// from the first pass's start to the last one's end, in ticks.
    busy_ns: f64,
    first_tick: Option<u64>,
    last_tick: u64,
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

    fn build(
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
        let source = tuning.source();
        let descriptor = wgpu::ShaderModuleDescriptor {
            label: Some("count.wgsl"),
            source: wgpu::ShaderSource::Wgsl(Cow::Owned(source)),
        };
        let module = if tuning.checks {
            device.create_shader_module(descriptor)
        } else {
            // SAFETY: wgpu's checks guard against shaders that index out of bounds or loop
            // forever. This one's indices stay in bounds (rows below 32, workgroup-memory
            // stacks below STACK_ROWS rows, which the host's cut guarantees: see
            // `max_rows`) and its loops end (the main loop within the step budget, the others
            // within n). Only a tuning run asks for it (NQUEENS_GPU_CHECKS=off), to measure
            // what the checks cost; every variant is tested with the checks on.
            unsafe {
                device.create_shader_module_trusted(
                    descriptor,
                    wgpu::ShaderRuntimeChecks::unchecked(),
                )
            }
        };
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("count"),
            layout: None,
            module: &module,
            entry_point: Some("count"),
            compilation_options: Default::default(),
            cache: None,
        });
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
    fn take_error(&self) -> Option<String> {
        self.error
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take()
    }

    /// The class tables of n, made on first use.
    fn tables(&mut self, n: u32) -> usize {
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
    fn max_rows(&self) -> usize {
        match self.tuning.stack {
            Memory::Workgroup => STACK_ROWS,
            Memory::Private => MAX_N as usize,
        }
    }

    /// Where the tasks of n are cut into sub-boards.
    fn start_row(&self, n: u32) -> usize {
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
        if !(1..=MAX_N).contains(&n) {
            return Err(DeviceError(GpuError::TooLarge(n).to_string()));
        }
        if let Some(deep) = boards
            .iter()
            .find(|b| n as usize - (b.row as usize).min(n as usize) > self.max_rows())
        {
            return Err(DeviceError(format!(
                "a sub-board of n = {n} from row {} is deeper than this kernel's stack ({} rows)",
                deep.row,
                self.max_rows()
            )));
        }
        let mut found: Vec<Option<Option<SubBoardResult>>> = vec![None; boards.len()];
        let mut todo: Vec<usize> = (0..boards.len()).collect();
        while !todo.is_empty() {
            let batch: Vec<SubBoard> = todo.iter().map(|&i| boards[i]).collect();
            let mut again = Vec::new();
            for (chunk, first) in batch.chunks(CHUNK).zip((0..).step_by(CHUNK)) {
                let flight = self.dispatch(n, chunk, first)?;
                for (k, outcome) in self.collect(flight)?.into_iter().enumerate() {
                    let i = todo[first + k];
                    match outcome {
                        Outcome::Done(result, _) => found[i] = Some(Some(result)),
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
    fn take_slot(&mut self, count: usize) -> usize {
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
    /// and starts the kernel on them.
    fn dispatch(
        &mut self,
        n: u32,
        boards: &[SubBoard],
        first: usize,
    ) -> Result<InFlight, DeviceError> {
        let count = boards.len();
        debug_assert!((1..=CHUNK).contains(&count));
        let tables = self.tables(n);
        let s = self.take_slot(count);
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
                resource: self.tables[tables].1.as_entire_binding(),
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
            layout: &self.pipeline.get_bind_group_layout(0),
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
            pass.set_pipeline(&self.pipeline);
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
    fn collect(&mut self, flight: InFlight) -> Result<Vec<Outcome>, DeviceError> {
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
    fn dispatch_all(&mut self, n: u32, boards: &[SubBoard]) -> Result<Vec<InFlight>, DeviceError> {
        boards
            .chunks(CHUNK)
            .zip((0..).step_by(CHUNK))
            .map(|(chunk, first)| self.dispatch(n, chunk, first))
            .collect()
    }
}

impl Slot {
    fn new(device: &wgpu::Device, capacity: usize, timestamps: bool) -> Slot {
        let buffer = |label, size: usize, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: size as u64,
                usage,
                mapped_at_creation: false,
            })
        };
        use wgpu::BufferUsages as U;
        Slot {
            capacity,
            params: buffer("params", 16, U::UNIFORM | U::COPY_DST),
            boards: buffer(
                "sub-boards",
                capacity * BOARD_WORDS * 4,
                U::STORAGE | U::COPY_DST,
            ),
            results: buffer(
                "results",
                capacity * RESULT_WORDS * 4,
                U::STORAGE | U::COPY_SRC | U::COPY_DST,
            ),
            taken: buffer("taken", 4, U::STORAGE | U::COPY_DST),
            readback: buffer(
                "read-back",
                capacity * RESULT_WORDS * 4 + 16,
                U::MAP_READ | U::COPY_DST,
            ),
            timestamps: timestamps.then(|| {
                (
                    device.create_query_set(&wgpu::QuerySetDescriptor {
                        label: Some("pass times"),
                        ty: wgpu::QueryType::Timestamp,
                        count: 2,
                    }),
                    buffer("pass times", 16, U::QUERY_RESOLVE | U::COPY_SRC),
                )
            }),
        }
    }
}

impl Measured {
    /// Records a pass that ran from tick `start` to tick `end`.
    fn pass(&mut self, start: u64, end: u64, tick: f64) {
        if end < start {
            return;
        }
        let first = *self.first_tick.get_or_insert(start);
        // Passes may overlap: count the time after the last one's end only.
        let from = start.max(self.last_tick).max(first);
        if end > from {
            self.busy_ns += (end - from) as f64 * tick;
        }
        self.last_tick = self.last_tick.max(end);
    }
}

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

/// Packs sub-boards into the upload's bytes (13 words each, see [`board_bytes`]) on up to
/// `threads` threads.
fn pack(boards: &[SubBoard], out: &mut [u8], threads: usize) {
    const BYTES: usize = BOARD_WORDS * 4;
    let per_thread = boards.len().div_ceil(threads.max(1)).max(1 << 14);
    let work = |boards: &[SubBoard], out: &mut [u8]| {
        for (board, out) in boards.iter().zip(out.chunks_exact_mut(BYTES)) {
            board_bytes(board, out.try_into().expect("a sub-board's bytes"));
        }
    };
    if per_thread >= boards.len() {
        return work(boards, out);
    }
    std::thread::scope(|scope| {
        for (boards, out) in boards
            .chunks(per_thread)
            .zip(out.chunks_mut(per_thread * BYTES))
        {
            scope.spawn(move || work(boards, out));
        }
    });
}

/// A class table in the shader's layout (`ClassTable`: 36 words).
fn table_words(table: &ClassTable) -> impl Iterator<Item = u32> + '_ {
    table
        .blocked
        .iter()
        .copied()
        .chain(table.tie_rows)
        .chain([table.side_squares, table.last_square])
}

/// A sub-board in the shader's layout (`Board`: 13 words, the prefix four columns a word,
/// row 0 in the low byte: the prefix's bytes as they are, in little-endian words).
fn board_bytes(board: &SubBoard, out: &mut [u8; BOARD_WORDS * 4]) {
    let head = [board.b1, board.row, board.columns, board.left, board.right];
    for (word, out) in head.iter().zip(out.chunks_exact_mut(4)) {
        out.copy_from_slice(&word.to_le_bytes());
    }
    out[20..].copy_from_slice(&board.prefix);
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}
