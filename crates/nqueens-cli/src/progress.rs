//! A one-line progress display on stderr for long runs.
//!
//! Engines report [`Progress`] snapshots through a [`ProgressSink`]; this turns them into a line
//! such as `12/16 tasks (75%) · 10200 solutions · 3.1 M nodes/s · ETA 4 s`, redrawn at most ten
//! times a second and only after the run has lasted a second. It is shown when stderr is a
//! terminal, or always with `--progress` (then each redraw is a new line, so logs stay
//! readable). The line is erased when the run ends.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nqueens::{Progress, ProgressSink};

/// Shown after this long, so quick runs stay quiet.
const QUIET_START: Duration = Duration::from_secs(1);
/// At most this often.
const REDRAW_EVERY: Duration = Duration::from_millis(100);

struct State {
    start: Instant,
    last_draw: Option<Instant>,
    /// Whether a `\r` line is on screen and must be erased.
    drawn: bool,
    terminal: bool,
}

/// The display; dropping it erases the line.
pub struct ProgressLine {
    state: Arc<Mutex<State>>,
}

impl ProgressLine {
    /// A display on stderr if stderr is a terminal or `forced`; `None` otherwise.
    pub fn for_stderr(forced: bool) -> Option<Self> {
        let terminal = std::io::stderr().is_terminal();
        (terminal || forced).then(|| ProgressLine {
            state: Arc::new(Mutex::new(State {
                start: Instant::now(),
                last_draw: None,
                drawn: false,
                terminal,
            })),
        })
    }

    /// The sink engines report to.
    pub fn sink(&self) -> ProgressSink {
        let state = Arc::clone(&self.state);
        ProgressSink::new(move |progress| {
            let Ok(mut state) = state.lock() else { return };
            let now = Instant::now();
            if now - state.start < QUIET_START
                || state.last_draw.is_some_and(|t| now - t < REDRAW_EVERY)
            {
                return;
            }
            state.last_draw = Some(now);
            let line = describe(progress, now - state.start);
            let mut err = std::io::stderr().lock();
            let _ = if state.terminal {
                write!(err, "\r\x1b[2K{line}")
            } else {
                writeln!(err, "{line}")
            };
            let _ = err.flush();
            state.drawn = state.terminal;
        })
    }
}

impl Drop for ProgressLine {
    fn drop(&mut self) {
        if let Ok(state) = self.state.lock()
            && state.drawn
        {
            let _ = write!(std::io::stderr(), "\r\x1b[2K");
        }
    }
}

/// The text of one progress line.
fn describe(progress: &Progress, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64().max(1e-9);
    let mut parts = Vec::new();
    match progress.total {
        Some(total) if total > 0 => {
            let fraction = progress.done as f64 / total as f64;
            parts.push(format!(
                "{}/{} tasks ({:.0}%)",
                progress.done,
                total,
                100.0 * fraction
            ));
            if fraction > 0.0 && fraction < 1.0 {
                parts.push(format!(
                    "ETA {}",
                    human_duration(seconds * (1.0 - fraction) / fraction)
                ));
            }
        }
        _ => parts.push(format!("{} done", progress.done)),
    }
    parts.push(format!("{} solutions", progress.solutions));
    if progress.nodes > 0 {
        parts.push(format!(
            "{} nodes/s",
            human_rate(progress.nodes as f64 / seconds)
        ));
    }
    parts.push(format!("{} elapsed", human_duration(seconds)));
    parts.join(" · ")
}

fn human_rate(rate: f64) -> String {
    match rate {
        r if r >= 1e9 => format!("{:.1} G", r / 1e9),
        r if r >= 1e6 => format!("{:.1} M", r / 1e6),
        r if r >= 1e3 => format!("{:.1} k", r / 1e3),
        r => format!("{r:.0}"),
    }
}

fn human_duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_tasks_rate_and_eta() {
        let p = Progress {
            done: 3,
            total: Some(4),
            solutions: 70,
            nodes: 4_000_000,
        };
        assert_eq!(
            describe(&p, Duration::from_secs(2)),
            "3/4 tasks (75%) · ETA 1 s · 70 solutions · 2.0 M nodes/s · 2 s elapsed"
        );
        let q = Progress {
            done: 5,
            total: None,
            solutions: 0,
            nodes: 0,
        };
        assert_eq!(
            describe(&q, Duration::from_secs(3725)),
            "5 done · 0 solutions · 1 h 2 min elapsed"
        );
    }
}
