//! The solver's API: counters comparable with Knuth's DLX1, preselection, degenerate problems.

use exact_cover::{Error, OptionId, Problem, Solver, Stats, instances};

/// Node and update counts as Knuth's DLX1 reports them for the same files (the instances
/// written by `examples/instance.rs`; DLX1 built from dlx1.w and run without options).
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
        let mut solver = Solver::new(&problem);
        assert_eq!(solver.count(), solutions);
        assert_eq!(
            solver.stats(),
            Stats {
                nodes,
                updates,
                solutions: solutions as u64
            }
        );
        // Enumerating does the same work as counting.
        assert_eq!(solver.list(None).len() as u128, solutions);
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
    assert_eq!(solver.first(), Some(vec![OptionId(0), OptionId(2)]));
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
    assert_eq!(solver.list(None), [vec![OptionId(2), OptionId(0)]]);
}

#[test]
fn degenerate_problems() {
    // No primary item: the empty set of options is the one solution.
    let none = Problem::builder().build();
    assert_eq!(Solver::new(&none).count(), 1);
    assert_eq!(Solver::new(&none).first(), Some(vec![]));
    // A primary item no option covers: nothing.
    let mut b = Problem::builder();
    b.primary("a").unwrap();
    let lonely = b.build();
    assert_eq!(Solver::new(&lonely).count(), 0);
    assert_eq!(Solver::new(&lonely).stats(), Stats::default());
    // Preselecting everything leaves exactly that solution.
    let p = Problem::parse("a b\na\nb\na b\n").unwrap();
    let mut solver = Solver::new(&p);
    solver.select(OptionId(2)).unwrap();
    assert_eq!(solver.list(None), [vec![OptionId(2)]]);
}

#[test]
fn seeds_change_the_order_but_not_the_set() {
    let p = instances::langford(7).unwrap();
    let plain = Solver::new(&p).list(None);
    let a = Solver::with_seed(&p, 1).list(None);
    let b = Solver::with_seed(&p, 2).list(None);
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
