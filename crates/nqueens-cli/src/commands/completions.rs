//! `nqueens completions SHELL`: a completion script for the shell, from the same definitions
//! that parse the command line (so it cannot drift from the flags).

use anyhow::Result;
use clap::Args;
use clap_complete::Shell;

use crate::status::Status;

/// Print a shell completion script.
///
/// Load it in the current shell, or install it where your shell looks:
///   source <(nqueens completions bash)
///   nqueens completions zsh > ~/.zfunc/_nqueens
///   nqueens completions fish > ~/.config/fish/completions/nqueens.fish
///   nqueens completions powershell >> $PROFILE
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

/// Writes the script for `command` (the whole command-line definition, from `main`) to
/// standard output: made in memory first, since the generator panics on a write error, then
/// written as `man` writes its page ("cannot write standard output: ...", exit 2).
pub fn run(args: CompletionsArgs, mut command: clap::Command) -> Result<Status> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "nqueens", &mut script);
    crate::output::write_file("-".as_ref(), &script)?;
    Ok(Status::Success)
}
