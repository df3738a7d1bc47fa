//! DIMACS CNF input and output.
//!
//! The format: comment lines starting with `c`, one header `p cnf VARIABLES CLAUSES`, then the
//! clauses as whitespace-separated nonzero integers (`5` is variable 5, `-5` its negation), each
//! clause ended by `0`. Clauses may span lines and share them.
//!
//! [`DimacsReader`] streams: it holds one clause and the start of one token at a time, never a
//! whole line, so its memory does not grow with the input (a line of any length, a token of a
//! million digits), and a formula larger than memory can go straight into a [`ClauseSink`]
//! ([`read_dimacs`]). The header's counts are claims to check the body against, not sizes to
//! allocate: the reader allocates nothing by them, and [`read_dimacs`] only *declares* the
//! variables ([`ClauseSink::declare_vars`]), so a solver grows as literals arrive and
//! `p cnf 1000000000 1` costs what its one clause costs. What it reads is bounded: a line of
//! at most [`MAX_LINE_BYTES`] and a clause of at most [`MAX_CLAUSE_LITS`] literals, so that an
//! endless input (`/dev/zero`, a pipe from a runaway program) ends in an error, not in a read
//! that never ends or in memory exhaustion; a formula may still be of any length (a program
//! that must stop an endless stream of short lines does so in its reader, as the CLI does at
//! Ctrl-C). It is strict, because a
//! file that disagrees with its own header is usually truncated or mislabelled: the header must
//! come before any clause, literals must be within the declared variables, the number of clauses
//! must match, the last clause needs its `0`. One leniency: a line holding only `%` ends the
//! formula, as in the SATLIB benchmark files. A UTF-8 byte-order mark at the start is skipped.
//! Every error names its position (1-based line and column, the column in characters:
//! [`nqueens_support::Position`]) and quotes at most 200 characters of the input with control
//! characters escaped; no input makes the reader panic.
//!
//! [`DimacsWriter`] is a [`ClauseSink`] that writes each clause as it comes, after a header given
//! up front (count with a [`crate::ClauseCounter`] first when the encoder does not know).
//!
//! ```
//! use nqueens_sat::{parse_dimacs, write_dimacs, Error};
//! let cnf = parse_dimacs("c a comment\np cnf 3 2\n1 -3 0 2\n3 0\n").unwrap();
//! let mut out = Vec::new();
//! write_dimacs(&mut out, &cnf).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), "p cnf 3 2\n1 -3 0\n2 3 0\n");
//! let err = parse_dimacs("p cnf 2 1\n1 3 0\n").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "line 2, column 3: literal 3 is out of range; the header declares 2 variables"
//! );
//! ```

use std::io::{self, BufRead, Write};

use nqueens_support::{EXCERPT_CHARS, Position, excerpt};

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

/// Input text as an error message quotes it: lossy UTF-8, at most
/// [`EXCERPT_CHARS`] characters, control characters escaped ([`excerpt`]).
fn quote(text: &[u8]) -> String {
    excerpt(&String::from_utf8_lossy(text))
}

/// The characters among `bytes` (UTF-8 continuation bytes are not counted; an invalid byte is
/// one character, as lossy decoding shows it).
fn chars(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count() as u64
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
    let mut parser = NumberParser::default();
    parser.feed(token);
    parser.finish()
}

/// [`parse_number`] for a token that arrives in pieces.
#[derive(Default)]
struct NumberParser {
    bytes: u64,
    negative: bool,
    digits: u64,
    value: i64,
    overflow: bool,
    junk: bool,
}

impl NumberParser {
    fn feed(&mut self, piece: &[u8]) {
        for &byte in piece {
            if byte == b'-' && self.bytes == 0 {
                self.negative = true;
            } else if byte.is_ascii_digit() {
                self.digits += 1;
                match self
                    .value
                    .checked_mul(10)
                    .and_then(|v| v.checked_add(i64::from(byte - b'0')))
                {
                    Some(v) => self.value = v,
                    None => self.overflow = true,
                }
            } else {
                self.junk = true;
            }
            self.bytes += 1;
        }
    }

    fn finish(&self) -> Number {
        if self.junk || self.digits == 0 {
            Number::Junk
        } else if self.overflow {
            Number::Overflow
        } else if self.negative {
            Number::Value(-self.value)
        } else {
            Number::Value(self.value)
        }
    }
}

/// The UTF-8 byte-order mark (what [`nqueens_support::strip_bom_bytes`] strips; matched here
/// byte by byte, as the input streams).
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The most bytes of a token kept for an error message to quote: more than
/// [`EXCERPT_CHARS`] characters of any script, so a cut token shows as cut.
const TOKEN_KEEP: usize = 4 * (EXCERPT_CHARS + 1);

/// The longest `p cnf VARIABLES CLAUSES` line accepted, in bytes (the header needs about 40).
const HEADER_MAX: usize = 1024;

/// The longest line [`DimacsReader`] reads, in bytes: 256 MiB, the bound of the project's other
/// readers on a whole file. Generators write a clause per line; this allows a clause of 30
/// million literals on one, or a small formula on a single line.
pub const MAX_LINE_BYTES: u64 = 1 << 28;

/// The most literals one clause may hold: as many as fit on the longest line (each literal
/// takes two bytes with its separator), 512 MiB of literals in memory.
pub const MAX_CLAUSE_LITS: usize = (MAX_LINE_BYTES / 2) as usize;

/// A streaming DIMACS CNF reader. See the [module documentation](self).
#[derive(Debug)]
pub struct DimacsReader<R> {
    input: R,
    header: Header,
    /// The 1-based line of the next byte.
    line: u64,
    /// Characters read on the current line (0 right after a line break).
    line_chars: u64,
    /// Bytes read on the current line (0 right after a line break).
    line_bytes: u64,
    /// The longest line allowed, in bytes ([`MAX_LINE_BYTES`] but in tests).
    max_line: u64,
    /// Characters on the line before the current one.
    prev_line_chars: u64,
    /// Whether the current line has had a token (so `c`, `p` and `%` are no longer special).
    line_has_token: bool,
    /// The start of the last token, up to [`TOKEN_KEEP`] bytes.
    token: Vec<u8>,
    /// Whether the input (or a `%` line) has ended.
    ended: bool,
    clause: Vec<Lit>,
    /// Where the clause being read starts.
    clause_start: Position,
    clauses_read: u64,
}

/// A token as read: its value, if a number, and where it starts.
struct Token {
    number: Number,
    position: Position,
}

impl<R: BufRead> DimacsReader<R> {
    /// Reads up to and including the header. A UTF-8 byte-order mark at the start is skipped
    /// (and not counted in columns).
    pub fn new(input: R) -> Result<Self, Error> {
        Self::with_max_line(input, MAX_LINE_BYTES)
    }

    /// [`DimacsReader::new`] with another longest line (and so longest clause, half as many
    /// literals), for tests of the bounds.
    fn with_max_line(mut input: R, max_line: u64) -> Result<Self, Error> {
        // Byte by byte, so the answer does not depend on how the input is buffered.
        let mut matched = 0;
        while matched < BOM.len() {
            let buf = fill(&mut input)?;
            if buf.first() != Some(&BOM[matched]) {
                break;
            }
            input.consume(1);
            matched += 1;
        }
        if matched > 0 && matched < BOM.len() {
            // Part of a byte-order mark: not UTF-8, and no header.
            return Err(Error::MissingHeader {
                position: Position { line: 1, column: 1 },
                token: quote(&BOM[..matched]),
            });
        }
        let mut reader = DimacsReader {
            input,
            header: Header::default(),
            line: 1,
            line_chars: 0,
            line_bytes: 0,
            max_line,
            prev_line_chars: 0,
            line_has_token: false,
            token: Vec::new(),
            ended: false,
            clause: Vec::new(),
            clause_start: Position { line: 1, column: 1 },
            clauses_read: 0,
        };
        loop {
            let Some(first) = reader.skip_space()? else {
                return Err(Error::NoHeader);
            };
            match first {
                b'c' => reader.skip_line()?,
                b'p' => {
                    reader.header = reader.parse_header()?;
                    return Ok(reader);
                }
                _ => {
                    let token = reader.read_token()?;
                    return Err(Error::MissingHeader {
                        position: token.position,
                        token: quote(&reader.token),
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
            if self.ended {
                return self.finish().map(|()| None);
            }
            let complete = self.plain_literals();
            self.check_line()?;
            if complete {
                self.clauses_read += 1;
                return Ok(Some(&self.clause));
            }
            // One token the fast path left: a comment, a header, an end marker, a token across
            // the buffer's end, or an error.
            let Some(first) = self.skip_space()? else {
                return self.finish().map(|()| None);
            };
            if !self.line_has_token {
                match first {
                    b'c' => {
                        self.skip_line()?;
                        continue;
                    }
                    b'p' => {
                        return Err(Error::DuplicateHeader {
                            position: self.here(),
                        });
                    }
                    _ => {}
                }
            }
            let first_on_line = !self.line_has_token;
            let token = self.read_token()?;
            let value = match token.number {
                Number::Value(v) => v,
                Number::Overflow => {
                    return Err(self.out_of_range(token.position, quote(&self.token)));
                }
                Number::Junk => {
                    if first_on_line && self.token == b"%" && self.rest_of_line_is_blank()? {
                        // SATLIB's end marker.
                        self.ended = true;
                        continue;
                    }
                    return Err(Error::BadToken {
                        position: token.position,
                        token: quote(&self.token),
                    });
                }
            };
            if self.clause.is_empty() {
                self.clause_start = token.position;
                if self.clauses_read == self.header.clauses {
                    return Err(Error::TooManyClauses {
                        position: token.position,
                        declared: self.header.clauses,
                    });
                }
            }
            if value == 0 {
                self.clauses_read += 1;
                return Ok(Some(&self.clause));
            }
            if value.unsigned_abs() > u64::from(self.header.vars) {
                return Err(self.out_of_range(token.position, value.to_string()));
            }
            if self.clause.len() >= self.max_clause() {
                return Err(Error::ClauseTooLong {
                    position: self.clause_start,
                    max: self.max_clause(),
                });
            }
            let lit = Lit::from_dimacs(value).expect("in range: checked against the header");
            self.clause.push(lit);
        }
    }

    /// The fast path of [`Self::next_clause`]: reads blanks and plain in-range literals (up to
    /// 10 digits, each wholly inside the buffered input) straight from the buffer into the
    /// clause. True when it read the clause's `0` (not yet counted in `clauses_read`); false
    /// when it stopped before anything else, which the general path then reads. It stops
    /// before the line break of a line that is too long, and before a literal the clause has
    /// no room for, so that the general path reports them.
    fn plain_literals(&mut self) -> bool {
        let max_clause = self.max_clause();
        let Ok(buf) = self.input.fill_buf() else {
            return false;
        };
        let mut i = 0;
        let complete = 'scan: loop {
            while i < buf.len() {
                let byte = buf[i];
                if byte == b'\n' {
                    if self.line_bytes > self.max_line {
                        break 'scan false;
                    }
                    self.line += 1;
                    self.prev_line_chars = self.line_chars;
                    self.line_chars = 0;
                    self.line_bytes = 0;
                    self.line_has_token = false;
                } else if is_space(byte) {
                    self.line_chars += 1;
                    self.line_bytes += 1;
                } else {
                    break;
                }
                i += 1;
            }
            let start = i;
            let Some(&first) = buf.get(start) else {
                break false;
            };
            if !self.line_has_token && matches!(first, b'c' | b'p' | b'%') {
                break false;
            }
            let negative = first == b'-';
            let mut end = start + usize::from(negative);
            let mut value = 0u64;
            while end < buf.len() && end - start < 11 && buf[end].is_ascii_digit() {
                value = value * 10 + u64::from(buf[end] - b'0');
                end += 1;
            }
            let digits = end - start - usize::from(negative);
            let ended = buf.get(end).is_some_and(|&b| is_space(b));
            if digits == 0 || !ended || value > u64::from(self.header.vars) {
                break false;
            }
            if value != 0 && self.clause.len() >= max_clause {
                break false;
            }
            if self.clause.is_empty() {
                if self.clauses_read == self.header.clauses {
                    break false;
                }
                self.clause_start = Position {
                    line: self.line,
                    column: self.line_chars + 1,
                };
            }
            self.line_chars += (end - start) as u64;
            self.line_bytes += (end - start) as u64;
            self.line_has_token = true;
            i = end;
            if value == 0 {
                break true;
            }
            let var = Var::from_index(value as u32 - 1);
            self.clause.push(Lit::new(var, negative));
        };
        self.input.consume(i);
        complete
    }

    /// The longest clause allowed: as many literals as fit on the longest line.
    fn max_clause(&self) -> usize {
        usize::try_from(self.max_line / 2).unwrap_or(usize::MAX)
    }

    /// An error once the current line is longer than allowed (checked wherever a line can
    /// grow, and before every line break, so that however the input is buffered the same
    /// error comes at the same point).
    fn check_line(&self) -> Result<(), Error> {
        if self.line_bytes > self.max_line {
            return Err(Error::LineTooLong {
                line: self.line,
                max: self.max_line,
            });
        }
        Ok(())
    }

    fn out_of_range(&self, position: Position, literal: String) -> Error {
        Error::LiteralOutOfRange {
            position,
            literal,
            vars: self.header.vars,
        }
    }

    /// The checks at the end of the input.
    fn finish(&mut self) -> Result<(), Error> {
        self.ended = true;
        if !self.clause.is_empty() {
            return Err(Error::UnterminatedClause {
                position: self.clause_start,
            });
        }
        if self.clauses_read < self.header.clauses {
            return Err(Error::TooFewClauses {
                position: self.end(),
                declared: self.header.clauses,
                found: self.clauses_read,
            });
        }
        Ok(())
    }

    /// The position of the next byte.
    fn here(&self) -> Position {
        Position {
            line: self.line,
            column: self.line_chars + 1,
        }
    }

    /// The end of the input: just after the last character of its last line (a final line
    /// break does not start a line).
    fn end(&self) -> Position {
        if self.line_chars == 0 && self.line > 1 {
            Position {
                line: self.line - 1,
                column: self.prev_line_chars + 1,
            }
        } else {
            self.here()
        }
    }

    /// Counts a line break.
    fn new_line(&mut self) {
        self.line += 1;
        self.prev_line_chars = self.line_chars;
        self.line_chars = 0;
        self.line_bytes = 0;
        self.line_has_token = false;
    }

    /// Skips whitespace (counting lines); returns the next byte, not consumed, or `None` at
    /// the end of the input.
    fn skip_space(&mut self) -> Result<Option<u8>, Error> {
        loop {
            self.check_line()?;
            let buf = fill(&mut self.input)?;
            if buf.is_empty() {
                return Ok(None);
            }
            let mut used = 0;
            let mut next = None;
            for &byte in buf {
                if byte == b'\n' {
                    if self.line_bytes > self.max_line {
                        break;
                    }
                    self.line += 1;
                    self.prev_line_chars = self.line_chars;
                    self.line_chars = 0;
                    self.line_bytes = 0;
                    self.line_has_token = false;
                } else if is_space(byte) {
                    self.line_chars += 1;
                    self.line_bytes += 1;
                } else {
                    next = Some(byte);
                    break;
                }
                used += 1;
            }
            self.input.consume(used);
            if next.is_some() {
                return Ok(next);
            }
        }
    }

    /// Skips the rest of the line and its line break.
    fn skip_line(&mut self) -> Result<(), Error> {
        loop {
            self.check_line()?;
            let buf = fill(&mut self.input)?;
            if buf.is_empty() {
                return Ok(());
            }
            if let Some(at) = buf.iter().position(|&b| b == b'\n') {
                self.line_chars += chars(&buf[..at]);
                self.line_bytes += at as u64;
                self.input.consume(at + 1);
                self.check_line()?;
                self.new_line();
                return Ok(());
            }
            let used = buf.len();
            self.line_chars += chars(buf);
            self.line_bytes += used as u64;
            self.input.consume(used);
        }
    }

    /// Whether only blanks follow on this line; consumes them (not the line break).
    fn rest_of_line_is_blank(&mut self) -> Result<bool, Error> {
        loop {
            self.check_line()?;
            let buf = fill(&mut self.input)?;
            if buf.is_empty() {
                return Ok(true);
            }
            let blanks = buf
                .iter()
                .take_while(|&&b| b != b'\n' && is_space(b))
                .count();
            let done = blanks < buf.len();
            let blank = buf.get(blanks).is_none_or(|&b| b == b'\n');
            self.line_chars += blanks as u64;
            self.line_bytes += blanks as u64;
            self.input.consume(blanks);
            if done {
                self.check_line()?;
                return Ok(blank);
            }
        }
    }

    /// Reads the token that starts at the next byte (after [`Self::skip_space`]): its value
    /// is computed as it streams by, and only its first [`TOKEN_KEEP`] bytes are kept (in
    /// `self.token`), so a token of any length takes bounded memory.
    fn read_token(&mut self) -> Result<Token, Error> {
        self.line_has_token = true;
        self.token.clear();
        let position = self.here();
        let mut parse = NumberParser::default();
        loop {
            self.check_line()?;
            let buf = fill(&mut self.input)?;
            let len = buf.iter().position(|&b| is_space(b)).unwrap_or(buf.len());
            let token = &buf[..len];
            parse.feed(token);
            let keep = TOKEN_KEEP.saturating_sub(self.token.len()).min(len);
            self.token.extend_from_slice(&token[..keep]);
            let done = len < buf.len() || buf.is_empty();
            self.line_chars += chars(token);
            self.line_bytes += len as u64;
            self.input.consume(len);
            if done {
                self.check_line()?;
                return Ok(Token {
                    number: parse.finish(),
                    position,
                });
            }
        }
    }

    /// Reads the `p` line (at most [`HEADER_MAX`] bytes) and checks it.
    fn parse_header(&mut self) -> Result<Header, Error> {
        let position = self.here();
        let mut text = Vec::new();
        let mut too_long = false;
        loop {
            self.check_line()?;
            let buf = fill(&mut self.input)?;
            if buf.is_empty() {
                break;
            }
            let end = buf.iter().position(|&b| b == b'\n');
            let len = end.unwrap_or(buf.len());
            let keep = HEADER_MAX.saturating_sub(text.len()).min(len);
            too_long |= keep < len;
            text.extend_from_slice(&buf[..keep]);
            self.line_chars += chars(&buf[..len]);
            self.line_bytes += len as u64;
            self.input.consume(len);
            if end.is_some() {
                break;
            }
        }
        self.check_line()?;
        self.line_has_token = true;
        let bad = || Error::BadHeader {
            position,
            found: quote(text.trim_ascii()),
        };
        if too_long {
            return Err(bad());
        }
        let tokens: Vec<&[u8]> = text
            .split(|&b| is_space(b))
            .filter(|t| !t.is_empty())
            .collect();
        let [p, cnf, vars, clauses] = tokens.as_slice() else {
            return Err(bad());
        };
        if *p != b"p" || *cnf != b"cnf" {
            return Err(bad());
        }
        let (Number::Value(vars), Number::Value(clauses)) =
            (parse_number(vars), parse_number(clauses))
        else {
            return Err(bad());
        };
        let vars = u32::try_from(vars)
            .ok()
            .filter(|&v| v <= Var::MAX_INDEX + 1)
            .ok_or_else(bad)?;
        let clauses = u64::try_from(clauses).map_err(|_| bad())?;
        Ok(Header { vars, clauses })
    }
}

/// `input.fill_buf()`, retried when interrupted.
fn fill<R: BufRead>(input: &mut R) -> Result<&[u8], Error> {
    loop {
        match input.fill_buf() {
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Ok(input.fill_buf()?)
}

/// Reads a DIMACS formula into `sink`: first the header's variables (declared, not
/// allocated: [`ClauseSink::declare_vars`]), then each clause. Returns the header, or the
/// first error of the input or of the sink ([`ClauseSink::status`]: a solver out of memory).
pub fn read_dimacs<S: ClauseSink + ?Sized>(
    input: impl BufRead,
    sink: &mut S,
) -> Result<Header, Error> {
    let mut reader = DimacsReader::new(input)?;
    sink.declare_vars(reader.header().vars);
    sink.status()?;
    while let Some(clause) = reader.next_clause()? {
        sink.add_clause(clause);
        sink.status()?;
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

    /// `Err` once a write failed, so that an encoder stops early; [`DimacsWriter::finish`]
    /// reports the error itself.
    fn status(&self) -> Result<(), Error> {
        match &self.error {
            Some(e) => Err(io::Error::new(e.kind(), e.to_string()).into()),
            None => Ok(()),
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
    fn every_malformation_names_its_position() {
        assert_eq!(parse_err(""), "no 'p cnf VARIABLES CLAUSES' header");
        assert_eq!(parse_err("c only\n"), "no 'p cnf VARIABLES CLAUSES' header");
        assert_eq!(
            parse_err("c x\n  1 2 0\np cnf 2 1\n"),
            "line 2, column 3: '1' before the 'p cnf VARIABLES CLAUSES' header"
        );
        assert_eq!(
            parse_err("p cnf 2\n"),
            "line 1, column 1: bad header 'p cnf 2'; expected 'p cnf VARIABLES CLAUSES' with \
             at most 2147483647 variables"
        );
        assert!(parse_err("p dnf 2 1\n").starts_with("line 1, column 1: bad header 'p dnf 2 1'"));
        assert!(parse_err("p cnf -2 1\n").starts_with("line 1, column 1: bad header"));
        assert!(parse_err("p cnf 2147483648 1\n").starts_with("line 1, column 1: bad header"));
        assert!(parse_dimacs("p cnf 2147483647 0\n").is_ok());
        assert_eq!(
            parse_err("p cnf 2 1\n p cnf 2 1\n"),
            "line 2, column 2: a second 'p' header"
        );
        assert_eq!(
            parse_err("p cnf 2 1\n1 x 0\n"),
            "line 2, column 3: 'x' is not a literal"
        );
        assert_eq!(
            parse_err("p cnf 2 1\n1 -2 0\n\n  -3 0\n"),
            "line 4, column 3: more clauses than the 1 the header declares"
        );
        assert_eq!(
            parse_err("p cnf 2 2\n1 -2 0\n"),
            "line 2, column 7: the input ends after 1 clauses; the header declares 2"
        );
        assert_eq!(
            parse_err("p cnf 2 2\n1 -2 0"),
            "line 2, column 7: the input ends after 1 clauses; the header declares 2"
        );
        assert_eq!(
            parse_err("p cnf 2 2\n1 0\n\n-2\n1\n"),
            "line 4, column 1: the clause starting here is missing its terminating 0"
        );
        assert_eq!(
            parse_err("p cnf 2 1\n99999999999999999999999 0\n"),
            "line 2, column 1: literal 99999999999999999999999 is out of range; the header \
             declares 2 variables"
        );
        assert_eq!(
            parse_err("p cnf 2 1\n1\t-3 0\n"),
            "line 2, column 3: literal -3 is out of range; the header declares 2 variables"
        );
        assert_eq!(
            parse_err("p cnf 2 1\n1 0 %\n"),
            "line 2, column 5: '%' is not a literal"
        );
        assert_eq!(
            parse_err("p cnf 2 1\n% 1\n"),
            "line 2, column 1: '%' is not a literal"
        );
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        assert_eq!(
            parse_err("p cnf 2 1\nc é\né 0\n"),
            "line 3, column 1: 'é' is not a literal"
        );
        assert_eq!(
            parse_err("p cnf 2 1\n1 éé x 0\n"),
            "line 2, column 3: 'éé' is not a literal"
        );
        let error = parse_dimacs("p cnf 2 1\n1 2 ü 0\n").unwrap_err();
        assert_eq!(error.position(), Some(Position { line: 2, column: 5 }));
        assert_eq!(error.line(), Some(2));
    }

    #[test]
    fn quotes_are_short_and_escaped() {
        assert_eq!(
            parse_err("p cnf 2 1\n1 \u{7}\u{1b}[31m 0\n"),
            "line 2, column 3: '\\u{7}\\u{1b}[31m' is not a literal"
        );
        assert_eq!(
            parse_err("p cnf 2 1\u{1b}]0;title\u{7}\n"),
            "line 1, column 1: bad header 'p cnf 2 1\\u{1b}]0;title\\u{7}'; expected 'p cnf \
             VARIABLES CLAUSES' with at most 2147483647 variables"
        );
        // A token of 1,000 characters is quoted as its first 200 and an ellipsis, whatever
        // the script.
        for c in ['y', 'é', '€', '𝄞'] {
            let long = format!("p cnf 1 1\n{} 0\n", c.to_string().repeat(1000));
            let quoted = format!("{}…", c.to_string().repeat(EXCERPT_CHARS));
            assert_eq!(
                parse_err(&long),
                format!("line 2, column 1: '{quoted}' is not a literal")
            );
        }
        let short = format!("p cnf 1 1\n{} 0\n", "y".repeat(EXCERPT_CHARS));
        assert!(!parse_err(&short).contains('…'));
        let header = format!("p cnf 1 1 {}\n1 0\n", "z".repeat(5000));
        let error = parse_err(&header);
        assert!(
            error.contains(&format!("'p cnf 1 1 {}…'", "z".repeat(190))),
            "{error}"
        );
        assert!(error.chars().count() < EXCERPT_CHARS + 150, "{error}");
        // Invalid UTF-8 is quoted lossily.
        let error = read_dimacs(&b"p cnf 1 1\n\xff\xfe 0\n"[..], &mut Cnf::new());
        assert_eq!(
            error.unwrap_err().to_string(),
            "line 2, column 1: '\u{fffd}\u{fffd}' is not a literal"
        );
    }

    #[test]
    fn a_byte_order_mark_at_the_start_is_skipped() {
        let cnf = parse_dimacs("\u{feff}p cnf 2 1\n1 -2 0\n").unwrap();
        assert_eq!(cnf.to_string(), "p cnf 2 1\n1 -2 0\n");
        let cnf = parse_dimacs("\u{feff}c made by an editor\np cnf 1 1\n1 0\n").unwrap();
        assert_eq!(cnf.len(), 1);
        // Not counted in columns; elsewhere it is not blank.
        assert_eq!(
            parse_err("\u{feff}1 0\n"),
            "line 1, column 1: '1' before the 'p cnf VARIABLES CLAUSES' header"
        );
        let mut cnf = Cnf::new();
        let partial = read_dimacs(&b"\xEF\xBBp cnf 1 1\n1 0\n"[..], &mut cnf).unwrap_err();
        assert_eq!(
            partial.to_string(),
            "line 1, column 1: '\u{fffd}' before the 'p cnf VARIABLES CLAUSES' header"
        );
        assert_eq!(
            parse_err("p cnf 1 1\n\u{feff}1 0\n"),
            "line 2, column 1: '\u{feff}1' is not a literal"
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
        writer.add_clause(&[Lit::from_dimacs(-2).unwrap(), Lit::from_dimacs(1).unwrap()]);
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
        writer.add_clause(&[Lit::from_dimacs(3).unwrap()]);
        assert_eq!(
            writer.finish().unwrap_err().to_string(),
            "the header declares 2 variables and 1 clauses, but the formula has 3 variables and \
             1 clauses"
        );
    }

    /// Reads `input` whole with a longest line of `max_line` bytes, through a buffer of
    /// `capacity` bytes; the error, if any.
    fn bounded(input: impl io::Read, max_line: u64, capacity: usize) -> Option<String> {
        let input = io::BufReader::with_capacity(capacity, input);
        let mut reader = match DimacsReader::with_max_line(input, max_line) {
            Ok(reader) => reader,
            Err(e) => return Some(e.to_string()),
        };
        loop {
            match reader.next_clause() {
                Ok(Some(_)) => {}
                Ok(None) => return None,
                Err(e) => return Some(e.to_string()),
            }
        }
    }

    #[test]
    fn endless_inputs_end_at_the_line_or_clause_bound_however_buffered() {
        // Each would be read for ever without a bound: one endless token, run of blanks,
        // comment, header or clause (on one line, or over many lines, which only the clause
        // bound stops), and bytes that count as no character (UTF-8 continuation bytes).
        let endless: [(&[u8], &[u8], &str); 9] = [
            (b"", b"\0", "line 1 is longer than 100 bytes"),
            (b"", b" ", "line 1 is longer than 100 bytes"),
            (b"", b"\x80", "line 1 is longer than 100 bytes"),
            (b"c", b"x", "line 1 is longer than 100 bytes"),
            (b"p cnf 1 1", b" ", "line 1 is longer than 100 bytes"),
            (b"p cnf 1 1\n", b"7", "line 2 is longer than 100 bytes"),
            (b"p cnf 1 1\n", b"1 ", "line 2 is longer than 100 bytes"),
            (
                b"p cnf 1 1\nc ok\n",
                b"-1\n",
                "line 3, column 1: the clause starting here has more than 50 literals",
            ),
            (
                b"p cnf 1 9\n1 0\n%",
                b"\t",
                "line 3 is longer than 100 bytes",
            ),
        ];
        for (start, repeated, expected) in endless {
            for capacity in [1, 3, 64, 1 << 16] {
                let input = io::Read::chain(start, RepeatSlice(repeated, 0));
                let error = bounded(input, 100, capacity);
                assert!(
                    error.as_deref().is_some_and(|e| e.starts_with(expected)),
                    "{start:?} then {repeated:?} for ever, buffers of {capacity}: {error:?}"
                );
            }
        }
        // Right at the bounds is fine, and one more is not, whatever the buffer.
        let line = format!("p cnf 1 1\n{}0\n", "1 ".repeat(49));
        assert_eq!(line.lines().nth(1).unwrap().len(), 99);
        let over = format!("p cnf 1 1\n{}0\n", "1 ".repeat(51));
        for capacity in [1, 2, 7, 1 << 16] {
            assert_eq!(bounded(line.as_bytes(), 100, capacity), None);
            assert_eq!(
                bounded(over.as_bytes(), 100, capacity).as_deref(),
                Some("line 2 is longer than 100 bytes, more than a DIMACS line can need")
            );
        }
        let clause = format!("p cnf 1 1\n{}0\n", "1\n".repeat(50));
        let longer = format!("p cnf 1 1\n{}0\n", "1\n".repeat(51));
        for capacity in [1, 2, 7, 1 << 16] {
            assert_eq!(bounded(clause.as_bytes(), 100, capacity), None);
            assert_eq!(
                bounded(longer.as_bytes(), 100, capacity).as_deref(),
                Some("line 2, column 1: the clause starting here has more than 50 literals")
            );
        }
    }

    #[test]
    fn dev_zero_is_refused_at_the_real_bound() {
        let error = read_dimacs(io::BufReader::new(io::repeat(0)), &mut Cnf::new()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 1 is longer than 268435456 bytes, more than a DIMACS line can need"
        );
        assert_eq!(error.line(), Some(1));
    }

    /// `bytes` repeated for ever (the second field: where the next read starts in them).
    struct RepeatSlice(&'static [u8], usize);

    impl io::Read for RepeatSlice {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            for byte in buf.iter_mut() {
                *byte = self.0[self.1];
                self.1 = (self.1 + 1) % self.0.len();
            }
            Ok(buf.len())
        }
    }
}
