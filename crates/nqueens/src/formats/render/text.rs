//! The text formats (everything but SVG): the grids (`unicode`, `ascii`, `matrix`) written a
//! row at a time, O(n²) characters; the lines (`coords`, `json`, `permutation`) formatted into
//! a 64 KiB buffer handed on whenever it fills, so a solution of n = 10^8 needs no memory
//! beyond itself. Every one reads the columns once, in row order ([`write_rows`]), so a
//! solution computed as it is written (a construction's strides) needs no memory at all.

use std::io::{self, Write};

use super::Format;
use crate::board::{Problem, Solution};

/// One solution in a text format (everything but SVG) as a string: [`write_text`] into memory.
///
/// ```
/// use nqueens_solver::{formats::render::{to_text, Format}, Problem, Solution};
/// let s = Solution::from_columns(vec![1, 3, 0, 2]);
/// assert_eq!(to_text(Format::Permutation, &Problem::new(4).unwrap(), &s), "2 4 1 3\n");
/// ```
///
/// # Panics
/// For [`Format::Svg`] (use [`svg`](super::svg)).
pub fn to_text(format: Format, problem: &Problem, solution: &Solution) -> String {
    let mut out = Vec::new();
    write_text(&mut out, format, problem, solution).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("every text format writes UTF-8")
}

/// Writes one solution in a text format (everything but SVG), ending with a newline.
///
/// ```
/// use nqueens_solver::{formats::render::{write_text, Format}, Problem, Solution};
/// let p = Problem::new(4).unwrap();
/// let s = Solution::from_columns(vec![1, 3, 0, 2]);
/// let mut out = Vec::new();
/// write_text(&mut out, Format::Coords, &p, &s).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "1:2 2:4 3:1 4:3\n");
/// ```
///
/// # Panics
/// For [`Format::Svg`] (use [`svg`](super::svg)).
pub fn write_text(
    out: &mut dyn Write,
    format: Format,
    problem: &Problem,
    solution: &Solution,
) -> io::Result<()> {
    write_rows(out, format, problem, solution.columns().iter().copied())
}

/// [`write_text`] for a solution given as the column of each row's queen (0-based), row by
/// row, read once as the text is written: a solution computed as it is written (a
/// construction's [`columns`](crate::board::stride::StridedSolution::columns)) is never held.
/// The rows must be those of a solution of `problem` (n of them, in row order); the grid
/// formats take one per row drawn.
///
/// ```
/// use nqueens_solver::{formats::render::{write_rows, Format}, Problem};
/// let mut out = Vec::new();
/// write_rows(&mut out, Format::Json, &Problem::new(4).unwrap(), [1, 3, 0, 2]).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "{\"n\":4,\"columns\":[2,4,1,3]}\n");
/// ```
///
/// # Panics
/// For [`Format::Svg`] (use [`svg`](super::svg)).
pub fn write_rows(
    out: &mut dyn Write,
    format: Format,
    problem: &Problem,
    rows: impl IntoIterator<Item = u32>,
) -> io::Result<()> {
    let columns = rows.into_iter();
    match format {
        Format::Unicode | Format::Ascii | Format::Matrix => {
            let mut columns = columns;
            write_grid(out, format, problem, |_| columns.next())
        }
        Format::Coords => {
            let mut line = Chunked::new(out);
            for (row, col) in (1u64..).zip(columns) {
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
            for (i, col) in columns.enumerate() {
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
            for (i, col) in columns.enumerate() {
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
/// use nqueens_solver::{formats::render::{draw_problem, Format}, Problem, Queen};
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

/// Draws the n×n grid of `problem` with a queen on each row's `queen(row)`, if any (asked once
/// per row, in row order): a queen that the problem fixes as fixed, blocked squares as
/// blocked.
fn write_grid(
    out: &mut dyn Write,
    format: Format,
    problem: &Problem,
    mut queen: impl FnMut(u32) -> Option<u32>,
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
