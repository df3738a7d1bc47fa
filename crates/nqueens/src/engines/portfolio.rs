//! `auto`'s engine for one completion: a refutation at the root, then constraint programming
//! with randomised restarts interleaved with dancing links on doubling node budgets.
//!
//! The invariant: the answer is the first engine's that decides the board (a completion or a
//! proof that there is none), and the run is deterministic (one thread, budgets in nodes), so
//! the same board gives the same answer and counters on every machine. Cost: at most about
//! four times the better engine's own nodes (see [`Portfolio`]). It is not a method of its
//! own: `auto` builds it (`crate::methods`), and it reads the `cp` row
//! ([`crate::engines::cp::DESCRIPTOR`]), whose engine it mostly runs.

use nqueens_support::{Budget, LimitReached};

use crate::board::Problem;
use crate::engine::EngineError;
use crate::engine::{Config, Descriptor, Engine, Job, Limits, Outcome, Stats};
use crate::engines::cp::{self, Cp};
use crate::engines::dlx::{self, Dlx};

/// The first node budget of each engine in a [`Portfolio`] round, on top of two nodes per free
/// row (what a run without a single failure needs).
pub const FIRST_BUDGET: u64 = 1000;

/// Above this many rows dancing links joins a [`Portfolio`] only from round
/// [`DLX_LATE_ROUND`]: building its matrix costs more there (0.5–1 s at n = 500)
/// than cp's first rounds, which answer most boards.
pub const DLX_LATE_FROM: u32 = 200;

/// The round from which dancing links joins on boards above [`DLX_LATE_FROM`] rows.
pub const DLX_LATE_ROUND: u64 = 3;

/// `auto`'s engine for one completion: a cheap refutation at the root, then constraint
/// programming with randomised Luby restarts and (up to [`dlx::MAX_N`] rows) dancing links,
/// interleaved on one thread with doubling node budgets.
///
/// **The root check** ([`root_refutes`]) proves "no completion" when a free row has no
/// unattacked square or a free column no unattacked square: on random sequential placements
/// that catches many of the boards without a completion (13 of 29 in a set of 200 at n = 100,
/// K = 65–80), and it costs O(free rows · free columns) at worst, far less in practice.
///
/// **The rounds.** Round i gives each engine, cp first, a fresh run of B·2^i search nodes (B:
/// two per free row plus [`FIRST_BUDGET`]); the first to answer (a completion, or a
/// proof that there is none) ends the search; above [`DLX_LATE_FROM`] rows dancing
/// links sits out the first rounds. The two fail on different instances: cp with
/// restarts finds completions fast but proves "no completion" only by exhausting its tree,
/// with value elimination that never notices a column no row can take; dancing links branches
/// on rows *and* columns, so it proves those fast, but has no restarts. Doubling budgets cost
/// at most about four times the better engine's own nodes (each round repeats the last one's
/// work, and both engines run), and keep the run deterministic: the same board gives the same
/// answer and the same counters on every machine, which a race of threads would not. Beyond
/// [`dlx::MAX_N`] rows cp runs alone, with the caller's limits.
///
/// The caller's limits apply to the whole search: a time budget or stop flag ends it (as
/// [`EngineError::Stopped`]), and a node budget caps every run.
pub struct Portfolio {
    cp: Cp,
    dlx: Option<Dlx>,
    limits: Limits,
    stats: Stats,
}

impl Portfolio {
    /// The portfolio of `cp` (already seeded for restarts) and, where the board allows, dancing
    /// links, under the limits of `config`.
    pub fn new(cp: Cp, problem: &Problem, config: &Config) -> Self {
        let dlx = (problem.n() <= dlx::MAX_N).then(|| {
            let mut dlx = Dlx::new(dlx::Encoding::Secondary, config.seed);
            dlx.limits = config.limits.clone();
            dlx
        });
        Portfolio {
            cp,
            dlx,
            limits: config.limits.clone(),
            stats: Stats::default(),
        }
    }
}

/// Whether the fixed queens leave a free row without an unattacked square, or a free column
/// without one: then the board has no completion. Stops at the first unattacked square of each
/// line, so it costs little unless the board is nearly stuck.
pub fn root_refutes(problem: &Problem) -> bool {
    let n = problem.n() as usize;
    let mut row_used = vec![false; n];
    let mut col_used = vec![false; n];
    let mut diagonal = vec![false; 2 * n];
    let mut anti = vec![false; 2 * n];
    for q in problem.fixed() {
        let (r, c) = (q.row as usize, q.col as usize);
        row_used[r] = true;
        col_used[c] = true;
        diagonal[r + n - c] = true;
        anti[r + c] = true;
    }
    let free_rows: Vec<usize> = (0..n).filter(|&r| !row_used[r]).collect();
    let free_cols: Vec<usize> = (0..n).filter(|&c| !col_used[c]).collect();
    let open = |r: usize, c: usize| !diagonal[r + n - c] && !anti[r + c];
    free_rows
        .iter()
        .any(|&r| !free_cols.iter().any(|&c| open(r, c)))
        || free_cols
            .iter()
            .any(|&c| !free_rows.iter().any(|&r| open(r, c)))
}

impl Engine for Portfolio {
    /// The `cp` row: its largest board and blocked squares (dancing links honours both too).
    fn descriptor(&self) -> &'static Descriptor {
        &cp::DESCRIPTOR
    }

    fn name(&self) -> &'static str {
        if self.dlx.is_some() { "cp+dlx" } else { "cp" }
    }

    /// One solution only: the rounds race to the first answer.
    fn jobs(&self) -> &'static [Job] {
        &[Job::Solve]
    }

    fn solve(&mut self, problem: &Problem) -> Result<Outcome, EngineError> {
        self.check(Job::Solve, problem)?;
        if root_refutes(problem) {
            self.stats = Stats::default();
            self.stats.set("root_refuted", 1);
            return Ok(Outcome::NoSolution);
        }
        if let Err(reached) = Budget::start(&self.limits).check_now() {
            return Err(self.gave_up(0, 0, reached));
        }
        if self.dlx.is_none() {
            self.cp.limits = self.limits.clone();
            let outcome = self.cp.solve(problem)?;
            self.stats = self.cp.stats();
            return Ok(outcome);
        }
        let start = std::time::Instant::now();
        let free_rows = u64::from(problem.n()) - problem.fixed().len() as u64;
        let mut budget = 2 * free_rows + FIRST_BUDGET;
        let mut total_nodes = 0u128;
        let dlx_from = if problem.n() > DLX_LATE_FROM {
            DLX_LATE_ROUND
        } else {
            1
        };
        for round in 1u64.. {
            for which in 0..2u8 {
                if which == 1 && round < dlx_from {
                    continue;
                }
                if let Err(reached) = Budget::start(&self.limits).check_now() {
                    return Err(self.gave_up(round, total_nodes, reached));
                }
                let mut limits = self.limits.clone();
                if let Some(time) = limits.time {
                    let Some(left) = time.checked_sub(start.elapsed()) else {
                        return Err(self.gave_up(round, total_nodes, LimitReached::Time));
                    };
                    limits.time = Some(left);
                }
                let capped = limits.nodes.is_some_and(|user| user <= budget);
                limits.nodes = Some(limits.nodes.map_or(budget, |user| user.min(budget)));
                let engine: &mut dyn Engine = match (which, self.dlx.as_mut()) {
                    (1, Some(dlx)) => {
                        dlx.limits = limits;
                        dlx
                    }
                    _ => {
                        self.cp.limits = limits;
                        &mut self.cp
                    }
                };
                let outcome = engine.solve(problem);
                total_nodes += engine.stats().get("nodes").unwrap_or(0);
                let reason = match outcome {
                    Err(EngineError::Stopped { stopped, .. }) => stopped.reason,
                    other => {
                        let outcome = other?;
                        let winner = engine.stats();
                        self.stats = Stats::default();
                        self.stats.set("rounds", u128::from(round));
                        self.stats.set("winner_dlx", u128::from(which));
                        self.stats.set("total_nodes", total_nodes);
                        for (name, value) in winner.iter() {
                            self.stats.set(name, value);
                        }
                        return Ok(outcome);
                    }
                };
                let stopped = self
                    .limits
                    .stop
                    .as_ref()
                    .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed));
                let late = self.limits.time.is_some_and(|time| start.elapsed() >= time);
                if stopped || late || (capped && which == 1) {
                    return Err(self.gave_up(round, total_nodes, reason));
                }
            }
            budget = budget.saturating_mul(2);
        }
        unreachable!("the rounds end with an answer or a limit")
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

impl Portfolio {
    /// Records the counters of a search a limit ended and says so.
    fn gave_up(&mut self, round: u64, total_nodes: u128, reason: LimitReached) -> EngineError {
        self.stats = Stats::default();
        self.stats.set("rounds", u128::from(round));
        self.stats.set("total_nodes", total_nodes);
        EngineError::stopped_by(self.name(), reason, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_check_is_sound_and_catches_dead_lines() {
        // Every board of two queens on 5×5 and three on 6×6: never refutes a board with a
        // completion, and refutes some without.
        let mut refuted = 0;
        for (n, k) in [(5u32, 2usize), (6, 3)] {
            let squares = n * n;
            let mut pick = vec![0u32; k];
            'boards: loop {
                let queens = pick.iter().map(|&s| crate::board::Queen::new(s / n, s % n));
                if pick.windows(2).all(|w| w[0] < w[1])
                    && let Ok(problem) = Problem::with_fixed(n, queens)
                {
                    let has = !crate::board::naive::solutions(&problem).is_empty();
                    let refutes = root_refutes(&problem);
                    assert!(
                        !(has && refutes),
                        "refuted a completable board: {problem:?}"
                    );
                    refuted += usize::from(refutes);
                }
                for i in (0..k).rev() {
                    if pick[i] + 1 < squares {
                        pick[i] += 1;
                        continue 'boards;
                    }
                    pick[i] = 0;
                }
                break;
            }
        }
        assert!(refuted > 0);
        // 4×4 with queens (0,0) and (1,2): row 2's free squares (2,1) and (2,3) both lie on
        // diagonals of (1,2).
        let dead_row = Problem::with_fixed(
            4,
            [
                crate::board::Queen::new(0, 0),
                crate::board::Queen::new(1, 2),
            ],
        )
        .unwrap();
        assert!(root_refutes(&dead_row));
        assert!(!root_refutes(
            &Problem::with_fixed(8, [crate::board::Queen::new(0, 0)]).unwrap()
        ));
    }
}
