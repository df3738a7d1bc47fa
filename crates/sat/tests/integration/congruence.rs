//! Congruence closure on gates (`Options::congruence`, with substitution): duplicated AND,
//! XOR and if-then-else gates are found equivalent, a miter of two copies of one circuit is
//! refuted before the search, refutations replay in the independent RUP checker (`rup.rs`),
//! models satisfy the original formula, and incremental use naming a merged output agrees
//! with brute force.

use crate::support::{brute_force_models, check_solve_with, cnf_from, solve_checked};

use nqueens_sat::{ClauseSink, Cnf, Lit, Options, Outcome, Solver, Stats};
use nqueens_support::SplitMix64;
use proptest::prelude::*;

fn lit(d: i32) -> Lit {
    Lit::from_dimacs(d.into()).unwrap()
}

/// Substitution and probing, with congruence closure or without.
fn options(congruence: bool) -> Options {
    Options {
        substitute: true,
        probe: true,
        congruence,
        ..Options::default()
    }
}

/// Tseitin clauses of gates, in DIMACS numbering, each output a fresh variable.
#[derive(Default)]
struct Circuit {
    vars: i32,
    clauses: Vec<Vec<i32>>,
}

impl Circuit {
    fn fresh(&mut self) -> i32 {
        self.vars += 1;
        self.vars
    }

    fn and(&mut self, inputs: &[i32]) -> i32 {
        let x = self.fresh();
        let mut long = vec![x];
        for &a in inputs {
            self.clauses.push(vec![-x, a]);
            long.push(-a);
        }
        self.clauses.push(long);
        x
    }

    /// `x = ⊕ inputs`: one clause per assignment of odd parity to `x` and the inputs.
    fn xor(&mut self, inputs: &[i32]) -> i32 {
        let x = self.fresh();
        let lits: Vec<i32> = std::iter::once(x).chain(inputs.iter().copied()).collect();
        for s in 0u32..1 << lits.len() {
            if s.count_ones() % 2 == 1 {
                let clause = lits
                    .iter()
                    .enumerate()
                    .map(|(i, &l)| if s >> i & 1 == 1 { -l } else { l })
                    .collect();
                self.clauses.push(clause);
            }
        }
        x
    }

    fn ite(&mut self, c: i32, t: i32, e: i32) -> i32 {
        let x = self.fresh();
        self.clauses.push(vec![-x, -c, t]);
        self.clauses.push(vec![x, -c, -t]);
        self.clauses.push(vec![-x, c, e]);
        self.clauses.push(vec![x, c, -e]);
        x
    }

    /// A gate of `kind` (0 AND of two, 1 AND of three, 2 XOR of two, 3 XOR of three, 4
    /// if-then-else) on `ins` (as many as it takes).
    fn gate(&mut self, kind: u32, ins: &[i32]) -> i32 {
        match kind {
            0 => self.and(&ins[..2]),
            1 => self.and(&ins[..3]),
            2 => self.xor(&ins[..2]),
            3 => self.xor(&ins[..3]),
            _ => self.ite(ins[0], ins[1], ins[2]),
        }
    }

    fn cnf(&self) -> Cnf {
        cnf_from(self.vars as u32, &self.clauses)
    }
}

/// A random circuit on `inputs` primary inputs: `gates` gates of every kind, each on
/// distinct variables picked from the inputs and the earlier outputs, with random signs.
/// Returns the gates as (kind, inputs), in terms of pool positions and signs, so that it can
/// be built twice.
fn random_gates(rng: &mut SplitMix64, inputs: u32, gates: u32) -> Vec<(u32, Vec<(u32, bool)>)> {
    let mut out = Vec::new();
    for g in 0..gates {
        let pool = inputs + g;
        let kind = rng.below(5);
        let mut ins: Vec<(u32, bool)> = Vec::new();
        while ins.len() < 3 {
            let v = rng.below(pool);
            if !ins.iter().any(|&(w, _)| w == v) {
                ins.push((v, rng.below(2) == 1));
            }
        }
        out.push((kind, ins));
    }
    out
}

/// Builds `gates` on `inputs` (pool positions below them are the inputs, above them the
/// earlier gates of this copy); returns the outputs.
fn build(circuit: &mut Circuit, inputs: &[i32], gates: &[(u32, Vec<(u32, bool)>)]) -> Vec<i32> {
    let mut pool: Vec<i32> = inputs.to_vec();
    let mut outputs = Vec::new();
    for (kind, ins) in gates {
        let lits: Vec<i32> = ins
            .iter()
            .map(|&(v, neg)| {
                if neg {
                    -pool[v as usize]
                } else {
                    pool[v as usize]
                }
            })
            .collect();
        let x = circuit.gate(*kind, &lits);
        pool.push(x);
        outputs.push(x);
    }
    outputs
}

/// Two copies of one random circuit on shared inputs, and a miter: some output pair
/// differs (`d_i = g_i ⊕ g'_i`, `d_1 ∨ … ∨ d_n`). Unsatisfiable.
fn miter(seed: u64, inputs: u32, gates: u32) -> Cnf {
    let mut rng = SplitMix64::new(seed);
    let plan = random_gates(&mut rng, inputs, gates);
    let mut circuit = Circuit::default();
    let ins: Vec<i32> = (0..inputs).map(|_| circuit.fresh()).collect();
    let first = build(&mut circuit, &ins, &plan);
    let second = build(&mut circuit, &ins, &plan);
    let differs: Vec<i32> = first
        .iter()
        .zip(&second)
        .map(|(&a, &b)| circuit.xor(&[a, b]))
        .collect();
    circuit.clauses.push(differs);
    circuit.cnf()
}

/// [`solve_checked`]: whether satisfiable, and the counters.
fn solve(cnf: &Cnf, options: Options) -> (bool, Stats) {
    let (model, stats) = solve_checked(cnf, options);
    (model.is_some(), stats)
}

/// The miter of two copies of a circuit of 40 gates (AND, XOR and if-then-else mixed) on 8
/// inputs is refuted without a conflict: congruence closure finds every output pair
/// equivalent, substitution replaces one of each, and the miter's XOR gates become failed
/// literals. The refutation replays in the RUP checker. Without congruence the search needs
/// conflicts.
#[test]
fn a_miter_of_two_copies_is_refuted_without_search() {
    for seed in 1..=5 {
        let cnf = miter(seed, 8, 40);
        let (sat, stats) = solve(&cnf, options(true));
        assert!(!sat, "seed {seed}");
        assert_eq!(stats.conflicts, 0, "seed {seed}: {stats}");
        assert!(stats.congruent_gates >= 40, "seed {seed}: {stats}");
        let (sat, stats) = solve(&cnf, options(false));
        assert!(!sat, "seed {seed}");
        assert_eq!(stats.congruent_gates, 0);
        assert!(stats.conflicts > 0, "seed {seed}: {stats}");
    }
}

/// One planted duplicate of each kind: `x3 = x1 ∧ x2` and `x4 = x2 ∧ x1`; `x7 = x1 ⊕ x5`
/// and `x8 = ¬x5 ⊕ x1` (so `x8 ≡ ¬x7`); `x9 = x1 ? x5 : x6` and `x10 = ¬x1 ? x6 : x5`.
/// Each pair is found; the model satisfies the original formula; and with the three pairs
/// required to differ the formula is refuted with a proof the checker accepts.
#[test]
fn planted_duplicate_gates_of_each_kind_are_merged() {
    let mut c = Circuit::default();
    let (x1, x2, x5, x6) = (c.fresh(), c.fresh(), 5, 6);
    let x3 = c.and(&[x1, x2]);
    let x4 = c.and(&[x2, x1]);
    assert_eq!((x3, x4), (3, 4));
    c.vars = 6;
    let x7 = c.xor(&[x1, x5]);
    let x8 = c.xor(&[-x5, x1]);
    let x9 = c.ite(x1, x5, x6);
    let x10 = c.ite(-x1, x6, x5);
    c.clauses.push(vec![x3, x7, x9, x5]);
    let (sat, stats) = solve(&c.cnf(), options(true));
    assert!(sat);
    assert_eq!(stats.congruent_gates, 3, "{stats}");
    // x3 ≢ x4, or x7 ≡ x8, or x9 ≢ x10: each is false.
    let differs = [c.xor(&[x3, x4]), c.xor(&[x7, -x8]), c.xor(&[x9, x10])];
    c.clauses.push(differs.to_vec());
    let (sat, stats) = solve(&c.cnf(), options(true));
    assert!(!sat);
    assert_eq!(stats.conflicts, 0, "{stats}");
}

/// After congruence has merged the two copies' outputs (one of each pair substituted), a
/// later solve under assumptions naming a merged output agrees with brute force: the pair
/// assumed equal has models, assumed different has none, and the failed assumptions say so.
#[test]
fn assumptions_on_a_merged_output_stay_right() {
    let mut rng = SplitMix64::new(7);
    let plan = random_gates(&mut rng, 4, 6);
    let mut circuit = Circuit::default();
    let ins: Vec<i32> = (0..4).map(|_| circuit.fresh()).collect();
    let first = build(&mut circuit, &ins, &plan);
    let second = build(&mut circuit, &ins, &plan);
    let cnf = circuit.cnf();
    let mut solver = Solver::with_options(options(true));
    cnf.add_to(&mut solver);
    assert!(matches!(solver.solve(), Outcome::Sat(_)));
    assert!(solver.stats().congruent_gates >= 6, "{}", solver.stats());
    for (&a, &b) in first.iter().zip(&second) {
        check_solve_with(&mut solver, &cnf, &[lit(a), lit(b)]);
        check_solve_with(&mut solver, &cnf, &[lit(-b), lit(a)]);
        assert_eq!(solver.solve_with(&[lit(b), lit(-a)]), Outcome::Unsat);
    }
}

/// A random circuit with shared structure: `gates` random gates on `inputs` inputs, then a
/// copy of some of them (the same kind on the same inputs, each input replaced by its copy
/// where it has one), and a few random clauses over everything.
fn shared_circuit(seed: u64) -> Cnf {
    let mut rng = SplitMix64::new(seed);
    let inputs = 3 + rng.below(2);
    let gates = 2 + rng.below(3);
    let plan = random_gates(&mut rng, inputs, gates);
    let mut circuit = Circuit::default();
    let ins: Vec<i32> = (0..inputs).map(|_| circuit.fresh()).collect();
    let outputs = build(&mut circuit, &ins, &plan);
    // The copies: pool positions map to the copy's outputs where made.
    let mut copy_of: Vec<i32> = ins.iter().chain(&outputs).copied().collect();
    for (g, (kind, gate_ins)) in plan.iter().enumerate() {
        if rng.below(3) == 0 || circuit.vars >= 12 {
            continue;
        }
        let arity = [2, 3, 2, 3, 3][*kind as usize];
        let mut lits: Vec<i32> = gate_ins[..arity]
            .iter()
            .map(|&(v, neg)| {
                let l = copy_of[v as usize];
                if neg { -l } else { l }
            })
            .collect();
        if *kind < 4 {
            // AND and XOR are symmetric: the same inputs in another order.
            lits.rotate_left(1 + rng.below(arity as u32 - 1) as usize);
        }
        copy_of[inputs as usize + g] = circuit.gate(*kind, &lits);
    }
    // Half the time: one copied output required to differ from its original (refuted).
    let copied: Vec<usize> = (0..outputs.len())
        .filter(|&g| copy_of[inputs as usize + g] != outputs[g])
        .collect();
    if !copied.is_empty() && rng.below(2) == 0 {
        let g = copied[rng.below(copied.len() as u32) as usize];
        let d = circuit.xor(&[outputs[g], copy_of[inputs as usize + g]]);
        circuit.clauses.push(vec![d]);
    }
    let vars = circuit.vars;
    for _ in 0..rng.below(4) {
        let len = 1 + rng.below(3);
        let clause = (0..len)
            .map(|_| {
                let v = 1 + rng.below(vars as u32) as i32;
                if rng.below(2) == 0 { -v } else { v }
            })
            .collect();
        circuit.clauses.push(clause);
    }
    circuit.cnf()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Random circuits with shared structure: satisfiability as brute force says, models
    /// of the original formula, refutations that replay; and then assumptions naming any two
    /// variables answered as brute force says.
    #[test]
    fn shared_circuits_agree_with_brute_force(seed in any::<u64>(), picks in prop::collection::vec((1i32..=13, any::<bool>()), 0..3)) {
        let cnf = shared_circuit(seed);
        let expected = !brute_force_models(&cnf).is_empty();
        prop_assert_eq!(solve(&cnf, options(true)).0, expected);
        let mut solver = Solver::with_options(options(true));
        cnf.add_to(&mut solver);
        prop_assert_eq!(matches!(solver.solve(), Outcome::Sat(_)), expected);
        let assumptions: Vec<Lit> = picks
            .iter()
            .filter(|&&(v, _)| v as u32 <= cnf.num_vars())
            .map(|&(v, neg)| lit(if neg { -v } else { v }))
            .collect();
        check_solve_with(&mut solver, &cnf, &assumptions);
    }
}
