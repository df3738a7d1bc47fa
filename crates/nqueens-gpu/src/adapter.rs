//! The adapters a machine offers for counting: what `nqueens devices` lists, and the one a
//! [`Choice`] names.

use std::fmt;

use crate::error::GpuError;

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
pub(crate) fn pick(choice: Choice) -> Result<Option<(wgpu::Adapter, Adapter)>, GpuError> {
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
