//! The flags of `nqueens bench` ([`BenchArgs`]) and the values they take: board sizes as a
//! list or a range with a step ([`Sizes`]), seconds.

use std::path::PathBuf;

use clap::Args;
use nqueens_solver::methods::Method;

use crate::cell::BenchJob;
use crate::values::{method_parser, parse_n};

/// Compare the methods on the same work: a table, CSV and an SVG plot (exit 1 on a wrong answer).
///
/// Runs workloads × methods × n, each in a fresh process on one thread with a time limit, reports
/// the median time (min–max over the repeats) and the peak memory, and cross-checks every
/// answer: solutions through the verifier, counts against each other and OEIS. Exits 1 if any
/// answer is wrong or two disagree.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// A small matrix that finishes in well under a minute (n = 6, 8, 10; 3 repeats; 5 s limit).
    #[arg(long, conflicts_with = "scale")]
    pub quick: bool,
    /// The big picture, for the plot (several minutes): solve over n = 10 … 10^7 (10, 30, 100,
    /// 300, …), count over n = 8 … 16, completion over n = 8 … 32 with 10%, 25% and 50% of the
    /// rows fixed, blocked over n = 8 … 28; 3 repeats, 10 s limit. Each method runs up to its
    /// own size limit or the time limit.
    #[arg(long)]
    pub scale: bool,
    // Named for what is measured: cargo and make users read `--jobs` as parallelism, so the
    // old name is only a hidden alias. (`--tasks` would clash with the counter's tasks.)
    /// Workloads to run, comma-separated [default: all].
    #[arg(
        long = "workloads",
        alias = "jobs",
        value_name = "WORKLOAD",
        value_delimiter = ','
    )]
    pub jobs: Vec<BenchJob>,
    /// Methods to compare, comma-separated [default: every method but auto].
    #[arg(long, value_name = "METHOD", value_delimiter = ',', value_parser = method_parser())]
    pub methods: Vec<Method>,
    // `--n` (a long flag with a one-letter name) is the hidden old alias.
    /// Board sizes: a list like 6,8,10, a range like 4-12, or a range with a step like 4-16:2
    /// [default: 6-14:2, or 6-10:2 with --quick, or per workload with --scale].
    #[arg(long = "sizes", alias = "n", value_name = "SIZES", value_parser = parse_sizes)]
    pub sizes: Option<Sizes>,
    /// Runs per cell; the median is reported [default: 5, or 3 with --quick or --scale].
    #[arg(long, short = 'r', value_name = "R", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeats: Option<u32>,
    /// Time limit per run in seconds; a method that hits it is not run on larger n
    /// [default: 30, or 5 with --quick, or 10 with --scale].
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<f64>,
    /// Share of the rows whose queen the completion boards fix, in percent, comma-separated:
    /// one plot panel each [default: 25, or 10,25,50 with --scale].
    #[arg(long, value_name = "PERCENT", value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=99))]
    pub fixed: Vec<u32>,
    /// Instead of the matrix, the completion phase-transition study: for each size (--sizes,
    /// default 50,100,200,500) and share of rows with a queen (--ratios), draw instances by
    /// random sequential placement and time every method that can complete them (--methods,
    /// default all that can, auto included); writes the share of completable instances and
    /// each method's median and 95th-percentile time (--csv, --svg).
    #[arg(long, conflicts_with_all = ["scale", "jobs", "fixed", "repeats"])]
    pub completion_study: bool,
    /// The study's shares of rows with a queen, in percent: a list or a range with a step
    /// [default: 5-95:5, or 20-80:20 with --quick].
    #[arg(long, value_name = "PERCENTS", value_parser = parse_sizes, requires = "completion_study")]
    pub ratios: Option<Sizes>,
    /// The study's instances per size and share [default: 10, or 3 with --quick].
    #[arg(long, value_name = "I", value_parser = clap::value_parser!(u32).range(1..=10_000), requires = "completion_study")]
    pub instances: Option<u32>,
    /// Seed of the random partial boards of the completion workload.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Write one CSV row per workload × method × n (the `job` column) to this file.
    #[arg(long, value_name = "PATH")]
    pub csv: Option<PathBuf>,
    /// Draw time against n (log scale), one line per method and a panel per workload, to this SVG file.
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
}

/// Board sizes for `--sizes`.
#[derive(Clone, Debug)]
pub struct Sizes(pub(crate) Vec<u32>);

fn parse_sizes(text: &str) -> Result<Sizes, String> {
    let mut sizes = Vec::new();
    for part in text.split(',').map(str::trim) {
        let (range, step) = match part.split_once(':') {
            Some((range, step)) => (range, parse_n(step).map_err(|e| format!("step: {e}"))?),
            None => (part, 1),
        };
        match range.split_once('-') {
            Some((low, high)) => {
                let (low, high) = (parse_n(low)?, parse_n(high)?);
                if low > high {
                    return Err(format!("the range {low}-{high} is empty"));
                }
                sizes.extend((low..=high).step_by(step as usize));
            }
            None => sizes.push(parse_n(range)?),
        }
    }
    sizes.sort_unstable();
    sizes.dedup();
    Ok(Sizes(sizes))
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err("expected a number of seconds between 0 and 86400, like 2.5".into()),
    }
}
