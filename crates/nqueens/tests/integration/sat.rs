//! N-Queens as CNF: the pairwise encoding's clause lists exactly, a snapshot of the n = 4 DIMACS file, and
//! enumeration with both encodings against A000170, every model checked against the formula and
//! every board through `verify`.

use std::collections::HashSet;
use std::ops::ControlFlow;

use nqueens_sat::{ClauseSink, Cnf, Lit, Solver, Var};
use nqueens_solver::engines::sat::{self as cnf, Encoding};
use nqueens_solver::{Engine, Outcome, Problem, Queen, instances::oeis, verify};

/// Clauses as the SAT write-up's tests print them: `((-4 -3) (-2 -1))`.
fn lisp(clauses: &[Vec<Lit>]) -> String {
    let inner: Vec<String> = clauses
        .iter()
        .map(|c| {
            let lits: Vec<String> = c.iter().map(|l| l.to_dimacs().to_string()).collect();
            format!("({})", lits.join(" "))
        })
        .collect();
    format!("({})", inner.join(" "))
}

#[test]
fn the_seeds_clause_lists_for_n_2_and_3() {
    assert_eq!(lisp(&cnf::at_most_one_per_row(2)), "((-4 -3) (-2 -1))");
    assert_eq!(lisp(&cnf::at_most_one_per_column(2)), "((-4 -2) (-3 -1))");
    assert_eq!(
        lisp(&cnf::at_most_one_per_row(3)),
        "((-9 -8) (-9 -7) (-8 -7) (-6 -5) (-6 -4) (-5 -4) (-3 -2) (-3 -1) (-2 -1))"
    );
}

#[test]
fn the_pairwise_lists_for_n_4() {
    assert_eq!(
        lisp(&cnf::at_least_one_per_row(4)),
        "((1 2 3 4) (5 6 7 8) (9 10 11 12) (13 14 15 16))"
    );
    assert_eq!(
        lisp(&cnf::at_most_one_per_row(4)),
        "((-16 -15) (-16 -14) (-16 -13) (-15 -14) (-15 -13) (-14 -13) \
         (-12 -11) (-12 -10) (-12 -9) (-11 -10) (-11 -9) (-10 -9) \
         (-8 -7) (-8 -6) (-8 -5) (-7 -6) (-7 -5) (-6 -5) \
         (-4 -3) (-4 -2) (-4 -1) (-3 -2) (-3 -1) (-2 -1))"
    );
    assert_eq!(
        lisp(&cnf::at_most_one_per_column(4)),
        "((-16 -12) (-16 -8) (-16 -4) (-15 -11) (-15 -7) (-15 -3) \
         (-14 -10) (-14 -6) (-14 -2) (-13 -9) (-13 -5) (-13 -1) \
         (-12 -8) (-12 -4) (-11 -7) (-11 -3) (-10 -6) (-10 -2) (-9 -5) (-9 -1) \
         (-8 -4) (-7 -3) (-6 -2) (-5 -1))"
    );
    // i − j constant: squares 1 6 11 16, 2 7 12, 5 10 15, 3 8, 9 14.
    assert_eq!(
        lisp(&cnf::at_most_one_per_diagonal(4)),
        "((-16 -11) (-16 -6) (-16 -1) (-15 -10) (-15 -5) (-14 -9) \
         (-12 -7) (-12 -2) (-11 -6) (-11 -1) (-10 -5) (-8 -3) (-7 -2) (-6 -1))"
    );
    // i + j constant: squares 4 7 10 13, 3 6 9, 8 11 14, 2 5, 12 15.
    assert_eq!(
        lisp(&cnf::at_most_one_per_anti_diagonal(4)),
        "((-15 -12) (-14 -11) (-14 -8) (-13 -10) (-13 -7) (-13 -4) \
         (-11 -8) (-10 -7) (-10 -4) (-9 -6) (-9 -3) (-7 -4) (-6 -3) (-5 -2))"
    );
}

fn formula(problem: &Problem, encoding: Encoding) -> Cnf {
    let mut cnf = Cnf::new();
    cnf::encode(problem, encoding, &mut cnf);
    cnf
}

#[test]
fn the_n_4_dimacs_file() {
    let cnf = formula(&Problem::new(4).unwrap(), Encoding::Pairwise);
    insta::assert_snapshot!("pairwise_4_dimacs", cnf.to_string());
}

#[test]
fn the_header_counts_what_encode_writes() {
    for encoding in [Encoding::Pairwise, Encoding::Compact] {
        for n in 1..=12 {
            let problem = Problem::new(n).unwrap();
            let cnf = formula(&problem, encoding);
            let header = cnf::header(&problem, encoding);
            assert_eq!(
                (header.vars, header.clauses),
                (cnf.num_vars(), cnf.len() as u64)
            );
        }
    }
    // The pairwise size in closed form: n ALO clauses, then 2·n·C(n,2) for rows and columns and
    // 2·Σ over diagonals of C(k,2) = 2·(n(n−1)(2n−1)/6 − ... ) checked here for n = 8 by hand:
    // 8 + 2·8·28 + 2·(2·(1+3+6+10+15+21) + 28) = 8 + 448 + 2·140 = 736.
    assert_eq!(
        cnf::header(&Problem::new(8).unwrap(), Encoding::Pairwise).clauses,
        736
    );
}

/// Enumerates the models of the formula directly with the `nqueens_sat` crate, checking each model
/// against the formula and each decoded board with `verify`.
fn enumerate(problem: &Problem, encoding: Encoding) -> u64 {
    let n = problem.n();
    let cnf = formula(problem, encoding);
    let mut solver = Solver::new();
    cnf.add_to(&mut solver);
    let queens: Vec<Var> = (0..n * n).map(Var::from_index).collect();
    let mut boards = HashSet::new();
    let end = solver.enumerate(&queens, |model| {
        assert!(cnf.is_satisfied_by(model), "a model falsifies the formula");
        let board = cnf::decode(n, model).expect("one queen per row");
        assert_eq!(verify(problem, &board), Ok(()));
        assert!(boards.insert(board.into_columns()), "a board twice");
        ControlFlow::Continue(())
    });
    match end {
        nqueens_sat::Enumeration::Complete(count) => count,
        other => panic!("{other:?}"),
    }
}

#[test]
fn enumeration_gives_a000170_with_both_encodings() {
    for encoding in [Encoding::Pairwise, Encoding::Compact] {
        for n in 1..=9 {
            let expected = oeis::total(n).unwrap();
            let count = enumerate(&Problem::new(n).unwrap(), encoding);
            assert_eq!(u128::from(count), expected, "n = {n}, {encoding}");
        }
    }
}

#[test]
fn fixed_queens_are_unit_clauses() {
    let fixed = vec![Queen { row: 0, col: 1 }];
    let problem = Problem::with_fixed(8, fixed).unwrap();
    let cnf = formula(&problem, Encoding::Pairwise);
    assert_eq!(cnf.clause(cnf.len() - 1), &[Lit::from_dimacs(2).unwrap()]);
    // 8-queens solutions with the first row's queen in column 2 (1-based): 8 of the 92.
    for encoding in [Encoding::Pairwise, Encoding::Compact] {
        assert_eq!(enumerate(&problem, encoding), 8);
    }
    // A queen no solution extends: n = 4 allows only columns 2 and 3 in the first row.
    let dead = Problem::with_fixed(4, vec![Queen { row: 0, col: 0 }]).unwrap();
    assert_eq!(enumerate(&dead, Encoding::Compact), 0);
}

#[test]
fn the_engine_solves_lists_and_counts() {
    for encoding in [Encoding::Pairwise, Encoding::Compact] {
        let mut engine = cnf::Sat::new(encoding, 0);
        for n in [1, 5, 8, 30] {
            let problem = Problem::new(n).unwrap();
            let Outcome::Found(solution) = engine.solve(&problem).unwrap() else {
                panic!("n = {n} has solutions")
            };
            assert_eq!(verify(&problem, &solution), Ok(()));
        }
        for n in [2, 3] {
            assert_eq!(
                engine.solve(&Problem::new(n).unwrap()).unwrap(),
                Outcome::NoSolution
            );
        }
        let counts = engine.count(&Problem::new(8).unwrap(), true).unwrap();
        assert_eq!((counts.total, counts.unique), (92, Some(12)));
        assert_eq!(engine.stats().get("solutions"), Some(92));
        let too_big = Problem::new(encoding.max_n() + 1).unwrap();
        assert!(engine.solve(&too_big).is_err());
    }
}

#[test]
fn the_compact_encoding_solves_a_larger_board() {
    let problem = Problem::new(60).unwrap();
    let mut engine = cnf::Sat::new(Encoding::Compact, 0);
    let Outcome::Found(solution) = engine.solve(&problem).unwrap() else {
        panic!()
    };
    assert_eq!(verify(&problem, &solution), Ok(()));
}
