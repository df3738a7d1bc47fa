//! `nqueens merge`: add up the shards of one count.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use clap::Args;
use nqueens_solver::runs::{checkpoint, shard};

use super::count::{same_file, wrong_total_fails};
use crate::output;
use crate::status::Status;

/// Add up the results of `nqueens count N --shard I/K` (one JSON line each), after checking
/// that all K shards of one count are there exactly once, and print the total.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard results: files holding the JSON line each shard printed (`-`: standard input,
    /// one result per line, as `cat shard-*.json | nqueens merge -` gives).
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,
    /// Print the solutions up to rotation and reflection (A002562) instead of all (A000170).
    #[arg(long, short)]
    pub unique: bool,
    /// Print n, shards, tasks, total, unique, nodes and the shards' summed time on stderr.
    #[arg(long)]
    pub stats: bool,
    /// Write the count to this file instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
}

pub fn run(args: MergeArgs) -> Result<Status> {
    if let Some(output) = &args.output {
        if let Some(input) = args.files.iter().find(|f| same_file(output, f)) {
            bail!(
                "--output {} is one of the shard files ({}): merging would overwrite it",
                output.display(),
                input.display()
            );
        }
    }
    let mut sources = Vec::with_capacity(args.files.len());
    for path in &args.files {
        sources.extend(read_shard_file(path)?);
    }
    let merged = shard::merge(&sources).map_err(|e| match checkpoint_advice(&sources) {
        // The library names no command; here is what to run instead.
        Some(advice) => anyhow::anyhow!("{e}; {advice}"),
        None => wrong_total_fails(e),
    })?;
    if args.stats {
        eprintln!(
            "n={} shards={} tasks={} total={} unique={} nodes={} elapsed={:.3}s",
            merged.n,
            merged.shards,
            merged.tasks,
            merged.total,
            merged.unique,
            merged.nodes,
            merged.elapsed
        );
    }
    let mut out = output::open(args.output.as_deref())?;
    let shown = if args.unique {
        merged.unique
    } else {
        merged.total
    };
    writeln!(out, "{shown}")?;
    out.flush()?;
    Ok(Status::Success)
}

/// What to run on a checkpoint handed to merge by mistake: `nqueens status` to see it, `count
/// N --checkpoint F` (with its shard) to finish its count.
fn checkpoint_advice(sources: &[(String, String)]) -> Option<String> {
    let (name, text) = sources
        .iter()
        .find(|(_, text)| checkpoint::looks_like_checkpoint(text.as_bytes()))?;
    let finish = match checkpoint::peek_header(text.as_bytes()) {
        Some(header) if header.shard.count() > 1 => format!(
            "nqueens count {} --checkpoint {name} --shard {} -o FILE` (its result is what merge takes)",
            header.n, header.shard
        ),
        Some(header) => format!(
            "nqueens count {} --checkpoint {name}` (a whole count: it prints the total itself)",
            header.n
        ),
        None => format!("nqueens count N --checkpoint {name}`"),
    };
    Some(format!(
        "see what it holds with `nqueens status {name}`, or finish its count with `{finish}"
    ))
}

/// A shard file's name for messages and its text, reading no more than a shard result can
/// need (a larger file is refused by the merge with its name; a FIFO is read like a file);
/// `-`, standard input, holds one result per line, each named by its line.
fn read_shard_file(path: &Path) -> Result<Vec<(String, String)>> {
    let (name, input) = output::open_input(path)?;
    let stream = path.as_os_str() == "-";
    let limit = if stream {
        shard::MAX_SHARD_STREAM
    } else {
        shard::MAX_SHARD_FILE
    };
    let mut bytes = Vec::new();
    input.take(limit as u64 + 1).read_to_end(&mut bytes)?;
    if stream && bytes.len() > limit {
        bail!(
            "{name} holds more than {} MiB, more than shard results can need",
            limit >> 20
        );
    }
    let text = String::from_utf8(bytes).or_else(|e| {
        if e.utf8_error().error_len().is_none() && e.as_bytes().len() > shard::MAX_SHARD_FILE {
            // Cut inside a character at the limit: long, not binary; the merge says so.
            Ok(String::from_utf8_lossy(e.as_bytes()).into_owned())
        } else {
            bail!("{name}: not a shard result (not UTF-8 text)")
        }
    })?;
    Ok(match stream {
        true => shard::split_results(&name, &text),
        false => vec![(name, text)],
    })
}
