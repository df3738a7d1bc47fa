//! Flag groups shared by the subcommands: the board (`N`, `--fix`, `--block`, `--fix-file`), the method
//! (`--method`, `--seed`, `--stats`, `--progress`) and the output (`--format`, `--output`, SVG
//! style).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use nqueens_solver::engines::sat::Encoding;
use nqueens_solver::formats::partial;
use nqueens_solver::formats::read::{self, Notation};
use nqueens_solver::formats::render::{Colour, Format, SvgStyle};
use nqueens_solver::methods::{Config, Method};
use nqueens_solver::{Engine, Job, Problem, Queen};

pub use nqueens_bench::{method_parser, parse_n, time_limit_parser};

use crate::output;
use crate::progress::ProgressLine;

/// The board: its size, the queens already placed and the squares blocked.
#[derive(Debug, Args)]
pub struct BoardArgs {
    /// Board size: n queens on an n×n board. May be left out when --fix-file gives it.
    #[arg(value_name = "N", value_parser = parse_n, allow_negative_numbers = true)]
    pub n: Option<u32>,

    /// Keep a queen on this square (1-based ROW:COL, 1:1 is the top-left corner). Repeatable.
    #[arg(long = "fix", value_name = "ROW:COL", value_parser = parse_square)]
    pub fix: Vec<Queen>,

    /// Block this square: no queen may stand there (1-based ROW:COL; blocked n-Queens).
    /// Repeatable; combines with --fix.
    #[arg(long = "block", value_name = "ROW:COL", value_parser = parse_square)]
    pub block: Vec<Queen>,

    /// Read the board from a file (`-` reads standard input): its queens are kept and its
    /// blocked squares blocked. Any board the tool writes reads back: a partial board (first
    /// line n, then one ROW:COL per line and !ROW:COL for a blocked square, or n drawn rows of
    /// Q, x and .; lines starting with # are comments), a board drawn by the unicode, ascii or
    /// matrix format, a line of the json, coords or permutation format, or a CSPLib instance.
    #[arg(long, value_name = "PATH")]
    pub fix_file: Option<PathBuf>,

    /// Read a CSPLib instance (`-` reads standard input): an Essence parameter file of blocked
    /// n-Queens (`letting n = 28`, `letting blocks = [[1,1], ...]`, 1-based [row, column]) or
    /// an excluded-diagonals file (`n = 15`, `diags = [[14, 0], ...]`, where [d, 1] excludes the
    /// diagonal row + column = d and [d, 0] the diagonal row − column = d − (n − 1), rows and
    /// columns counted from 0). --fix-file reads these too.
    #[arg(long, value_name = "PATH", conflicts_with = "fix_file")]
    pub instance: Option<PathBuf>,

    /// For an excluded-diagonals instance: exclude only its first K diagonals (every prefix of
    /// the list is an instance of its own).
    #[arg(long, value_name = "K")]
    pub diagonals: Option<usize>,
}

impl BoardArgs {
    /// The problem the flags describe: N (or the file's n) with every fixed queen.
    pub fn problem(&self) -> Result<Problem> {
        let mut queens = Vec::new();
        let mut blocked = Vec::new();
        let mut n = self.n;
        let file = self.instance.as_ref().or(self.fix_file.as_ref());
        if self.diagonals.is_some() && file.is_none() {
            bail!("--diagonals takes the diagonals of an instance file: give --instance PATH");
        }
        if let Some(path) = file {
            let board = read_board(path, self.diagonals, self.instance.is_some())?;
            match n {
                Some(n) if n != board.n => {
                    bail!(
                        "N is {n} but {} describes {}",
                        output::display_name(path),
                        nqueens_solver::board::ABoard(board.n)
                    )
                }
                _ => n = Some(board.n),
            }
            queens.extend(board.queens);
            blocked.extend(board.blocked);
        }
        queens.extend(self.fix.iter().copied());
        blocked.extend(self.block.iter().copied());
        let Some(n) = n else {
            bail!("give the board size N (or a --fix-file, whose first line is n)")
        };
        Ok(Problem::with_blocks(n, queens, blocked)?)
    }
}

/// The board a file describes, in any notation the library reads ([`read::board`]); with
/// `instance` (`--instance`) the file must be a CSPLib instance.
pub fn read_board(
    path: &Path,
    diagonals: Option<usize>,
    instance: bool,
) -> Result<partial::PartialBoard> {
    let (name, text) = output::read_input(path, partial::MAX_BYTES, "a board file")?;
    let notation = read::notation(&text);
    if notation != Notation::Instance {
        if instance {
            bail!(
                "{name} is {notation}, not a CSPLib instance (letting n = ..., letting blocks = ... or n = ..., diags = ...): give it with --fix-file"
            );
        }
        if diagonals.is_some() {
            bail!(
                "--diagonals takes the diagonals of an excluded-diagonals instance, and {name} is {notation}"
            );
        }
    }
    read::board(&text, read::Options { diagonals }).with_context(|| name)
}

/// The methods other than `auto` and `refused` whose own check accepts `job` on `problem`, in
/// the order of [`Method::ALL`].
pub fn methods_able(
    job: Job,
    problem: &Problem,
    config: &Config,
    refused: &str,
) -> Vec<&'static str> {
    Method::ALL
        .iter()
        .filter(|&&m| m != Method::Auto && m.name() != refused)
        .filter(|m| m.build(job, problem, config).check(job, problem).is_ok())
        .map(|m| m.name())
        .collect()
}

pub fn parse_square(text: &str) -> Result<Queen, String> {
    partial::parse_square(text).map_err(|e| e.reason.to_string())
}

/// A value parser for `--encoding`.
pub fn encoding_parser() -> impl TypedValueParser<Value = Encoding> {
    PossibleValuesParser::new(Encoding::ALL.iter().map(|e| PossibleValue::new(e.name())))
        .map(|name| name.parse::<Encoding>().expect("a listed encoding"))
}

fn format_parser() -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(
        Format::ALL
            .iter()
            .map(|f| PossibleValue::new(f.name()).help(f.about())),
    )
    .map(|name| name.parse::<Format>().expect("a listed format"))
}

/// How to solve: the method and what to report about it.
#[derive(Debug, Args)]
pub struct MethodArgs {
    /// The method to use.
    #[arg(long, short, value_name = "METHOD", default_value = "auto", value_parser = method_parser())]
    pub method: Method,

    /// Seed for methods with randomness (the same seed gives the same run).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Print the method that ran, the time and its counters (nodes, ...) on stderr.
    #[arg(long)]
    pub stats: bool,

    /// Show progress on stderr even when it is not a terminal (on a terminal it is shown for
    /// runs longer than a second anyway).
    #[arg(long)]
    pub progress: bool,

    /// The CNF encoding of the sat method: the pairwise encoding (one clause per attacking pair) or the compact
    /// sequential counter (for large boards).
    #[arg(long, value_name = "ENCODING", default_value = "pairwise", value_parser = encoding_parser())]
    pub encoding: Encoding,

    /// Give up after SECS seconds of search (exit 3, "gave up at the limit"); fractions allowed.
    #[arg(long, value_name = "SECS", value_parser = time_limit_parser)]
    pub time_limit: Option<Duration>,
}

/// Parses a count that must be at least 1 (`--limit`, `--svg-columns`), with a message people
/// read at a glance instead of clap's "0 is not in 1..18446744073709551615".
pub fn at_least_one(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(k) => Ok(k),
        Err(_) => Err("expected a whole number, like 10".into()),
    }
}

/// [`at_least_one`] for a `u32`.
pub fn at_least_one_u32(text: &str) -> Result<u32, String> {
    let k = at_least_one(text)?;
    u32::try_from(k).map_err(|_| format!("must be at most {}", u32::MAX))
}

impl MethodArgs {
    /// The settings to build engines with, and the progress display (if any) they report to.
    pub fn config(&self, threads: usize) -> (Config, Option<ProgressLine>) {
        let line = ProgressLine::for_stderr(self.progress);
        let mut config = Config::default();
        config.threads = threads;
        config.seed = self.seed;
        config.progress = line.as_ref().map(ProgressLine::sink);
        config.encoding = self.encoding;
        config.limits.time = self.time_limit;
        config.limits.stop = crate::interrupt::stop_flag();
        let unit = if self.method == Method::Sat {
            "conflicts"
        } else {
            "nodes"
        };
        config.limits.work = line.as_ref().map(|line| line.work(unit));
        (config, line)
    }

    /// The checked engine for `job` on `problem` ([`Method::engine_for`]). A refusal names the
    /// methods that can do the job on this board, each checked the same way, so that the
    /// advice works when followed; when none can and the user left the choice to `auto`, the
    /// message names no method at all.
    pub fn engine_for(
        &self,
        job: Job,
        problem: &Problem,
        config: &Config,
    ) -> Result<Box<dyn Engine>> {
        self.method
            .engine_for(job, problem, config)
            .map_err(|err| self.with_advice(err, job, problem, config))
    }

    /// A refusal with the methods that can do `job` on `problem` instead (see
    /// [`engine_for`](Self::engine_for)); other errors unchanged.
    pub fn with_advice(
        &self,
        err: nqueens_solver::EngineError,
        job: Job,
        problem: &Problem,
        config: &Config,
    ) -> anyhow::Error {
        let refused = match &err {
            nqueens_solver::EngineError::Unsupported { method, .. }
            | nqueens_solver::EngineError::TooLarge { method, .. } => *method,
            _ => return err.into(),
        };
        let able = methods_able(job, problem, config, refused);
        match (able.as_slice(), &err) {
            ([], nqueens_solver::EngineError::Unsupported { job, reason, .. })
                if self.method == Method::Auto =>
            {
                anyhow::anyhow!("cannot {job}: {reason} (no method can)")
            }
            ([], _) => anyhow::anyhow!("{err} (no other method can either)"),
            ([one], _) => anyhow::anyhow!("{err} (--method {one} can)"),
            ([rest @ .., last], _) => {
                anyhow::anyhow!("{err} (--method {} or {last} can)", rest.join(", "))
            }
        }
    }

    /// Prints `symmetries=...` on stderr when `--stats` was given: the rotations and
    /// reflections a count or list up to symmetry used on `problem` (those that map its fixed
    /// queens and blocked squares onto themselves).
    pub fn report_symmetries(&self, problem: &Problem) {
        if self.stats {
            eprintln!(
                "symmetries={}",
                nqueens_solver::board::symmetry::Group::of(problem).describe()
            );
        }
    }

    /// Prints `method=... elapsed=... <counters>` on stderr when `--stats` was given.
    pub fn report(&self, engine: &dyn Engine, elapsed: Duration) {
        if self.stats {
            let stats = engine.stats();
            let sep = if stats.is_empty() { "" } else { " " };
            eprintln!(
                "method={} elapsed={:.3}s{sep}{stats}",
                engine.name(),
                elapsed.as_secs_f64()
            );
        }
    }
}

/// Where and how solutions are written.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output format [default: from the --output extension (.svg, .json, .jsonl, .txt), else
    /// unicode].
    #[arg(long, short, value_name = "FORMAT", value_parser = format_parser())]
    pub format: Option<Format>,

    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,

    #[command(flatten)]
    pub svg: SvgArgs,
}

impl OutputArgs {
    /// The format asked for, or the one the output file's extension implies (none, `.txt`:
    /// unicode). Any other extension needs --format: `-o board.png` would otherwise get text
    /// in a file named as a picture.
    pub fn format(&self) -> Result<Format> {
        if let Some(format) = self.format {
            return Ok(format);
        }
        let Some(extension) = self.output.as_deref().and_then(Path::extension) else {
            return Ok(Format::Unicode);
        };
        let lower = extension.to_string_lossy().to_ascii_lowercase();
        match lower.as_str() {
            "svg" => Ok(Format::Svg),
            "json" | "jsonl" => Ok(Format::Json),
            "txt" | "text" => Ok(Format::Unicode),
            _ => anyhow::bail!(
                "--output {}: no format writes .{} files (the extension picks svg for .svg, json for .json and .jsonl, unicode for .txt); give --format to write another",
                self.output.as_deref().unwrap_or(Path::new("")).display(),
                extension.to_string_lossy()
            ),
        }
    }
}

impl OutputArgs {
    /// The format for an n-row board: as [`format`](Self::format), except that a board too large
    /// to draw gets `permutation` when no format was asked for, and an error (naming the formats
    /// that work) when a grid format was.
    pub fn format_for(&self, n: u32) -> Result<Format> {
        let format = self.format()?;
        let implied = self.format.is_none() && format == Format::Unicode;
        if implied && format.check_size(n).is_err() {
            return Ok(Format::Permutation);
        }
        format.check_size(n).map_err(|too_large| {
            anyhow::anyhow!(
                "{} use --format permutation, coords or json",
                too_large.limit()
            )
        })?;
        Ok(format)
    }
}

/// The look of SVG output.
#[derive(Debug, Args)]
#[command(next_help_heading = "SVG output")]
pub struct SvgArgs {
    /// Boards per row when several solutions are drawn.
    #[arg(long, value_name = "K", default_value_t = 4, value_parser = at_least_one_u32)]
    pub svg_columns: u32,
    /// Side of a square in pixels.
    #[arg(long, value_name = "PX", default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub svg_cell: u32,
    /// Space around and between boards in pixels.
    #[arg(long, value_name = "PX", default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub svg_margin: u32,
    /// Colour of light squares (#rgb, #rrggbb or a name).
    #[arg(long, value_name = "COLOUR", default_value = "#f0d9b5")]
    pub svg_light: Colour,
    /// Colour of dark squares.
    #[arg(long, value_name = "COLOUR", default_value = "#b58863")]
    pub svg_dark: Colour,
    /// Colour of queens.
    #[arg(long, value_name = "COLOUR", default_value = "#1a1a1a")]
    pub svg_queen: Colour,
    /// Colour of the queens fixed by --fix or --fix-file.
    #[arg(long, value_name = "COLOUR", default_value = "#b3261e")]
    pub svg_fixed: Colour,
}

impl SvgArgs {
    /// The style these flags describe.
    pub fn style(&self) -> SvgStyle {
        SvgStyle {
            cell: self.svg_cell,
            margin: self.svg_margin,
            columns: self.svg_columns,
            light: self.svg_light.clone(),
            dark: self.svg_dark.clone(),
            queen: self.svg_queen.clone(),
            fixed: self.svg_fixed.clone(),
        }
    }
}

/// The default thread count: every core.
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
