//! `nqueens bench --completion-study`: where n-Queens completion gets hard, and for whom.
//!
//! For each board size n and each share K/n of queens placed, the study draws seeded instances
//! by random sequential placement ([`sequential_partial`]: queens one at a time on random
//! unattacked squares, the style of Gent, Jefferson and Nightingale's instances), and runs every
//! method that can find a completion of the board, each in a fresh process with a time limit
//! (the bench's own child runner, [`crate::process`]). Every completion found goes through
//! [`nqueens_solver::verify()`]; an instance is *completable* when some method found a verified
//! completion, and *not* when a method proved there is none; a method that claims "none" on a
//! completable instance is a wrong answer and makes the command exit 1.
//!
//! Time per method and point: the median and the 95th percentile (nearest rank) over the
//! instances, a run that did not answer (time-out, or local search giving up) counted at the
//! time limit, so both figures are lower bounds where they reach it. A method that runs out of
//! time on as many runs as there are instances per point is not run on the larger K/n of that
//! size, as `bench` skips larger n.
//!
//! Output: a line per point on standard output, one CSV row per run (`--csv`), and an SVG
//! (`--svg`): the share of completable instances against K/n (one line per n), then one panel
//! per n with each method's median (solid) and 95th percentile (dashed) on a log scale.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use nqueens_solver::instances::generate::{default_attempts, sequential_partial};
use nqueens_solver::methods::{Config, Method};
use nqueens_solver::{Job, Problem, formats::partial};

use crate::cell::{BenchJob, Checked};
use crate::host::{Failure, Files, Verdict};
use crate::report;
use crate::runner::{self, Ran};

/// The study's grid and limits.
#[derive(Clone, Debug)]
pub struct StudyPlan {
    /// Board sizes.
    pub sizes: Vec<u32>,
    /// Shares of the rows holding a queen, in percent.
    pub percents: Vec<u32>,
    /// Instances per size and share.
    pub instances: u32,
    /// Time limit per run.
    pub limit: Duration,
    /// The methods to run (each only where it can find a completion of the board).
    pub methods: Vec<Method>,
    /// Base seed of the instances.
    pub seed: u64,
    /// Where to write the CSV and the SVG.
    pub csv: Option<PathBuf>,
    pub svg: Option<PathBuf>,
}

/// How one run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RunEnd {
    /// A completion, verified.
    Found,
    /// A proof that there is none.
    None,
    /// Over the time limit.
    Timeout,
    /// The method stopped before deciding (local search on a board without completion).
    GaveUp,
    /// The child failed.
    Failed,
    /// An invalid completion, or "none" where a completion exists.
    Wrong,
}

impl RunEnd {
    fn name(self) -> &'static str {
        match self {
            RunEnd::Found => "found",
            RunEnd::None => "none",
            RunEnd::Timeout => "timeout",
            RunEnd::GaveUp => "gave-up",
            RunEnd::Failed => "failed",
            RunEnd::Wrong => "WRONG",
        }
    }
}

/// One method on one instance.
#[derive(Clone, Debug)]
struct Run {
    n: u32,
    percent: u32,
    queens: u32,
    instance: u32,
    seed: u64,
    method: Method,
    end: RunEnd,
    seconds: f64,
    detail: String,
}

/// The seed of instance `i` of size `n` with `k` queens: distinct for every cell of the grid.
fn instance_seed(base: u64, n: u32, k: u32, i: u32) -> u64 {
    base.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(u64::from(n) << 40)
        .wrapping_add(u64::from(k) << 20)
        .wrapping_add(u64::from(i))
}

/// The value at the nearest rank `q` (0 < q ≤ 1) of `values`.
fn quantile(values: &[f64], q: f64) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let len = sorted.len();
    if len == 0 {
        return None;
    }
    let rank = ((q * len as f64).ceil() as usize).clamp(1, len);
    Some(sorted[rank - 1])
}

/// Runs the study; exit 1 on a wrong answer.
pub fn run(plan: &StudyPlan, files: &dyn Files) -> Result<Verdict> {
    let exe = std::env::current_exe().context("cannot find the nqueens executable to re-run")?;
    let load = report::load_average();
    let workdir = tempfile::Builder::new()
        .prefix("nqueens-study-")
        .tempdir()
        .context("cannot create a temporary directory for the study's boards")?;
    let mut runs: Vec<Run> = Vec::new();
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "{:>5} {:>5} {:>5} {:>11}  median / p95 seconds per method",
        "n", "K/n", "K", "completable"
    )?;
    for &n in &plan.sizes {
        let mut timeouts: std::collections::HashMap<Method, u32> = std::collections::HashMap::new();
        for &percent in &plan.percents {
            let k = u32::try_from(u64::from(n) * u64::from(percent) / 100).unwrap_or(n);
            let mut point: Vec<Run> = Vec::new();
            let mut drawn = 0;
            for i in 0..plan.instances {
                let seed = instance_seed(plan.seed, n, k, i);
                let Ok(problem) = sequential_partial(n, k, seed, default_attempts(n)) else {
                    continue;
                };
                drawn += 1;
                let path = workdir.path().join(format!("study-{n}-{k}-{i}.txt"));
                let command = format!(
                    "nqueens gen-completion {n} --queens {k} --method sequential --seed {seed}"
                );
                std::fs::write(&path, partial::write(&problem, &command))
                    .with_context(|| format!("cannot write {}", path.display()))?;
                let mut mine = Vec::new();
                for &method in &plan.methods {
                    if timeouts.get(&method).copied().unwrap_or(0) >= plan.instances {
                        continue;
                    }
                    let engine = method.build(Job::Solve, &problem, &Config::default());
                    if engine.check(Job::Solve, &problem).is_err() {
                        continue;
                    }
                    let (end, seconds, detail) =
                        run_one(&exe, method, &problem, &path, plan.limit)?;
                    if end == RunEnd::Timeout {
                        *timeouts.entry(method).or_default() += 1;
                    }
                    mine.push(Run {
                        n,
                        percent,
                        queens: k,
                        instance: i,
                        seed,
                        method,
                        end,
                        seconds,
                        detail,
                    });
                }
                // "None" where another method found a verified completion is wrong.
                if mine.iter().any(|r| r.end == RunEnd::Found) {
                    for r in &mut mine {
                        if r.end == RunEnd::None {
                            r.end = RunEnd::Wrong;
                            r.detail = "claimed no completion, but another method found one".into();
                        }
                    }
                }
                point.extend(mine);
            }
            writeln!(stdout, "{}", point_line(n, percent, k, drawn, &point, plan))?;
            stdout.flush()?;
            runs.extend(point);
        }
    }
    drop(stdout);

    if let Some(path) = &plan.csv {
        files.write(path, csv(&runs).as_bytes())?;
    }
    if let Some(path) = &plan.svg {
        let caption = format!(
            "{}; {} instances per point by random sequential placement, seed {}; a run without an answer counts at the limit",
            report::machine_caption(1, plan.limit, load.as_deref())
                .replace("median of 1 runs, ", "one run per method and instance, "),
            plan.instances,
            plan.seed
        );
        files.write(path, svg(&runs, plan, &caption).as_bytes())?;
    }
    let bad: Vec<&Run> = runs
        .iter()
        .filter(|r| matches!(r.end, RunEnd::Wrong | RunEnd::Failed))
        .collect();
    if bad.is_empty() {
        eprintln!(
            "bench: completion study: {} runs, every answer checked",
            runs.len()
        );
        return Ok(Verdict::Success);
    }
    for r in &bad {
        eprintln!(
            "bench: {} on n = {}, K = {}, seed {}: {} ({})",
            r.method,
            r.n,
            r.queens,
            r.seed,
            r.end.name(),
            r.detail
        );
    }
    Err(Failure(format!(
        "the completion study found {} wrong or failed runs (listed above)",
        bad.len()
    ))
    .into())
}

/// Runs `method` on the board in `path` in a child process; returns how it ended, the
/// seconds it took (the limit when it did not answer) and a detail for failures.
fn run_one(
    exe: &Path,
    method: Method,
    problem: &Problem,
    path: &Path,
    limit: Duration,
) -> Result<(RunEnd, f64, String)> {
    let run = runner::Run {
        job: BenchJob::Solve,
        method,
        problem,
        fix_file: Some(path),
        limit,
    };
    let limit_s = limit.as_secs_f64();
    Ok(match runner::run_once(exe, &run)? {
        Ran::Answered {
            seconds, answer, ..
        } => match answer {
            Checked::NoSolution => (RunEnd::None, seconds, String::new()),
            Checked::Found => (RunEnd::Found, seconds, String::new()),
            Checked::Invalid(violation) => (RunEnd::Wrong, seconds, violation),
            Checked::Count(_) => (RunEnd::Failed, seconds, "a count".into()),
        },
        Ran::TimedOut { .. } => (RunEnd::Timeout, limit_s, String::new()),
        Ran::GaveUp(reason) => (RunEnd::GaveUp, limit_s, reason),
        Ran::Failed(reason) => (RunEnd::Failed, limit_s, reason),
    })
}

/// Seconds of each instance of a point for one method (no answer: the limit).
fn times(point: &[&Run], method: Method) -> Vec<f64> {
    point
        .iter()
        .filter(|r| r.method == method)
        .map(|r| r.seconds)
        .collect()
}

/// The share of a point's instances with a verified completion, among those decided.
fn completable_share(point: &[&Run]) -> Option<f64> {
    let mut verdicts: BTreeMap<u32, bool> = BTreeMap::new();
    for r in point {
        match r.end {
            RunEnd::Found => {
                verdicts.insert(r.instance, true);
            }
            RunEnd::None => {
                verdicts.entry(r.instance).or_insert(false);
            }
            _ => {}
        }
    }
    (!verdicts.is_empty())
        .then(|| verdicts.values().filter(|&&v| v).count() as f64 / verdicts.len() as f64)
}

fn point_line(n: u32, percent: u32, k: u32, drawn: u32, point: &[Run], plan: &StudyPlan) -> String {
    let refs: Vec<&Run> = point.iter().collect();
    let share = completable_share(&refs)
        .map_or("-".to_string(), |s| format!("{:.0}% of {drawn}", 100.0 * s));
    let mut line = format!(
        "{n:>5} {:>5.2} {k:>5} {share:>11} ",
        f64::from(percent) / 100.0
    );
    for &method in &plan.methods {
        let t = times(&refs, method);
        if let (Some(median), Some(p95)) = (quantile(&t, 0.5), quantile(&t, 0.95)) {
            let _ = write!(line, " {method} {median:.3}/{p95:.3}");
        }
    }
    line
}

/// One row per run.
fn csv(runs: &[Run]) -> String {
    let mut verdict: BTreeMap<(u32, u32, u32), &'static str> = BTreeMap::new();
    for r in runs {
        let key = (r.n, r.queens, r.instance);
        match r.end {
            RunEnd::Found => {
                verdict.insert(key, "yes");
            }
            RunEnd::None => {
                verdict.entry(key).or_insert("no");
            }
            _ => {}
        }
    }
    report::csv_table(
        &[
            "n",
            "percent",
            "queens",
            "instance",
            "seed",
            "method",
            "end",
            "seconds",
            "completable",
            "detail",
        ],
        runs.iter().map(|r| {
            let completable = verdict
                .get(&(r.n, r.queens, r.instance))
                .copied()
                .unwrap_or("unknown");
            vec![
                r.n.to_string(),
                r.percent.to_string(),
                r.queens.to_string(),
                r.instance.to_string(),
                r.seed.to_string(),
                r.method.to_string(),
                r.end.name().to_string(),
                r.seconds.to_string(),
                completable.to_string(),
                r.detail.clone(),
            ]
        }),
    )
}

/// The plot: completable share against K/n, then one time panel per n.
fn svg(runs: &[Run], plan: &StudyPlan, caption: &str) -> String {
    const W: f64 = report::SVG_WIDTH;
    const TOP: f64 = report::FIGURE_TOP;
    const PAD_LEFT: f64 = 64.0;
    const PAD_RIGHT: f64 = 16.0;
    const TITLE_H: f64 = 24.0;
    const PLOT_H: f64 = 180.0;
    const ROW_H: f64 = TITLE_H + PLOT_H + 56.0;
    let columns = 2usize;
    let panels = 1 + plan.sizes.len() + 1; // share, one per n, legend
    let rows = panels.div_ceil(columns);
    let cell_w = (W - 10.0) / columns as f64;
    let plot_w = cell_w - PAD_LEFT - PAD_RIGHT;
    let limit_s = plan.limit.as_secs_f64();
    let mut figure = report::Figure::new(
        rows as f64 * ROW_H,
        "n-Queens completion: where it gets hard (random sequential placement)",
        caption,
    );
    let out = &mut figure.out;
    let origin = |index: usize| {
        let (row, column) = (index / columns, index % columns);
        (
            5.0 + column as f64 * cell_w + PAD_LEFT,
            TOP + row as f64 * ROW_H + TITLE_H,
        )
    };
    let (p_lo, p_hi) = (0.0, 1.0);
    let x_of =
        |x0: f64, percent: u32| x0 + (f64::from(percent) / 100.0 - p_lo) / (p_hi - p_lo) * plot_w;
    let x_axis = |out: &mut String, x0: f64, y0: f64| {
        for tick in (0..=10).map(|t| t * 10) {
            let x = x_of(x0, tick);
            let _ = write!(
                out,
                r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#444"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{:.1}</text>"##,
                y0 + PLOT_H,
                y0 + PLOT_H + 4.0,
                y0 + PLOT_H + 17.0,
                f64::from(tick) / 100.0
            );
        }
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">K/n (share of rows with a queen)</text>"#,
            x0 + plot_w / 2.0,
            y0 + PLOT_H + 34.0
        );
    };
    let frame = |out: &mut String, x0: f64, y0: f64, title: &str| {
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="14" font-weight="bold">{}</text><rect x="{x0:.1}" y="{y0:.1}" width="{plot_w:.1}" height="{PLOT_H}" fill="none" stroke="#444"/>"##,
            x0 + plot_w / 2.0,
            y0 - 8.0,
            report::xml_escape(title)
        );
    };
    let polyline = |points: &[(f64, f64)], colour: &str, dash: &str| {
        let coords: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        format!(
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>"#,
            coords.join(" ")
        )
    };

    // (a) The completable share, one line per n.
    let (x0, y0) = origin(0);
    frame(out, x0, y0, "(a) share of instances with a completion");
    x_axis(out, x0, y0);
    for tick in 0..=4 {
        let y = y0 + PLOT_H - f64::from(tick) / 4.0 * PLOT_H;
        let _ = write!(
            out,
            r##"<line x1="{x0:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}%</text>"##,
            x0 + plot_w,
            x0 - 6.0,
            y + 4.0,
            tick * 25
        );
    }
    for (i, &n) in plan.sizes.iter().enumerate() {
        let colour = report::PALETTE[i % report::PALETTE.len()];
        let points: Vec<(f64, f64)> = plan
            .percents
            .iter()
            .filter_map(|&p| {
                let point: Vec<&Run> = runs.iter().filter(|r| r.n == n && r.percent == p).collect();
                completable_share(&point).map(|s| (x_of(x0, p), y0 + PLOT_H - s * PLOT_H))
            })
            .collect();
        let _ = writeln!(out, "{}", polyline(&points, colour, ""));
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" fill="{colour}">n = {n}</text>"#,
            x0 + 8.0,
            y0 + 16.0 + 15.0 * i as f64
        );
    }

    // (b) Median and 95th percentile per method, one panel per n, shared log axis.
    let all: Vec<f64> = runs.iter().map(|r| r.seconds.max(1e-4)).collect();
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let d_lo = if lo.is_finite() {
        lo.log10().floor() as i32
    } else {
        -4
    };
    let d_hi = (limit_s.log10().ceil() as i32).max(d_lo + 1);
    for (p, &n) in plan.sizes.iter().enumerate() {
        let (x0, y0) = origin(p + 1);
        frame(out, x0, y0, &format!("(b) time per instance, n = {n}"));
        x_axis(out, x0, y0);
        let y_of = |t: f64| {
            y0 + PLOT_H - (t.max(1e-4).log10() - f64::from(d_lo)) / f64::from(d_hi - d_lo) * PLOT_H
        };
        for d in d_lo..=d_hi {
            let y = y_of(10f64.powi(d));
            let _ = write!(
                out,
                r##"<line x1="{x0:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
                x0 + plot_w,
                x0 - 6.0,
                y + 4.0,
                report::decade_label(d)
            );
        }
        let y = y_of(limit_s);
        let _ = writeln!(
            out,
            r##"<line x1="{x0:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#999" stroke-dasharray="2,3"/>"##,
            x0 + plot_w
        );
        for (m, &method) in plan.methods.iter().enumerate() {
            let colour = report::PALETTE[m % report::PALETTE.len()];
            for (q, dash) in [(0.5, ""), (0.95, r#" stroke-dasharray="6,4""#)] {
                let points: Vec<(f64, f64)> = plan
                    .percents
                    .iter()
                    .filter_map(|&pc| {
                        let point: Vec<&Run> = runs
                            .iter()
                            .filter(|r| r.n == n && r.percent == pc)
                            .collect();
                        quantile(&times(&point, method), q).map(|t| (x_of(x0, pc), y_of(t)))
                    })
                    .collect();
                if !points.is_empty() {
                    let _ = writeln!(
                        out,
                        r#"<g data-method="{method}" data-quantile="{q}">{}</g>"#,
                        polyline(&points, colour, dash)
                    );
                }
            }
        }
    }

    // The legend.
    let (x0, y0) = origin(plan.sizes.len() + 1);
    for (m, &method) in plan.methods.iter().enumerate() {
        let colour = report::PALETTE[m % report::PALETTE.len()];
        let y = y0 + 10.0 + 18.0 * m as f64;
        let _ = writeln!(
            out,
            r#"<line x1="{x0:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{colour}" stroke-width="2"/><text x="{:.1}" y="{:.1}">{method}</text>"#,
            x0 + 30.0,
            x0 + 38.0,
            y + 4.0
        );
    }
    let y = y0 + 18.0 + 18.0 * plan.methods.len() as f64;
    let _ = writeln!(
        out,
        r##"<text x="{x0:.1}" y="{y:.1}">solid: median; dashed: 95th percentile;</text><text x="{x0:.1}" y="{:.1}">dotted grey: the time limit</text>"##,
        y + 16.0
    );
    figure.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_nearest_rank() {
        let v = [5.0, 1.0, 3.0, 2.0, 4.0];
        assert_eq!(quantile(&v, 0.5), Some(3.0));
        assert_eq!(quantile(&v, 0.95), Some(5.0));
        assert_eq!(quantile(&[], 0.5), None);
        let many: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(quantile(&many, 0.95), Some(95.0));
    }

    #[test]
    fn seeds_differ_across_the_grid() {
        let mut seen = std::collections::HashSet::new();
        for n in [50, 100] {
            for k in [5, 50] {
                for i in 0..10 {
                    assert!(seen.insert(instance_seed(1, n, k, i)));
                }
            }
        }
    }
}
