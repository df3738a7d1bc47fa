//! The `auto` row: which method `auto` stands for on a job and a board ([`Method::resolve`]),
//! and how it builds that method's engine.
//!
//! The invariant: `auto` never runs as itself; it resolves to one row of the table by the job
//! and the board's size, fixed queens and blocked squares (O(1), plus O(blocked) to see
//! whether there are any), then builds that row's engine, or for one completion of a big
//! board the [`Portfolio`] of cp and dancing links. Each rule below says which measurement
//! it rests on (BENCHMARKS.md has the runs).

use super::Method;
use crate::board::Problem;
use crate::engine::{self, Config, Descriptor, Engine, Job};
use crate::engines::counter;
use crate::engines::cp::Cp;
use crate::engines::portfolio::Portfolio;

/// From this board size on, `auto` answers `solve` without fixed queens by the construction.
pub const AUTO_CONSTRUCT_FROM: u32 = 25;

/// The `auto` row: every job on any board, by the method it resolves to.
pub static AUTO: Descriptor = Descriptor {
    name: "auto",
    about: || {
        format!(
            "pick the best method for the job and the board: the counter for counts of \
             whole boards (n ≤ {}), backtracking or the construction for one solution, and \
             for completions a root check, then cp with randomised restarts interleaved \
             with dancing links",
            counter::MAX_N
        )
    },
    max_n: None,
    jobs: engine::ALL_JOBS,
    takes_blocks: true,
    on_page: true,
    traceable: false,
    build,
    count_pace: None,
};

/// The engine of the method `auto` resolves to; one completion by cp runs as a [`Portfolio`]
/// (randomised Luby restarts, dancing links beside them where the board allows: no heavy
/// tail, see [`Method::resolve`]).
fn build(job: Job, problem: &Problem, config: &Config) -> Box<dyn Engine> {
    let method = Method::Auto.resolve(job, problem);
    if method == Method::Cp && job == Job::Solve && problem.is_completion() {
        let mut engine = Cp::new();
        engine.seed = Some(config.seed.unwrap_or(0));
        return Box::new(Portfolio::new(engine, problem, config));
    }
    assert_ne!(method, Method::Auto, "resolve never returns auto");
    method.build(job, problem, config)
}

impl Method {
    /// The method `auto` stands for on this job and problem; other methods are returned as
    /// they are.
    ///
    /// - Counting a board of up to [`counter::MAX_N`] rows: the counter (a whole board by its
    ///   symmetry classes; a board with fixed queens or blocked squares under per-row masks,
    ///   some seven times faster than plain backtracking on one thread).
    /// - One solution without fixed queens: backtracking below [`AUTO_CONSTRUCT_FROM`] rows
    ///   (instant there), the construction from then on (backtracking needs 0.1 s at n = 28 and
    ///   seconds beyond).
    /// - One completion (fixed queens) from [`AUTO_CONSTRUCT_FROM`] rows on: constraint
    ///   programming up to [`crate::engines::cp::MAX_N`] rows (first-fail finds completions in
    ///   milliseconds where row-by-row backtracking needs minutes from n ≈ 40, and it proves
    ///   there is none when that is so), local search beyond. [`Method::build`] runs it as a
    ///   [`Portfolio`]: a refutation at the root, then cp with randomised Luby restarts
    ///   interleaved with dancing links. Plain cp had a heavy tail on random sequential
    ///   placements near the phase transition: one board in 200 at n = 100 ran past 10 s, a
    ///   board without a completion that dancing links refutes in one node.
    /// - One solution of a board with blocked squares (blocked n-Queens), up to
    ///   [`crate::engines::dlx::MAX_N`] rows: exact cover (the bit engine, or up to n = 64 with
    ///   AVX2 the same search on one word per row). Branching on the row or column with the
    ///   fewest open squares is what blocked boards need: every instance of the ASP
    ///   competitions' set (n = 28 to 56) is decided, the median in 0.03 s and the slowest in
    ///   about 3 s, where cp and SAT run past 30 s on some (BENCHMARKS.md).
    /// - Listing from [`AUTO_CONSTRUCT_FROM`] rows on: constraint programming, whose first
    ///   solutions of a big board come in milliseconds (row-by-row backtracking takes seconds
    ///   to the first at n ≈ 30, and longer than anyone waits at n = 40).
    /// - Everything else (small boards, counting completions beyond [`counter::MAX_N`] rows):
    ///   backtracking. Counting a whole board beyond [`counter::MAX_N`] rows resolves to
    ///   backtracking too, but `auto` refuses to start that run ([`Method::refuse_hopeless`]).
    pub fn resolve(self, job: Job, problem: &Problem) -> Method {
        match self {
            Method::Auto
                if job == Job::Solve
                    && !problem.blocked().is_empty()
                    && problem.n() <= crate::engines::dlx::MAX_N =>
            {
                Method::Dlx
            }
            Method::Auto
                if matches!(job, Job::Count | Job::CountUnique)
                    && problem.n() <= counter::MAX_N =>
            {
                Method::Counter
            }
            Method::Auto if job == Job::Solve && !problem.is_completion() => {
                if problem.n() >= AUTO_CONSTRUCT_FROM {
                    Method::Construct
                } else {
                    Method::Backtrack
                }
            }
            Method::Auto if job == Job::Solve && problem.n() >= AUTO_CONSTRUCT_FROM => {
                if problem.n() <= crate::engines::cp::MAX_N {
                    Method::Cp
                } else {
                    Method::Local
                }
            }
            Method::Auto if job == Job::List && problem.n() >= AUTO_CONSTRUCT_FROM => Method::Cp,
            Method::Auto => Method::Backtrack,
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_picks_counter_construction_cp_and_local_search_by_job_and_size() {
        let plain = |n| Problem::new(n).unwrap();
        let auto = |job, p: &Problem| Method::Auto.resolve(job, p);
        assert_eq!(auto(Job::Solve, &plain(8)), Method::Backtrack);
        assert_eq!(auto(Job::Solve, &plain(24)), Method::Backtrack);
        assert_eq!(auto(Job::Solve, &plain(25)), Method::Construct);
        assert_eq!(auto(Job::Solve, &plain(1_000_000)), Method::Construct);
        assert_eq!(auto(Job::Count, &plain(25)), Method::Counter);
        assert_eq!(auto(Job::CountUnique, &plain(32)), Method::Counter);
        assert_eq!(auto(Job::Count, &plain(33)), Method::Backtrack);
        assert_eq!(auto(Job::List, &plain(12)), Method::Backtrack);
        let fixed = |n| Problem::with_fixed(n, [crate::board::Queen::new(0, 1)]).unwrap();
        assert_eq!(auto(Job::Solve, &fixed(24)), Method::Backtrack);
        assert_eq!(auto(Job::Solve, &fixed(25)), Method::Cp);
        assert_eq!(auto(Job::Solve, &fixed(20_000)), Method::Cp);
        assert_eq!(auto(Job::Solve, &fixed(20_001)), Method::Local);
        assert_eq!(auto(Job::Count, &fixed(12)), Method::Counter);
        assert_eq!(auto(Job::CountUnique, &fixed(32)), Method::Counter);
        assert_eq!(auto(Job::Count, &fixed(33)), Method::Backtrack);
        assert_eq!(auto(Job::List, &fixed(65)), Method::Cp);
        assert_eq!(auto(Job::List, &fixed(24)), Method::Backtrack);
        assert_eq!(auto(Job::List, &plain(24)), Method::Backtrack);
        assert_eq!(auto(Job::List, &plain(40)), Method::Cp);
    }
}
