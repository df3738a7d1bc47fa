//! Reading back the JSON Lines that `--format json` writes ([`crate::formats::render`]): one
//! record per line,
//!
//! ```text
//! {"n":4,"columns":[2,4,1,3],"fixed":[[1,2]],"blocked":[[1,1],[3,3]]}
//! ```
//!
//! with `columns` the 1-based column of each row's queen, `n` the board size (optional; when
//! given it must be the number of columns), and `fixed` and `blocked` the problem's fixed queens
//! and blocked squares as 1-based `[row, col]` pairs (optional). Members come in any order;
//! members with other names are skipped whatever their value, so a record may carry more.
//! Blank lines and lines starting with `#` between records are skipped, and so is a UTF-8
//! byte-order mark at the start.
//!
//! The reader pulls bytes from a [`BufRead`] and never holds a line: a record of n = 10^8
//! costs the 4n bytes of its columns. Numbers are read a buffer at a time, so the cost is
//! O(bytes). Errors carry the 1-based line and column (in characters) and name what was found
//! (`unexpected '♕'`), as the other readers' do, in [`ReadError`].

use std::io::{self, BufRead};

use nqueens_support::Position;

use super::solutions::{ReadError, char_after, excerpt_char, grow};
use crate::board::Queen;

/// One record: where it starts and what it holds, 0-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The line the record is on (1-based).
    pub line: u64,
    /// The 0-based column of each row's queen.
    pub columns: Vec<u32>,
    /// The fixed queens the record lists.
    pub fixed: Vec<Queen>,
    /// The blocked squares the record lists.
    pub blocked: Vec<Queen>,
}

/// The deepest nesting of a skipped member's value.
const MAX_DEPTH: usize = 64;

/// The longest member name compared with the known ones; longer names are skipped unread.
const MAX_NAME: usize = 64;

/// Reads [`Record`]s one by one; see the [module documentation](self).
///
/// ```
/// use nqueens_solver::formats::jsonl::JsonReader;
/// let text = "{\"n\":4,\"columns\":[2,4,1,3],\"blocked\":[[1,1]]}\n";
/// let mut reader = JsonReader::new(text.as_bytes());
/// let record = reader.next_record().unwrap().unwrap();
/// assert_eq!(record.columns, [1, 3, 0, 2]);
/// assert_eq!(record.blocked, [nqueens_solver::Queen::new(0, 0)]);
/// assert!(reader.next_record().unwrap().is_none());
/// ```
pub struct JsonReader<R> {
    input: R,
    /// Where the next byte is: 1-based line, and column in characters.
    line: u64,
    column: u64,
    /// Past the start of the input (and its byte-order mark).
    started: bool,
}

impl<R: BufRead> JsonReader<R> {
    /// A reader of the records in `input`.
    pub fn new(input: R) -> Self {
        JsonReader {
            input,
            line: 1,
            column: 1,
            started: false,
        }
    }

    /// The next record, or `None` at the end of the input.
    pub fn next_record(&mut self) -> Result<Option<Record>, ReadError> {
        if !self.started {
            self.started = true;
            // A byte-order mark, read byte by byte: the buffer may hold less than all three.
            if self.peek()? == Some(0xEF) {
                for byte in [0xEF, 0xBB, 0xBF] {
                    if self.peek()? != Some(byte) {
                        return Err(ReadError::Syntax {
                            position: self.here(),
                            reason: "unexpected bytes at the start: the input is not UTF-8 text"
                                .into(),
                        });
                    }
                    self.input.consume(1);
                }
            }
        }
        // Blank lines and comment lines.
        loop {
            self.skip_spaces(true)?;
            match self.peek()? {
                None => return Ok(None),
                Some(b'#') => {
                    while !matches!(self.peek()?, None | Some(b'\n')) {
                        self.bump()?;
                    }
                }
                Some(_) => break,
            }
        }
        let line = self.line;
        let start = self.here();
        self.expect(b'{', "a record: {\"n\":4,\"columns\":[2,4,1,3]}")?;
        let mut n: Option<(u64, Position)> = None;
        let mut columns: Option<Vec<u32>> = None;
        let mut fixed: Option<Vec<Queen>> = None;
        let mut blocked: Option<Vec<Queen>> = None;
        self.skip_spaces(false)?;
        if self.peek()? == Some(b'}') {
            self.bump()?;
        } else {
            loop {
                self.skip_spaces(false)?;
                let name_at = self.here();
                let name = self.string("a member name in double quotes, like \"columns\"")?;
                self.skip_spaces(false)?;
                self.expect(b':', "':' after the member name")?;
                self.skip_spaces(false)?;
                let twice = || ReadError::Syntax {
                    position: name_at,
                    reason: format!("\"{name}\" is given twice"),
                };
                match name.as_str() {
                    "n" if n.is_some() => return Err(twice()),
                    "n" => {
                        let at = self.here();
                        n = Some((self.number()?, at));
                    }
                    "columns" if columns.is_some() => return Err(twice()),
                    "columns" => columns = Some(self.columns(line)?),
                    "fixed" if fixed.is_some() => return Err(twice()),
                    "fixed" => fixed = Some(self.squares(line)?),
                    "blocked" if blocked.is_some() => return Err(twice()),
                    "blocked" => blocked = Some(self.squares(line)?),
                    _ => self.skip_value(0)?,
                }
                self.skip_spaces(false)?;
                match self.peek()? {
                    Some(b',') => self.bump()?,
                    Some(b'}') => {
                        self.bump()?;
                        break;
                    }
                    _ => return Err(self.unexpected("',' or '}'")?),
                }
            }
        }
        self.skip_spaces(false)?;
        match self.peek()? {
            None => {}
            Some(b'\n') => self.bump()?,
            Some(_) => return Err(self.unexpected("the end of the line (one record per line)")?),
        }
        let Some(columns) = columns else {
            return Err(ReadError::Syntax {
                position: start,
                reason: "the record has no \"columns\" (the 1-based column of each row's queen)"
                    .into(),
            });
        };
        if columns.is_empty() {
            return Err(ReadError::Syntax {
                position: start,
                reason: "\"columns\" is empty: a board has at least one row".into(),
            });
        }
        match n {
            Some((0, at)) => {
                return Err(ReadError::Syntax {
                    position: at,
                    reason: "n must be at least 1".into(),
                });
            }
            Some((n, _)) if n != columns.len() as u64 => {
                return Err(ReadError::NotOnePerRow {
                    line,
                    reason: format!(
                        "n is {n} but \"columns\" places {} queens, one per row",
                        columns.len()
                    ),
                });
            }
            _ => {}
        }
        Ok(Some(Record {
            line,
            columns,
            fixed: fixed.unwrap_or_default(),
            blocked: blocked.unwrap_or_default(),
        }))
    }

    fn here(&self) -> Position {
        Position {
            line: self.line,
            column: self.column,
        }
    }

    fn peek(&mut self) -> io::Result<Option<u8>> {
        loop {
            match self.input.fill_buf() {
                Ok(buf) => return Ok(buf.first().copied()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// Moves past the next byte (there is one: the caller peeked it).
    fn bump(&mut self) -> io::Result<()> {
        let byte = self.peek()?;
        self.input.consume(1);
        match byte {
            Some(b'\n') => {
                self.line += 1;
                self.column = 1;
            }
            // Continuation bytes do not start a character.
            Some(b) if b & 0xC0 != 0x80 => self.column += 1,
            _ => {}
        }
        Ok(())
    }

    /// Skips spaces, tabs and carriage returns, and newlines too with `lines`.
    fn skip_spaces(&mut self, lines: bool) -> io::Result<()> {
        while let Some(b) = self.peek()? {
            match b {
                b' ' | b'\t' | b'\r' => self.bump()?,
                b'\n' if lines => self.bump()?,
                _ => break,
            }
        }
        Ok(())
    }

    /// The error for what comes next, where `expected` was: names the character, or the end of
    /// the line or of the input.
    fn unexpected(&mut self, expected: &str) -> io::Result<ReadError> {
        let position = self.here();
        let found = match self.peek()? {
            None => "the end of the input".to_string(),
            Some(b'\n') => "the end of the line".to_string(),
            Some(b) if b.is_ascii() => excerpt_char(char::from(b)),
            Some(lead) => {
                self.input.consume(1);
                char_after(&mut self.input, lead)?
            }
        };
        Ok(ReadError::Syntax {
            position,
            reason: format!("expected {expected}, found {found}"),
        })
    }

    fn expect(&mut self, byte: u8, expected: &str) -> Result<(), ReadError> {
        if self.peek()? == Some(byte) {
            self.bump()?;
            Ok(())
        } else {
            Err(self.unexpected(expected)?)
        }
    }

    /// A string in double quotes; its first [`MAX_NAME`] bytes (escapes kept as written).
    fn string(&mut self, expected: &str) -> Result<String, ReadError> {
        self.expect(b'"', expected)?;
        let mut text = Vec::new();
        loop {
            match self.peek()? {
                Some(b'"') => {
                    self.bump()?;
                    return Ok(String::from_utf8_lossy(&text).into_owned());
                }
                None | Some(b'\n') => {
                    return Err(self.unexpected("the closing '\"' of the string")?);
                }
                Some(b) => {
                    self.bump()?;
                    if text.len() < MAX_NAME {
                        text.push(b);
                    }
                    if b == b'\\' {
                        if matches!(self.peek()?, None | Some(b'\n')) {
                            return Err(self.unexpected("an escaped character")?);
                        }
                        self.bump()?;
                    }
                }
            }
        }
    }

    /// A whole number (digits only), read a buffer at a time.
    fn number(&mut self) -> Result<u64, ReadError> {
        if !matches!(self.peek()?, Some(b'0'..=b'9')) {
            return Err(self.unexpected("a whole number")?);
        }
        let start = self.here();
        let mut value = 0u64;
        loop {
            let buf = self.input.fill_buf()?;
            let digits = buf.iter().take_while(|b| b.is_ascii_digit()).count();
            for &d in &buf[..digits] {
                value = value * 10 + u64::from(d - b'0');
                if value > u64::from(u32::MAX) {
                    return Err(ReadError::Syntax {
                        position: start,
                        reason: "number too large".into(),
                    });
                }
            }
            let more = digits == buf.len() && digits > 0;
            self.input.consume(digits);
            self.column += digits as u64;
            if !more {
                return Ok(value);
            }
        }
    }

    /// A 1-based row or column number, as 0-based.
    fn one_based(&mut self) -> Result<u32, ReadError> {
        let at = self.here();
        match self.number()? {
            0 => Err(ReadError::Syntax {
                position: at,
                reason: "rows and columns are numbered from 1".into(),
            }),
            v => Ok((v - 1) as u32),
        }
    }

    /// Calls `item` for each element of a list `[a, b, ...]`.
    fn list(
        &mut self,
        what: &str,
        mut item: impl FnMut(&mut Self) -> Result<(), ReadError>,
    ) -> Result<(), ReadError> {
        self.expect(b'[', what)?;
        self.skip_spaces(false)?;
        if self.peek()? == Some(b']') {
            self.bump()?;
            return Ok(());
        }
        loop {
            self.skip_spaces(false)?;
            item(self)?;
            self.skip_spaces(false)?;
            match self.peek()? {
                Some(b',') => self.bump()?,
                Some(b']') => {
                    self.bump()?;
                    return Ok(());
                }
                _ => return Err(self.unexpected("',' or ']'")?),
            }
        }
    }

    /// `[2, 4, 1, 3]`: 1-based columns, as 0-based.
    fn columns(&mut self, line: u64) -> Result<Vec<u32>, ReadError> {
        let mut columns = Vec::new();
        self.list("a list of 1-based columns, like [2,4,1,3]", |me| {
            let column = me.one_based()?;
            grow(&mut columns, line)?;
            columns.push(column);
            Ok(())
        })?;
        Ok(columns)
    }

    /// `[[1, 2], [3, 4]]`: 1-based `[row, col]` pairs, as 0-based squares.
    fn squares(&mut self, line: u64) -> Result<Vec<Queen>, ReadError> {
        let mut squares = Vec::new();
        self.list(
            "a list of 1-based [row, col] pairs, like [[1,2],[3,4]]",
            |me| {
                me.expect(b'[', "a [row, col] pair, like [1,2]")?;
                me.skip_spaces(false)?;
                let row = me.one_based()?;
                me.skip_spaces(false)?;
                me.expect(b',', "',' between row and column")?;
                me.skip_spaces(false)?;
                let col = me.one_based()?;
                me.skip_spaces(false)?;
                me.expect(b']', "']' after the column")?;
                grow(&mut squares, line)?;
                squares.push(Queen::new(row, col));
                Ok(())
            },
        )?;
        Ok(squares)
    }

    /// Skips any JSON value on the line: a string, number, literal, list or object.
    fn skip_value(&mut self, depth: usize) -> Result<(), ReadError> {
        if depth == MAX_DEPTH {
            return Err(self.unexpected(&format!("a value nested at most {MAX_DEPTH} deep"))?);
        }
        match self.peek()? {
            Some(b'"') => {
                self.string("a string")?;
            }
            Some(b'[') => self.list("a list", |me| me.skip_value(depth + 1))?,
            Some(b'{') => {
                self.bump()?;
                self.skip_spaces(false)?;
                if self.peek()? == Some(b'}') {
                    self.bump()?;
                    return Ok(());
                }
                loop {
                    self.skip_spaces(false)?;
                    self.string("a member name in double quotes")?;
                    self.skip_spaces(false)?;
                    self.expect(b':', "':' after the member name")?;
                    self.skip_spaces(false)?;
                    self.skip_value(depth + 1)?;
                    self.skip_spaces(false)?;
                    match self.peek()? {
                        Some(b',') => self.bump()?,
                        Some(b'}') => {
                            self.bump()?;
                            return Ok(());
                        }
                        _ => return Err(self.unexpected("',' or '}'")?),
                    }
                }
            }
            Some(b) if b == b'-' || b.is_ascii_alphanumeric() => {
                while let Some(b) = self.peek()? {
                    if !(b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.')) {
                        break;
                    }
                    self.bump()?;
                }
            }
            _ => return Err(self.unexpected("a value")?),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &[u8], capacity: usize) -> Result<Vec<Record>, String> {
        let mut reader = JsonReader::new(io::BufReader::with_capacity(capacity, text));
        let mut out = Vec::new();
        loop {
            match reader.next_record() {
                Ok(Some(record)) => out.push(record),
                Ok(None) => return Ok(out),
                Err(e) => return Err(e.to_string()),
            }
        }
    }

    #[test]
    fn reads_what_the_json_format_writes() {
        let problem = crate::Problem::with_blocks(
            6,
            [Queen::new(0, 1)],
            [Queen::new(0, 0), Queen::new(5, 5)],
        )
        .unwrap();
        let solution = crate::board::naive::solutions(&problem)
            .into_iter()
            .next()
            .expect("a solution");
        let text = crate::formats::render::to_text(
            crate::formats::render::Format::Json,
            &problem,
            &solution,
        );
        let records = read_all(text.repeat(2).as_bytes(), 1 << 16).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[1].line, 2);
        assert_eq!(records[0].columns, solution.columns());
        assert_eq!(records[0].fixed, problem.fixed());
        assert_eq!(records[0].blocked, problem.blocked());
    }

    #[test]
    fn members_in_any_order_others_skipped_comments_and_a_bom() {
        let text = "\u{feff}# listed by hand\n\n { \"extra\": {\"a\": [1, \"x\\\"]\", null, -2.5e3]}, \"columns\" : [ 3, 1, 4, 2 ] }\r\n{\"columns\":[2,4,1,3],\"n\":4}";
        let records = read_all(text.as_bytes(), 3).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(
            (records[0].line, &records[0].columns[..]),
            (3, &[2, 0, 3, 1][..])
        );
        assert_eq!(
            (records[1].line, &records[1].columns[..]),
            (4, &[1, 3, 0, 2][..])
        );
        assert_eq!(read_all(b"", 8), Ok(vec![]));
    }

    #[test]
    fn errors_say_where_and_name_the_character() {
        let err = |text: &str| read_all(text.as_bytes(), 1 << 16).unwrap_err();
        assert_eq!(
            err("♕ · ·\n"),
            "line 1, column 1: expected a record: {\"n\":4,\"columns\":[2,4,1,3]}, found '♕'"
        );
        assert_eq!(
            err("{\"columns\":[2,4,1,3]}\n{\"columns\":[1,×]}\n"),
            "line 2, column 15: expected a whole number, found '×'"
        );
        assert_eq!(
            err("{\"columns\":[2,4,1,3]} {\"columns\":[2,4,1,3]}"),
            "line 1, column 23: expected the end of the line (one record per line), found '{'"
        );
        assert_eq!(
            err("{\"n\":4}"),
            "line 1, column 1: the record has no \"columns\" (the 1-based column of each row's queen)"
        );
        assert_eq!(
            err("{\"n\":5,\"columns\":[2,4,1,3]}"),
            "line 1: n is 5 but \"columns\" places 4 queens, one per row"
        );
        assert_eq!(
            err("{\"columns\":[2,0,1,3]}"),
            "line 1, column 15: rows and columns are numbered from 1"
        );
        assert_eq!(
            err("{\"columns\":[1],\"columns\":[1]}"),
            "line 1, column 16: \"columns\" is given twice"
        );
        assert_eq!(
            err("{\"columns\":[1],\"blocked\":[[1 2]]}"),
            "line 1, column 30: expected ',' between row and column, found '2'"
        );
        assert_eq!(
            err("{\"columns\":[1]"),
            "line 1, column 15: expected ',' or '}', found the end of the input"
        );
        assert_eq!(
            err("{\"columns\":[99999999999]}"),
            "line 1, column 13: number too large"
        );
        assert!(err(&format!("{{\"x\":{}}}", "[".repeat(100))).contains("nested at most 64"));
    }

    /// Mangled records get an answer or a clean positioned error, the same through any
    /// buffer size, never a panic.
    #[test]
    fn fuzzed_records_are_read_the_same_in_any_pieces() {
        let seed = b"{\"n\":4,\"columns\":[2,4,1,3],\"fixed\":[[1,2]],\"blocked\":[[1,1]],\"x\":\"\\u00e9\"}\n";
        const ALPHABET: [&[u8]; 12] = [
            b"{",
            b"}",
            b"[",
            b"]",
            b",",
            b":",
            b"\"",
            b"7",
            b"\n",
            b"\xff",
            "♕".as_bytes(),
            b"\\",
        ];
        let mut rng = nqueens_support::SplitMix64::new(0x75);
        for case in 0..3000 {
            let mut bytes = seed.to_vec();
            crate::formats::fuzz::mutate(&mut rng, &mut bytes, |i| ALPHABET[i], ALPHABET.len());
            let big = read_all(&bytes, 1 << 16);
            assert_eq!(read_all(&bytes, 1), big, "case {case}: {bytes:?}");
            if let Err(message) = big {
                assert!(
                    !message.chars().any(char::is_control) && message.chars().count() < 300,
                    "case {case}: {message:?}"
                );
            }
        }
    }
}
