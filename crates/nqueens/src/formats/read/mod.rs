//! One reader for every board the tool reads or writes: what `--fix-file`, `--instance`,
//! `verify`, the bench's child runs, Python's `read_board` and the web page's import all go
//! through, so that whatever the tool writes reads back wherever a board is read.
//!
//! # What is recognised
//!
//! The notation is told from the text itself ([`notation`]), from the first line that is not
//! blank and not a `#` comment (and the first words of a CSPLib instance):
//!
//! | [`Notation`] | looks like | written by |
//! |---|---|---|
//! | `Partial` | `8`, then `ROW:COL` lines and `!ROW:COL` blocked squares, or 8 drawn rows | `gen-completion`, `gen-blocked`, the page's export ([`partial`]) |
//! | `Drawn` | rows of `♕ ♛ · ×`, `Q . x` or `1 0`, no size line: n is the first row's length | `unicode`, `ascii`, `matrix` (boards split by a blank line) |
//! | `Json` | `{"n":4,"columns":[2,4,1,3],"blocked":[[1,1]]}` per line | `json` ([`jsonl`](super::jsonl)) |
//! | `Coords` | `1:2 2:4 3:1 4:3 !1:1` per line | `coords` ([`solutions`](super::solutions)) |
//! | `Permutation` | `2 4 1 3` per line | `permutation` ([`solutions`](super::solutions)) |
//! | `Instance` | `letting n = 8` / `n = 15`, `blocks` or `diags` | the CSPLib sets ([`csplib`]) |
//!
//! # Two questions, one place
//!
//! - [`board`]: the board a file describes, for the commands that solve it: its size, its
//!   queens (every queen drawn or listed is a fixed queen: a solution read back is a board whose
//!   queens are all placed) and its blocked squares. A file holds one board.
//! - [`Solutions`]: the solutions a file holds, for `verify`: one per line (or per drawn board),
//!   each with the fixed queens and blocked squares it records (`json`'s `fixed` and `blocked`,
//!   `coords`' `!ROW:COL`, a drawn board's `×`), streamed: a line of n = 10^8 never sits in
//!   memory, only its solution.
//!
//! Every error carries a 1-based line and column in characters and names the character it
//! met, not a byte (`unexpected '♕'`). Costs: linear in the text; [`notation`] looks at the
//! first significant line only (at most [`PEEK_BYTES`] of it when streaming).
//!
//! ```
//! use nqueens::formats::read::{self, Notation};
//! let drawn = "× · ♕ ·\n♕ · · ·\n· · · ♕\n· ♕ · ·\n";
//! assert_eq!(read::notation(drawn), Notation::Drawn);
//! let board = read::board(drawn, read::Options::default()).unwrap();
//! assert_eq!((board.n, board.queens.len(), board.blocked.len()), (4, 4, 1));
//! ```

use std::fmt;
use std::io::{self, BufRead, Read as _};

use nqueens_support::{Position, strip_bom};
use thiserror::Error;

use super::csplib;
use super::jsonl::JsonReader;
use super::partial::{self, PartialBoard};
use super::solutions::{ReadError, SolutionReader};
use crate::board::{Queen, Solution};

/// How a board file is written; see the [module documentation](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// The partial-board format: the size n on a line of its own, then `ROW:COL` lines or drawn
    /// rows.
    Partial,
    /// Boards drawn row by row without a size line (`unicode`, `ascii`, `matrix`).
    Drawn,
    /// JSON Lines (`json`).
    Json,
    /// `ROW:COL` pairs, one solution per line (`coords`).
    Coords,
    /// Columns, one solution per line (`permutation`).
    Permutation,
    /// A CSPLib instance: blocked n-Queens or excluded diagonals.
    Instance,
}

impl Notation {
    /// What the notation is, for messages: "a partial board (n, then ROW:COL lines)".
    pub fn describe(self) -> &'static str {
        match self {
            Notation::Partial => "a partial board (n, then ROW:COL lines or drawn rows)",
            Notation::Drawn => "a drawn board",
            Notation::Json => "JSON lines",
            Notation::Coords => "a line of ROW:COL pairs",
            Notation::Permutation => "a line of columns",
            Notation::Instance => "a CSPLib instance",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// The notation of `text` (see the [module documentation](self)).
pub fn notation(text: &str) -> Notation {
    let text = strip_bom(text);
    if csplib::looks_like(text) {
        return Notation::Instance;
    }
    // Text in no notation is read as the partial-board format, whose errors say what it wants.
    first_line(text)
        .and_then(|(_, line)| classify(line))
        .unwrap_or(Notation::Partial)
}

/// The first line that is neither blank nor a `#` comment, with its 0-based index.
fn first_line(text: &str) -> Option<(usize, &str)> {
    text.lines().enumerate().find(|(_, l)| {
        let l = l.trim();
        !l.is_empty() && !l.starts_with('#')
    })
}

/// The notation a first significant line starts, if any, told from its first character (and
/// its first word), so that a line that goes wrong later gets its reader's error there.
fn classify(line: &str) -> Option<Notation> {
    let line = line.trim();
    let first = line.chars().next()?;
    if first == '{' {
        return Some(Notation::Json);
    }
    if first == '!' {
        return Some(Notation::Coords);
    }
    if first.is_ascii_digit() {
        let mut words = line.split_whitespace();
        let word = words.next()?;
        if words.next().is_none() && line.bytes().all(|b| b.is_ascii_digit()) {
            return Some(Notation::Partial);
        }
        // A matrix row: 0s and 1s, with a 0 (a row of two or more always has one; a line of
        // 1-based columns never does).
        if line.contains('0')
            && line
                .chars()
                .all(|c| c.is_whitespace() || c == '0' || c == '1')
        {
            return Some(Notation::Drawn);
        }
        return Some(if word.contains(':') {
            Notation::Coords
        } else {
            Notation::Permutation
        });
    }
    partial::is_cell(first).then_some(Notation::Drawn)
}

/// How to read a board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// For an excluded-diagonals instance: take the first this many diagonals (`None`: all).
    pub diagonals: Option<usize>,
}

/// A board file that cannot be read: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{position}: {message}")]
pub struct BoardError {
    /// 1-based line, and column in characters.
    pub position: Position,
    /// What is wrong there.
    pub message: String,
}

impl From<partial::ParseError> for BoardError {
    fn from(e: partial::ParseError) -> Self {
        BoardError {
            position: e.position,
            message: e.message,
        }
    }
}

impl From<csplib::ParseError> for BoardError {
    fn from(e: csplib::ParseError) -> Self {
        BoardError {
            position: e.position,
            message: e.message,
        }
    }
}

impl From<ReadError> for BoardError {
    fn from(e: ReadError) -> Self {
        let at_line = |line| Position { line, column: 1 };
        match e {
            ReadError::Syntax { position, reason } => BoardError {
                position,
                message: reason,
            },
            ReadError::NotOnePerRow { line, reason } => BoardError {
                position: at_line(line),
                message: reason,
            },
            ReadError::TooLong { line, .. } => BoardError {
                position: at_line(line),
                message: e.to_string(),
            },
            // Text in memory cannot fail to read.
            ReadError::Io(err) => BoardError {
                position: at_line(1),
                message: err.to_string(),
            },
        }
    }
}

/// The board `text` describes, in any [`Notation`]: its size, queens and blocked squares, not
/// yet checked against each other ([`PartialBoard::to_problem`] does that, after a front end
/// adds its own squares). A second board or solution in the text is an error: a board file
/// holds one.
pub fn board(text: &str, options: Options) -> Result<PartialBoard, BoardError> {
    let text = strip_bom(text);
    let notation = notation(text);
    if options.diagonals.is_some() && notation != Notation::Instance {
        let line = first_line(text).map_or(0, |(i, _)| i);
        return Err(BoardError {
            position: Position {
                line: line as u64 + 1,
                column: 1,
            },
            message: format!(
                "a number of diagonals was asked for, but this is {notation}: only an excluded-diagonals instance has diagonals"
            ),
        });
    }
    let one = |second: Option<u64>| match second {
        None => Ok(()),
        Some(line) => Err(BoardError {
            position: Position { line, column: 1 },
            message: "a second board starts here: a board file holds one board".into(),
        }),
    };
    match notation {
        Notation::Instance => {
            let problem = csplib::parse(
                text,
                csplib::Options {
                    diagonals: options.diagonals,
                },
            )?;
            Ok(PartialBoard {
                n: problem.n(),
                queens: problem.fixed().to_vec(),
                blocked: problem.blocked().to_vec(),
            })
        }
        Notation::Partial => Ok(partial::parse(text)?),
        Notation::Drawn => {
            let mut reader = DrawnReader::new(text.as_bytes());
            let first = reader.next_board()?.expect("a first significant line");
            one(reader.next_board()?.map(|b| b.line))?;
            Ok(PartialBoard {
                n: first.n,
                queens: first.queens,
                blocked: first.blocked,
            })
        }
        Notation::Json => {
            let mut reader = JsonReader::new(text.as_bytes());
            let record = reader.next_record()?.expect("a first significant line");
            one(reader.next_record()?.map(|r| r.line))?;
            let queens = (0..)
                .zip(&record.columns)
                .map(|(row, &col)| Queen::new(row, col))
                .chain(record.fixed)
                .collect::<Vec<_>>();
            Ok(PartialBoard {
                n: record.columns.len() as u32,
                queens: dedup(queens),
                blocked: record.blocked,
            })
        }
        Notation::Coords | Notation::Permutation => {
            let mut reader = SolutionReader::new(text.as_bytes());
            let entry = reader.next_entry()?.expect("a first significant line");
            one(reader.next_entry()?.map(|e| e.line))?;
            Ok(PartialBoard {
                n: entry.solution.n(),
                queens: entry.solution.queens().collect(),
                blocked: entry.blocked,
            })
        }
    }
}

/// `squares` sorted, each once.
fn dedup(mut squares: Vec<Queen>) -> Vec<Queen> {
    squares.sort_unstable();
    squares.dedup();
    squares
}

/// The most bytes of the first significant line [`Solutions`] looks at to tell the notation.
pub const PEEK_BYTES: usize = 1 << 16;

/// The longest line of a drawn board (a row of 1000 cells in any of the glyphs is far shorter).
const MAX_ROW_BYTES: u64 = 1 << 20;

/// One solution read back: where, the queens, and the fixed queens and blocked squares the
/// file records beside it (0-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The line it starts on (1-based).
    pub line: u64,
    /// The queens, one per row.
    pub solution: Solution,
    /// Fixed queens the file records (`json`'s `fixed`).
    pub fixed: Vec<Queen>,
    /// Blocked squares the file records (`json`'s `blocked`, `coords`' `!ROW:COL`, a drawn
    /// board's `×` or `x`).
    pub blocked: Vec<Queen>,
}

/// The solutions of a file in any notation a solution is written in (`permutation`, `coords`,
/// `json`, `unicode`, `ascii`, `matrix`), streamed; see the [module documentation](self).
///
/// ```
/// use nqueens::formats::read::{Notation, Solutions};
/// let text = "{\"n\":4,\"columns\":[2,4,1,3],\"blocked\":[[1,1]]}\n";
/// let mut solutions = Solutions::new(text.as_bytes());
/// assert_eq!(solutions.notation().unwrap(), Notation::Json);
/// let answer = solutions.next_answer().unwrap().unwrap();
/// assert_eq!(answer.solution.columns(), [1, 3, 0, 2]);
/// assert_eq!(answer.blocked, [nqueens::Queen::new(0, 0)]);
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
            self.state = peek(input)?;
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
/// and hands the input, with those bytes put back, to the reader of that notation.
fn peek<R: BufRead>(mut input: R) -> io::Result<State<R>> {
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
    Ok(match notation {
        Notation::Json => State::Json(JsonReader::new(rest)),
        Notation::Drawn => State::Drawn(DrawnReader::new(rest)),
        other => State::Lines(SolutionReader::new(rest), other),
    })
}

/// One board drawn without a size line.
struct DrawnBoard {
    /// The line of its first row.
    line: u64,
    n: u32,
    /// The line of each row.
    rows: Vec<u64>,
    queens: Vec<Queen>,
    blocked: Vec<Queen>,
}

impl DrawnBoard {
    /// The board as a solution: one queen on every row.
    fn answer(self) -> Result<Answer, ReadError> {
        let mut columns = vec![None; self.n as usize];
        for queen in &self.queens {
            let line = self.rows[queen.row as usize];
            let slot = &mut columns[queen.row as usize];
            if let Some(first) = *slot {
                return Err(ReadError::NotOnePerRow {
                    line,
                    reason: format!(
                        "queens {} and {queen} attack each other along a row",
                        Queen::new(queen.row, first)
                    ),
                });
            }
            *slot = Some(queen.col);
        }
        let columns = columns
            .iter()
            .enumerate()
            .map(|(row, col)| {
                col.ok_or_else(|| ReadError::NotOnePerRow {
                    line: self.rows[row],
                    reason: format!("row {} has no queen", row + 1),
                })
            })
            .collect::<Result<Vec<u32>, ReadError>>()?;
        Ok(Answer {
            line: self.line,
            solution: Solution::from_columns(columns),
            fixed: Vec::new(),
            blocked: self.blocked,
        })
    }
}

/// Reads boards drawn row by row without a size line, split by blank lines: n is the number of
/// cells of a board's first row, and it has n rows.
struct DrawnReader<R> {
    input: R,
    /// The number of the next line (1-based).
    line: u64,
    started: bool,
}

impl<R: BufRead> DrawnReader<R> {
    fn new(input: R) -> Self {
        DrawnReader {
            input,
            line: 1,
            started: false,
        }
    }

    /// The next line (without its end), or `None` at the end of the input.
    fn next_line(&mut self) -> Result<Option<(u64, String)>, ReadError> {
        let mut bytes = Vec::new();
        (&mut self.input)
            .take(MAX_ROW_BYTES)
            .read_until(b'\n', &mut bytes)?;
        if bytes.is_empty() {
            return Ok(None);
        }
        let line = self.line;
        self.line += 1;
        if !self.started {
            self.started = true;
            if bytes.starts_with(b"\xEF\xBB\xBF") {
                bytes.drain(..3);
            }
        }
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
        } else if bytes.len() as u64 == MAX_ROW_BYTES {
            return Err(ReadError::Syntax {
                position: Position { line, column: 1 },
                reason: format!("a row of a drawn board longer than {MAX_ROW_BYTES} bytes"),
            });
        }
        match String::from_utf8(bytes) {
            Ok(text) => Ok(Some((line, text))),
            Err(e) => {
                let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                let column = String::from_utf8_lossy(valid).chars().count() as u64 + 1;
                Err(ReadError::Syntax {
                    position: Position { line, column },
                    reason: "this line is not UTF-8 text".into(),
                })
            }
        }
    }

    /// The next board, or `None` at the end of the input.
    fn next_board(&mut self) -> Result<Option<DrawnBoard>, ReadError> {
        let mut board: Option<DrawnBoard> = None;
        while let Some((line, text)) = self.next_line()? {
            let trimmed = text.trim();
            if trimmed.starts_with('#') {
                continue;
            }
            if trimmed.is_empty() {
                match board {
                    Some(board) => return finish(board, line).map(Some),
                    None => continue,
                }
            }
            let syntax = |e: partial::ParseError| ReadError::Syntax {
                position: e.position,
                reason: e.message,
            };
            match &mut board {
                None => {
                    let mut start = DrawnBoard {
                        line,
                        n: 0,
                        rows: vec![line],
                        queens: Vec::new(),
                        blocked: Vec::new(),
                    };
                    start.n = partial::drawn_row(
                        &text,
                        line,
                        0,
                        None,
                        &mut start.queens,
                        &mut start.blocked,
                    )
                    .map_err(syntax)?;
                    board = Some(start);
                }
                Some(b) if b.rows.len() == b.n as usize => {
                    return Err(ReadError::Syntax {
                        position: Position { line, column: 1 },
                        reason: format!(
                            "the board drawn from line {} has {} cells a row, so {} rows; a blank line goes between boards",
                            b.line, b.n, b.n
                        ),
                    });
                }
                Some(b) => {
                    let row = b.rows.len() as u32;
                    partial::drawn_row(&text, line, row, Some(b.n), &mut b.queens, &mut b.blocked)
                        .map_err(syntax)?;
                    b.rows.push(line);
                }
            }
        }
        let end = self.line;
        board.map(|b| finish(b, end)).transpose()
    }
}

/// A board whose rows ended at line `end`: it must have as many rows as cells a row.
fn finish(board: DrawnBoard, end: u64) -> Result<DrawnBoard, ReadError> {
    if board.rows.len() == board.n as usize {
        return Ok(board);
    }
    Err(ReadError::Syntax {
        position: Position {
            line: end,
            column: 1,
        },
        reason: format!(
            "the board drawn from line {} has {} rows of {} cells: a board has as many rows as cells a row",
            board.line,
            board.rows.len(),
            board.n
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Problem;
    use crate::formats::render::{Format, to_text};

    /// Every text format a solution is written in.
    const WRITTEN: [Format; 6] = [
        Format::Unicode,
        Format::Ascii,
        Format::Matrix,
        Format::Coords,
        Format::Json,
        Format::Permutation,
    ];

    /// A blocked board with a fixed queen, and one of its solutions.
    fn example() -> (Problem, Solution) {
        let problem = Problem::with_blocks(
            6,
            [Queen::new(0, 1)],
            [Queen::new(0, 0), Queen::new(2, 2), Queen::new(5, 5)],
        )
        .unwrap();
        let solution = crate::board::naive::solutions(&problem)
            .into_iter()
            .next()
            .expect("a solution");
        (problem, solution)
    }

    /// Every format that writes a board reads back as that board: its queens (all fixed) and,
    /// where the format keeps them, its blocked squares.
    #[test]
    fn every_written_board_reads_back() {
        let (problem, solution) = example();
        let queens: Vec<Queen> = solution.queens().collect();
        for format in WRITTEN {
            let text = to_text(format, &problem, &solution);
            let board = board(&text, Options::default())
                .unwrap_or_else(|e| panic!("{format}: {e}\n{text}"));
            assert_eq!(board.n, 6, "{format}");
            let mut read = board.queens.clone();
            read.sort_unstable();
            assert_eq!(read, queens, "{format}");
            let keeps_blocks = !matches!(format, Format::Matrix | Format::Permutation);
            let blocked = if keeps_blocks { problem.blocked() } else { &[] };
            assert_eq!(board.blocked, blocked, "{format}");
            let expected = match format {
                Format::Unicode | Format::Ascii | Format::Matrix => Notation::Drawn,
                Format::Json => Notation::Json,
                Format::Coords => Notation::Coords,
                _ => Notation::Permutation,
            };
            assert_eq!(notation(&text), expected, "{format}");
        }
        // The partial-board file and the instance file.
        let text = partial::write(&problem, "a comment");
        assert_eq!(notation(&text), Notation::Partial);
        let read = board(&text, Options::default()).unwrap();
        assert_eq!(read.to_problem().unwrap(), problem);
        let instance = "letting n = 6\nletting blocks = [[1,1],[3,3],[6,6]]\n";
        assert_eq!(notation(instance), Notation::Instance);
        assert_eq!(
            board(instance, Options::default()).unwrap().blocked,
            problem.blocked()
        );
    }

    /// Every solution format streams back through `Solutions`, the records' fixed queens and
    /// blocked squares with it, through any buffer size.
    #[test]
    fn every_written_solution_streams_back() {
        let (problem, solution) = example();
        for format in WRITTEN {
            let one = to_text(format, &problem, &solution);
            let sep = if matches!(format, Format::Unicode | Format::Ascii | Format::Matrix) {
                "\n"
            } else {
                ""
            };
            let text = format!("# two boards\n{one}{sep}{one}");
            for capacity in [1, 5, 1 << 16] {
                let input = io::BufReader::with_capacity(capacity, text.as_bytes());
                let mut solutions = Solutions::new(input);
                let mut answers = Vec::new();
                while let Some(answer) = solutions.next_answer().unwrap() {
                    answers.push(answer);
                }
                assert_eq!(answers.len(), 2, "{format}");
                assert_eq!(answers[0].line, 2, "{format}");
                assert_eq!(answers[1].solution, solution, "{format}");
                let blocked = match format {
                    Format::Matrix | Format::Permutation => &[][..],
                    _ => problem.blocked(),
                };
                assert_eq!(answers[1].blocked, blocked, "{format}");
                let fixed = if format == Format::Json {
                    problem.fixed()
                } else {
                    &[]
                };
                assert_eq!(answers[1].fixed, fixed, "{format}");
            }
        }
    }

    #[test]
    fn classify_tells_rows_from_numbers() {
        assert_eq!(classify("8"), Some(Notation::Partial));
        assert_eq!(classify("2 4 1 3"), Some(Notation::Permutation));
        assert_eq!(classify("2,4,1,3"), Some(Notation::Permutation));
        assert_eq!(classify("1"), Some(Notation::Partial));
        assert_eq!(classify("1 0 0 0"), Some(Notation::Drawn));
        assert_eq!(classify("0 1"), Some(Notation::Drawn));
        assert_eq!(classify("1 1"), Some(Notation::Permutation));
        assert_eq!(classify(". Q x ."), Some(Notation::Drawn));
        assert_eq!(classify("1:2 2:4 !1:1"), Some(Notation::Coords));
        assert_eq!(classify("{\"n\":1}"), Some(Notation::Json));
        assert_eq!(classify("hello"), None);
        assert_eq!(notation("hello"), Notation::Partial);
    }

    #[test]
    fn errors_name_the_character_and_where() {
        let err = |text: &str| board(text, Options::default()).unwrap_err().to_string();
        assert_eq!(
            err("♕ · ·\n· · y\n· · ·\n"),
            "line 2, column 5: 'y' is not a cell: use Q for a queen, x for a blocked square and . for an empty one"
        );
        assert_eq!(
            err("Q . .\n. . Q\n"),
            "line 3, column 1: the board drawn from line 1 has 2 rows of 3 cells: a board has as many rows as cells a row"
        );
        assert_eq!(
            err("Q .\n. .\n\n. Q\nQ .\n"),
            "line 4, column 1: a second board starts here: a board file holds one board"
        );
        assert_eq!(
            err("Q .\n. .\n. Q\n"),
            "line 3, column 1: the board drawn from line 1 has 2 cells a row, so 2 rows; a blank line goes between boards"
        );
        assert_eq!(
            err("2 4 1 3\n3 1 4 2\n"),
            "line 2, column 1: a second board starts here: a board file holds one board"
        );
        assert_eq!(
            err("1:2 2:4 ♕\n"),
            "line 1, column 9: unexpected '♕': expected 1-based columns (2 4 1 3) or ROW:COL pairs (1:2 2:4 3:1 4:3)"
        );
        assert_eq!(
            board("8\n1:1\n", Options { diagonals: Some(1) })
                .unwrap_err()
                .to_string(),
            "line 1, column 1: a number of diagonals was asked for, but this is a partial board (n, then ROW:COL lines or drawn rows): only an excluded-diagonals instance has diagonals"
        );
    }

    #[test]
    fn a_drawn_solution_needs_one_queen_a_row() {
        let answers = |text: &str| {
            let mut solutions = Solutions::new(text.as_bytes());
            let mut out = Vec::new();
            loop {
                match solutions.next_answer() {
                    Ok(Some(a)) => out.push(a.solution.into_columns()),
                    Ok(None) => return Ok(out),
                    Err(e) => return Err(e.to_string()),
                }
            }
        };
        assert_eq!(answers(". Q\nQ .\n"), Ok(vec![vec![1, 0]]));
        assert_eq!(
            answers("Q . Q\n. . .\n. Q .\n"),
            Err("line 1: queens 1:1 and 1:3 attack each other along a row".into())
        );
        assert_eq!(
            answers("Q . .\n. . .\n. Q .\n"),
            Err("line 2: row 2 has no queen".into())
        );
        assert_eq!(
            answers("\u{feff}\n# a comment\n. Q\nQ .\n\n\n"),
            Ok(vec![vec![1, 0]])
        );
    }
}
