//! `nqueens devices`: the GPU adapters `count --device gpu` can use.

use anyhow::Result;
use clap::Args;

use crate::status::Status;

/// List the GPU adapters `count --device gpu` can use, best first, with their index (for
/// --gpu-index), kind, backend, driver and limits.
///
/// Needs a binary built with `--features gpu`. A software driver (Mesa's lavapipe) is listed
/// as "software": it runs the GPU kernel on the CPU, for tests, far slower than `--device cpu`.
/// Exits 2 when there is no adapter or no GPU support.
#[derive(Debug, Args)]
pub struct DevicesArgs {}

pub fn run(_args: DevicesArgs) -> Result<Status> {
    crate::gpu::list()
}
