//! `nqueens completions` and `nqueens man`: generated from the same definitions as the parser.
//! (`scripts/test-shell-docs.sh` also renders every page with `man -l` and parses the zsh and
//! fish scripts with those shells.)

use std::process::Command as StdCommand;

use crate::util::{assert_usage_error, run};

/// The visible subcommands, as `--help` lists them.
fn commands() -> Vec<String> {
    let (code, stdout, _) = run(&["--help"]);
    assert_eq!(code, 0);
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| l.as_bytes().get(2).is_some_and(u8::is_ascii_lowercase))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|name| name != "help")
        .collect()
}

#[test]
fn completions_cover_every_command_and_bash_parses_them() {
    let names = commands();
    assert!(names.len() >= 12, "{names:?}");
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (code, script, stderr) = run(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {stderr}");
        for name in &names {
            assert!(
                script.contains(name.as_str()),
                "{shell} script lacks {name}"
            );
        }
    }
    let (_, script, _) = run(&["completions", "bash"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nqueens.bash");
    std::fs::write(&path, &script).unwrap();
    let status = StdCommand::new("bash")
        .arg("-n")
        .arg(&path)
        .status()
        .expect("bash runs");
    assert!(status.success(), "bash -n rejects the completion script");
    assert_usage_error(&["completions", "tcsh"], "invalid value 'tcsh'");
}

#[test]
fn man_pages_name_every_command_and_flag() {
    let (code, page, _) = run(&["man"]);
    assert_eq!(code, 0);
    assert!(page.contains(".TH nqueens 1"), "{page}");
    for name in commands() {
        let roff_name = name.replace('-', "\\-");
        assert!(page.contains(&roff_name), "the main page lacks {name}");
        let (code, sub, stderr) = run(&["man", &name]);
        assert_eq!(code, 0, "{name}: {stderr}");
        assert!(
            sub.contains(&format!(".TH nqueens-{name} 1")),
            "{name}: {sub}"
        );
        assert!(
            sub.contains(env!("CARGO_PKG_VERSION")),
            "{name}: no version"
        );
    }
    let (_, count, _) = run(&["man", "count"]);
    for flag in ["checkpoint", "shard", "unique", "time\\-limit"] {
        assert!(count.contains(flag), "count's page lacks --{flag}");
    }
    assert_usage_error(
        &["man", "nope"],
        "no command 'nope' (commands: solve, list, count",
    );
}

#[test]
fn version_names_the_features() {
    let (code, stdout, _) = run(&["--version"]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with(&format!(
            "nqueens {} (features: ",
            env!("CARGO_PKG_VERSION")
        )),
        "{stdout}"
    );
}

#[test]
fn misspelt_commands_and_flags_get_a_suggestion() {
    assert_usage_error(
        &["cuont", "8"],
        "unrecognized subcommand 'cuont'; did you mean 'count'?",
    );
    assert_usage_error(&["count", "8", "--uniqe"], "did you mean '--unique'?");
}

/// A full disk or a closed file ends both generators with the same one-line error, never a
/// panic (the completion generator used to panic, exit 101).
#[test]
fn completions_and_man_say_they_cannot_write_standard_output() {
    for args in [
        &["completions", "bash"][..],
        &["man"],
        &["completions", "zsh"],
    ] {
        let output = StdCommand::new(env!("CARGO_BIN_EXE_nqueens"))
            .args(args)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(
            stderr, "error: cannot write standard output: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}
