//! Algorithm X over bit sets, for problems whose state fits in a few kilobytes.
//!
//! # The data structure
//!
//! Every primary item `i` keeps its options in a list, in the order dancing links would try
//! them (the order they were added, or the seed's shuffle), and the search state is one bit per
//! entry of those lists: bit `j` of item `i`'s words says whether the `j`-th option of its list
//! is still *live*, compatible with every option chosen so far. An item takes as many words as
//! its list needs, and the items are laid out grouped by that number (their *slots*), so that
//! within a group every item has the same stride. The words of all primary items lie back to
//! back in one row of `T` words; a second row of `M` words holds the primary items still to
//! cover, by slot. Options are precomputed as masks: `kill[o]`, a row of `T` words with a bit
//! for every list entry whose option clashes with `o` (shares a primary item with it, or a
//! secondary item that the two do not both give the same color), and `covers[o]`, a row of `M`
//! words with `o`'s primary items. Clashing is a relation between two options, so secondary
//! items and Knuth's colors need no work during the search at all: they are folded into `kill`.
//! Building `kill` costs one row per item, ORed into the rows of the options in its list:
//! (entries × `T`) word operations, plus a walk of the lists of colored entries.
//!
//! # The invariant, and why undo is free
//!
//! Level `d` of the search owns its own rows: the live bits and the items to cover after `d`
//! choices. Choosing option `o` at level `d` writes level `d + 1` as `live & !kill[o]` and
//! `uncovered & !covers[o]`; nothing at level `d` changes, so backing up is moving to the
//! level below, and no undo is needed. The rows of items already covered are neither written
//! nor read again below the level that covered them.
//!
//! # The search, and what it costs
//!
//! The item to branch on is the one with the fewest live options (MRV): the population count
//! of its words. Counting is fused with writing the next level, group by group, with one
//! compiled loop per stride (one to eight words, unrolled), and the least (count, rank) wins,
//! where an item's rank is its place in declaration order, or with a seed in the seed's order,
//! drawn exactly as dancing links draws it ([`crate::dlx`], "A seed's order"). Both engines
//! visit the same search tree: the same choices, the same node counts, the same solutions in
//! the same order, for every seed. A search node costs one pass over the
//! words of the items still to cover (an AND-NOT and a population count per word), where
//! dancing links costs one update per hidden node: for pentominoes in a 6×10 box about 80
//! words against about 340 link updates, each a dependent memory access.
//!
//! The precomputed masks cost `options × T` words, so the engine takes problems whose table
//! stays small (`BitSearch::fits`); larger problems stay with dancing links, which is also the
//! oracle the tests compare this engine with. Work counters: search-tree nodes, counted as
//! dancing links counts them; there are no link updates.

use std::sync::Arc;

use nqueens_support::SplitMix64;

use crate::dlx::tie_ranks;
use crate::error::Error;
use crate::observe::Observer;
use crate::problem::{ItemId, ItemKind, OptionId, Problem};
use crate::stats::Stats;

/// The most primary items the bit engine takes.
pub const MAX_PRIMARY: usize = 1024;

/// The most bytes the bit engine's precomputed tables may take.
pub const MAX_TABLE_BYTES: usize = 64 << 20;

const NONE: u32 = u32::MAX;

/// Where the search loop stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Nothing chosen; the next step starts a search.
    Fresh,
    /// `item_at[level]` is chosen: try its next live option from `next[level]`.
    Advance,
    /// The search is over.
    Done,
}

/// How an item is used by the preselected options (as in dancing links, for the same errors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    Free,
    Taken,
    Colored(u32),
}

/// Algorithm X over bit sets; see the [module documentation](self).
#[derive(Clone, Debug)]
pub(crate) struct BitSearch {
    /// Words per row of live bits (`T`, the sum of every primary item's words) and per row of
    /// items (`M`).
    live_words: usize,
    /// Whether the processor has POPCNT, so that [`BitSearch::descend`] runs the copy
    /// compiled for it.
    popcnt: bool,
    mask_words: usize,
    /// The primary items with the same number of words, as ranges of slots.
    groups: Vec<Group>,
    /// By slot (primary items numbered by their number of words, then in declaration order):
    /// the first word of its live bits; one more entry closes the last.
    word_start: Vec<u32>,
    /// By slot: the item's place in declaration order.
    declared: Vec<u32>,
    /// By slot: the item's rank, which breaks MRV ties: its place in declaration order, or
    /// with a seed in the seed's order.
    rank: Vec<u32>,
    /// By rank: the item's slot.
    slot_of_rank: Vec<u32>,
    /// By slot: its options in list order, back to back; `list_start` closes them.
    list: Vec<u32>,
    list_start: Vec<u32>,
    /// By option: `T` words, its clashing list entries.
    kill: Vec<u64>,
    /// By option: `mask_words` words of its primary items, by slot.
    covers: Vec<u64>,
    /// The state before the first choice (after preselection).
    start_live: Vec<u64>,
    start_uncovered: Vec<u64>,
    /// Level `d`'s rows: `live[d * T..]`, `uncovered[d * M..]`.
    live: Vec<u64>,
    uncovered: Vec<u64>,
    /// By level: the slot of the item branched on, and the next list position to try.
    item_at: Vec<u32>,
    next: Vec<u32>,
    /// By level: the option chosen there.
    chosen: Vec<u32>,
    /// Levels `0..solution_depth` hold the solution just found.
    solution_depth: usize,
    level: usize,
    phase: Phase,
    /// The search pauses (its step returns `false` with `paused` set) once `stats.nodes`
    /// reaches this, so the caller can look at its limits; `u64::MAX` without limits.
    pub(crate) pause_at: u64,
    /// Set when the last step paused rather than ended.
    pub(crate) paused: bool,
    /// Whether a seed ordered the search (the choice then finds the least rank among the items
    /// with no options left, as dancing links does, rather than stopping at the first).
    seeded: bool,
    stats: Stats,
    /// For preselection: every option's (item, color + 1 or 0) entries, how items are used,
    /// and item names for errors.
    entries: Vec<(u32, u32)>,
    entry_start: Vec<u32>,
    usage: Vec<Use>,
    names: Arc<[String]>,
    selected: Vec<OptionId>,
    /// By place in declaration order among the primary items: the item's number (for an
    /// observer).
    primary_items: Vec<u32>,
}

/// The sizes of the bit engine's tables for a problem.
struct Shape {
    primary: usize,
    /// By primary item in declaration order: the words its list needs (at least one).
    words: Vec<u32>,
    live_words: usize,
    mask_words: usize,
}

impl Shape {
    fn of(problem: &Problem) -> Shape {
        let mut lengths = vec![0usize; problem.items.len()];
        for entry in &problem.entries {
            lengths[entry.item.index()] += 1;
        }
        let words: Vec<u32> = problem
            .items
            .iter()
            .zip(&lengths)
            .filter(|(item, _)| item.kind == ItemKind::Primary)
            .map(|(_, &length)| length.div_ceil(64).max(1) as u32)
            .collect();
        let live_words = words.iter().map(|&w| w as usize).sum();
        Shape {
            primary: words.len(),
            live_words,
            mask_words: words.len().div_ceil(64).max(1),
            words,
        }
    }

    /// Bytes of the tables: `kill` and `covers` per option, and the rows of every level.
    fn bytes(&self, options: usize) -> usize {
        let per_option = self.live_words.saturating_add(self.mask_words);
        let levels = (self.primary + 1).saturating_mul(per_option);
        options
            .saturating_mul(per_option)
            .saturating_add(levels)
            .saturating_mul(8)
    }
}

impl BitSearch {
    /// Whether the bit engine takes `problem`: at most [`MAX_PRIMARY`] primary items and
    /// tables of at most [`MAX_TABLE_BYTES`]. Otherwise, the reason.
    pub(crate) fn fits(problem: &Problem) -> Result<(), String> {
        let shape = Shape::of(problem);
        if shape.primary > MAX_PRIMARY {
            return Err(format!(
                "{} primary items (the bit engine takes at most {MAX_PRIMARY})",
                shape.primary
            ));
        }
        let bytes = shape.bytes(problem.option_count());
        if bytes > MAX_TABLE_BYTES {
            return Err(format!(
                "its tables would take {} MiB (the bit engine takes at most {} MiB)",
                bytes.div_ceil(1 << 20),
                MAX_TABLE_BYTES >> 20
            ));
        }
        Ok(())
    }

    /// The engine for `problem`, which must [fit](BitSearch::fits); `names`: its item names.
    pub(crate) fn new(problem: &Problem, seed: Option<u64>, names: Arc<[String]>) -> Self {
        let shape = Shape::of(problem);
        let (t, m) = (shape.live_words, shape.mask_words);
        let items = problem.items.len();
        let options = problem.option_count();

        // Every item's list, in option order, then shuffled exactly as dancing links shuffles
        // its lists (item by item, Fisher–Yates with the same draws).
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); items];
        let mut entries = Vec::with_capacity(problem.entries.len());
        let mut entry_start = Vec::with_capacity(options + 1);
        entry_start.push(0);
        for option in problem.option_ids() {
            for entry in problem.option(option) {
                lists[entry.item.index()].push(option.0);
                entries.push((entry.item.0, entry.color.map_or(0, |c| c.0 + 1)));
            }
            entry_start.push(entries.len() as u32);
        }
        // By primary item in declaration order: its rank.
        let mut ranks: Vec<u32> = (0..shape.primary as u32).collect();
        if let Some(seed) = seed {
            let mut rng = SplitMix64::new(seed);
            for members in &mut lists {
                rng.shuffle(members);
            }
            ranks = tie_ranks(&mut rng, shape.primary);
        }

        // Slots: the primary items sorted by their number of words (stable, so declaration
        // order within a group), so that each group's rows have one fixed stride. Then word
        // offsets, flattened lists, and each entry's list position.
        let primary_items: Vec<usize> = (0..items)
            .filter(|&i| problem.items[i].kind == ItemKind::Primary)
            .collect();
        let mut declared: Vec<u32> = (0..shape.primary as u32).collect();
        declared.sort_by_key(|&p| shape.words[p as usize]);
        let mut slot_of = vec![0u32; shape.primary];
        let mut slot_of_rank = vec![0u32; shape.primary];
        for (slot, &p) in declared.iter().enumerate() {
            slot_of[p as usize] = slot as u32;
            slot_of_rank[ranks[p as usize] as usize] = slot as u32;
        }
        let rank = declared.iter().map(|&p| ranks[p as usize]).collect();
        let mut ordinal = vec![NONE; items];
        for (p, &i) in primary_items.iter().enumerate() {
            ordinal[i] = slot_of[p];
        }
        let mut word_start = Vec::with_capacity(shape.primary + 1);
        let mut list = Vec::new();
        let mut list_start = Vec::with_capacity(shape.primary + 1);
        let mut groups: Vec<Group> = Vec::new();
        let mut words = 0u32;
        for (slot, &p) in declared.iter().enumerate() {
            let stride = shape.words[p as usize];
            match groups.last_mut() {
                Some(group) if group.stride == stride => group.end += 1,
                _ => groups.push(Group {
                    first: slot as u32,
                    end: slot as u32 + 1,
                    stride,
                }),
            }
            word_start.push(words);
            list_start.push(list.len() as u32);
            words += stride;
            list.extend_from_slice(&lists[primary_items[p as usize]]);
        }
        word_start.push(words);
        list_start.push(list.len() as u32);
        debug_assert_eq!(words as usize, t);
        // position[k]: where entry k's option sits in its item's list.
        let mut position = vec![0u32; entries.len()];
        {
            let mut where_in: Vec<Vec<(u32, u32)>> = vec![Vec::new(); items];
            for (item, members) in lists.iter().enumerate() {
                where_in[item] = members
                    .iter()
                    .enumerate()
                    .map(|(j, &o)| (o, j as u32))
                    .collect();
                where_in[item].sort_unstable();
            }
            for o in 0..options {
                for k in entry_start[o] as usize..entry_start[o + 1] as usize {
                    let item = entries[k].0 as usize;
                    let found = where_in[item].binary_search_by_key(&(o as u32), |&(x, _)| x);
                    position[k] = where_in[item][found.expect("listed")].1;
                }
            }
        }

        // The masks. An option's clash row is the union, over its entries, of the entries of
        // the options it clashes with there. At an entry without a color, those are all the
        // options of the item's list, whose union is the same row for every option in the
        // list: it is built once per item and ORed into each such option's row, which costs
        // (entries × T) word operations. An entry with a color clashes only with the options
        // that give the item another color (or none), which are marked one by one.
        let entry_bits = |row: &mut [u64], other: usize| {
            for e in entry_start[other] as usize..entry_start[other + 1] as usize {
                let q = ordinal[entries[e].0 as usize];
                if q != NONE {
                    let bit = word_start[q as usize] as usize * 64 + position[e] as usize;
                    row[bit / 64] |= 1 << (bit % 64);
                }
            }
        };
        let color_at = |option: usize, item: u32| {
            entries[entry_start[option] as usize..entry_start[option + 1] as usize]
                .iter()
                .find(|&&(it, _)| it == item)
                .map_or(0, |&(_, c)| c)
        };
        let mut kill = vec![0u64; options * t];
        let mut covers = vec![0u64; options * m];
        let mut row = vec![0u64; t];
        for (item, members) in lists.iter().enumerate() {
            let plain: Vec<usize> = members
                .iter()
                .map(|&o| o as usize)
                .filter(|&o| color_at(o, item as u32) == 0)
                .collect();
            if plain.is_empty() {
                continue;
            }
            row.fill(0);
            for &other in members {
                entry_bits(&mut row, other as usize);
            }
            for o in plain {
                for (k, &r) in kill[o * t..(o + 1) * t].iter_mut().zip(&row) {
                    *k |= r;
                }
            }
        }
        for o in 0..options {
            for &(item, color) in &entries[entry_start[o] as usize..entry_start[o + 1] as usize] {
                let p = ordinal[item as usize];
                if p != NONE {
                    covers[o * m + p as usize / 64] |= 1 << (p % 64);
                }
                if color == 0 {
                    continue;
                }
                for &other in &lists[item as usize] {
                    if color_at(other as usize, item) != color {
                        entry_bits(&mut kill[o * t..(o + 1) * t], other as usize);
                    }
                }
            }
        }

        // Everything live, every primary item to cover.
        let mut start_live = vec![0u64; t];
        for p in 0..shape.primary {
            let length = (list_start[p + 1] - list_start[p]) as usize;
            let base = word_start[p] as usize;
            for j in 0..length {
                start_live[base + j / 64] |= 1 << (j % 64);
            }
        }
        let mut start_uncovered = vec![0u64; m];
        for p in 0..shape.primary {
            start_uncovered[p / 64] |= 1 << (p % 64);
        }

        let levels = shape.primary + 1;
        BitSearch {
            live_words: t,
            popcnt: has_popcnt(),
            mask_words: m,
            groups,
            word_start,
            declared,
            rank,
            slot_of_rank,
            list,
            list_start,
            kill,
            covers,
            start_live,
            start_uncovered,
            live: vec![0; levels * t],
            uncovered: vec![0; levels * m],
            item_at: vec![0; levels],
            next: vec![0; levels],
            chosen: vec![0; levels],
            solution_depth: 0,
            level: 0,
            phase: Phase::Fresh,
            pause_at: u64::MAX,
            paused: false,
            seeded: seed.is_some(),
            stats: Stats::default(),
            entries,
            entry_start,
            usage: vec![Use::Free; items],
            names,
            selected: Vec::new(),
            primary_items: primary_items.iter().map(|&i| i as u32).collect(),
        }
    }

    /// Puts `option` into every solution (see [`crate::Solver::select`]).
    pub(crate) fn select(&mut self, option: OptionId) -> Result<(), Error> {
        if self.phase != Phase::Fresh || self.stats != Stats::default() {
            return Err(Error::SearchStarted);
        }
        let o = option.index();
        if o + 1 >= self.entry_start.len() {
            return Err(Error::BadId {
                what: "option",
                index: option.0,
            });
        }
        let span = self.entry_start[o] as usize..self.entry_start[o + 1] as usize;
        for &(item, color) in &self.entries[span.clone()] {
            let clash = match self.usage[item as usize] {
                Use::Free => false,
                Use::Taken => true,
                Use::Colored(c) => c != color,
            };
            if clash {
                return Err(Error::Conflict {
                    option: option.0,
                    item: self.names[item as usize].clone(),
                });
            }
        }
        for &(item, color) in &self.entries[span] {
            self.usage[item as usize] = match color {
                0 => Use::Taken,
                c => Use::Colored(c),
            };
        }
        let (t, m) = (self.live_words, self.mask_words);
        for (w, k) in self.start_live.iter_mut().zip(&self.kill[o * t..]) {
            *w &= !k;
        }
        for (w, c) in self.start_uncovered.iter_mut().zip(&self.covers[o * m..]) {
            *w &= !c;
        }
        self.selected.push(option);
        Ok(())
    }

    /// The counters of the last search (or of the one in progress).
    pub(crate) fn stats(&self) -> Stats {
        self.stats
    }

    /// Forgets a search in progress, so the next step starts a new one.
    pub(crate) fn restart(&mut self) {
        self.phase = Phase::Fresh;
        self.level = 0;
        self.solution_depth = 0;
        self.stats = Stats::default();
    }

    /// The options of the solution the search stands on.
    pub(crate) fn fill(&self, buffer: &mut Vec<OptionId>) {
        buffer.clear();
        buffer.extend_from_slice(&self.selected);
        buffer.extend(
            self.chosen[..self.solution_depth]
                .iter()
                .map(|&o| OptionId(o)),
        );
    }

    /// Runs the search to its next solution, telling `observer` every step (at the points
    /// dancing links tells it); false when there is none left.
    pub(crate) fn step<O: Observer>(&mut self, observer: &mut O) -> bool {
        let (t, m) = (self.live_words, self.mask_words);
        loop {
            match self.phase {
                Phase::Fresh => {
                    self.level = 0;
                    self.solution_depth = 0;
                    self.live[..t].copy_from_slice(&self.start_live);
                    self.uncovered[..m].copy_from_slice(&self.start_uncovered);
                    if self.start_uncovered.iter().all(|&w| w == 0) {
                        self.phase = Phase::Done;
                        self.stats.solutions += 1;
                        return true;
                    }
                    let item = self.choose_at_start();
                    self.stats.nodes += 1;
                    if O::WATCHES {
                        observer.branch(0, self.item_of_slot(item));
                    }
                    self.item_at[0] = item;
                    self.next[0] = 0;
                    self.phase = Phase::Advance;
                }
                Phase::Advance => {
                    if self.stats.nodes >= self.pause_at {
                        self.paused = true;
                        return false;
                    }
                    let d = self.level;
                    let Some(option) = self.next_option(d) else {
                        if O::WATCHES {
                            observer.back_up(d);
                        }
                        if d == 0 {
                            self.phase = Phase::Done;
                            return false;
                        }
                        self.level -= 1;
                        continue;
                    };
                    self.chosen[d] = option;
                    if O::WATCHES {
                        observer.try_option(d, OptionId(option));
                    }
                    match self.descend(d, option) {
                        None => {
                            self.solution_depth = d + 1;
                            self.stats.solutions += 1;
                            return true;
                        }
                        Some(item) => {
                            self.stats.nodes += 1;
                            if O::WATCHES {
                                observer.branch(d + 1, self.item_of_slot(item));
                            }
                            self.level = d + 1;
                            self.item_at[d + 1] = item;
                            self.next[d + 1] = 0;
                        }
                    }
                }
                Phase::Done => return false,
            }
        }
    }

    /// The next live option of the item branched on at level `d`, from `next[d]` on (and
    /// moves `next[d]` past it).
    #[inline(always)]
    fn next_option(&mut self, d: usize) -> Option<u32> {
        let p = self.item_at[d] as usize;
        let base = d * self.live_words + self.word_start[p] as usize;
        let words = (self.word_start[p + 1] - self.word_start[p]) as usize;
        let from = self.next[d] as usize;
        let mut w = from / 64;
        if w >= words {
            return None;
        }
        let mut bits = self.live[base + w] & (u64::MAX << (from % 64));
        loop {
            if bits != 0 {
                let j = w * 64 + bits.trailing_zeros() as usize;
                self.next[d] = j as u32 + 1;
                return Some(self.list[self.list_start[p] as usize + j]);
            }
            w += 1;
            if w == words {
                self.next[d] = (words * 64) as u32;
                return None;
            }
            bits = self.live[base + w];
        }
    }

    /// The item of a slot, as the problem numbers it (for an observer).
    fn item_of_slot(&self, slot: u32) -> ItemId {
        ItemId(self.primary_items[self.declared[slot as usize] as usize])
    }

    /// MRV at the start: the item to cover with the least (live options, rank).
    fn choose_at_start(&self) -> u32 {
        let uncovered = &self.uncovered[..self.mask_words];
        let mut best = u64::MAX;
        for slot in 0..self.rank.len() {
            if uncovered[slot / 64] & (1 << (slot % 64)) != 0 {
                let span = self.word_start[slot] as usize..self.word_start[slot + 1] as usize;
                let count: u32 = self.live[span].iter().map(|w| w.count_ones()).sum();
                best = best.min(mrv_key(count, self.rank[slot]));
            }
        }
        self.slot_of_rank[best as u32 as usize]
    }

    /// Writes level `d + 1` from level `d` with `option` chosen, and returns the item to branch
    /// on there, or `None` when nothing is left to cover (a solution): the copy of
    /// [`BitSearch::descend_with`] compiled for this processor.
    #[inline(always)]
    fn descend(&mut self, d: usize, option: u32) -> Option<u32> {
        if self.popcnt {
            // SAFETY: `has_popcnt` saw the processor support POPCNT.
            #[cfg(target_arch = "x86_64")]
            return unsafe {
                if self.seeded {
                    self.descend_popcnt::<true>(d, option)
                } else {
                    self.descend_popcnt::<false>(d, option)
                }
            };
        }
        if self.seeded {
            self.descend_with::<true>(d, option)
        } else {
            self.descend_with::<false>(d, option)
        }
    }

    /// [`BitSearch::descend_with`] compiled with the POPCNT instruction, which counts a word's
    /// bits in one instruction instead of a dozen (x86-64 processors since 2008 have it, but
    /// the baseline target may not assume it).
    ///
    /// # Safety
    /// The processor must support POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn descend_popcnt<const SEEDED: bool>(&mut self, d: usize, option: u32) -> Option<u32> {
        self.descend_with::<SEEDED>(d, option)
    }

    /// [`BitSearch::descend`], with or without a seed. Each group of items is written by the
    /// copy of [`write_group`] for its stride, so every item's loop is the same few
    /// instructions with no branch, and the MRV choice is a minimum of (count, rank) keys, with
    /// no branch either.
    #[inline(always)]
    fn descend_with<const SEEDED: bool>(&mut self, d: usize, option: u32) -> Option<u32> {
        let (t, m) = (self.live_words, self.mask_words);
        let o = option as usize;
        let (below, above) = self.uncovered.split_at_mut((d + 1) * m);
        let now = &below[d * m..];
        let next = &mut above[..m];
        let mut any = 0;
        for ((n, &u), &c) in next
            .iter_mut()
            .zip(now)
            .zip(&self.covers[o * m..(o + 1) * m])
        {
            *n = u & !c;
            any |= *n;
        }
        if any == 0 {
            return None;
        }
        let (below, above) = self.live.split_at_mut((d + 1) * t);
        let mut rows = Rows {
            now: &below[d * t..],
            kill: &self.kill[o * t..(o + 1) * t],
            next: &mut above[..t],
            uncovered: &self.uncovered[(d + 1) * m..(d + 2) * m],
            word_start: &self.word_start,
            rank: &self.rank,
        };
        let mut best = u64::MAX;
        macro_rules! strides {
            ($($k:literal),*) => {
                for &group in &self.groups {
                    let zero = match group.stride {
                        $($k => write_group::<$k, SEEDED>(group, &mut rows, &mut best),)*
                        _ => write_group::<0, SEEDED>(group, &mut rows, &mut best),
                    };
                    if zero {
                        break;
                    }
                }
            };
        }
        strides!(1, 2, 3, 4, 5, 6, 8);
        Some(self.slot_of_rank[best as u32 as usize])
    }
}

/// Primary items whose rows have the same number of words: slots `first..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Group {
    first: u32,
    end: u32,
    stride: u32,
}

/// What one search step reads and writes: level `d`'s live bits, the chosen option's clash
/// row, level `d + 1`'s live bits and items to cover, and the ranks by slot.
struct Rows<'a> {
    now: &'a [u64],
    kill: &'a [u64],
    next: &'a mut [u64],
    uncovered: &'a [u64],
    word_start: &'a [u32],
    rank: &'a [u32],
}

/// The MRV order of the items: fewer live options first, then the lower rank.
#[inline(always)]
fn mrv_key(count: u32, rank: u32) -> u64 {
    (u64::from(count) << 32) | u64::from(rank)
}

/// Writes the next level's live bits of the items of `group` still to cover, and counts them:
/// `K` words each, or (`K = 0`) the group's stride read at run time. Keeps in `best` the least
/// (count, rank) key. Without a seed, returns true at the first item with no options left
/// (its key in `best`): in declaration order within the group, which is the choice dancing
/// links makes as long as one group holds the items (a seed's ranks need every count).
#[inline(always)]
fn write_group<const K: usize, const SEEDED: bool>(
    group: Group,
    rows: &mut Rows<'_>,
    best: &mut u64,
) -> bool {
    let k = if K == 0 { group.stride as usize } else { K };
    debug_assert_eq!(k, group.stride as usize);
    let (first, end) = (group.first as usize, group.end as usize);
    let words = rows.word_start[first] as usize..rows.word_start[end] as usize;
    let now = &rows.now[words.clone()];
    let kill = &rows.kill[words.clone()];
    let next = &mut rows.next[words];
    for w in first / 64..end.div_ceil(64) {
        let mut bits = rows.uncovered[w];
        if w == first / 64 {
            bits &= u64::MAX << (first % 64);
        }
        if w + 1 == end.div_ceil(64) && end % 64 != 0 {
            bits &= u64::MAX >> (64 - end % 64);
        }
        while bits != 0 {
            let slot = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let i = slot - first;
            let mut count = 0;
            if K == 0 {
                let span = i * k..(i + 1) * k;
                for ((n, &l), &x) in next[span.clone()]
                    .iter_mut()
                    .zip(&now[span.clone()])
                    .zip(&kill[span])
                {
                    *n = l & !x;
                    count += n.count_ones();
                }
            } else {
                // `K` words as arrays: the loop is unrolled, with no bounds checks.
                let next: &mut [u64; K] =
                    (&mut next[i * K..(i + 1) * K]).try_into().expect("K words");
                let now: &[u64; K] = now[i * K..(i + 1) * K].try_into().expect("K words");
                let kill: &[u64; K] = kill[i * K..(i + 1) * K].try_into().expect("K words");
                for j in 0..K {
                    next[j] = now[j] & !kill[j];
                    count += next[j].count_ones();
                }
            }
            let key = mrv_key(count, rows.rank[slot]);
            *best = (*best).min(key);
            if !SEEDED && count == 0 {
                *best = key;
                return true;
            }
        }
    }
    false
}

/// Whether the processor has the POPCNT instruction (x86-64 only; elsewhere the compiler's
/// own population count is all there is).
fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
