//! Random small problems (at most 8 items and 12 options, some with colors): both engines find
//! exactly the solutions the brute-force enumeration finds, in every mode, and in the same
//! order as each other.

use std::ops::ControlFlow;

use nqueens_exact_cover::{
    Config, EngineChoice, Entry, Enumeration, ItemChoice, ItemId, ItemKind, Observer, OptionId,
    Problem, Solver, naive,
};
use proptest::prelude::*;

/// A random problem: 1–5 primary items, 0–3 secondary ones, up to 12 options, each a random
/// set of items with at least one primary, secondary items uncolored or in one of two colors.
fn problems() -> impl Strategy<Value = Problem> {
    (1usize..=5, 0usize..=3).prop_flat_map(|(primary, secondary)| {
        let items = primary + secondary;
        let option = (0..primary, proptest::collection::vec(0u8..4, items));
        proptest::collection::vec(option, 0..=12).prop_map(move |options| {
            let mut b = Problem::builder();
            let p: Vec<_> = (0..primary)
                .map(|i| b.primary(&format!("p{i}")).unwrap())
                .collect();
            let s: Vec<_> = (0..secondary)
                .map(|i| b.secondary(&format!("s{i}")).unwrap())
                .collect();
            let colors = [b.color("red").unwrap(), b.color("blue").unwrap()];
            for (must, picks) in options {
                let mut entries = Vec::new();
                for (i, &pick) in picks[..primary].iter().enumerate() {
                    if i == must || pick >= 2 {
                        entries.push(Entry::from(p[i]));
                    }
                }
                for (i, &pick) in picks[primary..].iter().enumerate() {
                    match pick {
                        0 => {}
                        1 => entries.push(Entry::from(s[i])),
                        c => entries.push(Entry::from((s[i], colors[usize::from(c) - 2]))),
                    }
                }
                b.option(entries).unwrap();
            }
            b.build()
        })
    })
}

/// Solutions as lists of options.
type Solutions = Vec<Vec<OptionId>>;

/// One step an observer was told of.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Told {
    Branch(usize, ItemId),
    Try(usize, OptionId),
    BackUp(usize),
    Solution(Vec<OptionId>),
}

/// An observer that writes down every step and checks, as it goes, that the steps nest: a
/// branch opens the next level, options are tried at the open level, a back-up closes it, and
/// at a solution the options tried on the open levels are the solution's searched part.
struct Recorder<'a> {
    problem: &'a Problem,
    told: Vec<Told>,
    /// By open level: the item branched on, and the option tried there (if any yet).
    open: Vec<(ItemId, Option<OptionId>)>,
    preselected: Vec<OptionId>,
    faults: Vec<String>,
}

impl Observer for Recorder<'_> {
    fn branch(&mut self, level: usize, item: ItemId) {
        // A branch comes right after an option tried on the level above (or at the root).
        if level != self.open.len() || self.open.last().is_some_and(|o| o.1.is_none()) {
            self.faults
                .push(format!("branch at level {level} with {:?} open", self.open));
        }
        if self.problem.item(item).kind != ItemKind::Primary {
            self.faults
                .push(format!("branch on secondary item {item:?}"));
        }
        self.open.push((item, None));
        self.told.push(Told::Branch(level, item));
    }

    fn try_option(&mut self, level: usize, option: OptionId) {
        // An option of the item branched on at the open level, the levels below closed.
        let depth = self.open.len();
        match self.open.last_mut() {
            Some(top) if level + 1 == depth => {
                if !self.problem.option(option).iter().any(|e| e.item == top.0) {
                    self.faults
                        .push(format!("option {option:?} lacks item {:?}", top.0));
                }
                top.1 = Some(option);
            }
            _ => self
                .faults
                .push(format!("try at level {level} with {:?} open", self.open)),
        }
        self.told.push(Told::Try(level, option));
    }

    fn back_up(&mut self, level: usize) {
        if level + 1 != self.open.len() {
            self.faults.push(format!(
                "back-up at level {level} with {:?} open",
                self.open
            ));
        }
        self.open.pop();
        self.told.push(Told::BackUp(level));
    }

    fn solution(&mut self, options: &[OptionId]) -> ControlFlow<()> {
        let mut tried: Vec<OptionId> = self.preselected.clone();
        tried.extend(self.open.iter().filter_map(|o| o.1));
        if normalised(vec![tried]) != normalised(vec![options.to_vec()]) {
            self.faults
                .push(format!("solution {options:?} with {:?} open", self.open));
        }
        self.told.push(Told::Solution(options.to_vec()));
        ControlFlow::Continue(())
    }
}

fn normalised(mut solutions: Vec<Vec<OptionId>>) -> Vec<Vec<OptionId>> {
    for s in &mut solutions {
        s.sort();
    }
    solutions.sort();
    solutions
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn solver_agrees_with_brute_force(problem in problems(), seed in any::<u64>()) {
        let expected = naive::solutions(&problem);
        let mut solver = Solver::new(&problem);
        prop_assert_eq!(solver.count().unwrap(), expected.len() as u128);
        prop_assert_eq!(solver.stats().solutions, expected.len() as u64);
        let listed = solver.list(None).unwrap();
        prop_assert_eq!(normalised(listed.clone()), expected.clone());
        let iterated: Vec<_> = solver.solutions().collect::<Result<_, _>>().unwrap();
        prop_assert_eq!(&iterated, &listed);
        prop_assert_eq!(solver.first().unwrap(), listed.first().cloned());
        prop_assert!(solver.sanity().is_ok());

        // Every engine, and dancing links with either item choice, visits the same tree:
        // the same solutions in the same order, the same nodes, for every seed.
        let configs = [
            (EngineChoice::Links, ItemChoice::Scan),
            (EngineChoice::Links, ItemChoice::Tree),
            (EngineChoice::Bits, ItemChoice::Auto),
        ];
        // (solutions in order, nodes, seeded solutions in order, seeded nodes) of the first
        // engine.
        let mut reference: Option<(Solutions, u64, Solutions, u64)> = None;
        for (engine, item_choice) in configs {
            let config = Config { engine, item_choice, seed: None };
            let mut solver = Solver::configured(&problem, config).unwrap();
            prop_assert_eq!(solver.count().unwrap(), expected.len() as u128);
            let nodes = solver.stats().nodes;
            let plain = solver.list(None).unwrap();
            prop_assert_eq!(solver.stats().nodes, nodes);
            let config = Config { seed: Some(seed), ..config };
            let mut solver = Solver::configured(&problem, config).unwrap();
            let seeded = solver.list(None).unwrap();
            let seeded_nodes = solver.stats().nodes;
            prop_assert_eq!(normalised(seeded.clone()), expected.clone());
            // Every search of a seeded solver visits the seed's one tree.
            prop_assert_eq!(solver.list(None).unwrap(), seeded.clone());
            match &reference {
                None => reference = Some((plain, nodes, seeded, seeded_nodes)),
                Some((p, n, s, sn)) => {
                    prop_assert_eq!(&plain, p, "{:?} {:?}", engine, item_choice);
                    prop_assert_eq!(nodes, *n, "{:?} {:?}", engine, item_choice);
                    prop_assert_eq!(&seeded, s, "{:?} {:?}", engine, item_choice);
                    prop_assert_eq!(seeded_nodes, *sn, "{:?} {:?}", engine, item_choice);
                }
            }
        }

        // A seed reorders the solutions, never changes them, and repeats itself.
        let seeded = Solver::with_seed(&problem, seed).list(None).unwrap();
        prop_assert_eq!(normalised(seeded.clone()), expected.clone());
        prop_assert_eq!(Solver::with_seed(&problem, seed).list(None).unwrap(), seeded);

        // Knuth's format round trip (colors declared but never used are not written).
        let text = problem.to_knuth();
        prop_assert_eq!(Problem::parse(&text).unwrap().to_knuth(), text);
    }

    #[test]
    fn stopping_and_resuming(problem in problems(), stop in 0usize..4, links in any::<bool>()) {
        let engine = if links { EngineChoice::Links } else { EngineChoice::Bits };
        let config = Config { engine, ..Config::default() };
        let expected = Solver::configured(&problem, config).unwrap().list(None).unwrap();
        let mut solver = Solver::configured(&problem, config).unwrap();
        // A callback that stops after `stop + 1` solutions.
        let mut seen = Vec::new();
        let end = solver.for_each(|s| {
            seen.push(s.to_vec());
            if seen.len() > stop { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        });
        let complete = expected.len() <= stop;
        prop_assert_eq!(end.unwrap(), if complete { Enumeration::Complete } else { Enumeration::Stopped });
        prop_assert_eq!(&seen[..], &expected[..seen.len()]);
        prop_assert_eq!(solver.list(Some(stop as u64)).unwrap(), expected.iter().take(stop).cloned().collect::<Vec<_>>());
        // An iterator dropped half-way leaves the solver ready for the next search.
        let partial: Vec<_> = solver.solutions().take(stop).collect::<Result<_, _>>().unwrap();
        prop_assert_eq!(&partial[..], &expected[..partial.len()]);
        prop_assert_eq!(solver.count().unwrap(), expected.len() as u128);
    }

    #[test]
    fn preselected_options_are_in_every_solution(
        problem in problems(),
        pick in any::<prop::sample::Index>(),
        links in any::<bool>(),
    ) {
        prop_assume!(problem.option_count() > 0);
        let chosen = OptionId(pick.index(problem.option_count()) as u32);
        let expected: Vec<_> = naive::solutions(&problem)
            .into_iter()
            .filter(|s| s.contains(&chosen))
            .collect();
        let engine = if links { EngineChoice::Links } else { EngineChoice::Bits };
        let config = Config { engine, ..Config::default() };
        let mut solver = Solver::configured(&problem, config).unwrap();
        solver.select(chosen).unwrap();
        let found = solver.list(None).unwrap();
        for s in &found {
            prop_assert_eq!(s[0], chosen);
        }
        prop_assert_eq!(normalised(found), expected.clone());
        prop_assert_eq!(solver.count().unwrap(), expected.len() as u128);
    }

    #[test]
    fn an_observer_sees_every_node_the_same_on_both_engines_and_item_choices(
        problem in problems(),
        seed in any::<Option<u64>>(),
        pick in any::<Option<prop::sample::Index>>(),
    ) {
        let preselected: Vec<OptionId> = pick
            .filter(|_| problem.option_count() > 0)
            .map(|p| OptionId(p.index(problem.option_count()) as u32))
            .into_iter()
            .collect();
        // The scan of dancing links is the obviously right choice of an item; the tree and the
        // bit engine must branch on the same item at every node, with or without a seed.
        let configs = [
            (EngineChoice::Links, ItemChoice::Scan),
            (EngineChoice::Links, ItemChoice::Tree),
            (EngineChoice::Bits, ItemChoice::Auto),
        ];
        let mut reference: Option<Vec<Told>> = None;
        for (engine, item_choice) in configs {
            let config = Config { engine, seed, item_choice };
            let solver = || {
                let mut solver = Solver::configured(&problem, config).unwrap();
                for &option in &preselected {
                    solver.select(option).unwrap();
                }
                solver
            };
            let mut listing = solver();
            let expected = listing.list(None).unwrap();
            let nodes = listing.stats().nodes;
            let mut solver = solver();
            let mut recorder = Recorder {
                problem: &problem,
                told: Vec::new(),
                open: Vec::new(),
                preselected: preselected.clone(),
                faults: Vec::new(),
            };
            prop_assert_eq!(solver.observe(&mut recorder).unwrap(), Enumeration::Complete);
            prop_assert!(recorder.faults.is_empty(), "{:?}: {:?}", engine, recorder.faults);
            // The whole search closes every level it opened.
            prop_assert!(recorder.open.is_empty() || expected.is_empty() && nodes == 0);
            let branches = recorder.told.iter().filter(|t| matches!(t, Told::Branch(..))).count();
            prop_assert_eq!(branches as u64, nodes, "one branch per node");
            prop_assert_eq!(solver.stats().nodes, nodes);
            let seen: Vec<Vec<OptionId>> = recorder
                .told
                .iter()
                .filter_map(|t| match t { Told::Solution(s) => Some(s.clone()), _ => None })
                .collect();
            prop_assert_eq!(&seen, &expected);
            match &reference {
                None => reference = Some(recorder.told),
                Some(told) => prop_assert_eq!(&recorder.told, told, "the engines differ"),
            }
        }
    }
}
