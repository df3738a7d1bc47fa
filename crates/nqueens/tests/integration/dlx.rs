//! The exact cover methods against OEIS, the independent verifier and the backtracking
//! engine.

use std::ops::ControlFlow;

use nqueens_solver::engines::backtrack::Backtrack;
use nqueens_solver::engines::dlx::{Dlx, Encoding, encode};
use nqueens_solver::{Engine, EngineError, Job, Outcome, Problem, Queen, instances::oeis, verify};

use crate::common;

const ENCODINGS: [Encoding; 2] = [Encoding::Secondary, Encoding::Gadgets];

#[test]
fn counts_match_a000170() {
    for encoding in ENCODINGS {
        let mut engine = Dlx::new(encoding, None);
        for n in 1..=12 {
            let problem = Problem::new(n).unwrap();
            let counts = engine.count(&problem, false).unwrap();
            assert_eq!(Some(counts.total), oeis::total(n), "{encoding:?} n={n}");
            assert_eq!(engine.stats().get("solutions"), Some(counts.total));
            // A seed changes the order, not the count.
            if n <= 9 {
                let seeded = Dlx::new(encoding, Some(n.into()))
                    .count(&problem, false)
                    .unwrap();
                assert_eq!(seeded, counts);
            }
        }
    }
}

#[test]
fn every_solution_passes_verify_and_unique_counts_match_a002562() {
    for encoding in ENCODINGS {
        let mut engine = Dlx::new(encoding, None);
        for n in 1..=12 {
            let problem = Problem::new(n).unwrap();
            let mut seen = std::collections::HashSet::new();
            engine
                .for_each(&problem, &mut |s| {
                    assert_eq!(verify(&problem, s), Ok(()));
                    assert!(seen.insert(s.clone()), "a solution came twice");
                    ControlFlow::Continue(())
                })
                .unwrap();
            assert_eq!(Some(seen.len() as u128), oeis::total(n));
            let counts = engine.count(&problem, true).unwrap();
            assert_eq!(counts.unique, oeis::known(n).map(|k| k.unique), "n={n}");
        }
    }
}

#[test]
fn solve_finds_verified_boards_or_proves_none() {
    // The gadget encoding branches on diagonals too, and its first solutions cost thousands of
    // times more nodes from n ≈ 20 on (BENCHMARKS.md), so it is only asked for small boards.
    for (encoding, sizes) in [
        (
            Encoding::Secondary,
            (1..=24).chain([64]).collect::<Vec<u32>>(),
        ),
        (Encoding::Gadgets, (1..=16).collect()),
    ] {
        let mut engine = Dlx::new(encoding, None);
        for n in sizes {
            let problem = Problem::new(n).unwrap();
            match engine.solve(&problem).unwrap() {
                Outcome::Found(s) => assert_eq!(verify(&problem, &s), Ok(())),
                other => assert!(n == 2 || n == 3, "n={n}: {other:?}"),
            }
        }
    }
    // The secondary-item encoding's seeded order reaches big boards quickly.
    let problem = Problem::new(200).unwrap();
    let Outcome::Found(s) = Dlx::new(Encoding::Secondary, Some(7))
        .solve(&problem)
        .unwrap()
    else {
        panic!("n = 200 has solutions");
    };
    assert_eq!(verify(&problem, &s), Ok(()));
}

/// A small deterministic generator, so the test needs no dependency and repeats exactly.
fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

#[test]
fn completions_agree_with_backtracking() {
    let mut state = 2024u64;
    let mut tried = 0;
    while tried < 60 {
        let n = 4 + (next(&mut state) % 7) as u32;
        let k = 1 + next(&mut state) % 3;
        let queens: Vec<Queen> = (0..k)
            .map(|_| {
                let row = (next(&mut state) % u64::from(n)) as u32;
                let col = (next(&mut state) % u64::from(n)) as u32;
                Queen::new(row, col)
            })
            .collect();
        let Ok(problem) = Problem::with_fixed(n, queens) else {
            continue; // the random queens attack each other
        };
        tried += 1;
        let expected = Backtrack::default().count(&problem, false).unwrap().total;
        for encoding in ENCODINGS {
            let mut engine = Dlx::new(encoding, None);
            assert_eq!(
                engine.count(&problem, false).unwrap().total,
                expected,
                "{problem:?}"
            );
            let mut listed = 0u128;
            engine
                .for_each(&problem, &mut |s| {
                    assert_eq!(verify(&problem, s), Ok(()));
                    listed += 1;
                    ControlFlow::Continue(())
                })
                .unwrap();
            assert_eq!(listed, expected);
            // The file written for other solvers has the fixed queens built in.
            let instance = encode(&problem, encoding);
            let flat = instance.without_preselection();
            assert_eq!(
                nqueens_exact_cover::Solver::new(&flat).count(),
                Ok(expected)
            );
            match engine.solve(&problem).unwrap() {
                Outcome::Found(s) => assert_eq!(verify(&problem, &s), Ok(())),
                Outcome::NoSolution => assert_eq!(expected, 0),
            }
        }
    }
}

#[test]
fn limits_and_unsupported_jobs() {
    let mut engine = Dlx::new(Encoding::Secondary, None);
    let big = Problem::new(1001).unwrap();
    assert!(matches!(
        engine.check(Job::Solve, &big),
        Err(EngineError::TooLarge {
            n: 1001,
            max: 1000,
            ..
        })
    ));
    // Unique counts of completions: classes under the symmetries the fixed queens keep.
    common::assert_corner_queen_counts_match_backtracking(&mut engine);
    let mut engine = Dlx::new(Encoding::Gadgets, None);
    let mut listed = Vec::new();
    engine
        .list(&Problem::new(6).unwrap(), Some(3), &mut |s| {
            listed.push(s.clone());
            ControlFlow::Continue(())
        })
        .unwrap();
    assert_eq!(listed.len(), 3);
}

#[test]
fn the_encodings_have_the_expected_shape() {
    let problem = Problem::new(4).unwrap();
    let secondary = encode(&problem, Encoding::Secondary).problem;
    assert_eq!(secondary.primary_count(), 8);
    assert_eq!(secondary.items().len(), 8 + 14);
    assert_eq!(secondary.option_count(), 16);
    // Square (1, 2) (0-based) is option 1·4 + 2: row 2, column 3, anti-diagonal 5, diagonal −1.
    assert_eq!(
        secondary.option_text(nqueens_exact_cover::OptionId(6)),
        "r2 c3 a5 b-1"
    );
    let gadgets = encode(&problem, Encoding::Gadgets).problem;
    assert_eq!(gadgets.primary_count(), 22);
    assert_eq!(gadgets.option_count(), 16 + 14);
    assert_eq!(gadgets.option_text(nqueens_exact_cover::OptionId(16)), "a2");
    // Rows and columns from the middle out.
    let first: Vec<&str> = secondary.items()[..4]
        .iter()
        .map(|i| i.name.as_str())
        .collect();
    assert_eq!(first, ["r3", "c3", "r2", "c2"]);
}

/// The bit engine runs where the board fits it, and both engines count A000170 with the same
/// nodes, list the same boards in the same order (with a seed too), and keep fixed queens.
#[test]
fn both_exact_cover_engines_agree() {
    use nqueens_exact_cover::EngineChoice;
    for encoding in ENCODINGS {
        for n in 1..=11u32 {
            let problem = Problem::new(n).unwrap();
            let mut auto = Dlx::new(encoding, None);
            let mut links = Dlx::new(encoding, None);
            links.engine = EngineChoice::Links;
            let total = auto.count(&problem, false).unwrap().total;
            assert_eq!(Some(total), oeis::total(n), "{encoding:?} n={n}");
            assert_eq!(auto.stats().get("bit_engine"), Some(1), "n={n}");
            assert_eq!(auto.stats().get("updates"), None);
            assert_eq!(links.count(&problem, false).unwrap().total, total);
            assert_eq!(
                auto.stats().get("nodes"),
                links.stats().get("nodes"),
                "n={n}"
            );
            assert!(links.stats().get("updates").is_some());
            assert_eq!(links.stats().get("bit_engine"), None);
        }
        for seed in [None, Some(3)] {
            let problem = Problem::with_fixed(8, [Queen::new(0, 0)]).unwrap();
            let mut lists = Vec::new();
            for engine in [EngineChoice::Links, EngineChoice::Bits] {
                let mut dlx = Dlx::new(encoding, seed);
                dlx.engine = engine;
                let mut boards = Vec::new();
                dlx.for_each(&problem, &mut |s| {
                    assert_eq!(verify(&problem, s), Ok(()));
                    boards.push(s.clone());
                    ControlFlow::Continue(())
                })
                .unwrap();
                lists.push(boards);
            }
            assert_eq!(lists[0].len(), 4, "{encoding:?}");
            assert_eq!(lists[0], lists[1], "{encoding:?} seed {seed:?}");
        }
    }
    // First solutions go to dancing links unless the bit engine is asked for, and it takes
    // boards up to n = 127 (its tables would not fit beyond).
    let mut first = Dlx::new(Encoding::Secondary, None);
    assert!(matches!(
        first.solve(&Problem::new(30).unwrap()),
        Ok(Outcome::Found(_))
    ));
    assert_eq!(first.stats().get("bit_engine"), None);
    for (n, bits) in [(64, Some(1)), (127, Some(1)), (128, None)] {
        let mut engine = Dlx::new(Encoding::Secondary, None);
        engine.engine = EngineChoice::Bits;
        match engine.solve(&Problem::new(n).unwrap()) {
            Ok(Outcome::Found(board)) => {
                assert_eq!(verify(&Problem::new(n).unwrap(), &board), Ok(()))
            }
            other => panic!("n={n}: {other:?}"),
        }
        assert_eq!(engine.stats().get("bit_engine"), bits, "n={n}");
    }
}

/// First solutions of boards with blocked squares: where the one-word-per-row search runs
/// (n ≤ 64 on a processor with AVX2) it visits the bit engine's tree exactly, so it finds the
/// same first solution, or proves there is none, with the same node count; every board found
/// passes the verifier. Checked builds also compare its AVX2 pass with the scalar one at
/// every node.
#[test]
fn blocked_boards_get_the_bit_engines_tree() {
    use nqueens_exact_cover::EngineChoice;
    let mut state = 56u64;
    let (mut tested, mut on_board_engine, mut found) = (0, 0, 0);
    for round in 0..300u64 {
        let n = match round % 10 {
            0 => 64,
            1 => 33 + (next(&mut state) % 31) as u32,
            _ => 1 + (next(&mut state) % 24) as u32,
        };
        let per_mille = next(&mut state) % 700;
        let mut fixed = Vec::new();
        if round % 3 == 1 {
            fixed.push(Queen::new(
                (next(&mut state) % u64::from(n)) as u32,
                (next(&mut state) % u64::from(n)) as u32,
            ));
        }
        // On large boards the queens of a known solution stay fixed but in about 24 rows, and
        // its squares in those rows stay open, so that the search has a small board to fill.
        let planted = if n > 24 {
            nqueens_solver::engines::construct::columns(n)
        } else {
            None
        };
        if let Some(columns) = &planted {
            fixed.clear();
            for (r, &c) in columns.iter().enumerate() {
                if next(&mut state) % u64::from(n) >= 24 {
                    fixed.push(Queen::new(r as u32, c));
                }
            }
        }
        let mut blocked = Vec::new();
        for r in 0..n {
            for c in 0..n {
                let kept = planted.as_ref().is_some_and(|cols| cols[r as usize] == c);
                if !kept
                    && !fixed.contains(&Queen::new(r, c))
                    && next(&mut state) % 1000 < per_mille
                {
                    blocked.push(Queen::new(r, c));
                }
            }
        }
        if blocked.is_empty() {
            continue; // not a blocked board
        }
        tested += 1;
        let problem = Problem::with_blocks(n, fixed, blocked).unwrap();
        let mut auto = Dlx::new(Encoding::Secondary, None);
        let mut bits = Dlx::new(Encoding::Secondary, None);
        bits.engine = EngineChoice::Bits;
        let answer = auto.solve(&problem).unwrap();
        assert_eq!(
            answer,
            bits.solve(&problem).unwrap(),
            "round {round}, n = {n}"
        );
        assert_eq!(
            auto.stats().get("nodes"),
            bits.stats().get("nodes"),
            "round {round}, n = {n}"
        );
        assert_eq!(bits.stats().get("bit_engine"), Some(1));
        if auto.stats().get("board_engine") == Some(1) {
            on_board_engine += 1;
        }
        if let Outcome::Found(board) = &answer {
            assert_eq!(verify(&problem, board), Ok(()), "round {round}");
            found += 1;
        }
    }
    assert!(tested > 250, "{tested} boards with blocked squares");
    assert!(
        found > 50 && found < tested - 50,
        "{found} of {tested} boards have a solution"
    );
    #[cfg(target_arch = "x86_64")]
    let avx2 = std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("popcnt");
    #[cfg(not(target_arch = "x86_64"))]
    let avx2 = false;
    if avx2 {
        assert_eq!(
            on_board_engine, tested,
            "every board fits the one-word-per-row search"
        );
    } else {
        assert_eq!(on_board_engine, 0);
    }
}
