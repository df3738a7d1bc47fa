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
//!
//! # The files
//!
//! This file holds the arena's types; `build.rs` makes the arena (and a seed's order),
//! `choice.rs` picks the item to branch on, `dance.rs` covers and uncovers, `search.rs` steps
//! the search loop, `select.rs` preselects options, and `check.rs` walks the arena in debug
//! builds.

mod build;
mod check;
mod choice;
mod dance;
mod search;
mod select;

use std::sync::Arc;

pub(crate) use build::tie_ranks;
pub use choice::ItemChoice;
use choice::ItemTree;

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
