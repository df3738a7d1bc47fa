//! What the bench shows: the table row printed as each cell finishes, the CSV (one row per
//! cell, RFC 4180 quoting), the SVG plot (time against n on a log scale, one panel per job and
//! one line per method) and the one-line description of the machine in the plot's caption.

use std::fmt::Write as _;

use nqueens::methods::Method;

use super::{BenchJob, Cell, CellStatus};

fn seconds_text(s: Option<f64>) -> String {
    match s {
        None => "-".into(),
        Some(s) if s < 1e-3 => format!("{:.1} µs", s * 1e6),
        Some(s) if s < 1.0 => format!("{:.2} ms", s * 1e3),
        Some(s) => format!("{s:.2} s"),
    }
}

pub fn table_header() -> String {
    format!(
        "{:<10} {:<12} {:>3} {:>10} {:>23} {:>10} {:>12} status",
        "job", "method", "n", "median", "min – max", "peak RSS", "answer"
    )
}

pub fn table_row(cell: &Cell) -> String {
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
        "{:<10} {:<12} {:>3} {:>10} {:>23} {:>10} {:>12} {status}",
        cell.job.name(),
        cell.method.name(),
        cell.n,
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
pub const CSV_COLUMNS: [&str; 12] = [
    "job",
    "method",
    "n",
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
    let mut out = CSV_COLUMNS.join(",");
    out.push('\n');
    for cell in cells {
        let fields = [
            cell.job.name().to_string(),
            cell.method.name().to_string(),
            cell.n.to_string(),
            number(cell.median()),
            number(cell.min()),
            number(cell.max()),
            cell.peak_rss_kb.map_or(String::new(), |kb| kb.to_string()),
            cell.answer(),
            cell.status.name().to_string(),
            cell.seconds.len().to_string(),
            cell.stats.clone(),
            cell.reason.clone(),
        ];
        let quoted: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        out.push_str(&quoted.join(","));
        out.push('\n');
    }
    out
}

/// RFC 4180 quoting: fields with a comma, quote or line break are quoted, quotes doubled.
fn csv_field(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// One line describing the machine: CPU model, cores, memory, OS.
pub fn machine_caption(repeats: u32) -> String {
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
    format!(
        "{cpu}, {cores} cores{memory}, {} {}; nqueens {}; median of {repeats} runs, one thread, each in a fresh process",
        std::env::consts::OS,
        std::env::consts::ARCH,
        env!("CARGO_PKG_VERSION"),
    )
}

/// A power of ten in seconds, in the unit that makes it a whole number: `10 µs`, `1 s`.
fn decade_label(exponent: i32) -> String {
    let (unit, shift) = match exponent {
        e if e >= 0 => ("s", 0),
        e if e >= -3 => ("ms", 3),
        e if e >= -6 => ("µs", 6),
        _ => ("ns", 9),
    };
    let value = 10f64.powi(exponent + shift);
    format!("{value} {unit}")
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const PALETTE: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f", "#bcbd22",
];

/// The plot: one panel per job, time (log scale) against n, one polyline (with point markers)
/// per method that has results, a shared legend and the machine in a caption.
pub fn svg(cells: &[Cell], jobs: &[BenchJob], methods: &[Method], caption: &str) -> String {
    const PANEL_W: f64 = 360.0;
    const PANEL_H: f64 = 260.0;
    const LEFT: f64 = 90.0;
    const TOP: f64 = 50.0;
    const GAP: f64 = 110.0;
    const LEGEND_W: f64 = 150.0;
    let panels = jobs.len().max(1) as f64;
    let width = LEFT + panels * PANEL_W + (panels - 1.0) * GAP + 30.0 + LEGEND_W;
    let height = TOP + PANEL_H + 90.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="{LEFT}" y="22" font-size="16" font-weight="bold">nqueens bench: median time per run against board size</text>"#
    );
    let colour = |m: Method| {
        let i = methods.iter().position(|&x| x == m).unwrap_or(0);
        PALETTE[i % PALETTE.len()]
    };
    for (p, &job) in jobs.iter().enumerate() {
        let x0 = LEFT + p as f64 * (PANEL_W + GAP);
        let ok: Vec<&Cell> = cells
            .iter()
            .filter(|c| c.job == job && c.status == CellStatus::Ok)
            .collect();
        let ns: Vec<u32> = cells.iter().filter(|c| c.job == job).map(|c| c.n).collect();
        let (n_lo, n_hi) = (
            ns.iter().copied().min().unwrap_or(1),
            ns.iter().copied().max().unwrap_or(1),
        );
        let times: Vec<f64> = ok
            .iter()
            .filter_map(|c| c.median())
            .map(|t| t.max(1e-7))
            .collect();
        let lo = times.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = times.iter().copied().fold(0.0, f64::max);
        let (d_lo, d_hi) = if times.is_empty() {
            (-6, 0)
        } else {
            let d_lo = lo.log10().floor() as i32;
            (d_lo, (hi.log10().ceil() as i32).max(d_lo + 1))
        };
        let x_of = |n: u32| {
            if n_hi == n_lo {
                x0 + PANEL_W / 2.0
            } else {
                x0 + f64::from(n - n_lo) / f64::from(n_hi - n_lo) * PANEL_W
            }
        };
        let y_of = |t: f64| {
            TOP + PANEL_H
                - (t.max(1e-7).log10() - f64::from(d_lo)) / f64::from(d_hi - d_lo) * PANEL_H
        };
        let _ = writeln!(
            out,
            r#"<g class="panel" data-job="{job}"><text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="14">{job}</text>"#,
            x0 + PANEL_W / 2.0,
            TOP - 10.0,
            job = job.name()
        );
        let _ = writeln!(
            out,
            r##"<rect x="{x0:.1}" y="{TOP}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#444"/>"##
        );
        for d in d_lo..=d_hi {
            let y = y_of(10f64.powi(d));
            let _ = writeln!(
                out,
                r##"<line x1="{x0:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
                x0 + PANEL_W,
                x0 - 6.0,
                y + 4.0,
                decade_label(d)
            );
        }
        let mut tick_ns = ns.clone();
        tick_ns.sort_unstable();
        tick_ns.dedup();
        for &n in &tick_ns {
            let x = x_of(n);
            let _ = writeln!(
                out,
                r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#444"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{n}</text>"##,
                TOP + PANEL_H,
                TOP + PANEL_H + 5.0,
                TOP + PANEL_H + 18.0
            );
        }
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">n (board size)</text>"#,
            x0 + PANEL_W / 2.0,
            TOP + PANEL_H + 36.0
        );
        let _ = writeln!(
            out,
            r#"<text transform="translate({:.1},{:.1}) rotate(-90)" text-anchor="middle">median time per run (log scale)</text>"#,
            x0 - 62.0,
            TOP + PANEL_H / 2.0
        );
        for &method in methods {
            let mut points: Vec<(u32, f64)> = ok
                .iter()
                .filter(|c| c.method == method)
                .filter_map(|c| c.median().map(|t| (c.n, t)))
                .collect();
            if points.is_empty() {
                continue;
            }
            points.sort_by_key(|&(n, _)| n);
            let colour = colour(method);
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
            for &(n, t) in &points {
                let _ = writeln!(
                    out,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{colour}"><title>{} n={n}: {}</title></circle>"#,
                    x_of(n),
                    y_of(t),
                    method.name(),
                    xml_escape(&seconds_text(Some(t)))
                );
            }
        }
        let _ = writeln!(out, "</g>");
    }
    let legend_x = LEFT + panels * PANEL_W + (panels - 1.0) * GAP + 30.0;
    let _ = writeln!(
        out,
        r#"<g class="legend"><text x="{legend_x:.1}" y="{TOP}" font-weight="bold">method</text>"#
    );
    let plotted: Vec<Method> = methods
        .iter()
        .copied()
        .filter(|&m| {
            cells
                .iter()
                .any(|c| c.method == m && c.status == CellStatus::Ok)
        })
        .collect();
    for (i, &method) in plotted.iter().enumerate() {
        let y = TOP + 20.0 + i as f64 * 20.0;
        let _ = writeln!(
            out,
            r#"<line x1="{legend_x:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{c}" stroke-width="2"/><text x="{:.1}" y="{:.1}">{}</text>"#,
            y - 4.0,
            legend_x + 24.0,
            y - 4.0,
            legend_x + 30.0,
            y,
            method.name(),
            c = colour(method)
        );
    }
    let _ = writeln!(out, "</g>");
    let _ = writeln!(
        out,
        r##"<text class="caption" x="{LEFT}" y="{:.1}" font-size="11" fill="#444">{}</text>"##,
        height - 14.0,
        xml_escape(caption)
    );
    out.push_str("</svg>\n");
    out
}
