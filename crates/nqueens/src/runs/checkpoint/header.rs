//! The checkpoint's header (what a checkpoint belongs to: n, the task list, the shard, the
//! board) and its lines: writing them, and reading a first line back. Each costs O(line
//! length); the format is described in the [module documentation](super).

use super::{
    MAGIC, MAX_HEADER, MAX_POSITION, MAX_RECORD, PID_DIGITS, SPARE_POSITIONS, VERSION, VERSION_2,
};
pub use crate::engines::counter::BoardMark;
use crate::engines::counter::kernel::TaskResult;
use crate::engines::counter::pieces::Partial;
use crate::engines::counter::tasks::{Fingerprint, TaskId, TaskList};
use crate::engines::counter::work::Work;
use crate::runs::checksum;
use crate::runs::part::Shard;

/// What a checkpoint belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Board size.
    pub n: u32,
    /// Rows fixed per task.
    pub depth: usize,
    /// Number of tasks in the whole list.
    pub tasks: usize,
    /// The task list's identity.
    pub fingerprint: Fingerprint,
    /// The part of the list this run counts.
    pub shard: Shard,
    /// The board, when it has fixed queens or blocked squares (`None`: the whole board).
    pub board: Option<BoardMark>,
}

impl Header {
    /// The header of a run over `shard` of `tasks` (the whole board's).
    pub fn new(tasks: &TaskList, shard: Shard) -> Self {
        Header {
            n: tasks.n(),
            depth: tasks.depth(),
            tasks: tasks.len(),
            fingerprint: tasks.fingerprint(),
            shard,
            board: None,
        }
    }

    /// The part of the header its check value covers.
    pub(super) fn body(&self) -> String {
        let mut body = format!(
            "{MAGIC} {VERSION} n={} depth={} tasks={} task-list={} shard={}",
            self.n, self.depth, self.tasks, self.fingerprint, self.shard
        );
        if let Some(mark) = self.board {
            body += &format!(" board={} symmetries={}", mark.squares, mark.symmetries);
        }
        body
    }

    /// Position lines a checkpoint of this run may hold: one per task of the shard, plus
    /// [`SPARE_POSITIONS`].
    pub(super) fn max_positions(&self) -> u64 {
        self.shard.len_of(self.tasks) as u64 + SPARE_POSITIONS
    }

    /// The header line as process `pid` writes it, with its newline.
    pub fn line(&self, pid: u32) -> String {
        let body = self.body();
        let check = checksum::check(&body);
        format!("{body} check={check} pid={pid:0PID_DIGITS$}\n")
    }

    /// The most bytes a checkpoint of this run can hold: the header, one result per task of
    /// the shard, one torn line, and positions (one per task of the shard, plus
    /// [`SPARE_POSITIONS`]).
    pub(super) fn max_file_len(&self) -> u64 {
        let results = self.shard.len_of(self.tasks) as u64 + 1;
        (MAX_HEADER as u64 + 1)
            + results * (MAX_RECORD as u64 + 1)
            + self.max_positions() * (MAX_POSITION as u64 + 1)
    }
}

/// One record line as a checkpoint of the task list `fingerprint` holds it, with its check
/// value and newline (public so that tests can write well-formed records).
pub fn record_line(fingerprint: Fingerprint, id: TaskId, result: &TaskResult) -> String {
    let body = format!("{id} {} {} {}", result.total, result.unique, result.nodes);
    let check = checksum::check(&format!("{fingerprint} {body}"));
    format!("{body} {check}\n")
}

/// One position line as a checkpoint of the task list `fingerprint` holds it, with its check
/// value and newline.
pub fn position_line(fingerprint: Fingerprint, id: TaskId, partial: &Partial) -> String {
    let found = &partial.found;
    let body = format!(
        "{id} {}:{} {} {} {}",
        partial.cut, partial.pieces, found.total, found.unique, found.nodes
    );
    let check = checksum::check(&format!("{fingerprint} {body}"));
    format!("{body} {check}\n")
}

/// Why a first line is not a usable header.
pub(super) enum HeaderProblem {
    /// Not a checkpoint at all.
    NotACheckpoint,
    /// A checkpoint of another format version (the version word).
    Version(String),
    /// This format, but damaged (what is wrong).
    Damaged(&'static str),
}

/// The fields of a header line, and its version (this one or [`VERSION_2`]).
pub(super) fn parse_header(line: &[u8]) -> Result<(Header, &'static str), HeaderProblem> {
    let line = std::str::from_utf8(line).map_err(|_| HeaderProblem::NotACheckpoint)?;
    let mut words = line.split(' ');
    if words.next() != Some(MAGIC) {
        return Err(HeaderProblem::NotACheckpoint);
    }
    let version = match words.next() {
        Some(VERSION) => VERSION,
        Some(VERSION_2) => VERSION_2,
        Some(other) if other.starts_with('v') => {
            return Err(HeaderProblem::Version(other.to_string()));
        }
        _ => return Err(HeaderProblem::NotACheckpoint),
    };
    if line.len() > MAX_HEADER {
        return Err(HeaderProblem::Damaged("is too long"));
    }
    let (rest, pid) = line
        .rsplit_once(" pid=")
        .ok_or(HeaderProblem::Damaged("has no pid field"))?;
    if pid.len() != PID_DIGITS || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return Err(HeaderProblem::Damaged("has a malformed pid field"));
    }
    let (body, check) = rest
        .rsplit_once(" check=")
        .ok_or(HeaderProblem::Damaged("has no check value"))?;
    if !checksum::verify(body, check) {
        return Err(HeaderProblem::Damaged("fails its check value"));
    }
    let words: Vec<&str> = body.split(' ').skip(2).collect();
    let field = |at: usize, key: &str| -> Option<&str> {
        words.get(at)?.strip_prefix(key)?.strip_prefix('=')
    };
    let header = (|| {
        let board = match words.len() {
            5 => None,
            // A board with fixed queens or blocked squares names itself after the shard.
            7 => Some(BoardMark {
                squares: field(5, "board")?.parse().ok()?,
                symmetries: field(6, "symmetries")?.parse().ok()?,
            }),
            _ => return None,
        };
        Some(Header {
            n: field(0, "n")?.parse().ok()?,
            depth: field(1, "depth")?.parse().ok()?,
            tasks: field(2, "tasks")?.parse().ok()?,
            fingerprint: field(3, "task-list")?.parse().ok()?,
            shard: field(4, "shard")?.parse().ok()?,
            board,
        })
    })();
    header
        .map(|header| (header, version))
        .ok_or(HeaderProblem::Damaged("is malformed"))
}

/// Why a checkpoint of board `found` is not one of board `expected` (`None`: the whole board).
pub(super) fn other_board(found: Option<BoardMark>, expected: Option<BoardMark>) -> String {
    match (found, expected) {
        (Some(found), None) => format!(
            "was written for a board with fixed queens or blocked squares (board {}), not the bare board",
            found.squares
        ),
        (None, _) => "was written for the bare board, not one with fixed queens or blocked squares"
            .to_string(),
        (Some(found), Some(expected)) if found.squares != expected.squares => format!(
            "was written for another board (board {}; this one is board {}): other fixed queens or blocked squares",
            found.squares, expected.squares
        ),
        (Some(found), Some(expected)) => {
            let counts = |mark: BoardMark| match mark.symmetries {
                1 => "every solution once".to_string(),
                k => format!("the solutions up to the board's {k} symmetries"),
            };
            format!(
                "counts {} and this run {}: resume it the way it was begun, or start afresh with another file",
                counts(found),
                counts(expected)
            )
        }
    }
}

impl Work {
    /// The checkpoint header of a run over `shard` of these tasks.
    pub(crate) fn header(&self, shard: Shard) -> Header {
        match self {
            Work::Whole(list) => Header::new(list, shard),
            Work::Masked(list) => Header {
                n: list.n(),
                depth: list.depth(),
                tasks: list.len(),
                fingerprint: list.fingerprint(),
                shard,
                board: Some(list.mark()),
            },
        }
    }
}
