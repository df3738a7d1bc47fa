//! Ctrl-C and `kill` for the commands that search: the handler is `nqueens_support`'s
//! ([`nqueens_support::interrupt`]: the flag, the one-second window that makes two signals one
//! interrupt, exit 130); this module adds the error a command returns once it has said what
//! an interruption kept.

pub use nqueens_support::interrupt::{EXIT_CODE, elapsed_seconds, install, requested, stop_flag};

/// An interruption the command has already described: printed as is, exit 130.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Interrupted(pub String);

/// A writer that refuses to write once a stop was requested, so that a command printing a
/// huge answer (a board of 10⁹ rows is gigabytes of text) stops at its next chunk instead of
/// writing it all first.
pub struct UntilInterrupted<W>(pub W);

impl<W: std::io::Write> std::io::Write for UntilInterrupted<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if requested() {
            return Err(std::io::Error::other("interrupted"));
        }
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if requested() {
            return Err(std::io::Error::other("interrupted"));
        }
        self.0.flush()
    }
}
