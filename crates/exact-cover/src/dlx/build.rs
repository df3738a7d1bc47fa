//! Building the arena from a [`Problem`](crate::Problem): the root, one header per item, each
//! option's nodes between spacers, O(items + entries); with a seed, every item's list shuffled
//! and the primary items' tie-break order drawn, in the sequence the
//! [module documentation](super) fixes (the bit engine draws the same numbers).

use std::sync::Arc;

use nqueens_support::SplitMix64;

use super::choice::{ItemChoice, ItemTree};
use super::{DancingLinks, Links, Node, Phase, ROOT, Use};
use crate::problem::{ItemKind, Problem};
use crate::stats::Stats;

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
