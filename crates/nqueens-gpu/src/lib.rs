//! The nqueens counter on a GPU: [`GpuCounter`] is a [`Device`] for
//! [`Counter::run`](nqueens::engines::counter::Counter::run), running the counter's loop as a
//! WGSL compute shader through `wgpu` (Vulkan, Metal or DX12; Mesa's software Vulkan driver,
//! lavapipe, where there is no GPU).
//!
//! # How a batch runs
//!
//! The counter hands over a batch of tasks (sized to take about a quarter of a second). The
//! host cuts them into sub-boards ([`device::split`]: the top rows searched on the CPU, exactly
//! as the CPU loop would), uploads the sub-boards (9 words each) beside the classes' row
//! tables ([`device::class_tables`]), runs one invocation per sub-board (`count.wgsl`: the
//! counting loop with its lookahead and the exact symmetry check of tied solutions), reads back
//! 8 words per sub-board and adds them up per task ([`device::Split::finish`]). Every task's
//! result, node count included, is the one the CPU gives, so checkpoints and shard results
//! mix freely between CPUs and GPUs.
//!
//! # What it costs
//!
//! Per batch: one upload (52 bytes) and one read-back (40 bytes) per sub-board, and one
//! dispatch per [`CHUNK`] sub-boards. The device holds no state between batches but its
//! pipeline and the class tables of the last n.
//!
//! # References
//!
//! The GPU counters of the records (Preußer's Q27 on FPGAs, NQueensFAF, ygch's CUDA counter)
//! search one sub-board per thread with bit masks in registers, as here; the work split and
//! the symmetry rules are the CPU counter's own.

use std::borrow::Cow;
use std::fmt;
use std::sync::{Arc, Mutex};

use nqueens::engines::counter::device::{
    self, ClassTable, Device, DeviceError, SubBoard, SubBoardResult,
};
use nqueens::engines::counter::{MAX_N, TaskResult};
use wgpu::util::DeviceExt;

/// The kernel's source.
const SHADER: &str = include_str!("count.wgsl");

/// Invocations per workgroup (the shader's `@workgroup_size`).
const WORKGROUP: u32 = 64;

/// Sub-boards per dispatch at most: 52 MiB of sub-boards and 40 MiB of results, below every
/// adapter's smallest storage-buffer binding limit (128 MiB).
pub const CHUNK: usize = 1 << 20;

/// Words per sub-board in the upload and per result in the read-back.
const BOARD_WORDS: usize = 13;
const RESULT_WORDS: usize = 10;

/// Steps one invocation may take on a GPU before it gives up and its sub-board is cut deeper:
/// some milliseconds of one thread, so a dispatch stays far below a display driver's watchdog.
const HARDWARE_BUDGET: u32 = 1 << 22;

/// The same on a software driver: llvmpipe (lavapipe) ends all loops of an invocation group
/// after 65,535 iterations in all, and a group of up to 16 lanes may add its lanes' symmetry
/// checks to the budget, so 16 × 3,500 + 3,500 stays below that.
const SOFTWARE_BUDGET: u32 = 3_500;

/// Rows a software driver's invocation searches (its budget is small): sub-boards cut this
/// far from the bottom rarely need cutting again.
const SOFTWARE_ROWS: usize = 8;

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

/// The counter's loop on one GPU. See the [crate documentation](crate).
pub struct GpuCounter {
    adapter: Adapter,
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    /// The class tables of the last n, on the device.
    tables: Option<(u32, wgpu::Buffer)>,
    /// The first error the device reported outside a call that could return it.
    error: Arc<Mutex<Option<String>>>,
    /// Where the tasks are cut into sub-boards (`device::start_row` when `None`).
    start_row: Option<usize>,
    /// Steps an invocation may take ([`HARDWARE_BUDGET`] or [`SOFTWARE_BUDGET`]).
    budget: u32,
}

impl fmt::Debug for GpuCounter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GpuCounter({})", self.adapter)
    }
}

impl GpuCounter {
    /// Opens the adapter `choice` names and builds the kernel on it. `Ok(None)` when
    /// `choice` is [`Choice::Hardware`] and there is no hardware GPU.
    pub fn open(choice: Choice) -> Result<Option<GpuCounter>, GpuError> {
        let instance = instance();
        let adapters = compute_adapters(&instance);
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
        let raw = &adapters[index];
        let adapter = Adapter::of(index, raw);
        let (device, queue) = pollster::block_on(raw.request_device(&wgpu::DeviceDescriptor {
            label: Some("nqueens counter"),
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
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("count.wgsl"),
            source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(SHADER)),
        });
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
        Ok(Some(GpuCounter {
            device,
            queue,
            pipeline,
            tables: None,
            error,
            start_row: None,
            budget: if adapter.is_hardware() {
                HARDWARE_BUDGET
            } else {
                SOFTWARE_BUDGET
            },
            adapter,
        }))
    }

    /// The adapter it runs on.
    pub fn adapter(&self) -> &Adapter {
        &self.adapter
    }

    /// Cuts tasks into sub-boards at `row` instead of the default
    /// ([`device::start_row`]), for tests and tuning.
    pub fn set_start_row(&mut self, row: Option<usize>) {
        self.start_row = row;
    }

    /// The first error the device reported, if any (then taken).
    fn take_error(&self) -> Option<String> {
        self.error
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take()
    }

    fn tables(&mut self, n: u32) -> &wgpu::Buffer {
        if self.tables.as_ref().is_none_or(|(m, _)| *m != n) {
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
            self.tables = Some((n, buffer));
        }
        &self.tables.as_ref().expect("just made").1
    }

    /// Sets the steps an invocation may take before it gives up (at least 1), for tests.
    pub fn set_budget(&mut self, budget: u32) {
        self.budget = budget.max(1);
    }

    /// Where the tasks of n are cut into sub-boards.
    fn start_row(&self, n: u32) -> usize {
        match self.start_row {
            Some(row) => row,
            None if self.adapter.is_hardware() => device::start_row(n),
            None => device::start_row_for(n, SOFTWARE_ROWS),
        }
    }

    /// What the kernel finds for each of these sub-boards of the n×n board (n ≤ 32): `None`
    /// where the invocation ran out of steps and gave up.
    pub fn count_sub_boards(
        &mut self,
        n: u32,
        boards: &[SubBoard],
    ) -> Result<Vec<Option<SubBoardResult>>, DeviceError> {
        if n > MAX_N {
            return Err(DeviceError(GpuError::TooLarge(n).to_string()));
        }
        let mut found = Vec::with_capacity(boards.len());
        for chunk in boards.chunks(CHUNK) {
            found.extend(self.dispatch(n, chunk)?);
        }
        Ok(found)
    }

    fn dispatch(
        &mut self,
        n: u32,
        boards: &[SubBoard],
    ) -> Result<Vec<Option<SubBoardResult>>, DeviceError> {
        let count = boards.len() as u32;
        if count == 0 {
            return Ok(Vec::new());
        }
        let groups = count.div_ceil(WORKGROUP);
        let across = groups.min(self.adapter.max_workgroups_per_dimension.max(1));
        let down = groups.div_ceil(across);
        let params = [n, count, across * WORKGROUP, self.budget];
        let words: Vec<u32> = boards.iter().flat_map(board_words).collect();
        let result_bytes = (boards.len() * RESULT_WORDS * 4) as u64;
        self.tables(n);
        let device = &self.device;
        let tables = &self.tables.as_ref().expect("made above").1;
        let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("params"),
            contents: &bytes(&params),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("sub-boards"),
            contents: &bytes(&words),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let output = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("results"),
            size: result_bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("read-back"),
            size: result_bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("count"),
            layout: &self.pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: params.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: tables.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: input.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: output.as_entire_binding(),
                },
            ],
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("count"),
        });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("count"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(across, down, 1);
        }
        encoder.copy_buffer_to_buffer(&output, 0, &readback, 0, result_bytes);
        self.queue.submit([encoder.finish()]);
        let slice = readback.slice(..);
        let mapped = Arc::new(Mutex::new(None));
        let sink = mapped.clone();
        slice.map_async(wgpu::MapMode::Read, move |result| {
            *sink.lock().unwrap_or_else(|p| p.into_inner()) = Some(result);
        });
        let polled = device.poll(wgpu::PollType::Wait);
        if let Some(e) = self.take_error() {
            return Err(DeviceError(e));
        }
        polled.map_err(|e| DeviceError(e.to_string()))?;
        match mapped.lock().unwrap_or_else(|p| p.into_inner()).take() {
            Some(Ok(())) => {}
            Some(Err(e)) => return Err(DeviceError(e.to_string())),
            None => return Err(DeviceError("the results never arrived".to_string())),
        }
        let data = slice.get_mapped_range();
        let found = data
            .chunks_exact(RESULT_WORDS * 4)
            .map(|record| {
                let word = |i: usize| {
                    let low = u32::from_le_bytes(record[8 * i..8 * i + 4].try_into().unwrap());
                    let high = u32::from_le_bytes(record[8 * i + 4..8 * i + 8].try_into().unwrap());
                    u64::from(high) << 32 | u64::from(low)
                };
                (word(4) == 0).then(|| SubBoardResult {
                    eightfold: word(0),
                    tied: TaskResult {
                        total: word(1),
                        unique: word(2),
                        nodes: 0,
                    },
                    nodes: word(3),
                })
            })
            .collect();
        drop(data);
        readback.unmap();
        Ok(found)
    }
}

impl Device for GpuCounter {
    fn describe(&self) -> String {
        self.adapter.to_string()
    }

    /// Cuts the tasks into sub-boards, counts them, and cuts the ones the kernel gave up on
    /// a row deeper until every piece is counted.
    fn solve_batch(&mut self, n: u32, prefixes: &[&[u8]]) -> Result<Vec<TaskResult>, DeviceError> {
        let mut split = device::split(n, prefixes, self.start_row(n));
        let mut boards = std::mem::take(&mut split.boards);
        while !boards.is_empty() {
            let found = self.count_sub_boards(n, &boards)?;
            let mut deeper = Vec::new();
            for (board, found) in boards.iter().zip(&found) {
                match found {
                    Some(found) => split.add(board, found),
                    None => deeper.extend(split.refine(n, board, 1)),
                }
            }
            boards = deeper;
        }
        Ok(split.host)
    }
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

/// A sub-board in the shader's layout (`Board`: 13 words, the prefix four columns a word).
fn board_words(board: &SubBoard) -> [u32; BOARD_WORDS] {
    let mut words = [0; BOARD_WORDS];
    words[..5].copy_from_slice(&[board.b1, board.row, board.columns, board.left, board.right]);
    for (i, &col) in board.prefix.iter().enumerate() {
        words[5 + i / 4] |= u32::from(col) << (8 * (i % 4));
    }
    words
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}
