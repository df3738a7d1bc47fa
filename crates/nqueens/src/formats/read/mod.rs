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
//! met, not a byte (`unexpected '♕'`). An SVG picture is refused with a message saying so
//! (it is written, never read back). Costs: linear in the text; [`notation`] looks at the
//! first significant line only (at most [`PEEK_BYTES`] of it when streaming).
//!
//! ```
//! use nqueens_solver::formats::read::{self, Notation};
//! let drawn = "× · ♕ ·\n♕ · · ·\n· · · ♕\n· ♕ · ·\n";
//! assert_eq!(read::notation(drawn), Notation::Drawn);
//! let board = read::board(drawn, read::Options::default()).unwrap();
//! assert_eq!((board.n, board.queens.len(), board.blocked.len()), (4, 4, 1));
//! ```

//!
//! [`board`] is read in `board.rs`, [`Solutions`] in `stream.rs`, drawn boards (for both) in
//! `drawn.rs`; this file tells the notation.

mod board;
mod drawn;
mod stream;

use std::fmt;

use nqueens_support::strip_bom;

pub use board::{BoardError, Options, board};
pub use stream::{PEEK_BYTES, Solutions};

use crate::board::{Queen, Solution};
use crate::formats::{csplib, partial};

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

/// What reading an SVG picture (`<svg ...` or `<?xml ...`, its first significant line) says:
/// SVG is written to be looked at and never read back, so the message names the formats that
/// are. `None` for any other line.
fn svg_refused(line: &str) -> Option<String> {
    let line = line.trim_start();
    (line.starts_with("<svg") || line.starts_with("<?xml")).then(|| {
        "this is an SVG picture, which is written to be looked at and is not read back: write \
         the board in the coords, json, unicode or ascii format to read it"
            .to_string()
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

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;
    use crate::Problem;
    use crate::formats::partial;
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

    /// SVG, the one format written and not read, is refused by both readers with a message
    /// that says so, at its first significant line.
    #[test]
    fn an_svg_picture_is_refused_as_written_only() {
        let (problem, solution) = example();
        let style = crate::formats::render::SvgStyle::default();
        let svg = crate::formats::render::svg(&problem, &[solution], &style);
        let text = format!("\n{svg}");
        let err = board(&text, Options::default()).unwrap_err().to_string();
        assert!(
            err.starts_with("line 2, column 1: this is an SVG picture"),
            "{err}"
        );
        assert!(
            err.contains("coords, json, unicode or ascii format"),
            "{err}"
        );
        let err = Solutions::new(text.as_bytes()).next_answer().unwrap_err();
        assert!(
            err.to_string()
                .starts_with("line 2, column 1: this is an SVG picture"),
            "{err}"
        );
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
}
