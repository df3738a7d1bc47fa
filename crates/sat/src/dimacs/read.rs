//! The reader: a streaming tokenizer over any [`BufRead`], the header, and the clauses.

use std::io::{self, BufRead};

use nqueens_support::{EXCERPT_CHARS, Position, excerpt};

use super::Header;
use crate::cnf::{ClauseSink, Cnf};
use crate::error::Error;
use crate::lit::{Lit, Var};

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

/// A streaming DIMACS CNF reader. See the [module documentation](super).
#[derive(Debug)]
pub struct DimacsReader<R> {
    input: R,
    header: Header,
    /// Where the next byte is.
    at: LinePlace,
    /// The longest line allowed, in bytes ([`MAX_LINE_BYTES`] but in tests).
    max_line: u64,
    /// The start of the last token, up to [`TOKEN_KEEP`] bytes.
    token: Vec<u8>,
    /// Whether the input (or a `%` line) has ended.
    ended: bool,
    clause: Vec<Lit>,
    /// Where the clause being read starts.
    clause_start: Position,
    clauses_read: u64,
}

/// Where the reader is: the line, and how far into it.
#[derive(Debug)]
struct LinePlace {
    /// The 1-based line of the next byte.
    line: u64,
    /// Characters read on the current line (0 right after a line break).
    chars: u64,
    /// Bytes read on the current line (0 right after a line break).
    bytes: u64,
    /// Characters on the line before the current one.
    prev_chars: u64,
    /// Whether the current line has had a token (so `c`, `p` and `%` are no longer special).
    has_token: bool,
}

/// What one byte met while skipping blanks was.
enum Blank {
    /// A space, a tab or a line break: counted.
    Counted,
    /// A line break ending a line longer than allowed (not counted).
    LineTooLong,
    /// The first byte of a token (not counted).
    Token,
}

impl LinePlace {
    /// Counts a line break.
    fn new_line(&mut self) {
        self.line += 1;
        self.prev_chars = self.chars;
        self.chars = 0;
        self.bytes = 0;
        self.has_token = false;
    }

    /// Counts `byte` if it is blank (a line break only if the line it ends is at most
    /// `max_line` bytes long), or says what stopped it.
    #[inline]
    fn blank(&mut self, byte: u8, max_line: u64) -> Blank {
        if byte == b'\n' {
            if self.bytes > max_line {
                return Blank::LineTooLong;
            }
            self.new_line();
        } else if is_space(byte) {
            self.chars += 1;
            self.bytes += 1;
        } else {
            return Blank::Token;
        }
        Blank::Counted
    }
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
    pub(super) fn with_max_line(mut input: R, max_line: u64) -> Result<Self, Error> {
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
            at: LinePlace {
                line: 1,
                chars: 0,
                bytes: 0,
                prev_chars: 0,
                has_token: false,
            },
            max_line,
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
            if !self.at.has_token {
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
            let first_on_line = !self.at.has_token;
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
                match self.at.blank(byte, self.max_line) {
                    Blank::Counted => {}
                    Blank::LineTooLong => break 'scan false,
                    Blank::Token => break,
                }
                i += 1;
            }
            let start = i;
            let Some(&first) = buf.get(start) else {
                break false;
            };
            if !self.at.has_token && matches!(first, b'c' | b'p' | b'%') {
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
                    line: self.at.line,
                    column: self.at.chars + 1,
                };
            }
            self.at.chars += (end - start) as u64;
            self.at.bytes += (end - start) as u64;
            self.at.has_token = true;
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
        if self.at.bytes > self.max_line {
            return Err(Error::LineTooLong {
                line: self.at.line,
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
            line: self.at.line,
            column: self.at.chars + 1,
        }
    }

    /// The end of the input: just after the last character of its last line (a final line
    /// break does not start a line).
    fn end(&self) -> Position {
        if self.at.chars == 0 && self.at.line > 1 {
            Position {
                line: self.at.line - 1,
                column: self.at.prev_chars + 1,
            }
        } else {
            self.here()
        }
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
                match self.at.blank(byte, self.max_line) {
                    Blank::Counted => {}
                    Blank::LineTooLong => break,
                    Blank::Token => {
                        next = Some(byte);
                        break;
                    }
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
                self.at.chars += chars(&buf[..at]);
                self.at.bytes += at as u64;
                self.input.consume(at + 1);
                self.check_line()?;
                self.at.new_line();
                return Ok(());
            }
            let used = buf.len();
            self.at.chars += chars(buf);
            self.at.bytes += used as u64;
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
            self.at.chars += blanks as u64;
            self.at.bytes += blanks as u64;
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
        self.at.has_token = true;
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
            self.at.chars += chars(token);
            self.at.bytes += len as u64;
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
            self.at.chars += chars(&buf[..len]);
            self.at.bytes += len as u64;
            self.input.consume(len);
            if end.is_some() {
                break;
            }
        }
        self.check_line()?;
        self.at.has_token = true;
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
