//! [`Solutions`]: the solutions a file holds, streamed. The notation is told from the first
//! significant line (at most [`PEEK_BYTES`] of it), whose bytes are then put back in front of
//! the input for the reader of that notation; memory is one solution, never the file.

use std::io::{self, BufRead, Read as _};

use nqueens_support::{Position, strip_bom};

use super::drawn::{DrawnBoard, DrawnReader};
use super::{Answer, Notation, classify, svg_refused};
use crate::board::Solution;
use crate::formats::jsonl::JsonReader;
use crate::formats::solutions::{ReadError, SolutionReader};

/// The most bytes of the first significant line [`Solutions`] looks at to tell the notation.
pub const PEEK_BYTES: usize = 1 << 16;

/// The solutions of a file in any notation a solution is written in (`permutation`, `coords`,
/// `json`, `unicode`, `ascii`, `matrix`), streamed; see the [module documentation](super).
///
/// ```
/// use nqueens_solver::formats::read::{Notation, Solutions};
/// let text = "{\"n\":4,\"columns\":[2,4,1,3],\"blocked\":[[1,1]]}\n";
/// let mut solutions = Solutions::new(text.as_bytes());
/// assert_eq!(solutions.notation().unwrap(), Notation::Json);
/// let answer = solutions.next_answer().unwrap().unwrap();
/// assert_eq!(answer.solution.columns(), [1, 3, 0, 2]);
/// assert_eq!(answer.blocked, [nqueens_solver::Queen::new(0, 0)]);
/// assert!(solutions.next_answer().unwrap().is_none());
/// ```
pub struct Solutions<R> {
    state: State<R>,
}

/// The input with the bytes already looked at put back in front.
type Peeked<R> = io::Chain<io::Cursor<Vec<u8>>, R>;

enum State<R> {
    Unread(R),
    Lines(SolutionReader<Peeked<R>>, Notation),
    Json(JsonReader<Peeked<R>>),
    Drawn(DrawnReader<Peeked<R>>),
    /// Taken out while the notation is told.
    Gone,
}

impl<R: BufRead> Solutions<R> {
    /// A reader of the solutions in `input`.
    pub fn new(input: R) -> Self {
        Solutions {
            state: State::Unread(input),
        }
    }

    /// The notation of the input, told from its first significant line.
    pub fn notation(&mut self) -> Result<Notation, ReadError> {
        if let State::Unread(_) = self.state {
            let State::Unread(input) = std::mem::replace(&mut self.state, State::Gone) else {
                unreachable!("matched above")
            };
            self.state = peek(input)??;
        }
        Ok(match &self.state {
            State::Lines(_, notation) => *notation,
            State::Json(_) => Notation::Json,
            State::Drawn(_) => Notation::Drawn,
            State::Unread(_) | State::Gone => unreachable!("told above"),
        })
    }

    /// The next solution, or `None` at the end of the input.
    pub fn next_answer(&mut self) -> Result<Option<Answer>, ReadError> {
        self.notation()?;
        match &mut self.state {
            State::Lines(reader, _) => Ok(reader.next_entry()?.map(|entry| Answer {
                line: entry.line,
                solution: entry.solution,
                fixed: Vec::new(),
                blocked: entry.blocked,
            })),
            State::Json(reader) => Ok(reader.next_record()?.map(|record| Answer {
                line: record.line,
                solution: Solution::from_columns(record.columns),
                fixed: record.fixed,
                blocked: record.blocked,
            })),
            State::Drawn(reader) => reader.next_board()?.map(DrawnBoard::answer).transpose(),
            State::Unread(_) | State::Gone => unreachable!("told above"),
        }
    }
}

/// Reads up to the first significant line (at most [`PEEK_BYTES`] of it), tells its notation
/// and hands the input, with those bytes put back, to the reader of that notation; an SVG
/// picture is refused there (the inner error).
fn peek<R: BufRead>(mut input: R) -> io::Result<Result<State<R>, ReadError>> {
    let mut seen = Vec::new();
    let mut line_start = 0;
    let mut significant: Option<usize> = None;
    let mut comment = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let Some(&byte) = buf.first() else { break };
        input.consume(1);
        seen.push(byte);
        match significant {
            Some(start) if byte == b'\n' || seen.len() - start >= PEEK_BYTES => break,
            Some(_) => {}
            None if byte == b'\n' => {
                line_start = seen.len();
                comment = false;
            }
            None if comment || byte.is_ascii_whitespace() => {}
            None if byte == b'#' => comment = true,
            // The byte-order mark is no part of the first line.
            None if seen.len() <= 3 && seen == b"\xEF\xBB\xBF"[..seen.len()] => {}
            None => significant = Some(line_start),
        }
    }
    let first = significant.map(|start| String::from_utf8_lossy(&seen[start..]).into_owned());
    if let Some(reason) = first.as_deref().and_then(svg_refused) {
        let start = significant.unwrap_or_default();
        let line = seen[..start].iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        let position = Position { line, column: 1 };
        return Ok(Err(ReadError::Syntax { position, reason }));
    }
    let notation = significant.map_or(Notation::Permutation, |start| {
        let line = String::from_utf8_lossy(&seen[start..]);
        // A line of one number is a one-queen solution here; a line in no notation gets the
        // line reader's error, at its first wrong character.
        match classify(strip_bom(&line)) {
            Some(Notation::Partial) | None => Notation::Permutation,
            Some(other) => other,
        }
    });
    let rest = io::Cursor::new(seen).chain(input);
    Ok(Ok(match notation {
        Notation::Json => State::Json(JsonReader::new(rest)),
        Notation::Drawn => State::Drawn(DrawnReader::new(rest)),
        other => State::Lines(SolutionReader::new(rest), other),
    }))
}
