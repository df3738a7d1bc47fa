//! `nqueens count`: count solutions, optionally with a checkpoint (`--checkpoint`) or one shard
//! of the count (`--shard I/K`, printed as JSON for `nqueens merge`); both use the counter.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use clap::Args;
use nqueens::Job;
use nqueens::engines::counter::{self, Counter, CounterError, RunOptions, Shard};
use nqueens::methods::Method;

use crate::args::{BoardArgs, MethodArgs, all_cores};
use crate::gpu::DeviceChoice;
use crate::interrupt::Interrupted;
use crate::output;
use crate::{Failure, Status};

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
    /// from it: rerun the same command after an interruption to get the exact count.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Count only part I of K of the work (1 ≤ I ≤ K) and print it as one line of JSON; add
    /// the K parts up with `nqueens merge`.
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
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse::<Shard>().map_err(|e| e.to_string())
}

pub fn run(args: CountArgs) -> Result<Status> {
    // Before a count that may take hours, not after it.
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
    let device = if args.device == DeviceChoice::Cpu && args.gpu_index.is_none() {
        None
    } else {
        refuse_on_a_device(&args, &problem)?;
        crate::gpu::open(args.device, args.gpu_index)?
    };
    if args.checkpoint.is_some() || args.shard.is_some() || device.is_some() {
        return run_counter(&args, &problem, threads, device);
    }
    let (config, progress) = args.method.config(threads);
    let mut engine = args.method.engine_for(job, &problem, &config)?;
    if engine.name() == "backtrack" && !problem.is_completion() && problem.n() > counter::MAX_N {
        // Asked for by name: run it, but never silently.
        eprintln!(
            "note: counting n = {} by plain backtracking, which needs roughly {:.0e} seconds on {threads} thread(s); Ctrl-C stops it (--progress shows its rate off a terminal)",
            problem.n(),
            nqueens::methods::backtrack_count_seconds(problem.n(), threads),
        );
    }
    if let Some(warning) = args
        .method
        .method
        .long_count_warning(job, &problem, threads)
    {
        eprintln!("note: {warning}; Ctrl-C stops it (--progress shows its rate off a terminal)");
    }
    let start = Instant::now();
    let counts = engine.count(&problem, args.unique);
    if crate::interrupt::requested() {
        drop(progress);
        let advice = if engine.name() == "counter" {
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
    let counts = counts.map_err(wrong_total_fails)?;
    drop(progress);
    args.method.report(engine.as_ref(), start.elapsed());
    if args.unique {
        args.method.report_symmetries(&problem);
    }
    if !problem.is_completion() {
        let cause = format!(
            "a bug in the {} method or a hardware fault (memory, CPU) is the likely cause",
            engine.name()
        );
        counter::check_published(
            "the count",
            problem.n(),
            counts.total,
            counts.unique,
            &cause,
        )
        .map_err(wrong_total_fails)?;
    }
    let mut out = output::open(args.output.as_deref())?;
    let shown = if args.unique {
        counts.unique.ok_or_else(|| {
            anyhow!(
                "the {} method did not count unique solutions",
                engine.name()
            )
        })?
    } else {
        counts.total
    };
    writeln!(out, "{shown}")?;
    out.flush()?;
    Ok(Status::Success)
}

/// What only the counter counts, on a CPU or a GPU: whole boards up to its limit.
fn refuse_on_a_device(args: &CountArgs, problem: &nqueens::Problem) -> Result<()> {
    let method = args.method.method;
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
    Ok(())
}

/// `--checkpoint`, `--shard` and `--device`: runs that only the counter can do.
fn run_counter(
    args: &CountArgs,
    problem: &nqueens::Problem,
    threads: usize,
    device: Option<counter::SharedDevice>,
) -> Result<Status> {
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
    let job = if args.unique {
        Job::CountUnique
    } else {
        Job::Count
    };
    if let (Some(output), Some(checkpoint)) = (&args.output, &args.checkpoint) {
        if same_file(output, checkpoint) {
            bail!(
                "--output {} is the checkpoint: the count would overwrite the record of its own work",
                output.display()
            );
        }
    }
    let (config, progress) = args.method.config(threads);
    let mut counter = Counter::new(threads);
    counter.progress = config.progress.clone();
    counter.limits = config.limits.clone();
    counter.device = device;
    // Test knobs, not options: pieces of fewer rows cut small boards' tasks too, and a node
    // budget stops the count after about that many queens, so that the tests can stop a small
    // count inside its tasks and resume it.
    let knob = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    if let Some(rows) = knob("NQUEENS_PIECE_ROWS") {
        counter.piece_rows = rows as usize;
    }
    if let Some(nodes) = knob("NQUEENS_NODE_LIMIT") {
        counter.limits.nodes = Some(nodes);
    }
    nqueens::Engine::check(&counter, job, problem)
        .map_err(|e| args.method.with_advice(e, job, problem, &config))?;
    let options = RunOptions {
        checkpoint: args.checkpoint.clone(),
        shard: args.shard,
    };
    let report = counter.run_problem(problem, args.unique, &options);
    if crate::interrupt::requested() {
        drop(progress);
        return Err(interrupted_count(&counter, &options).into());
    }
    let report = match report {
        Err(nqueens::Error::Engine(nqueens::EngineError::GaveUp { method, reason }))
            if options.checkpoint.is_some() =>
        {
            // Say what the checkpoint kept, as an interruption does.
            drop(progress);
            let gave_up = crate::gave_up_line(&reason.to_string(), &format!("{method} method"));
            let kept = saved_line(&counter, &options).unwrap_or_default();
            eprintln!("{gave_up}{kept}");
            return Ok(Status::GaveUp);
        }
        report => report.map_err(wrong_total_fails)?,
    };
    drop(progress);
    args.method.report(&counter, report.elapsed);
    if let (true, Some(device)) = (args.method.stats, &counter.device) {
        eprintln!("device={}", device.describe());
        // The device's own figures, after the whole run's rate.
        let rate = report.new_nodes as f64 / report.elapsed.as_secs_f64().max(1e-9);
        let mut line = format!("nodes_per_s={rate:.3e}");
        for (name, value) in device.stats() {
            line.push_str(&format!(" {name}={value}"));
        }
        eprintln!("{line}");
    }
    if args.unique {
        args.method.report_symmetries(problem);
    }
    let mut out = output::open(args.output.as_deref())?;
    if args.shard.is_some() {
        writeln!(out, "{}", report.shard_result().to_json())?;
    } else if args.unique {
        writeln!(out, "{}", report.unique)?;
    } else {
        writeln!(out, "{}", report.total)?;
    }
    out.flush()?;
    Ok(Status::Success)
}

/// What an interrupted counter run kept: the tasks in its checkpoint, if it has one.
fn interrupted_count(counter: &Counter, options: &RunOptions) -> Interrupted {
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
fn saved_line(counter: &Counter, options: &RunOptions) -> Option<String> {
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

/// A count that contradicts the published one is a failed check (exit 1), not a usage error.
pub(crate) fn wrong_total_fails(error: impl Into<nqueens::Error>) -> anyhow::Error {
    let error = error.into();
    let wrong = match &error {
        nqueens::Error::Counter(wrong) => Some(wrong),
        // The counter engine's own count carries its run's error inside.
        nqueens::Error::Engine(nqueens::EngineError::Failed(inner)) => inner.downcast_ref(),
        _ => None,
    };
    match wrong {
        Some(wrong @ CounterError::WrongTotal { .. }) => Failure(wrong.to_string()).into(),
        _ => error.into(),
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
