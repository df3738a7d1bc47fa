//! Where output goes: standard output or the `--output` file, always buffered.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result};

/// A buffered writer to `path`, or to standard output when `None`.
pub fn open(path: Option<&Path>) -> Result<Box<dyn Write>> {
    Ok(match path {
        Some(path) => {
            let file =
                File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
            Box::new(BufWriter::with_capacity(1 << 16, file))
        }
        None => Box::new(BufWriter::with_capacity(1 << 16, io::stdout().lock())),
    })
}
