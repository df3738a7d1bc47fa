//! The solver against a brute-force oracle, pigeonhole formulas, and random 3-SAT at the phase
//! transition with every model checked and every refutation replayed by an independent forward
//! RUP checker (`rup.rs`, which shares no code with the solver).

use crate::support::{
    brute_force_models, check_solve_with, cnf_from, literals_within, pigeonhole, random_formula,
    satisfiable_checked,
};

use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::Arc;

use nqueens_sat::{
    ClauseSink, Cnf, Enumeration, Limits, Lit, Options, Outcome, Solver, Stats, Var,
};
use nqueens_support::SplitMix64;
use proptest::prelude::*;

/// Whether a solver with `options` finds `cnf` satisfiable (no proof, no check): the reference
/// answer for solvers with other options.
fn is_sat_with(cnf: &Cnf, options: Options) -> bool {
    answer_and_stats_with(cnf, options).0
}

/// `is_sat_with`, and the solver's counters after the search.
fn answer_and_stats_with(cnf: &Cnf, options: Options) -> (bool, Stats) {
    let mut solver = Solver::with_options(options);
    cnf.add_to(&mut solver);
    let sat = matches!(solver.solve(), Outcome::Sat(_));
    (sat, *solver.stats())
}

/// Solves `cnf` with a DRAT proof; checks a model against the formula, or the proof with the
/// forward RUP checker. Returns whether it was satisfiable.
fn solve_checked(cnf: &Cnf) -> bool {
    solve_checked_with(cnf, Options::default())
}

fn solve_checked_with(cnf: &Cnf, options: Options) -> bool {
    satisfiable_checked(cnf, options).0
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn agrees_with_brute_force((vars, clauses) in random_formula(12, 0..=60)) {
        let cnf = cnf_from(vars, &clauses);
        let models = brute_force_models(&cnf);
        let sat = solve_checked(&cnf);
        prop_assert_eq!(sat, !models.is_empty());
    }

    // Propagation walks a literal's binary clauses, then its long clauses' watches, assigning
    // through both on the way: formulas mostly of binary clauses (chains of implications,
    // which reach far in one propagation) with long clauses among them, so that a literal
    // implied through a binary clause falsifies watched literals of long ones in the same
    // walk, and watches move while binary implications are queued.
    #[test]
    fn propagation_through_many_binaries_agrees_with_brute_force(
        (vars, clauses) in binary_heavy_formula(),
    ) {
        let cnf = cnf_from(vars, &clauses);
        let models = brute_force_models(&cnf);
        let sat = solve_checked(&cnf);
        prop_assert_eq!(sat, !models.is_empty());
    }

    #[test]
    fn agrees_with_brute_force_when_some_variables_go_first(
        (vars, clauses) in random_formula(12, 0..=60),
        first in 0u32..12,
    ) {
        let cnf = cnf_from(vars, &clauses);
        let models = brute_force_models(&cnf);
        let options = Options { primary_vars: Some(first), ..Options::default() };
        prop_assert_eq!(solve_checked_with(&cnf, options), !models.is_empty());
    }

    // Up to 10 variables, up to 1024 models each: a formula of 12 with few clauses has up to
    // 4096, each a whole solve after its blocking clause, and a run of these cases cost 13 to
    // 42 s of CPU depending on the draw (under 1.5 s on 10).
    #[test]
    fn enumeration_visits_every_model_once((vars, clauses) in random_formula(10, 0..=60)) {
        let cnf = cnf_from(vars, &clauses);
        let expected: HashSet<Vec<bool>> = brute_force_models(&cnf).into_iter().collect();
        let mut solver = Solver::new();
        cnf.add_to(&mut solver);
        let all: Vec<Var> = (0..vars).map(Var::from_index).collect();
        let mut seen = HashSet::new();
        let end = solver.enumerate(&all, |model| {
            assert!(cnf.is_satisfied_by(model));
            assert!(seen.insert(model.values()[..vars as usize].to_vec()), "a model twice");
            ControlFlow::Continue(())
        });
        prop_assert_eq!(end, Enumeration::Complete(expected.len() as u64));
        prop_assert_eq!(seen, expected);
    }

    #[test]
    fn assumptions_agree_with_unit_clauses(
        (vars, clauses) in random_formula(12, 0..=60),
        picks in prop::collection::vec((0u32..12, any::<bool>()), 0..4),
    ) {
        let cnf = cnf_from(vars, &clauses);
        let assumptions = literals_within(vars, &picks);
        let mut solver = Solver::new();
        cnf.add_to(&mut solver);
        check_solve_with(&mut solver, &cnf, &assumptions);
        // The solver is still usable, and the assumptions are gone.
        let free = matches!(solver.solve(), Outcome::Sat(_));
        prop_assert_eq!(free, !brute_force_models(&cnf).is_empty());
    }
}

/// 8 to 14 variables, 10 to 60 binary clauses and 0 to 12 clauses of 3 to 7 literals on
/// distinct variables.
fn binary_heavy_formula() -> impl Strategy<Value = (u32, Vec<Vec<i32>>)> {
    (8u32..=14).prop_flat_map(|vars| {
        let lit =
            move || (1..=vars as i32, any::<bool>()).prop_map(|(v, neg)| if neg { -v } else { v });
        let binary = (lit(), lit()).prop_map(|(a, b)| vec![a, b]);
        let long = (
            prop::sample::subsequence((1..=vars as i32).collect::<Vec<_>>(), 3..=7),
            any::<u8>(),
        )
            .prop_map(|(vs, signs)| {
                vs.iter()
                    .enumerate()
                    .map(|(i, &v)| if signs >> (i % 8) & 1 == 1 { -v } else { v })
                    .collect::<Vec<i32>>()
            });
        (
            Just(vars),
            prop::collection::vec(binary, 10..=60),
            prop::collection::vec(long, 0..=12),
        )
            .prop_map(|(vars, mut binaries, long)| {
                binaries.extend(long);
                (vars, binaries)
            })
    })
}

#[test]
fn pigeonhole_formulas_are_unsat_with_checked_proofs() {
    for holes in 1..=5 {
        assert!(
            !solve_checked(&pigeonhole(holes + 1, holes)),
            "{} into {holes}",
            holes + 1
        );
        assert!(
            solve_checked(&pigeonhole(holes, holes)),
            "{holes} into {holes}"
        );
    }
}

/// Uniform random 3-SAT: `clauses` clauses of three distinct variables with random signs.
fn random_3sat(vars: u32, clauses: u32, seed: u64) -> Cnf {
    let mut rng = SplitMix64::new(seed);
    let mut cnf = Cnf::new();
    cnf.ensure_vars(vars);
    for _ in 0..clauses {
        let mut picked: Vec<u32> = Vec::with_capacity(3);
        while picked.len() < 3 {
            let v = rng.below(vars);
            if !picked.contains(&v) {
                picked.push(v);
            }
        }
        let lits: Vec<Lit> = picked
            .iter()
            .map(|&v| Lit::new(Var::from_index(v), rng.below(2) == 1))
            .collect();
        cnf.add_clause(&lits);
    }
    cnf
}

/// The seeds of the phase-transition test (fixed, so the test is the same on every run).
const SEEDS: std::ops::Range<u64> = 1..41;

/// What a setting that changes only the search's course keeps: `pigeonhole(holes + 1, holes)`
/// refuted, and the first `seeds` random 3-SAT formulas (60 variables, 262 clauses) answered as
/// a solver that never restarts answers them, every model and DRAT proof checked.
fn keeps_answers_and_proofs(options: &Options, holes: u32, seeds: usize) {
    assert!(!solve_checked_with(
        &pigeonhole(holes + 1, holes),
        options.clone()
    ));
    let never_restarting = Options {
        restarts: nqueens_sat::Restarts::Never,
        ..Options::default()
    };
    for seed in SEEDS.take(seeds) {
        let cnf = random_3sat(60, 262, seed);
        let expected = is_sat_with(&cnf, never_restarting.clone());
        assert_eq!(
            solve_checked_with(&cnf, options.clone()),
            expected,
            "seed {seed}"
        );
    }
}

#[test]
fn random_3sat_at_the_phase_transition_is_decided_and_certified() {
    let (mut sat, mut unsat) = (0, 0);
    for seed in SEEDS {
        if solve_checked(&random_3sat(50, 218, seed)) {
            sat += 1;
        } else {
            unsat += 1;
        }
    }
    // Near the threshold both answers occur; this pins that the list exercises both paths.
    assert!(sat >= 5 && unsat >= 5, "{sat} sat, {unsat} unsat");
}

#[test]
fn a_conflict_limit_gives_unknown_and_the_solver_can_go_on() {
    let cnf = pigeonhole(7, 6);
    let mut solver = Solver::new();
    cnf.add_to(&mut solver);
    solver.set_limits(Limits {
        conflicts: Some(10),
        ..Limits::default()
    });
    assert!(matches!(
        solver.solve(),
        Outcome::Unknown(nqueens_sat::LimitReached::Conflicts)
    ));
    solver.set_limits(Limits::default());
    assert_eq!(solver.solve(), Outcome::Unsat);
}

#[test]
fn frequent_reductions_keep_answers_and_proofs_right() {
    // Reductions every few conflicts: deleted clauses must stop propagating, and every
    // deletion must be written to the proof before the clause disappears.
    let options = Options {
        reduce_first: 10,
        reduce_increment: 5,
        ..Options::default()
    };
    keeps_answers_and_proofs(&options, 5, 15);
}

/// A stop raised while models are visited ends the enumeration at the next model, even when
/// each model's search is too short to look at the flag itself.
#[test]
fn enumeration_stops_between_models_when_the_flag_is_raised() {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    // Ten free variables: 1,024 models, each found at once.
    let mut solver = Solver::new();
    let vars: Vec<Var> = (0..10).map(|_| solver.new_var()).collect();
    let stop = Arc::new(AtomicBool::new(false));
    let work = Arc::new(AtomicU64::new(u64::MAX));
    solver.set_limits(nqueens_sat::Limits {
        stop: Some(stop.clone()),
        work: Some(work.clone()),
        ..nqueens_sat::Limits::default()
    });
    let mut seen = 0;
    let end = solver.enumerate(&vars, |_| {
        seen += 1;
        if seen == 3 {
            stop.store(true, Ordering::Relaxed);
        }
        ControlFlow::Continue(())
    });
    assert_eq!(
        end,
        Enumeration::Unknown(nqueens_sat::Stopped {
            reason: nqueens_sat::LimitReached::Stopped,
            found: 3
        }),
        "{seen} models seen"
    );
    // The conflicts so far were published for a progress display.
    assert_eq!(work.load(Ordering::Relaxed), solver.stats().conflicts);
}

/// Writes down what a search tells its observer and checks that it hangs together: decisions
/// open the next level, a learnt clause's back-jump is below its conflict's level.
#[derive(Default)]
struct Told {
    decisions: u64,
    conflicts: u64,
    learnt: u64,
    learnt_literals: u64,
    restarts: u64,
    level: u32,
    conflict_level: u32,
    faults: Vec<String>,
}

impl nqueens_sat::Observer for Told {
    fn decide(&mut self, level: u32, _lit: Lit) {
        self.decisions += 1;
        if level != self.level + 1 {
            self.faults.push(format!(
                "decision at level {level} after level {}",
                self.level
            ));
        }
        self.level = level;
    }

    fn conflict(&mut self, level: u32) {
        self.conflicts += 1;
        if level > self.level {
            self.faults
                .push(format!("a conflict at level {level} above {}", self.level));
        }
        self.conflict_level = level;
    }

    fn learn(&mut self, clause: &[Lit], lbd: u32, backjump: u32) {
        self.learnt += 1;
        self.learnt_literals += clause.len() as u64;
        if backjump >= self.conflict_level || clause.is_empty() || lbd as usize > clause.len() {
            self.faults.push(format!(
                "learnt {clause:?} (LBD {lbd}) jumps to {backjump} from {}",
                self.conflict_level
            ));
        }
        self.level = backjump;
    }

    fn restart(&mut self) {
        self.restarts += 1;
        self.level = 0;
    }
}

#[test]
fn an_observer_is_told_every_decision_conflict_learnt_clause_and_restart() {
    let formulas = SEEDS
        .map(|seed| random_3sat(50, 218, seed))
        .chain([pigeonhole(6, 5), pigeonhole(5, 5)]);
    let mut restarted = false;
    for (i, cnf) in formulas.enumerate() {
        // Every other formula restarts often (Luby with a unit of 2 conflicts).
        let options = if i % 2 == 0 {
            Options::default()
        } else {
            Options {
                restarts: nqueens_sat::Restarts::Luby { unit: 2 },
                ..Options::default()
            }
        };
        let mut watched = Solver::with_options(options.clone());
        cnf.add_to(&mut watched);
        let mut told = Told::default();
        let outcome = watched.solve_observed(&[], &mut told);
        assert!(told.faults.is_empty(), "formula {i}: {:?}", told.faults);
        let stats = watched.stats();
        assert_eq!(told.decisions, stats.decisions, "formula {i}");
        assert_eq!(told.conflicts, stats.conflicts, "formula {i}");
        assert_eq!(told.learnt, stats.learnt_clauses, "formula {i}");
        assert_eq!(told.learnt_literals, stats.learnt_literals, "formula {i}");
        assert_eq!(told.restarts, stats.restarts, "formula {i}");
        restarted |= told.restarts > 0;
        // Watching changes nothing of the search.
        let mut unwatched = Solver::with_options(options);
        cnf.add_to(&mut unwatched);
        assert_eq!(unwatched.solve(), outcome, "formula {i}");
        assert_eq!(unwatched.stats(), stats, "formula {i}");
    }
    assert!(restarted, "some search restarts, so restarts are seen");
}

/// The switching policy with its focused restarts and stable restarts both turned off: every
/// restart is then a mode switch, the modes alternate after 100, 200, 400, … conflicts, and
/// the answers and proofs stay right, with doubling modes and with balanced ones.
#[test]
fn modes_switch_on_schedule_and_proofs_still_check() {
    let switching = |margin: f64, stable_unit: u64| Options {
        restarts: nqueens_sat::Restarts::Switching {
            margin,
            min_conflicts: 50,
            focused_decay: 0.8,
            stable_unit,
            first_switch: 100,
        },
        reduce_first: 100,
        reduce_increment: 20,
        ..Options::default()
    };
    let quiet = switching(f64::INFINITY, u64::MAX / 4);
    let mut solver = Solver::with_options(quiet.clone());
    pigeonhole(8, 7).add_to(&mut solver);
    assert_eq!(solver.solve(), Outcome::Unsat);
    let stats = *solver.stats();
    assert_eq!(stats.restarts, stats.mode_switches, "{stats}");
    // The k-th switch comes at 100·(2^k − 1) conflicts or a little later.
    let switches_due = (stats.conflicts / 100 + 1).ilog2();
    assert!(stats.mode_switches >= 3, "{stats}");
    assert!(stats.mode_switches <= u64::from(switches_due), "{stats}");

    // With restarts inside the modes, and proofs checked, on both answers; then the same with
    // balanced modes (a stable mode as long as the focused one before it, in propagations).
    let balanced = Options {
        balanced_modes: true,
        ..switching(1.1, 20)
    };
    let mut inside = 0;
    for (i, options) in [quiet, switching(1.1, 20), balanced]
        .into_iter()
        .enumerate()
    {
        keeps_answers_and_proofs(&options, 6, 10);
        let mut solver = Solver::with_options(options);
        pigeonhole(8, 7).add_to(&mut solver);
        assert_eq!(solver.solve(), Outcome::Unsat);
        if i == 1 {
            inside = solver.stats().restarts - solver.stats().mode_switches;
        }
        assert!(solver.stats().mode_switches >= 3, "{}", solver.stats());
    }
    assert!(inside > 0, "no restart inside a mode");
}

/// Reason-side bumping changes only the decision order: the answers agree with a solver
/// without it, models satisfy the formula and the DRAT proofs check.
#[test]
fn reason_side_bumping_keeps_answers_and_proofs_right() {
    let options = Options {
        bump_reasons: true,
        ..Options::default()
    };
    keeps_answers_and_proofs(&options, 6, 10);
}

/// Target phases and frequent rephasing (every schedule kind), with short
/// modes so the stable mode comes early: the answers agree with a solver without any of them,
/// models satisfy the formula and the DRAT proofs check.
#[test]
fn target_phases_and_rephasing_keep_answers_and_proofs_right() {
    let options = Options {
        restarts: nqueens_sat::Restarts::Switching {
            margin: 1.25,
            min_conflicts: 20,
            focused_decay: 0.8,
            stable_unit: 30,
            first_switch: 40,
        },
        target_phases: true,
        rephase_interval: 15,
        ..Options::default()
    };
    assert!(!solve_checked_with(&pigeonhole(7, 6), options.clone()));
    let mut rephases = 0;
    for seed in SEEDS.take(15) {
        let cnf = random_3sat(60, 262, seed);
        let expected = is_sat_with(
            &cnf,
            Options {
                target_phases: false,
                rephase_interval: 0,
                ..Options::default()
            },
        );
        let (sat, stats) = satisfiable_checked(&cnf, options.clone());
        assert_eq!(sat, expected, "seed {seed}");
        rephases += stats.rephases;
    }
    assert!(rephases >= 15, "only {rephases} rephases");
}

#[test]
fn shrinking_keeps_answers_and_proofs_right_and_removes_literals() {
    // Every learnt clause goes into the proof, so the RUP checker checks each shrunk clause.
    let shrinking = Options::default();
    assert!(shrinking.shrink, "shrinking is on by default");
    let plain = Options {
        shrink: false,
        ..Options::default()
    };
    assert!(!solve_checked_with(&pigeonhole(7, 6), shrinking.clone()));
    let mut shrunk = 0;
    for seed in SEEDS.take(20) {
        let cnf = random_3sat(70, 305, seed);
        let (expected, plain_stats) = answer_and_stats_with(&cnf, plain.clone());
        assert_eq!(plain_stats.shrunk_literals, 0, "seed {seed}");
        let (sat, stats) = satisfiable_checked(&cnf, shrinking.clone());
        assert_eq!(sat, expected, "seed {seed}");
        shrunk += stats.shrunk_literals;
    }
    assert!(shrunk > 0, "no literal was shrunk away");
}

/// A count a limit ended is no count: the 92 models of the 8-queens formula (OEIS A000170),
/// enumerated with one conflict per call, end in `Enumeration::Unknown` with the models found
/// before the limit (fewer than 92), never `Complete` with a short count.
#[test]
fn an_enumeration_a_conflict_limit_ended_is_no_count() {
    let n = 8;
    let queens = |solver: &mut Solver| -> Vec<Var> {
        let q: Vec<Var> = (0..n * n).map(|_| solver.new_var()).collect();
        let at = |r: usize, c: usize| q[r * n + c];
        for r in 0..n {
            let row: Vec<Lit> = (0..n).map(|c| Lit::positive(at(r, c))).collect();
            solver.add_clause(&row);
        }
        for a in 0..n * n {
            for b in a + 1..n * n {
                let (ra, ca, rb, cb) = (a / n, a % n, b / n, b % n);
                if ra == rb || ca == cb || ra.abs_diff(rb) == ca.abs_diff(cb) {
                    solver.add_clause(&[Lit::negative(q[a]), Lit::negative(q[b])]);
                }
            }
        }
        q
    };
    let mut solver = Solver::new();
    let vars = queens(&mut solver);
    solver.set_limits(Limits {
        conflicts: Some(1),
        ..Limits::default()
    });
    let mut seen = 0u128;
    let end = solver.enumerate(&vars, |_| {
        seen += 1;
        ControlFlow::Continue(())
    });
    let Enumeration::Unknown(stopped) = end else {
        panic!("a count under one conflict per call: {end:?}");
    };
    assert_eq!(stopped.reason, nqueens_sat::LimitReached::Conflicts);
    assert_eq!(stopped.found, seen);
    assert!(stopped.found < 92, "{stopped:?}");

    let mut solver = Solver::new();
    let vars = queens(&mut solver);
    let all = solver.enumerate(&vars, |_| ControlFlow::Continue(()));
    assert_eq!(all, Enumeration::Complete(92));
}

#[test]
fn contradictory_units_are_unsat_and_stay_so() {
    let l = |number: i64| Lit::from_dimacs(number).unwrap();
    let mut solver = Solver::new();
    solver.add_clause(&[l(1)]);
    solver.add_clause(&[l(-1), l(2)]);
    solver.add_clause(&[l(-2)]);
    assert_eq!(solver.solve(), Outcome::Unsat);
    solver.add_clause(&[l(3)]);
    assert_eq!(solver.solve(), Outcome::Unsat);
}

#[test]
fn the_empty_formula_has_the_empty_model() {
    let mut solver = Solver::new();
    assert_eq!(solver.solve(), Outcome::Sat(nqueens_sat::Model::default()));
    solver.ensure_vars(2);
    let Outcome::Sat(model) = solver.solve() else {
        panic!()
    };
    assert_eq!(model.len(), 2);
}
