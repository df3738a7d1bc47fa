//! The one solver API over the two search engines: dancing links ([`crate::dlx`]) for any
//! problem, and bit sets ([`crate::bits`]) for problems whose tables stay small.
//!
//! Both engines visit the same search tree (the same item at every node, its options in the
//! same order, and with a seed the same random draws), so the choice of engine changes the time
//! only: solutions, their order and the node counts are the same. [`Engine`] names them;
//! [`EngineChoice::Auto`], the default, takes bit sets when the problem fits.

use std::ops::ControlFlow;

use nqueens_support::{Budget, LimitReached, Limits};

use crate::bits::BitSearch;
use crate::dlx::{DancingLinks, ItemChoice};
use crate::error::Error;
use crate::problem::{OptionId, Problem};

/// Work counters of the last search. Dancing links counts them as Knuth's DLX1 does; the bit
/// engine counts the same nodes and no link updates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search-tree nodes: items chosen for branching.
    pub nodes: u64,
    /// Link updates (dancing links only; 0 for bit sets): one per covered item and one per
    /// node hidden.
    pub updates: u64,
    /// Solutions found.
    pub solutions: u64,
}

/// How an enumeration ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enumeration {
    /// Every solution was visited.
    Complete,
    /// The callback or a limit stopped it early.
    Stopped,
}

/// A search engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Dancing links (Knuth's Algorithms X and C): any problem.
    Links,
    /// Bit sets: problems with at most [`crate::bits::MAX_PRIMARY`] primary items whose
    /// tables take at most [`crate::bits::MAX_TABLE_BYTES`].
    Bits,
}

impl Engine {
    /// The engine's name, as the command line spells it: `links` or `bits`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Links => "links",
            Engine::Bits => "bits",
        }
    }
}

/// Which engine a [`Solver`] should use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EngineChoice {
    /// Bit sets when the problem fits, dancing links otherwise.
    #[default]
    Auto,
    /// Always dancing links.
    Links,
    /// Always bit sets; a problem that does not fit is an error.
    Bits,
}

/// How to build a [`Solver`].
///
/// ```
/// use exact_cover::{Config, Engine, EngineChoice, Solver, instances};
/// let problem = instances::langford(8).unwrap();
/// let config = Config { engine: EngineChoice::Links, seed: Some(7), ..Config::default() };
/// let mut links = Solver::configured(&problem, config).unwrap();
/// let config = Config { engine: EngineChoice::Bits, ..config };
/// let mut bits = Solver::configured(&problem, config).unwrap();
/// assert_eq!((links.engine(), bits.engine()), (Engine::Links, Engine::Bits));
/// assert_eq!(links.list(None), bits.list(None));
/// assert_eq!(links.stats().nodes, bits.stats().nodes);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Config {
    /// Randomise the order: every item's options are shuffled and ties between items broken at
    /// random, the same way for the same seed. `None`: options in the order they were added,
    /// ties to the item declared first (Knuth's DLX1 order).
    pub seed: Option<u64>,
    /// The engine.
    pub engine: EngineChoice,
    /// How dancing links finds the item with the fewest options (the bit engine counts them
    /// all at every node anyway).
    pub item_choice: ItemChoice,
}

#[derive(Clone, Debug)]
enum Inner {
    Links(Box<DancingLinks>),
    Bits(Box<BitSearch>),
}

/// Algorithm X over one [`Problem`], by dancing links or by bit sets (see the
/// [module documentation](self)).
///
/// A solver answers any number of searches, one at a time; each starts from scratch. Options
/// preselected with [`Solver::select`] are part of every solution.
///
/// ```
/// use exact_cover::{Problem, Solver};
/// // Knuth's example: items A..E primary, F and G secondary.
/// let text = "A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
/// let problem = Problem::parse(text).unwrap();
/// let mut solver = Solver::new(&problem);
/// let mut solution = solver.first().unwrap();
/// solution.sort();
/// let lines: Vec<String> = solution.iter().map(|&o| problem.option_text(o)).collect();
/// assert_eq!(lines, ["C E F", "A D", "B G"]);
/// assert_eq!(solver.count(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct Solver {
    inner: Inner,
    /// When to give up (see [`Solver::set_limits`]).
    limits: Limits,
    /// The limits of the search under way.
    budget: Budget,
    /// Which limit ended the last search, if one did.
    gave_up: Option<LimitReached>,
    /// The node count at which the search next looks at its limits.
    next_look: u64,
}

/// Search nodes between two looks at the clock and the stop flag.
const NODES_PER_LOOK: u64 = 1 << 14;

impl Solver {
    /// A solver that tries options in the order they were added and breaks ties between items
    /// in favour of the item declared first (Knuth's DLX1 order), with the engine
    /// [`EngineChoice::Auto`] picks.
    pub fn new(problem: &Problem) -> Self {
        Self::auto(problem, None)
    }

    /// A solver whose choices are randomised by `seed`: every item's list is shuffled and ties
    /// between items are broken at random. The same seed gives the same order every time, with
    /// either engine.
    pub fn with_seed(problem: &Problem, seed: u64) -> Self {
        Self::auto(problem, Some(seed))
    }

    fn auto(problem: &Problem, seed: Option<u64>) -> Self {
        let config = Config {
            seed,
            ..Config::default()
        };
        Self::configured(problem, config).expect("Auto always has an engine")
    }

    /// A solver as `config` says. Fails only when [`EngineChoice::Bits`] is asked for a
    /// problem that does not fit the bit engine ([`Error::DoesNotFit`]).
    pub fn configured(problem: &Problem, config: Config) -> Result<Self, Error> {
        let bits = match config.engine {
            EngineChoice::Links => false,
            EngineChoice::Auto => BitSearch::fits(problem).is_ok(),
            EngineChoice::Bits => {
                BitSearch::fits(problem).map_err(|reason| Error::DoesNotFit { reason })?;
                true
            }
        };
        let inner = if bits {
            Inner::Bits(Box::new(BitSearch::new(problem, config.seed)))
        } else {
            let mut links = DancingLinks::new(problem, config.seed);
            links.set_item_choice(config.item_choice);
            Inner::Links(Box::new(links))
        };
        Ok(Solver {
            inner,
            limits: Limits::default(),
            budget: Budget::start(&Limits::default()),
            gave_up: None,
            next_look: 0,
        })
    }

    /// Which engine searches.
    pub fn engine(&self) -> Engine {
        match self.inner {
            Inner::Links(_) => Engine::Links,
            Inner::Bits(_) => Engine::Bits,
        }
    }

    /// Whether dancing links finds its items with the tree of [`ItemChoice::Tree`].
    pub fn uses_item_tree(&self) -> bool {
        match &self.inner {
            Inner::Links(links) => links.uses_item_tree(),
            Inner::Bits(_) => false,
        }
    }

    /// Puts `option` into every solution, as if the search had chosen it first. Fails if the
    /// option clashes with an option selected before, or once a search has started.
    pub fn select(&mut self, option: OptionId) -> Result<(), Error> {
        match &mut self.inner {
            Inner::Links(links) => links.select(option),
            Inner::Bits(bits) => bits.select(option),
        }
    }

    /// The counters of the last search (or of the one in progress).
    pub fn stats(&self) -> Stats {
        match &self.inner {
            Inner::Links(links) => links.stats(),
            Inner::Bits(bits) => bits.stats(),
        }
    }

    /// Checks the engine's internal consistency (the links of dancing links; the bit engine
    /// has no links to check). O(size of the structure).
    pub fn sanity(&self) -> Result<(), String> {
        match &self.inner {
            Inner::Links(links) => links.sanity(),
            Inner::Bits(_) => Ok(()),
        }
    }

    /// The first solution, if any: its options, preselected ones first, then in the order the
    /// search chose them.
    pub fn first(&mut self) -> Option<Vec<OptionId>> {
        self.solutions().next()
    }

    /// The number of solutions. The fast path: solutions are counted, never built.
    pub fn count(&mut self) -> u128 {
        self.restart();
        let mut count = 0u128;
        while self.step() {
            count += 1;
        }
        count
    }

    /// The solutions, lazily: each `next` resumes the search where the last one stopped.
    /// Starting another search (any method taking `&mut self`) starts over.
    pub fn solutions(&mut self) -> Solutions<'_> {
        self.restart();
        Solutions { solver: self }
    }

    /// Calls `visit` with each solution's options until it returns `Break` or no solution is
    /// left.
    pub fn for_each(
        &mut self,
        mut visit: impl FnMut(&[OptionId]) -> ControlFlow<()>,
    ) -> Enumeration {
        self.restart();
        let mut buffer = Vec::new();
        while self.step() {
            self.fill(&mut buffer);
            if visit(&buffer).is_break() {
                return Enumeration::Stopped;
            }
        }
        Enumeration::Complete
    }

    /// At most `limit` solutions (all of them when `None`).
    pub fn list(&mut self, limit: Option<u64>) -> Vec<Vec<OptionId>> {
        let mut all = Vec::new();
        if limit == Some(0) {
            return all;
        }
        self.for_each(|s| {
            all.push(s.to_vec());
            if Some(all.len() as u64) == limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        all
    }

    /// Sets when later searches give up: a node budget (search nodes), a time budget and a stop
    /// flag another thread may raise. A search that reaches one ends as if no solution were
    /// left, and [`Solver::gave_up`] then says which limit it was.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Which limit ended the last search (`None`: it ran to its end, or its caller stopped it).
    pub fn gave_up(&self) -> Option<LimitReached> {
        self.gave_up
    }

    fn restart(&mut self) {
        self.budget = Budget::start(&self.limits);
        // A flag raised (or a budget spent) before the search starts stops it at once.
        self.gave_up = self.budget.check_now().err();
        self.next_look = NODES_PER_LOOK;
        match &mut self.inner {
            Inner::Links(links) => links.restart(),
            Inner::Bits(bits) => bits.restart(),
        }
    }

    /// The next solution, or `false` at the end of the search or at a limit.
    fn step(&mut self) -> bool {
        if self.gave_up.is_some() {
            return false;
        }
        let unlimited = self.limits.is_unlimited() && self.limits.work.is_none();
        loop {
            let pause_at = if unlimited {
                u64::MAX
            } else {
                let look = self.next_look;
                self.limits.nodes.map_or(look, |limit| look.min(limit))
            };
            let (found, paused) = match &mut self.inner {
                Inner::Links(links) => {
                    links.pause_at = pause_at;
                    (links.step(), std::mem::take(&mut links.paused))
                }
                Inner::Bits(bits) => {
                    bits.pause_at = pause_at;
                    (bits.step(), std::mem::take(&mut bits.paused))
                }
            };
            if found || !paused {
                return found;
            }
            let nodes = self.stats().nodes;
            self.budget.publish(nodes);
            self.next_look = nodes.saturating_add(NODES_PER_LOOK);
            let reached = if self.limits.nodes.is_some_and(|limit| nodes >= limit) {
                Err(LimitReached::Nodes)
            } else {
                self.budget.check_now()
            };
            if let Err(reached) = reached {
                self.gave_up = Some(reached);
                return false;
            }
        }
    }

    fn fill(&self, buffer: &mut Vec<OptionId>) {
        match &self.inner {
            Inner::Links(links) => links.fill(buffer),
            Inner::Bits(bits) => bits.fill(buffer),
        }
    }
}

/// The lazy iterator of [`Solver::solutions`]: each item is one solution's options.
#[derive(Debug)]
pub struct Solutions<'a> {
    solver: &'a mut Solver,
}

impl Iterator for Solutions<'_> {
    type Item = Vec<OptionId>;

    fn next(&mut self) -> Option<Vec<OptionId>> {
        if !self.solver.step() {
            return None;
        }
        let mut buffer = Vec::new();
        self.solver.fill(&mut buffer);
        Some(buffer)
    }
}
