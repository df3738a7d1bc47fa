//! The workspace as `cargo` at its root sees it: what the README's main job,
//! `cargo run --release -- count 12`, builds.

use std::path::Path;
use std::process::Command;

/// `cargo run` at the root runs the CLI, and builds that binary and what it needs. Without a
/// `default-run`, cargo builds every default member's libraries before it picks the one binary
/// to run: the Python module and the page's host crate too, each a cdylib with fat LTO in
/// release (two of the main job's longest compiles, for nothing the count uses).
#[test]
fn cargo_run_at_the_root_builds_the_cli_alone() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let defaults = metadata["workspace_default_members"].as_array().unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let runs: Vec<(&str, &str)> = packages
        .iter()
        .filter(|p| defaults.contains(&p["id"]))
        .filter_map(|p| Some((p["name"].as_str()?, p["default_run"].as_str()?)))
        .collect();
    assert_eq!(runs, [("nqueens-cli", "nqueens")]);
    // What it leaves out: default members that are not the CLI's dependencies.
    let cdylibs = packages
        .iter()
        .filter(|p| defaults.contains(&p["id"]))
        .filter(|p| {
            p["targets"].as_array().unwrap().iter().any(|t| {
                t["crate_types"]
                    .as_array()
                    .unwrap()
                    .contains(&"cdylib".into())
            })
        })
        .count();
    assert_eq!(cdylibs, 2, "the Python module and the page's host crate");
}
