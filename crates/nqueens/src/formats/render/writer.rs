//! [`SolutionWriter`]: a stream of solutions in one format, text written as each comes (from a
//! [`Solution`] or from columns computed row by row), SVG streamed when its number of boards is
//! known up front and kept (4n bytes a board) otherwise.

use std::io::{self, Write};

use super::Format;
use super::picture::{SvgGrid, SvgStyle};
use super::text::{write_rows, write_text};
use crate::board::{Problem, Solution};

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

    /// Writes one solution given as the column of each row's queen (0-based), in row order,
    /// read once as the text is written ([`write_rows`]): a solution computed row by row is
    /// never held. An SVG picture, which draws every square, collects the columns first.
    ///
    /// ```
    /// use nqueens_solver::formats::render::{Format, SolutionWriter, SvgStyle};
    /// use nqueens_solver::Problem;
    /// let p = Problem::new(4).unwrap();
    /// let mut w = SolutionWriter::new(Vec::new(), Format::Coords, &p, SvgStyle::default());
    /// w.write_rows((0..4).map(|row| [1, 3, 0, 2][row])).unwrap();
    /// assert_eq!(w.finish().unwrap(), b"1:2 2:4 3:1 4:3\n");
    /// ```
    pub fn write_rows(&mut self, rows: impl IntoIterator<Item = u32>) -> io::Result<()> {
        if self.format == Format::Svg {
            return self.write(&Solution::from_columns(rows.into_iter().collect()));
        }
        if self.written > 0 && self.format.is_board() {
            self.out.write_all(b"\n")?;
        }
        write_rows(&mut self.out, self.format, self.problem, rows)?;
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
    use crate::formats::render::svg;

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
    fn rows_read_once_write_what_the_held_solution_writes_in_every_format() {
        let p = Problem::with_blocks(5, [Queen::new(1, 3)], [Queen::new(0, 0)]).unwrap();
        let solutions =
            [[2, 4, 1, 3, 0], [1, 3, 0, 2, 4]].map(|c| Solution::from_columns(c.into()));
        for &format in Format::ALL {
            let mut held = SolutionWriter::new(Vec::new(), format, &p, SvgStyle::default());
            let mut streamed = SolutionWriter::new(Vec::new(), format, &p, SvgStyle::default());
            for s in &solutions {
                held.write(s).unwrap();
                // An iterator that can be read only once, in row order.
                let mut rows = s.columns().to_vec().into_iter();
                streamed
                    .write_rows(std::iter::from_fn(|| rows.next()))
                    .unwrap();
            }
            assert_eq!(streamed.written(), 2);
            let (held, streamed) = (held.finish().unwrap(), streamed.finish().unwrap());
            assert!(!held.is_empty(), "{format}");
            assert_eq!(
                String::from_utf8(streamed).unwrap(),
                String::from_utf8(held).unwrap(),
                "{format}"
            );
        }
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
