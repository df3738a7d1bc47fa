//! Showing solutions: text boards, a 0/1 matrix, coordinates, JSON Lines and SVG.
//!
//! | format    | one solution looks like                      | many solutions            |
//! |-----------|----------------------------------------------|---------------------------|
//! | `unicode` | rows of `♕` and `·` (fixed queens `♛`)      | boards split by a blank line |
//! | `ascii`   | rows of `Q` and `.`                          | boards split by a blank line |
//! | `matrix`  | rows of `1` and `0`                          | boards split by a blank line |
//! | `coords`  | `1:2 2:4 3:1 4:3` (1-based `ROW:COL`)        | one line each             |
//! | `json`    | `{"n":4,"columns":[2,4,1,3]}` (1-based)      | JSON Lines                |
//! | `svg`     | a drawn board                                | a grid of boards          |
//!
//! Coordinates are 1-based in every format, like the CLI's `--fix`. In JSON, `columns[i]` is the
//! column of the queen on row `i + 1`, and a problem with fixed queens adds
//! `"fixed":[[row,col],...]`.
//!
//! [`SolutionWriter`] streams any number of solutions in any format; SVG, which needs them all to
//! lay out the grid, is written when the writer finishes.

use std::fmt::{self, Write as _};
use std::io::{self, Write};
use std::str::FromStr;

use thiserror::Error;

use crate::board::{Problem, Solution};

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
        }
    }

    /// One line for `--help`.
    pub fn about(self) -> &'static str {
        match self {
            Format::Unicode => "board of ♕ and · (fixed queens ♛)",
            Format::Ascii => "board of Q and .",
            Format::Matrix => "0/1 matrix",
            Format::Coords => "1-based ROW:COL of each queen, one solution per line",
            Format::Json => "one JSON object per line: {\"n\":4,\"columns\":[2,4,1,3]}",
            Format::Svg => "a picture: one board, or a grid of boards",
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

/// A colour for SVG output: `#rgb`, `#rrggbb` or a CSS colour name (letters only), so it can be
/// written into XML as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Colour(String);

/// A malformed colour.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("'{0}' is not a colour: use #rgb, #rrggbb or a name like 'teal'")]
pub struct BadColour(pub String);

impl FromStr for Colour {
    type Err = BadColour;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let hex = s
            .strip_prefix('#')
            .is_some_and(|h| matches!(h.len(), 3 | 6) && h.chars().all(|c| c.is_ascii_hexdigit()));
        let name = !s.is_empty() && s.len() <= 32 && s.chars().all(|c| c.is_ascii_alphabetic());
        if hex || name {
            Ok(Colour(s.to_string()))
        } else {
            Err(BadColour(s.into()))
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// How SVG output looks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvgStyle {
    /// Side of one square, in pixels.
    pub cell: u32,
    /// Space around the picture and between boards, in pixels.
    pub margin: u32,
    /// Boards per row of the grid (when there are several).
    pub columns: u32,
    /// Light squares (the top-left square is light).
    pub light: Colour,
    /// Dark squares.
    pub dark: Colour,
    /// Queens.
    pub queen: Colour,
    /// Queens fixed by the problem.
    pub fixed: Colour,
}

impl Default for SvgStyle {
    fn default() -> Self {
        let colour = |s: &str| Colour(s.to_string());
        SvgStyle {
            cell: 40,
            margin: 16,
            columns: 4,
            light: colour("#f0d9b5"),
            dark: colour("#b58863"),
            queen: colour("#1a1a1a"),
            fixed: colour("#b3261e"),
        }
    }
}

/// Writes one solution in a text format (everything but SVG), ending with a newline.
///
/// ```
/// use nqueens::{render::{write_text, Format}, Problem, Solution};
/// let p = Problem::new(4).unwrap();
/// let s = Solution::from_columns(vec![1, 3, 0, 2]);
/// let mut out = Vec::new();
/// write_text(&mut out, Format::Coords, &p, &s).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "1:2 2:4 3:1 4:3\n");
/// ```
///
/// # Panics
/// For [`Format::Svg`] (use [`svg`]).
pub fn write_text(
    out: &mut dyn Write,
    format: Format,
    problem: &Problem,
    solution: &Solution,
) -> io::Result<()> {
    let columns = solution.columns();
    match format {
        Format::Unicode | Format::Ascii | Format::Matrix => {
            let (queen, fixed, empty) = match format {
                Format::Unicode => ('♕', '♛', '·'),
                Format::Ascii => ('Q', 'Q', '.'),
                _ => ('1', '1', '0'),
            };
            let mut line = String::new();
            for (row, &col) in (0u32..).zip(columns) {
                line.clear();
                for c in 0..columns.len() as u32 {
                    if c > 0 {
                        line.push(' ');
                    }
                    line.push(match (c == col, problem.fixed_column(row) == Some(col)) {
                        (false, _) => empty,
                        (true, false) => queen,
                        (true, true) => fixed,
                    });
                }
                line.push('\n');
                out.write_all(line.as_bytes())?;
            }
            Ok(())
        }
        Format::Coords => {
            let mut line = String::with_capacity(columns.len() * 8);
            for (i, queen) in solution.queens().enumerate() {
                if i > 0 {
                    line.push(' ');
                }
                let _ = write!(line, "{queen}");
            }
            line.push('\n');
            out.write_all(line.as_bytes())
        }
        Format::Json => {
            let mut line = format!("{{\"n\":{},\"columns\":[", problem.n());
            for (i, &col) in columns.iter().enumerate() {
                if i > 0 {
                    line.push(',');
                }
                let _ = write!(line, "{}", u64::from(col) + 1);
            }
            line.push(']');
            if problem.is_completion() {
                line.push_str(",\"fixed\":[");
                for (i, q) in problem.fixed().iter().enumerate() {
                    if i > 0 {
                        line.push(',');
                    }
                    let _ = write!(line, "[{},{}]", u64::from(q.row) + 1, u64::from(q.col) + 1);
                }
                line.push(']');
            }
            line.push_str("}\n");
            out.write_all(line.as_bytes())
        }
        Format::Svg => panic!("SVG needs every solution at once: use render::svg"),
    }
}

/// An SVG picture of `solutions` (boards of `problem`): one board, or a grid of
/// `style.columns` boards per row, in order, each with its number as a tooltip.
pub fn svg(problem: &Problem, solutions: &[Solution], style: &SvgStyle) -> String {
    let n = u64::from(problem.n());
    let cell = u64::from(style.cell.max(1));
    let margin = u64::from(style.margin);
    let side = n * cell;
    let count = solutions.len().max(1) as u64;
    let grid_columns = u64::from(style.columns.max(1)).min(count);
    let grid_rows = count.div_ceil(grid_columns);
    let width = margin + grid_columns * (side + margin);
    let height = margin + grid_rows * (side + margin);

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
    );
    let _ = writeln!(
        out,
        "<title>{} solution{} of {n}-queens</title>",
        solutions.len(),
        if solutions.len() == 1 { "" } else { "s" }
    );
    let two = 2 * cell;
    let _ = writeln!(
        out,
        concat!(
            "<defs>\n",
            r#"<pattern id="squares" width="{two}" height="{two}" patternUnits="userSpaceOnUse">"#,
            r#"<rect width="{two}" height="{two}" fill="{light}"/>"#,
            r#"<rect x="{cell}" width="{cell}" height="{cell}" fill="{dark}"/>"#,
            r#"<rect y="{cell}" width="{cell}" height="{cell}" fill="{dark}"/>"#,
            "</pattern>\n",
            r#"<symbol id="queen" viewBox="0 0 100 100">"#,
            r#"<path d="M20 78 L12 34 L33 56 L50 22 L67 56 L88 34 L80 78 Z M18 82 H82 V90 H18 Z"/>"#,
            r#"<circle cx="12" cy="31" r="6"/><circle cx="50" cy="18" r="6"/><circle cx="88" cy="31" r="6"/>"#,
            "</symbol>\n",
            "</defs>"
        ),
        two = two,
        cell = cell,
        light = style.light,
        dark = style.dark,
    );
    for (index, solution) in solutions.iter().enumerate() {
        let i = index as u64;
        let (x, y) = (
            margin + (i % grid_columns) * (side + margin),
            margin + (i / grid_columns) * (side + margin),
        );
        let _ = writeln!(out, r#"<g transform="translate({x} {y})">"#);
        let _ = writeln!(out, "<title>solution {}</title>", index + 1);
        let _ = writeln!(
            out,
            r#"<rect width="{side}" height="{side}" fill="url(#squares)" stroke="{}" stroke-width="1"/>"#,
            style.dark
        );
        for queen in solution.queens() {
            let fixed = problem.fixed_column(queen.row) == Some(queen.col);
            let _ = writeln!(
                out,
                r##"<use href="#queen" x="{}" y="{}" width="{cell}" height="{cell}" fill="{}"/>"##,
                u64::from(queen.col) * cell,
                u64::from(queen.row) * cell,
                if fixed { &style.fixed } else { &style.queen },
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

/// Writes a stream of solutions in one format: boards separated by blank lines, one line per
/// solution for `coords` and `json`, and for `svg` one picture written by [`finish`](Self::finish).
pub struct SolutionWriter<'p, W: Write> {
    out: W,
    format: Format,
    problem: &'p Problem,
    style: SvgStyle,
    written: u64,
    pending_svg: Vec<Solution>,
}

impl<'p, W: Write> SolutionWriter<'p, W> {
    /// A writer of solutions of `problem` to `out`.
    pub fn new(out: W, format: Format, problem: &'p Problem, style: SvgStyle) -> Self {
        SolutionWriter {
            out,
            format,
            problem,
            style,
            written: 0,
            pending_svg: Vec::new(),
        }
    }

    /// Writes (or, for SVG, keeps) one solution.
    pub fn write(&mut self, solution: &Solution) -> io::Result<()> {
        if self.format == Format::Svg {
            self.pending_svg.push(solution.clone());
        } else {
            if self.written > 0 && self.format.is_board() {
                self.out.write_all(b"\n")?;
            }
            write_text(&mut self.out, self.format, self.problem, solution)?;
        }
        self.written += 1;
        Ok(())
    }

    /// How many solutions were written.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Writes what is pending, flushes, and gives the output back.
    pub fn finish(mut self) -> io::Result<W> {
        if self.format == Format::Svg && !self.pending_svg.is_empty() {
            self.out
                .write_all(svg(self.problem, &self.pending_svg, &self.style).as_bytes())?;
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Queen;

    fn text(format: Format, problem: &Problem, columns: &[u32]) -> String {
        let mut out = Vec::new();
        write_text(
            &mut out,
            format,
            problem,
            &Solution::from_columns(columns.to_vec()),
        )
        .unwrap();
        String::from_utf8(out).unwrap()
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

    #[test]
    fn colours_are_checked() {
        assert!("#fff".parse::<Colour>().is_ok());
        assert!("#a0b1c2".parse::<Colour>().is_ok());
        assert!("teal".parse::<Colour>().is_ok());
        assert!("#ffff".parse::<Colour>().is_err());
        assert!("red\"/><script".parse::<Colour>().is_err());
        assert!("".parse::<Colour>().is_err());
    }

    #[test]
    fn board_formats_are_separated_by_blank_lines() {
        let p = Problem::new(4).unwrap();
        let mut w = SolutionWriter::new(Vec::new(), Format::Ascii, &p, SvgStyle::default());
        w.write(&Solution::from_columns(vec![1, 3, 0, 2])).unwrap();
        w.write(&Solution::from_columns(vec![2, 0, 3, 1])).unwrap();
        assert_eq!(w.written(), 2);
        let out = String::from_utf8(w.finish().unwrap()).unwrap();
        assert_eq!(
            out,
            ". Q . .\n. . . Q\nQ . . .\n. . Q .\n\n. . Q .\nQ . . .\n. . . Q\n. Q . .\n"
        );
    }
}
