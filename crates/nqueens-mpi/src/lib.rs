//! The counter on MPI: `mpirun -n P nqueens-mpi count N` counts the solutions of the n×n board
//! on P processes (ranks) of T threads each, with the task list, the kernel and the checkpoint
//! format of `nqueens count`.
//!
//! # The design
//!
//! Static splits (`nqueens count --shard I/K`) leave load balance to luck: within one n, task
//! times differ by orders of magnitude. Here rank 0 *coordinates*: it hands out task ids on
//! request, in batches, and every rank (rank 0 too, its threads count like everyone's) asks for
//! the next batch while its queue still holds enough tasks per thread to outlast two round
//! trips (measured as it runs), so no thread waits on the network ([`schedule::Prefetch`]). Batches shrink towards the end so that the last tasks
//! spread over all threads ([`schedule::Coordinator::assign`]). Results travel back with their
//! task ids; rank 0 accepts each task's result once, from the rank it gave it to, and appends
//! it to the checkpoint as it arrives ([`session`]).
//!
//! Tasks are counted in pieces (the counter's module `pieces`), and every rank sends rank 0
//! where its tasks in flight have got: when the job stops (Ctrl-C, SIGTERM: each rank stops
//! within milliseconds and sends its positions before rank 0 ends the job) and every ten
//! minutes while it runs. Rank 0 appends them to the checkpoint beside the results.
//!
//! Nothing is reassigned while a job runs: MPI jobs die whole (`mpirun` ends every rank when
//! one fails, and a rank that fails itself calls `MPI_Abort`). A stopped or killed job is
//! resumed by running the same command again: rank 0 reads the checkpoint back, only the
//! tasks missing from it are handed out, and those it holds a position of go out with it, so
//! a rank goes on from the pieces done (the checkpoint of a `nqueens count` too). A killed
//! job loses the pieces counted since the last positions were sent; nothing recorded is
//! counted twice.
//!
//! # The parts
//!
//! Only the binary touches MPI (behind the `mpi` feature); everything it drives is plain Rust
//! and tested with the workspace:
//!
//! - [`schedule`]: the coordinator's bookkeeping (exactly once, batches, resume) and the
//!   load-balance figure;
//! - [`pool`]: the workers of one rank: threads, or a GPU fed in batches (`--device gpu`,
//!   one rank per GPU, each rank taking the GPU of its index among the ranks of its node);
//! - [`wire`]: the two messages as arrays of `u64` (results, positions, batches, a stop);
//! - [`session`]: the roles of rank 0 and the other ranks over any transport (a trait), with
//!   an in-process transport in the tests;
//! - [`progress`]: rank 0's view of the job (`--progress`): tasks done of the whole count,
//!   the share of the work and an ETA from the counter's work model, in the words of
//!   `nqueens count`'s progress line.
//!
//! # Ending
//!
//! As `nqueens count`: exit 0 with the count, 1 for a count that contradicts the published
//! one, 2 for a usage or checkpoint error, 3 when `--time-limit` stopped the job (the
//! checkpoint resumable), 130 when SIGINT or SIGTERM did. A scheduler's stop (SIGTERM to every
//! rank, as Slurm sends at `scancel` or a time limit) ends the job with 130, `mpirun`'s exit
//! status too; Ctrl-C to `mpirun` itself makes it exit 1 whatever the ranks say (Open MPI's
//! launcher sets that code when it is interrupted), though the ranks still save and say what
//! they kept.
//!
//! Task granularity: `--split-depth +K` fixes K more rows per task
//! ([`nqueens_solver::runs::SplitList`]), for jobs of thousands of threads.

pub mod pool;
pub mod progress;
pub mod schedule;
pub mod session;
pub mod wire;

pub use pool::Workers;
pub use schedule::{Coordinator, Prefetch, RankStats, efficiency};
pub use session::{
    Coordination, CoordinatorLink, Ending, MpiError, Outcome, Settings, WorkerLink, work,
};
