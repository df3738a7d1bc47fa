//! What the bench shows: the table row printed as each cell finishes, the CSV (one row per
//! cell, RFC 4180 quoting), the SVG plot and the description of the machine in its caption.
//!
//! The plot has one panel per workload (completion: per share of fixed queens), time on a log
//! scale against n, one line per method. n is on a log axis too when the sizes span more than
//! a factor of 50 (the `--scale` preset's solve panel runs from 10 to 10^7). A run stopped at
//! the time limit is a cross on the dashed limit line, joined to the method's last finished
//! size by a dashed segment, so a line that stops because its method gave out looks different
//! from one that stops at the method's own size limit. The picture is 800 units wide and no
//! text is smaller than 12 units, so it stays readable shown 800 pixels wide.

use std::fmt::Write as _;
use std::time::Duration;

use nqueens_solver::methods::Method;

use crate::cell::{BenchJob, Cell, CellStatus};

fn seconds_text(s: Option<f64>) -> String {
    match s {
        None => "-".into(),
        Some(s) if s < 1e-3 => format!("{:.1} µs", s * 1e6),
        Some(s) if s < 1.0 => format!("{:.2} ms", s * 1e3),
        Some(s) => format!("{s:.2} s"),
    }
}

/// The workload as the table shows it: `completion 25%` names the share of fixed queens.
fn workload(cell: &Cell) -> String {
    match &cell.board {
        Some(board) => format!("{} {}%", cell.job.name(), board.percent),
        None => cell.job.name().to_string(),
    }
}

pub fn table_header() -> String {
    format!(
        "{:<15} {:<12} {:>8} {:>10} {:>23} {:>10} {:>12} status",
        "job", "method", "n", "median", "min – max", "peak RSS", "answer"
    )
}

pub fn table_row(cell: &Cell) -> String {
    row_for_sizes(cell, &cell.n.to_string())
}

/// One row for a run of cells of one workload and method skipped for the same reason, at
/// `sizes` (in order): the reason once, the sizes as a range (`6–10`).
pub fn skipped_row(cell: &Cell, sizes: &[u32]) -> String {
    match sizes {
        [first, .., last] => row_for_sizes(cell, &format!("{first}–{last}")),
        _ => table_row(cell),
    }
}

/// A table row with `sizes` in the n column.
fn row_for_sizes(cell: &Cell, sizes: &str) -> String {
    let range = if cell.seconds.is_empty() {
        "-".to_string()
    } else {
        format!(
            "{} – {}",
            seconds_text(cell.min()),
            seconds_text(cell.max())
        )
    };
    let rss = cell.peak_rss_kb.map_or("-".to_string(), |kb| {
        format!("{:.1} MiB", kb as f64 / 1024.0)
    });
    let status = if cell.reason.is_empty() {
        cell.status.name().to_string()
    } else {
        format!("{}: {}", cell.status.name(), cell.reason)
    };
    format!(
        "{:<15} {:<12} {:>8} {:>10} {:>23} {:>10} {:>12} {status}",
        workload(cell),
        cell.method.name(),
        sizes,
        seconds_text(cell.median()),
        range,
        rss,
        if cell.answers.is_empty() {
            "-".to_string()
        } else {
            cell.answer()
        },
    )
}

/// The CSV columns, in order.
pub const CSV_COLUMNS: [&str; 13] = [
    "job",
    "method",
    "n",
    "fixed",
    "median_s",
    "min_s",
    "max_s",
    "peak_rss_kb",
    "answer",
    "status",
    "runs",
    "stats",
    "reason",
];

pub fn csv(cells: &[Cell]) -> String {
    let number = |s: Option<f64>| s.map_or(String::new(), |s| format!("{s:.9}"));
    csv_table(
        &CSV_COLUMNS,
        cells.iter().map(|cell| {
            vec![
                cell.job.name().to_string(),
                cell.method.name().to_string(),
                cell.n.to_string(),
                cell.board
                    .as_ref()
                    .map_or(String::new(), |b| b.queens.to_string()),
                number(cell.median()),
                number(cell.min()),
                number(cell.max()),
                cell.peak_rss_kb.map_or(String::new(), |kb| kb.to_string()),
                cell.answer(),
                cell.status.name().to_string(),
                cell.seconds.len().to_string(),
                cell.stats.clone(),
                cell.reason.clone(),
            ]
        }),
    )
}

/// RFC 4180 quoting: fields with a comma, quote or line break are quoted, quotes doubled.
fn csv_field(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// The 1-minute load average when the bench started, from `/proc/loadavg` where there is one.
pub fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next().map(str::to_string)
}

/// The machine and the method of measurement: CPU model, cores, memory, OS, the load when the
/// bench started, repeats and time limit.
pub fn machine_caption(repeats: u32, limit: Duration, load: Option<&str>) -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name").and_then(|r| r.split_once(':')))
        .map_or_else(
            || "unknown CPU".to_string(),
            |(_, name)| name.trim().to_string(),
        );
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let memory = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        })
        .map_or(String::new(), |kb| {
            format!(", {:.0} GiB", kb / 1024.0 / 1024.0)
        });
    let load = load.map_or(String::new(), |l| {
        format!(", load average {l} at the start")
    });
    format!(
        "{cpu}, {cores} cores{memory}, {} {}{load}; nqueens {}; median of {repeats} runs, one thread, each in a fresh process; time limit {} s per run",
        std::env::consts::OS,
        std::env::consts::ARCH,
        env!("CARGO_PKG_VERSION"),
        limit.as_secs_f64(),
    )
}

/// A power of ten in seconds, in the unit that makes it a whole number: `10 µs`, `1 s`.
pub(super) fn decade_label(exponent: i32) -> String {
    let (unit, shift) = match exponent {
        e if e >= 0 => ("s", 0),
        e if e >= -3 => ("ms", 3),
        e if e >= -6 => ("µs", 6),
        _ => ("ns", 9),
    };
    let value = 10f64.powi(exponent + shift);
    format!("{value} {unit}")
}

/// A power of ten as a board size: `10`, `100`, `1000`, then `10⁴` … (short enough to fit
/// under a tick).
fn size_label(exponent: u32) -> String {
    if exponent <= 3 {
        return 10u32.pow(exponent).to_string();
    }
    const SUPERSCRIPTS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let digits: String = exponent
        .to_string()
        .chars()
        .map(|d| SUPERSCRIPTS[d.to_digit(10).unwrap_or(0) as usize])
        .collect();
    format!("10{digits}")
}

pub(super) fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Splits `text` into lines of at most `width` characters at spaces.
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

pub(super) const PALETTE: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f", "#bcbd22",
];

/// The width of the picture; text sizes are chosen for showing it at this many pixels.
pub const SVG_WIDTH: f64 = 800.0;
/// The smallest text in the picture.
const FONT: f64 = 12.0;
/// Where the panels of a figure start, below its title.
pub const FIGURE_TOP: f64 = 48.0;

/// The frame the plots of both studies share: the SVG element on a white page, the title, and
/// the machine's caption under the panels, wrapped to the picture's width. The panels are
/// drawn into [`Figure::out`] between [`Figure::new`] and [`Figure::finish`].
pub struct Figure {
    /// The document so far.
    pub out: String,
    caption_lines: Vec<String>,
    caption_top: f64,
}

impl Figure {
    /// A figure whose panels take `body` units from [`FIGURE_TOP`] down.
    pub fn new(body: f64, title: &str, caption: &str) -> Figure {
        let caption_lines = wrap(caption, 104);
        let caption_top = FIGURE_TOP + body;
        let height = caption_top + 16.0 * caption_lines.len() as f64 + 8.0;
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{SVG_WIDTH:.0}" height="{height:.0}" viewBox="0 0 {SVG_WIDTH:.0} {height:.0}" font-family="DejaVu Sans, Verdana, sans-serif" font-size="{FONT}">"#
        );
        let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            out,
            r#"<text x="12" y="28" font-size="18" font-weight="bold">{}</text>"#,
            xml_escape(title)
        );
        Figure {
            out,
            caption_lines,
            caption_top,
        }
    }

    /// The document: the panels, then the caption.
    pub fn finish(mut self) -> String {
        for (i, line) in self.caption_lines.iter().enumerate() {
            let _ = writeln!(
                self.out,
                r##"<text class="caption" x="12" y="{:.1}" fill="#333">{}</text>"##,
                self.caption_top + 16.0 * i as f64,
                xml_escape(line)
            );
        }
        self.out.push_str("</svg>\n");
        self.out
    }
}

/// A CSV document (RFC 4180): the header, then one line per row, each field quoted where it
/// has a comma, a quote or a line break.
pub fn csv_table(columns: &[&str], rows: impl IntoIterator<Item = Vec<String>>) -> String {
    let mut out = columns.join(",");
    out.push('\n');
    for row in rows {
        let quoted: Vec<String> = row.iter().map(|f| csv_field(f)).collect();
        out.push_str(&quoted.join(","));
        out.push('\n');
    }
    out
}

/// What one panel shows.
fn panel_title(job: BenchJob, percent: Option<u32>) -> String {
    match (job, percent) {
        (BenchJob::Solve, _) => "solve: one solution".into(),
        (BenchJob::Count, _) => "count: all solutions".into(),
        (BenchJob::Completion, Some(p)) => format!("completion, {p}% of rows fixed"),
        (BenchJob::Completion, None) => "completion: count the completions".into(),
        (BenchJob::Blocked, Some(p)) => format!("blocked, {p}% of squares blocked"),
        (BenchJob::Blocked, None) => "blocked: count the solutions".into(),
    }
}

/// A panel's horizontal axis: n from `lo` to `hi`, on a log scale or not.
struct SizeAxis {
    lo: f64,
    hi: f64,
    log: bool,
}

impl SizeAxis {
    fn new(ns: &[u32]) -> SizeAxis {
        let lo = f64::from(ns.iter().copied().min().unwrap_or(1));
        let hi = f64::from(ns.iter().copied().max().unwrap_or(1));
        if hi >= 50.0 * lo {
            SizeAxis {
                lo: lo.log10().floor(),
                hi: hi.log10().ceil(),
                log: true,
            }
        } else {
            SizeAxis { lo, hi, log: false }
        }
    }

    /// Where n falls, from 0 (left) to 1 (right).
    fn fraction(&self, n: u32) -> f64 {
        let x = if self.log {
            f64::from(n).log10()
        } else {
            f64::from(n)
        };
        if self.hi > self.lo {
            (x - self.lo) / (self.hi - self.lo)
        } else {
            0.5
        }
    }

    /// The ticks: (n, label).
    fn ticks(&self, ns: &[u32]) -> Vec<(u32, String)> {
        if self.log {
            return (self.lo as u32..=self.hi as u32)
                .map(|e| (10u32.saturating_pow(e), size_label(e)))
                .collect();
        }
        let mut ns = ns.to_vec();
        ns.sort_unstable();
        ns.dedup();
        // At most a dozen labels: every k-th size.
        let step = ns.len().div_ceil(12).max(1);
        ns.iter()
            .step_by(step)
            .map(|&n| (n, n.to_string()))
            .collect()
    }
}

/// The plot: one panel per series (a workload, and for completion a share of fixed queens),
/// time (log scale) against n, one polyline (with point markers) per method that has results,
/// time-outs as crosses on the limit line, a shared legend and the machine in a caption.
pub fn svg(
    cells: &[Cell],
    series: &[(BenchJob, Option<u32>)],
    methods: &[Method],
    limit: Duration,
    caption: &str,
) -> String {
    const TOP: f64 = FIGURE_TOP;
    const PAD_LEFT: f64 = 74.0;
    const PAD_RIGHT: f64 = 16.0;
    const TITLE_H: f64 = 26.0;
    const PLOT_H: f64 = 200.0;
    const ROW_H: f64 = TITLE_H + PLOT_H + 62.0;
    let limit_s = limit.as_secs_f64();
    let panels = series.len().max(1);
    let columns = if panels == 1 { 1 } else { 2 };
    let cell_w = (SVG_WIDTH - 10.0) / columns as f64;
    let plot_w = cell_w - PAD_LEFT - PAD_RIGHT;
    // The legend takes the grid cell after the last panel.
    let plotted: Vec<Method> = methods
        .iter()
        .copied()
        .filter(|&m| {
            cells
                .iter()
                .any(|c| c.method == m && matches!(c.status, CellStatus::Ok | CellStatus::Timeout))
        })
        .collect();
    let rows = (panels + 1).div_ceil(columns);
    let mut figure = Figure::new(
        rows as f64 * ROW_H,
        "nqueens bench: median time per run against board size",
        caption,
    );
    let out = &mut figure.out;
    let colour = |m: Method| {
        let i = methods.iter().position(|&x| x == m).unwrap_or(0);
        PALETTE[i % PALETTE.len()]
    };
    let origin = |index: usize| {
        let (row, column) = (index / columns, index % columns);
        (
            5.0 + column as f64 * cell_w + PAD_LEFT,
            TOP + row as f64 * ROW_H + TITLE_H,
        )
    };
    for (p, &(job, percent)) in series.iter().enumerate() {
        let (x0, y0) = origin(p);
        let mine: Vec<&Cell> = cells
            .iter()
            .filter(|c| c.job == job && c.board.as_ref().map(|b| b.percent) == percent)
            .collect();
        let ns: Vec<u32> = mine.iter().map(|c| c.n).collect();
        let axis = SizeAxis::new(&ns);
        let ok: Vec<&Cell> = mine
            .iter()
            .copied()
            .filter(|c| c.status == CellStatus::Ok)
            .collect();
        let timeouts: Vec<&Cell> = mine
            .iter()
            .copied()
            .filter(|c| c.status == CellStatus::Timeout)
            .collect();
        let mut times: Vec<f64> = ok
            .iter()
            .filter_map(|c| c.median())
            .map(|t| t.max(1e-7))
            .collect();
        if !timeouts.is_empty() {
            times.push(limit_s);
        }
        let lo = times.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = times.iter().copied().fold(0.0, f64::max);
        let (d_lo, d_hi) = if times.is_empty() {
            (-6, 0)
        } else {
            let d_lo = lo.log10().floor() as i32;
            (d_lo, (hi.log10().ceil() as i32).max(d_lo + 1))
        };
        let x_of = |n: u32| x0 + axis.fraction(n) * plot_w;
        // Room above the limit line for its crosses and its label.
        let top = if timeouts.is_empty() {
            f64::from(d_hi)
        } else {
            f64::from(d_hi).max(limit_s.log10() + 0.6)
        };
        let y_of = |t: f64| {
            y0 + PLOT_H - (t.max(1e-7).log10() - f64::from(d_lo)) / (top - f64::from(d_lo)) * PLOT_H
        };
        let fixed = percent.map_or(String::new(), |p| format!(r#" data-fixed="{p}""#));
        let _ = writeln!(
            out,
            r#"<g class="panel" data-job="{job}"{fixed}><text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="15" font-weight="bold">{}</text>"#,
            x0 + plot_w / 2.0,
            y0 - 9.0,
            xml_escape(&panel_title(job, percent)),
            job = job.name()
        );
        let _ = writeln!(
            out,
            r##"<rect x="{x0:.1}" y="{y0:.1}" width="{plot_w:.1}" height="{PLOT_H}" fill="none" stroke="#444"/>"##
        );
        // Label every decade when there is room, else every other one.
        let every = if d_hi - d_lo > 8 { 2 } else { 1 };
        for d in d_lo..=d_hi {
            let y = y_of(10f64.powi(d));
            let _ = write!(
                out,
                r##"<line x1="{x0:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/>"##,
                x0 + plot_w,
            );
            if (d - d_lo) % every == 0 {
                let _ = write!(
                    out,
                    r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                    x0 - 6.0,
                    y + 4.0,
                    decade_label(d)
                );
            }
            out.push('\n');
        }
        for (n, label) in axis.ticks(&ns) {
            let x = x_of(n);
            let _ = writeln!(
                out,
                r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#444"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{label}</text>"##,
                y0 + PLOT_H,
                y0 + PLOT_H + 5.0,
                y0 + PLOT_H + 19.0
            );
        }
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            x0 + plot_w / 2.0,
            y0 + PLOT_H + 38.0,
            if axis.log {
                "n (board size, log scale)"
            } else {
                "n (board size)"
            }
        );
        let _ = writeln!(
            out,
            r#"<text transform="translate({:.1},{:.1}) rotate(-90)" text-anchor="middle">median time per run</text>"#,
            x0 - 58.0,
            y0 + PLOT_H / 2.0
        );
        if !timeouts.is_empty() {
            let y = y_of(limit_s);
            let _ = writeln!(
                out,
                r##"<line class="limit" x1="{x0:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#888" stroke-dasharray="6 4"/><text x="{:.1}" y="{:.1}" fill="#555">time limit</text>"##,
                x0 + plot_w,
                x0 + 5.0,
                y - 4.0
            );
        }
        for &method in methods {
            let colour = colour(method);
            let mut points: Vec<(u32, f64)> = ok
                .iter()
                .filter(|c| c.method == method)
                .filter_map(|c| c.median().map(|t| (c.n, t)))
                .collect();
            points.sort_by_key(|&(n, _)| n);
            if !points.is_empty() {
                let coordinates: Vec<String> = points
                    .iter()
                    .map(|&(n, t)| format!("{:.1},{:.1}", x_of(n), y_of(t)))
                    .collect();
                let _ = writeln!(
                    out,
                    r#"<polyline class="series" data-method="{m}" points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
                    coordinates.join(" "),
                    m = method.name()
                );
            }
            for &(n, t) in &points {
                let _ = writeln!(
                    out,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{colour}"><title>{} n={n}: {}</title></circle>"#,
                    x_of(n),
                    y_of(t),
                    method.name(),
                    xml_escape(&seconds_text(Some(t)))
                );
            }
            for cell in timeouts.iter().filter(|c| c.method == method) {
                let (x, y) = (x_of(cell.n), y_of(limit_s));
                if let Some(&(n, t)) = points.iter().rev().find(|&&(n, _)| n < cell.n) {
                    let _ = writeln!(
                        out,
                        r#"<line x1="{:.1}" y1="{:.1}" x2="{x:.1}" y2="{y:.1}" stroke="{colour}" stroke-width="2" stroke-dasharray="3 3"/>"#,
                        x_of(n),
                        y_of(t)
                    );
                }
                let _ = writeln!(
                    out,
                    r#"<path class="timeout" data-method="{m}" data-n="{n}" d="M{:.1},{:.1} l12,12 m0,-12 l-12,12" stroke="{colour}" stroke-width="3"><title>{m} n={n}: stopped at the {limit_s} s limit</title></path>"#,
                    x - 6.0,
                    y - 6.0,
                    m = method.name(),
                    n = cell.n,
                );
            }
        }
        let _ = writeln!(out, "</g>");
    }
    let (legend_x, legend_y) = origin(panels);
    let (legend_x, legend_y) = (legend_x - PAD_LEFT + 20.0, legend_y);
    let _ = writeln!(
        out,
        r#"<g class="legend"><text x="{legend_x:.1}" y="{legend_y:.1}" font-size="15" font-weight="bold">method</text>"#
    );
    for (i, &method) in plotted.iter().enumerate() {
        let y = legend_y + 24.0 + i as f64 * 21.0;
        let _ = writeln!(
            out,
            r#"<line x1="{legend_x:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{c}" stroke-width="3"/><text x="{:.1}" y="{:.1}" font-size="14">{}</text>"#,
            y - 5.0,
            legend_x + 28.0,
            y - 5.0,
            legend_x + 36.0,
            y,
            method.name(),
            c = colour(method)
        );
    }
    let y = legend_y + 24.0 + plotted.len() as f64 * 21.0 + 6.0;
    let _ = writeln!(
        out,
        r##"<path d="M{:.1},{:.1} l12,12 m0,-12 l-12,12" stroke="#444" stroke-width="3"/><text x="{:.1}" y="{y:.1}" font-size="14">stopped at the time limit</text>"##,
        legend_x + 8.0,
        y - 11.0,
        legend_x + 36.0,
    );
    let _ = writeln!(
        out,
        r##"<text x="{legend_x:.1}" y="{:.1}" fill="#333">A line that ends without a cross ends at</text><text x="{legend_x:.1}" y="{:.1}" fill="#333">the method's size limit or the last size run.</text>"##,
        y + 26.0,
        y + 42.0,
    );
    let _ = writeln!(out, "</g>");
    figure.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::{Board, Checked};

    fn cell(job: BenchJob, method: Method, n: u32, seconds: Option<f64>) -> Cell {
        let mut cell = Cell::new(job, method, n, None);
        match seconds {
            Some(s) => {
                cell.seconds = vec![s];
                cell.answers = vec![Checked::Found];
            }
            None => cell.status = CellStatus::Timeout,
        }
        cell
    }

    /// A solve sweep like the `--scale` preset's, with one method timing out.
    fn sweep() -> Vec<Cell> {
        let mut cells = Vec::new();
        for (i, n) in [10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000]
            .into_iter()
            .enumerate()
        {
            cells.push(cell(
                BenchJob::Solve,
                Method::Construct,
                n,
                Some(1e-6 * 10f64.powi(i as i32)),
            ));
        }
        cells.push(cell(BenchJob::Solve, Method::Cp, 10, Some(1e-4)));
        cells.push(cell(BenchJob::Solve, Method::Cp, 100, Some(1e-2)));
        cells.push(cell(BenchJob::Solve, Method::Cp, 1000, None));
        let mut completion = cell(BenchJob::Completion, Method::Cp, 12, Some(1e-3));
        completion.board = Some(Board {
            percent: 50,
            queens: 6,
            command: String::new(),
        });
        cells.push(completion);
        cells
    }

    fn draw(cells: &[Cell]) -> String {
        svg(
            cells,
            &[(BenchJob::Solve, None), (BenchJob::Completion, Some(50))],
            &[Method::Cp, Method::Construct],
            Duration::from_secs(10),
            &"a long caption with words ".repeat(12),
        )
    }

    #[test]
    fn sizes_from_10_to_10_million_are_on_a_log_axis() {
        let text = draw(&sweep());
        let doc = roxmltree::Document::parse(&text).unwrap();
        let solve = doc
            .descendants()
            .find(|n| n.attribute("data-job") == Some("solve"))
            .unwrap();
        let labels: Vec<&str> = solve.descendants().filter_map(|n| n.text()).collect();
        for label in [
            "10",
            "100",
            "1000",
            "10⁴",
            "10⁵",
            "10⁶",
            "10⁷",
            "n (board size, log scale)",
        ] {
            assert!(labels.contains(&label), "{label} in {labels:?}");
        }
        // Equal ratios of n are equal distances: the decades are evenly spaced.
        let line = solve
            .descendants()
            .find(|n| n.attribute("data-method") == Some("construct"))
            .unwrap();
        let xs: Vec<f64> = line
            .attribute("points")
            .unwrap()
            .split(' ')
            .map(|p| p.split(',').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(xs.len(), 7);
        for pair in xs.windows(3) {
            assert!(
                ((pair[1] - pair[0]) - (pair[2] - pair[1])).abs() < 0.2,
                "{xs:?}"
            );
        }
    }

    #[test]
    fn a_timeout_is_a_marker_on_the_limit_line() {
        let text = draw(&sweep());
        let doc = roxmltree::Document::parse(&text).unwrap();
        let markers: Vec<_> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("timeout"))
            .collect();
        assert_eq!(markers.len(), 1);
        assert_eq!(markers[0].attribute("data-method"), Some("cp"));
        assert_eq!(markers[0].attribute("data-n"), Some("1000"));
        let limit = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("limit"))
            .expect("the limit is drawn where something hit it");
        // The cross is centred on the limit line.
        let y: f64 = limit.attribute("y1").unwrap().parse().unwrap();
        let d = markers[0].attribute("d").unwrap();
        let top: f64 = d[1..]
            .split(['l', ' '])
            .next()
            .unwrap()
            .split(',')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        assert!((top + 6.0 - y).abs() < 0.2, "{d} against {y}");
        // The panel without time-outs has no limit line.
        let completion = doc
            .descendants()
            .find(|n| n.attribute("data-fixed") == Some("50"))
            .unwrap();
        assert!(
            !completion
                .descendants()
                .any(|n| n.attribute("class") == Some("limit"))
        );
    }

    #[test]
    fn text_is_readable_at_800_pixels() {
        let text = draw(&sweep());
        let doc = roxmltree::Document::parse(&text).unwrap();
        let root = doc.root_element();
        assert_eq!(root.attribute("width"), Some("800"));
        for node in doc
            .descendants()
            .filter(|n| n.attribute("font-size").is_some())
        {
            let size: f64 = node.attribute("font-size").unwrap().parse().unwrap();
            assert!(size >= 12.0, "{size} on {node:?}");
        }
        // The caption is wrapped, not one line running off the picture.
        let captions: Vec<&str> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("caption"))
            .filter_map(|n| n.text())
            .collect();
        assert!(captions.len() > 1);
        assert!(captions.iter().all(|l| l.chars().count() <= 104));
    }

    #[test]
    fn size_labels() {
        assert_eq!(size_label(1), "10");
        assert_eq!(size_label(3), "1000");
        assert_eq!(size_label(7), "10⁷");
        assert_eq!(size_label(12), "10¹²");
    }
}
