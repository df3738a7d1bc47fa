//! SVG pictures: the style (colours checked before they reach the markup) and the layout of a
//! grid of boards, each part written as it comes, so a picture of millions of boards is
//! streamed, never held. A board costs O(n) elements: its squares are one pattern.

use std::fmt;
use std::io::{self, Write};
use std::str::FromStr;

use thiserror::Error;

use crate::board::{Problem, Solution};

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

/// An SVG picture of `solutions` (boards of `problem`): one board, or a grid of
/// `style.columns` boards per row, in order, each with its number as a tooltip.
pub fn svg(problem: &Problem, solutions: &[Solution], style: &SvgStyle) -> String {
    let mut out = Vec::new();
    let grid = SvgGrid::new(problem, style, solutions.len() as u64);
    // Writing to a Vec cannot fail.
    let _ = grid.header(&mut out, solutions.len() as u64);
    for (index, solution) in solutions.iter().enumerate() {
        let _ = grid.board(&mut out, index as u64, solution);
    }
    let _ = out.write_all(b"</svg>\n");
    String::from_utf8(out).expect("the SVG is ASCII and UTF-8 text")
}

/// The layout of a grid of `boards` pictures, `style.columns` to a row; each part is written as
/// it comes, so a picture of millions of boards is streamed, never held.
pub(super) struct SvgGrid<'a> {
    problem: &'a Problem,
    style: &'a SvgStyle,
    boards: u64,
}

impl<'a> SvgGrid<'a> {
    pub(super) fn new(problem: &'a Problem, style: &'a SvgStyle, boards: u64) -> Self {
        SvgGrid {
            problem,
            style,
            boards,
        }
    }

    fn cell(&self) -> u64 {
        u64::from(self.style.cell.max(1))
    }

    fn side(&self) -> u64 {
        u64::from(self.problem.n()) * self.cell()
    }

    fn columns(&self) -> u64 {
        u64::from(self.style.columns.max(1)).min(self.boards.max(1))
    }

    /// The opening tag, the title (`solutions` boards) and the shared definitions.
    pub(super) fn header(&self, out: &mut impl Write, solutions: u64) -> io::Result<()> {
        let n = self.problem.n();
        let cell = self.cell();
        let margin = u64::from(self.style.margin);
        let side = self.side();
        let grid_columns = self.columns();
        let grid_rows = self.boards.max(1).div_ceil(grid_columns);
        let width = margin + grid_columns * (side + margin);
        let height = margin + grid_rows * (side + margin);
        let style = self.style;
        writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
        )?;
        writeln!(
            out,
            "<title>{solutions} solution{} of {n}-queens</title>",
            if solutions == 1 { "" } else { "s" }
        )?;
        let two = 2 * cell;
        writeln!(
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
        )
    }

    /// Board number `index` (0-based) of the grid.
    pub(super) fn board(
        &self,
        out: &mut impl Write,
        index: u64,
        solution: &Solution,
    ) -> io::Result<()> {
        let cell = self.cell();
        let margin = u64::from(self.style.margin);
        let side = self.side();
        let grid_columns = self.columns();
        let (x, y) = (
            margin + (index % grid_columns) * (side + margin),
            margin + (index / grid_columns) * (side + margin),
        );
        writeln!(out, r#"<g transform="translate({x} {y})">"#)?;
        writeln!(out, "<title>solution {}</title>", index + 1)?;
        writeln!(
            out,
            r#"<rect width="{side}" height="{side}" fill="url(#squares)" stroke="{}" stroke-width="1"/>"#,
            self.style.dark
        )?;
        // A blocked square: a cross in the queen's colour, a little inside the square.
        for square in self.problem.blocked() {
            let (x0, y0) = (u64::from(square.col) * cell, u64::from(square.row) * cell);
            let (a, b) = (cell / 4, cell - cell / 4);
            writeln!(
                out,
                r#"<path class="blocked" d="M{} {}L{} {}M{} {}L{} {}" stroke="{}" stroke-width="{}"/>"#,
                x0 + a,
                y0 + a,
                x0 + b,
                y0 + b,
                x0 + b,
                y0 + a,
                x0 + a,
                y0 + b,
                self.style.queen,
                (cell / 12).max(1)
            )?;
        }
        for queen in solution.queens() {
            let fixed = self.problem.fixed_column(queen.row) == Some(queen.col);
            writeln!(
                out,
                r##"<use href="#queen" x="{}" y="{}" width="{cell}" height="{cell}" fill="{}"/>"##,
                u64::from(queen.col) * cell,
                u64::from(queen.row) * cell,
                if fixed {
                    &self.style.fixed
                } else {
                    &self.style.queen
                },
            )?;
        }
        out.write_all(b"</g>\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_checked() {
        assert!("#fff".parse::<Colour>().is_ok());
        assert!("#a0b1c2".parse::<Colour>().is_ok());
        assert!("teal".parse::<Colour>().is_ok());
        assert!("#ffff".parse::<Colour>().is_err());
        assert!("red\"/><script".parse::<Colour>().is_err());
        assert!("".parse::<Colour>().is_err());
    }
}
