//! Random small problems (at most 8 items and 12 options, some with colors): both engines find
//! exactly the solutions the brute-force enumeration finds, in every mode, and in the same
//! order as each other.

use std::ops::ControlFlow;

use exact_cover::{
    Config, EngineChoice, Entry, Enumeration, ItemChoice, OptionId, Problem, Solver, naive,
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
        prop_assert_eq!(solver.count(), expected.len() as u128);
        prop_assert_eq!(solver.stats().solutions, expected.len() as u64);
        let listed = solver.list(None);
        prop_assert_eq!(normalised(listed.clone()), expected.clone());
        let iterated: Vec<_> = solver.solutions().collect();
        prop_assert_eq!(&iterated, &listed);
        prop_assert_eq!(solver.first(), listed.first().cloned());
        prop_assert!(solver.sanity().is_ok());

        // Every engine, and dancing links with either item choice, visits the same tree:
        // the same solutions in the same order, the same nodes, for every seed.
        let configs = [
            (EngineChoice::Links, ItemChoice::Scan),
            (EngineChoice::Links, ItemChoice::Tree),
            (EngineChoice::Bits, ItemChoice::Auto),
        ];
        // (solutions in order, nodes, seeded solutions in order) of the first engine.
        let mut reference: Option<(Solutions, u64, Solutions)> = None;
        for (engine, item_choice) in configs {
            let config = Config { engine, item_choice, seed: None };
            let mut solver = Solver::configured(&problem, config).unwrap();
            prop_assert_eq!(solver.count(), expected.len() as u128);
            let nodes = solver.stats().nodes;
            let plain = solver.list(None);
            prop_assert_eq!(solver.stats().nodes, nodes);
            let config = Config { seed: Some(seed), ..config };
            let seeded = Solver::configured(&problem, config).unwrap().list(None);
            prop_assert_eq!(normalised(seeded.clone()), expected.clone());
            match &reference {
                None => reference = Some((plain, nodes, seeded)),
                Some((p, n, s)) => {
                    prop_assert_eq!(&plain, p, "{:?}", engine);
                    prop_assert_eq!(nodes, *n, "{:?}", engine);
                    prop_assert_eq!(&seeded, s, "{:?}", engine);
                }
            }
        }

        // A seed reorders the solutions, never changes them, and repeats itself.
        let seeded = Solver::with_seed(&problem, seed).list(None);
        prop_assert_eq!(normalised(seeded.clone()), expected.clone());
        prop_assert_eq!(Solver::with_seed(&problem, seed).list(None), seeded);

        // Knuth's format round trip (colors declared but never used are not written).
        let text = problem.to_knuth();
        prop_assert_eq!(Problem::parse(&text).unwrap().to_knuth(), text);
    }

    #[test]
    fn stopping_and_resuming(problem in problems(), stop in 0usize..4, links in any::<bool>()) {
        let engine = if links { EngineChoice::Links } else { EngineChoice::Bits };
        let config = Config { engine, ..Config::default() };
        let expected = Solver::configured(&problem, config).unwrap().list(None);
        let mut solver = Solver::configured(&problem, config).unwrap();
        // A callback that stops after `stop + 1` solutions.
        let mut seen = Vec::new();
        let end = solver.for_each(|s| {
            seen.push(s.to_vec());
            if seen.len() > stop { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        });
        let complete = expected.len() <= stop;
        prop_assert_eq!(end, if complete { Enumeration::Complete } else { Enumeration::Stopped });
        prop_assert_eq!(&seen[..], &expected[..seen.len()]);
        prop_assert_eq!(solver.list(Some(stop as u64)), expected.iter().take(stop).cloned().collect::<Vec<_>>());
        // An iterator dropped half-way leaves the solver ready for the next search.
        let partial: Vec<_> = solver.solutions().take(stop).collect();
        prop_assert_eq!(&partial[..], &expected[..partial.len()]);
        prop_assert_eq!(solver.count(), expected.len() as u128);
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
        let found = solver.list(None);
        for s in &found {
            prop_assert_eq!(s[0], chosen);
        }
        prop_assert_eq!(normalised(found), expected.clone());
        prop_assert_eq!(solver.count(), expected.len() as u128);
    }
}
