//! `--device` and `nqueens devices`: the GPU backend (`nqueens-gpu`) when this binary is built
//! with the `gpu` feature, and a clear refusal when it is not.
//!
//! A GPU counts in one of two ways, chosen by the GPU crate's tuning (`NQUEENS_GPU_KERNEL`):
//! the counter's tasks on the device ([`GpuRun::Device`], the default, where every option of
//! the counter works), or the constellation kernel ([`GpuRun::Constellations`]: experimental,
//! whole-board totals only; `count` refuses what it cannot do, naming the default kernel).

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

/// A total and the figures `--stats` shows (`name=value`).
pub type Total = (u128, Vec<(&'static str, String)>);

/// What counts on an opened GPU (never made without the `gpu` feature).
#[cfg_attr(not(feature = "gpu"), allow(dead_code))]
pub enum GpuRun {
    /// The counter's tasks, cut into sub-boards for the class kernel.
    Device(SharedDevice),
    /// The constellation kernel (`NQUEENS_GPU_KERNEL=constellations`): totals only.
    Constellations(Box<imp::Constellations>),
}

/// The device `choice` names (`--device`, `--gpu-index`) for a count of `problem` by
/// `method`, opened; `None` for the CPU. Only the counter counts on a device, and only whole
/// boards up to its limit: anything else is refused before a device is opened.
pub fn open(
    choice: DeviceChoice,
    index: Option<usize>,
    method: Method,
    problem: &Problem,
) -> Result<Option<GpuRun>> {
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
pub mod imp {
    use std::sync::atomic::AtomicBool;

    use anyhow::Result;
    use nqueens_gpu::{Choice, GpuCounter, KernelChoice};
    use nqueens_solver::runs::SharedDevice;

    use crate::gpu::{DeviceChoice, GpuRun, Total};
    use crate::status::Status;

    pub fn open(choice: DeviceChoice, index: Option<usize>) -> Result<Option<GpuRun>> {
        let choice = match (choice, index) {
            (_, Some(index)) => Choice::Index(index),
            (DeviceChoice::Auto, None) => Choice::Hardware,
            _ => Choice::Any,
        };
        Ok(
            GpuCounter::open(choice)?.map(|gpu| match gpu.tuning().kernel {
                KernelChoice::Subboards => GpuRun::Device(SharedDevice::new(gpu)),
                KernelChoice::Constellations => {
                    GpuRun::Constellations(Box::new(Constellations(gpu)))
                }
            }),
        )
    }

    /// A GPU opened for the constellation kernel.
    pub struct Constellations(GpuCounter);

    impl Constellations {
        /// The adapter, for `--stats`.
        pub fn describe(&self) -> String {
            self.0.adapter().to_string()
        }

        /// The total of the n×n board and the figures `--stats` shows; `None` once `stop` is
        /// raised (checked between batches of about a quarter of a second).
        pub fn count(&mut self, n: u32, stop: &AtomicBool) -> Result<Option<Total>> {
            let Some(c) = self.0.count_constellations_until(n, stop)? else {
                return Ok(None);
            };
            let stats = vec![
                ("kernel", "constellations".to_string()),
                ("constellations", c.constellations.to_string()),
                ("starts", c.starts.to_string()),
                ("gave_up", c.gave_up.to_string()),
                ("overlapped", c.overlapped.to_string()),
                ("steps", c.steps.to_string()),
                ("nodes", c.nodes.to_string()),
                (
                    "gpu_busy_s",
                    c.gpu_busy_s
                        .map_or("unknown".to_string(), |s| format!("{s:.3}")),
                ),
                (
                    "gpu_wait",
                    c.gpu_wait
                        .map_or("unknown".to_string(), |w| format!("{w:.3}")),
                ),
                ("tuning", self.0.tuning().to_string().replace(' ', ",")),
            ];
            Ok(Some((u128::from(c.total), stats)))
        }
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
pub mod imp {
    use std::sync::atomic::AtomicBool;

    use anyhow::{Result, bail};

    use crate::gpu::{DeviceChoice, GpuRun, Total};
    use crate::status::Status;

    const NO_GPU: &str = "this nqueens was built without GPU support: build it with `cargo build --release --features gpu` (it needs a Vulkan, Metal or DX12 driver at run time)";

    /// No GPU, so no constellation kernel: never made.
    pub enum Constellations {}

    impl Constellations {
        pub fn describe(&self) -> String {
            match *self {}
        }

        pub fn count(&mut self, _n: u32, _stop: &AtomicBool) -> Result<Option<Total>> {
            match *self {}
        }
    }

    pub fn open(choice: DeviceChoice, _index: Option<usize>) -> Result<Option<GpuRun>> {
        match choice {
            DeviceChoice::Auto => Ok(None),
            _ => bail!("--device gpu: {NO_GPU}"),
        }
    }

    pub fn list() -> Result<Status> {
        bail!("{NO_GPU}")
    }
}
