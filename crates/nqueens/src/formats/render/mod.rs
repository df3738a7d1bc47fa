//! Showing solutions: text boards, a 0/1 matrix, coordinates, JSON Lines and SVG.
//!
//! | format    | one solution looks like                      | many solutions            |
//! |-----------|----------------------------------------------|---------------------------|
//! | `unicode` | rows of `♕` and `·` (fixed queens `♛`, blocked `×`) | boards split by a blank line |
//! | `ascii`   | rows of `Q` and `.` (blocked `x`)            | boards split by a blank line |
//! | `matrix`  | rows of `1` and `0` (blocked squares are `0`) | boards split by a blank line |
//! | `coords`  | `1:2 2:4 3:1 4:3` (1-based `ROW:COL`; blocked squares `!ROW:COL` after) | one line each |
//! | `json`    | `{"n":4,"columns":[2,4,1,3]}` (1-based)      | JSON Lines                |
//! | `svg`     | a drawn board                                | a grid of boards          |
//! | `permutation` | `2 4 1 3` (1-based column of each row)   | one line each             |
//!
//! Coordinates are 1-based in every format, like the CLI's `--fix`. In JSON, `columns[i]` is the
//! column of the queen on row `i + 1`, and a problem with fixed queens adds
//! `"fixed":[[row,col],...]`, one with blocked squares `"blocked":[[row,col],...]`. Every format
//! but SVG reads back through [`crate::formats::read`]; `matrix` and `permutation` have no
//! mark for a blocked square and leave them out.
//!
//! [`SolutionWriter`] streams any number of solutions in any format; SVG, which needs them all to
//! lay out the grid, is written when the writer finishes.
//!
//! **Huge boards.** `coords`, `json` and `permutation` are streamed: the numbers are formatted
//! into a 64 KiB buffer that is handed to the writer whenever it fills, so writing a solution of
//! n = 10^8 needs no memory beyond the solution itself. The text formats read the columns once,
//! in row order, from any iterator ([`write_rows`], [`SolutionWriter::write_rows`]): a solution
//! given as strides ([`crate::board::stride`], the construction's answer) is written from its
//! formula, and n = 2³² − 1 takes constant memory. The grid formats (`unicode`, `ascii`,
//! `matrix`, `svg`) write n² squares and are refused beyond [`GRID_LIMIT`] rows
//! ([`Format::check_size`]), with a message naming the formats that work.
//!
//! The text formats are written in `text.rs`, SVG pictures in `picture.rs`, and the stream of
//! many solutions in `writer.rs`; this file names the formats.

mod picture;
mod text;
mod writer;

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

pub use picture::{BadColour, Colour, SvgStyle, svg};
pub use text::{draw_problem, to_text, write_rows, write_text};
pub use writer::SolutionWriter;

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// Unicode board: `♕` for a queen, `♛` for a fixed queen, `·` for an empty square.
    Unicode,
    /// ASCII board: `Q` and `.`.
    Ascii,
    /// 0/1 matrix.
    Matrix,
    /// `ROW:COL` pairs on one line.
    Coords,
    /// One JSON object per solution (JSON Lines).
    Json,
    /// An SVG picture.
    Svg,
    /// The 1-based column of each row's queen, space-separated, one solution per line.
    Permutation,
}

impl Format {
    /// Every format, in `--help` order.
    pub const ALL: &'static [Format] = &[
        Format::Unicode,
        Format::Ascii,
        Format::Matrix,
        Format::Coords,
        Format::Json,
        Format::Svg,
        Format::Permutation,
    ];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            Format::Unicode => "unicode",
            Format::Ascii => "ascii",
            Format::Matrix => "matrix",
            Format::Coords => "coords",
            Format::Json => "json",
            Format::Svg => "svg",
            Format::Permutation => "permutation",
        }
    }

    /// One line for `--help`.
    pub fn about(self) -> &'static str {
        match self {
            Format::Unicode => "board of ♕ and · (fixed queens ♛, blocked squares ×)",
            Format::Ascii => "board of Q and . (blocked squares x)",
            Format::Matrix => "0/1 matrix (blocked squares are 0s: not kept)",
            Format::Coords => {
                "1-based ROW:COL of each queen, one solution per line (blocked squares as !ROW:COL)"
            }
            Format::Json => {
                "one JSON object per line: {\"n\":4,\"columns\":[2,4,1,3]} (with \"fixed\" and \"blocked\")"
            }
            Format::Svg => {
                "a picture: one board, or a grid of boards (blocked squares crossed out)"
            }
            Format::Permutation => {
                "1-based column of each row's queen on one line: 2 4 1 3 (blocked squares not kept)"
            }
        }
    }

    /// Whether the format draws the n×n grid (so its size grows as n²).
    pub fn is_grid(self) -> bool {
        matches!(
            self,
            Format::Unicode | Format::Ascii | Format::Matrix | Format::Svg
        )
    }

    /// Refuses a grid format for boards of more than [`GRID_LIMIT`] rows.
    ///
    /// ```
    /// use nqueens_solver::formats::render::Format;
    /// assert!(Format::Unicode.check_size(1000).is_ok());
    /// assert_eq!(
    ///     Format::Unicode.check_size(1001).unwrap_err().to_string(),
    ///     "the unicode format draws all n² squares and is limited to n ≤ 1000; \
    ///      for n = 1001 use the permutation, coords or json format"
    /// );
    /// assert!(Format::Permutation.check_size(u32::MAX).is_ok());
    /// ```
    pub fn check_size(self, n: u32) -> Result<(), GridTooLarge> {
        if self.is_grid() && n > GRID_LIMIT {
            Err(GridTooLarge { format: self, n })
        } else {
            Ok(())
        }
    }

    /// Whether solutions are drawn as multi-line boards (separated by blank lines).
    fn is_board(self) -> bool {
        matches!(self, Format::Unicode | Format::Ascii | Format::Matrix)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The largest board the grid formats (`unicode`, `ascii`, `matrix`, `svg`) draw: 1000 rows is
/// already a million squares (about 4 MB of text, or a 40,000-pixel SVG).
pub const GRID_LIMIT: u32 = 1000;

/// A grid format asked for a board larger than [`GRID_LIMIT`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "the {format} format draws all n² squares and is limited to n ≤ {GRID_LIMIT}; for n = {n} \
     use the permutation, coords or json format"
)]
pub struct GridTooLarge {
    /// The format asked for.
    pub format: Format,
    /// The board size.
    pub n: u32,
}

impl GridTooLarge {
    /// The refusal without its advice, for a caller whose own formats (or flags) differ:
    /// "the ascii format draws all n² squares and is limited to n ≤ 1000; for n = 1001".
    pub fn limit(&self) -> String {
        let (format, n) = (self.format, self.n);
        format!(
            "the {format} format draws all n² squares and is limited to n ≤ {GRID_LIMIT}; for n = {n}"
        )
    }
}

/// The error of parsing a format name.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown format '{0}'")]
pub struct UnknownFormat(pub String);

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .iter()
            .copied()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownFormat(s.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Problem, Queen, Solution};

    fn text(format: Format, problem: &Problem, columns: &[u32]) -> String {
        to_text(format, problem, &Solution::from_columns(columns.to_vec()))
    }

    #[test]
    fn blocked_squares_are_drawn_in_every_format_that_draws_squares() {
        let p = Problem::with_blocks(4, [Queen::new(0, 2)], [Queen::new(0, 0), Queen::new(3, 3)])
            .unwrap();
        let columns = [2, 0, 3, 1];
        assert_eq!(
            text(Format::Unicode, &p, &columns),
            "× · ♛ ·\n♕ · · ·\n· · · ♕\n· ♕ · ×\n"
        );
        assert_eq!(
            text(Format::Ascii, &p, &columns),
            "x . Q .\nQ . . .\n. . . Q\n. Q . x\n"
        );
        assert_eq!(
            text(Format::Json, &p, &columns),
            "{\"n\":4,\"columns\":[3,1,4,2],\"fixed\":[[1,3]],\"blocked\":[[1,1],[4,4]]}\n"
        );
        // The drawn board reads back as the same problem.
        let drawn = format!("4\n{}", text(Format::Ascii, &p, &columns));
        let read = crate::formats::partial::parse(&drawn).unwrap();
        assert_eq!(read.blocked, p.blocked());
        let picture = svg(
            &p,
            &[Solution::from_columns(columns.to_vec())],
            &SvgStyle::default(),
        );
        assert_eq!(picture.matches(r#"class="blocked""#).count(), 2);
    }

    #[test]
    fn fixed_queens_are_drawn_black_in_unicode() {
        let p = Problem::with_fixed(4, [Queen::new(0, 1)]).unwrap();
        assert_eq!(
            text(Format::Unicode, &p, &[1, 3, 0, 2]),
            "· ♛ · ·\n· · · ♕\n♕ · · ·\n· · ♕ ·\n"
        );
        assert_eq!(
            text(Format::Json, &p, &[1, 3, 0, 2]),
            "{\"n\":4,\"columns\":[2,4,1,3],\"fixed\":[[1,2]]}\n"
        );
    }
}
