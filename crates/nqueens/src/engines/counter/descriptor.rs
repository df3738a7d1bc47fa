//! The `counter` method's row (see [`crate::engine::descriptor`]): counts only, of boards up
//! to [`MAX_N`], and the pace at which it walks a board with fixed queens or blocked squares.

use super::{Counter, MAX_N};
use crate::engine::descriptor::up_to;
use crate::engine::{CountPace, Descriptor, Job};

/// Nodes of plain backtracking's tree (the ones [`crate::engines::backtrack::estimate_nodes`]
/// estimates) the counter gets through per second per thread on a board with fixed queens or
/// blocked squares: its loops place fewer queens (they look four rows ahead) and place them
/// faster. 4.7·10⁸ and 5.2·10⁸ measured on two boards of n = 15 and 16, one thread, the
/// project's 2-core benchmark box.
pub const BACKTRACK_NODES_PER_SECOND: f64 = 4.5e8;

/// The `counter` method's row.
pub static DESCRIPTOR: Descriptor = Descriptor {
    name: "counter",
    about: || {
        format!(
            "counts only: full 8-fold symmetry, all threads, checkpoints, shards ({})",
            up_to(MAX_N)
        )
    },
    max_n: Some(MAX_N),
    jobs: &[Job::Count, Job::CountUnique],
    takes_blocks: true,
    on_page: false,
    traceable: false,
    build: |_, _, config| {
        let mut engine = Counter::new(config.threads);
        engine.progress = config.progress.clone();
        engine.limits = config.limits.clone();
        Box::new(engine)
    },
    count_pace: Some(CountPace {
        nodes_per_second: BACKTRACK_NODES_PER_SECOND,
        how: "with the counter",
        splits_first_row: false,
    }),
};
