//! The table of methods: one row per method ([`Descriptor`]), the [`Method`] enum users pick
//! from, and what `auto` picks ([`auto`]) and what a count costs ([`cost`]) beside it.
//!
//! Each row lives in its engine's module (`engines::backtrack::DESCRIPTOR`, ...); the one
//! list below names them, and makes the enum, [`Method::ALL`] (the order of `--help`) and
//! [`Method::descriptor`] from that list, so that adding a method is its engine module plus
//! one line here. Every reader of method lists reads the rows: the CLI's help and checks,
//! the benchmark, the page's picker ([`Descriptor::on_page`]), replays
//! ([`Descriptor::traceable`]) and Python. Looking a row up is one `match`; parsing a name
//! scans the few rows. The model is ripgrep's flag definitions
//! (`crates/core/flags/defs.rs`).

use std::fmt;
use std::str::FromStr;

use crate::board::Problem;
pub use crate::engine::Config;
use crate::engine::EngineError;
use crate::engine::{Descriptor, Engine, Job};
use crate::engines::{backtrack, construct, counter, cp, dlx, local, sat};

pub mod auto;
pub mod cost;

pub use crate::engines::backtrack::NODES_PER_SECOND as BACKTRACK_NODES_PER_SECOND;
pub use crate::engines::counter::BACKTRACK_NODES_PER_SECOND as COUNTER_BACKTRACK_NODES_PER_SECOND;
pub use auto::AUTO_CONSTRUCT_FROM;
pub use cost::{BACKTRACK_SOLUTIONS_PER_SECOND, LONG_COUNT_SECONDS, backtrack_count_seconds};

/// Makes [`Method`], [`Method::ALL`] and [`Method::descriptor`] from one list of
/// `Variant => row`, in the order of `--help`.
macro_rules! table {
    ($($(#[$doc:meta])* $variant:ident => $row:path,)*) => {
        /// A way to solve N-Queens, as users name it on the command line.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Method {
            $($(#[$doc])* $variant,)*
        }

        impl Method {
            /// Every method, `auto` first; the order of `--help`.
            pub const ALL: &'static [Method] = &[$(Method::$variant,)*];

            /// This method's row of the table.
            pub fn descriptor(self) -> &'static Descriptor {
                match self {
                    $(Method::$variant => &$row,)*
                }
            }
        }
    };
}

table! {
    /// Picks the best method for the job and board ([`Method::resolve`]).
    Auto => auto::AUTO,
    /// Bitboard backtracking, the baseline ([`crate::engines::backtrack`]).
    Backtrack => backtrack::DESCRIPTOR,
    /// Exact cover with dancing links, diagonals as secondary items ([`crate::engines::dlx`]).
    Dlx => dlx::DESCRIPTOR,
    /// Exact cover with dancing links, all items primary with gadget options ([`crate::engines::dlx`]).
    DlxGadgets => dlx::GADGETS,
    /// CNF encoding solved by the `nqueens_sat` crate's CDCL solver ([`crate::engines::sat`]).
    Sat => sat::DESCRIPTOR,
    /// Constraint programming: three all-different constraints on the [`nqueens_cp`] engine
    /// ([`crate::engines::cp`]).
    Cp => cp::DESCRIPTOR,
    /// The fast counter: full symmetry, threads ([`crate::engines::counter`]).
    Counter => counter::DESCRIPTOR,
    /// The explicit solution by n mod 6, for huge boards ([`crate::engines::construct`]).
    Construct => construct::DESCRIPTOR,
    /// Min-conflicts local search, for huge boards and random solutions ([`crate::engines::local`]).
    Local => local::DESCRIPTOR,
}

impl Method {
    /// The name users type.
    pub fn name(self) -> &'static str {
        self.descriptor().name
    }

    /// The largest board the method takes for any job (`None`: any size; for `sat`, the larger
    /// of the two encodings' limits). The `about` text is written from these, so help and
    /// limits cannot drift apart.
    pub fn max_n(self) -> Option<u32> {
        self.descriptor().max_n
    }

    /// One line on what the method does, for help texts (front ends add their own words for
    /// how to choose it).
    pub fn about(self) -> String {
        self.descriptor().about()
    }

    /// The engine for `job` on `problem`, checked before anything runs: the run no one would
    /// wait for refused ([`refuse_hopeless`](Self::refuse_hopeless), with its estimate), then
    /// the engine's own [`Engine::check`]. What every front end (CLI, Python, the page) calls,
    /// so that each refuses the same runs with the same words.
    pub fn engine_for(
        self,
        job: Job,
        problem: &Problem,
        config: &Config,
    ) -> Result<Box<dyn Engine>, EngineError> {
        self.refuse_hopeless(job, problem, config)?;
        let engine = self.build(job, problem, config);
        engine.check(job, problem)?;
        Ok(engine)
    }

    /// Builds the engine for this method (after resolving `auto` for `job` and `problem`).
    pub fn build(self, job: Job, problem: &Problem, config: &Config) -> Box<dyn Engine> {
        (self.descriptor().build)(job, problem, config)
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a method name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown method '{0}'")]
pub struct UnknownMethod(pub String);

impl FromStr for Method {
    type Err = UnknownMethod;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Method::ALL
            .iter()
            .copied()
            .find(|m| m.name() == s)
            .ok_or_else(|| UnknownMethod(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &m in Method::ALL {
            assert_eq!(m.name().parse::<Method>(), Ok(m));
        }
        assert_eq!(
            "dancing".parse::<Method>(),
            Err(UnknownMethod("dancing".into()))
        );
    }

    #[test]
    fn about_texts_quote_the_real_limits() {
        for &m in Method::ALL {
            if let Some(max) = m.max_n() {
                assert!(m.about().contains(&max.to_string()), "{m}: {}", m.about());
            }
            assert!(!m.about().contains("--"), "{m} names a flag: {}", m.about());
        }
    }

    #[test]
    fn each_engine_reads_the_row_of_its_method() {
        let board = Problem::new(8).unwrap();
        for &m in Method::ALL.iter().filter(|&&m| m != Method::Auto) {
            let engine = m.build(Job::Count, &board, &Config::default());
            assert!(std::ptr::eq(engine.descriptor(), m.descriptor()), "{m}");
            assert_eq!(engine.name(), m.name());
        }
    }

    #[test]
    fn a_row_lists_exactly_the_jobs_its_engine_does_on_a_plain_board() {
        let board = Problem::new(8).unwrap();
        for &m in Method::ALL.iter().filter(|&&m| m != Method::Auto) {
            for job in crate::engine::ALL_JOBS.iter().copied() {
                let done = m
                    .build(job, &board, &Config::default())
                    .check(job, &board)
                    .is_ok();
                assert_eq!(m.descriptor().jobs.contains(&job), done, "{m} {job}");
            }
        }
    }
}
