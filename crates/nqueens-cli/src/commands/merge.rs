//! `nqueens merge`: add up the shards of one count.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use nqueens::engines::counter::shard;

use crate::Status;
use crate::output;

/// Add up the results of `nqueens count N --shard I/K` (one JSON line each), after checking
/// that all K shards of one count are there exactly once, and print the total.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard results: files holding the JSON line each shard printed.
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
    let mut sources = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        sources.push((path.display().to_string(), text));
    }
    let merged = shard::merge(&sources)?;
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
