//! The writer: [`DimacsWriter`] streams clauses out after a header given up front.

use std::io::{self, Write};

use super::Header;
use crate::cnf::{ClauseSink, Cnf};
use crate::error::Error;
use crate::lit::Lit;

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
