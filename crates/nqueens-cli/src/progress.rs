//! A one-line progress display on stderr for long runs.
//!
//! Engines report [`Progress`] snapshots through a [`ProgressSink`], and commands whose engine
//! reports nothing (the exact cover and SAT solvers, listing) count the solutions they receive
//! in [`ProgressLine::solutions`]. The sink only stores the latest snapshot: one thread of the
//! display draws, ten times a second and only once the run has lasted a second, a line such as
//! `12/16 tasks (75%) · ETA ~4 s · 10200 solutions · 3.1 M nodes/s · 9 s`. Engines that
//! report no snapshots publish their work (search nodes, SAT conflicts) into the counter of
//! [`ProgressLine::work`] each time they poll their limits (`Limits::work`), so every long run
//! shows at least its elapsed time and its rate of work or of solutions.
//!
//! On a terminal the line is redrawn in place (`\r`, then clear to the end of the line) and cut
//! to the terminal's width (read from the terminal, else `$COLUMNS`, else 80), dropping the
//! least useful parts first, so it never wraps; the line is erased when the display is dropped,
//! so nothing is left for the prompt to be glued to. Off a terminal (`--progress` into a log)
//! each redraw is a line of its own, once a second.
//!
//! The ETA is not the share of tasks: the counter's late tasks are its big ones, so the share
//! done at the start says little. Where the engine has a model of its work (the counter
//! estimates each task's queens, see `nqueens_solver::engines::counter::estimate`), the line shows
//! the share of the *work* done (`41% of the work`) and times the nodes the model says are
//! left at the recent node rate, from the first seconds of a count whose tasks last hours.
//! Without a model it comes from measured work: the nodes per task of the last few seconds,
//! their growth along the task list, and the recent node rate (see `EtaEstimator`); it says
//! `ETA ~`, and `rough` until a quarter of the tasks are done.

use std::collections::VecDeque;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use nqueens_solver::formats::human;
use nqueens_solver::{Progress, ProgressSink};

/// Shown after this long, so quick runs stay quiet (`NQUEENS_PROGRESS_DELAY_MS` overrides it,
/// so the tests need not run a count for seconds to see a line).
const QUIET_START: Duration = Duration::from_secs(1);
/// Redraw period on a terminal.
const REDRAW_TERMINAL: Duration = Duration::from_millis(100);
/// Redraw period into a file or pipe.
const REDRAW_LOG: Duration = Duration::from_secs(1);
/// The ETA's rate is measured over this much of the recent past.
const RATE_WINDOW: Duration = Duration::from_secs(10);

/// What the engine reported and what the drawing thread needs.
struct Shared {
    start: Instant,
    latest: Mutex<Option<Progress>>,
    /// Solutions counted by the command itself (for engines that report nothing).
    solutions: Arc<AtomicU64>,
    /// Work an engine publishes at its polls (`Limits::work`), and its unit.
    work: Arc<AtomicU64>,
    work_unit: Mutex<&'static str>,
    finished: Mutex<bool>,
    wake: Condvar,
}

/// The display; dropping it stops the drawing and erases the line.
pub struct ProgressLine {
    shared: Arc<Shared>,
    drawer: Option<JoinHandle<()>>,
}

impl ProgressLine {
    /// A display on stderr if stderr is a terminal or `forced`; `None` otherwise.
    pub fn for_stderr(forced: bool) -> Option<Self> {
        let terminal = std::io::stderr().is_terminal();
        if !terminal && !forced {
            return None;
        }
        let shared = Arc::new(Shared {
            start: Instant::now(),
            latest: Mutex::new(None),
            solutions: Arc::new(AtomicU64::new(0)),
            work: Arc::new(AtomicU64::new(0)),
            work_unit: Mutex::new("nodes"),
            finished: Mutex::new(false),
            wake: Condvar::new(),
        });
        let drawer = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("progress".into())
                .spawn(move || draw_until_finished(&shared, terminal))
                .ok()
        };
        Some(ProgressLine { shared, drawer })
    }

    /// [`for_stderr`](Self::for_stderr) for commands that stream results to `output` (`None`:
    /// standard output): unless forced, no line while the results themselves scroll past on
    /// the same terminal, where a redrawn line would be torn by them.
    pub fn for_stream(forced: bool, output: Option<&std::path::Path>) -> Option<Self> {
        let shown = output.is_some() || !std::io::stdout().is_terminal();
        Self::for_stderr(forced).filter(|_| forced || shown)
    }

    /// The sink engines report to.
    pub fn sink(&self) -> ProgressSink {
        let shared = Arc::clone(&self.shared);
        ProgressSink::new(move |progress| {
            if let Ok(mut latest) = shared.latest.lock() {
                *latest = Some(*progress);
            }
        })
    }

    /// A counter of solutions found, for commands whose engine reports no progress.
    pub fn solutions(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.shared.solutions)
    }

    /// The counter an engine publishes its work into (`Limits::work`), counted in `unit`
    /// (`nodes`, `conflicts`), shown as a rate.
    pub fn work(&self, unit: &'static str) -> Arc<AtomicU64> {
        if let Ok(mut shown) = self.shared.work_unit.lock() {
            *shown = unit;
        }
        Arc::clone(&self.shared.work)
    }
}

impl Drop for ProgressLine {
    fn drop(&mut self) {
        if let Ok(mut finished) = self.shared.finished.lock() {
            *finished = true;
        }
        self.shared.wake.notify_all();
        if let Some(drawer) = self.drawer.take() {
            let _ = drawer.join();
        }
    }
}

/// The drawing thread: redraws until the display is dropped, then erases its line.
fn draw_until_finished(shared: &Shared, terminal: bool) {
    let period = if terminal {
        REDRAW_TERMINAL
    } else {
        REDRAW_LOG
    };
    let quiet = std::env::var("NQUEENS_PROGRESS_DELAY_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(QUIET_START, Duration::from_millis);
    let mut eta = EtaEstimator::default();
    let mut drawn = false;
    let Ok(mut finished) = shared.finished.lock() else {
        return;
    };
    loop {
        let elapsed = shared.start.elapsed();
        let wait = if elapsed < quiet {
            quiet - elapsed
        } else {
            period
        };
        finished = match shared.wake.wait_timeout(finished, wait) {
            Ok((guard, _)) => guard,
            Err(_) => return,
        };
        if *finished {
            break;
        }
        let elapsed = shared.start.elapsed();
        if elapsed < quiet {
            continue;
        }
        let latest = shared.latest.lock().ok().and_then(|p| *p);
        let counted = shared.solutions.load(Ordering::Relaxed);
        let work = shared.work.load(Ordering::Relaxed);
        let unit = shared.work_unit.lock().map_or("nodes", |u| *u);
        if let Some(p) = &latest {
            eta.observe(elapsed, p);
        }
        let mut parts = describe(latest.as_ref(), counted, elapsed, &eta);
        if work > 0 && latest.is_none_or(|p| p.nodes == 0) {
            let rate = human::rate(work as f64 / elapsed.as_secs_f64().max(1e-9));
            let at = parts.len() - 1;
            parts.insert(at, (3, format!("{rate} {unit}/s")));
        }
        let mut err = std::io::stderr().lock();
        let _ = if terminal {
            let line = fit(&parts, terminal_width());
            write!(err, "\r{line}\x1b[K")
        } else {
            writeln!(err, "{}", join(&parts))
        };
        let _ = err.flush();
        drawn = terminal;
    }
    if drawn {
        let _ = write!(std::io::stderr(), "\r\x1b[K");
        let _ = std::io::stderr().flush();
    }
}

/// The terminal's width in columns: from the terminal on stderr, else `$COLUMNS`, else 80.
pub fn terminal_width() -> usize {
    #[cfg(unix)]
    {
        // SAFETY: TIOCGWINSZ writes one `winsize` into the struct it is given, which lives
        // for the call; a failing call leaves it zeroed, which is checked.
        let mut size: libc::winsize = unsafe { std::mem::zeroed() };
        // SAFETY: as above; fd 2 is owned by the process for its whole life.
        let ok = unsafe { libc::ioctl(2, libc::TIOCGWINSZ, &mut size) } == 0;
        if ok && size.ws_col > 0 {
            return usize::from(size.ws_col);
        }
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
        .unwrap_or(80)
}

/// Learns the cost of tasks from the recent past.
///
/// With node counts (the counter reports them), the cost of a task in nodes is taken to grow
/// linearly with its place in the task list, fitted through the average task so far and the
/// tasks of the last [`RATE_WINDOW`], and the remaining nodes are timed at the recent node
/// rate: the counter's tasks grow towards the end, and a plain task rate would promise too
/// early an end. Without node counts, the remaining tasks are timed at the recent task rate.
#[derive(Default)]
struct EtaEstimator {
    /// (elapsed, tasks done, nodes) samples of the last [`RATE_WINDOW`].
    samples: VecDeque<(Duration, u64, u128)>,
}

impl EtaEstimator {
    fn observe(&mut self, elapsed: Duration, progress: &Progress) {
        if self
            .samples
            .back()
            .is_some_and(|&(_, d, _)| d > progress.done)
        {
            self.samples.clear();
        }
        self.samples
            .push_back((elapsed, progress.done, progress.nodes));
        while self.samples.len() > 2
            && self
                .samples
                .get(1)
                .is_some_and(|&(t, _, _)| elapsed - t >= RATE_WINDOW)
        {
            self.samples.pop_front();
        }
    }

    /// Nodes a second over the recent past; `None` before two samples with nodes.
    fn node_rate(&self) -> Option<f64> {
        let (&(t0, _, n0), &(t1, _, n1)) = (self.samples.front()?, self.samples.back()?);
        let seconds = (t1 - t0).as_secs_f64();
        (n1 > n0 && seconds > 0.0).then(|| (n1 - n0) as f64 / seconds)
    }

    /// Seconds left for `remaining` tasks; `None` before any measurement.
    fn seconds_left(&self, remaining: u64) -> Option<f64> {
        let (&(t0, d0, n0), &(t1, d1, n1)) = (self.samples.front()?, self.samples.back()?);
        let seconds = (t1 - t0).as_secs_f64();
        if d1 <= d0 || seconds <= 0.0 {
            return None;
        }
        let remaining = remaining as f64;
        if n1 <= n0 {
            return Some(remaining * seconds / (d1 - d0) as f64);
        }
        let (d0, d1) = (d0 as f64, d1 as f64);
        let node_rate = (n1 - n0) as f64 / seconds;
        let recent = (n1 - n0) as f64 / (d1 - d0);
        let average = n1 as f64 / d1;
        // Growth per task between the average task (at d1/2) and the recent ones (at the
        // window's middle); never taken as shrinking.
        let growth = if d0 > 0.0 {
            ((recent - average) / (d0 / 2.0)).max(0.0)
        } else {
            0.0
        };
        let next = recent + growth * (d1 - d0) / 2.0;
        let last = next + growth * remaining;
        Some(remaining * (next + last) / 2.0 / node_rate)
    }
}

/// One part of the line and how much it matters: the least important go first when the line
/// does not fit.
type Part = (u8, String);

/// The parts of one progress line, in display order.
fn describe(
    progress: Option<&Progress>,
    counted: u64,
    elapsed: Duration,
    eta: &EtaEstimator,
) -> Vec<Part> {
    let seconds = elapsed.as_secs_f64().max(1e-9);
    let mut parts = Vec::new();
    if let Some(p) = progress {
        match (p.total, p.nodes_left) {
            (Some(total), Some(left)) => {
                // The work model: the share of the queens, and their rate.
                parts.push((0, format!("{}/{} tasks", p.done, total)));
                let done = p.nodes_done as f64;
                let share = done / (done + left as f64).max(1.0);
                parts.push((1, format!("{} of the work", human::share(share))));
                let overall = (p.nodes > 0).then(|| p.nodes as f64 / seconds);
                if let Some(rate) = eta.node_rate().or(overall) {
                    parts.push((1, format!("ETA ~{}", human::duration(left as f64 / rate))));
                }
            }
            (Some(total), None) if total > 0 => {
                let fraction = p.done as f64 / total as f64;
                parts.push((
                    0,
                    format!("{}/{} tasks ({:.0}%)", p.done, total, 100.0 * fraction),
                ));
                if p.done < total {
                    match eta.seconds_left(total - p.done) {
                        Some(left) if fraction >= 0.25 => {
                            parts.push((1, format!("ETA ~{}", human::duration(left))));
                        }
                        Some(left) => {
                            parts.push((1, format!("ETA ~{} (rough)", human::duration(left))));
                        }
                        None => {}
                    }
                }
            }
            (_, _) if p.done > 0 => parts.push((3, format!("{} done", p.done))),
            _ => {}
        }
    }
    let solutions = progress.map_or(0, |p| p.solutions).max(u128::from(counted));
    // A count found by an engine that reports nothing is known only at the end: no "0".
    if solutions > 0 || progress.is_some() {
        parts.push((2, format!("{solutions} solutions")));
    }
    let nodes = progress.map_or(0, |p| p.nodes);
    if nodes > 0 {
        parts.push((
            4,
            format!("{} nodes/s", human::rate(nodes as f64 / seconds)),
        ));
    } else if solutions > 0 {
        parts.push((
            4,
            format!("{} solutions/s", human::rate(solutions as f64 / seconds)),
        ));
    }
    parts.push((0, human::duration(seconds)));
    parts
}

fn join(parts: &[Part]) -> String {
    parts
        .iter()
        .map(|(_, text)| text.as_str())
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The line cut to fewer than `width` columns (the last column is left free, so a terminal
/// never wraps): the least important parts are dropped first, then the rest is cut.
fn fit(parts: &[Part], width: usize) -> String {
    let room = width.saturating_sub(1).max(1);
    let mut kept = parts.to_vec();
    while join(&kept).chars().count() > room && kept.len() > 1 {
        let (at, _) = kept
            .iter()
            .enumerate()
            .max_by_key(|&(i, (importance, _))| (*importance, i))
            .expect("at least two parts");
        kept.remove(at);
    }
    join(&kept).chars().take(room).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(done: u64, total: Option<u64>, solutions: u128, nodes: u128) -> Progress {
        Progress {
            done,
            total,
            solutions,
            nodes,
            ..Progress::default()
        }
    }

    #[test]
    fn describes_tasks_rate_and_a_rough_eta_early() {
        let mut eta = EtaEstimator::default();
        eta.observe(Duration::from_secs(1), &progress(0, Some(4), 0, 0));
        eta.observe(Duration::from_secs(2), &progress(1, Some(4), 70, 4_000_000));
        let p = progress(1, Some(4), 70, 4_000_000);
        assert_eq!(
            join(&describe(Some(&p), 0, Duration::from_secs(2), &eta)),
            "1/4 tasks (25%) · ETA ~3 s · 70 solutions · 2.0 M nodes/s · 2 s"
        );
        let p = progress(1, Some(8), 70, 0);
        assert_eq!(
            join(&describe(Some(&p), 0, Duration::from_secs(2), &eta)),
            "1/8 tasks (12%) · ETA ~7 s (rough) · 70 solutions · 35 solutions/s · 2 s"
        );
    }

    #[test]
    fn the_eta_follows_the_recent_rate_not_the_share_done() {
        // Nine tasks of ten in the first second, then one task in ten seconds: the share done
        // says "almost finished", the recent rate says what the last task really costs.
        let mut eta = EtaEstimator::default();
        eta.observe(Duration::from_secs(1), &progress(9, Some(20), 0, 0));
        eta.observe(Duration::from_secs(11), &progress(10, Some(20), 0, 0));
        eta.observe(Duration::from_secs(21), &progress(11, Some(20), 0, 0));
        let left = eta.seconds_left(9).expect("measured");
        assert!((left - 90.0).abs() < 1e-6, "{left}");
    }

    #[test]
    fn the_eta_follows_tasks_that_grow() {
        // Task i costs i nodes at one node a second: after d tasks, d²/2 nodes and seconds.
        let mut eta = EtaEstimator::default();
        for d in [40u64, 60] {
            let nodes = d * d / 2;
            eta.observe(
                Duration::from_secs(nodes),
                &progress(d, Some(100), 0, nodes.into()),
            );
        }
        // The true remainder: (100² − 60²) / 2 = 3200 s; a task rate would say 40 tasks at
        // 20 per 1000 s, 2000 s.
        let left = eta.seconds_left(40).expect("measured");
        assert!((left - 3200.0).abs() < 1e-6, "{left}");
    }

    #[test]
    fn a_work_model_gives_the_share_of_the_work_and_the_eta() {
        // 89 % of the tasks, but a third of the work: the model's share, and the nodes left
        // at the recent rate (2 M nodes a second).
        let mut eta = EtaEstimator::default();
        let at = |done, nodes: u128| Progress {
            done,
            total: Some(10912),
            solutions: 14,
            nodes,
            nodes_left: Some(20_000_000),
            nodes_done: nodes,
        };
        eta.observe(Duration::from_secs(1), &at(9000, 6_000_000));
        eta.observe(Duration::from_secs(3), &at(9723, 10_000_000));
        assert_eq!(
            join(&describe(
                Some(&at(9723, 10_000_000)),
                0,
                Duration::from_secs(3),
                &eta
            )),
            "9723/10912 tasks · 33% of the work · ETA ~10 s · 14 solutions · 3.3 M nodes/s · 3 s"
        );
        // A record count: a sliver of the work, an ETA in years.
        let mut eta = EtaEstimator::default();
        let at = |nodes: u128| Progress {
            done: 0,
            total: Some(3822562),
            solutions: 0,
            nodes,
            nodes_left: Some(4_200_000_000_000_000_000_000),
            nodes_done: nodes,
        };
        eta.observe(Duration::from_secs(1), &at(0));
        eta.observe(Duration::from_secs(11), &at(5_000_000_000));
        assert_eq!(
            join(&describe(
                Some(&at(5_000_000_000)),
                0,
                Duration::from_secs(11),
                &eta
            )),
            "0/3822562 tasks · <0.01% of the work · ETA ~266180 years · 0 solutions · 454.5 M nodes/s · 11 s"
        );
    }

    #[test]
    fn silent_engines_still_show_elapsed_time_and_counted_solutions() {
        let eta = EtaEstimator::default();
        assert_eq!(
            join(&describe(None, 0, Duration::from_secs(3725), &eta)),
            "1 h 2 min"
        );
        assert_eq!(
            join(&describe(None, 500, Duration::from_secs(5), &eta)),
            "500 solutions · 100 solutions/s · 5 s"
        );
    }

    #[test]
    fn lines_fit_the_width_dropping_the_least_useful_parts_first() {
        let parts = vec![
            (0, "123456/123456 tasks (100%)".to_string()),
            (1, "ETA ~1 h 2 min (rough)".to_string()),
            (2, "14772512 solutions".to_string()),
            (4, "123.4 M nodes/s".to_string()),
            (0, "1 h 2 min".to_string()),
        ];
        for width in [1, 10, 20, 40, 60, 80, 200] {
            let line = fit(&parts, width);
            assert!(line.chars().count() < width.max(2), "{width}: {line:?}");
        }
        assert_eq!(
            fit(&parts, 70),
            "123456/123456 tasks (100%) · ETA ~1 h 2 min (rough) · 1 h 2 min"
        );
        assert_eq!(fit(&parts, 200), join(&parts));
    }
}
