//! `nqueens status`: what a checkpoint or a shard result holds, read without running the
//! count (the library's `runs::inspect` and `ShardResult::parse`); the text only is this
//! module's.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Result, bail};
use clap::Args;
use nqueens_solver::runs::checkpoint::{Holder, looks_like_checkpoint};
use nqueens_solver::runs::inspect;
use nqueens_solver::runs::shard::{MAX_SHARD_FILE, ShardResult};

use crate::output;
use crate::status::Status;

/// Show what a checkpoint or a shard result holds, without running the count.
///
/// For a checkpoint (`count N --checkpoint FILE`): the board and its task list (size, depth,
/// fingerprint) and shard, the tasks done, in part and left, the share of the work done (by
/// the work model), the partial total, the last write, and the process holding its lock, if
/// any, and whether it is running. For a shard result (`count N --shard I/K -o FILE`): its
/// shard, tasks, subtotal and whether its check value holds. The file format is described in
/// docs/checkpoint-format.md.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    nqueens status p17.ckpt              how far the count of a checkpoint has got\n  \
    nqueens status s1.json s2.json       what each shard result holds\n  \
    nqueens count 17 --checkpoint p17.ckpt   resume (or finish) the count")]
pub struct StatusArgs {
    /// Checkpoints or shard results.
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,
}

pub fn run(args: StatusArgs) -> Result<Status> {
    let mut out = output::open(None)?;
    for (i, path) in args.files.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        let text = describe(path)?;
        write!(out, "{text}")?;
    }
    out.flush()?;
    Ok(Status::Success)
}

/// What `path` holds, as lines of text.
fn describe(path: &Path) -> Result<String> {
    let (name, input) = output::open_input(path)?;
    let mut head = Vec::new();
    input
        .take(MAX_SHARD_FILE as u64 + 1)
        .read_to_end(&mut head)?;
    if looks_like_checkpoint(&head) {
        if path.as_os_str() == "-" {
            bail!("{name}: a checkpoint is read from its file (name it), not from standard input");
        }
        return checkpoint(path, &name);
    }
    if head.first().is_some_and(|&b| b == b'{') || head.starts_with("\u{feff}{".as_bytes()) {
        let text = String::from_utf8_lossy(&head);
        let result = ShardResult::parse(&name, &text)?;
        return Ok(shard(&name, &result));
    }
    bail!("{name}: neither a counter checkpoint nor a shard result")
}

fn checkpoint(path: &Path, name: &str) -> Result<String> {
    let status = inspect::status(path)?;
    let contents = &status.contents;
    let header = &contents.header;
    let board = match header.board {
        None => "the whole board".to_string(),
        Some(mark) => format!(
            "a board with fixed queens or blocked squares (board {}, counted under {} symmetr{})",
            mark.squares,
            mark.symmetries,
            if mark.symmetries == 1 { "y" } else { "ies" }
        ),
    };
    let mut text = format!(
        "{name}: counter checkpoint (format {}) of n = {}, {board}, shard {}\n",
        contents.version, header.n, header.shard
    );
    text += &format!(
        "  task list: {} tasks, {} rows fixed each, fingerprint {}\n",
        header.tasks, header.depth, header.fingerprint
    );
    text += &format!(
        "  tasks: {} done, {} in part, {} left, of {}{}\n",
        status.done,
        status.in_part,
        status.left,
        status.tasks,
        if header.shard.count() > 1 {
            " in this shard"
        } else {
            ""
        }
    );
    match status.share {
        _ if status.done == status.tasks => text += "  work done: 100% (every task finished)\n",
        Some(share) => text += &format!("  work done: {} (by the work model)\n", percent(share)),
        None => text += "  work done: unknown (the work model needs the board's task list)\n",
    }
    let finished = &status.finished;
    if status.done == status.tasks {
        text += &format!(
            "  complete: {} solutions, {} up to symmetry, {} queens placed\n",
            finished.total, finished.unique, finished.nodes
        );
    } else {
        text += &format!(
            "  partial total: {} solutions ({} up to symmetry) in the finished tasks, {} more in the finished pieces of the tasks in part; {} queens placed\n",
            finished.total,
            finished.unique,
            status.partial.total,
            finished.nodes + status.partial.nodes
        );
    }
    if let Some(modified) = contents.modified {
        text += &format!("  last write: {}\n", when(modified));
    }
    text += &match contents.holder {
        Holder::Free => match contents.pid.filter(|&pid| pid != 0) {
            Some(pid) => format!("  lock: free (the last run was process {pid})\n"),
            None => "  lock: free\n".to_string(),
        },
        Holder::Held { pid, alive } => {
            let who = pid.map_or("a process".to_string(), |pid| format!("process {pid}"));
            let state = match alive {
                Some(true) => ", running",
                Some(false) => ", which does not run here (another machine or container?)",
                None => "",
            };
            format!("  lock: held by {who}{state}\n")
        }
    };
    if contents.torn > 0 {
        text += &format!(
            "  the last line is cut short ({} bytes, a write interrupted): a resumed run drops it and counts its task again\n",
            contents.torn
        );
    }
    Ok(text)
}

fn shard(name: &str, result: &ShardResult) -> String {
    format!(
        "{name}: shard result {} of n = {}, task list {}\n  tasks: {}\n  subtotal: {} solutions, {} up to symmetry, {} queens placed, {:.3} s\n  check value: intact\n",
        result.shard,
        result.n,
        result.task_list,
        result.tasks,
        result.subtotal,
        result.unique,
        result.nodes,
        result.elapsed
    )
}

/// A share as a percentage with enough digits to see it move.
fn percent(share: f64) -> String {
    let p = 100.0 * share.clamp(0.0, 1.0);
    match p {
        p if p >= 10.0 => format!("{p:.1}%"),
        p if p >= 0.01 => format!("{p:.3}%"),
        _ => "<0.01%".to_string(),
    }
}

/// A moment as `2026-11-28 09:40:12 UTC (35 s ago)`.
fn when(moment: SystemTime) -> String {
    let Ok(since) = moment.duration_since(SystemTime::UNIX_EPOCH) else {
        return "before 1970".to_string();
    };
    let seconds = since.as_secs();
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    let ago = SystemTime::now()
        .duration_since(moment)
        .map_or(String::new(), |ago| {
            format!(" ({} ago)", ago_text(ago.as_secs()))
        });
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC{ago}",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

fn ago_text(s: u64) -> String {
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min", s / 60),
        3600..86_400 => format!("{} h {} min", s / 3600, s % 3600 / 60),
        _ => format!("{} days {} h", s / 86_400, s % 86_400 / 3600),
    }
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_the_calendar_s() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_785), (2026, 11, 28));
    }
}
