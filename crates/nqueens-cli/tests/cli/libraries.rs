//! The library crates as a user of one meets them: what their manifests tell docs.rs, what
//! their documentation says about building them from another crate.

use std::path::{Path, PathBuf};

/// The library crates' folders and package names.
const LIBRARIES: &[(&str, &str)] = &[
    ("support", "nqueens-support"),
    ("exact-cover", "nqueens-exact-cover"),
    ("sat", "nqueens-sat"),
    ("cp", "nqueens-cp"),
    ("nqueens", "nqueens-solver"),
];

fn crate_dir(folder: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join("crates")
        .join(folder)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines of a TOML table, from its header to the next one.
fn table<'a>(manifest: &'a str, header: &str) -> Option<Vec<&'a str>> {
    let mut lines = manifest.lines().skip_while(|l| l.trim() != header);
    lines.next()?;
    Some(
        lines
            .take_while(|l| !l.trim_start().starts_with('['))
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect(),
    )
}

/// A crate with features asks docs.rs to build them all, or what they gate (support's
/// `interrupt`, behind `signals`) is missing from its documentation.
#[test]
fn a_library_with_features_is_documented_with_all_of_them() {
    let mut with_features = Vec::new();
    for (folder, package) in LIBRARIES {
        let manifest = read(&crate_dir(folder).join("Cargo.toml"));
        if table(&manifest, "[features]").is_none_or(|lines| lines.is_empty()) {
            continue;
        }
        with_features.push(*package);
        let docs_rs = table(&manifest, "[package.metadata.docs.rs]")
            .unwrap_or_else(|| panic!("{package} has features but no [package.metadata.docs.rs]"));
        assert!(
            docs_rs.contains(&"all-features = true"),
            "{package}: docs.rs metadata without all-features = true: {docs_rs:?}"
        );
    }
    assert_eq!(with_features, ["nqueens-support"]);
}

/// The workspace's `opt-level = 3` for its libraries in debug builds does not reach a crate
/// that depends on them: each library's README says so and gives the sections to copy, one
/// per package it builds on, each also in the workspace's manifest.
#[test]
fn each_library_readme_gives_the_profile_a_dependent_needs() {
    let workspace = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.toml"));
    for (folder, package) in LIBRARIES {
        let readme = read(&crate_dir(folder).join("README.md"));
        assert!(
            readme.contains("does not reach")
                || readme.contains("only from the root manifest of the workspace"),
            "{package}'s README does not say that the workspace's profile stays behind"
        );
        let manifest = read(&crate_dir(folder).join("Cargo.toml"));
        let mut needs = vec![*package];
        needs.extend(
            LIBRARIES
                .iter()
                .map(|(_, p)| *p)
                .filter(|p| manifest.contains(&format!("{p}.workspace = true"))),
        );
        if manifest.contains("exact-cover.workspace") {
            needs.push("nqueens-exact-cover");
        }
        if manifest.contains("\nsat.workspace") {
            needs.push("nqueens-sat");
        }
        if manifest.contains("\ncp.workspace") {
            needs.push("nqueens-cp");
        }
        for need in needs {
            let section = format!("[profile.dev.package.{need}]\nopt-level = 3");
            assert!(
                readme.contains(&section),
                "{package}'s README lacks\n{section}"
            );
            assert!(
                workspace.contains(&section),
                "the workspace lacks\n{section}"
            );
        }
    }
}
