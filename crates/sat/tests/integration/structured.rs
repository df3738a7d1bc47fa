//! Small structured formulas of the kind the structured development set is made of
//! (docs/notes/sat-structured-set.md): Tseitin-encoded circuits compared by a miter, as in
//! hardware equivalence checking (SATLIB's `beijing` adders) and software verification (the
//! SAT Competition's CBMC formulas such as `assoc_mult_err_3.c`). The public files are not
//! vendored (their licences are unclear), so these are made here: two adder circuits that must
//! agree, and a miter asking for an input on which they differ. Equal circuits give an
//! unsatisfiable formula, whose DRAT proof the independent checker (`rup.rs`) replays; a circuit
//! with one wrong gate gives a satisfiable one, whose model is checked against every clause and
//! must show inputs on which the two sums differ.

use nqueens_sat::{ClauseSink, Cnf, Lit, Options, Var};

/// A circuit under construction: gates become fresh variables with their Tseitin clauses.
struct Circuit {
    cnf: Cnf,
}

impl Circuit {
    fn input(&mut self) -> Lit {
        Lit::positive(self.cnf.new_var())
    }

    fn and(&mut self, a: Lit, b: Lit) -> Lit {
        let g = self.input();
        self.cnf.add_clause(&[!g, a]);
        self.cnf.add_clause(&[!g, b]);
        self.cnf.add_clause(&[g, !a, !b]);
        g
    }

    fn or(&mut self, a: Lit, b: Lit) -> Lit {
        !self.and(!a, !b)
    }

    fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        let g = self.input();
        self.cnf.add_clause(&[!g, a, b]);
        self.cnf.add_clause(&[!g, !a, !b]);
        self.cnf.add_clause(&[g, !a, b]);
        self.cnf.add_clause(&[g, a, !b]);
        g
    }

    /// The majority of three (a full adder's carry), or, with `bug`, their disjunction.
    fn carry(&mut self, a: Lit, b: Lit, c: Lit, bug: bool) -> Lit {
        if bug {
            let ab = self.or(a, b);
            return self.or(ab, c);
        }
        let ab = self.and(a, b);
        let ac = self.and(a, c);
        let bc = self.and(b, c);
        let t = self.or(ab, ac);
        self.or(t, bc)
    }

    /// A ripple-carry adder: the sum of `a` and `b` (least significant bit first), its carry
    /// out last; with `bug`, the carry out of bit `bug_at` is wrong.
    fn ripple_add(&mut self, a: &[Lit], b: &[Lit], bug_at: Option<usize>) -> Vec<Lit> {
        let mut carry = None;
        let mut sum = Vec::with_capacity(a.len() + 1);
        for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
            let half = self.xor(x, y);
            let next = match carry {
                None => {
                    sum.push(half);
                    if bug_at == Some(i) {
                        self.or(x, y)
                    } else {
                        self.and(x, y)
                    }
                }
                Some(c) => {
                    sum.push(self.xor(half, c));
                    self.carry(x, y, c, bug_at == Some(i))
                }
            };
            carry = Some(next);
        }
        sum.extend(carry);
        sum
    }

    /// The clause that some output pair differs.
    fn assert_differ(&mut self, left: &[Lit], right: &[Lit]) {
        let diffs: Vec<Lit> = left
            .iter()
            .zip(right)
            .map(|(&l, &r)| self.xor(l, r))
            .collect();
        self.cnf.add_clause(&diffs);
    }
}

/// The miter of (a + b) + c against a + (b + c) on `bits`-bit inputs (sums one bit wider
/// each time), the second circuit's first adder wrong at bit `bug_at` if given. Returns the
/// formula and the input literals (a, b, c).
fn associativity_miter(bits: usize, bug_at: Option<usize>) -> (Cnf, [Vec<Lit>; 3]) {
    let mut circuit = Circuit { cnf: Cnf::new() };
    let inputs: [Vec<Lit>; 3] =
        std::array::from_fn(|_| (0..bits).map(|_| circuit.input()).collect());
    let [a, b, c] = &inputs;
    let zero = circuit.input();
    circuit.cnf.add_clause(&[!zero]);
    let widen = |v: &[Lit]| -> Vec<Lit> { v.iter().copied().chain([zero]).collect() };
    let ab = circuit.ripple_add(a, b, None);
    let left = circuit.ripple_add(&ab, &widen(c), None);
    let bc = circuit.ripple_add(b, c, bug_at);
    let right = circuit.ripple_add(&widen(a), &bc, None);
    circuit.assert_differ(&left, &right);
    (circuit.cnf, inputs)
}

/// Solves `cnf` with a DRAT proof, once without and once with variable elimination (which
/// must eliminate some of a circuit's gates): a model is checked against every clause and
/// returned, a refutation is replayed by the independent checker; both runs must agree.
fn solve_checked(cnf: &Cnf) -> Option<Vec<bool>> {
    let plain = solve_checked_with(cnf, Options::default());
    let eliminating = Options {
        eliminate: true,
        ..Options::default()
    };
    let (answer, eliminated) = solve_checked_with(cnf, eliminating);
    assert!(eliminated > 0, "no gate eliminated");
    assert_eq!(plain.0.is_some(), answer.is_some());
    answer.or(plain.0)
}

/// [`solve_checked`] with `options`, and how many variables were eliminated.
fn solve_checked_with(cnf: &Cnf, options: Options) -> (Option<Vec<bool>>, u64) {
    let (model, stats) = crate::support::solve_checked(cnf, options);
    let values = model.map(|model| {
        (0..cnf.num_vars())
            .map(|v| model.value(Var::from_index(v)))
            .collect()
    });
    (values, stats.eliminated_vars)
}

/// The number the literals `bits` spell (least significant first) in `model`.
fn number(model: &[bool], bits: &[Lit]) -> u64 {
    bits.iter().enumerate().fold(0, |n, (i, lit)| {
        let value = model[lit.var().index()] == lit.is_positive();
        n | (u64::from(value) << i)
    })
}

#[test]
fn equal_adder_circuits_are_proved_equal() {
    for bits in [2, 3, 4] {
        let (cnf, _) = associativity_miter(bits, None);
        assert!(
            solve_checked(&cnf).is_none(),
            "{bits} bits: (a + b) + c and a + (b + c) differ?"
        );
    }
}

#[test]
fn a_wrong_carry_is_found_with_inputs_that_show_it() {
    for (bits, bug_at) in [(3, 0), (4, 2), (4, 3)] {
        let (cnf, [a, b, c]) = associativity_miter(bits, Some(bug_at));
        let model = solve_checked(&cnf).expect("the wrong circuit differs somewhere");
        let (a, b, c) = (number(&model, &a), number(&model, &b), number(&model, &c));
        // The inputs the model gives must make the two sides differ: the wrong adder's b + c
        // (computed here from its description) is not b + c.
        let wrong_bc = buggy_add(b, c, bits, bug_at);
        assert_ne!(
            a + wrong_bc,
            a + b + c,
            "{bits} bits, bug at {bug_at}: inputs a={a} b={b} c={c} show no difference"
        );
    }
}

/// `x + y` on `bits` bits with the carry out of bit `bug_at` computed as an OR, as the wrong
/// circuit does (a reference written from the description, not from the circuit).
fn buggy_add(x: u64, y: u64, bits: usize, bug_at: usize) -> u64 {
    let mut carry = 0;
    let mut sum = 0;
    for i in 0..bits {
        let (p, q) = ((x >> i) & 1, (y >> i) & 1);
        sum |= (p ^ q ^ carry) << i;
        carry = if i == bug_at {
            p | q | carry
        } else {
            (p & q) | (p & carry) | (q & carry)
        };
    }
    sum | (carry << bits)
}
