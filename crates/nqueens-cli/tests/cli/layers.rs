//! No module circles: inside every crate of the workspace, the modules that name each other
//! (`crate::…` and `super::…` paths, in `use` lines and in code, outside `#[cfg(test)]`
//! blocks) form layers, so each file can be read, tested and replaced with only the files
//! below it. A circle is a module that reaches itself through such names; the test lists each
//! circle with the names that close it.
//!
//! A parent's own children, named by relative paths (`mod child; pub use child::X;`), are
//! its parts rather than its dependencies and are not followed; a child naming its parent
//! through `super::` is.
//!
//! The library and the CLI also name their floors, bottom first ([`NQUEENS_FLOORS`],
//! [`CLI_FLOORS`]): every top-level module stands on one, and no module names one on a higher
//! floor, so the design the crate's doc describes is the one its imports have.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// The modules under `src` and their files: `lib.rs`/`main.rs` is the root (no segments),
/// `a.rs` and `a/mod.rs` are `a`, `a/b.rs` is `a::b`; test modules (`tests.rs`) are left out.
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    let mut found = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).unwrap().with_extension("");
            let mut segments: Module = relative
                .iter()
                .map(|s| s.to_str().unwrap().to_string())
                .collect();
            if matches!(
                segments.last().map(String::as_str),
                Some("lib" | "main" | "mod")
            ) {
                segments.pop();
            }
            // A `tests.rs` file is a `#[cfg(test)] mod tests` block kept apart: left out, as
            // the blocks inside a file are.
            if segments.last().is_some_and(|s| s == "tests") {
                continue;
            }
            found.insert(segments, path);
        }
    }
    found
}

/// The code of a file without comments and without its `#[cfg(test)] mod tests` block.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path `code` names from `crate` or `super`, as segments from the crate root (groups
/// in braces expanded: `crate::a::{b, c::d}` names `a::b` and `a::c::d`).
fn named_paths(code: &str, module: &[String]) -> Vec<Module> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let rest = &code[at..];
        let start = ["crate::", "super::"]
            .iter()
            .filter_map(|p| rest.find(p))
            .min();
        let Some(start) = start else { break };
        let begin = at + start;
        let word_before = begin > 0 && {
            let c = bytes[begin - 1];
            c.is_ascii_alphanumeric() || c == b'_'
        };
        // The whole path: identifiers, `::`, and brace groups.
        let mut end = begin;
        let mut depth = 0usize;
        while end < bytes.len() {
            let c = bytes[end];
            let inside = c.is_ascii_alphanumeric() || c == b'_' || c == b':';
            let grouping = c == b'{' || (depth > 0 && (c == b',' || c.is_ascii_whitespace()));
            if c == b'}' && depth > 0 {
                depth -= 1;
                end += 1;
                continue;
            }
            if c == b'{' {
                depth += 1;
            }
            if !(inside || grouping) {
                break;
            }
            end += 1;
        }
        if !word_before {
            expand(&code[begin..end], &mut Vec::new(), &mut found);
        }
        at = end.max(begin + 1);
    }
    found
        .into_iter()
        .map(|path| absolute(&path, module))
        .collect()
}

/// Splits `a::b::{c, d::{e, f}}` into `a::b::c`, `a::b::d::e`, `a::b::d::f`.
fn expand(text: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let text = text.trim();
    match text.find('{') {
        None => {
            let mut path = prefix.clone();
            path.extend(
                text.split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(String::from),
            );
            out.push(path);
        }
        Some(open) => {
            let head: Vec<String> = text[..open]
                .split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            let close = text.rfind('}').unwrap_or(text.len());
            let inner = &text[open + 1..close];
            let mut depth = 0;
            let mut item_start = 0;
            let mut items = Vec::new();
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        items.push(&inner[item_start..i]);
                        item_start = i + 1;
                    }
                    _ => {}
                }
            }
            items.push(&inner[item_start..]);
            let base = prefix.len();
            prefix.extend(head);
            for item in items.into_iter().filter(|i| !i.trim().is_empty()) {
                expand(item, prefix, out);
            }
            prefix.truncate(base);
        }
    }
}

/// A path starting with `crate` or `super` (seen from `module`), from the crate root.
fn absolute(path: &[String], module: &[String]) -> Module {
    let mut resolved: Module = Vec::new();
    for (i, segment) in path.iter().enumerate() {
        match segment.as_str() {
            "crate" if i == 0 => resolved.clear(),
            "super" if i == 0 => {
                resolved = module.to_vec();
                resolved.pop();
            }
            "super" => {
                resolved.pop();
            }
            "self" => {}
            _ => resolved.push(segment.clone()),
        }
    }
    resolved
}

/// The module a path lands in: its longest prefix that is a module.
fn owner<'a>(path: &[String], modules: &'a BTreeMap<Module, PathBuf>) -> Option<&'a Module> {
    (0..=path.len())
        .rev()
        .find_map(|k| modules.get_key_value(&path[..k]).map(|(m, _)| m))
}

/// The circles (strongly connected components of two or more modules) of the crate at `src`,
/// each as its sorted module names.
fn circles(src: &Path) -> Vec<Vec<String>> {
    let modules = modules(src);
    let mut edges: BTreeMap<&Module, BTreeSet<&Module>> = BTreeMap::new();
    for (module, file) in &modules {
        let targets = edges.entry(module).or_default();
        for path in named_paths(&code(file), module) {
            if let Some(target) = owner(&path, &modules) {
                if target != module && !target.is_empty() {
                    targets.insert(target);
                }
            }
        }
    }
    // Tarjan's algorithm, iteratively small enough to write recursively.
    struct Tarjan<'a> {
        edges: &'a BTreeMap<&'a Module, BTreeSet<&'a Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on_stack: BTreeSet<&'a Module>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a Module) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for &w in &self.edges[v] {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on_stack.remove(w);
                    component.push(w.join("::"));
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut tarjan = Tarjan {
        edges: &edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for module in edges.keys() {
        if !tarjan.index.contains_key(module) {
            tarjan.visit(module);
        }
    }
    tarjan.found.sort();
    tarjan.found
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every crate's source folder: `crates/*/src` and the page's `web/wasm/src`.
fn source_folders() -> Vec<String> {
    let mut folders: Vec<String> = std::fs::read_dir(workspace().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("src").is_dir())
        .map(|p| format!("crates/{}/src", p.file_name().unwrap().to_str().unwrap()))
        .collect();
    folders.push("web/wasm/src".to_string());
    folders.sort();
    folders
}

/// The floors of `crates/nqueens/src`, bottom first: the top-level modules on each (`""` is the
/// crate root).
const NQUEENS_FLOORS: &[&[&str]] = &[
    &["board"],
    &["formats"],
    &["engine"],
    &["engines"],
    &["instances"],
    &["runs"],
    &["methods"],
    &["trace"],
    &["error", ""],
];

/// The floors of `crates/nqueens-cli/src`, bottom first.
const CLI_FLOORS: &[&[&str]] = &[
    &["progress", "interrupt", "status"],
    &["gpu", "output"],
    &["args"],
    &["commands"],
    &[""],
];

/// Every import of the crate at `src` that runs from a floor to a higher one, as
/// `from → to`; a top-level module on no floor is reported too.
fn imports_back_up(src: &Path, floors: &[&[&str]]) -> Vec<String> {
    let modules = modules(src);
    let floor = |module: &Module| {
        let top = module.first().map_or("", String::as_str);
        floors.iter().position(|f| f.contains(&top))
    };
    let mut found = Vec::new();
    for (module, file) in &modules {
        let Some(from) = floor(module) else {
            found.push(format!("{} stands on no floor", module.join("::")));
            continue;
        };
        for path in named_paths(&code(file), module) {
            let Some(target) = owner(&path, &modules) else {
                continue;
            };
            if floor(target).is_some_and(|to| to > from) {
                found.push(format!("{} → {}", module.join("::"), path.join("::")));
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn no_import_runs_back_up() {
    let mut found = Vec::new();
    for (folder, floors) in [
        ("crates/nqueens/src", NQUEENS_FLOORS),
        ("crates/nqueens-cli/src", CLI_FLOORS),
    ] {
        for import in imports_back_up(&workspace().join(folder), floors) {
            found.push(format!("{folder}: {import}"));
        }
    }
    assert!(
        found.is_empty(),
        "imports from a lower floor to a higher one (move what the lower needs below it):\n{}",
        found.join("\n")
    );
}

/// Writes `text` to the file `name` under `src`, making its folders.
fn write_source(src: &Path, name: &str, text: &str) {
    let path = src.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The floor check finds an import up, through `super` too, and none down.
#[test]
fn the_floor_check_sees_imports_up() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |name: &str, text: &str| write_source(src, name, text);
    write("lib.rs", "mod low;\nmod high;\n");
    write("low/mod.rs", "mod part;\nuse crate::high::Thing;\n");
    write("low/part.rs", "use super::Other;\n");
    write("high.rs", "use crate::low::part::X;\n");
    let floors: &[&[&str]] = &[&["low"], &["high"], &[""]];
    assert_eq!(imports_back_up(src, floors), ["low → high::Thing"]);
    write("odd.rs", "");
    assert_eq!(
        imports_back_up(src, floors),
        ["low → high::Thing", "odd stands on no floor"]
    );
}

#[test]
fn no_module_reaches_itself() {
    let mut found = Vec::new();
    for folder in source_folders() {
        for circle in circles(&workspace().join(&folder)) {
            found.push(format!("{folder}: {}", circle.join(" → ")));
        }
    }
    assert!(
        found.is_empty(),
        "module circles (move what both sides share into a module of its own):\n{}",
        found.join("\n")
    );
}

/// The checker finds what it should: a circle through `use` groups, through `super`, and
/// through a path in code; none for layers; nothing from comments or test blocks.
#[test]
fn the_checker_sees_circles_through_every_kind_of_name() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |name: &str, text: &str| write_source(src, name, text);
    write("lib.rs", "mod a;\nmod b;\nmod c;\nmod d;\n");
    write("a.rs", "use crate::{b::Thing, c};\n");
    write("b.rs", "fn f() { crate::a::g(); }\n");
    write("c.rs", "// crate::d::x\n");
    write(
        "d/mod.rs",
        "mod e;\n#[cfg(test)]\nmod tests { use crate::c::y; }\n",
    );
    write("d/e.rs", "use super::super::c::z;\n");
    assert_eq!(circles(src), [vec!["a".to_string(), "b".to_string()]]);
    write("c.rs", "use crate::d::e::Z;\n");
    assert_eq!(circles(src).len(), 2, "{:?}", circles(src));
}
