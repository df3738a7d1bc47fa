//! All-different against brute force: random small problems, every strength, every search
//! order; and the exact strength of root propagation.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use nqueens_cp::{
    Observer, Restarts, SearchConfig, Solution, Solver, State, Status, Step, Strength, ValueOrder,
    VariableOrder, View,
};
use proptest::prelude::*;

/// A random problem: variables with small domains (with holes), all-different constraints over
/// views of them, and a few `≠`.
#[derive(Clone, Debug)]
struct Problem {
    /// Per variable: its values.
    domains: Vec<Vec<i32>>,
    /// Each constraint: (variable, offset) per view.
    all_different: Vec<Vec<(usize, i32)>>,
    not_equal: Vec<((usize, i32), (usize, i32))>,
}

fn problem() -> impl Strategy<Value = Problem> {
    (2usize..=6).prop_flat_map(|vars| {
        let domain = prop::collection::btree_set(-2i32..6, 1..=5)
            .prop_map(|set| set.into_iter().collect::<Vec<i32>>());
        let view = (0..vars, -2i32..=2);
        (
            prop::collection::vec(domain, vars),
            prop::collection::vec(prop::collection::vec(view.clone(), 2..=5), 1..=3),
            prop::collection::vec((view.clone(), view), 0..=2),
        )
            .prop_map(|(domains, all_different, not_equal)| Problem {
                domains,
                all_different,
                not_equal,
            })
    })
}

impl Problem {
    /// Every solution, by enumerating the product of the domains.
    fn brute_force(&self) -> BTreeSet<Vec<i32>> {
        let mut solutions = BTreeSet::new();
        let mut values = vec![0; self.domains.len()];
        self.extend(0, &mut values, &mut solutions);
        solutions
    }

    fn extend(&self, var: usize, values: &mut Vec<i32>, out: &mut BTreeSet<Vec<i32>>) {
        if var == values.len() {
            if self.holds(values) {
                out.insert(values.clone());
            }
            return;
        }
        for &value in &self.domains[var] {
            values[var] = value;
            self.extend(var + 1, values, out);
        }
    }

    fn holds(&self, values: &[i32]) -> bool {
        let view = |(var, offset): (usize, i32)| values[var] + offset;
        self.all_different.iter().all(|views| {
            let seen: BTreeSet<i32> = views.iter().map(|&v| view(v)).collect();
            seen.len() == views.len()
        }) && self.not_equal.iter().all(|&(a, b)| view(a) != view(b))
    }

    fn build(&self, strength: Strength) -> (Solver, Vec<nqueens_cp::Var>) {
        let mut solver = Solver::new();
        let vars: Vec<nqueens_cp::Var> = self
            .domains
            .iter()
            .map(|d| {
                let var = solver.new_var(d[0], *d.last().unwrap()).unwrap();
                for value in d[0]..=*d.last().unwrap() {
                    if !d.contains(&value) {
                        solver.remove(var, value).unwrap();
                    }
                }
                var
            })
            .collect();
        let view = |(var, offset): (usize, i32)| vars[var].plus(offset);
        for views in &self.all_different {
            let views: Vec<View> = views.iter().map(|&v| view(v)).collect();
            solver.all_different(&views, strength).unwrap();
        }
        for &(a, b) in &self.not_equal {
            solver.not_equal(view(a), view(b)).unwrap();
        }
        (solver, vars)
    }

    fn solve(&self, strength: Strength, config: &SearchConfig) -> BTreeSet<Vec<i32>> {
        let (mut solver, vars) = self.build(strength);
        let mut solutions = BTreeSet::new();
        let result = solver
            .search(config, |s| {
                let values: Vec<i32> = vars.iter().map(|&v| s.value(v)).collect();
                assert!(solutions.insert(values), "a solution was visited twice");
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!(result.status, Status::Complete);
        assert_eq!(result.solutions as usize, solutions.len());
        solutions
    }
}

/// Writes down every step of a search and checks each against the domains it comes with.
struct Steps {
    vars: Vec<nqueens_cp::Var>,
    steps: Vec<Step>,
    solutions: u64,
    faults: Vec<String>,
}

impl Observer for Steps {
    fn solution(&mut self, _: &Solution<'_>) -> ControlFlow<()> {
        self.solutions += 1;
        ControlFlow::Continue(())
    }

    fn step(&mut self, step: Step, state: &State<'_>) -> ControlFlow<()> {
        let emptied = self.vars.iter().any(|&v| state.size(v) == 0);
        match step {
            Step::Assign { var, value, failed } => {
                // The branch's value stays unless propagation failed.
                if !failed && (state.size(var) != 1 || !state.contains(var, value)) {
                    self.faults
                        .push(format!("{step:?}: the value is not the domain"));
                }
                if emptied && !failed {
                    self.faults
                        .push(format!("{step:?}: an empty domain, not failed"));
                }
            }
            Step::Refute { var, value, failed } if !failed && state.contains(var, value) => {
                self.faults
                    .push(format!("{step:?}: the value is still there"));
            }
            Step::Root { .. } if !self.steps.is_empty() => {
                self.faults.push("a second root".into());
            }
            _ => {}
        }
        self.steps.push(step);
        ControlFlow::Continue(())
    }
}

fn config(variables: VariableOrder, values: ValueOrder, seed: u64) -> SearchConfig {
    SearchConfig {
        variables,
        values,
        random_ties: seed % 2 == 1,
        seed,
        ..SearchConfig::default()
    }
}

/// Bounds consistency of one all-different (no `≠`) by brute force, as a fixpoint with the
/// domains' holes: take the interval hull of each view, keep the smallest and largest value that
/// some assignment of distinct values inside the hulls uses, snap to the domain, repeat.
fn bounds_fixpoint(domains: &[Vec<i32>], views: &[(usize, i32)]) -> Option<Vec<Vec<i32>>> {
    let mut domains = domains.to_vec();
    loop {
        let hulls: Vec<(i32, i32)> = views
            .iter()
            .map(|&(var, offset)| {
                let d = &domains[var];
                Some((*d.first()? + offset, *d.last()? + offset))
            })
            .collect::<Option<_>>()?;
        let mut changed = false;
        for (i, &(var, offset)) in views.iter().enumerate() {
            let supported: Vec<i32> = (hulls[i].0..=hulls[i].1)
                .filter(|&value| has_matching(&hulls, i, value))
                .collect();
            let (&lo, &hi) = (supported.first()?, supported.last()?);
            let before = domains[var].len();
            domains[var].retain(|&v| (lo..=hi).contains(&(v + offset)));
            changed |= domains[var].len() != before;
            if domains[var].is_empty() {
                return None;
            }
        }
        if !changed {
            return Some(domains);
        }
    }
}

/// Whether the intervals admit distinct values with interval `fixed` taking `value`.
fn has_matching(hulls: &[(i32, i32)], fixed: usize, value: i32) -> bool {
    fn place(hulls: &[(i32, i32)], i: usize, used: &mut Vec<i32>, fixed: usize) -> bool {
        if i == hulls.len() {
            return true;
        }
        if i == fixed {
            return place(hulls, i + 1, used, fixed);
        }
        for v in hulls[i].0..=hulls[i].1 {
            if !used.contains(&v) {
                used.push(v);
                if place(hulls, i + 1, used, fixed) {
                    return true;
                }
                used.pop();
            }
        }
        false
    }
    place(hulls, 0, &mut vec![value], fixed)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Every strength, under every variable and value order, finds exactly the brute-force
    /// solutions, each once.
    #[test]
    fn every_strength_finds_the_brute_force_solutions(
        problem in problem(),
        seed in 0u64..4,
    ) {
        let expected = problem.brute_force();
        for strength in [Strength::Pairwise, Strength::Value, Strength::Bounds] {
            for variables in [VariableOrder::Input, VariableOrder::FirstFail] {
                for values in [ValueOrder::Min, ValueOrder::Max, ValueOrder::MiddleOut, ValueOrder::Random] {
                    let found = problem.solve(strength, &config(variables, values, seed));
                    prop_assert_eq!(&found, &expected, "{:?} {:?} {:?}", strength, variables, values);
                }
            }
        }
    }

    /// With restarts, the search finds a solution exactly when there is one.
    #[test]
    fn restarts_find_a_solution_iff_one_exists(problem in problem(), seed in 0u64..100) {
        let expected = problem.brute_force();
        let (mut solver, vars) = problem.build(Strength::Bounds);
        let config = SearchConfig {
            restarts: Some(Restarts { scale: 1 }),
            values: ValueOrder::Random,
            seed,
            ..SearchConfig::default()
        };
        let mut found = None;
        let result = solver.search(&config, |s| {
            found = Some(vars.iter().map(|&v| s.value(v)).collect::<Vec<i32>>());
            ControlFlow::Continue(())
        }).unwrap();
        match found {
            Some(solution) => {
                prop_assert!(expected.contains(&solution));
                prop_assert_eq!(result.status, Status::Stopped);
            }
            None => {
                prop_assert!(expected.is_empty());
                prop_assert_eq!(result.status, Status::Complete);
            }
        }
    }

    /// Root propagation of one all-different prunes exactly to bounds consistency (Bounds) or
    /// exactly what the `≠` pairs prune (Value, Pairwise).
    #[test]
    fn root_propagation_has_the_promised_strength(problem in problem()) {
        let problem = Problem { all_different: problem.all_different[..1].to_vec(), not_equal: vec![], ..problem };
        let views = &problem.all_different[0];
        // The oracle reads repeated views as different intervals; the solver knows better.
        let distinct: BTreeSet<(usize, i32)> = views.iter().copied().collect();
        prop_assume!(distinct.len() == views.len());
        let (mut solver, vars) = problem.build(Strength::Bounds);
        let ok = solver.propagate();
        let expected = bounds_fixpoint(&problem.domains, views).and_then(|domains| {
            // Bounds consistency also holds after value elimination; iterate both by search-free
            // propagation of the oracle: the pairwise solver's root fixpoint, then bounds again.
            let mut current = domains;
            loop {
                let next = Problem { domains: current.clone(), ..problem.clone() };
                let (mut pairwise, pvars) = next.build(Strength::Pairwise);
                if !pairwise.propagate() {
                    return None;
                }
                let eliminated: Vec<Vec<i32>> = pvars.iter().map(|&v| pairwise.values(v)).collect();
                let bounded = bounds_fixpoint(&eliminated, views)?;
                if bounded == current {
                    return Some(current);
                }
                current = bounded;
            }
        });
        match expected {
            None => prop_assert!(!ok, "propagation missed a failure"),
            Some(domains) => {
                prop_assert!(ok, "propagation failed on a consistent problem");
                let got: Vec<Vec<i32>> = vars.iter().map(|&v| solver.values(v)).collect();
                prop_assert_eq!(got, domains);
            }
        }
        // Value elimination equals the pairwise decomposition.
        let (mut value, vvars) = problem.build(Strength::Value);
        let (mut pairwise, pvars) = problem.build(Strength::Pairwise);
        prop_assert_eq!(value.propagate(), pairwise.propagate());
        if !value.is_infeasible() {
            let a: Vec<Vec<i32>> = vvars.iter().map(|&v| value.values(v)).collect();
            let b: Vec<Vec<i32>> = pvars.iter().map(|&v| pairwise.values(v)).collect();
            prop_assert_eq!(a, b);
        }
    }

    /// The step hook sees the root once, then one step per node, each with the domains the
    /// branch left; watching changes nothing of the search.
    #[test]
    fn the_step_hook_reports_every_node_with_its_domains(problem in problem(), seed in 0u64..4) {
        for values in [ValueOrder::Min, ValueOrder::MiddleOut, ValueOrder::Random] {
            let config = config(VariableOrder::FirstFail, values, seed);
            let (mut solver, vars) = problem.build(Strength::Value);
            let mut steps = Steps { vars: vars.clone(), steps: Vec::new(), solutions: 0, faults: Vec::new() };
            let result = solver.search_observed(&config, &mut steps).unwrap();
            prop_assert!(steps.faults.is_empty(), "{:?}", steps.faults);
            let stats = solver.stats();
            let branches = steps.steps.iter().filter(|s| matches!(s, Step::Assign { .. } | Step::Refute { .. })).count();
            prop_assert_eq!(branches as u64, stats.nodes);
            let failed = steps.steps.iter().filter(|s| matches!(s, Step::Assign { failed: true, .. } | Step::Refute { failed: true, .. })).count();
            prop_assert_eq!(failed as u64, stats.failures);
            let root_first = matches!(steps.steps.first(), None | Some(Step::Root { .. }));
            prop_assert!(root_first, "the root comes first");
            // The same search unwatched: the same solutions and nodes.
            let (mut unwatched, _) = problem.build(Strength::Value);
            let plain = unwatched.search(&config, |_| ControlFlow::Continue(())).unwrap();
            prop_assert_eq!(plain.solutions, result.solutions);
            prop_assert_eq!(unwatched.stats().nodes, stats.nodes);
            prop_assert_eq!(steps.solutions, result.solutions);
        }
    }
}
