//! What the solver's test files share (a folder of its own, so that it is not a test target,
//! and not `rup.rs`, which the CLI's tests include by path).

use std::io::Write;
use std::sync::{Arc, Mutex};

/// A shared buffer a proof can be written into while the solver owns the writer.
#[derive(Clone, Default)]
pub struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl SharedBuf {
    /// What was written, as text (a DRAT proof is ASCII).
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}
