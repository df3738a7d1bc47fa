//! `nqueens bench`: every method on the same work, each run in a fresh process.
//!
//! The matrix is jobs (`solve`, `count`, `completion`: counting the completions of a random
//! partial board) × methods × n. Before anything runs, each method's own
//! [`Engine::check`](nqueens::Engine::check) says whether it can do the job on that board; the
//! ones that cannot are listed as skipped with the engine's reason, so methods added later
//! take part without any change here.
//!
//! Each run re-invokes this executable with the hidden `bench-run` subcommand, which does the
//! one job on one thread and prints the time the job itself took and the answer. The parent
//! enforces the time limit (killing the child), and reads the child's peak resident memory from
//! `wait4`. After R repeats it reports the median time with the minimum and maximum.
//!
//! Every answer is checked: solutions go through [`nqueens::verify()`], counts must agree across
//! repeats, across methods and with the published OEIS count. Any disagreement is printed and
//! the command exits 1.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use nqueens::instances::generate::random_partial;
use nqueens::methods::{Config, Method};
use nqueens::{Job, Outcome, Problem, Solution, formats::partial, instances::oeis, verify};

use crate::args::{method_parser, parse_n};
use crate::{Failure, Status};

/// The environment variable that makes `bench-run` report a wrong answer for the method it
/// names. Honoured only in builds with debug assertions (the test suite's), so that a test can
/// show the cross-checks catch it; release builds ignore it.
#[cfg(debug_assertions)]
const INJECT_WRONG_ENV: &str = "NQUEENS_BENCH_INJECT_WRONG";

/// Random draws allowed for a completion instance; with hundreds of queens a diagonal clash is
/// almost certain, and the cell is skipped rather than searched for minutes.
const INSTANCE_TRIES: u64 = 200_000;

/// What a bench row asks of a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ValueEnum)]
pub enum BenchJob {
    /// Find one solution of the empty board.
    Solve,
    /// Count all solutions of the empty board (checked against OEIS A000170).
    Count,
    /// Count the completions of a random partial board with n/4 queens (at least one).
    Completion,
}

impl BenchJob {
    const ALL: [BenchJob; 3] = [BenchJob::Solve, BenchJob::Count, BenchJob::Completion];

    fn name(self) -> &'static str {
        match self {
            BenchJob::Solve => "solve",
            BenchJob::Count => "count",
            BenchJob::Completion => "completion",
        }
    }

    /// The engine job behind this bench job.
    fn engine_job(self) -> Job {
        match self {
            BenchJob::Solve => Job::Solve,
            BenchJob::Count | BenchJob::Completion => Job::Count,
        }
    }
}

/// Compare the methods on the same jobs: a table, CSV and an SVG plot (exit 1 on a wrong answer).
///
/// Runs jobs × methods × n, each in a fresh process on one thread with a time limit, reports
/// the median time (min–max over the repeats) and the peak memory, and cross-checks every
/// answer: solutions through the verifier, counts against each other and OEIS. Exits 1 if any
/// answer is wrong or two disagree.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// A small matrix that finishes in well under a minute (n = 6, 8, 10; 3 repeats; 5 s limit).
    #[arg(long)]
    pub quick: bool,
    /// Jobs to run, comma-separated [default: all].
    #[arg(long, value_name = "JOB", value_delimiter = ',')]
    pub jobs: Vec<BenchJob>,
    /// Methods to compare, comma-separated [default: every method but auto].
    #[arg(long, value_name = "METHOD", value_delimiter = ',', value_parser = method_parser())]
    pub methods: Vec<Method>,
    /// Board sizes: a list like 6,8,10, a range like 4-12, or a range with a step like 4-16:2
    /// [default: 6-14:2, or 6-10:2 with --quick].
    #[arg(long = "n", value_name = "SIZES", value_parser = parse_sizes)]
    pub sizes: Option<Sizes>,
    /// Runs per cell; the median is reported [default: 5, or 3 with --quick].
    #[arg(long, short = 'r', value_name = "R", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeats: Option<u32>,
    /// Time limit per run in seconds; a method that hits it is not run on larger n
    /// [default: 30, or 5 with --quick].
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<f64>,
    /// Seed of the random partial boards of the completion job.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Write one CSV row per job × method × n to this file.
    #[arg(long, value_name = "PATH")]
    pub csv: Option<PathBuf>,
    /// Draw time against n (log scale), one line per method and a panel per job, to this SVG file.
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
}

/// Board sizes for `--n`.
#[derive(Clone, Debug)]
pub struct Sizes(Vec<u32>);

fn parse_sizes(text: &str) -> Result<Sizes, String> {
    let mut sizes = Vec::new();
    for part in text.split(',').map(str::trim) {
        let (range, step) = match part.split_once(':') {
            Some((range, step)) => (range, parse_n(step).map_err(|e| format!("step: {e}"))?),
            None => (part, 1),
        };
        match range.split_once('-') {
            Some((low, high)) => {
                let (low, high) = (parse_n(low)?, parse_n(high)?);
                if low > high {
                    return Err(format!("the range {low}-{high} is empty"));
                }
                sizes.extend((low..=high).step_by(step as usize));
            }
            None => sizes.push(parse_n(range)?),
        }
    }
    sizes.sort_unstable();
    sizes.dedup();
    Ok(Sizes(sizes))
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err("expected a number of seconds between 0 and 86400, like 2.5".into()),
    }
}

/// How a cell ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CellStatus {
    /// Every repeat ran and its answer checked out.
    Ok,
    /// The method cannot do this job on this board (the reason says why), or timed out on a
    /// smaller one.
    Skipped,
    /// A run hit the time limit.
    Timeout,
    /// The method stopped at a limit of its own before deciding.
    GaveUp,
    /// The child failed (crashed, or reported an error).
    Failed,
    /// The answer is wrong: an invalid solution, or a count that disagrees.
    Wrong,
}

impl CellStatus {
    fn name(self) -> &'static str {
        match self {
            CellStatus::Ok => "ok",
            CellStatus::Skipped => "skipped",
            CellStatus::Timeout => "timeout",
            CellStatus::GaveUp => "gave-up",
            CellStatus::Failed => "failed",
            CellStatus::Wrong => "WRONG",
        }
    }
}

/// One job × method × n.
#[derive(Clone, Debug)]
struct Cell {
    job: BenchJob,
    method: Method,
    n: u32,
    seconds: Vec<f64>,
    peak_rss_kb: Option<u64>,
    answer: String,
    /// The engine's own counters from the last run (`nodes=...`), machine-independent.
    stats: String,
    status: CellStatus,
    reason: String,
}

impl Cell {
    fn median(&self) -> Option<f64> {
        let mut s = self.seconds.clone();
        s.sort_by(f64::total_cmp);
        let len = s.len();
        match len {
            0 => None,
            _ if len % 2 == 1 => Some(s[len / 2]),
            _ => Some((s[len / 2 - 1] + s[len / 2]) / 2.0),
        }
    }

    fn min(&self) -> Option<f64> {
        self.seconds.iter().copied().reduce(f64::min)
    }

    fn max(&self) -> Option<f64> {
        self.seconds.iter().copied().reduce(f64::max)
    }
}

pub fn run(args: BenchArgs) -> Result<Status> {
    let jobs = if args.jobs.is_empty() {
        BenchJob::ALL.to_vec()
    } else {
        let mut jobs = args.jobs.clone();
        jobs.sort_unstable();
        jobs.dedup();
        jobs
    };
    let methods: Vec<Method> = if args.methods.is_empty() {
        Method::ALL
            .iter()
            .copied()
            .filter(|&m| m != Method::Auto)
            .collect()
    } else {
        let mut methods = Vec::new();
        for &m in &args.methods {
            if !methods.contains(&m) {
                methods.push(m);
            }
        }
        methods
    };
    let sizes = match (&args.sizes, args.quick) {
        (Some(sizes), _) => sizes.0.clone(),
        (None, true) => vec![6, 8, 10],
        (None, false) => vec![6, 8, 10, 12, 14],
    };
    let repeats = args.repeats.unwrap_or(if args.quick { 3 } else { 5 });
    let limit =
        Duration::from_secs_f64(args.timeout.unwrap_or(if args.quick { 5.0 } else { 30.0 }));
    let exe = std::env::current_exe().context("cannot find the nqueens executable to re-run")?;

    // The completion instances, one per n, written where the children can read them.
    let workdir = TempDir::new()?;
    let mut instances: BTreeMap<u32, (Problem, PathBuf)> = BTreeMap::new();
    let mut no_instance: BTreeMap<u32, String> = BTreeMap::new();
    if jobs.contains(&BenchJob::Completion) {
        for &n in &sizes {
            let k = (n / 4).max(1);
            let seed = args.seed.wrapping_add(u64::from(n));
            let problem = match random_partial(n, k, seed, INSTANCE_TRIES) {
                Ok(problem) => problem,
                Err(err) => {
                    no_instance.insert(n, format!("no partial board: {err}"));
                    continue;
                }
            };
            let path = workdir.0.join(format!("completion-{n}.txt"));
            let comment = format!("nqueens gen-completion {n} --queens {k} --seed {seed}");
            std::fs::write(&path, partial::write(&problem, &comment))
                .with_context(|| format!("cannot write {}", path.display()))?;
            instances.insert(n, (problem, path));
        }
    }

    let mut table = std::io::stdout().lock();
    writeln!(table, "{}", table_header())?;
    let mut cells = Vec::new();
    for &job in &jobs {
        for &method in &methods {
            let mut timed_out_at = None;
            for &n in &sizes {
                let (problem, fix_file) = match job {
                    BenchJob::Completion => match instances.get(&n) {
                        Some((p, path)) => (p.clone(), Some(path.as_path())),
                        None => (Problem::new(n)?, None),
                    },
                    _ => (Problem::new(n)?, None),
                };
                let mut cell = Cell {
                    job,
                    method,
                    n,
                    seconds: Vec::new(),
                    peak_rss_kb: None,
                    answer: String::new(),
                    stats: String::new(),
                    status: CellStatus::Ok,
                    reason: String::new(),
                };
                let engine_job = job.engine_job();
                let engine = method.build(engine_job, &problem, &Config::default());
                if let Some(reason) = no_instance.get(&n).filter(|_| job == BenchJob::Completion) {
                    cell.status = CellStatus::Skipped;
                    cell.reason = reason.clone();
                } else if let Err(err) = engine.check(engine_job, &problem) {
                    cell.status = CellStatus::Skipped;
                    cell.reason = err.to_string();
                } else if let Some(smaller) = timed_out_at {
                    cell.status = CellStatus::Skipped;
                    cell.reason = format!("timed out at n = {smaller}");
                } else {
                    run_cell(&exe, &mut cell, &problem, fix_file, repeats, limit)?;
                    if cell.status == CellStatus::Timeout {
                        timed_out_at = Some(n);
                    }
                }
                writeln!(table, "{}", table_row(&cell))?;
                table.flush()?;
                cells.push(cell);
            }
        }
    }
    drop(table);

    let problems = cross_check(&mut cells, &instances);
    if let Some(path) = &args.csv {
        std::fs::write(path, csv(&cells))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.svg {
        let caption = machine_caption(repeats);
        std::fs::write(path, svg(&cells, &jobs, &methods, &caption))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let failed: Vec<&Cell> = cells
        .iter()
        .filter(|c| c.status == CellStatus::Failed)
        .collect();
    if problems.is_empty() && failed.is_empty() {
        let tally = |status: CellStatus| cells.iter().filter(|c| c.status == status).count();
        eprintln!(
            "bench: every answer checked: {} ok, {} skipped, {} timed out, {} gave up",
            tally(CellStatus::Ok),
            tally(CellStatus::Skipped),
            tally(CellStatus::Timeout),
            tally(CellStatus::GaveUp)
        );
        return Ok(Status::Success);
    }
    for problem in &problems {
        eprintln!("bench: {problem}");
    }
    for cell in &failed {
        eprintln!(
            "bench: {} {} n={} failed: {}",
            cell.job.name(),
            cell.method,
            cell.n,
            cell.reason
        );
    }
    let mut summary = String::new();
    if !problems.is_empty() {
        let _ = write!(summary, "{} wrong or disagreeing answers", problems.len());
    }
    if !failed.is_empty() {
        if !summary.is_empty() {
            summary.push_str(" and ");
        }
        let _ = write!(summary, "{} failed runs", failed.len());
    }
    Err(Failure(format!("bench found {summary} (listed above)")).into())
}

/// Runs one cell's repeats, filling in times, memory, answer and status.
fn run_cell(
    exe: &Path,
    cell: &mut Cell,
    problem: &Problem,
    fix_file: Option<&Path>,
    repeats: u32,
    limit: Duration,
) -> Result<()> {
    for _ in 0..repeats {
        let mut command = Command::new(exe);
        command
            .arg("bench-run")
            .arg("--job")
            .arg(cell.job.name())
            .arg("--method")
            .arg(cell.method.name())
            .arg(cell.n.to_string());
        if let Some(path) = fix_file {
            command.arg("--fix-file").arg(path);
        }
        let child = run_child(&mut command, limit)?;
        cell.peak_rss_kb = cell.peak_rss_kb.max(child.peak_rss_kb);
        if child.timed_out {
            cell.status = CellStatus::Timeout;
            cell.reason = format!("over the {:.1} s limit", limit.as_secs_f64());
            return Ok(());
        }
        let report = match (child.code, parse_report(&child.stdout)) {
            (Some(0), Some(report)) => report,
            (Some(3), _) => {
                cell.status = CellStatus::GaveUp;
                cell.reason = child.stderr.trim().to_string();
                return Ok(());
            }
            (code, _) => {
                cell.status = CellStatus::Failed;
                let code = code.map_or("a signal".to_string(), |c| format!("exit {c}"));
                cell.reason = format!("{code}: {}", child.stderr.trim().replace('\n', " "));
                return Ok(());
            }
        };
        cell.seconds.push(report.seconds);
        cell.stats = report.stats;
        let answer = match &report.answer {
            Answer::Count(count) => {
                let published = oeis::total(cell.n).filter(|_| cell.job == BenchJob::Count);
                if let Some(published) = published.filter(|p| p != count) {
                    cell.status = CellStatus::Wrong;
                    cell.reason = format!("counted {count}, OEIS A000170 has {published}");
                }
                count.to_string()
            }
            Answer::Found(columns) => {
                let solution = Solution::from_columns(columns.clone());
                if let Err(violation) = verify(problem, &solution) {
                    cell.status = CellStatus::Wrong;
                    cell.reason = format!("invalid solution: {violation}");
                }
                "found".to_string()
            }
            Answer::NoSolution => "none".to_string(),
        };
        if !cell.answer.is_empty() && cell.answer != answer {
            cell.status = CellStatus::Wrong;
            cell.reason = format!("repeats disagree: {} then {answer}", cell.answer);
        }
        cell.answer = answer;
        if cell.status == CellStatus::Wrong {
            return Ok(());
        }
    }
    Ok(())
}

/// Checks the answers of each job × n against each other and against OEIS; marks wrong cells
/// and returns one line per problem found.
fn cross_check(cells: &mut [Cell], instances: &BTreeMap<u32, (Problem, PathBuf)>) -> Vec<String> {
    let mut problems = Vec::new();
    for cell in cells.iter() {
        if cell.status == CellStatus::Wrong {
            problems.push(format!(
                "{} {} n={}: {}",
                cell.job.name(),
                cell.method,
                cell.n,
                cell.reason
            ));
        }
    }
    let mut groups: BTreeMap<(BenchJob, u32), Vec<usize>> = BTreeMap::new();
    for (i, cell) in cells.iter().enumerate() {
        if cell.status == CellStatus::Ok {
            groups.entry((cell.job, cell.n)).or_default().push(i);
        }
    }
    for ((job, n), members) in groups {
        let expected: Option<String> = match job {
            BenchJob::Count => oeis::total(n).map(|t| t.to_string()),
            // A board with no solution is rare but possible (n = 2, 3): say so, not found.
            BenchJob::Solve => Some(
                if oeis::total(n) == Some(0) {
                    "none"
                } else {
                    "found"
                }
                .into(),
            ),
            BenchJob::Completion => None,
        };
        let reference = expected
            .clone()
            .or_else(|| members.first().map(|&i| cells[i].answer.clone()));
        let Some(reference) = reference else { continue };
        let disagree = members.iter().any(|&i| cells[i].answer != reference);
        if !disagree {
            continue;
        }
        let answers: Vec<String> = members
            .iter()
            .map(|&i| format!("{}={}", cells[i].method, cells[i].answer))
            .collect();
        let what = match (&expected, job) {
            (Some(e), BenchJob::Count) => format!(" (OEIS A000170: {e})"),
            (_, BenchJob::Completion) => format!(
                " (board: {})",
                instances
                    .get(&n)
                    .map_or(String::new(), |(_, p)| p.display().to_string())
            ),
            _ => String::new(),
        };
        problems.push(format!(
            "{} n={}: answers disagree{what}: {}",
            job.name(),
            n,
            answers.join(", ")
        ));
        for &i in &members {
            if cells[i].answer != reference || expected.is_none() {
                cells[i].status = CellStatus::Wrong;
                cells[i].reason = "answers disagree".into();
            }
        }
    }
    problems
}

// ---------------------------------------------------------------------------------------------
// The child process.

/// The hidden subcommand `bench` runs in each child: one job, one thread, then the time the job
/// took and the answer on standard output.
#[derive(Debug, Args)]
pub struct BenchRunArgs {
    /// The job.
    #[arg(long, value_name = "JOB")]
    pub job: BenchJob,
    /// The method.
    #[arg(long, value_name = "METHOD", value_parser = method_parser())]
    pub method: Method,
    /// Board size.
    #[arg(value_name = "N", value_parser = parse_n)]
    pub n: u32,
    /// The partial board of a completion job.
    #[arg(long, value_name = "PATH")]
    pub fix_file: Option<PathBuf>,
}

/// What a child reports.
#[derive(Debug)]
struct Report {
    seconds: f64,
    answer: Answer,
    stats: String,
}

#[derive(Debug)]
enum Answer {
    Count(u128),
    Found(Vec<u32>),
    NoSolution,
}

pub fn run_child_job(args: BenchRunArgs) -> Result<Status> {
    let problem = match &args.fix_file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let board = partial::parse(&text).with_context(|| path.display().to_string())?;
            if board.n != args.n {
                bail!(
                    "{} describes n = {}, not {}",
                    path.display(),
                    board.n,
                    args.n
                );
            }
            board.to_problem()?
        }
        None => Problem::new(args.n)?,
    };
    let job = args.job.engine_job();
    let mut engine = args.method.build(job, &problem, &Config::default());
    engine.check(job, &problem)?;
    let start = Instant::now();
    let mut answer = match args.job {
        BenchJob::Solve => match engine.solve(&problem)? {
            Outcome::Found(solution) => Answer::Found(solution.into_columns()),
            Outcome::NoSolution => Answer::NoSolution,
            Outcome::GaveUp { reason } => {
                eprintln!("gave up: {reason}");
                return Ok(Status::GaveUp);
            }
        },
        BenchJob::Count | BenchJob::Completion => {
            Answer::Count(engine.count(&problem, false)?.total)
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    inject_wrong_answer(args.method, &mut answer);
    let mut line = format!("elapsed {seconds:.9}\nanswer ");
    match &answer {
        Answer::Count(count) => {
            let _ = write!(line, "count {count}");
        }
        Answer::NoSolution => line.push_str("none"),
        Answer::Found(columns) => {
            line.push_str("found");
            for c in columns {
                let _ = write!(line, " {c}");
            }
        }
    }
    let _ = write!(line, "\nstats {}", engine.stats());
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(Status::Success)
}

/// The test-only hook: with debug assertions, `NQUEENS_BENCH_INJECT_WRONG=<method>` makes that
/// method's counts one too high and its solutions put two queens in one column.
#[cfg(debug_assertions)]
fn inject_wrong_answer(method: Method, answer: &mut Answer) {
    if std::env::var(INJECT_WRONG_ENV).is_ok_and(|m| m == method.name()) {
        match answer {
            Answer::Count(count) => *count += 1,
            Answer::Found(columns) if columns.len() > 1 => columns[1] = columns[0],
            _ => {}
        }
    }
}

#[cfg(not(debug_assertions))]
fn inject_wrong_answer(_method: Method, _answer: &mut Answer) {}

fn parse_report(stdout: &str) -> Option<Report> {
    let mut lines = stdout.lines();
    let seconds = lines.next()?.strip_prefix("elapsed ")?.parse().ok()?;
    let answer = lines.next()?.strip_prefix("answer ")?;
    let answer = if answer == "none" {
        Answer::NoSolution
    } else if let Some(count) = answer.strip_prefix("count ") {
        Answer::Count(count.parse().ok()?)
    } else {
        let columns = answer.strip_prefix("found")?;
        Answer::Found(
            columns
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .ok()?,
        )
    };
    let stats = lines
        .next()
        .and_then(|l| l.strip_prefix("stats"))
        .map_or(String::new(), |s| s.trim().to_string());
    Some(Report {
        seconds,
        answer,
        stats,
    })
}

/// How a child ended.
struct ChildEnd {
    /// The exit code (`None`: killed by a signal).
    code: Option<i32>,
    timed_out: bool,
    peak_rss_kb: Option<u64>,
    stdout: String,
    stderr: String,
}

/// Runs `command` with piped output, kills it after `limit`, and reads its peak memory.
#[cfg(unix)]
fn run_child(command: &mut Command, limit: Duration) -> Result<ChildEnd> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("cannot start a bench child process")?;
    let pid = libc::pid_t::try_from(child.id()).context("process id out of range")?;
    let (mut stdout, mut stderr) = (child.stdout.take(), child.stderr.take());
    let start = Instant::now();
    let mut timed_out = false;
    let mut status: libc::c_int = 0;
    // SAFETY: `rusage` is plain old data, for which all-zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        let flags = if timed_out { 0 } else { libc::WNOHANG };
        // SAFETY: `pid` is our own child, not yet reaped (std's `Child` only reaps in `wait`,
        // which we never call); `status` and `usage` are valid for writes.
        let reaped = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if reaped == pid {
            break;
        }
        if reaped < 0 {
            let err = std::io::Error::last_os_error();
            if err.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err).context("cannot wait for a bench child process");
        }
        if start.elapsed() >= limit {
            timed_out = true;
            // SAFETY: killing our own unreaped child; the pid cannot have been reused.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            continue;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let read = |pipe: Option<&mut dyn Read>| {
        let mut text = String::new();
        if let Some(pipe) = pipe {
            let _ = pipe.read_to_string(&mut text);
        }
        text
    };
    let stdout = read(stdout.as_mut().map(|p| p as &mut dyn Read));
    let stderr = read(stderr.as_mut().map(|p| p as &mut dyn Read));
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Ok(ChildEnd {
        code,
        timed_out,
        // On Linux `ru_maxrss` is in kilobytes.
        peak_rss_kb: u64::try_from(usage.ru_maxrss).ok(),
        stdout,
        stderr,
    })
}

/// Without `wait4`: the limit is enforced, the memory is not measured.
#[cfg(not(unix))]
fn run_child(command: &mut Command, limit: Duration) -> Result<ChildEnd> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("cannot start a bench child process")?;
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if start.elapsed() >= limit && !timed_out {
            timed_out = true;
            child.kill()?;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let mut stdout = String::new();
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stdout.take() {
        let _ = pipe.read_to_string(&mut stdout);
    }
    if let Some(mut pipe) = child.stderr.take() {
        let _ = pipe.read_to_string(&mut stderr);
    }
    Ok(ChildEnd {
        code: status.code(),
        timed_out,
        peak_rss_kb: None,
        stdout,
        stderr,
    })
}

/// A directory removed on drop, for the completion instances.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<Self> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path =
            std::env::temp_dir().join(format!("nqueens-bench-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        Ok(TempDir(path))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// ---------------------------------------------------------------------------------------------
// Output: table, CSV, SVG.

fn seconds_text(s: Option<f64>) -> String {
    match s {
        None => "-".into(),
        Some(s) if s < 1e-3 => format!("{:.1} µs", s * 1e6),
        Some(s) if s < 1.0 => format!("{:.2} ms", s * 1e3),
        Some(s) => format!("{s:.2} s"),
    }
}

fn table_header() -> String {
    format!(
        "{:<10} {:<12} {:>3} {:>10} {:>23} {:>10} {:>12} status",
        "job", "method", "n", "median", "min – max", "peak RSS", "answer"
    )
}

fn table_row(cell: &Cell) -> String {
    let range = if cell.seconds.is_empty() {
        "-".to_string()
    } else {
        format!(
            "{} – {}",
            seconds_text(cell.min()),
            seconds_text(cell.max())
        )
    };
    let rss = cell.peak_rss_kb.map_or("-".to_string(), |kb| {
        format!("{:.1} MiB", kb as f64 / 1024.0)
    });
    let status = if cell.reason.is_empty() {
        cell.status.name().to_string()
    } else {
        format!("{}: {}", cell.status.name(), cell.reason)
    };
    format!(
        "{:<10} {:<12} {:>3} {:>10} {:>23} {:>10} {:>12} {status}",
        cell.job.name(),
        cell.method.name(),
        cell.n,
        seconds_text(cell.median()),
        range,
        rss,
        if cell.answer.is_empty() {
            "-"
        } else {
            &cell.answer
        },
    )
}

/// The CSV columns, in order.
pub const CSV_COLUMNS: [&str; 12] = [
    "job",
    "method",
    "n",
    "median_s",
    "min_s",
    "max_s",
    "peak_rss_kb",
    "answer",
    "status",
    "runs",
    "stats",
    "reason",
];

fn csv(cells: &[Cell]) -> String {
    let number = |s: Option<f64>| s.map_or(String::new(), |s| format!("{s:.9}"));
    let mut out = CSV_COLUMNS.join(",");
    out.push('\n');
    for cell in cells {
        let fields = [
            cell.job.name().to_string(),
            cell.method.name().to_string(),
            cell.n.to_string(),
            number(cell.median()),
            number(cell.min()),
            number(cell.max()),
            cell.peak_rss_kb.map_or(String::new(), |kb| kb.to_string()),
            cell.answer.clone(),
            cell.status.name().to_string(),
            cell.seconds.len().to_string(),
            cell.stats.clone(),
            cell.reason.clone(),
        ];
        let quoted: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        out.push_str(&quoted.join(","));
        out.push('\n');
    }
    out
}

/// RFC 4180 quoting: fields with a comma, quote or line break are quoted, quotes doubled.
fn csv_field(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// One line describing the machine: CPU model, cores, memory, OS.
fn machine_caption(repeats: u32) -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name").and_then(|r| r.split_once(':')))
        .map_or_else(
            || "unknown CPU".to_string(),
            |(_, name)| name.trim().to_string(),
        );
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let memory = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        })
        .map_or(String::new(), |kb| {
            format!(", {:.0} GiB", kb / 1024.0 / 1024.0)
        });
    format!(
        "{cpu}, {cores} cores{memory}, {} {}; nqueens {}; median of {repeats} runs, one thread, each in a fresh process",
        std::env::consts::OS,
        std::env::consts::ARCH,
        env!("CARGO_PKG_VERSION"),
    )
}

/// A power of ten in seconds, in the unit that makes it a whole number: `10 µs`, `1 s`.
fn decade_label(exponent: i32) -> String {
    let (unit, shift) = match exponent {
        e if e >= 0 => ("s", 0),
        e if e >= -3 => ("ms", 3),
        e if e >= -6 => ("µs", 6),
        _ => ("ns", 9),
    };
    let value = 10f64.powi(exponent + shift);
    format!("{value} {unit}")
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const PALETTE: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f", "#bcbd22",
];

/// The plot: one panel per job, time (log scale) against n, one polyline (with point markers)
/// per method that has results, a shared legend and the machine in a caption.
fn svg(cells: &[Cell], jobs: &[BenchJob], methods: &[Method], caption: &str) -> String {
    const PANEL_W: f64 = 360.0;
    const PANEL_H: f64 = 260.0;
    const LEFT: f64 = 90.0;
    const TOP: f64 = 50.0;
    const GAP: f64 = 110.0;
    const LEGEND_W: f64 = 150.0;
    let panels = jobs.len().max(1) as f64;
    let width = LEFT + panels * PANEL_W + (panels - 1.0) * GAP + 30.0 + LEGEND_W;
    let height = TOP + PANEL_H + 90.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="{LEFT}" y="22" font-size="16" font-weight="bold">nqueens bench: median time per run against board size</text>"#
    );
    let colour = |m: Method| {
        let i = methods.iter().position(|&x| x == m).unwrap_or(0);
        PALETTE[i % PALETTE.len()]
    };
    for (p, &job) in jobs.iter().enumerate() {
        let x0 = LEFT + p as f64 * (PANEL_W + GAP);
        let ok: Vec<&Cell> = cells
            .iter()
            .filter(|c| c.job == job && c.status == CellStatus::Ok)
            .collect();
        let ns: Vec<u32> = cells.iter().filter(|c| c.job == job).map(|c| c.n).collect();
        let (n_lo, n_hi) = (
            ns.iter().copied().min().unwrap_or(1),
            ns.iter().copied().max().unwrap_or(1),
        );
        let times: Vec<f64> = ok
            .iter()
            .filter_map(|c| c.median())
            .map(|t| t.max(1e-7))
            .collect();
        let lo = times.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = times.iter().copied().fold(0.0, f64::max);
        let (d_lo, d_hi) = if times.is_empty() {
            (-6, 0)
        } else {
            let d_lo = lo.log10().floor() as i32;
            (d_lo, (hi.log10().ceil() as i32).max(d_lo + 1))
        };
        let x_of = |n: u32| {
            if n_hi == n_lo {
                x0 + PANEL_W / 2.0
            } else {
                x0 + f64::from(n - n_lo) / f64::from(n_hi - n_lo) * PANEL_W
            }
        };
        let y_of = |t: f64| {
            TOP + PANEL_H
                - (t.max(1e-7).log10() - f64::from(d_lo)) / f64::from(d_hi - d_lo) * PANEL_H
        };
        let _ = writeln!(
            out,
            r#"<g class="panel" data-job="{job}"><text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="14">{job}</text>"#,
            x0 + PANEL_W / 2.0,
            TOP - 10.0,
            job = job.name()
        );
        let _ = writeln!(
            out,
            r##"<rect x="{x0:.1}" y="{TOP}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#444"/>"##
        );
        for d in d_lo..=d_hi {
            let y = y_of(10f64.powi(d));
            let _ = writeln!(
                out,
                r##"<line x1="{x0:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
                x0 + PANEL_W,
                x0 - 6.0,
                y + 4.0,
                decade_label(d)
            );
        }
        let mut tick_ns = ns.clone();
        tick_ns.sort_unstable();
        tick_ns.dedup();
        for &n in &tick_ns {
            let x = x_of(n);
            let _ = writeln!(
                out,
                r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#444"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{n}</text>"##,
                TOP + PANEL_H,
                TOP + PANEL_H + 5.0,
                TOP + PANEL_H + 18.0
            );
        }
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">n (board size)</text>"#,
            x0 + PANEL_W / 2.0,
            TOP + PANEL_H + 36.0
        );
        let _ = writeln!(
            out,
            r#"<text transform="translate({:.1},{:.1}) rotate(-90)" text-anchor="middle">median time per run (log scale)</text>"#,
            x0 - 62.0,
            TOP + PANEL_H / 2.0
        );
        for &method in methods {
            let mut points: Vec<(u32, f64)> = ok
                .iter()
                .filter(|c| c.method == method)
                .filter_map(|c| c.median().map(|t| (c.n, t)))
                .collect();
            if points.is_empty() {
                continue;
            }
            points.sort_by_key(|&(n, _)| n);
            let colour = colour(method);
            let coordinates: Vec<String> = points
                .iter()
                .map(|&(n, t)| format!("{:.1},{:.1}", x_of(n), y_of(t)))
                .collect();
            let _ = writeln!(
                out,
                r#"<polyline class="series" data-method="{m}" points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
                coordinates.join(" "),
                m = method.name()
            );
            for &(n, t) in &points {
                let _ = writeln!(
                    out,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{colour}"><title>{} n={n}: {}</title></circle>"#,
                    x_of(n),
                    y_of(t),
                    method.name(),
                    xml_escape(&seconds_text(Some(t)))
                );
            }
        }
        let _ = writeln!(out, "</g>");
    }
    let legend_x = LEFT + panels * PANEL_W + (panels - 1.0) * GAP + 30.0;
    let _ = writeln!(
        out,
        r#"<g class="legend"><text x="{legend_x:.1}" y="{TOP}" font-weight="bold">method</text>"#
    );
    let plotted: Vec<Method> = methods
        .iter()
        .copied()
        .filter(|&m| {
            cells
                .iter()
                .any(|c| c.method == m && c.status == CellStatus::Ok)
        })
        .collect();
    for (i, &method) in plotted.iter().enumerate() {
        let y = TOP + 20.0 + i as f64 * 20.0;
        let _ = writeln!(
            out,
            r#"<line x1="{legend_x:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{c}" stroke-width="2"/><text x="{:.1}" y="{:.1}">{}</text>"#,
            y - 4.0,
            legend_x + 24.0,
            y - 4.0,
            legend_x + 30.0,
            y,
            method.name(),
            c = colour(method)
        );
    }
    let _ = writeln!(out, "</g>");
    let _ = writeln!(
        out,
        r##"<text class="caption" x="{LEFT}" y="{:.1}" font-size="11" fill="#444">{}</text>"##,
        height - 14.0,
        xml_escape(caption)
    );
    out.push_str("</svg>\n");
    out
}
