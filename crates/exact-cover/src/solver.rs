//! The one solver API over the two search engines: dancing links ([`crate::dlx`]) for any
//! problem, and bit sets ([`crate::bits`]) for problems whose tables stay small.
//!
//! Both engines visit the same search tree (the same item at every node, its options in the
//! same order, and with a seed the same order), so the choice of engine changes the time
//! only: solutions, their order and the node counts are the same. [`Engine`] names them;
//! [`EngineChoice::Auto`], the default, takes bit sets when the problem fits.
//!
//! # One solution, fast: restarts
//!
//! Counting and enumeration visit the whole tree, so the order changes nothing but the order of
//! the solutions. The first solution is another matter: its time depends on the order so much
//! that a problem nobody ordered by hand can take a minute in the declared order and a
//! millisecond in a random one (64 queens in Knuth's order: over 300 million nodes; in most
//! random orders: about 64). So [`Solver::first`] of an unseeded solver races orders: the
//! search in the declared order runs for a round of nodes and pauses, then a search in a fresh
//! random order gets as many nodes; each round doubles the budget, and the declared search
//! resumes where it paused. A search that ends ends the race: with a solution, or with the
//! proof that there is none (any complete search proves it). The declared order never gets
//! less than half the work, so the race costs at most about twice the plain search, and the
//! first solution of an easy problem is still the declared order's. The random orders come from
//! a fixed stream of seeds, so the answer is the same every time for the same problem. A seeded
//! solver searches its one order only.
//!
//! # Limits: stopped is no answer
//!
//! [`Solver::set_limits`] takes the workspace's [`Limits`] (search nodes over every order of a
//! call, time, a stop flag); the search looks at the clock and the flag every 16,384 nodes and
//! at the node budget exactly. Every search a limit ended answers `Err(`[`Stopped`]`)` with what
//! it had found (solutions counted, visited or listed; 0 for [`Solver::first`]), never a count,
//! a list or a `None` of the answer's type: the cost is one branch per solution, nothing per
//! node.

use std::ops::ControlFlow;
use std::sync::Arc;

use nqueens_support::{Budget, LimitReached, Limits, SplitMix64, Stopped};

use crate::bits::BitSearch;
use crate::dlx::{DancingLinks, ItemChoice};
use crate::error::Error;
use crate::observe::{Observer, Silent};
use crate::problem::{OptionId, Problem};
use crate::stats::Stats;

/// How an enumeration its caller let run ended (one a limit ended is `Err(`[`Stopped`]`)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enumeration {
    /// Every solution was visited.
    Complete,
    /// The callback stopped it early.
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
/// use nqueens_exact_cover::{Config, Engine, EngineChoice, Solver, instances};
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
    /// Randomise the order: every item's options are shuffled and ties between items go to the
    /// first in a random order of the items, the same way for the same seed ([`crate::dlx`],
    /// "A seed's order"). `None`: options in the order they were added, ties to the item
    /// declared first (Knuth's DLX1 order).
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

impl Inner {
    /// The engine for `problem` (whose item names are `names`) as `config` says.
    fn build(problem: &Problem, config: Config, bits: bool, names: &Arc<[String]>) -> Self {
        let names = Arc::clone(names);
        if bits {
            Inner::Bits(Box::new(BitSearch::new(problem, config.seed, names)))
        } else {
            let mut links = DancingLinks::new(problem, config.seed, names);
            links.set_item_choice(config.item_choice);
            Inner::Links(Box::new(links))
        }
    }

    fn select(&mut self, option: OptionId) -> Result<(), Error> {
        match self {
            Inner::Links(links) => links.select(option),
            Inner::Bits(bits) => bits.select(option),
        }
    }

    fn stats(&self) -> Stats {
        match self {
            Inner::Links(links) => links.stats(),
            Inner::Bits(bits) => bits.stats(),
        }
    }

    fn restart(&mut self) {
        match self {
            Inner::Links(links) => links.restart(),
            Inner::Bits(bits) => bits.restart(),
        }
    }

    /// Searches on until the next solution (`(true, _)`), the end (`(false, false)`) or the
    /// node count `pause_at` (`(false, true)`).
    fn step<O: Observer>(&mut self, pause_at: u64, observer: &mut O) -> (bool, bool) {
        match self {
            Inner::Links(links) => {
                links.pause_at = pause_at;
                (links.step(observer), std::mem::take(&mut links.paused))
            }
            Inner::Bits(bits) => {
                bits.pause_at = pause_at;
                (bits.step(observer), std::mem::take(&mut bits.paused))
            }
        }
    }

    fn fill(&self, buffer: &mut Vec<OptionId>) {
        match self {
            Inner::Links(links) => links.fill(buffer),
            Inner::Bits(bits) => bits.fill(buffer),
        }
    }
}

/// What an unseeded solver keeps to build its engine again in a random order (see the
/// [module documentation](self)): the problem, its item names, the configuration and the
/// options selected.
#[derive(Clone, Debug)]
struct Rebuild {
    problem: Box<Problem>,
    names: Arc<[String]>,
    config: Config,
    bits: bool,
    selected: Vec<OptionId>,
}

/// Nodes the first round of [`Solver::first`]'s race gives each order (then twice as many per
/// round): enough for the declared order to finish what a designed order finishes at once (a
/// puzzle, Knuth's examples), small enough that a random order gets its turn within a
/// millisecond.
const FIRST_ROUND_NODES: u64 = 1 << 12;

/// The stream of seeds of [`Solver::first`]'s random orders.
const RESTART_SEEDS: u64 = 0x005E_ED0F_0DE5;

/// How a search run for a while ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// At a solution.
    Found,
    /// The search is over: no solution is left.
    Exhausted,
    /// The round's nodes are spent; the search can resume.
    RoundOver,
    /// A limit of [`Solver::set_limits`] was reached ([`Watch::stopped_by`] says which).
    GaveUp,
}

/// The limits of the searches of one call, looked at every [`NODES_PER_LOOK`] nodes.
#[derive(Clone, Debug)]
struct Watch {
    /// When to give up (see [`Solver::set_limits`]).
    limits: Limits,
    /// The limits of the search under way.
    budget: Budget,
    /// Which limit ended the last search, if one did.
    stopped_by: Option<LimitReached>,
    /// The node count (of the whole call) at which the search next looks at its limits.
    next_look: u64,
}

impl Watch {
    /// What the last search answers when a limit ended it after `found` solutions.
    fn stopped(&self, found: u128) -> Stopped {
        Stopped::new(self.stopped_by.unwrap_or(LimitReached::Stopped), found)
    }

    fn start(&mut self) {
        self.budget = Budget::start(&self.limits);
        // A flag raised (or a budget spent) before the search starts stops it at once.
        self.stopped_by = self.budget.check_now().err();
        self.next_look = NODES_PER_LOOK;
    }

    /// Runs `engine` until a solution, its end, its node count `round_end`, or a limit.
    /// `before`: the nodes this call spent in other engines, which count against the limits.
    fn advance<O: Observer>(
        &mut self,
        engine: &mut Inner,
        before: u64,
        round_end: u64,
        observer: &mut O,
    ) -> Step {
        if self.stopped_by.is_some() {
            return Step::GaveUp;
        }
        let unlimited =
            self.limits.is_unlimited() && self.limits.work.is_none() && round_end == u64::MAX;
        loop {
            let own = engine.stats().nodes;
            if own >= round_end {
                return Step::RoundOver;
            }
            let pause_at = if unlimited {
                u64::MAX
            } else {
                let look = self
                    .limits
                    .nodes
                    .map_or(self.next_look, |l| l.min(self.next_look));
                look.saturating_sub(before).min(round_end)
            };
            match engine.step(pause_at, observer) {
                (true, _) => return Step::Found,
                (false, false) => return Step::Exhausted,
                (false, true) => {}
            }
            let nodes = before + engine.stats().nodes;
            if nodes >= self.next_look {
                self.budget.publish(nodes);
                self.next_look = nodes.saturating_add(NODES_PER_LOOK);
                let reached = if self.limits.nodes.is_some_and(|limit| nodes >= limit) {
                    Err(LimitReached::Nodes)
                } else {
                    self.budget.check_now()
                };
                if let Err(reached) = reached {
                    self.stopped_by = Some(reached);
                    return Step::GaveUp;
                }
            } else if self.limits.nodes.is_some_and(|limit| nodes >= limit) {
                self.stopped_by = Some(LimitReached::Nodes);
                return Step::GaveUp;
            }
        }
    }
}

/// Algorithm X over one [`Problem`], by dancing links or by bit sets (see the
/// [module documentation](self)).
///
/// A solver answers any number of searches, one at a time; each starts from scratch. Options
/// preselected with [`Solver::select`] are part of every solution.
///
/// ```
/// use nqueens_exact_cover::{Problem, Solver};
/// // Knuth's example: items A..E primary, F and G secondary.
/// let text = "A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
/// let problem = Problem::parse(text).unwrap();
/// let mut solver = Solver::new(&problem);
/// let mut solution = solver.first().unwrap().unwrap();
/// solution.sort();
/// let lines: Vec<String> = solution.iter().map(|&o| problem.option_text(o)).collect();
/// assert_eq!(lines, ["C E F", "A D", "B G"]);
/// assert_eq!(solver.count(), Ok(1));
/// ```
#[derive(Clone, Debug)]
pub struct Solver {
    inner: Inner,
    /// The limits and what the last search met of them.
    watch: Watch,
    /// What [`Solver::first`]'s restarts need (unseeded solvers only).
    rebuild: Option<Rebuild>,
    /// The counters of the last call's searches in random orders ([`Solver::first`]), added
    /// to the engine's own.
    restarts: Stats,
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
    /// between items go to the first in a random order of the items ([`crate::dlx`], "A seed's
    /// order"). The same seed gives the same order every time, with either engine.
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
        let names: Arc<[String]> = problem.items.iter().map(|i| i.name.clone()).collect();
        let inner = Inner::build(problem, config, bits, &names);
        let rebuild = config.seed.is_none().then(|| Rebuild {
            problem: Box::new(problem.clone()),
            names,
            config,
            bits,
            selected: Vec::new(),
        });
        Ok(Solver {
            inner,
            watch: Watch {
                limits: Limits::default(),
                budget: Budget::start(&Limits::default()),
                stopped_by: None,
                next_look: 0,
            },
            rebuild,
            restarts: Stats::default(),
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
        self.inner.select(option)?;
        if let Some(rebuild) = &mut self.rebuild {
            rebuild.selected.push(option);
        }
        Ok(())
    }

    /// The counters of the last search (or of the one in progress), restarts included.
    pub fn stats(&self) -> Stats {
        let mut stats = self.inner.stats();
        stats += self.restarts;
        stats
    }

    /// Checks the engine's internal consistency (the links of dancing links; the bit engine
    /// has no links to check). O(size of the structure).
    pub fn sanity(&self) -> Result<(), String> {
        match &self.inner {
            Inner::Links(links) => links.sanity(),
            Inner::Bits(_) => Ok(()),
        }
    }

    /// A solution, if there is one: its options, preselected ones first, then in the order the
    /// search chose them. A seeded solver returns the first solution of its order. An unseeded
    /// one races the declared order against random ones with restarts (see the
    /// [module documentation](self)): the answer is a solution whenever there is one, the same
    /// one every time, and the declared order's first solution when that order finds it within
    /// its share of the work; [`Stats::restarts`] says how many random orders were given up.
    /// A limit of [`Solver::set_limits`] makes it `Err(`[`Stopped`]`)` (found: 0), never
    /// `Ok(None)`, which is the proof that there is no solution.
    pub fn first(&mut self) -> Result<Option<Vec<OptionId>>, Stopped> {
        let Some(rebuild) = self.rebuild.take() else {
            return self.solutions().next().transpose();
        };
        let found = self.race(&rebuild);
        self.rebuild = Some(rebuild);
        found
    }

    /// [`Solver::first`] by restarts: rounds of doubling node budgets, each spent once by the
    /// declared order (resumed) and once by a fresh random order.
    fn race(&mut self, rebuild: &Rebuild) -> Result<Option<Vec<OptionId>>, Stopped> {
        self.restart();
        let mut seeds = SplitMix64::new(RESTART_SEEDS);
        let mut round = FIRST_ROUND_NODES;
        let mut declared_end = 0u64;
        let mut buffer = Vec::new();
        loop {
            declared_end = declared_end.saturating_add(round);
            let before = self.restarts.nodes;
            match self
                .watch
                .advance(&mut self.inner, before, declared_end, &mut Silent)
            {
                Step::Found => {
                    self.inner.fill(&mut buffer);
                    return Ok(Some(buffer));
                }
                Step::Exhausted => return Ok(None),
                Step::GaveUp => return Err(self.watch.stopped(0)),
                Step::RoundOver => {}
            }
            let config = Config {
                seed: Some(seeds.next_u64()),
                ..rebuild.config
            };
            let mut random = Inner::build(&rebuild.problem, config, rebuild.bits, &rebuild.names);
            for &option in &rebuild.selected {
                random
                    .select(option)
                    .expect("the options selected here once were compatible");
            }
            let before = self.inner.stats().nodes + self.restarts.nodes;
            let step = self.watch.advance(&mut random, before, round, &mut Silent);
            let spent = random.stats();
            match step {
                Step::Found => {
                    self.restarts += spent;
                    random.fill(&mut buffer);
                    return Ok(Some(buffer));
                }
                Step::Exhausted => {
                    self.restarts += spent;
                    return Ok(None);
                }
                Step::GaveUp => {
                    self.restarts += spent;
                    return Err(self.watch.stopped(0));
                }
                Step::RoundOver => {
                    self.restarts += spent;
                    self.restarts.restarts += 1;
                }
            }
            round = round.saturating_mul(2);
        }
    }

    /// The number of solutions. The fast path: solutions are counted, never built. A limit
    /// makes it `Err(`[`Stopped`]`)` with the solutions counted so far in
    /// [`Stopped::found`], never a count:
    ///
    /// ```
    /// use nqueens_exact_cover::{instances, LimitReached, Limits, Solver, Stopped};
    /// let mut solver = Solver::new(&instances::langford(11).unwrap());
    /// solver.set_limits(Limits { nodes: Some(1000), ..Limits::default() });
    /// let Err(Stopped { reason, found }) = solver.count() else { panic!() };
    /// assert_eq!(reason, LimitReached::Nodes);
    /// assert!(found < 35_584);
    /// ```
    pub fn count(&mut self) -> Result<u128, Stopped> {
        self.restart();
        let mut count = 0u128;
        loop {
            match self
                .watch
                .advance(&mut self.inner, 0, u64::MAX, &mut Silent)
            {
                Step::Found => count += 1,
                Step::GaveUp => return Err(self.watch.stopped(count)),
                _ => return Ok(count),
            }
        }
    }

    /// The solutions, lazily: each `next` resumes the search where the last one stopped.
    /// Starting another search (any method taking `&mut self`) starts over. A limit ends it
    /// with one `Err(`[`Stopped`]`)` (its `found`: the solutions yielded before).
    pub fn solutions(&mut self) -> Solutions<'_> {
        self.restart();
        Solutions {
            solver: self,
            yielded: 0,
            over: false,
        }
    }

    /// Calls `visit` with each solution's options until it returns `Break`
    /// ([`Enumeration::Stopped`]) or no solution is left ([`Enumeration::Complete`]); a limit
    /// makes it `Err(`[`Stopped`]`)` with the solutions visited so far.
    pub fn for_each(
        &mut self,
        mut visit: impl FnMut(&[OptionId]) -> ControlFlow<()>,
    ) -> Result<Enumeration, Stopped> {
        self.restart();
        let mut buffer = Vec::new();
        let mut visited = 0u128;
        loop {
            match self
                .watch
                .advance(&mut self.inner, 0, u64::MAX, &mut Silent)
            {
                Step::Found => {}
                Step::GaveUp => return Err(self.watch.stopped(visited)),
                _ => return Ok(Enumeration::Complete),
            }
            self.fill(&mut buffer);
            visited += 1;
            if visit(&buffer).is_break() {
                return Ok(Enumeration::Stopped);
            }
        }
    }

    /// The search of [`Solver::for_each`] (the declared order, or the seed's), telling
    /// `observer` every step: each branch (one per node [`Stats::nodes`] counts), each option
    /// tried, each back-up and each solution, until [`Observer::solution`] returns `Break` or
    /// no solution is left. For a replay of the search; a seeded solver's [`Solver::first`]
    /// is this search to its first solution (an unseeded one races other orders, which no
    /// observer sees).
    ///
    /// A limit makes it `Err(`[`Stopped`]`)`, as [`Solver::for_each`].
    pub fn observe<O: Observer>(&mut self, observer: &mut O) -> Result<Enumeration, Stopped> {
        self.restart();
        let mut buffer = Vec::new();
        let mut visited = 0u128;
        loop {
            match self.watch.advance(&mut self.inner, 0, u64::MAX, observer) {
                Step::Found => {}
                Step::GaveUp => return Err(self.watch.stopped(visited)),
                _ => return Ok(Enumeration::Complete),
            }
            self.fill(&mut buffer);
            visited += 1;
            if observer.solution(&buffer).is_break() {
                return Ok(Enumeration::Stopped);
            }
        }
    }

    /// At most `limit` solutions (all of them when `None`); a limit of
    /// [`Solver::set_limits`] makes it `Err(`[`Stopped`]`)` (found: the solutions listed so
    /// far), never a shorter list.
    pub fn list(&mut self, limit: Option<u64>) -> Result<Vec<Vec<OptionId>>, Stopped> {
        let mut all = Vec::new();
        if limit == Some(0) {
            return Ok(all);
        }
        self.for_each(|s| {
            all.push(s.to_vec());
            if Some(all.len() as u64) == limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })?;
        Ok(all)
    }

    /// Sets when later searches give up: a node budget (search nodes), a time budget and a stop
    /// flag another thread may raise ([`Limits::conflicts`] is not read here). A search that
    /// reaches one answers `Err(`[`Stopped`]`)`: which limit, and what it had found so far.
    pub fn set_limits(&mut self, limits: Limits) {
        self.watch.limits = limits;
    }

    fn restart(&mut self) {
        self.watch.start();
        self.restarts = Stats::default();
        self.inner.restart();
    }

    fn fill(&self, buffer: &mut Vec<OptionId>) {
        self.inner.fill(buffer);
    }
}

/// The lazy iterator of [`Solver::solutions`]: each item is one solution's options.
/// After a limit it yields one `Err(`[`Stopped`]`)`, then nothing.
#[derive(Debug)]
pub struct Solutions<'a> {
    solver: &'a mut Solver,
    /// Solutions yielded so far.
    yielded: u128,
    /// The search ended (at its end or at a limit).
    over: bool,
}

impl Iterator for Solutions<'_> {
    type Item = Result<Vec<OptionId>, Stopped>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.over {
            return None;
        }
        let solver = &mut *self.solver;
        match solver
            .watch
            .advance(&mut solver.inner, 0, u64::MAX, &mut Silent)
        {
            Step::Found => {}
            Step::GaveUp => {
                self.over = true;
                return Some(Err(solver.watch.stopped(self.yielded)));
            }
            _ => {
                self.over = true;
                return None;
            }
        }
        self.yielded += 1;
        let mut buffer = Vec::new();
        solver.fill(&mut buffer);
        Some(Ok(buffer))
    }
}
