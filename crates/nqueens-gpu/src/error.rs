//! What can go wrong with a GPU: no adapter, an adapter that will not open, a board beyond the
//! counter, a tuning variable with a value it does not take. The lowest room of the crate:
//! every other one may return it.

use nqueens_solver::engines::counter::MAX_N;

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
