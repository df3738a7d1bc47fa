//! `nqueens-mpi count N`: the counter on MPI (see the library's documentation for the design).
//! This file is the transport: point-to-point MPI messages between rank 0 and the others,
//! called from each rank's main thread only (`MPI_THREAD_FUNNELED`), never blocking in MPI
//! while waiting (OpenMPI's blocking receives spin on a core the workers need).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};
use clap::{Parser, Subcommand};
use mpi::Threading;
use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::Root;
use nqueens_mpi::session::{self, CoordinatorLink, MpiError, WorkerLink};
use nqueens_mpi::{Coordination, Ending, Settings, Workers, efficiency};
use nqueens_solver::engines::counter::{MAX_N, SplitList};
use nqueens_solver::runs::{self, distributed::MAX_EXTRA_ROWS};
use nqueens_support::interrupt;

/// Reports from ranks to rank 0.
const TAG_REPORT: i32 = 1;
/// Batches from rank 0.
const TAG_BATCH: i32 = 2;

/// How long a stopped rank waits for rank 0 to end the job before it ends itself.
const RANK_0_GRACE: Duration = Duration::from_secs(10);

/// Count N-Queens solutions on an MPI job: run under `mpirun -n P` (or `srun`).
#[derive(Debug, Parser)]
#[command(name = "nqueens-mpi", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the solutions of the N×N board (or up to symmetry with --unique) on every rank.
    Count(CountArgs),
}

#[derive(Debug, clap::Args)]
struct CountArgs {
    /// Board size.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_N)))]
    n: u32,
    /// Worker threads per rank [default: the rank's cores].
    #[arg(long, short = 'j', value_name = "T", value_parser = clap::value_parser!(u32).range(1..=4096))]
    threads: Option<u32>,
    /// Print the count up to rotation and reflection (OEIS A002562) instead of all (A000170).
    #[arg(long, short)]
    unique: bool,
    /// Record each finished task in FILE on rank 0 (the format of `nqueens count
    /// --checkpoint`) and resume from it: rerun the same command after the job died.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Print the result as the one line of JSON that `nqueens merge` reads.
    #[arg(long)]
    json: bool,
    /// Print per-rank tasks, nodes, busy time and the load-balance efficiency to stderr.
    #[arg(long)]
    stats: bool,
    /// Fix K more rows per task (+1 or +2): more, smaller tasks for jobs of thousands of
    /// threads. Another task list: its checkpoints and results are its own.
    #[arg(long, value_name = "+K", value_parser = parse_split, default_value = "+0")]
    split_depth: usize,
    /// Write each task's time in this run to FILE on rank 0 (`ID RANK SECONDS NODES` lines),
    /// the input of `scripts/simulate-schedule.py`.
    #[arg(long, value_name = "FILE")]
    task_times: Option<PathBuf>,
    /// Count on the CPU's threads (`cpu`) or on GPUs (`gpu`): one rank per GPU, each rank
    /// taking the GPU whose index (`nqueens devices`) is its rank among the ranks of its
    /// node; --threads is then ignored. Needs a binary built with `--features mpi,gpu`.
    #[arg(long, value_name = "WHERE", value_parser = ["cpu", "gpu"], default_value = "cpu")]
    device: String,
    /// Stop after SECS seconds (fractions allowed) as at Ctrl-C: every rank stops within
    /// milliseconds, the checkpoint keeps the finished tasks and where the others got, and
    /// the job exits 3 ("gave up at the limit"); the same command resumes. Set it below a
    /// batch system's time limit so that the job ends on its own terms.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    /// Show progress on rank 0's stderr: tasks done of the whole count, the share of the work
    /// and an ETA from the work model, solutions so far, nodes a second, time taken; a line
    /// every --progress-every seconds.
    #[arg(long)]
    progress: bool,
    /// Seconds between two progress lines (implies --progress).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    progress_every: Option<Duration>,
}

/// Seconds of `--time-limit` and `--progress-every`: a number above 0, fractions allowed.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| "expected a number of seconds, like 1.5".to_string())?;
    if seconds.is_nan() || seconds <= 0.0 {
        return Err("the time must be more than 0 seconds".into());
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| "that time is too long".into())
}

/// Seconds between progress lines by default: a batch log gets a line every ten seconds.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// The exit code of a count stopped at its time limit, as `nqueens count`'s.
const GAVE_UP: u8 = 3;

fn parse_split(text: &str) -> Result<usize, String> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    match digits.parse::<usize>() {
        Ok(k) if k <= MAX_EXTRA_ROWS && digits.bytes().all(|b| b.is_ascii_digit()) => Ok(k),
        _ => Err(format!(
            "expected +0, +1 or +{MAX_EXTRA_ROWS} (rows added to each task), not '{text}'"
        )),
    }
}

struct MpiHub<'a> {
    world: &'a SimpleCommunicator,
}

impl CoordinatorLink for MpiHub<'_> {
    fn ranks(&self) -> usize {
        self.world.size() as usize
    }

    fn poll(&mut self) -> Option<(usize, Vec<u64>)> {
        let probed = self
            .world
            .any_process()
            .immediate_matched_probe_with_tag(TAG_REPORT)?;
        let (words, status) = probed.matched_receive_vec::<u64>();
        Some((status.source_rank() as usize, words))
    }

    fn send(&mut self, rank: usize, words: &[u64]) {
        self.world
            .process_at_rank(rank as i32)
            .send_with_tag(words, TAG_BATCH);
    }
}

struct MpiSpoke<'a> {
    world: &'a SimpleCommunicator,
}

impl WorkerLink for MpiSpoke<'_> {
    fn send(&mut self, words: &[u64]) {
        self.world
            .process_at_rank(0)
            .send_with_tag(words, TAG_REPORT);
    }

    fn poll(&mut self) -> Option<Vec<u64>> {
        let probed = self
            .world
            .process_at_rank(0)
            .immediate_matched_probe_with_tag(TAG_BATCH)?;
        Some(probed.matched_receive_vec::<u64>().0)
    }
}

/// Exit codes, as `nqueens`: 1 a count that contradicts the published one, 2 anything else
/// that stops the count (usage, checkpoint), 3 stopped at `--time-limit`, 130 stopped by
/// SIGINT or SIGTERM (every rank ends with it; `mpirun` itself, when it is the one signalled,
/// exits 1 whatever the ranks say: Open MPI's launcher sets its own code on an interrupt).
fn main() -> ExitCode {
    #[cfg(feature = "gpu")]
    if std::env::var_os("NODEVICE_SELECT").is_none() {
        // Mesa's device-selection Vulkan layer prints "error:" lines when no display server
        // runs; the adapters are ordered by nqueens-gpu. SAFETY: MPI is not initialised yet
        // and nothing else runs, so no other thread reads the environment.
        unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
    }
    let Some((universe, _)) = mpi::initialize_with_threading(Threading::Funneled) else {
        eprintln!("error: MPI could not be initialised");
        return ExitCode::from(2);
    };
    let world = universe.world();
    let rank = world.rank();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // Every rank parsed the same arguments; one message is enough.
            if rank == 0 {
                let _ = err.print();
            }
            return ExitCode::from(if err.use_stderr() { 2 } else { 0 });
        }
    };
    let Command::Count(args) = cli.command;
    // Ctrl-C (SIGINT) and `mpirun` passing it on (SIGTERM to every rank) raise a flag: every
    // rank stops its workers and sends rank 0 where its tasks got; rank 0 records that, says
    // what the checkpoint kept, and ends the job.
    interrupt::install();
    let code = match run(&world, &args) {
        Ok(()) => 0,
        Err((code, err)) => {
            // An interrupt or a time limit has been described already.
            if rank == 0 && code != interrupt::EXIT_CODE && code != GAVE_UP {
                eprintln!("error: {}", nqueens_support::error_line(err.as_ref()));
            }
            code
        }
    };
    drop(universe);
    ExitCode::from(code)
}

fn run(world: &SimpleCommunicator, args: &CountArgs) -> Result<(), (u8, anyhow::Error)> {
    let usage = |e: anyhow::Error| (2, e);
    // The cores this rank may run on (its affinity mask: what mpirun or srun bound it to).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = args.threads.map_or(cores, |t| t as usize);
    if threads > cores && args.device == "cpu" {
        eprintln!(
            "warning: rank {} runs {threads} threads on {cores} core(s) it is bound to (mpirun binds each rank to one core by default: add --bind-to none, or --map-by slot:PE={threads})",
            world.rank()
        );
    }
    let list = Arc::new(SplitList::new(args.n, args.split_depth));
    let root = world.process_at_rank(0);
    // Every rank opens its GPU before the count starts: one that cannot ends the job.
    let workers = match args.device.as_str() {
        "gpu" => {
            let local = world.split_shared(0).rank() as usize;
            match open_gpu(world.rank(), local) {
                Ok(device) => Workers::Device(device),
                Err(e) => {
                    eprintln!("error: rank {}: {e}", world.rank());
                    world.abort(2)
                }
            }
        }
        _ => Workers::Threads(threads),
    };
    let mut settings = Settings::new(&list);
    settings.stop = interrupt::stop_flag();
    settings.time_limit = args.time_limit;
    if world.rank() != 0 {
        // Rank 0 says whether the count goes ahead (its checkpoint may be refused), and where
        // every rank cuts its tasks into pieces.
        let mut word = [0u64; 2];
        root.broadcast_into(&mut word[..]);
        if word[0] != 1 {
            return Err((2, anyhow!("rank 0 stopped the count")));
        }
        settings.cut = word[1] as usize;
        let mut spoke = MpiSpoke { world };
        let ended = session::work(list, &mut spoke, workers, &settings);
        return match ended {
            Ok(Ending::Finished) => Ok(()),
            Ok(Ending::Stopped) => {
                // Rank 0 says what was kept and ends the job (MPI_Abort) within milliseconds:
                // wait for it. A rank that exited first (non-zero) would have mpirun tear the
                // job down, rank 0 too, perhaps before its checkpoint is synced; one that
                // entered MPI_Finalize was seen to leave OpenMPI 4.1's mpirun hanging.
                // The wait keeps taking rank 0's messages: a batch rank 0 sent as this rank
                // stopped may still be in its send, which on Open MPI's shared-memory
                // transport returns only once this rank's MPI library has taken the message
                // in; a rank asleep here held rank 0 there until mpirun killed the job, its
                // line unsaid (on Ctrl-C, mpirun sends the ranks SIGTERM a second later and
                // SIGKILL a second after that). The batch's tasks are left to the next run,
                // as every task not done or in part.
                let deadline = Instant::now() + RANK_0_GRACE;
                while Instant::now() < deadline {
                    let _ = spoke.poll();
                    std::thread::sleep(session::POLL);
                }
                Err((interrupt::EXIT_CODE, anyhow!("interrupted")))
            }
            Err(e) => {
                // Rank 0 would wait for this rank's results forever: end the job.
                eprintln!(
                    "error: rank {}: {}",
                    world.rank(),
                    nqueens_support::error_line(&e)
                );
                world.abort(2)
            }
        };
    }
    // A test knob, not an option: pieces of fewer rows cut small boards' tasks too, so that the
    // tests can stop a small count inside its tasks (as `nqueens count` reads it).
    if let Some(rows) = std::env::var("NQUEENS_PIECE_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        settings.cut = list.cut(rows);
    }
    let cut = settings.cut;
    if args.progress || args.progress_every.is_some() {
        let every = args.progress_every.unwrap_or(PROGRESS_EVERY);
        settings.progress = Some(nqueens_mpi::progress::log_sink(every));
    }
    let opened =
        Coordination::open(list.clone(), args.checkpoint.as_deref(), settings).and_then(|mut c| {
            if let Some(path) = &args.task_times {
                c.record_task_times(path)?;
            }
            Ok(c)
        });
    let mut word = [u64::from(opened.is_ok()), cut as u64];
    root.broadcast_into(&mut word[..]);
    let coordination = opened.map_err(|e| usage(e.into()))?;
    let outcome = coordination
        .run(&mut MpiHub { world }, workers)
        .map_err(|e| {
            // The other ranks wait for batches that will never come: end the job.
            let (stopped, code, saved, tasks, in_part) = match e {
                MpiError::Interrupted {
                    saved,
                    tasks,
                    in_part,
                } => ("interrupted", interrupt::EXIT_CODE, saved, tasks, in_part),
                MpiError::TimeLimit {
                    saved,
                    tasks,
                    in_part,
                } => (
                    "gave up: time limit reached",
                    GAVE_UP,
                    saved,
                    tasks,
                    in_part,
                ),
                e => {
                    eprintln!("error: {}", nqueens_support::error_line(&e));
                    world.abort(2)
                }
            };
            let checkpoint = args.checkpoint.as_deref();
            eprintln!("{}", kept_line(stopped, saved, tasks, in_part, checkpoint));
            if world.size() == 1 {
                // No rank waits for this one: a plain exit, no MPI_ABORT banner.
                return (code, anyhow!("{stopped}"));
            }
            world.abort(i32::from(code))
        })?;
    let report = &outcome.report;
    let cause = if report.resumed > 0 {
        "a damaged checkpoint or a hardware fault (memory, CPU) is the likely cause: count again without the checkpoint, or on other machines"
    } else {
        "a hardware fault (memory, CPU) on one of the machines is the likely cause: count again"
    };
    runs::check_published(
        "the count",
        report.n,
        report.total,
        Some(report.unique),
        cause,
    )
    .map_err(|e| (1, e.into()))?;
    if args.stats {
        print_stats(&outcome);
    }
    let mut out = std::io::stdout().lock();
    let written = if args.json {
        writeln!(out, "{}", report.shard_result().to_json())
    } else if args.unique {
        writeln!(out, "{}", report.unique)
    } else {
        writeln!(out, "{}", report.total)
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| usage(e.into()))
}

/// What a count that `stopped` ("interrupted", "gave up: time limit reached") kept, in the words
/// of `nqueens count`.
fn kept_line(
    stopped: &str,
    saved: u64,
    tasks: u64,
    in_part: u64,
    checkpoint: Option<&std::path::Path>,
) -> String {
    let in_part = match in_part {
        0 => String::new(),
        k => format!(", and {k} more in part"),
    };
    match checkpoint {
        Some(path) => format!(
            "{stopped}: {saved} of {tasks} tasks saved in {}{in_part} — run the same command to resume",
            path.display()
        ),
        None => format!(
            "{stopped} after {:.1} s: no checkpoint, nothing saved (use --checkpoint FILE to make a count resumable)",
            interrupt::elapsed_seconds()
        ),
    }
}

/// The GPU of index `local` (the rank's index among the ranks of its node); with more ranks
/// than GPUs on a node, ranks share them round robin, with a warning.
#[cfg(feature = "gpu")]
fn open_gpu(rank: i32, local: usize) -> Result<runs::SharedDevice> {
    let count = nqueens_gpu::adapters().len();
    if count == 0 {
        return Err(nqueens_gpu::GpuError::NoAdapter.into());
    }
    if local >= count {
        eprintln!(
            "warning: rank {rank} is rank {local} of its node, which has {count} GPU(s): it shares GPU {} (start one rank per GPU)",
            local % count
        );
    }
    let gpu = nqueens_gpu::GpuCounter::open(nqueens_gpu::Choice::Index(local % count))?
        .ok_or_else(|| anyhow!("no GPU {}", local % count))?;
    if gpu.tuning().kernel == nqueens_gpu::KernelChoice::Constellations {
        // The ranks exchange the counter's tasks, which only the default kernel counts.
        return Err(anyhow!(
            "NQUEENS_GPU_KERNEL=constellations counts whole-board totals in one process only, not across MPI ranks: unset it for the default kernel (subboards)"
        ));
    }
    Ok(runs::SharedDevice::new(gpu))
}

#[cfg(not(feature = "gpu"))]
fn open_gpu(_rank: i32, _local: usize) -> Result<runs::SharedDevice> {
    Err(anyhow!(
        "--device gpu: this nqueens-mpi was built without GPU support: build it with `cargo build --release -p nqueens-mpi --features mpi,gpu`"
    ))
}

fn print_stats(outcome: &nqueens_mpi::Outcome) {
    let mut err = std::io::stderr().lock();
    let wall = outcome.wall.as_secs_f64();
    let _ = writeln!(
        err,
        "{:>5} {:>7} {:>9} {:>16} {:>9} {:>6}",
        "rank", "threads", "tasks", "nodes", "busy s", "busy%"
    );
    for (rank, r) in outcome.ranks.iter().enumerate() {
        let capacity = r.threads as f64 * wall;
        let share = if capacity > 0.0 {
            100.0 * r.busy.as_secs_f64() / capacity
        } else {
            0.0
        };
        let _ = writeln!(
            err,
            "{rank:>5} {:>7} {:>9} {:>16} {:>9.3} {share:>5.1}%",
            r.threads,
            r.tasks,
            r.nodes,
            r.busy.as_secs_f64()
        );
    }
    let threads: usize = outcome.ranks.iter().map(|r| r.threads).sum();
    let _ = writeln!(
        err,
        "{} ranks, {threads} threads, {} tasks ({} resumed), wall {wall:.3} s, load-balance efficiency {:.1}% (busy / (threads × wall))",
        outcome.ranks.len(),
        outcome.report.tasks,
        outcome.report.resumed,
        100.0 * efficiency(&outcome.ranks, outcome.wall)
    );
}
