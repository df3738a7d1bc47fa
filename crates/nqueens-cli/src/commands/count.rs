//! `nqueens count`: count solutions, optionally with a checkpoint (`--checkpoint`) or one shard
//! of the count (`--shard I/K`, printed as JSON for `nqueens merge`); both use the counter.
//!
//! The flags are resolved once, before anything is counted, into a `Count` (the board, the
//! job, the report flags, where the answer goes) and what counts it (the method's engine, or
//! the counter for the runs only it can do); the count then runs from that value alone, so
//! no flag is read again and no check is left for after a run of hours.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use clap::Args;
use nqueens_solver::engines::counter;
use nqueens_solver::methods::Method;
use nqueens_solver::runs::forecast::{ProbeBudget, forecast};
use nqueens_solver::runs::{self, CountRun, CounterError, Opened, OpenedSink, RunOptions, Shard};
use nqueens_solver::{Engine, Job, Problem};

use crate::args::{BoardArgs, MethodArgs, all_cores};
use crate::gpu::{self, DeviceChoice, GpuRun};
use crate::interrupt::Interrupted;
use crate::output;
use crate::progress::ProgressLine;
use crate::status::{Failure, Status};

/// Count the solutions (all of them, or up to symmetry with --unique) and print the number.
#[derive(Debug, Args)]
pub struct CountArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Count solutions up to rotation and reflection (OEIS A002562) instead of all (A000170).
    /// With fixed queens or blocked squares: up to the rotations and reflections that map them
    /// onto themselves (most such boards keep none, and then every solution counts); --stats
    /// names the ones used.
    #[arg(long, short)]
    pub unique: bool,
    /// Worker threads [default: all cores].
    #[arg(long, short = 'j', value_name = "T", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub threads: Option<u32>,
    #[command(flatten)]
    pub method: MethodArgs,
    /// Write the count to this file instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<std::path::PathBuf>,
    /// Record each finished task in FILE (appended, synced at least once a second) and resume
    /// from it: rerun the same command after an interruption to get the exact count. The run
    /// says on stderr whether it starts a new checkpoint or resumes (and how far the count
    /// was); `nqueens status FILE` shows what a checkpoint holds, `nqueens audit FILE` recounts
    /// some of its tasks independently.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Count only part I of K of the work (1 ≤ I ≤ K) and print it as one line of JSON; add
    /// the K parts up with `nqueens merge`. Write it with `-o FILE`, which appears only once
    /// the shard has finished.
    #[arg(long, value_name = "I/K", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Where the counter runs: `cpu` (its threads), `gpu` (the best GPU adapter, or the one
    /// --gpu-index names; `nqueens devices` lists them, and a software driver counts, for
    /// tests), or `auto` (a hardware GPU when there is one, else the CPU). A GPU count uses
    /// the same tasks as a CPU count: checkpoints and shards of one resume and merge with the
    /// other. Needs a binary built with `--features gpu`.
    #[arg(long, value_enum, value_name = "WHERE", default_value_t = DeviceChoice::Cpu)]
    pub device: DeviceChoice,
    /// The GPU adapter to count on (its index in `nqueens devices`).
    #[arg(long, value_name = "I")]
    pub gpu_index: Option<usize>,
    /// Foretell the count instead of running it: the queens the counter will place (the work
    /// model's total, checked by a probe that counts randomly drawn tasks for about two
    /// seconds on the threads) with an interval of three standard errors, and the time that
    /// makes on this machine with this many threads.
    #[arg(long, conflicts_with_all = ["checkpoint", "shard", "output"])]
    pub estimate: bool,
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse::<Shard>().map_err(|e| e.to_string())
}

/// A count with every flag resolved, once, before anything is counted: the board, the job,
/// the report flags and progress line, where the answer goes, and what counts it.
struct Count {
    problem: Problem,
    job: Job,
    unique: bool,
    threads: usize,
    /// The method flags: what `--stats` reports.
    method: MethodArgs,
    progress: Option<ProgressLine>,
    output: Option<PathBuf>,
}

/// What counts: the engine the method names, or the counter itself for the runs only it can
/// do (`--checkpoint`, `--shard`, `--device`).
enum Counting {
    Engine(Box<dyn Engine>),
    Counter(Box<CountRun>, RunOptions),
    /// The GPU's constellation kernel (`NQUEENS_GPU_KERNEL=constellations`): a total only.
    Constellations(Box<gpu::imp::Constellations>),
}

/// Resolves the flags, then counts with the engine or the counter.
pub fn run(args: CountArgs) -> Result<Status> {
    if args.estimate {
        return estimate(&args);
    }
    let (count, counting) = Count::resolve(args)?;
    match counting {
        Counting::Engine(engine) => count.with_engine(engine),
        Counting::Counter(counter, options) => count.with_counter(*counter, &options),
        Counting::Constellations(gpu) => count.with_constellations(*gpu),
    }
}

impl Count {
    /// The flags, checked and resolved, in the order their mistakes are reported: the output
    /// paths (before a count that may take hours, not after it), the board, the device, what
    /// only the counter does, then the engine with its settings.
    fn resolve(args: CountArgs) -> Result<(Count, Counting)> {
        for path in args.output.iter().chain(&args.checkpoint) {
            output::check_output_path(path)?;
        }
        let problem = args.board.problem()?;
        let job = if args.unique {
            Job::CountUnique
        } else {
            Job::Count
        };
        let threads = args.threads.map_or_else(all_cores, |t| t as usize);
        let device = match gpu::open(args.device, args.gpu_index, args.method.method, &problem)? {
            Some(GpuRun::Constellations(gpu)) => {
                refuse_for_constellations(&args)?;
                let (_, progress) = args.method.config(threads);
                let count = Count {
                    problem,
                    job,
                    unique: false,
                    threads,
                    method: args.method,
                    progress,
                    output: args.output,
                };
                return Ok((count, Counting::Constellations(gpu)));
            }
            Some(GpuRun::Device(device)) => Some(device),
            None => None,
        };
        let by_counter = args.checkpoint.is_some() || args.shard.is_some() || device.is_some();
        if by_counter {
            refuse_for_the_counter(&args, &problem)?;
        }
        let (config, progress) = args.method.config(threads);
        let counting = if by_counter {
            let mut counter = CountRun::new(threads);
            counter.progress = config.progress.clone();
            counter.limits = config.limits.clone();
            counter.device = device;
            if args.checkpoint.is_some() {
                counter.on_open = Some(OpenedSink(Arc::new(|opened: &Opened| {
                    eprintln!("{}", opened_line(opened));
                })));
            }
            // Test knobs, not options: pieces of fewer rows cut small boards' tasks too, and a
            // node budget stops the count after about that many queens, so that the tests can
            // stop a small count inside its tasks and resume it.
            let knob = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
            if let Some(rows) = knob("NQUEENS_PIECE_ROWS") {
                counter.piece_rows = rows as usize;
            }
            if let Some(nodes) = knob("NQUEENS_NODE_LIMIT") {
                counter.limits.nodes = Some(nodes);
            }
            Engine::check(&counter, job, &problem)
                .map_err(|e| args.method.with_advice(e, job, &problem, &config))?;
            let options = RunOptions {
                checkpoint: args.checkpoint,
                shard: args.shard,
            };
            Counting::Counter(Box::new(counter), options)
        } else {
            Counting::Engine(args.method.engine_for(job, &problem, &config)?)
        };
        let count = Count {
            problem,
            job,
            unique: args.unique,
            threads,
            method: args.method,
            progress,
            output: args.output,
        };
        Ok((count, counting))
    }

    /// Counts with the engine the method names and checks the total against the published one.
    fn with_engine(mut self, mut engine: Box<dyn Engine>) -> Result<Status> {
        let (problem, threads) = (&self.problem, self.threads);
        if engine.name() == Method::Backtrack.name()
            && !problem.is_completion()
            && problem.n() > counter::MAX_N
        {
            // Asked for by name: run it, but never silently.
            eprintln!(
                "note: counting n = {} by plain backtracking, which needs roughly {:.0e} seconds on {threads} thread(s); Ctrl-C stops it (--progress shows its rate off a terminal)",
                problem.n(),
                nqueens_solver::methods::backtrack_count_seconds(problem.n(), threads),
            );
        }
        if let Some(warning) = self
            .method
            .method
            .long_count_warning(self.job, problem, threads)
        {
            eprintln!(
                "note: {warning}; Ctrl-C stops it (--progress shows its rate off a terminal)"
            );
        }
        let start = Instant::now();
        let counts = engine.count(problem, self.unique);
        if crate::interrupt::requested() {
            drop(self.progress.take());
            let advice = if engine.name() == Method::Counter.name() {
                " (use --checkpoint FILE to make a count resumable)"
            } else {
                ""
            };
            return Err(Interrupted(format!(
                "interrupted after {:.1} s: no checkpoint, nothing saved{advice}",
                start.elapsed().as_secs_f64()
            ))
            .into());
        }
        let counts = counts?;
        drop(self.progress.take());
        self.method.report(engine.as_ref(), start.elapsed());
        if self.unique {
            self.method.report_symmetries(problem);
        }
        runs::check_count(problem, &counts, engine.name()).map_err(wrong_total_fails)?;
        let shown = if self.unique {
            counts.unique.ok_or_else(|| {
                anyhow!(
                    "the {} method did not count unique solutions",
                    engine.name()
                )
            })?
        } else {
            counts.total
        };
        self.write(shown)
    }

    /// `--checkpoint`, `--shard` and `--device`: a run of the counter itself.
    fn with_counter(mut self, mut counter: CountRun, options: &RunOptions) -> Result<Status> {
        let report = counter
            .run_problem(&self.problem, self.unique, options)
            .map_err(nqueens_solver::Error::from);
        if crate::interrupt::requested() {
            drop(self.progress.take());
            return Err(interrupted_count(&counter, options).into());
        }
        let report = match report {
            Err(nqueens_solver::Error::Engine(nqueens_solver::EngineError::Stopped {
                method,
                stopped,
            })) if options.checkpoint.is_some() => {
                // Say what the checkpoint kept, as an interruption does.
                drop(self.progress.take());
                let reason = stopped.reason.to_string();
                let gave_up = crate::status::gave_up_line(&reason, &format!("{method} method"));
                let kept = saved_line(&counter, options).unwrap_or_default();
                eprintln!("{gave_up}{kept}");
                return Ok(Status::GaveUp);
            }
            report => report.map_err(wrong_total_fails)?,
        };
        drop(self.progress.take());
        self.method.report(&counter, report.elapsed);
        if let (true, Some(device)) = (self.method.stats, &counter.device) {
            eprintln!("device={}", device.describe());
            // The device's own figures, after the whole run's rate.
            let rate = report.new_nodes as f64 / report.elapsed.as_secs_f64().max(1e-9);
            let mut line = format!("nodes_per_s={rate:.3e}");
            for (name, value) in device.stats() {
                line.push_str(&format!(" {name}={value}"));
            }
            eprintln!("{line}");
        }
        if self.unique {
            self.method.report_symmetries(&self.problem);
        }
        if options.shard.is_some() {
            self.write(report.shard_result().to_json())
        } else if self.unique {
            self.write(report.unique)
        } else {
            self.write(report.total)
        }
    }

    /// `--device gpu` with `NQUEENS_GPU_KERNEL=constellations`: the total from the
    /// constellation kernel, checked against the published one; Ctrl-C stops it between
    /// batches (nothing is kept: it has no checkpoint).
    fn with_constellations(mut self, mut gpu: gpu::imp::Constellations) -> Result<Status> {
        let start = Instant::now();
        let never = std::sync::atomic::AtomicBool::new(false);
        let stop = crate::interrupt::stop_flag();
        let counted = gpu.count(self.problem.n(), stop.as_deref().unwrap_or(&never));
        drop(self.progress.take());
        let interrupted = || {
            Interrupted(format!(
                "interrupted after {:.1} s: no checkpoint, nothing saved (the constellation kernel keeps none; the default kernel, NQUEENS_GPU_KERNEL=subboards, does with --checkpoint FILE)",
                start.elapsed().as_secs_f64()
            ))
        };
        if crate::interrupt::requested() {
            return Err(interrupted().into());
        }
        let Some((total, stats)) = counted? else {
            return Err(interrupted().into());
        };
        if self.method.stats {
            eprintln!("device={}", gpu.describe());
            let mut line = format!("elapsed={:.3}s", start.elapsed().as_secs_f64());
            for (name, value) in stats {
                line.push_str(&format!(" {name}={value}"));
            }
            eprintln!("{line}");
        }
        runs::check_published(
            "the count",
            self.problem.n(),
            total,
            None,
            "a bug in the GPU's constellation kernel or a hardware fault (GPU, memory) is the likely cause",
        )
        .map_err(wrong_total_fails)?;
        self.write(total)
    }

    /// Writes the answer, one line, where `--output` says.
    fn write(&self, answer: impl std::fmt::Display) -> Result<Status> {
        let mut out = output::open(self.output.as_deref())?;
        writeln!(out, "{answer}")?;
        out.flush()?;
        Ok(Status::Success)
    }
}

/// What `--checkpoint`, `--shard` and `--device` refuse: another method, a shard of a board
/// with fixed queens or blocked squares, an output that is the checkpoint.
fn refuse_for_the_counter(args: &CountArgs, problem: &Problem) -> Result<()> {
    let method = args.method.method;
    if !matches!(method, Method::Auto | Method::Counter) {
        bail!(
            "--checkpoint and --shard need the counter method, not {}",
            method.name()
        );
    }
    if problem.is_completion() && args.shard.is_some() {
        // Shard results add up to the whole board's published counts.
        bail!(
            "--shard splits whole boards only, not boards with fixed queens or blocked squares (leave it out; --checkpoint makes such a count resumable)"
        );
    }
    if let (Some(output), Some(checkpoint)) = (&args.output, &args.checkpoint) {
        if same_file(output, checkpoint) {
            bail!(
                "--output {} is the checkpoint: the count would overwrite the record of its own work",
                output.display()
            );
        }
    }
    Ok(())
}

/// What the constellation kernel cannot do, refused before it starts: everything but a
/// whole board's total (fixed queens, blocked squares and other methods are refused for
/// every device before it is opened).
fn refuse_for_constellations(args: &CountArgs) -> Result<()> {
    let what = if args.unique {
        "unique solutions (--unique)"
    } else if args.checkpoint.is_some() {
        "a resumable count (--checkpoint)"
    } else if args.shard.is_some() {
        "a shard (--shard)"
    } else if args.method.progress {
        "a progress line (--progress)"
    } else if args.method.time_limit.is_some() {
        "a time limit (--time-limit)"
    } else {
        return Ok(());
    };
    bail!(
        "NQUEENS_GPU_KERNEL=constellations counts whole-board totals only, not {what}: unset it for the default kernel (subboards), which does"
    )
}

/// What an interrupted counter run kept: the tasks in its checkpoint, if it has one.
fn interrupted_count(counter: &CountRun, options: &RunOptions) -> Interrupted {
    let seconds = crate::interrupt::elapsed_seconds();
    match (&options.checkpoint, saved_line(counter, options)) {
        (None, _) => Interrupted(format!(
            "interrupted after {seconds:.1} s: no checkpoint, nothing saved (use --checkpoint \
             FILE to make a count resumable)"
        )),
        (Some(_), Some(kept)) => Interrupted(format!("interrupted{kept}")),
        // Stopped before the run had its books in order (opening the checkpoint, say).
        (Some(path), None) => Interrupted(format!(
            "interrupted after {seconds:.1} s: run the same command to resume from {}",
            path.display()
        )),
    }
}

/// `: K of T tasks saved in FILE, and P more in part — run the same command to resume`, for
/// a run that had its checkpoint open.
fn saved_line(counter: &CountRun, options: &RunOptions) -> Option<String> {
    let path = options.checkpoint.as_ref()?;
    let saved = counter.saved()?;
    let in_part = match saved.in_part {
        0 => String::new(),
        k => format!(", and {k} more in part"),
    };
    Some(format!(
        ": {} of {} tasks saved in {}{in_part} — run the same command to resume",
        saved.done,
        saved.tasks,
        path.display()
    ))
}

/// What a run found in its checkpoint: `new checkpoint F: ...` (so that a mistyped path is
/// seen at once) or `resuming from F: ...` with the tasks and share of the work done.
fn opened_line(opened: &Opened) -> String {
    let path = opened.path.display();
    if opened.is_new() {
        return format!("new checkpoint {path}: the count starts from its beginning");
    }
    let in_part = match opened.in_part {
        0 => String::new(),
        k => format!(", {k} more in part"),
    };
    let share = opened.share.map_or(String::new(), |s| {
        format!(
            " ({} of the work)",
            nqueens_solver::formats::human::share(s)
        )
    });
    format!(
        "resuming from {path}: {} of {} tasks done{in_part}{share}",
        opened.done, opened.tasks
    )
}

/// `count N --estimate`: the work and time foretold (see `runs::forecast`).
fn estimate(args: &CountArgs) -> Result<Status> {
    let problem = args.board.problem()?;
    if problem.is_completion() {
        bail!(
            "--estimate foretells counts of the whole board only (not with fixed queens or blocked squares)"
        );
    }
    if !matches!(args.method.method, Method::Auto | Method::Counter) {
        bail!(
            "--estimate foretells the counter method's work, not {}'s",
            args.method.method.name()
        );
    }
    if args.device != DeviceChoice::Cpu {
        bail!("--estimate measures the CPU threads only (leave out --device)");
    }
    let threads = args.threads.map_or_else(all_cores, |t| t as usize);
    let never = std::sync::atomic::AtomicBool::new(false);
    let stop = crate::interrupt::stop_flag();
    let budget = ProbeBudget::default();
    let f = forecast(
        problem.n(),
        threads,
        &budget,
        stop.as_deref().unwrap_or(&never),
    )
    .map_err(nqueens_solver::Error::from)?;
    let Some(f) = f.filter(|_| !crate::interrupt::requested()) else {
        return Err(Interrupted(format!(
            "interrupted after {:.1} s: no estimate",
            crate::interrupt::elapsed_seconds()
        ))
        .into());
    };
    let mut out = output::open(None)?;
    writeln!(
        out,
        "n = {}: about {:.3e} queens to place ({:.3e} to {:.3e}, three standard errors), in {} tasks",
        f.n, f.nodes, f.low, f.high, f.tasks
    )?;
    let probe = match f.probed {
        0 | 1 => format!(
            "the probe finished {} task(s) in {:.0} s, too few to check the model (its interval widened by 5% either side)",
            f.probed,
            budget.time.as_secs_f64()
        ),
        k => format!(
            "a probe counted {k} tasks drawn at random: {:.3} times what the model gave them",
            f.ratio
        ),
    };
    writeln!(out, "the work model says {:.3e}; {probe}", f.model)?;
    match f.seconds() {
        Some((low, mid, high)) => writeln!(
            out,
            "estimated time on {} thread(s): {} ({} to {}), at {:.3e} queens a second",
            f.threads,
            duration_text(mid),
            duration_text(low),
            duration_text(high),
            f.rate.unwrap_or_default()
        )?,
        None => writeln!(out, "no time estimate: the probe placed no queen")?,
    }
    out.flush()?;
    Ok(Status::Success)
}

fn duration_text(seconds: f64) -> String {
    match seconds {
        s if s < 60.0 => format!("{s:.1} s"),
        s => nqueens_solver::formats::human::duration(s),
    }
}

/// A count that contradicts the published one is a failed check (exit 1), not a usage error.
pub(crate) fn wrong_total_fails(error: impl Into<nqueens_solver::Error>) -> anyhow::Error {
    match error.into() {
        nqueens_solver::Error::Counter(wrong @ CounterError::WrongTotal { .. }) => {
            Failure(wrong.to_string()).into()
        }
        other => other.into(),
    }
}

/// Whether two paths name the same file: the same inode where both exist (through links
/// too), the same absolute path otherwise.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        #[cfg(unix)]
        (Ok(x), Ok(y)) => {
            use std::os::unix::fs::MetadataExt;
            (x.dev(), x.ino()) == (y.dev(), y.ino())
        }
        _ => match (std::path::absolute(a), std::path::absolute(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => a == b,
        },
    }
}
