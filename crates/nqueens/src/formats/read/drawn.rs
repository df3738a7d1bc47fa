//! Boards drawn row by row without a size line (`unicode`, `ascii`, `matrix`), split by blank
//! lines: n is the number of cells of a board's first row. Rows are read one at a time, at
//! most `MAX_ROW_BYTES` each; a board costs O(n²) characters and O(n) memory.

use std::io::{BufRead, Read as _};

use nqueens_support::Position;

use super::Answer;
use crate::board::{Queen, Solution};
use crate::formats::partial;
use crate::formats::solutions::ReadError;

/// The longest line of a drawn board (a row of 1000 cells in any of the glyphs is far shorter).
const MAX_ROW_BYTES: u64 = 1 << 20;

/// One board drawn without a size line.
pub(super) struct DrawnBoard {
    /// The line of its first row.
    pub(super) line: u64,
    pub(super) n: u32,
    /// The line of each row.
    rows: Vec<u64>,
    pub(super) queens: Vec<Queen>,
    pub(super) blocked: Vec<Queen>,
}

impl DrawnBoard {
    /// The board as a solution: one queen on every row.
    pub(super) fn answer(self) -> Result<Answer, ReadError> {
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
pub(super) struct DrawnReader<R> {
    input: R,
    /// The number of the next line (1-based).
    line: u64,
    started: bool,
}

impl<R: BufRead> DrawnReader<R> {
    pub(super) fn new(input: R) -> Self {
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
    pub(super) fn next_board(&mut self) -> Result<Option<DrawnBoard>, ReadError> {
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
    use crate::formats::read::Solutions;

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
