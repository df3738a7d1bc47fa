//! The GPU counter's tuning knobs: how deep the host cuts the tasks, how long an invocation may
//! search, and which variant of the kernel runs. Each is read from an environment variable when
//! a [`GpuCounter`](crate::GpuCounter) is opened ([`Tuning::from_env`]), over the defaults for the
//! adapter's kind ([`Tuning::gpu`], [`Tuning::software`]), so one binary can be timed over a
//! grid of them on a machine without a compiler (`scripts/gpu-check --sweep`); every variant
//! counts exactly (the tests compare each with the CPU loop sub-board by sub-board).
//!
//! | variable | values (GPU default, software driver default) | what it sets |
//! |---|---|---|
//! | `NQUEENS_GPU_ROWS` | 1–32 (13; 8) | rows the kernel searches below the host's cut: one more makes sub-boards about seven times larger |
//! | `NQUEENS_GPU_BUDGET` | steps (2^22; 3,500, never more) | steps an invocation takes before it gives up and its sub-board is cut deeper |
//! | `NQUEENS_GPU_WORKGROUP` | 32, 64, 128, 256 (64) | invocations per workgroup |
//! | `NQUEENS_GPU_FRAME` | `queen`, `wide` (`queen`; `wide`) | one word per row on the stack (the queen; masks recomputed on the way back) or the row's four masks |
//! | `NQUEENS_GPU_STACK` | `private`, `workgroup` (`workgroup`; `private`) | where the stack lives (`workgroup` needs `queen` frames) |
//! | `NQUEENS_GPU_TABLES` | `storage`, `workgroup` (`storage`) | where the kernel reads the classes' row masks |
//! | `NQUEENS_GPU_REFILL` | `on`, `off` (`on`; `off`) | an invocation that finishes takes the next sub-board |
//! | `NQUEENS_GPU_LAST_ROW` | `on`, `off` (`on`) | the last row's queen counted from row n − 2 |
//! | `NQUEENS_GPU_LANES` | invocations (2^18; 2^20) | invocations per dispatch with `refill` |
//! | `NQUEENS_GPU_BATCH_MS` | milliseconds (250) | the time one batch of tasks should take |
//! | `NQUEENS_GPU_CHECKS` | `on`, `off` (`on`) | wgpu's bounds checks and loop bounding in the kernel (`off` trusts it) |
//! | `NQUEENS_GPU_KERNEL` | `subboards`, `constellations` (`subboards`) | what `nqueens count N --device gpu` runs: the counter's tasks cut into sub-boards (the class kernel), or the constellation kernel ([`GpuCounter::count_constellations`](crate::GpuCounter::count_constellations); experimental, totals of whole boards only; on an H200 slower than the class kernel with 13 rows, 1.23× faster at n = 20 with `NQUEENS_GPU_ROWS=12`, level at n = 21: docs/notes/gpu.md) |
//!
//! `NQUEENS_GPU_KERNEL` is a choice for the front ends, not for the [`Device`] path: a
//! [`GpuCounter`](crate::GpuCounter) driven as a [`Device`] always runs the class kernel, so
//! the CLI calls [`GpuCounter::count_constellations_until`](crate::GpuCounter::count_constellations_until)
//! itself when it is set (and refuses what that cannot do: `--unique`, checkpoints, shards,
//! progress, time limits), and `nqueens-mpi` refuses it.
//!
//! [`Device`]: nqueens_solver::runs::Device
//!
//! The software driver's defaults are the fastest there (the tests and CI run on it); the
//! GPU's are the best guesses before a GPU measured them.

use std::fmt;

use crate::error::GpuError;

/// The kernel's source, before the tuning's switches (see [`Tuning::source`]).
const SHADER: &str = include_str!("count.wgsl");

/// What a stack frame holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame {
    /// The queen's bit, one word per row; the masks are recomputed on the way back up.
    Queen,
    /// The row's taken squares, its three masks and its number, pushed only when the row has
    /// squares left (the CPU loop's frame).
    Wide,
}

/// Where a per-invocation array lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// The invocation's private memory (registers or, on most GPUs, local memory in the cache).
    Private,
    /// Workgroup (shared) memory.
    Workgroup,
}

/// Where the kernel reads the classes' row masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tables {
    /// The storage buffer.
    Storage,
    /// A copy in workgroup memory, made by each workgroup as it starts.
    Workgroup,
}

/// Which kernel a whole-board total runs on (`NQUEENS_GPU_KERNEL`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KernelChoice {
    /// The class kernel on the counter's tasks cut into sub-boards (the default; every
    /// front end's option works with it).
    #[default]
    Subboards,
    /// The constellation kernel ([`GpuCounter::count_constellations`](crate::GpuCounter::count_constellations)):
    /// totals of whole boards only.
    Constellations,
}

/// Rows a workgroup-memory stack holds per invocation (the host cuts the tasks so that the
/// kernel never searches more).
pub const STACK_ROWS: usize = 16;

/// The GPU counter's tuning: each field is an `NQUEENS_GPU_*` variable (see
/// [`Tuning::from_env`]): `ROWS`, `BUDGET`, `WORKGROUP`, `FRAME`, `STACK`, `TABLES`, `REFILL`,
/// `LAST_ROW`, `LANES`, `BATCH_MS`, `CHECKS`, `KERNEL`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Rows the kernel searches below the host's cut.
    pub rows: usize,
    /// Steps an invocation takes before it gives up.
    pub budget: u32,
    /// Invocations per workgroup.
    pub workgroup: u32,
    /// What a stack frame holds.
    pub frame: Frame,
    /// Where the stack lives.
    pub stack: Memory,
    /// Where the class tables are read.
    pub tables: Tables,
    /// Whether an invocation that finishes takes the next sub-board.
    pub refill: bool,
    /// Whether the last row's queen is counted from row n − 2.
    pub last_row: bool,
    /// Invocations per dispatch with `refill`.
    pub lanes: u32,
    /// How long one batch of tasks should take, in milliseconds.
    pub batch_ms: u64,
    /// Whether wgpu's bounds checks and loop bounding stay in the kernel.
    pub checks: bool,
    /// Which kernel a front end's whole-board total runs on.
    pub kernel: KernelChoice,
}

/// The budget on a software driver, at most: llvmpipe (lavapipe) ends all loops of an
/// invocation group after 65,535 iterations in all, silently, and a group of up to 16 lanes may
/// add its lanes' symmetry checks to the budget, so 16 × 3,500 + 3,500 stays below that.
pub const SOFTWARE_BUDGET: u32 = 3_500;

impl Default for Tuning {
    /// [`Tuning::gpu`].
    fn default() -> Self {
        Tuning::gpu()
    }
}

/// The largest budget: a sub-board's counters are u32 words in the kernel, and an invocation
/// takes fewer steps than its budget plus one symmetry check.
pub const MAX_BUDGET: u32 = 1 << 30;

impl Tuning {
    /// The defaults for a GPU: sub-boards of 13 rows (at n = 20, 25,000 queens on average and
    /// 220,000 at most: a few milliseconds of one thread), a budget of 2^22 steps (some
    /// milliseconds, far below a display driver's watchdog), and as many invocations per
    /// dispatch as an H100 holds at once (270,336), each taking sub-boards until none is left.
    /// The stack lives in workgroup memory: on an H100 at n = 19 that variant counted in 1.58 s
    /// against 2.86–3.09 s with private stacks, the fastest of the sweep (BENCHMARKS.md).
    pub fn gpu() -> Tuning {
        Tuning {
            rows: 13,
            budget: 1 << 22,
            workgroup: 64,
            frame: Frame::Queen,
            stack: Memory::Workgroup,
            tables: Tables::Storage,
            refill: true,
            last_row: true,
            lanes: 1 << 18,
            batch_ms: 250,
            checks: true,
            kernel: KernelChoice::Subboards,
        }
    }

    /// The defaults for a software driver (which runs the kernel on the CPU's vector lanes):
    /// sub-boards of 8 rows, which its small budget ([`SOFTWARE_BUDGET`]) rarely has to cut
    /// again, and the variant that runs fastest there.
    pub fn software() -> Tuning {
        Tuning {
            rows: 8,
            budget: SOFTWARE_BUDGET,
            frame: Frame::Wide,
            stack: Memory::Private,
            refill: false,
            lanes: 1 << 20,
            ..Tuning::gpu()
        }
    }

    /// `base`, changed by the `NQUEENS_GPU_*` variables that are set (one per field, its name
    /// in capitals; a bad value is an error naming the variable and what it takes).
    pub fn from_env(base: Tuning) -> Result<Tuning, GpuError> {
        Tuning::from_vars(base, |name| std::env::var(name).ok())
    }

    /// [`from_env`](Self::from_env) with the variables from `var`.
    pub fn from_vars(
        base: Tuning,
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<Tuning, GpuError> {
        let mut tuning = base;
        let bad = |name: &str, value: &str, expected: &str| {
            GpuError::Tuning(format!("{name}={value}: expected {expected}"))
        };
        let number = |name: &str, low: u64, high: u64| -> Result<Option<u64>, GpuError> {
            let Some(value) = var(name) else {
                return Ok(None);
            };
            match value.trim().parse::<u64>() {
                Ok(x) if (low..=high).contains(&x) => Ok(Some(x)),
                _ => Err(bad(
                    name,
                    &value,
                    &format!("a whole number from {low} to {high}"),
                )),
            }
        };
        let choice = |name: &str, options: &[&str]| -> Result<Option<usize>, GpuError> {
            let Some(value) = var(name) else {
                return Ok(None);
            };
            match options.iter().position(|o| *o == value.trim()) {
                Some(i) => Ok(Some(i)),
                None => Err(bad(name, &value, &options.join(" or "))),
            }
        };
        if let Some(rows) = number("NQUEENS_GPU_ROWS", 1, 32)? {
            tuning.rows = rows as usize;
        }
        if let Some(budget) = number("NQUEENS_GPU_BUDGET", 1, u64::from(MAX_BUDGET))? {
            tuning.budget = budget as u32;
        }
        if let Some(workgroup) = number("NQUEENS_GPU_WORKGROUP", 1, 1024)? {
            if ![32, 64, 128, 256].contains(&workgroup) {
                return Err(bad(
                    "NQUEENS_GPU_WORKGROUP",
                    &workgroup.to_string(),
                    "32, 64, 128 or 256",
                ));
            }
            tuning.workgroup = workgroup as u32;
        }
        if let Some(i) = choice("NQUEENS_GPU_FRAME", &["queen", "wide"])? {
            tuning.frame = [Frame::Queen, Frame::Wide][i];
            // Wide frames do not fit in workgroup memory: without a stack asked for, they take
            // private stacks rather than an error about a default nobody chose.
            if tuning.frame == Frame::Wide {
                tuning.stack = Memory::Private;
            }
        }
        if let Some(i) = choice("NQUEENS_GPU_STACK", &["private", "workgroup"])? {
            tuning.stack = [Memory::Private, Memory::Workgroup][i];
        }
        if let Some(i) = choice("NQUEENS_GPU_TABLES", &["storage", "workgroup"])? {
            tuning.tables = [Tables::Storage, Tables::Workgroup][i];
        }
        if let Some(i) = choice("NQUEENS_GPU_REFILL", &["on", "off"])? {
            tuning.refill = i == 0;
        }
        if let Some(i) = choice("NQUEENS_GPU_LAST_ROW", &["on", "off"])? {
            tuning.last_row = i == 0;
        }
        if let Some(lanes) = number("NQUEENS_GPU_LANES", 1, 1 << 24)? {
            tuning.lanes = lanes as u32;
        }
        if let Some(ms) = number("NQUEENS_GPU_BATCH_MS", 1, 60_000)? {
            tuning.batch_ms = ms;
        }
        if let Some(i) = choice("NQUEENS_GPU_CHECKS", &["on", "off"])? {
            tuning.checks = i == 0;
        }
        if let Some(i) = choice("NQUEENS_GPU_KERNEL", &["subboards", "constellations"])? {
            tuning.kernel = [KernelChoice::Subboards, KernelChoice::Constellations][i];
        }
        tuning.check()?;
        Ok(tuning)
    }

    /// Refuses the combinations the kernel does not have.
    pub fn check(&self) -> Result<(), GpuError> {
        if self.stack == Memory::Workgroup && self.frame == Frame::Wide {
            return Err(GpuError::Tuning(
                "NQUEENS_GPU_STACK=workgroup needs NQUEENS_GPU_FRAME=queen (wide frames do not fit in workgroup memory)".to_string(),
            ));
        }
        Ok(())
    }

    /// The kernel's source for this tuning: the constants, then `count.wgsl` with the
    /// switched lines kept or dropped.
    pub fn source(&self) -> String {
        self.source_for(false)
    }

    /// [`source`](Self::source) for the class kernel, or for the constellation kernel (no
    /// symmetry check; its tables are always read from the storage buffer).
    pub fn source_for(&self, constellations: bool) -> String {
        let switches = [
            ("CONSTELLATIONS", constellations),
            ("FRAME_QUEEN", self.frame == Frame::Queen),
            ("STACK_WORKGROUP", self.stack == Memory::Workgroup),
            (
                "TABLES_WORKGROUP",
                self.tables == Tables::Workgroup && !constellations,
            ),
            ("REFILL", self.refill),
            ("LAST_ROW", self.last_row),
        ];
        let mut source = format!(
            "const WORKGROUP: u32 = {}u;\nconst STACK_ROWS: u32 = {STACK_ROWS}u;\n",
            self.workgroup
        );
        source.push_str(&preprocess(SHADER, &switches));
        source
    }
}

impl fmt::Display for Tuning {
    /// Every knob, as `name=value` pairs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on = |b: bool| if b { "on" } else { "off" };
        write!(
            f,
            "rows={} budget={} workgroup={} frame={} stack={} tables={} refill={} last_row={} lanes={} batch_ms={} checks={} kernel={}",
            self.rows,
            self.budget,
            self.workgroup,
            match self.frame {
                Frame::Queen => "queen",
                Frame::Wide => "wide",
            },
            match self.stack {
                Memory::Private => "private",
                Memory::Workgroup => "workgroup",
            },
            match self.tables {
                Tables::Storage => "storage",
                Tables::Workgroup => "workgroup",
            },
            on(self.refill),
            on(self.last_row),
            self.lanes,
            self.batch_ms,
            on(self.checks),
            match self.kernel {
                KernelChoice::Subboards => "subboards",
                KernelChoice::Constellations => "constellations",
            },
        )
    }
}

/// `source` with the lines between `//# if NAME` (or `//# if !NAME`), `//# else` and `//# end`
/// kept where the switch `NAME` says so (switches nest); the marker lines are dropped.
///
/// # Panics
/// On a switch not in `switches` or unbalanced markers: the source is this crate's own.
fn preprocess(source: &str, switches: &[(&str, bool)]) -> String {
    let mut out = String::with_capacity(source.len());
    // Per open `if`: whether its branch is kept, and whether the enclosing lines are.
    let mut open: Vec<(bool, bool)> = Vec::new();
    let mut keep = true;
    for line in source.lines() {
        let marker = line.trim_start().strip_prefix("//# ");
        match marker.map(str::trim) {
            Some(condition) if condition.starts_with("if ") => {
                let name = &condition[3..];
                let (name, negated) = match name.strip_prefix('!') {
                    Some(name) => (name, true),
                    None => (name, false),
                };
                let value = switches
                    .iter()
                    .find(|(n, _)| *n == name)
                    .unwrap_or_else(|| panic!("count.wgsl: unknown switch {name}"))
                    .1;
                open.push((value != negated, keep));
                keep = keep && value != negated;
            }
            Some("else") => {
                let (taken, outer) = open.last_mut().expect("count.wgsl: else without if");
                *taken = !*taken;
                keep = *outer && *taken;
            }
            Some("end") => {
                let (_, outer) = open.pop().expect("count.wgsl: end without if");
                keep = outer;
            }
            Some(other) => panic!("count.wgsl: unknown marker {other}"),
            None if keep => {
                out.push_str(line);
                out.push('\n');
            }
            None => {}
        }
    }
    assert!(open.is_empty(), "count.wgsl: if without end");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switched_lines_are_kept_or_dropped_and_nest() {
        let source =
            "a\n//# if X\nb\n//# if !Y\nc\n//# else\nd\n//# end\n//# else\ne\n//# end\nf\n";
        let run = |x, y| preprocess(source, &[("X", x), ("Y", y)]);
        assert_eq!(run(true, false), "a\nb\nc\nf\n");
        assert_eq!(run(true, true), "a\nb\nd\nf\n");
        assert_eq!(run(false, false), "a\ne\nf\n");
        assert_eq!(run(false, true), "a\ne\nf\n");
    }

    #[test]
    fn every_switch_of_the_kernel_is_known_and_balanced() {
        // Every combination assembles (preprocess panics on an unknown or unbalanced marker).
        for frame in [Frame::Queen, Frame::Wide] {
            for refill in [false, true] {
                for last_row in [false, true] {
                    let tuning = Tuning {
                        frame,
                        refill,
                        last_row,
                        ..Tuning::default()
                    };
                    let source = tuning.source();
                    assert!(!source.lines().any(|l| l.trim_start().starts_with("//#")));
                    assert_eq!(source.contains("atomicAdd"), refill);
                    assert_eq!(source.contains("fn set_frame"), frame == Frame::Queen);
                }
            }
        }
    }

    #[test]
    fn the_variables_set_the_knobs_and_bad_values_are_named() {
        let vars = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            Tuning::from_vars(Tuning::software(), vars(&[])).unwrap(),
            Tuning::software()
        );
        let tuning = Tuning::from_vars(
            Tuning::gpu(),
            vars(&[
                ("NQUEENS_GPU_ROWS", "14"),
                ("NQUEENS_GPU_BUDGET", "100000"),
                ("NQUEENS_GPU_WORKGROUP", "256"),
                ("NQUEENS_GPU_FRAME", "queen"),
                ("NQUEENS_GPU_STACK", "workgroup"),
                ("NQUEENS_GPU_TABLES", "workgroup"),
                ("NQUEENS_GPU_REFILL", "off"),
                ("NQUEENS_GPU_LAST_ROW", "off"),
                ("NQUEENS_GPU_LANES", "4096"),
                ("NQUEENS_GPU_BATCH_MS", "1000"),
                ("NQUEENS_GPU_CHECKS", "off"),
                ("NQUEENS_GPU_KERNEL", "constellations"),
            ]),
        )
        .unwrap();
        assert_eq!(
            tuning,
            Tuning {
                rows: 14,
                budget: 100_000,
                workgroup: 256,
                frame: Frame::Queen,
                stack: Memory::Workgroup,
                tables: Tables::Workgroup,
                refill: false,
                last_row: false,
                lanes: 4096,
                batch_ms: 1000,
                checks: false,
                kernel: KernelChoice::Constellations,
            }
        );
        for (pairs, message) in [
            (
                &[("NQUEENS_GPU_ROWS", "0")][..],
                "NQUEENS_GPU_ROWS=0: expected a whole number from 1 to 32",
            ),
            (
                &[("NQUEENS_GPU_WORKGROUP", "96")],
                "NQUEENS_GPU_WORKGROUP=96: expected 32, 64, 128 or 256",
            ),
            (
                &[("NQUEENS_GPU_KERNEL", "classes")],
                "NQUEENS_GPU_KERNEL=classes: expected subboards or constellations",
            ),
            (
                &[("NQUEENS_GPU_FRAME", "tall")],
                "NQUEENS_GPU_FRAME=tall: expected queen or wide",
            ),
            (
                &[
                    ("NQUEENS_GPU_STACK", "workgroup"),
                    ("NQUEENS_GPU_FRAME", "wide"),
                ],
                "NQUEENS_GPU_STACK=workgroup needs NQUEENS_GPU_FRAME=queen",
            ),
        ] {
            let pairs: &'static [(&'static str, &'static str)] = pairs;
            let e = Tuning::from_vars(Tuning::gpu(), vars(pairs))
                .unwrap_err()
                .to_string();
            assert!(e.contains(message), "{e}");
        }
        // Wide frames alone take private stacks instead of failing on the default stack.
        let wide =
            Tuning::from_vars(Tuning::gpu(), vars(&[("NQUEENS_GPU_FRAME", "wide")])).unwrap();
        assert_eq!((wide.frame, wide.stack), (Frame::Wide, Memory::Private));
        assert_eq!(Tuning::gpu().stack, Memory::Workgroup);
        assert_eq!(Tuning::software().stack, Memory::Private);
    }
}
