//! One method's row: what users call it, what it says of itself, what it takes, how it is
//! built and what its counts cost.
//!
//! Each engine module writes the rows of the methods it runs as `static`s beside its code
//! (`backtrack::DESCRIPTOR`, `dlx::DESCRIPTOR` and `dlx::GADGETS`, ...), and its
//! `impl Engine` reads its own row through [`Engine::descriptor`]: the name, the jobs, the
//! largest board and whether it takes blocked squares are written once, there. The table that
//! lists every row, and the `Method` enum users pick from, are one floor up in
//! [`crate::methods`], which is the only place that knows every method; an engine never
//! looks up there. Adding a method is its engine module (with its row) plus one line of that
//! table.
//!
//! A row is plain data and function pointers, so it lives in a `static` and costs nothing
//! until read; [`Descriptor::about`] formats its text on each call (help screens only). The
//! model is ripgrep's flag definitions (`crates/core/flags/defs.rs`): one value per item
//! carrying everything every reader needs, instead of one `match` per question.

use crate::board::Problem;
use crate::engine::Config;
use crate::engine::{Engine, Job};

/// Everything the front ends, `auto` and the engine itself know about one method.
#[derive(Debug)]
pub struct Descriptor {
    /// The name users type (`backtrack`, `dlx-gadgets`, ...), also the engine's
    /// [`Engine::name`].
    pub name: &'static str,
    /// One line on what the method does, for help texts (front ends add their own words for
    /// how to choose it). A function, since most quote the largest board.
    pub about: fn() -> String,
    /// The largest board the method takes for any job (`None`: any size).
    pub max_n: Option<u32>,
    /// The jobs it can do at all (on boards it takes).
    pub jobs: &'static [Job],
    /// Whether it honours blocked squares ([`Problem::blocked`]).
    pub takes_blocks: bool,
    /// Whether the web page offers it (the page has no threads, and shows solutions).
    pub on_page: bool,
    /// Whether a replay can show its search step by step (`crate::trace`).
    pub traceable: bool,
    /// Builds its engine for `job` on `problem` with the settings of `config`.
    pub build: fn(Job, &Problem, &Config) -> Box<dyn Engine>,
    /// What its counts of a board with fixed queens or blocked squares cost, when it counts
    /// them by walking plain backtracking's tree (`None`: no estimate, no warning).
    pub count_pace: Option<CountPace>,
}

/// The pace of a count through plain backtracking's search tree: the cost model of the
/// warning given before a long count of a board with fixed queens or blocked squares.
#[derive(Clone, Copy, Debug)]
pub struct CountPace {
    /// Nodes of plain backtracking's tree this method gets through per second per thread.
    pub nodes_per_second: f64,
    /// How the warning says the count runs ("by plain backtracking", "with the counter").
    pub how: &'static str,
    /// Whether its threads split the first row, so that a fixed queen there leaves one task.
    pub splits_first_row: bool,
}

impl Descriptor {
    /// The one line of help ([`Descriptor::about`]).
    pub fn about(&self) -> String {
        (self.about)()
    }

    /// The largest board as a number (`u32::MAX` for any size).
    pub fn max_n_or_any(&self) -> u32 {
        self.max_n.unwrap_or(u32::MAX)
    }
}

/// "n ≤ `max`", the way help texts quote a largest board.
pub fn up_to(max: u32) -> String {
    format!("n ≤ {max}")
}
