//! The device's side of a dispatch: the kernels built from the tuning's source, a slot's
//! buffers, the figures `--stats` shows, and the bytes of the sub-boards and tables in the
//! shader's layout.

use std::borrow::Cow;
use std::time::Duration;

use nqueens_solver::runs::device::{ClassTable, SubBoard};

use crate::tuning::Tuning;

/// Words per sub-board in the upload and per result in the read-back.
pub(crate) const BOARD_WORDS: usize = 13;
pub(crate) const RESULT_WORDS: usize = 6;

/// One dispatch's buffers, grown as needed and reused.
pub(crate) struct Slot {
    /// Sub-boards it holds at most.
    pub(crate) capacity: usize,
    pub(crate) params: wgpu::Buffer,
    pub(crate) boards: wgpu::Buffer,
    pub(crate) results: wgpu::Buffer,
    /// The `refill` counter.
    pub(crate) taken: wgpu::Buffer,
    /// The results and the two timestamps, copied for the host to read.
    pub(crate) readback: wgpu::Buffer,
    /// The pass's start and end times, and where they are resolved.
    pub(crate) timestamps: Option<(wgpu::QuerySet, wgpu::Buffer)>,
}

/// The figures `--stats` shows (see [`Device::stats`]).
#[derive(Debug, Default)]
pub(crate) struct Measured {
    /// Pieces (tasks or parts of tasks) submitted, the sub-boards the host split them into,
    /// and the wall time it took.
    pub(crate) pieces: u64,
    pub(crate) sub_boards: u64,
    pub(crate) split: Duration,
    /// Wall time spent packing sub-boards and adding up results.
    pub(crate) pack: Duration,
    pub(crate) collect: Duration,
    pub(crate) dispatches: u64,
    /// Queens the kernel placed on the sub-boards it counted, and its steps on them (loop
    /// iterations, and 8n per symmetry check).
    pub(crate) nodes: u64,
    pub(crate) steps: u64,
    /// Sub-boards the kernel gave up on (cut deeper), and ones it never took (sent again).
    pub(crate) gave_up: u64,
    pub(crate) untouched: u64,
    /// The GPU's own clock: nanoseconds inside passes (overlaps counted once), and the span
    /// from the first pass's start to the last one's end, in ticks.
    pub(crate) busy_ns: f64,
    pub(crate) first_tick: Option<u64>,
    pub(crate) last_tick: u64,
}

/// Which kernel a dispatch runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// The class kernel: the counter's tasks, the exact check of tied solutions.
    Classes,
    /// The constellation kernel: plain completions (see [`constellations`]).
    Constellations,
}

/// The kernel for `tuning` (the constellation kernel where `constellations`), built on
/// `device`; errors go to the device's error scope.
pub(crate) fn build_pipeline(
    device: &wgpu::Device,
    tuning: &Tuning,
    constellations: bool,
) -> wgpu::ComputePipeline {
    let source = tuning.source_for(constellations);
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
            device.create_shader_module_trusted(descriptor, wgpu::ShaderRuntimeChecks::unchecked())
        }
    };
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("count"),
        layout: None,
        module: &module,
        entry_point: Some("count"),
        compilation_options: Default::default(),
        cache: None,
    })
}

impl Slot {
    pub(crate) fn new(device: &wgpu::Device, capacity: usize, timestamps: bool) -> Slot {
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
    pub(crate) fn pass(&mut self, start: u64, end: u64, tick: f64) {
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

/// Packs sub-boards into the upload's bytes (13 words each, see [`board_bytes`]) on up to
/// `threads` threads.
pub(crate) fn pack(boards: &[SubBoard], out: &mut [u8], threads: usize) {
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
pub(crate) fn table_words(table: &ClassTable) -> impl Iterator<Item = u32> + '_ {
    table
        .blocked
        .iter()
        .copied()
        .chain(table.tie_rows)
        .chain([table.side_squares, table.last_square])
}

/// A sub-board in the shader's layout (`Board`: 13 words, the prefix four columns a word,
/// row 0 in the low byte: the prefix's bytes as they are, in little-endian words).
pub(crate) fn board_bytes(board: &SubBoard, out: &mut [u8; BOARD_WORDS * 4]) {
    let head = [board.b1, board.row, board.columns, board.left, board.right];
    for (word, out) in head.iter().zip(out.chunks_exact_mut(4)) {
        out.copy_from_slice(&word.to_le_bytes());
    }
    out[20..].copy_from_slice(&board.prefix);
}

pub(crate) fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}
