//! `nqueens audit`: recount chosen or sampled finished tasks of a checkpoint by a second,
//! independent search (the library's `runs::audit`) and compare them with the file; this
//! module parses the flags and prints.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use nqueens_solver::engines::counter::TaskId;
use nqueens_solver::runs::audit::{self, Choice};
use nqueens_solver::runs::checkpoint;

use crate::args::all_cores;
use crate::interrupt::Interrupted;
use crate::output;
use crate::status::{Failure, Status};

/// Recount finished tasks of a checkpoint independently and compare them with the file.
///
/// Each chosen task is counted again by plain backtracking over its rows below the task's
/// prefix, with none of the counter's pruning, lanes or pieces, each solution weighed by its
/// symmetry class from the board's own symmetry maps; its total and unique count must equal
/// what the checkpoint records. A record count is checked by sampling: the tasks are drawn at
/// random (from --seed), so anyone can repeat the draw, or draw their own. A recount takes
/// some twenty times as long as the counter took over the task.
///
/// Exit codes: 0 every recounted task agrees; 1 some task disagrees (each is named); 2 a usage
/// error or a file that cannot be read; 130 interrupted (Ctrl-C).
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    nqueens audit p17.ckpt                   recount 10 finished tasks drawn at random\n  \
    nqueens audit p17.ckpt --sample 100 --seed 7   another, larger draw\n  \
    nqueens audit p17.ckpt --tasks 0,17,2902 recount these tasks (ids as the file has them)")]
pub struct AuditArgs {
    /// The checkpoint (`count N --checkpoint FILE`).
    #[arg(value_name = "CHECKPOINT")]
    pub checkpoint: PathBuf,
    /// Recount K finished tasks drawn at random (all of them if there are fewer).
    #[arg(long, value_name = "K", conflicts_with = "tasks", default_value_t = 10)]
    pub sample: usize,
    /// Recount these tasks: ids, comma-separated (each must be finished in the checkpoint).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = clap::value_parser!(u32))]
    pub tasks: Vec<u32>,
    /// The seed of the random draw (the same seed draws the same tasks).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Worker threads [default: all cores].
    #[arg(long, short = 'j', value_name = "T", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub threads: Option<u32>,
}

pub fn run(args: AuditArgs) -> Result<Status> {
    let contents = checkpoint::read(&args.checkpoint)?;
    let choice = if args.tasks.is_empty() {
        Choice::Sample {
            count: args.sample,
            seed: args.seed,
        }
    } else {
        Choice::Tasks(args.tasks.iter().map(|&id| TaskId(id)).collect())
    };
    let chosen = audit::choose(&contents, &choice)?;
    let name = args.checkpoint.display();
    if chosen.is_empty() {
        bail!("{name} holds no finished task to recount");
    }
    let threads = args.threads.map_or_else(all_cores, |t| t as usize);
    let never = std::sync::atomic::AtomicBool::new(false);
    let stop = crate::interrupt::stop_flag();
    let Some(recounts) = audit::recount(
        &contents,
        &chosen,
        threads,
        stop.as_deref().unwrap_or(&never),
    )?
    else {
        return Err(Interrupted(format!(
            "interrupted after {:.1} s: nothing recounted is reported",
            crate::interrupt::elapsed_seconds()
        ))
        .into());
    };
    let mut out = output::open(None)?;
    for r in &recounts {
        writeln!(
            out,
            "task {}: recorded {} ({} unique), recounted {} ({} unique): {}",
            r.id,
            r.recorded.total,
            r.recorded.unique,
            r.recounted.total,
            r.recounted.unique,
            if r.agrees() { "agrees" } else { "DISAGREES" }
        )?;
    }
    out.flush()?;
    let wrong: Vec<String> = recounts
        .iter()
        .filter(|r| !r.agrees())
        .map(|r| r.id.to_string())
        .collect();
    let header = &contents.header;
    if !wrong.is_empty() {
        let (word, verb, its) = match wrong.len() {
            1 => ("task", "disagrees", "its lines"),
            _ => ("tasks", "disagree", "the lines of each"),
        };
        return Err(Failure(format!(
            "{} of {} recounted tasks of {name} (n = {}) {verb} with the file: {word} {} (delete {its} from the checkpoint to count again, and audit more of the file)",
            wrong.len(),
            recounts.len(),
            header.n,
            wrong.join(", ")
        ))
        .into());
    }
    eprintln!(
        "all {} recounted tasks agree with {name} (n = {}, {} of {} tasks finished)",
        recounts.len(),
        header.n,
        contents.results.len(),
        header.shard.len_of(header.tasks)
    );
    Ok(Status::Success)
}
