//! `nqueens man`: the manual page, generated from the same definitions that parse the command
//! line, so the page and `--help` say the same.

use anyhow::{Context, Result, bail};
use clap::Args;

use crate::status::Status;

/// Print the manual page (roff) of nqueens or of one of its commands.
///
/// Read it with `nqueens man | man -l -`, or install it:
///   nqueens man > /usr/local/share/man/man1/nqueens.1
///   nqueens man count > /usr/local/share/man/man1/nqueens-count.1
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ManArgs {
    /// A command whose own page to print (solve, count, ...); none: the main page.
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

/// Writes the page of `root` (the whole command-line definition, from `main`), or of one of
/// its commands, to standard output ("cannot write standard output: ..." when it cannot).
pub fn run(args: ManArgs, root: clap::Command) -> Result<Status> {
    let page = match &args.command {
        None => root,
        Some(name) => {
            let Some(sub) = root.find_subcommand(name) else {
                let names: Vec<&str> = root
                    .get_subcommands()
                    .filter(|c| !c.is_hide_set())
                    .map(|c| c.get_name())
                    .collect();
                bail!("no command '{name}' (commands: {})", names.join(", "));
            };
            sub.clone()
                .name(format!("nqueens-{name}"))
                .version(root.get_version().unwrap_or_default().to_string())
        }
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut roff)
        .context("rendering the manual page")?;
    crate::output::write_file("-".as_ref(), &roff)?;
    Ok(Status::Success)
}
