//! `--device` and `nqueens devices`: the GPU backend (`nqueens-gpu`) when this binary is built
//! with the `gpu` feature, and a clear refusal when it is not.

use anyhow::{Result, bail};
use clap::ValueEnum;
use nqueens_solver::Problem;
use nqueens_solver::engines::counter;
use nqueens_solver::methods::Method;
use nqueens_solver::runs::SharedDevice;

use crate::status::Status;

/// Where `count` runs the counter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum DeviceChoice {
    /// The CPU's threads.
    #[default]
    Cpu,
    /// A GPU adapter: the best one, or the one --gpu-index names (a software driver counts).
    Gpu,
    /// A hardware GPU when this machine has one, else the CPU.
    Auto,
}

/// The device `choice` names (`--device`, `--gpu-index`) for a count of `problem` by
/// `method`, opened; `None` for the CPU. Only the counter counts on a device, and only whole
/// boards up to its limit: anything else is refused before a device is opened.
pub fn open(
    choice: DeviceChoice,
    index: Option<usize>,
    method: Method,
    problem: &Problem,
) -> Result<Option<SharedDevice>> {
    if choice == DeviceChoice::Cpu && index.is_none() {
        return Ok(None);
    }
    if !matches!(method, Method::Auto | Method::Counter) {
        bail!(
            "--device counts with the counter method, not {} (leave out --method)",
            method.name()
        );
    }
    if problem.is_completion() {
        bail!(
            "--device counts whole boards only: the counter relies on the board's symmetry, which fixed queens and blocked squares break (leave out --device to count such a board on the CPU)"
        );
    }
    if problem.n() > counter::MAX_N {
        bail!(
            "--device counts boards up to n = {}; n = {} is too large",
            counter::MAX_N,
            problem.n()
        );
    }
    if choice == DeviceChoice::Cpu {
        bail!("--gpu-index picks a GPU: it needs --device gpu (or auto)");
    }
    imp::open(choice, index)
}

/// `nqueens devices`.
pub fn list() -> Result<Status> {
    imp::list()
}

#[cfg(feature = "gpu")]
mod imp {
    use anyhow::Result;
    use nqueens_gpu::{Choice, GpuCounter};
    use nqueens_solver::runs::SharedDevice;

    use crate::gpu::DeviceChoice;
    use crate::status::Status;

    pub fn open(choice: DeviceChoice, index: Option<usize>) -> Result<Option<SharedDevice>> {
        let choice = match (choice, index) {
            (_, Some(index)) => Choice::Index(index),
            (DeviceChoice::Auto, None) => Choice::Hardware,
            _ => Choice::Any,
        };
        Ok(GpuCounter::open(choice)?.map(SharedDevice::new))
    }

    pub fn list() -> Result<Status> {
        let adapters = nqueens_gpu::adapters();
        if adapters.is_empty() {
            return Err(nqueens_gpu::GpuError::NoAdapter.into());
        }
        println!("index  kind            backend  name (driver)  limits");
        for a in adapters {
            let kind = match a.kind {
                nqueens_gpu::Kind::Software => "software".to_string(),
                other => other.to_string(),
            };
            println!(
                "{:<6} {:<15} {:<8} {}{}  storage binding {} MiB, {} workgroups per dimension, {} invocations per workgroup",
                a.index,
                kind,
                a.backend,
                a.name,
                if a.driver.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", a.driver)
                },
                a.max_storage_binding >> 20,
                a.max_workgroups_per_dimension,
                a.max_invocations_per_workgroup,
            );
        }
        Ok(Status::Success)
    }
}

#[cfg(not(feature = "gpu"))]
mod imp {
    use anyhow::{Result, bail};
    use nqueens_solver::runs::SharedDevice;

    use crate::gpu::DeviceChoice;
    use crate::status::Status;

    const NO_GPU: &str = "this nqueens was built without GPU support: build it with `cargo build --release --features gpu` (it needs a Vulkan, Metal or DX12 driver at run time)";

    pub fn open(choice: DeviceChoice, _index: Option<usize>) -> Result<Option<SharedDevice>> {
        match choice {
            DeviceChoice::Auto => Ok(None),
            _ => bail!("--device gpu: {NO_GPU}"),
        }
    }

    pub fn list() -> Result<Status> {
        bail!("{NO_GPU}")
    }
}
