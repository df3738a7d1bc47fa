//! DRAT proof output, in the text format SAT competitions require.
//!
//! Each learnt clause is written as a line of DIMACS literals ended by `0`, each deleted clause
//! the same way after `d `, and an unsatisfiable run ends with the empty clause `0`. Every
//! added clause is a RUP lemma: unit propagation on the formula plus the earlier lemmas, with
//! the lemma's literals set false, reaches a conflict. So a forward checker (or `drat-trim`)
//! can replay the run without trusting the solver.

use std::io::{self, Write};

use crate::dimacs::push_int;
use crate::lit::Lit;

/// Bytes gathered before a write.
const CHUNK: usize = 1 << 16;

pub(crate) struct Proof {
    out: Box<dyn Write + Send>,
    buf: Vec<u8>,
    error: Option<io::Error>,
    /// How many of the level-0 trail's literals were written as unit lemmas (simplification
    /// writes them before it deletes clauses that may be their reasons: a checker that honours
    /// unit deletions would otherwise lose them).
    pub(crate) units_written: usize,
}

impl Proof {
    pub(crate) fn new(out: Box<dyn Write + Send>) -> Self {
        Proof {
            out,
            buf: Vec::with_capacity(CHUNK + 256),
            error: None,
            units_written: 0,
        }
    }

    fn line(&mut self, prefix: &[u8], lits: impl IntoIterator<Item = Lit>) {
        self.buf.extend_from_slice(prefix);
        for lit in lits {
            push_int(&mut self.buf, i64::from(lit.to_dimacs()));
            self.buf.push(b' ');
        }
        self.buf.extend_from_slice(b"0\n");
        if self.buf.len() >= CHUNK {
            self.write_out();
        }
    }

    /// A lemma.
    pub(crate) fn add(&mut self, lits: impl IntoIterator<Item = Lit>) {
        self.line(b"", lits);
    }

    /// A deletion.
    pub(crate) fn delete(&mut self, lits: impl IntoIterator<Item = Lit>) {
        self.line(b"d ", lits);
    }

    fn write_out(&mut self) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(&self.buf)
        {
            self.error = Some(e);
        }
        self.buf.clear();
    }

    /// Writes everything buffered and flushes; reports the first error since the proof began.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.write_out();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()
    }
}
