//! The engine: attempts from fresh starts, each repaired up to its step limit, until one
//! leaves no collision or the attempts or limits run out. Each attempt costs O(n) plus O(1)
//! per step.

use nqueens_support::{Budget, LimitReached};

use super::blocks::{BlockedSquares, Blocks, NoBlocks};
use super::search::Search;
use super::{DESCRIPTOR, Local};
use crate::board::{Problem, Solution};
use crate::engine::EngineError;
use crate::engine::{Descriptor, Engine, Job, Outcome, Progress, Stats};

impl Engine for Local {
    fn descriptor(&self) -> &'static Descriptor {
        &DESCRIPTOR
    }

    fn check(&self, job: Job, _problem: &Problem) -> Result<(), EngineError> {
        if job != Job::Solve {
            return Err(EngineError::Unsupported {
                method: self.name(),
                job,
                reason: "local search finds one solution at a time and cannot prove there are \
                         no more; use a search method to list or count"
                    .into(),
            });
        }
        Ok(())
    }

    fn solve(&mut self, problem: &Problem) -> Result<Outcome, EngineError> {
        self.check(Job::Solve, problem)?;
        let n = problem.n();
        let attempts = self
            .max_attempts
            .unwrap_or_else(|| Self::default_attempts(n))
            .max(1);
        let max_steps = self.max_steps.unwrap_or_else(|| Self::default_steps(n));
        let mut budget = Budget::start(&self.limits);
        let gave_up = |reached: LimitReached| Err(EngineError::stopped_by(self.name(), reached, 0));
        if problem.blocked().is_empty() {
            match Search::new(problem, NoBlocks, self.seed, &budget)? {
                Ok(search) => self.run(search, problem, attempts, max_steps, &mut budget),
                Err(reached) => gave_up(reached),
            }
        } else {
            let squares = problem
                .blocked()
                .iter()
                .map(|q| u64::from(q.row) * u64::from(n) + u64::from(q.col));
            let blocks = Blocks(squares.collect());
            match Search::new(problem, blocks, self.seed, &budget)? {
                Ok(search) => self.run(search, problem, attempts, max_steps, &mut budget),
                Err(reached) => gave_up(reached),
            }
        }
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

impl Local {
    /// [`Engine::solve`] with the search built.
    fn run<B: BlockedSquares>(
        &mut self,
        mut search: Search<B>,
        problem: &Problem,
        attempts: u32,
        max_steps: u64,
        budget: &mut Budget,
    ) -> Result<Outcome, EngineError> {
        let mut solved = false;
        let mut reached = None;
        for attempt in 1..=attempts {
            search.counters.attempts = u64::from(attempt);
            let tried = search
                .start(self.start, problem, budget)
                .and_then(|()| search.repair(max_steps, budget));
            solved = match tried {
                Ok(solved) => solved,
                Err(limit) => {
                    reached = Some(limit);
                    false
                }
            };
            if let Some(sink) = &self.progress {
                sink.report(&Progress {
                    done: u64::from(attempt),
                    total: Some(u64::from(attempts)),
                    solutions: u128::from(solved),
                    nodes: u128::from(search.counters.steps),
                    ..Progress::default()
                });
            }
            if solved || reached.is_some() {
                break;
            }
        }
        let c = search.counters;
        self.stats = Stats::default();
        self.stats.set("attempts", u128::from(c.attempts));
        self.stats.set("placements", u128::from(c.placements));
        self.stats.set("forced", u128::from(c.forced));
        self.stats
            .set("start_collisions", u128::from(c.start_collisions));
        self.stats.set("steps", u128::from(c.steps));
        self.stats.set("swaps", u128::from(c.swaps));
        self.stats.set("rescans", u128::from(c.rescans));
        if let Some(reached) = reached {
            return Err(EngineError::stopped_by(self.name(), reached, 0));
        }
        if !solved {
            let attempts = LimitReached::Attempts {
                attempts: u64::from(attempts),
                steps: max_steps,
            };
            return Err(EngineError::stopped_by(self.name(), attempts, 0));
        }
        let solution = Solution::from_columns(search.columns);
        debug_assert_eq!(crate::board::verify::verify(problem, &solution), Ok(()));
        Ok(Outcome::Found(solution))
    }
}
