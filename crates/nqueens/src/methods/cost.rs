//! What a count costs before it starts: `auto`'s refusal of a count no one would wait for
//! ([`Method::refuse_hopeless`]) and the warning before a long count of a board with fixed
//! queens or blocked squares ([`Method::long_count_warning`]).
//!
//! The model: a whole board's solutions extrapolated from the published A000170(27) at a
//! measured rate per thread ([`backtrack_count_seconds`]); a board with fixed queens has no
//! published size, so its tree is estimated by Knuth's random probes
//! ([`crate::engines::backtrack::estimate_nodes`], 1,000 paths: O(1000·n²)) and divided by the
//! pace of the method's row ([`CountPace`](crate::engine::CountPace)). Good to an order of
//! magnitude, which is all a refusal or a warning needs.

use super::Method;
use crate::board::Problem;
use crate::engine::Job;
use crate::engine::{Config, EngineError};
use crate::engines::{backtrack, counter};

/// Solutions plain backtracking counts per second per thread, roughly (about 10⁶ measured at
/// n = 16 on a loaded machine; a fast core does a few times more).
pub const BACKTRACK_SOLUTIONS_PER_SECOND: f64 = 3e6;

/// A rough estimate of the seconds plain backtracking needs to count every solution of the
/// n×n board on `threads` threads: the solution count extrapolated from A000170(27) by the
/// ratio A000170(m) / A000170(m − 1) ≈ 0.389·m (10.5 at m = 27; Simkin's asymptotics
/// A000170(n) ≈ (n·e^−1.944)ⁿ give e^−0.944·m), divided by [`BACKTRACK_SOLUTIONS_PER_SECOND`] per
/// thread. Good to an order of magnitude, which is all a refusal needs. Infinite past about
/// n = 160 (the estimate overflows an `f64`); [`backtrack_count_log10_seconds`] is finite for
/// every n.
pub fn backtrack_count_seconds(n: u32, threads: usize) -> f64 {
    10f64.powf(log10_backtrack_solutions(n)) / backtrack_rate(threads)
}

/// The base-10 logarithm of [`backtrack_count_seconds`], finite for every n (n = 2³² − 1 gives
/// about 3.8·10¹⁰: a number of years with that many digits), in O(1).
pub fn backtrack_count_log10_seconds(n: u32, threads: usize) -> f64 {
    log10_backtrack_solutions(n) - backtrack_rate(threads).log10()
}

fn backtrack_rate(threads: usize) -> f64 {
    BACKTRACK_SOLUTIONS_PER_SECOND * threads.max(1) as f64
}

/// log10 of the extrapolated A000170(n) for n ≥ 27 (A000170(27) itself below): log10
/// A000170(27) + Σ_{m=28..n} log10(0.389·m) = … + (n − 27)·log10 0.389 + log10(n! / 27!).
fn log10_backtrack_solutions(n: u32) -> f64 {
    let at27 = crate::instances::oeis::total(27).map_or(2.35e17, |t| t as f64);
    let rows = f64::from(n.saturating_sub(27));
    let ln_growth = rows * 0.389f64.ln() + ln_factorial(n.max(27)) - ln_factorial(27);
    at27.log10() + ln_growth / std::f64::consts::LN_10
}

/// ln(n!): the plain sum up to n = 256, Stirling's series beyond (relative error under 10⁻¹²
/// there), so that no caller loops over a huge n.
fn ln_factorial(n: u32) -> f64 {
    if n <= 256 {
        return (2..=n).map(|m| f64::from(m).ln()).sum();
    }
    let n = f64::from(n);
    n * n.ln() - n + 0.5 * (std::f64::consts::TAU * n).ln() + 1.0 / (12.0 * n)
}

/// Counts expected to take longer than this get a warning with the estimate.
pub const LONG_COUNT_SECONDS: f64 = 10.0;

impl Method {
    /// Refuses, under `auto`, a run no one would wait for: counting the solutions of a whole
    /// board beyond the counter's [`counter::MAX_N`] rows, which only plain backtracking can
    /// do, without symmetry and in roughly [`backtrack_count_seconds`]. The error gives that
    /// estimate; asking for a search method by name runs it (with progress).
    pub fn refuse_hopeless(
        self,
        job: Job,
        problem: &Problem,
        config: &Config,
    ) -> Result<(), EngineError> {
        let n = problem.n();
        if self != Method::Auto
            || !matches!(job, Job::Count | Job::CountUnique)
            || problem.is_completion()
            || n <= counter::MAX_N
        {
            return Ok(());
        }
        let threads = config.threads.max(1);
        let plural = if threads == 1 { "" } else { "s" };
        // The way out, where there is one: a method that takes the job by name.
        let by_name = Method::ALL
            .iter()
            .filter(|&&m| m != Method::Auto)
            .any(|m| m.build(job, problem, config).check(job, problem).is_ok());
        let way_out = if by_name {
            "; ask for a search method by name to run it anyway"
        } else {
            ""
        };
        Err(EngineError::Unsupported {
            method: self.name(),
            job,
            reason: format!(
                "n = {n} is beyond the counter (it covers n ≤ {}; the largest board ever counted is n = 27), and plain backtracking would need {} on {threads} thread{plural}{way_out}",
                counter::MAX_N,
                rough_duration_log10(backtrack_count_log10_seconds(n, threads))
            ),
        })
    }

    /// A warning for a count of a board with fixed queens or blocked squares (whose tree has
    /// no published size) that this method runs by backtracking or the counter and that will
    /// take more than [`LONG_COUNT_SECONDS`]: the time estimated from 1,000 random paths
    /// through plain backtracking's search tree
    /// ([`crate::engines::backtrack::estimate_nodes`]), at each method's pace. `None` for short
    /// counts and for other methods and jobs. Front ends print it before they start, so a
    /// count that cannot finish is never silent.
    pub fn long_count_warning(self, job: Job, problem: &Problem, threads: usize) -> Option<String> {
        if !matches!(job, Job::Count | Job::CountUnique)
            || !problem.is_completion()
            || problem.n() > backtrack::MAX_N
        {
            return None;
        }
        let pace = self.resolve(job, problem).descriptor().count_pace?;
        let threads = if pace.splits_first_row && problem.fixed_column(0).is_some() {
            // A fixed queen in the first row leaves one task.
            1
        } else {
            threads.max(1)
        };
        let (pace, how) = (pace.nodes_per_second, pace.how);
        const PROBES: u32 = 1000;
        let nodes = backtrack::estimate_nodes(problem, PROBES, 0);
        let seconds = nodes / (pace * threads as f64);
        (seconds > LONG_COUNT_SECONDS).then(|| {
            let plural = if threads == 1 { "" } else { "s" };
            format!(
                "counting the solutions of this board {how} needs {} on {threads} thread{plural} (about {nodes:.0e} nodes of the backtracking tree, estimated from {PROBES} random paths through it; such estimates are rough)",
                rough_duration(seconds)
            )
        })
    }
}

/// Seconds as a rough duration for messages: "about 40 seconds", "about 3 days", "about
/// 3×10^9 years".
fn rough_duration(seconds: f64) -> String {
    rough_duration_log10(seconds.log10())
}

/// [`rough_duration`] of 10^`log10_seconds` seconds, for durations too long for an `f64`
/// too: "about 4×10^17 years", "about 2×10^37746813901 years" (n = 2³² − 1 on 2 threads).
fn rough_duration_log10(log10_seconds: f64) -> String {
    const YEAR: f64 = 365.25 * 86400.0;
    if log10_seconds < (2.0 * YEAR).log10() {
        let seconds = 10f64.powf(log10_seconds);
        return if seconds < 120.0 {
            format!("about {:.0} seconds", seconds.max(1.0))
        } else if seconds < 2.0 * 3600.0 {
            format!("about {:.0} minutes", seconds / 60.0)
        } else if seconds < 2.0 * 86400.0 {
            format!("about {:.0} hours", seconds / 3600.0)
        } else {
            format!("about {:.0} days", seconds / 86400.0)
        };
    }
    let log10_years = log10_seconds - YEAR.log10();
    if log10_years < 4.0 {
        return format!("about {:.0} years", 10f64.powf(log10_years));
    }
    let mut exponent = log10_years.floor();
    let mut mantissa = 10f64.powf(log10_years - exponent).round();
    if mantissa >= 10.0 {
        // 9.6×10^k rounds to 10×10^k: say 1×10^(k+1).
        mantissa = 1.0;
        exponent += 1.0;
    }
    format!("about {mantissa:.0}×10^{exponent:.0} years")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::engines::backtrack::Backtrack;

    #[test]
    fn random_probes_estimate_the_backtracking_tree_and_long_completion_counts_are_flagged() {
        use crate::engines::backtrack::estimate_nodes;
        // Knuth's estimate is unbiased: with many probes it comes near the real node count.
        for (n, fixed) in [
            (10, vec![]),
            (11, vec![crate::board::Queen::new(1, 3)]),
            (12, vec![]),
        ] {
            let problem = Problem::with_fixed(n, fixed).unwrap();
            let mut engine = Backtrack::new(1);
            engine.count(&problem, false).unwrap();
            let nodes = engine.stats().get("nodes").unwrap() as f64;
            let estimate = estimate_nodes(&problem, 20_000, 7);
            assert!(
                (estimate / nodes - 1.0).abs() < 0.15,
                "n = {n}: estimate {estimate:.0}, nodes {nodes}"
            );
        }
        // The board a user met: 50 rows, 20 queens of a solution kept, counted for hours.
        use crate::instances::generate::{Placement, generate};
        let problem = generate(Placement::FromSolution, 50, 20, 2, None).unwrap();
        let warning = Method::Auto
            .long_count_warning(Job::Count, &problem, 2)
            .expect("a long count");
        assert!(warning.contains("random paths"), "{warning}");
        assert!(!warning.contains("seconds"), "{warning}");
        let small = Problem::with_fixed(8, [crate::board::Queen::new(0, 0)]).unwrap();
        assert_eq!(Method::Auto.long_count_warning(Job::Count, &small, 2), None);
        // Whole boards are the counter's (or refused), other jobs never warned about.
        assert_eq!(
            Method::Auto.long_count_warning(Job::Count, &Problem::new(30).unwrap(), 2),
            None
        );
    }

    #[test]
    fn auto_refuses_to_count_beyond_the_counter_and_says_how_long_it_would_take() {
        let plain = |n| Problem::new(n).unwrap();
        let two = Config {
            threads: 2,
            ..Config::default()
        };
        for job in [Job::Count, Job::CountUnique] {
            assert!(Method::Auto.refuse_hopeless(job, &plain(32), &two).is_ok());
            for n in [33, 40, 64] {
                let message = Method::Auto
                    .refuse_hopeless(job, &plain(n), &two)
                    .unwrap_err()
                    .to_string();
                assert!(
                    message.contains(&format!("n = {n} is beyond the counter (it covers n ≤ 32; the largest board ever counted is n = 27)")),
                    "{message}"
                );
                assert!(message.contains("years on 2 threads"), "{message}");
                assert!(
                    !message.contains("--"),
                    "no flags in library messages: {message}"
                );
            }
            // By name, backtracking runs; completions and other jobs are not refused.
            assert!(
                Method::Backtrack
                    .refuse_hopeless(job, &plain(40), &two)
                    .is_ok()
            );
            let fixed = Problem::with_fixed(40, [crate::board::Queen::new(0, 1)]).unwrap();
            assert!(Method::Auto.refuse_hopeless(job, &fixed, &two).is_ok());
        }
        assert!(
            Method::Auto
                .refuse_hopeless(Job::List, &plain(40), &two)
                .is_ok()
        );
        // The estimate: millennia at n = 28 on one thread (n = 27 took a year of many FPGAs),
        // each further row about 0.389·n times more.
        let year = 365.25 * 86400.0;
        let at28 = backtrack_count_seconds(28, 1) / year;
        assert!((1e3..1e6).contains(&at28), "{at28}");
        let at33 = backtrack_count_seconds(33, 1) / year;
        assert!((1e5..1e6).contains(&(at33 / at28)), "{at33}");
        assert_eq!(
            backtrack_count_seconds(33, 4) * 4.0,
            backtrack_count_seconds(33, 1)
        );
        assert_eq!(rough_duration(3.0 * 86400.0), "about 3 days");
        assert_eq!(rough_duration(1e17), "about 3×10^9 years");
        assert_eq!(rough_duration(45.0), "about 45 seconds");
        assert_eq!(rough_duration(600.0), "about 10 minutes");
        // 9.6×10^9 years is 1×10^10, not 9×10^9.
        assert_eq!(rough_duration(9.6e9 * year), "about 1×10^10 years");
        // The logarithm agrees with the plain estimate where both are finite, and stays
        // finite (and quick: no loop over the rows) where the plain one overflows.
        for n in [27, 28, 33, 64, 150] {
            let plain = backtrack_count_seconds(n, 2).log10();
            let log = backtrack_count_log10_seconds(n, 2);
            assert!((plain - log).abs() < 1e-9, "n = {n}: {plain} against {log}");
        }
        let n = 300;
        assert_eq!(backtrack_count_seconds(n, 2), f64::INFINITY);
        let log = backtrack_count_log10_seconds(n, 2);
        let summed: f64 = (28..=n)
            .map(|m| (0.389 * f64::from(m)).log10())
            .sum::<f64>()
            + (crate::instances::oeis::total(27).unwrap() as f64).log10()
            - (2.0 * BACKTRACK_SOLUTIONS_PER_SECOND).log10();
        assert!((log - summed).abs() < 1e-6, "{log} against {summed}");
        let huge = backtrack_count_log10_seconds(u32::MAX, 2);
        assert!(
            huge.is_finite() && (3.7e10..3.8e10).contains(&huge),
            "{huge}"
        );
        let message = Method::Auto
            .refuse_hopeless(Job::Count, &plain(1000), &two)
            .unwrap_err()
            .to_string();
        assert!(message.contains("about 5×10^2143 years"), "{message}");
        assert!(message.ends_with("; ask for a search method by name to run it anyway"));
        // Past every method's largest board there is no way out to offer.
        let message = Method::Auto
            .refuse_hopeless(Job::Count, &plain(100_000), &two)
            .unwrap_err()
            .to_string();
        assert!(message.ends_with(" years on 2 threads"), "{message}");
    }
}
