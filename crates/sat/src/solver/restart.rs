//! When to restart: glucose's comparison of recent and long-run LBD averages, or the Luby
//! sequence ([`super::Restarts`]).

use nqueens_support::luby;

use super::{Restarts, Solver};

/// Exponential moving average with a warm-up, so early values are not biased toward 0.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ema {
    pub(super) value: f64,
    alpha: f64,
    count: u64,
}

impl Ema {
    pub(super) fn new(alpha: f64) -> Self {
        Ema {
            value: 0.0,
            alpha,
            count: 0,
        }
    }

    pub(super) fn update(&mut self, x: f64) {
        self.count += 1;
        let alpha = self.alpha.max(1.0 / self.count as f64);
        self.value += alpha * (x - self.value);
    }
}

impl Solver {
    pub(super) fn should_restart(&self) -> bool {
        match self.options.restarts {
            Restarts::Glucose {
                margin,
                min_conflicts,
            } => {
                self.conflicts_since_restart >= min_conflicts.max(1)
                    && self.lbd_fast.value > margin * self.lbd_slow.value
            }
            Restarts::Luby { unit } => {
                self.conflicts_since_restart >= unit.max(1) * luby(self.stats.restarts + 1)
            }
            Restarts::Never => false,
        }
    }
}
