//! The nqueens counter on a GPU: [`GpuCounter`] is a [`Device`] for
//! [`CountRun::run`](nqueens_solver::runs::CountRun::run), running the counter's loop as a
//! WGSL compute shader through `wgpu` (Vulkan, Metal or DX12; Mesa's software Vulkan driver,
//! lavapipe, where there is no GPU).
//!
//! # How a batch runs
//!
//! The counter hands over batches of tasks (sized to take about a quarter of a second) and
//! keeps two of them queued ([`Device::submit`], [`Device::finish`]). On [`submit`](nqueens_solver::runs::Device::submit)
//! the host cuts the batch's tasks into sub-boards on every core
//! ([`device::split_on_threads`]: the top rows searched on the CPU, exactly as the CPU loop
//! would), packs them (13 words each) into the upload buffer of a free *slot*, and dispatches
//! the kernel on them beside the classes' row tables ([`device::class_tables`]), then returns:
//! the split of the next batch runs while the GPU counts this one. On [`finish`](nqueens_solver::runs::Device::finish)
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
//! # Two kernels: classes and constellations
//!
//! The *class kernel* above is the counter's loop: its sub-boards are the counter's tasks'
//! (Takaken's classes, the row-0 queen's column), and a solution with a queen on a tie square
//! is checked exactly against its seven images (8n steps). On a GPU that check is the wrong
//! shape: one tied solution's 8n steps hold its 31 warp neighbours, and a third of the
//! solutions are tied.
//!
//! The *constellation kernel* ([`GpuCounter::count_constellations`], module
//! [`constellations`]) starts where no solution needs a check, as NQueensFAF and Q27 do: every
//! solution has one queen on each border line (row 0, row n − 1, column 0, column n − 1), and
//! the board's symmetries map solutions and their border queens alike, so the host counts one
//! representative per orbit of border-queen *constellations* and multiplies its completions by
//! the orbit's size (8, 4 or 2). The rest is this crate's own: the border queens' rows are left
//! out of the search (each row's table holds the border queens' attacks, and a per-row shift
//! carries the diagonals across the rows left out, so every row searched is a row with a
//! choice), the member of each orbit searched is the one whose search is estimated smallest
//! from its table alone (no queen placed on the host to choose), and the kernel is the class kernel's source with the check
//! compiled out (`CONSTELLATIONS`).
//!
//! What the lanes do, counted by the kernel's loop run on the CPU (`examples/lanes.rs`; the
//! tests hold that emulation to the kernel step for step on the machine's adapter), n = 16
//! cut with 13 rows left to the kernel: 2.02·10⁸ steps in all against 2.60·10⁸ for the class
//! kernel (−22 %; −22 % at n = 14, −13 % at n = 15 and 17), and in batches of 32 sub-boards
//! that run until their slowest is done, the slowest one's share of its batch 0.051 against
//! 0.069 (1/32 would be perfectly even), 64 % of the batches' lane time working against 57 %.
//! With 8 rows to the kernel (the software driver's cut) the batches' working share goes from
//! 23 % to 44 %. The search places more queens than the class kernel's (each constellation searches
//! its own top rows): the steps saved are the checks' and the border rows'. No GPU has timed
//! it yet, so it is not the default: the counter's tasks, checkpoints, `--unique` (a
//! constellation does not show a solution's own symmetry) and MPI keep the class kernel.
//! `NQUEENS_GPU_KERNEL=constellations` ([`Tuning`]) makes `nqueens count N --device gpu` count
//! the total with it ([`GpuCounter::count_constellations_until`], which cuts on a thread of
//! its own and streams the starts in batches of about a quarter of a second, the next sent
//! before the last is read back, and stops between them); the CLI refuses what it
//! cannot do, naming the default kernel, and `nqueens-mpi` refuses the variable. Before the
//! first batch the host lists the orbits and chooses their representatives: 2.9·10⁸
//! instructions at n = 21 (about a tenth of a second on one core), where the probe it
//! replaced placed 9.6·10⁹ queens (about 100 s).
//!
//! # References
//!
//! The GPU counters of the records search one sub-board per thread with bit masks in
//! registers, as here: Preußer's Q27 (on FPGAs), NQueensFAF (a stack of one word per row in
//! workgroup memory, the masks recomputed on the way back up: the `queen` frames) and ygch's
//! CUDA counter (threads that take the next sub-board from an atomic counter when theirs is
//! done: `refill`). The work split and the symmetry rules are the CPU counter's own; the
//! constellations are NQueensFAF's and Q27's idea (see above).
//!
//! [`Device`]: nqueens_solver::runs::Device
//! [`Device::submit`]: nqueens_solver::runs::Device::submit
//! [`Device::finish`]: nqueens_solver::runs::Device::finish
//! [`Device::stats`]: nqueens_solver::runs::Device::stats
//! [`device::split_on_threads`]: nqueens_solver::runs::device::split_on_threads
//! [`device::class_tables`]: nqueens_solver::runs::device::class_tables
//! [`device::Split::add`]: nqueens_solver::runs::device::Split::add

mod adapter;
mod batches;
mod buffers;
mod constellation_count;
pub mod constellations;
mod counter;
mod error;
mod tuning;

pub use adapter::{Adapter, Choice, Kind, adapters};
pub use constellation_count::ConstellationCount;
pub use counter::{CHUNK, GpuCounter};
pub use error::GpuError;
pub use tuning::{
    Frame, KernelChoice, MAX_BUDGET, Memory, SOFTWARE_BUDGET, STACK_ROWS, Tables, Tuning,
};
