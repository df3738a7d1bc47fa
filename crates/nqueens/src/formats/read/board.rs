//! [`board`]: the one board a file describes, in any notation, for the commands that solve it.
//! Linear in the text; a second board in the file is an error at its first line.

use nqueens_support::{Position, strip_bom};
use thiserror::Error;

use super::drawn::DrawnReader;
use super::{Notation, first_line, notation, svg_refused};
use crate::board::Queen;
use crate::formats::csplib;
use crate::formats::jsonl::JsonReader;
use crate::formats::partial::{self, PartialBoard};
use crate::formats::solutions::{ReadError, SolutionReader};

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
    if let Some((line, message)) = first_line(text).and_then(|(i, l)| Some((i, svg_refused(l)?))) {
        let (line, column) = (line as u64 + 1, 1);
        return Err(BoardError {
            position: Position { line, column },
            message,
        });
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
