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
//! n = 10^8 needs no memory beyond the solution itself. The grid formats (`unicode`, `ascii`,
//! `matrix`, `svg`) write n² squares and are refused beyond [`GRID_LIMIT`] rows
//! ([`Format::check_size`]), with a message naming the formats that work.

use std::fmt;
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
    /// use nqueens::formats::render::Format;
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

/// One solution in a text format (everything but SVG) as a string: [`write_text`] into memory.
///
/// ```
/// use nqueens::{formats::render::{to_text, Format}, Problem, Solution};
/// let s = Solution::from_columns(vec![1, 3, 0, 2]);
/// assert_eq!(to_text(Format::Permutation, &Problem::new(4).unwrap(), &s), "2 4 1 3\n");
/// ```
///
/// # Panics
/// For [`Format::Svg`] (use [`svg`]).
pub fn to_text(format: Format, problem: &Problem, solution: &Solution) -> String {
    let mut out = Vec::new();
    write_text(&mut out, format, problem, solution).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("every text format writes UTF-8")
}

/// Writes one solution in a text format (everything but SVG), ending with a newline.
///
/// ```
/// use nqueens::{formats::render::{write_text, Format}, Problem, Solution};
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
            write_grid(out, format, problem, |row| {
                columns.get(row as usize).copied()
            })
        }
        Format::Coords => {
            let mut line = Chunked::new(out);
            for (row, &col) in (1u64..).zip(columns) {
                if row > 1 {
                    line.push(b" ")?;
                }
                line.number(row)?;
                line.push(b":")?;
                line.number(u64::from(col) + 1)?;
            }
            // The blocked squares, marked so that they read back apart from the queens.
            for square in problem.blocked() {
                line.push(b" !")?;
                line.number(u64::from(square.row) + 1)?;
                line.push(b":")?;
                line.number(u64::from(square.col) + 1)?;
            }
            line.push(b"\n")?;
            line.finish()
        }
        Format::Permutation => {
            let mut line = Chunked::new(out);
            for (i, &col) in columns.iter().enumerate() {
                if i > 0 {
                    line.push(b" ")?;
                }
                line.number(u64::from(col) + 1)?;
            }
            line.push(b"\n")?;
            line.finish()
        }
        Format::Json => {
            let mut line = Chunked::new(out);
            line.push(b"{\"n\":")?;
            line.number(u64::from(problem.n()))?;
            line.push(b",\"columns\":[")?;
            for (i, &col) in columns.iter().enumerate() {
                if i > 0 {
                    line.push(b",")?;
                }
                line.number(u64::from(col) + 1)?;
            }
            line.push(b"]")?;
            for (key, squares) in [
                (&b",\"fixed\":["[..], problem.fixed()),
                (&b",\"blocked\":["[..], problem.blocked()),
            ] {
                if squares.is_empty() {
                    continue;
                }
                line.push(key)?;
                for (i, q) in squares.iter().enumerate() {
                    if i > 0 {
                        line.push(b",")?;
                    }
                    line.push(b"[")?;
                    line.number(u64::from(q.row) + 1)?;
                    line.push(b",")?;
                    line.number(u64::from(q.col) + 1)?;
                    line.push(b"]")?;
                }
                line.push(b"]")?;
            }
            line.push(b"}\n")?;
            line.finish()
        }
        Format::Svg => panic!("SVG needs every solution at once: use render::svg"),
    }
}

/// The problem alone drawn in a grid format (`unicode`, `ascii` or `matrix`): its fixed queens
/// and blocked squares, the other squares empty, as the solutions are drawn; a board to look at
/// before it is solved, which reads back as the same problem ([`crate::formats::read`]).
///
/// ```
/// use nqueens::{formats::render::{draw_problem, Format}, Problem, Queen};
/// let p = Problem::with_blocks(3, [Queen::new(0, 2)], [Queen::new(1, 1)]).unwrap();
/// assert_eq!(draw_problem(Format::Unicode, &p), "· · ♛\n· × ·\n· · ·\n");
/// ```
///
/// # Panics
/// For a format that is not a grid of text (`coords`, `json`, `permutation`, `svg`).
pub fn draw_problem(format: Format, problem: &Problem) -> String {
    assert!(format.is_board(), "{format} does not draw a grid of text");
    let mut out = Vec::new();
    write_grid(&mut out, format, problem, |row| problem.fixed_column(row))
        .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("the grid formats write UTF-8")
}

/// Draws the n×n grid of `problem` with a queen on each row's `queen(row)`, if any: a queen
/// that the problem fixes as fixed, blocked squares as blocked.
fn write_grid(
    out: &mut dyn Write,
    format: Format,
    problem: &Problem,
    queen: impl Fn(u32) -> Option<u32>,
) -> io::Result<()> {
    let (free, fixed, empty, blocked) = match format {
        Format::Unicode => ('♕', '♛', '·', '×'),
        Format::Ascii => ('Q', 'Q', '.', 'x'),
        _ => ('1', '1', '0', '0'),
    };
    let n = problem.n();
    let mut line = String::new();
    for row in 0..n {
        line.clear();
        let col = queen(row);
        for c in 0..n {
            if c > 0 {
                line.push(' ');
            }
            line.push(
                match (col == Some(c), problem.fixed_column(row) == Some(c)) {
                    (false, _) if problem.is_blocked(row, c) => blocked,
                    (false, _) => empty,
                    (true, false) => free,
                    (true, true) => fixed,
                },
            );
        }
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// A line of text written in 64 KiB chunks, so a line of 10^8 numbers never sits in memory.
struct Chunked<'w> {
    out: &'w mut dyn Write,
    buf: Vec<u8>,
}

impl<'w> Chunked<'w> {
    const CHUNK: usize = 1 << 16;

    fn new(out: &'w mut dyn Write) -> Self {
        Chunked {
            out,
            buf: Vec::with_capacity(Self::CHUNK + 64),
        }
    }

    fn push(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(bytes);
        self.spill()
    }

    /// Appends `value` in decimal, two digits per step (a table of "00".."99").
    fn number(&mut self, mut value: u64) -> io::Result<()> {
        const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
                                    2021222324252627282930313233343536373839\
                                    4041424344454647484950515253545556575859\
                                    6061626364656667686970717273747576777879\
                                    8081828384858687888990919293949596979899";
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        while value >= 100 {
            let pair = (value % 100) as usize * 2;
            value /= 100;
            at -= 2;
            digits[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
        }
        if value >= 10 {
            let pair = value as usize * 2;
            at -= 2;
            digits[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
        } else {
            at -= 1;
            digits[at] = b'0' + value as u8;
        }
        self.push(&digits[at..])
    }

    fn spill(&mut self) -> io::Result<()> {
        if self.buf.len() >= Self::CHUNK {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    fn finish(self) -> io::Result<()> {
        self.out.write_all(&self.buf)
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
struct SvgGrid<'a> {
    problem: &'a Problem,
    style: &'a SvgStyle,
    boards: u64,
}

impl<'a> SvgGrid<'a> {
    fn new(problem: &'a Problem, style: &'a SvgStyle, boards: u64) -> Self {
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
    fn header(&self, out: &mut impl Write, solutions: u64) -> io::Result<()> {
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
    fn board(&self, out: &mut impl Write, index: u64, solution: &Solution) -> io::Result<()> {
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

/// Writes a stream of solutions in one format: boards separated by blank lines, one line per
/// solution for `coords` and `json`, and for `svg` one picture.
///
/// An SVG picture's size comes first in the file, so the writer must know how many boards it
/// will hold: when told up front ([`stream_svg`](Self::stream_svg)) each board is written as it
/// comes, in constant memory; otherwise the solutions are kept (4n bytes each, in one buffer
/// whose growth failing is an error of kind `OutOfMemory`, not an abort) and the picture is
/// written by [`finish`](Self::finish).
pub struct SolutionWriter<'p, W: Write> {
    out: W,
    format: Format,
    problem: &'p Problem,
    style: SvgStyle,
    written: u64,
    /// The columns of the solutions kept for an SVG picture, n after n.
    pending_svg: Vec<u32>,
    /// The number of boards the streamed SVG picture holds, once announced.
    svg_boards: Option<u64>,
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
            svg_boards: None,
        }
    }

    /// Says that exactly `boards` solutions will be written, so an SVG picture is streamed
    /// rather than kept in memory. Call it before the first [`write`](Self::write); writing
    /// more than `boards` solutions draws the extra ones below the picture's frame.
    pub fn stream_svg(&mut self, boards: u64) {
        if self.written == 0 {
            self.svg_boards = Some(boards);
        }
    }

    /// Writes (or, for an SVG picture not streamed, keeps) one solution.
    pub fn write(&mut self, solution: &Solution) -> io::Result<()> {
        if self.format == Format::Svg {
            match self.svg_boards {
                Some(boards) => {
                    let grid = SvgGrid::new(self.problem, &self.style, boards);
                    if self.written == 0 {
                        grid.header(&mut self.out, boards)?;
                    }
                    grid.board(&mut self.out, self.written, solution)?;
                }
                None => {
                    let columns = solution.columns();
                    self.pending_svg.try_reserve(columns.len()).map_err(|_| {
                        io::Error::new(
                            io::ErrorKind::OutOfMemory,
                            format!(
                                "{} boards of {} rows are more than memory holds for one picture",
                                self.written + 1,
                                self.problem.n()
                            ),
                        )
                    })?;
                    self.pending_svg.extend_from_slice(columns);
                }
            }
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
        if self.format == Format::Svg {
            if self.svg_boards.is_some() && self.written > 0 {
                self.out.write_all(b"</svg>\n")?;
            } else if self.written > 0 {
                let boards = self.written;
                let grid = SvgGrid::new(self.problem, &self.style, boards);
                grid.header(&mut self.out, boards)?;
                let n = self.problem.n() as usize;
                for (index, columns) in self.pending_svg.chunks(n.max(1)).enumerate() {
                    let solution = Solution::from_columns(columns.to_vec());
                    grid.board(&mut self.out, index as u64, &solution)?;
                }
                self.out.write_all(b"</svg>\n")?;
            }
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
    fn a_streamed_svg_is_the_kept_picture() {
        let p = Problem::new(4).unwrap();
        let solutions = [
            Solution::from_columns(vec![1, 3, 0, 2]),
            Solution::from_columns(vec![2, 0, 3, 1]),
        ];
        let mut kept = SolutionWriter::new(Vec::new(), Format::Svg, &p, SvgStyle::default());
        let mut streamed = SolutionWriter::new(Vec::new(), Format::Svg, &p, SvgStyle::default());
        streamed.stream_svg(2);
        for s in &solutions {
            kept.write(s).unwrap();
            streamed.write(s).unwrap();
            // Streamed boards are out at once; kept ones wait for the end.
            assert!(kept.out.is_empty() && !streamed.out.is_empty());
        }
        let kept = kept.finish().unwrap();
        assert_eq!(streamed.finish().unwrap(), kept);
        assert_eq!(
            String::from_utf8(kept).unwrap(),
            svg(&p, &solutions, &SvgStyle::default())
        );
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
