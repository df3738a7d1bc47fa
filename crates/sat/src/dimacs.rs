//! DIMACS CNF input and output.
//!
//! The format: comment lines starting with `c`, one header `p cnf VARIABLES CLAUSES`, then the
//! clauses as whitespace-separated nonzero integers (`5` is variable 5, `-5` its negation), each
//! clause ended by `0`. Clauses may span lines and share them.
//!
//! [`DimacsReader`] streams: it holds one line and one clause at a time, so a formula larger
//! than memory can go straight into a [`ClauseSink`] ([`read_dimacs`]). It is strict, because a
//! file that disagrees with its own header is usually truncated or mislabelled: the header must
//! come before any clause, literals must be within the declared variables, the number of clauses
//! must match, the last clause needs its `0`. One leniency: a line holding only `%` ends the
//! formula, as in the SATLIB benchmark files. Every error names its 1-based line; no input makes
//! the reader panic.
//!
//! [`DimacsWriter`] is a [`ClauseSink`] that writes each clause as it comes, after a header given
//! up front (count with a [`crate::ClauseCounter`] first when the encoder does not know).
//!
//! ```
//! use sat::{parse_dimacs, write_dimacs, Error};
//! let cnf = parse_dimacs("c a comment\np cnf 3 2\n1 -3 0 2\n3 0\n").unwrap();
//! let mut out = Vec::new();
//! write_dimacs(&mut out, &cnf).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), "p cnf 3 2\n1 -3 0\n2 3 0\n");
//! let err = parse_dimacs("p cnf 2 1\n1 3 0\n").unwrap_err();
//! assert_eq!(err.to_string(), "line 2: literal 3 is out of range; the header declares 2 variables");
//! ```

use std::io::{self, BufRead, Write};

use crate::cnf::{ClauseSink, Cnf};
use crate::error::Error;
use crate::lit::{Lit, Var};

/// The counts a DIMACS header declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Header {
    /// Variables (literals range over ±1..=vars).
    pub vars: u32,
    /// Clauses.
    pub clauses: u64,
}

/// The most characters of a bad token quoted in an error message.
const QUOTE_LIMIT: usize = 24;

/// A token from the input, as an error message quotes it: lossy UTF-8, control characters
/// escaped, long tokens cut.
fn quote(token: &[u8]) -> String {
    let text = String::from_utf8_lossy(token);
    let mut quoted: String = text
        .chars()
        .take(QUOTE_LIMIT)
        .flat_map(char::escape_debug)
        .collect();
    if text.chars().nth(QUOTE_LIMIT).is_some() {
        quoted.push('…');
    }
    quoted
}

/// DIMACS whitespace: space, tab, and the line-ending and feed characters.
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

/// A parsed integer token.
enum Number {
    Value(i64),
    /// Digits, but beyond `i64`.
    Overflow,
    /// Not an integer.
    Junk,
}

fn parse_number(token: &[u8]) -> Number {
    let (negative, digits) = match token {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, token),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Number::Junk;
    }
    let mut value: i64 = 0;
    for &d in digits {
        match value
            .checked_mul(10)
            .and_then(|v| v.checked_add(i64::from(d - b'0')))
        {
            Some(v) => value = v,
            None => return Number::Overflow,
        }
    }
    Number::Value(if negative { -value } else { value })
}

/// A streaming DIMACS CNF reader. See the [module documentation](self).
#[derive(Debug)]
pub struct DimacsReader<R> {
    input: R,
    header: Header,
    /// The current line, without its terminator handling (tokens split on whitespace).
    buf: Vec<u8>,
    /// The next byte of `buf` to read.
    pos: usize,
    /// The 1-based number of the line in `buf` (0 before the first).
    line: u64,
    /// Whether the input (or a `%` line) has ended.
    ended: bool,
    clause: Vec<Lit>,
    clause_line: u64,
    clauses_read: u64,
}

impl<R: BufRead> DimacsReader<R> {
    /// Reads up to and including the header.
    pub fn new(input: R) -> Result<Self, Error> {
        let mut reader = DimacsReader {
            input,
            header: Header::default(),
            buf: Vec::new(),
            pos: 0,
            line: 0,
            ended: false,
            clause: Vec::new(),
            clause_line: 0,
            clauses_read: 0,
        };
        loop {
            if !reader.next_line()? {
                return Err(Error::NoHeader);
            }
            match reader.line_kind() {
                LineKind::Blank | LineKind::Comment => continue,
                LineKind::Header => {
                    reader.header = reader.parse_header()?;
                    reader.pos = reader.buf.len();
                    return Ok(reader);
                }
                LineKind::End | LineKind::Clauses => {
                    let token = reader.next_token().unwrap_or_default();
                    return Err(Error::MissingHeader {
                        line: reader.line,
                        token: quote(&token),
                    });
                }
            }
        }
    }

    /// The header's counts.
    pub fn header(&self) -> Header {
        self.header
    }

    /// The number of clauses read so far.
    pub fn clauses_read(&self) -> u64 {
        self.clauses_read
    }

    /// The next clause, or `None` at the end of a well-formed input.
    pub fn next_clause(&mut self) -> Result<Option<&[Lit]>, Error> {
        self.clause.clear();
        loop {
            if self.pos >= self.buf.len() {
                if !self.next_line()? {
                    return self.finish().map(|()| None);
                }
                match self.line_kind() {
                    LineKind::Blank | LineKind::Comment => {
                        self.pos = self.buf.len();
                        continue;
                    }
                    LineKind::Header => return Err(Error::DuplicateHeader { line: self.line }),
                    LineKind::End => {
                        self.ended = true;
                        return self.finish().map(|()| None);
                    }
                    LineKind::Clauses => {}
                }
            }
            let Some((start, end)) = self.next_token_span() else {
                continue;
            };
            let token = &self.buf[start..end];
            let value = match parse_number(token) {
                Number::Value(v) => v,
                Number::Overflow => {
                    return Err(self.out_of_range(quote(token)));
                }
                Number::Junk => {
                    return Err(Error::BadToken {
                        line: self.line,
                        token: quote(token),
                    });
                }
            };
            if self.clause.is_empty() {
                self.clause_line = self.line;
                if self.clauses_read == self.header.clauses {
                    return Err(Error::TooManyClauses {
                        line: self.line,
                        declared: self.header.clauses,
                    });
                }
            }
            if value == 0 {
                self.clauses_read += 1;
                return Ok(Some(&self.clause));
            }
            if value.unsigned_abs() > u64::from(self.header.vars) {
                return Err(self.out_of_range(value.to_string()));
            }
            let lit = Lit::try_from_dimacs(value).expect("in range: checked against the header");
            self.clause.push(lit);
        }
    }

    fn out_of_range(&self, literal: String) -> Error {
        Error::LiteralOutOfRange {
            line: self.line,
            literal,
            vars: self.header.vars,
        }
    }

    /// The checks at the end of the input.
    fn finish(&mut self) -> Result<(), Error> {
        self.ended = true;
        if !self.clause.is_empty() {
            return Err(Error::UnterminatedClause {
                line: self.clause_line,
            });
        }
        if self.clauses_read < self.header.clauses {
            return Err(Error::TooFewClauses {
                line: self.line,
                declared: self.header.clauses,
                found: self.clauses_read,
            });
        }
        Ok(())
    }

    /// Loads the next line into `buf`; false at the end of the input.
    fn next_line(&mut self) -> Result<bool, Error> {
        if self.ended {
            return Ok(false);
        }
        self.buf.clear();
        self.pos = 0;
        if self.input.read_until(b'\n', &mut self.buf)? == 0 {
            return Ok(false);
        }
        self.line += 1;
        Ok(true)
    }

    /// What the line in `buf` is, judged by its first non-blank byte.
    fn line_kind(&mut self) -> LineKind {
        while self.pos < self.buf.len() && is_space(self.buf[self.pos]) {
            self.pos += 1;
        }
        match self.buf.get(self.pos) {
            None => LineKind::Blank,
            Some(b'c') => LineKind::Comment,
            Some(b'p') => LineKind::Header,
            Some(b'%') if self.buf[self.pos + 1..].iter().all(|&b| is_space(b)) => LineKind::End,
            Some(_) => LineKind::Clauses,
        }
    }

    /// The span of the next token of the line, or `None` when the line is used up.
    fn next_token_span(&mut self) -> Option<(usize, usize)> {
        let buf = &self.buf;
        let mut pos = self.pos;
        while pos < buf.len() && is_space(buf[pos]) {
            pos += 1;
        }
        let start = pos;
        while pos < buf.len() && !is_space(buf[pos]) {
            pos += 1;
        }
        self.pos = pos;
        (start < pos).then_some((start, pos))
    }

    fn next_token(&mut self) -> Option<Vec<u8>> {
        self.next_token_span()
            .map(|(start, end)| self.buf[start..end].to_vec())
    }

    fn parse_header(&mut self) -> Result<Header, Error> {
        let bad = |reader: &Self| Error::BadHeader {
            line: reader.line,
            found: quote(reader.buf.trim_ascii()),
        };
        let mut tokens = Vec::new();
        while let Some(token) = self.next_token() {
            tokens.push(token);
        }
        let [p, cnf, vars, clauses] = tokens.as_slice() else {
            return Err(bad(self));
        };
        if p != b"p" || cnf != b"cnf" {
            return Err(bad(self));
        }
        let (Number::Value(vars), Number::Value(clauses)) =
            (parse_number(vars), parse_number(clauses))
        else {
            return Err(bad(self));
        };
        let vars = u32::try_from(vars)
            .ok()
            .filter(|&v| v <= Var::MAX_INDEX + 1)
            .ok_or_else(|| bad(self))?;
        let clauses = u64::try_from(clauses).map_err(|_| bad(self))?;
        Ok(Header { vars, clauses })
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum LineKind {
    Blank,
    Comment,
    Header,
    /// A `%` line (SATLIB's end marker).
    End,
    Clauses,
}

/// Reads a DIMACS formula into `sink`: first the header's variables, then each clause.
/// Returns the header.
pub fn read_dimacs<S: ClauseSink + ?Sized>(
    input: impl BufRead,
    sink: &mut S,
) -> Result<Header, Error> {
    let mut reader = DimacsReader::new(input)?;
    sink.ensure_vars(reader.header().vars);
    while let Some(clause) = reader.next_clause()? {
        sink.add_clause(clause);
    }
    Ok(reader.header())
}

/// Parses a DIMACS formula held in a string.
pub fn parse_dimacs(text: &str) -> Result<Cnf, Error> {
    let mut cnf = Cnf::new();
    read_dimacs(text.as_bytes(), &mut cnf)?;
    Ok(cnf)
}

/// Writes `cnf` in DIMACS format (its own header first).
pub fn write_dimacs(out: impl Write, cnf: &Cnf) -> Result<(), Error> {
    let header = Header {
        vars: cnf.num_vars(),
        clauses: cnf.len() as u64,
    };
    let mut writer = DimacsWriter::new(out, header, &[]);
    cnf.add_to(&mut writer);
    writer.finish().map(drop)
}

/// Appends the decimal form of `value` to `buf`.
pub(crate) fn push_int(buf: &mut Vec<u8>, value: i64) {
    if value < 0 {
        buf.push(b'-');
    }
    let mut magnitude = value.unsigned_abs();
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (magnitude % 10) as u8;
        magnitude /= 10;
        if magnitude == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[start..]);
}

/// Bytes a [`DimacsWriter`] gathers before writing them out.
const WRITE_CHUNK: usize = 1 << 16;

/// A [`ClauseSink`] that writes DIMACS: the header (and comment lines) when created, then each
/// clause as it is added. I/O errors are kept and reported by [`DimacsWriter::finish`], which also
/// checks that the formula matched the header.
#[derive(Debug)]
pub struct DimacsWriter<W: Write> {
    out: W,
    declared: Header,
    vars: u32,
    clauses: u64,
    buf: Vec<u8>,
    error: Option<io::Error>,
}

impl<W: Write> DimacsWriter<W> {
    /// A writer for a formula of the size `header` declares; `comments` become `c` lines
    /// before the header.
    pub fn new(out: W, header: Header, comments: &[&str]) -> Self {
        let mut buf = Vec::with_capacity(WRITE_CHUNK + 64);
        for comment in comments {
            for line in comment.lines() {
                buf.extend_from_slice(b"c ");
                buf.extend_from_slice(line.as_bytes());
                buf.push(b'\n');
            }
        }
        buf.extend_from_slice(format!("p cnf {} {}\n", header.vars, header.clauses).as_bytes());
        DimacsWriter {
            out,
            declared: header,
            vars: 0,
            clauses: 0,
            buf,
            error: None,
        }
    }

    fn flush_buf(&mut self) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(&self.buf)
        {
            self.error = Some(e);
        }
        self.buf.clear();
    }

    /// Writes what is buffered, flushes, and checks the formula against the header. Gives the
    /// output back.
    pub fn finish(mut self) -> Result<W, Error> {
        self.flush_buf();
        if let Some(e) = self.error.take() {
            return Err(e.into());
        }
        self.out.flush()?;
        if self.vars > self.declared.vars || self.clauses != self.declared.clauses {
            return Err(Error::HeaderMismatch {
                declared_vars: self.declared.vars,
                declared_clauses: self.declared.clauses,
                vars: self.vars,
                clauses: self.clauses,
            });
        }
        Ok(self.out)
    }
}

impl<W: Write> ClauseSink for DimacsWriter<W> {
    fn num_vars(&self) -> u32 {
        self.vars
    }

    fn ensure_vars(&mut self, count: u32) {
        self.vars = self.vars.max(count);
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        for &lit in lits {
            self.vars = self.vars.max(lit.var().as_u32() + 1);
            push_int(&mut self.buf, i64::from(lit.to_dimacs()));
            self.buf.push(b' ');
        }
        self.buf.extend_from_slice(b"0\n");
        self.clauses += 1;
        if self.buf.len() >= WRITE_CHUNK {
            self.flush_buf();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_err(text: &str) -> String {
        parse_dimacs(text).unwrap_err().to_string()
    }

    #[test]
    fn integers_print_like_display() {
        for value in [0, 7, -7, 1234567890, i64::MIN, i64::MAX] {
            let mut buf = Vec::new();
            push_int(&mut buf, value);
            assert_eq!(String::from_utf8(buf).unwrap(), value.to_string());
        }
    }

    #[test]
    fn clauses_may_span_and_share_lines() {
        let cnf = parse_dimacs("p cnf 4 3\n1 2\n -3 0 4 0\n\n0\n").unwrap();
        let clauses: Vec<Vec<i32>> = cnf
            .clauses()
            .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
            .collect();
        assert_eq!(clauses, vec![vec![1, 2, -3], vec![4], vec![]]);
    }

    #[test]
    fn comments_blank_lines_and_the_satlib_end_marker() {
        let text = "c hello\n\np cnf 2 1\nc inside\n  1 -2 0\n%\n0\n\n";
        let cnf = parse_dimacs(text).unwrap();
        assert_eq!(cnf.len(), 1);
        assert_eq!(cnf.num_vars(), 2);
    }

    #[test]
    fn every_malformation_names_its_line() {
        assert_eq!(parse_err(""), "no 'p cnf VARIABLES CLAUSES' header");
        assert_eq!(parse_err("c only\n"), "no 'p cnf VARIABLES CLAUSES' header");
        assert_eq!(
            parse_err("c x\n1 2 0\np cnf 2 1\n"),
            "line 2: '1' before the 'p cnf VARIABLES CLAUSES' header"
        );
        assert_eq!(
            parse_err("p cnf 2\n"),
            "line 1: bad header 'p cnf 2'; expected 'p cnf VARIABLES CLAUSES' with at most \
             2147483647 variables"
        );
        assert!(parse_err("p dnf 2 1\n").starts_with("line 1: bad header 'p dnf 2 1'"));
        assert!(parse_err("p cnf -2 1\n").starts_with("line 1: bad header"));
        assert!(parse_err("p cnf 2147483648 1\n").starts_with("line 1: bad header"));
        assert!(parse_dimacs("p cnf 2147483647 0\n").is_ok());
        assert_eq!(
            parse_err("p cnf 2 1\np cnf 2 1\n"),
            "line 2: a second 'p' header"
        );
        assert_eq!(
            parse_err("p cnf 2 1\n1 x 0\n"),
            "line 2: 'x' is not a literal"
        );
        assert_eq!(
            parse_err("p cnf 2 1\n1 -2 0\n\n-3 0\n"),
            "line 4: more clauses than the 1 the header declares"
        );
        assert_eq!(
            parse_err("p cnf 2 2\n1 -2 0\n"),
            "line 2: the input ends after 1 clauses; the header declares 2"
        );
        assert_eq!(
            parse_err("p cnf 2 2\n1 0\n-2\n1\n"),
            "line 3: the clause starting here is missing its terminating 0"
        );
        assert_eq!(
            parse_err("p cnf 2 1\n99999999999999999999999 0\n"),
            "line 2: literal 99999999999999999999999 is out of range; the header declares 2 \
             variables"
        );
        assert_eq!(
            parse_err("p cnf 2 1\n-3 0\n"),
            "line 2: literal -3 is out of range; the header declares 2 variables"
        );
        assert_eq!(
            parse_err("p cnf 2 1\n1 \u{7}\u{1b}[31m 0\n"),
            "line 2: '\\u{7}\\u{1b}[31m' is not a literal"
        );
        assert_eq!(
            parse_err("p cnf 2 1\n1 0 %\n"),
            "line 2: '%' is not a literal"
        );
        let long = format!("p cnf 1 1\n{} 0\n", "y".repeat(100));
        assert_eq!(
            parse_err(&long),
            format!("line 2: '{}…' is not a literal", "y".repeat(24))
        );
    }

    #[test]
    fn the_writer_checks_its_header() {
        let mut writer = DimacsWriter::new(
            Vec::new(),
            Header {
                vars: 2,
                clauses: 1,
            },
            &["hi"],
        );
        writer.add_clause(&[Lit::from_dimacs(-2), Lit::from_dimacs(1)]);
        let out = writer.finish().unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "c hi\np cnf 2 1\n-2 1 0\n");

        let mut writer = DimacsWriter::new(
            Vec::new(),
            Header {
                vars: 2,
                clauses: 1,
            },
            &[],
        );
        writer.add_clause(&[Lit::from_dimacs(3)]);
        assert_eq!(
            writer.finish().unwrap_err().to_string(),
            "the header declares 2 variables and 1 clauses, but the formula has 3 variables and \
             1 clauses"
        );
    }
}
