//! A count's work foretold before it starts (`count N --estimate`): the work model's total
//! (`engines::counter::estimate`), checked against a short probe that counts randomly drawn
//! tasks exactly, with the uncertainty of both, and the node rate the probe measured.
//!
//! # The estimate and its interval
//!
//! The model gives each task `m_i` queens (Knuth's estimate, the mean of its probes) and the
//! variance of that mean; over all N tasks, `M = Σ m_i` with variance `V_M = Σ var_i`. The
//! probe counts k tasks drawn at random (without replacement, from a seed), finding their
//! real queens `r_i`; the ratio `ρ = Σ r_i / Σ m_i` corrects the model's bias, and the
//! estimate is `ρ·M`. Its standard error combines the ratio's (the ratio estimator's
//! variance under simple random sampling, `(1 − k/N) · Σ (r_i − ρ m_i)² / (k (k − 1) m̄²)`)
//! with the model's own noise: `SE² = (M·SE_ρ)² + (ρ)²·V_M`. The interval is three standard
//! errors either side. With fewer than two tasks finished in the probe (the tasks of a record
//! size last hours), the ratio is taken as 1 and the interval widened by a further 5 % of M
//! either side: the model alone has come within 3 % of the real work in every count measured
//! (n = 10, 12 and 14 in its tests, 16 and 18 in `engines::counter::estimate`'s essay, 17
//! here: 8.818·10⁸ against the 8.784·10⁸ queens the count places).
//!
//! # The time
//!
//! The probe counts on the run's threads with the counter's own loops (pieces, lanes), and
//! its queens over its wall time are the rate; the estimated time is the estimate (and each
//! end of its interval) at that rate. The interval is the work's, not the machine's: a
//! machine busy with other work, or a rate that changes over the count, moves the time
//! outside it. For n = 17 on two loaded cores (the `checked` profile) it said 14.1 s
//! (13.5 s to 14.7 s); the count took about 13 s. The model costs what a count's progress line pays for it
//! (a second of one core at n = 27); the probe lasts its budget, or until it has counted its
//! tasks.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use nqueens_support::SplitMix64;

use super::error::CounterError;
use crate::board::Problem;
use crate::engine::Engine;
use crate::engine::EngineError;
use crate::engines::counter::estimate::estimate_with_spread;
use crate::engines::counter::kernel::Scratch;
use crate::engines::counter::pieces::{self, Partial, TaskEnd};
use crate::engines::counter::tasks::TaskId;
use crate::engines::counter::work::Work;
use crate::engines::counter::{Counter, MAX_N};

/// How long a probe may count, and how much.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeBudget {
    /// Wall time the probe may take (the model's time not included).
    pub time: Duration,
    /// Tasks it counts at most (it stops once it has finished these many).
    pub tasks: usize,
    /// The seed of the draw: the same seed draws the same tasks.
    pub seed: u64,
}

impl Default for ProbeBudget {
    /// Two seconds, up to 400 tasks, seed 0.
    fn default() -> Self {
        ProbeBudget {
            time: Duration::from_secs(2),
            tasks: 400,
            seed: 0,
        }
    }
}

/// The work of a count, foretold. See the [module documentation](self).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Forecast {
    /// Board size.
    pub n: u32,
    /// Tasks in the count.
    pub tasks: u64,
    /// The model's total queens.
    pub model: f64,
    /// Tasks the probe finished.
    pub probed: u64,
    /// The real queens of those tasks over the model's (1 with fewer than two).
    pub ratio: f64,
    /// The estimated queens of the whole count.
    pub nodes: f64,
    /// The estimate's standard error.
    pub error: f64,
    /// The interval's ends (three standard errors either side, and the model's allowance
    /// without a probe: see the [module documentation](self)).
    pub low: f64,
    /// See `low`.
    pub high: f64,
    /// Queens a second the probe placed on its threads (`None` if it placed none).
    pub rate: Option<f64>,
    /// The threads it counted on.
    pub threads: usize,
}

impl Forecast {
    /// The estimated seconds of the count, with the interval's: `(low, estimate, high)` at
    /// the probe's rate.
    pub fn seconds(&self) -> Option<(f64, f64, f64)> {
        let rate = self.rate?;
        Some((self.low / rate, self.nodes / rate, self.high / rate))
    }
}

/// Foretells the work of counting the whole n×n board on `threads` threads, probing within
/// `budget`; a raised `stop` ends the model or the probe early (the forecast then stands on
/// what was done; `None` if the model was not finished).
pub fn forecast(
    n: u32,
    threads: usize,
    budget: &ProbeBudget,
    stop: &AtomicBool,
) -> Result<Option<Forecast>, CounterError> {
    let problem = Problem::new(n).map_err(EngineError::from)?;
    Counter::default().check(crate::engine::Job::Count, &problem)?;
    debug_assert!(n <= MAX_N);
    let work = Work::of(&problem, false);
    let ids: Vec<TaskId> = work.ids().collect();
    let Some(model) = estimate_with_spread(&work, &ids, stop) else {
        return Ok(None);
    };
    let total: f64 = model.iter().map(|&(m, _)| f64::from(m)).sum();
    let variance: f64 = model.iter().map(|&(_, v)| f64::from(v)).sum();
    // The tasks in a seeded random order.
    let mut order = ids.clone();
    let mut rng = SplitMix64::new(budget.seed);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below_u64(i as u64 + 1) as usize);
    }
    let (finished, placed, seconds) = probe(&work, &order, threads, budget, stop);
    let mut f = Forecast {
        n,
        tasks: ids.len() as u64,
        model: total,
        probed: finished.len() as u64,
        ratio: 1.0,
        nodes: total,
        error: variance.sqrt(),
        low: 0.0,
        high: 0.0,
        rate: (placed > 0 && seconds > 0.0).then(|| placed as f64 / seconds),
        threads,
    };
    let allowance = if finished.len() >= 2 {
        let pairs: Vec<(f64, f64)> = finished
            .iter()
            .map(|&(id, real)| (f64::from(model[id.index()].0), real as f64))
            .collect();
        let k = pairs.len() as f64;
        let (sum_m, sum_r) = pairs
            .iter()
            .fold((0.0, 0.0), |(m, r), &(mi, ri)| (m + mi, r + ri));
        let ratio = sum_r / sum_m.max(1.0);
        let residuals: f64 = pairs
            .iter()
            .map(|&(mi, ri)| (ri - ratio * mi).powi(2))
            .sum();
        let mean_m = sum_m / k;
        let coverage = 1.0 - k / ids.len() as f64;
        let ratio_error =
            (coverage.max(0.0) * residuals / (k * (k - 1.0)) / mean_m.max(1.0).powi(2)).sqrt();
        f.ratio = ratio;
        f.nodes = ratio * total;
        f.error = ((total * ratio_error).powi(2) + ratio * ratio * variance).sqrt();
        0.0
    } else {
        0.05 * total
    };
    f.low = (f.nodes - 3.0 * f.error - allowance).max(0.0);
    f.high = f.nodes + 3.0 * f.error + allowance;
    Ok(Some(f))
}

/// Counts tasks in `order` on `threads` threads until `budget` is spent or `stop` is raised:
/// the tasks finished with their queens, all queens placed (the stopped tasks' finished
/// pieces too), and the seconds it took.
fn probe(
    work: &Work,
    order: &[TaskId],
    threads: usize,
    budget: &ProbeBudget,
    stop: &AtomicBool,
) -> (Vec<(TaskId, u64)>, u64, f64) {
    let n = work.n();
    let started = Instant::now();
    let halt = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let finished = Mutex::new(Vec::new());
    let placed = AtomicUsize::new(0);
    let cut = pieces::cut_row(n, work.depth(), pieces::PIECE_ROWS);
    let workers = threads.clamp(1, order.len().max(1));
    let running = AtomicUsize::new(workers);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut scratch = Box::<Scratch>::default();
                while !halt.load(Ordering::Relaxed) {
                    let at = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&id) = order.get(at).filter(|_| at < budget.tasks) else {
                        break;
                    };
                    let prefix = work.prefix(id);
                    let end = pieces::count_task(
                        work.board(prefix),
                        n,
                        id,
                        prefix,
                        &Partial::start(cut),
                        &halt,
                        &mut scratch,
                        &mut |_| {},
                    );
                    let nodes = match end {
                        Ok(TaskEnd::Done(result)) => {
                            if let Ok(mut finished) = finished.lock() {
                                finished.push((id, result.nodes));
                            }
                            result.nodes
                        }
                        Ok(TaskEnd::Stopped(partial)) => partial.found.nodes,
                        Err(_) => 0,
                    };
                    placed.fetch_add(nodes as usize, Ordering::Relaxed);
                }
                running.fetch_sub(1, Ordering::Relaxed);
            });
        }
        // The clock and the stop flag, watched from here.
        scope.spawn(|| {
            while !halt.load(Ordering::Relaxed) {
                if stop.load(Ordering::Relaxed) || started.elapsed() >= budget.time {
                    halt.store(true, Ordering::Relaxed);
                }
                if running.load(Ordering::Relaxed) == 0 {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
    });
    let seconds = started.elapsed().as_secs_f64();
    let mut finished = finished.into_inner().unwrap_or_default();
    finished.sort_unstable();
    (finished, placed.load(Ordering::Relaxed) as u64, seconds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::counter::TaskList;
    use crate::engines::counter::kernel::{self, Scratch};

    /// The forecast's interval holds the queens the counter really places, and is narrow
    /// enough to say something: at most a fifth of the estimate either side.
    #[test]
    fn the_interval_holds_the_real_work() {
        let never = AtomicBool::new(false);
        let mut scratch = Scratch::default();
        for (n, seed) in [(10, 1), (12, 2), (13, 3), (14, 4)] {
            let list = TaskList::new(n);
            let real: u64 = list
                .ids()
                .map(|id| kernel::solve_task(n, list.prefix(id), &mut scratch).nodes)
                .sum();
            let budget = ProbeBudget {
                time: Duration::from_secs(3600),
                tasks: 24,
                seed,
            };
            let f = forecast(n, 1, &budget, &never).unwrap().unwrap();
            assert_eq!(f.probed, 24, "n = {n}");
            let real = real as f64;
            assert!(
                f.low <= real && real <= f.high,
                "n = {n}: {real} outside {}..{} (estimate {})",
                f.low,
                f.high,
                f.nodes
            );
            assert!(f.high - f.low <= 0.4 * f.nodes, "n = {n}: {f:?}");
        }
    }
}
