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
use crate::engine::EngineError;
use crate::engine::Job;
use crate::engines::{backtrack, counter};

/// Solutions plain backtracking counts per second per thread, roughly (about 10⁶ measured at
/// n = 16 on a loaded machine; a fast core does a few times more).
pub const BACKTRACK_SOLUTIONS_PER_SECOND: f64 = 3e6;

/// A rough estimate of the seconds plain backtracking needs to count every solution of the
/// n×n board on `threads` threads: the solution count extrapolated from A000170(27) by the
/// ratio A000170(m) / A000170(m − 1) ≈ 0.389·m (10.5 at m = 27; Simkin's asymptotics
/// A000170(n) ≈ (n·e^−1.944)ⁿ give e^−0.944·m), divided by [`BACKTRACK_SOLUTIONS_PER_SECOND`] per
/// thread. Good to an order of magnitude, which is all a refusal needs.
pub fn backtrack_count_seconds(n: u32, threads: usize) -> f64 {
    let mut solutions = crate::instances::oeis::total(27).map_or(2.35e17, |t| t as f64);
    for m in 28..=n {
        solutions *= 0.389 * f64::from(m);
    }
    solutions / (BACKTRACK_SOLUTIONS_PER_SECOND * threads.max(1) as f64)
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
        threads: usize,
    ) -> Result<(), EngineError> {
        let n = problem.n();
        if self != Method::Auto
            || !matches!(job, Job::Count | Job::CountUnique)
            || problem.is_completion()
            || n <= counter::MAX_N
        {
            return Ok(());
        }
        let threads = threads.max(1);
        let plural = if threads == 1 { "" } else { "s" };
        Err(EngineError::Unsupported {
            method: self.name(),
            job,
            reason: format!(
                "n = {n} is beyond the counter (it covers n ≤ {}; the largest board ever counted is n = 27), and plain backtracking would need {} on {threads} thread{plural}; ask for a search method by name to run it anyway",
                counter::MAX_N,
                rough_duration(backtrack_count_seconds(n, threads))
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
    const YEAR: f64 = 365.25 * 86400.0;
    if seconds < 120.0 {
        return format!("about {:.0} seconds", seconds.max(1.0));
    }
    if seconds < 2.0 * 3600.0 {
        return format!("about {:.0} minutes", seconds / 60.0);
    }
    if seconds < 2.0 * 86400.0 {
        return format!("about {:.0} hours", (seconds / 3600.0).max(1.0));
    }
    if seconds < 2.0 * YEAR {
        return format!("about {:.0} days", seconds / 86400.0);
    }
    let years = seconds / YEAR;
    if years < 1e4 {
        return format!("about {years:.0} years");
    }
    let exponent = years.log10().floor();
    let mantissa = (years / 10f64.powf(exponent)).round().min(9.0);
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
        for job in [Job::Count, Job::CountUnique] {
            assert!(Method::Auto.refuse_hopeless(job, &plain(32), 2).is_ok());
            for n in [33, 40, 64] {
                let message = Method::Auto
                    .refuse_hopeless(job, &plain(n), 2)
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
                    .refuse_hopeless(job, &plain(40), 2)
                    .is_ok()
            );
            let fixed = Problem::with_fixed(40, [crate::board::Queen::new(0, 1)]).unwrap();
            assert!(Method::Auto.refuse_hopeless(job, &fixed, 2).is_ok());
        }
        assert!(
            Method::Auto
                .refuse_hopeless(Job::List, &plain(40), 2)
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
    }
}
