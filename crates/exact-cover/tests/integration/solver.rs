//! The solver's API: counters comparable with Knuth's DLX1, preselection, degenerate problems.

use std::ops::ControlFlow;

use nqueens_exact_cover::{
    Config, Engine, EngineChoice, Entry, Error, ItemChoice, ItemId, Observer, OptionId, Problem,
    Solver, Stats, instances,
};

/// A solver on one engine, with `item_choice` for dancing links.
fn solver(problem: &Problem, engine: EngineChoice, item_choice: ItemChoice) -> Solver {
    let config = Config {
        engine,
        item_choice,
        ..Config::default()
    };
    Solver::configured(problem, config).unwrap()
}

fn links(problem: &Problem) -> Solver {
    solver(problem, EngineChoice::Links, ItemChoice::Auto)
}

fn bits(problem: &Problem) -> Solver {
    solver(problem, EngineChoice::Bits, ItemChoice::Auto)
}

/// Node and update counts as Knuth's DLX1 reports them for the same files (the instances
/// written by `examples/instance.rs`; DLX1 built from dlx1.w and run without options). The
/// bit engine visits the same nodes.
#[test]
fn counters_match_dlx1() {
    let knuth = Problem::parse("A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n").unwrap();
    let cases = [
        (knuth, 1, 5, 30),
        (instances::langford(7).unwrap(), 52, 555, 8_339),
        (
            instances::pentominoes(3, 20).unwrap(),
            8,
            32_970,
            10_986_975,
        ),
    ];
    for (problem, solutions, nodes, updates) in cases {
        let mut bits = bits(&problem);
        assert_eq!(bits.count().unwrap(), solutions);
        assert_eq!(
            bits.stats(),
            Stats {
                nodes,
                updates: 0,
                solutions: solutions as u64,
                restarts: 0,
            }
        );
        let mut solver = links(&problem);
        assert_eq!(solver.count().unwrap(), solutions);
        assert_eq!(
            solver.stats(),
            Stats {
                nodes,
                updates,
                solutions: solutions as u64,
                restarts: 0,
            }
        );
        // Enumerating does the same work as counting.
        assert_eq!(solver.list(None).unwrap().len() as u128, solutions);
        assert_eq!(solver.stats().nodes, nodes);
    }
}

#[test]
fn preselection_errors() {
    let p = Problem::parse("a b c | x\na b\nb c\nc x:1\na x:2\nc\n").unwrap();
    let mut solver = Solver::new(&p);
    solver.select(OptionId(0)).unwrap();
    assert_eq!(
        solver.select(OptionId(1)).unwrap_err().to_string(),
        "option 1 cannot be selected: item 'b' is already covered"
    );
    assert!(matches!(
        solver.select(OptionId(9)),
        Err(Error::BadId {
            what: "option",
            index: 9
        })
    ));
    solver.select(OptionId(2)).unwrap();
    assert_eq!(
        solver.first().unwrap(),
        Some(vec![OptionId(0), OptionId(2)])
    );
    assert!(matches!(
        solver.select(OptionId(4)),
        Err(Error::SearchStarted)
    ));

    // Colors: x taken with color 1 clashes with color 2.
    let mut solver = Solver::new(&p);
    solver.select(OptionId(2)).unwrap();
    assert!(matches!(
        solver.select(OptionId(3)),
        Err(Error::Conflict { option: 3, .. })
    ));
    assert_eq!(solver.list(None).unwrap(), [vec![OptionId(2), OptionId(0)]]);
}

#[test]
fn degenerate_problems() {
    // No primary item: the empty set of options is the one solution.
    let none = Problem::builder().build();
    assert_eq!(Solver::new(&none).count().unwrap(), 1);
    assert_eq!(Solver::new(&none).first().unwrap(), Some(vec![]));
    // A primary item no option covers: nothing.
    let mut b = Problem::builder();
    b.primary("a").unwrap();
    let lonely = b.build();
    assert_eq!(Solver::new(&lonely).count().unwrap(), 0);
    assert_eq!(Solver::new(&lonely).stats(), Stats::default());
    // Preselecting everything leaves exactly that solution.
    let p = Problem::parse("a b\na\nb\na b\n").unwrap();
    let mut solver = Solver::new(&p);
    solver.select(OptionId(2)).unwrap();
    assert_eq!(solver.list(None).unwrap(), [vec![OptionId(2)]]);
}

#[test]
fn seeds_change_the_order_but_not_the_set() {
    let p = instances::langford(7).unwrap();
    let plain = Solver::new(&p).list(None).unwrap();
    let a = Solver::with_seed(&p, 1).list(None).unwrap();
    let b = Solver::with_seed(&p, 2).list(None).unwrap();
    assert_ne!(a, b);
    assert_ne!(a, plain);
    let set = |mut v: Vec<Vec<OptionId>>| {
        v.iter_mut().for_each(|s| s.sort());
        v.sort();
        v
    };
    assert_eq!(set(a), set(plain.clone()));
    assert_eq!(set(b), set(plain));
}

/// `ItemChoice::Auto` takes the tree where covers change few lengths, with or without a seed,
/// and keeps the scan where every cover changes most of them.
#[test]
fn the_tree_is_for_wide_sparse_problems() {
    let band = |n: usize, width: usize| {
        let mut b = Problem::builder();
        let items: Vec<_> = (0..n)
            .map(|i| b.primary(&format!("i{i}")).unwrap())
            .collect();
        for i in 0..n {
            let option: Vec<Entry> = (0..width).map(|k| items[(i + k) % n].into()).collect();
            b.option(option).unwrap();
        }
        b.build()
    };
    // An option of a band of 3 changes 6 lengths when hidden, so 4,000 such items take the
    // tree; a band of 100 (9,900 changes an option) keeps the scan, as every problem of fewer
    // than 1,024 primary items does.
    for (problem, tree) in [
        (band(4_000, 3), true),
        (band(4_000, 100), false),
        (band(1_000, 1), false),
    ] {
        for seed in [None, Some(9)] {
            let config = Config {
                seed,
                engine: EngineChoice::Links,
                ..Config::default()
            };
            let solver = Solver::configured(&problem, config).unwrap();
            assert_eq!(solver.uses_item_tree(), tree, "seed {seed:?}");
        }
    }
}

/// The MRV choice on many items: the tree and the scan pick the same item at every node, so a
/// large trivial problem goes straight down (one node per item, linear), and every problem
/// keeps its node counts and its order of solutions.
#[test]
fn many_items_are_chosen_in_linear_total_work() {
    for n in [1_000usize, 30_000] {
        let problem = instances::singletons(n).unwrap();
        let mut solver = links(&problem);
        assert_eq!(solver.uses_item_tree(), n >= ItemChoice::TREE_FROM);
        assert_eq!(solver.count().unwrap(), 1);
        assert_eq!(
            solver.stats(),
            Stats {
                nodes: n as u64,
                updates: n as u64,
                solutions: 1,
                restarts: 0,
            }
        );
        let first = solver.first().unwrap().unwrap();
        assert_eq!(first, (0..n as u32).map(OptionId).collect::<Vec<_>>());
    }
}

/// The items a search branched on, node by node, up to its 200th solution.
#[derive(Default)]
struct Branches {
    seen: Vec<(usize, ItemId)>,
    solutions: usize,
}

impl Observer for Branches {
    fn branch(&mut self, level: usize, item: ItemId) {
        self.seen.push((level, item));
    }

    fn solution(&mut self, _options: &[OptionId]) -> ControlFlow<()> {
        self.solutions += 1;
        if self.solutions < 200 {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    }
}

/// The tournament tree branches on the item the scan (the obviously right pass over every
/// uncovered item) picks, at every node, in the declared order and in seeded ones; wide
/// problems have thousands of items tied at every node, so the seed's tie-break order decides
/// nearly every choice.
#[test]
fn tree_and_scan_choose_alike() {
    let wide = {
        // 3000 primary items, each in three options of three consecutive items: every item
        // ties with most others at every node.
        let mut b = Problem::builder();
        let items: Vec<_> = (0..3000)
            .map(|i| b.primary(&format!("i{i}")).unwrap())
            .collect();
        for i in 0..items.len() {
            let option: Vec<Entry> = (0..3)
                .map(|k| items[(i + k) % items.len()].into())
                .collect();
            b.option(option).unwrap();
            b.option(vec![Entry::from(items[i])]).unwrap();
        }
        b.build()
    };
    let problems = [
        instances::langford(8).unwrap(),
        instances::pentominoes(3, 20).unwrap(),
        instances::sudoku(
            "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
        ),
        Problem::parse(include_str!("../fixtures/xcc.dlx")).unwrap(),
        Problem::parse(include_str!("../fixtures/shared-color.dlx")).unwrap(),
        instances::singletons(2_000).unwrap(),
        wide,
    ];
    for problem in &problems {
        for seed in [None, Some(3), Some(0xC0FFEE)] {
            let [mut scan, mut tree] = [ItemChoice::Scan, ItemChoice::Tree].map(|item_choice| {
                let config = Config {
                    seed,
                    engine: EngineChoice::Links,
                    item_choice,
                };
                Solver::configured(problem, config).unwrap()
            });
            assert!(tree.uses_item_tree() && !scan.uses_item_tree());
            let [by_scan, by_tree] = [&mut scan, &mut tree].map(|solver| {
                let mut branches = Branches::default();
                solver.observe(&mut branches).unwrap();
                branches.seen
            });
            assert!(!by_scan.is_empty(), "seed {seed:?}");
            assert_eq!(by_tree, by_scan, "seed {seed:?}");
            assert_eq!(
                tree.list(Some(50)).unwrap(),
                scan.list(Some(50)).unwrap(),
                "seed {seed:?}"
            );
            assert_eq!(tree.stats(), scan.stats(), "seed {seed:?}");
        }
    }
}

/// A seed gives the same order in every version: these are the first solutions and the node
/// counts of the seed's order as the dancing links module defines it (each item's list
/// shuffled, then a tie-break order of the primary items, all drawn from one SplitMix64
/// stream before the search).
#[test]
fn seeded_orders_are_stable() {
    let ids = |v: Vec<Vec<OptionId>>| -> Vec<Vec<u32>> {
        v.iter().map(|s| s.iter().map(|o| o.0).collect()).collect()
    };
    let langford = instances::langford(7).unwrap();
    let pentominoes = instances::pentominoes(3, 20).unwrap();
    let cases: [(&Problem, u64, Vec<Vec<u32>>, u64); 3] = [
        (
            &langford,
            1,
            vec![
                vec![59, 54, 12, 24, 7, 48, 41],
                vec![59, 54, 33, 31, 49, 18, 1],
                vec![59, 54, 42, 32, 40, 17, 1],
            ],
            556,
        ),
        (
            &langford,
            42,
            vec![
                vec![59, 48, 54, 24, 7, 12, 41],
                vec![59, 48, 50, 11, 36, 13, 28],
                vec![59, 55, 23, 43, 18, 11, 36],
            ],
            547,
        ),
        (
            &pentominoes,
            42,
            vec![
                vec![
                    1011, 847, 669, 147, 317, 369, 135, 713, 951, 1076, 919, 1234,
                ],
                vec![
                    1011, 847, 669, 147, 1224, 1120, 1001, 695, 85, 427, 919, 207,
                ],
                vec![
                    1011, 847, 179, 615, 1206, 1137, 983, 713, 103, 444, 258, 937,
                ],
            ],
            31_770,
        ),
    ];
    for (problem, seed, first, nodes) in cases {
        for engine in [EngineChoice::Links, EngineChoice::Bits] {
            let config = Config {
                seed: Some(seed),
                engine,
                ..Config::default()
            };
            let mut solver = Solver::configured(problem, config).unwrap();
            assert_eq!(
                ids(solver.list(Some(3)).unwrap()),
                first,
                "{engine:?} seed {seed}"
            );
            solver.count().unwrap();
            assert_eq!(solver.stats().nodes, nodes, "{engine:?} seed {seed}");
        }
    }
}

/// The tie-break order is the documented draw: with one option per item (lists of one, whose
/// shuffles draw nothing) every item ties at every node, so the seed's solution lists the
/// options in the order a Fisher–Yates shuffle of the items from the seed's stream gives.
#[test]
fn a_seeds_tie_break_order_is_a_shuffle_of_the_items() {
    for (n, seed) in [(10, 1), (100, 42), (3_000, 7)] {
        let problem = instances::singletons(n).unwrap();
        let mut order: Vec<u32> = (0..n as u32).collect();
        nqueens_support::SplitMix64::new(seed).shuffle(&mut order);
        let expected: Vec<OptionId> = order.into_iter().map(OptionId).collect();
        for engine in [EngineChoice::Links, EngineChoice::Bits] {
            let config = Config {
                seed: Some(seed),
                engine,
                ..Config::default()
            };
            let Ok(mut solver) = Solver::configured(&problem, config) else {
                continue; // too wide for the bit engine
            };
            assert_eq!(
                solver.first().unwrap(),
                Some(expected.clone()),
                "{engine:?} n = {n}"
            );
        }
    }
}

#[test]
fn engines_are_chosen_by_size() {
    let small = instances::pentominoes(6, 10).unwrap();
    assert_eq!(Solver::new(&small).engine(), Engine::Bits);
    assert_eq!(links(&small).engine(), Engine::Links);
    let large = instances::singletons(2_000).unwrap();
    assert_eq!(Solver::new(&large).engine(), Engine::Links);
    let config = Config {
        engine: EngineChoice::Bits,
        ..Config::default()
    };
    assert_eq!(
        Solver::configured(&large, config).unwrap_err().to_string(),
        "the bit engine does not take this problem: 2000 primary items (the bit engine takes at most 1024)"
    );
}

/// A node budget, a time budget and a stop flag each end a search, on both engines, and say so;
/// without limits the same search runs to its end.
#[test]
fn limits_end_searches_on_both_engines() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    use nqueens_exact_cover::{Config, EngineChoice, Solver};
    use nqueens_exact_cover::{LimitReached, Limits, Stopped};

    let problem = nqueens_exact_cover::instances::langford(8).unwrap();
    for engine in [EngineChoice::Links, EngineChoice::Bits] {
        let config = Config {
            engine,
            ..Config::default()
        };
        let mut solver = Solver::configured(&problem, config).unwrap();
        let all = solver.count().unwrap();
        let nodes = solver.stats().nodes;
        assert_eq!(all, 300, "{engine:?}");
        assert!(nodes > 100, "{engine:?}: {nodes}");

        solver.set_limits(Limits {
            nodes: Some(100),
            ..Limits::default()
        });
        let partial = solver.count().unwrap_err();
        assert!(partial.found < all, "{engine:?}");
        assert_eq!(partial.reason, LimitReached::Nodes, "{engine:?}");
        assert!(
            solver.stats().nodes <= 100,
            "{engine:?}: {:?}",
            solver.stats()
        );

        let stop = Arc::new(AtomicBool::new(true));
        solver.set_limits(Limits {
            stop: Some(stop),
            ..Limits::default()
        });
        let stopped = solver.count().unwrap_err();
        assert_eq!(
            stopped,
            Stopped::new(LimitReached::Stopped, 0),
            "{engine:?}"
        );

        solver.set_limits(Limits::time(Duration::ZERO));
        let stopped = solver.count().unwrap_err();
        assert_eq!(stopped.reason, LimitReached::Time, "{engine:?}");

        solver.set_limits(Limits::default());
        assert_eq!(solver.count(), Ok(all), "{engine:?}");
    }
}

/// The bit engine lays items out by how many words their lists take (one to five for the
/// 6×10 pentominoes: 32 to 304 options), yet visits them in declaration order: both engines
/// give the same first solutions and the same node counts, with and without a seed.
#[test]
fn items_of_every_width_are_chosen_alike() {
    let problem = instances::pentominoes(6, 10).unwrap();
    for seed in [None, Some(7)] {
        let mut found = Vec::new();
        for engine in [EngineChoice::Links, EngineChoice::Bits] {
            let config = Config {
                seed,
                engine,
                ..Config::default()
            };
            let mut solver = Solver::configured(&problem, config).unwrap();
            let first = solver.list(Some(40)).unwrap();
            found.push((first, solver.stats().nodes));
        }
        assert_eq!(found[0].0.len(), 40);
        assert_eq!(found[0], found[1], "seed {seed:?}");
    }
}

/// A count a limit ended is no count: Langford pairs for n = 11 have 35,584 solutions (each
/// pair of mirror images once: OEIS A014552 gives 17,792 up to reversal), and 1,000 nodes
/// find 79 of them. That is `Err(Stopped)` with the 79, never `Ok(79)`; the first solution
/// under a limit too small is `Err`, never `Ok(None)` (no solution).
#[test]
fn a_count_a_limit_ended_is_no_count() {
    let problem = instances::langford(11).unwrap();
    for engine in [EngineChoice::Links, EngineChoice::Bits] {
        let mut solver = solver(&problem, engine, ItemChoice::default());
        solver.set_limits(nqueens_exact_cover::Limits {
            nodes: Some(1000),
            ..Default::default()
        });
        let stopped = nqueens_exact_cover::Stopped {
            reason: nqueens_exact_cover::LimitReached::Nodes,
            found: 79,
        };
        assert_eq!(solver.count(), Err(stopped), "{engine:?}");
        assert_eq!(
            solver.list(None).map(|l| l.len()),
            Err(stopped),
            "{engine:?}"
        );
        let mut seen = 0u128;
        let end = solver.for_each(|_| {
            seen += 1;
            ControlFlow::Continue(())
        });
        assert_eq!((end, seen), (Err(stopped), 79), "{engine:?}");
        let mut iterated = solver.solutions();
        assert_eq!(iterated.by_ref().filter(Result::is_ok).count(), 79);
        assert_eq!(iterated.next(), None, "one Err, then nothing");
        solver.set_limits(nqueens_exact_cover::Limits {
            nodes: Some(3),
            ..Default::default()
        });
        assert!(solver.first().is_err(), "{engine:?}");
        solver.set_limits(nqueens_exact_cover::Limits::none());
        assert_eq!(solver.count(), Ok(35_584), "{engine:?}");
    }
}
