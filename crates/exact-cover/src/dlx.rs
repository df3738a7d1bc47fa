//! Algorithm X with dancing links, for exact covers with secondary and colored items.
//!
//! # The data structure
//!
//! Every `1` of the matrix (an item of an option) is a `Node` in one arena, `nodes`, and every
//! link is a `u32` index into it, as in Knuth's DLX1: an item's options form a circular doubly
//! linked list through `up`/`down` that starts and ends at the item's header node; the nodes of
//! one option lie next to each other in the arena, between two *spacer* nodes, so an option is
//! walked by `+1`/`-1` and the spacers jump back to the option's first node (`up`) or forward to
//! its last (`down`). `nodes[0]` is the root, `nodes[1..=items]` the headers (a header's `top`
//! field holds the list's length), and the options follow. The primary items still to be covered
//! form a second circular list through `links`, headed by the root; secondary items link only to
//! themselves there, so covering one leaves the list alone.
//!
//! # The invariant, and why undo is exact
//!
//! Between search steps, the active lists hold exactly the options compatible with the options
//! chosen so far, and each header's length counts its list. *Covering* an item unlinks it from
//! the root list and *hides* every option in its list: each of that option's other nodes leaves
//! its item's list, which is two writes per node (`down` of the node above, `up` of the node
//! below) while the hidden node keeps its own `up`/`down`. *Uncovering* walks the same lists in
//! the opposite order and writes each hidden node back between the neighbours it remembers.
//! Because the search undoes its steps in exactly the reverse order (last covered, first
//! uncovered), every neighbour a node remembers is in place again when the node returns, and
//! the arena comes back bit for bit; debug builds compare it with a snapshot at the end of every
//! search, and walk it with `DancingLinks::sanity` along the way.
//!
//! Colors follow Knuth's Algorithm C (DLX2): choosing an option that gives secondary item `x`
//! color `c` *purifies* `x`: options giving `x` another color (or none) are hidden, and those
//! giving it `c` are marked (color −1) so that later covers leave them in place; *unpurify*
//! reverses both. Without colors the marks are never read: the search is compiled twice, and the
//! plain copy is DLX1.
//!
//! # The search, and what it costs
//!
//! The search is a loop over an explicit stack (`choice[level]` is the node being tried at each
//! level), not recursion, so a deep search cannot overflow the call stack and can stop after any
//! solution and resume later (the lazy iterator). At each node of the search tree it picks the
//! primary item with the fewest options left (MRV), ties going to the item declared first,
//! exactly as DLX1 does, so node counts can be compared with it. Choosing costs one pass over
//! the uncovered primary items, or, on problems with many of them, O(log items) per item whose
//! length changed, by a tournament tree that makes the same choice ([`ItemChoice`]); covering
//! an item costs one update per node hidden, plus one for the item. [`Stats`] counts
//! search-tree nodes and updates as DLX1 does (`nodes`: one per item chosen for branching;
//! `updates`: one per covered item and one per hidden node), so the figures can be set beside
//! DLX1's output.
//!
//! # A seed's order
//!
//! A seed searches the problem as if its items and options had been declared in a random
//! order: every item's list of options is shuffled, and ties between items go to the item
//! that comes first in a random order of the primary items, drawn once per solver. The draws
//! come from `SplitMix64::new(seed)`, in this sequence: first each item's list, item by item in
//! declaration order (secondary items included), by a Fisher–Yates shuffle of its options in
//! the order they were added (`SplitMix64::shuffle`: for `i` from the last place down to 1,
//! swap place `i` with place `below_u64(i + 1)`); then one more such shuffle of the primary
//! items in declaration order, whose result is the tie-break order (`tie_ranks`). Nothing is
//! drawn during the search, so the tie-break is a fixed key the tournament tree carries as it
//! carries the declaration order, a seeded search costs what an unseeded one does, and every
//! search of one seeded solver visits the same tree. The bit engine draws the same numbers in
//! the same sequence and visits the same tree. (Until this order was introduced, a seed broke
//! each node's ties with a fresh draw per tied item, which forced a pass over every item at
//! every node; the same seed now gives another order than it gave then.)
//!
//! Reference: D. E. Knuth, *The Art of Computer Programming* 4B, §7.2.2.1 (Algorithms X and C),
//! and his programs DLX1 and DLX2.

use std::sync::Arc;

use nqueens_support::SplitMix64;

use crate::error::Error;
use crate::observe::Observer;
use crate::problem::{ItemId, ItemKind, OptionId, Problem};
use crate::stats::Stats;

/// One node of the arena: a header, a spacer, or an item of an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    /// The node above in the item's list (for a spacer: the first node of the option before).
    up: u32,
    /// The node below in the item's list (for a spacer: the last node of the option after).
    down: u32,
    /// For an option's node: its item's header (≥ 1). For a header: the list's length. For the
    /// spacer after option `k`: `-(k + 1)`, and 0 for the first spacer.
    top: i32,
}

/// An item's neighbours in the list of primary items still to cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Links {
    prev: u32,
    next: u32,
}

const ROOT: u32 = 0;

/// Where the search loop stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Nothing chosen; the next step starts a search.
    Fresh,
    /// Levels `0..level` are committed; choose an item for `level`.
    Forward,
    /// Levels `0..level` are committed, the item of `level` is covered: try `choice[level]`.
    Advance,
    /// Levels `0..=level` are committed: undo `choice[level]` and try the next option.
    Recover,
    /// The search is over; the arena is back where it started.
    Done,
}

/// The primary items ordered by (options left, tie-break order), for the MRV choice on large
/// problems: a tournament tree (a binary heap laid out as a complete tree, every inner node the
/// least key of its two children) over one leaf per primary item, updated lazily. The leaves
/// lie in the tie-break order (declaration order, or a seed's), so a key is the item's length
/// above its leaf's index.
///
/// The search *touches* an item whenever its length changes or it is covered or uncovered:
/// O(1), a flag and a push onto `pending` the first time since the last choice. Choosing first
/// brings every pending leaf up to date, O(log items) each (less when a parent's key does not
/// change), and then reads the root. A search node that changes `t` items' lengths thus costs
/// O(t log items) for the choice, against O(items) for a scan.
#[derive(Clone, Debug, Default)]
struct ItemTree {
    /// `keys[1]` is the root, `keys[size..2 * size]` the leaves; `keys[0]` is unused.
    keys: Vec<u64>,
    /// The number of leaves, a power of two.
    size: usize,
    /// By header: the item's leaf, or `NO_LEAF` for a secondary item.
    leaf: Vec<u32>,
    /// By leaf (less `size`): the item's header.
    header: Vec<u32>,
    /// By header: already in `pending` (always true for secondary items, so they never are).
    dirty: Vec<bool>,
    /// By header: the item is covered (its key is `COVERED`).
    covered: Vec<bool>,
    /// Items whose leaves are out of date.
    pending: Vec<u32>,
}

const NO_LEAF: u32 = u32::MAX;
/// The key of a covered item: above every uncovered one.
const COVERED: u64 = u64::MAX;

impl ItemTree {
    /// The tree over the items marked `primary`, whose leaves lie in declaration order, or
    /// in the order of `ranks` (by header, see [`DancingLinks::ranks`]).
    fn new(primary: &[bool], ranks: &[u32]) -> Self {
        let count = primary.iter().filter(|&&p| p).count();
        let size = count.next_power_of_two();
        let mut leaf = vec![NO_LEAF; primary.len() + 1];
        let mut header = vec![ROOT; count];
        let primaries = primary.iter().enumerate().filter(|(_, p)| **p);
        for (place, (i, _)) in primaries.enumerate() {
            let rank = ranks.get(i + 1).map_or(place, |&rank| rank as usize);
            leaf[i + 1] = (size + rank) as u32;
            header[rank] = i as u32 + 1;
        }
        ItemTree {
            keys: vec![COVERED; 2 * size],
            size,
            leaf,
            header,
            dirty: vec![true; primary.len() + 1],
            covered: vec![true; primary.len() + 1],
            pending: Vec::new(),
        }
    }

    /// The key of an item of length `len` at leaf `leaf`: fewer options first, then the item
    /// first in the tie-break order.
    fn key(len: i32, leaf: u32) -> u64 {
        (u64::from(len as u32) << 32) | u64::from(leaf)
    }

    /// Rebuilds every key from the links: the uncovered primary items are the root list.
    fn rebuild(&mut self, nodes: &[Node], links: &[Links]) {
        self.pending.clear();
        for (h, &leaf) in self.leaf.iter().enumerate() {
            let primary = leaf != NO_LEAF;
            self.dirty[h] = !primary;
            self.covered[h] = true;
            if primary {
                self.keys[leaf as usize] = COVERED;
            }
        }
        let mut k = links[ROOT as usize].next;
        while k != ROOT {
            self.covered[k as usize] = false;
            let leaf = self.leaf[k as usize];
            self.keys[leaf as usize] = Self::key(nodes[k as usize].top, leaf);
            k = links[k as usize].next;
        }
        for i in (1..self.size).rev() {
            self.keys[i] = self.keys[2 * i].min(self.keys[2 * i + 1]);
        }
    }

    /// Notes that item `h`'s key may have changed.
    #[inline(always)]
    fn touch(&mut self, h: u32) {
        let dirty = &mut self.dirty[h as usize];
        if !*dirty {
            *dirty = true;
            self.pending.push(h);
        }
    }

    fn cover(&mut self, h: u32) {
        self.covered[h as usize] = true;
        self.touch(h);
    }

    fn uncover(&mut self, h: u32) {
        self.covered[h as usize] = false;
        self.touch(h);
    }

    /// Brings the pending leaves up to date and returns the item with the least key (the root
    /// when every primary item is covered).
    fn least(&mut self, nodes: &[Node]) -> u32 {
        while let Some(h) = self.pending.pop() {
            self.dirty[h as usize] = false;
            let leaf = self.leaf[h as usize];
            let key = if self.covered[h as usize] {
                COVERED
            } else {
                Self::key(nodes[h as usize].top, leaf)
            };
            let mut i = leaf as usize;
            self.keys[i] = key;
            while i > 1 {
                i /= 2;
                let least = self.keys[2 * i].min(self.keys[2 * i + 1]);
                if self.keys[i] == least {
                    break;
                }
                self.keys[i] = least;
            }
        }
        match self.keys[1] {
            COVERED => ROOT,
            key => self.header[key as u32 as usize - self.size],
        }
    }
}

/// How the solver finds the item with the fewest options at each search node. Every choice
/// picks the same item (ties to the item declared first, or with a seed to the first in the
/// seed's order), so node counts and the order of the solutions do not depend on it; only the
/// time does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ItemChoice {
    /// [`ItemChoice::Tree`] for problems with at least [`ItemChoice::TREE_FROM`] primary items
    /// whose covers change few items' lengths, [`ItemChoice::Scan`] for the others: where the
    /// mean cover changes `t` lengths (an option of `k` items in an item's list changes `k - 1`
    /// of them when hidden), the tree's O(t log items) a node must cost less than the scan's
    /// O(items). One-option items (t = 0) take the tree; N-Queens, whose covers change nearly
    /// every item's length, keeps the scan at every size.
    #[default]
    Auto,
    /// One pass over the uncovered primary items per search node, as Knuth's DLX1 does: the
    /// fastest for small problems, where the pass is short and the updates carry no extra work.
    Scan,
    /// A tournament tree over the primary items, updated as lengths change: O(log items) per
    /// item whose length changed, instead of O(items) per node, with or without a seed.
    Tree,
}

impl ItemChoice {
    /// The number of primary items from which [`ItemChoice::Auto`] uses the tree.
    pub const TREE_FROM: usize = 1024;
}

/// The search state of the preselection check: how each item is used by the options selected
/// before the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    Free,
    Taken,
    Colored(i32),
}

/// Algorithm X with dancing links over one [`Problem`]. See the [module documentation](self);
/// users reach it through [`crate::Solver`].
///
/// A solver answers any number of searches, one at a time; each starts from scratch. Options
/// preselected with [`DancingLinks::select`] are part of every solution.
#[derive(Clone, Debug)]
pub(crate) struct DancingLinks {
    nodes: Vec<Node>,
    /// Without colors, empty. With colors, one per node: for an option's node, 0 without a
    /// color, `c + 1` for color `c`, −1 once purified. Kept apart from the nodes so that
    /// problems without colors use 12-byte nodes (DLX1 uses 16).
    colors: Vec<i32>,
    links: Vec<Links>,
    /// The first spacer: nodes below it are the root and the headers.
    first_spacer: u32,
    has_colors: bool,
    /// With a seed, by header: the primary item's place in the seed's tie-break order (see
    /// [`tie_ranks`]; 0 for the root and secondary items, which are never ranked). Empty
    /// without a seed: ties go to the item declared first.
    ranks: Vec<u32>,
    /// The MRV choice uses `tree` (large problems, see [`ItemChoice`]).
    tracking: bool,
    /// Lengths a cover changes, summed over the items: Σ over the options of k·(k − 1) for an
    /// option of k items (for [`ItemChoice::Auto`]).
    length_changes: u64,
    tree: ItemTree,
    /// By item: primary or not (to build `tree` when it is first needed).
    primary: Vec<bool>,
    /// How each item is used by the preselected options.
    usage: Vec<Use>,
    /// Item names, for error messages (shared by the solvers of one problem).
    names: Arc<[String]>,
    /// The preselected options' nodes (each on a primary item), in order.
    selected: Vec<u32>,
    phase: Phase,
    /// The search pauses (its step returns `false` with `paused` set) once `stats.nodes`
    /// reaches this, so the caller can look at its limits; `u64::MAX` without limits.
    pub(crate) pause_at: u64,
    /// Set when the last step paused rather than ended.
    pub(crate) paused: bool,
    level: usize,
    choice: Vec<u32>,
    stats: Stats,
    /// The arena when the search started, to check that undo is exact.
    #[cfg(debug_assertions)]
    snapshot: Option<(Vec<Node>, Vec<i32>, Vec<Links>)>,
}

impl DancingLinks {
    /// A solver for `problem`. Without a seed, options are tried in the order they were added
    /// and ties between items go to the item declared first (Knuth's DLX1 order); with a seed,
    /// in the seed's order (see the [module documentation](self)). `names`: the problem's
    /// item names.
    pub(crate) fn new(problem: &Problem, seed: Option<u64>, names: Arc<[String]>) -> Self {
        let item_count = problem.items.len();
        let header = |item: usize| item as u32 + 1;
        let mut nodes =
            Vec::with_capacity(item_count + 2 + problem.entries.len() + problem.option_count());
        nodes.push(Node {
            up: ROOT,
            down: ROOT,
            top: 0,
        });
        for i in 0..item_count {
            nodes.push(Node {
                up: header(i),
                down: header(i),
                top: 0,
            });
        }
        let mut links = vec![Links { prev: 0, next: 0 }; item_count + 1];
        let mut last = ROOT;
        for (i, item) in problem.items.iter().enumerate() {
            let h = header(i);
            if item.kind == ItemKind::Primary {
                links[last as usize].next = h;
                links[h as usize].prev = last;
                last = h;
            } else {
                links[h as usize] = Links { prev: h, next: h };
            }
        }
        links[last as usize].next = ROOT;
        links[ROOT as usize].prev = last;

        let has_colors = problem.has_colors();
        let mut colors = Vec::new();
        let first_spacer = nodes.len() as u32;
        nodes.push(Node {
            up: 0,
            down: 0,
            top: 0,
        });
        let mut length_changes = 0u64;
        for option in problem.option_ids() {
            let spacer = nodes.len() - 1;
            let first = nodes.len() as u32;
            for entry in problem.option(option) {
                let h = header(entry.item.index());
                let index = nodes.len() as u32;
                let bottom = nodes[h as usize].up;
                nodes[bottom as usize].down = index;
                nodes[h as usize].up = index;
                nodes[h as usize].top += 1;
                nodes.push(Node {
                    up: bottom,
                    down: h,
                    top: h as i32,
                });
                if has_colors {
                    colors.resize(nodes.len(), 0);
                    colors[index as usize] = entry.color.map_or(0, |c| c.0 as i32 + 1);
                }
            }
            nodes[spacer].down = nodes.len() as u32 - 1;
            let k = u64::from(nodes.len() as u32 - first);
            length_changes += k * k.saturating_sub(1);
            let index = nodes.len() as u32;
            nodes.push(Node {
                up: first,
                down: index,
                top: -(option.0 as i32) - 1,
            });
        }

        if has_colors {
            colors.resize(nodes.len(), 0);
        }
        let primary: Vec<bool> = problem
            .items
            .iter()
            .map(|i| i.kind == ItemKind::Primary)
            .collect();
        let mut ranks = Vec::new();
        if let Some(seed) = seed {
            let mut rng = SplitMix64::new(seed);
            shuffle_lists(&mut nodes, item_count, &mut rng);
            let by_place = tie_ranks(&mut rng, primary.iter().filter(|&&p| p).count());
            ranks = vec![0; item_count + 1];
            let headers = (1..).zip(&primary).filter(|(_, p)| **p);
            for ((h, _), &rank) in headers.zip(&by_place) {
                ranks[h] = rank;
            }
        }
        let mut solver = DancingLinks {
            length_changes,
            nodes,
            links,
            first_spacer,
            colors,
            has_colors,
            tracking: false,
            tree: ItemTree::default(),
            primary,
            ranks,
            usage: vec![Use::Free; item_count],
            names,
            selected: Vec::new(),
            phase: Phase::Fresh,
            pause_at: u64::MAX,
            paused: false,
            level: 0,
            choice: Vec::new(),
            stats: Stats::default(),
            #[cfg(debug_assertions)]
            snapshot: None,
        };
        solver.set_item_choice(ItemChoice::Auto);
        solver
    }

    /// Chooses how the search finds the item with the fewest options (see [`ItemChoice`]). A
    /// search in progress starts over.
    pub(crate) fn set_item_choice(&mut self, choice: ItemChoice) {
        self.restart();
        let primary = self.primary.iter().filter(|&&p| p).count();
        let per_cover = self.length_changes / self.primary.len().max(1) as u64;
        let log_items = u64::from(usize::BITS - primary.leading_zeros());
        self.tracking = match choice {
            ItemChoice::Auto => {
                primary >= ItemChoice::TREE_FROM && per_cover * log_items < primary as u64
            }
            ItemChoice::Scan => false,
            ItemChoice::Tree => true,
        };
        if self.tracking && self.tree.leaf.is_empty() {
            self.tree = ItemTree::new(&self.primary, &self.ranks);
        }
    }

    /// Whether the search finds its items with the tree (see [`ItemChoice`]).
    pub(crate) fn uses_item_tree(&self) -> bool {
        self.tracking
    }

    /// Puts `option` into every solution, as if the search had chosen it first: its items are
    /// covered (or purified, for colored ones) for good. Fails if the option clashes with an
    /// option selected before, or once a search has started.
    pub(crate) fn select(&mut self, option: OptionId) -> Result<(), Error> {
        if self.phase != Phase::Fresh || self.stats != Stats::default() {
            return Err(Error::SearchStarted);
        }
        let spacer = self.spacer_before(option)?;
        // Check every item before touching the links.
        let mut p = spacer + 1;
        let mut primary = None;
        while self.nodes[p as usize].top > 0 {
            let node = self.nodes[p as usize];
            let item = node.top as usize - 1;
            let clash = match self.usage[item] {
                Use::Free => false,
                Use::Taken => true,
                Use::Colored(c) => self.color(p) != c,
            };
            if clash {
                return Err(Error::Conflict {
                    option: option.0,
                    item: self.names[item].clone(),
                });
            }
            // Secondary items are the ones linked to themselves in `links`.
            if primary.is_none() && self.links[node.top as usize].next != node.top as u32 {
                primary = Some(p);
            }
            p += 1;
        }
        let chosen = primary.expect("every option has a primary item");
        let mut p = spacer + 1;
        while self.nodes[p as usize].top > 0 {
            let node = self.nodes[p as usize];
            self.usage[node.top as usize - 1] = match self.color(p) {
                0 => Use::Taken,
                c => Use::Colored(c),
            };
            p += 1;
        }
        let item = self.nodes[chosen as usize].top as u32;
        if self.has_colors {
            self.cover::<true, false>(item);
            self.commit_others::<true, false>(chosen);
        } else {
            self.cover::<false, false>(item);
            self.commit_others::<false, false>(chosen);
        }
        self.selected.push(chosen);
        self.stats = Stats::default();
        Ok(())
    }

    /// The spacer in front of `option`'s nodes.
    fn spacer_before(&self, option: OptionId) -> Result<u32, Error> {
        // Spacers are found by walking from the first one: options vary in length. This is
        // O(options), fine for preselection, which happens a few times per solver.
        let mut spacer = self.first_spacer;
        let mut k = 0u32;
        loop {
            if k == option.0 {
                return Ok(spacer);
            }
            let last = self.nodes[spacer as usize].down;
            if last == spacer || (last as usize) + 1 >= self.nodes.len() {
                return Err(Error::BadId {
                    what: "option",
                    index: option.0,
                });
            }
            spacer = last + 1;
            k += 1;
        }
    }

    /// The counters of the last search (or of the one in progress).
    pub(crate) fn stats(&self) -> Stats {
        self.stats
    }

    /// The options of the solution the search stands on.
    pub(crate) fn fill(&self, buffer: &mut Vec<OptionId>) {
        buffer.clear();
        buffer.extend(self.selected.iter().map(|&p| self.option_of(p)));
        let depth = match self.phase {
            Phase::Recover => self.level + 1,
            _ => 0,
        };
        buffer.extend(self.choice[..depth].iter().map(|&p| self.option_of(p)));
    }

    /// The option a node belongs to: the mark of the spacer after it.
    fn option_of(&self, mut p: u32) -> OptionId {
        while self.nodes[p as usize].top > 0 {
            p += 1;
        }
        OptionId((-self.nodes[p as usize].top - 1) as u32)
    }

    /// Undoes a search in progress, so the next step starts a new one.
    pub(crate) fn restart(&mut self) {
        let committed = match self.phase {
            Phase::Fresh => {
                self.stats = Stats::default();
                return;
            }
            Phase::Done => 0,
            Phase::Forward => self.level,
            Phase::Advance => {
                // The item of this level is covered but no option of it is committed.
                let item = self.nodes[self.choice[self.level] as usize].top;
                let item = if self.choice[self.level] < self.first_spacer {
                    self.choice[self.level]
                } else {
                    item as u32
                };
                self.uncover_any(item);
                self.level
            }
            Phase::Recover => self.level + 1,
        };
        for level in (0..committed).rev() {
            let p = self.choice[level];
            let item = self.nodes[p as usize].top as u32;
            if self.has_colors {
                self.uncommit_others::<true, false>(p);
                self.uncover::<true, false>(item);
            } else {
                self.uncommit_others::<false, false>(p);
                self.uncover::<false, false>(item);
            }
        }
        self.check_restored();
        self.phase = Phase::Fresh;
        self.level = 0;
        self.stats = Stats::default();
    }

    fn uncover_any(&mut self, item: u32) {
        if self.has_colors {
            self.uncover::<true, false>(item);
        } else {
            self.uncover::<false, false>(item);
        }
    }

    /// Runs the search to its next solution, telling `observer` every step; false when there
    /// is none left.
    pub(crate) fn step<O: Observer>(&mut self, observer: &mut O) -> bool {
        match (self.has_colors, self.tracking) {
            (true, true) => self.step_with::<true, true, O>(observer),
            (true, false) => self.step_with::<true, false, O>(observer),
            (false, true) => self.step_with::<false, true, O>(observer),
            (false, false) => self.step_with::<false, false, O>(observer),
        }
    }

    fn step_with<const COLORS: bool, const TRACK: bool, O: Observer>(
        &mut self,
        observer: &mut O,
    ) -> bool {
        loop {
            match self.phase {
                Phase::Fresh => {
                    self.take_snapshot();
                    if TRACK {
                        self.tree.rebuild(&self.nodes, &self.links);
                    }
                    self.level = 0;
                    if self.links[ROOT as usize].next == ROOT {
                        // Nothing to cover: the options selected so far are the one solution.
                        self.phase = Phase::Done;
                        self.stats.solutions += 1;
                        return true;
                    }
                    self.phase = Phase::Forward;
                }
                Phase::Forward => {
                    if self.stats.nodes >= self.pause_at {
                        self.paused = true;
                        return false;
                    }
                    self.stats.nodes += 1;
                    if cfg!(debug_assertions) && self.stats.nodes.is_power_of_two() {
                        self.assert_sane();
                    }
                    let item = if TRACK {
                        self.choose_from_tree()
                    } else {
                        self.choose_item()
                    };
                    if O::WATCHES {
                        // Headers are numbered from 1, items from 0.
                        observer.branch(self.level, ItemId(item - 1));
                    }
                    self.cover::<COLORS, TRACK>(item);
                    if self.level == self.choice.len() {
                        self.choice.push(0);
                    }
                    self.choice[self.level] = self.nodes[item as usize].down;
                    self.phase = Phase::Advance;
                }
                Phase::Advance => {
                    let p = self.choice[self.level];
                    if p < self.first_spacer {
                        // Every option of this item was tried: back up.
                        if O::WATCHES {
                            observer.back_up(self.level);
                        }
                        self.uncover::<COLORS, TRACK>(p);
                        if self.level == 0 {
                            self.phase = Phase::Done;
                            self.check_restored();
                            return false;
                        }
                        self.level -= 1;
                        self.phase = Phase::Recover;
                        continue;
                    }
                    if O::WATCHES {
                        observer.try_option(self.level, self.option_of(p));
                    }
                    self.commit_others::<COLORS, TRACK>(p);
                    self.phase = Phase::Recover;
                    if self.links[ROOT as usize].next == ROOT {
                        self.stats.solutions += 1;
                        return true;
                    }
                    self.level += 1;
                    self.phase = Phase::Forward;
                }
                Phase::Recover => {
                    let p = self.choice[self.level];
                    self.uncommit_others::<COLORS, TRACK>(p);
                    self.choice[self.level] = self.nodes[p as usize].down;
                    self.phase = Phase::Advance;
                }
                Phase::Done => return false,
            }
        }
    }

    /// [`DancingLinks::choose_item`] by the tree: the same item, in O(log items) per item touched
    /// since the last choice. Debug builds check it against the scan now and then.
    fn choose_from_tree(&mut self) -> u32 {
        let item = self.tree.least(&self.nodes);
        debug_assert!(
            !self.stats.nodes.is_power_of_two() || item == self.choose_item(),
            "the item tree disagrees with the scan"
        );
        item
    }

    /// The uncovered primary item with the fewest options, by one pass over them; ties go to
    /// the first in the list (the item declared first), or with a seed to the first in the
    /// seed's order.
    fn choose_item(&self) -> u32 {
        let mut best = ROOT;
        let mut fewest = i32::MAX;
        let mut k = self.link(ROOT).next;
        if self.ranks.is_empty() {
            while k != ROOT {
                let len = self.node(k).top;
                if len < fewest {
                    best = k;
                    fewest = len;
                    if len == 0 {
                        break;
                    }
                }
                k = self.link(k).next;
            }
        } else {
            let mut least = u64::MAX;
            while k != ROOT {
                let key =
                    (u64::from(self.node(k).top as u32) << 32) | u64::from(self.ranks[k as usize]);
                if key < least {
                    best = k;
                    least = key;
                }
                k = self.link(k).next;
            }
        }
        best
    }

    /// The item list links of item `i` (or of the root). Unchecked in release builds like
    /// [`DancingLinks::node`]: MRV reads one per uncovered item at every search node. Sound because
    /// every `prev`/`next` is set at build time to an item index below `links.len()` and the
    /// search only copies them between items; debug builds check every access.
    #[inline(always)]
    fn link(&self, i: u32) -> Links {
        debug_assert!((i as usize) < self.links.len());
        // SAFETY: `i` is the root or an item link, hence in bounds (see above).
        unsafe { *self.links.get_unchecked(i as usize) }
    }

    /// The item list links of item `i`, to change. Unchecked in release builds: see
    /// [`DancingLinks::link`].
    #[inline(always)]
    fn link_mut(&mut self, i: u32) -> &mut Links {
        debug_assert!((i as usize) < self.links.len());
        // SAFETY: `i` is the root or an item link, hence in bounds (see `link`).
        unsafe { self.links.get_unchecked_mut(i as usize) }
    }

    /// The node at index `i`.
    ///
    /// Unchecked in release builds, because the inner loops below read and write three or four
    /// nodes per update and the bounds checks cost about a fifth of the running time (measured
    /// on pentominoes 6×10 when this was written). Sound because every link is set at build
    /// time to an index of a node that exists, the arena never shrinks, and the search only
    /// ever copies links between nodes; debug builds (the whole test suite) check every
    /// access, and [`DancingLinks::sanity`] walks the links.
    #[inline(always)]
    fn node(&self, i: u32) -> Node {
        debug_assert!((i as usize) < self.nodes.len());
        // SAFETY: `i` is a link, hence in bounds (see above).
        unsafe { *self.nodes.get_unchecked(i as usize) }
    }

    /// The color mark of node `i` (0 when the problem has no colors).
    #[inline(always)]
    fn color(&self, i: u32) -> i32 {
        self.colors.get(i as usize).copied().unwrap_or(0)
    }

    /// The node at index `i`, to change. Unchecked in release builds: see [`DancingLinks::node`].
    #[inline(always)]
    fn node_mut(&mut self, i: u32) -> &mut Node {
        debug_assert!((i as usize) < self.nodes.len());
        // SAFETY: `i` is a link, hence in bounds (see `node`).
        unsafe { self.nodes.get_unchecked_mut(i as usize) }
    }

    /// Removes `item` from the list of items to cover and hides every option in its list.
    fn cover<const COLORS: bool, const TRACK: bool>(&mut self, item: u32) {
        let Links { prev, next } = self.link(item);
        self.link_mut(prev).next = next;
        self.link_mut(next).prev = prev;
        if TRACK {
            self.tree.cover(item);
        }
        let mut updates = 1;
        let mut p = self.node(item).down;
        while p != item {
            updates += self.hide::<COLORS, TRACK>(p);
            p = self.node(p).down;
        }
        self.stats.updates += updates;
    }

    /// The inverse of [`DancingLinks::cover`], walking upwards.
    fn uncover<const COLORS: bool, const TRACK: bool>(&mut self, item: u32) {
        let mut p = self.node(item).up;
        while p != item {
            self.unhide::<COLORS, TRACK>(p);
            p = self.node(p).up;
        }
        let Links { prev, next } = self.link(item);
        self.link_mut(prev).next = item;
        self.link_mut(next).prev = item;
        if TRACK {
            self.tree.uncover(item);
        }
    }

    /// Takes the nodes of `p`'s option, other than `p`, out of their items' lists (purified
    /// nodes stay). Returns the number of nodes taken out.
    #[inline(always)]
    fn hide<const COLORS: bool, const TRACK: bool>(&mut self, p: u32) -> u64 {
        let mut updates = 0;
        let mut q = p + 1;
        while q != p {
            let Node { up, down, top } = self.node(q);
            if top <= 0 {
                q = up;
                continue;
            }
            if !COLORS || self.color(q) >= 0 {
                self.node_mut(up).down = down;
                self.node_mut(down).up = up;
                self.node_mut(top as u32).top -= 1;
                if TRACK {
                    self.tree.touch(top as u32);
                }
                updates += 1;
            }
            q += 1;
        }
        updates
    }

    /// The inverse of [`DancingLinks::hide`], walking leftwards.
    #[inline(always)]
    fn unhide<const COLORS: bool, const TRACK: bool>(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let Node { up, down, top } = self.node(q);
            if top <= 0 {
                q = down;
                continue;
            }
            if !COLORS || self.color(q) >= 0 {
                self.node_mut(up).down = q;
                self.node_mut(down).up = q;
                self.node_mut(top as u32).top += 1;
                if TRACK {
                    self.tree.touch(top as u32);
                }
            }
            q -= 1;
        }
    }

    /// Covers (or purifies) the items of `p`'s option other than `p`'s own, left to right.
    fn commit_others<const COLORS: bool, const TRACK: bool>(&mut self, p: u32) {
        let mut q = p + 1;
        while q != p {
            let Node { up, top, .. } = self.node(q);
            if top <= 0 {
                q = up;
                continue;
            }
            let color = if COLORS { self.color(q) } else { 0 };
            if color == 0 {
                self.cover::<COLORS, TRACK>(top as u32);
            } else if color > 0 {
                self.purify::<TRACK>(q);
            }
            q += 1;
        }
    }

    /// The inverse of [`DancingLinks::commit_others`], right to left.
    fn uncommit_others<const COLORS: bool, const TRACK: bool>(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let Node { down, top, .. } = self.node(q);
            if top <= 0 {
                q = down;
                continue;
            }
            let color = if COLORS { self.color(q) } else { 0 };
            if color == 0 {
                self.uncover::<COLORS, TRACK>(top as u32);
            } else if color > 0 {
                self.unpurify::<TRACK>(q);
            }
            q -= 1;
        }
    }

    /// Fixes the color of `p`'s item to `p`'s color: options with another color (or none) for
    /// the item are hidden, options with the same color are marked as compatible.
    fn purify<const TRACK: bool>(&mut self, p: u32) {
        let (item, color) = (self.node(p).top as u32, self.color(p));
        let mut updates = 0;
        let mut q = self.node(item).down;
        while q != item {
            if self.color(q) == color {
                self.colors[q as usize] = -1;
            } else {
                updates += self.hide::<true, TRACK>(q);
            }
            q = self.node(q).down;
        }
        self.stats.updates += updates;
    }

    /// The inverse of [`DancingLinks::purify`], walking upwards.
    fn unpurify<const TRACK: bool>(&mut self, p: u32) {
        let (item, color) = (self.node(p).top as u32, self.color(p));
        let mut q = self.node(item).up;
        while q != item {
            if self.color(q) < 0 {
                self.colors[q as usize] = color;
            } else {
                self.unhide::<true, TRACK>(q);
            }
            q = self.node(q).up;
        }
    }

    /// Walks the active part of the structure and reports the first inconsistency: the list of
    /// primary items must be doubly linked, and every active item's list doubly linked, with
    /// nodes that name the item and a length that counts them. O(nodes in active lists).
    pub(crate) fn sanity(&self) -> Result<(), String> {
        let mut previous = ROOT;
        let mut k = self.links[ROOT as usize].next;
        let mut steps = 0usize;
        loop {
            if self.links[k as usize].prev != previous {
                return Err(format!("item {k}: bad prev link"));
            }
            if k == ROOT {
                break;
            }
            steps += 1;
            if steps > self.links.len() {
                return Err("the item list does not close".into());
            }
            let mut above = k;
            let mut p = self.nodes[k as usize].down;
            let mut len = 0i32;
            while p != k {
                if self.nodes[p as usize].up != above {
                    return Err(format!("node {p}: bad up link"));
                }
                if p < self.first_spacer || self.nodes[p as usize].top != k as i32 {
                    return Err(format!(
                        "node {p} in the list of item {k} names another item"
                    ));
                }
                len += 1;
                if len as usize > self.nodes.len() {
                    return Err(format!("the list of item {k} does not close"));
                }
                above = p;
                p = self.nodes[p as usize].down;
            }
            if self.nodes[k as usize].up != above {
                return Err(format!("item {k}: bad up link in the header"));
            }
            if self.nodes[k as usize].top != len {
                return Err(format!(
                    "item {k}: length {} but {len} nodes",
                    self.nodes[k as usize].top
                ));
            }
            previous = k;
            k = self.links[k as usize].next;
        }
        Ok(())
    }

    fn assert_sane(&self) {
        if let Err(problem) = self.sanity() {
            panic!("dancing links corrupted: {problem}");
        }
    }

    #[cfg(debug_assertions)]
    fn take_snapshot(&mut self) {
        self.assert_sane();
        self.snapshot = Some((self.nodes.clone(), self.colors.clone(), self.links.clone()));
    }

    #[cfg(not(debug_assertions))]
    fn take_snapshot(&mut self) {}

    /// In debug builds: the arena is exactly as it was when the search started.
    #[cfg(debug_assertions)]
    fn check_restored(&mut self) {
        if let Some((nodes, colors, links)) = self.snapshot.take() {
            assert!(
                nodes == self.nodes && colors == self.colors && links == self.links,
                "undo is not exact: the links differ from the start of the search"
            );
        }
    }

    #[cfg(not(debug_assertions))]
    fn check_restored(&mut self) {}
}

/// A seed's tie-break order of `primary` items, drawn after the lists' shuffles (see the
/// [module documentation](self)): item by item in declaration order, its place in the order,
/// 0 first. A Fisher–Yates shuffle of the items, so every order is equally likely.
pub(crate) fn tie_ranks(rng: &mut SplitMix64, primary: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..primary as u32).collect();
    rng.shuffle(&mut order);
    let mut ranks = vec![0u32; primary];
    for (rank, &place) in (0u32..).zip(&order) {
        ranks[place as usize] = rank;
    }
    ranks
}

/// Shuffles every item's list (Fisher–Yates), relinking the nodes in the new order.
fn shuffle_lists(nodes: &mut [Node], item_count: usize, rng: &mut SplitMix64) {
    let mut members = Vec::new();
    for h in 1..=item_count as u32 {
        members.clear();
        let mut p = nodes[h as usize].down;
        while p != h {
            members.push(p);
            p = nodes[p as usize].down;
        }
        rng.shuffle(&mut members);
        let mut above = h;
        for &p in &members {
            nodes[above as usize].down = p;
            nodes[p as usize].up = above;
            above = p;
        }
        nodes[above as usize].down = h;
        nodes[h as usize].up = above;
    }
}
