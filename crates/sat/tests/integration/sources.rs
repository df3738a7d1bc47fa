//! The crate's sources stay readable: no file in `src/` over 800 lines (the workspace's rule,
//! DEVELOPERS.md), so that a module that grows is split along its own structure, as `dimacs`
//! was into a reader, a writer and their tests.

use std::fs;
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 800;

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("the source folder is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn no_source_file_is_over_800_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(
        files.len() > 10,
        "found only {files:?} under {}",
        src.display()
    );
    let long: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let lines = fs::read_to_string(path)
                .expect("a readable source")
                .lines()
                .count();
            let name = path.strip_prefix(&src).unwrap_or(path).display();
            (lines > MAX_LINES).then(|| format!("src/{name}: {lines} lines"))
        })
        .collect();
    assert!(
        long.is_empty(),
        "over {MAX_LINES} lines (split along the module's structure):\n{}",
        long.join("\n")
    );
}
