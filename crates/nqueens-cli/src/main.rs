//! `nqueens`: solve, enumerate and count N-Queens with any method.
//!
//! The floors, top to bottom; every import runs downward. This file parses the command line
//! and turns each command's result into an exit code. `commands/` holds one module per
//! subcommand (`bench` hands its work to the `nqueens_bench` crate; `man` and `completions`
//! describe the command line that this file hands them). Below them, the modules the
//! commands share: `args` (the flag groups), then `gpu` and `output` (where files go), and at
//! the bottom `progress`, `interrupt` (Ctrl-C) and `status` (what a command's result means).
//!
//! Errors travel as `anyhow::Error` and are turned into one line on stderr and an exit code
//! here: 0 success, 1 no solution (or a failed check), 2 usage error, 3 gave up at a limit. A
//! closed stdout (`nqueens list 12 | head`) ends the program quietly with 0. Ctrl-C during a
//! search stops it cleanly with 130 (see `interrupt`).

mod args;
mod commands;
mod gpu;
mod interrupt;
mod output;
mod progress;
mod status;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::status::{Failure, Status, gave_up_line};

/// `--version`: the version and the optional features this binary was built with.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (features: ",
    env!("NQUEENS_FEATURES"),
    ")"
);

/// Solve the N-Queens problem every way that matters.
///
/// Place n queens on an n×n board so that no two share a row, a column or a diagonal. Find one
/// placement, list them, count them, or complete a board with queens already placed
/// (`--fix ROW:COL`, 1-based: `1:1` is the top-left square), with the method of your choice.
///
/// Exit codes: 0 success, 1 no solution, 2 usage error, 3 gave up at a limit, 130
/// interrupted (Ctrl-C).
#[derive(Debug, Parser)]
#[command(name = "nqueens", version = VERSION, max_term_width = 100)]
#[command(after_help = "Examples:\n  \
    nqueens solve 8                     one solution of 8-queens, drawn\n  \
    nqueens solve 8 --fix 1:1 --fix 2:5 complete a board with two queens placed\n  \
    nqueens list 6 --format coords      every solution, one per line\n  \
    nqueens count 12 --unique           solutions up to rotation and reflection\n  \
    nqueens list 8 -o all.svg           a picture of all 92 solutions\n  \
    nqueens solve 1000000 -o big.txt    a huge board (construction; permutation format)\n  \
    nqueens verify big.txt              check solutions written by any tool")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Solve(commands::solve::SolveArgs),
    List(commands::list::ListArgs),
    Count(commands::count::CountArgs),
    Xc(commands::xc::XcArgs),
    XcExport(commands::xc_export::XcExportArgs),
    Cnf(commands::cnf::CnfArgs),
    Sat(commands::sat::SatArgs),
    Merge(commands::merge::MergeArgs),
    Status(commands::status::StatusArgs),
    Audit(commands::audit::AuditArgs),
    Devices(commands::devices::DevicesArgs),
    Verify(commands::verify_file::VerifyArgs),
    Bench(nqueens_bench::BenchArgs),
    #[command(hide = true)]
    BenchRun(nqueens_bench::BenchRunArgs),
    GenCompletion(commands::gen_completion::GenCompletionArgs),
    GenBlocked(commands::gen_blocked::GenBlockedArgs),
    Completions(commands::completions::CompletionsArgs),
    Man(commands::man::ManArgs),
}

/// The whole command-line definition, handed to the commands that describe it (completions,
/// man).
fn cli_definition() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

fn main() -> ExitCode {
    #[cfg(feature = "gpu")]
    if std::env::var_os("NODEVICE_SELECT").is_none() {
        // Mesa's device-selection Vulkan layer looks for a display server to order the
        // adapters (we order them ourselves) and, finding none, prints "error:" lines on
        // stderr. SAFETY: nothing else runs yet, so no other thread reads the environment.
        unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return report_usage_error(err),
    };
    // Commands that search, or wait for input (`verify -` or `merge -` on an idle pipe), take
    // Ctrl-C as a stop request; the others do from the moment they create an output file.
    if matches!(
        cli.command,
        Command::Solve(_)
            | Command::List(_)
            | Command::Count(_)
            | Command::Xc(_)
            | Command::Sat(_)
            | Command::Verify(_)
            | Command::Merge(_)
            | Command::Audit(_)
    ) {
        interrupt::install();
    }
    output::ignore_file_size_signal();
    let result = match cli.command {
        Command::Solve(args) => commands::solve::run(args),
        Command::List(args) => commands::list::run(args),
        Command::Count(args) => commands::count::run(args),
        Command::Xc(args) => commands::xc::run(args),
        Command::XcExport(args) => commands::xc_export::run(args),
        Command::Cnf(args) => commands::cnf::run(args),
        Command::Sat(args) => commands::sat::run(args),
        Command::Merge(args) => commands::merge::run(args),
        Command::Status(args) => commands::status::run(args),
        Command::Audit(args) => commands::audit::run(args),
        Command::Devices(args) => commands::devices::run(args),
        Command::Verify(args) => commands::verify_file::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::BenchRun(args) => commands::bench::run_child_job(args),
        Command::GenCompletion(args) => commands::gen_completion::run(args),
        Command::GenBlocked(args) => commands::gen_blocked::run(args),
        Command::Completions(args) => commands::completions::run(args, cli_definition()),
        Command::Man(args) => commands::man::run(args, cli_definition()),
    };
    // Outputs appear only when the command succeeded; on every other exit their temporary
    // files are deleted and what the targets held is kept.
    let succeeded = matches!(
        result,
        Ok(Status::Success | Status::Satisfiable | Status::Unsatisfiable)
    ) && !interrupt::requested();
    let settled = output::settle(succeeded);
    if interrupt::requested() {
        return report_interruption(result.err());
    }
    let result = settled.and(result);
    match result {
        Ok(Status::Success) => ExitCode::SUCCESS,
        Ok(Status::NoSolution) => ExitCode::from(1),
        Ok(Status::GaveUp) => ExitCode::from(3),
        Ok(Status::Satisfiable) => ExitCode::from(10),
        Ok(Status::Unsatisfiable) => ExitCode::from(20),
        Err(err) => report_error(&err),
    }
}

/// Ctrl-C (or SIGTERM) stopped the command: one line saying so (the command's own, when it
/// said what was kept), exit 130.
fn report_interruption(err: Option<anyhow::Error>) -> ExitCode {
    let message = match err
        .as_ref()
        .and_then(|e| e.downcast_ref::<interrupt::Interrupted>())
    {
        Some(said) => said.0.clone(),
        None => format!("interrupted after {:.1} s", interrupt::elapsed_seconds()),
    };
    let _ = writeln!(io::stderr(), "{message}");
    ExitCode::from(interrupt::EXIT_CODE)
}

/// Prints an error as one line and picks the exit code.
fn report_error(err: &anyhow::Error) -> ExitCode {
    let broken_pipe = err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    });
    if broken_pipe {
        return ExitCode::SUCCESS;
    }
    // Giving up at a limit is an answer (exit 3), said the same way by every command.
    if let Some(nqueens_solver::EngineError::Stopped { method, stopped }) = engine_error(err) {
        let _ = writeln!(
            io::stderr(),
            "{}",
            gave_up_line(&stopped.reason.to_string(), &format!("{method} method"))
        );
        return ExitCode::from(3);
    }
    // The library names methods, never flags; the commands add which `--method` can do the
    // job instead (`MethodArgs::engine_for`).
    let message = nqueens_support::error_line(err.as_ref());
    let _ = writeln!(io::stderr(), "error: {message}");
    if err.downcast_ref::<Failure>().is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::from(2)
    }
}

/// The engine's error in `err`, whether it came straight from an engine or lifted into the
/// crate's error.
fn engine_error(err: &anyhow::Error) -> Option<&nqueens_solver::EngineError> {
    err.downcast_ref::<nqueens_solver::EngineError>()
        .or_else(|| err.downcast_ref::<nqueens_solver::Error>()?.engine())
}

/// Help and version go to stdout with exit 0; any other command-line error becomes one line on
/// stderr with exit 2 (clap's own message, with its list continuations folded into the line).
fn report_usage_error(err: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = write!(io::stderr(), "{}", err.render());
            return ExitCode::from(2);
        }
        _ => {}
    }
    let rendered = err.render().to_string();
    let lines: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
        .collect();
    let line = lines
        .iter()
        .filter(|l| !l.starts_with("tip:"))
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    // clap's "tip: a similar subcommand exists: 'count'" becomes "did you mean 'count'?".
    let guess = lines
        .iter()
        .filter_map(|l| l.strip_prefix("tip: a similar "))
        .filter_map(|l| l.split_once(": ").map(|(_, names)| names))
        .next();
    match guess {
        Some(names) => {
            let _ = writeln!(io::stderr(), "{line}; did you mean {names}? (see --help)");
        }
        None => {
            let _ = writeln!(io::stderr(), "{line} (see --help)");
        }
    }
    ExitCode::from(2)
}
