//! Problems with known answers: small files in `tests/fixtures/` (each says its number of
//! solutions in a `| solutions: N` comment) and generated classics.

use std::collections::HashSet;

use nqueens_exact_cover::{
    Config, EngineChoice, Entry, ItemKind, OptionId, Problem, Solver, instances, naive,
};

/// Checks a claimed solution against the definition, independently of the solver.
fn assert_is_cover(problem: &Problem, solution: &[OptionId]) {
    let mut uses = vec![Vec::<Option<u32>>::new(); problem.items().len()];
    for &option in solution {
        for &Entry { item, color } in problem.option(option) {
            uses[item.index()].push(color.map(|c| c.0));
        }
    }
    for (item, used) in problem.items().iter().zip(&uses) {
        match item.kind {
            ItemKind::Primary => assert_eq!(used.len(), 1, "primary item {}", item.name),
            ItemKind::Secondary => assert!(
                used.len() <= 1 || used.iter().all(|c| c.is_some() && *c == used[0]),
                "secondary item {}",
                item.name
            ),
        }
    }
}

fn sorted(mut solutions: Vec<Vec<OptionId>>) -> Vec<Vec<OptionId>> {
    for s in &mut solutions {
        s.sort();
    }
    solutions.sort();
    solutions
}

fn check_fixture(name: &str) -> Problem {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let expected: u128 = text
        .lines()
        .find_map(|l| l.strip_prefix("| solutions: "))
        .expect("the fixture states its number of solutions")
        .parse()
        .unwrap();
    let problem = Problem::parse(&text).unwrap();
    // Both engines: the same solutions in the same order, with the same work.
    let mut first: Option<(Vec<Vec<OptionId>>, u64)> = None;
    for engine in [EngineChoice::Links, EngineChoice::Bits] {
        let config = Config {
            engine,
            ..Config::default()
        };
        let mut solver = Solver::configured(&problem, config).unwrap();
        assert_eq!(solver.count().unwrap(), expected, "{name} {engine:?}");
        let nodes = solver.stats().nodes;
        let all = solver.list(None).unwrap();
        assert_eq!(all.len() as u128, expected);
        for s in &all {
            assert_is_cover(&problem, s);
        }
        assert_eq!(sorted(all.clone()), naive::solutions(&problem), "{name}");
        match &first {
            None => first = Some((all, nodes)),
            Some(links) => assert_eq!(&(all, nodes), links, "{name}"),
        }
    }
    // Written back and read again, it is the same problem.
    assert_eq!(Problem::parse(&problem.to_knuth()).unwrap(), problem);
    problem
}

fn texts(problem: &Problem, solution: &[OptionId]) -> Vec<String> {
    let mut lines: Vec<String> = solution.iter().map(|&o| problem.option_text(o)).collect();
    lines.sort();
    lines
}

#[test]
fn knuth_example() {
    let p = check_fixture("knuth.dlx");
    let s = Solver::new(&p).first().unwrap().unwrap();
    assert_eq!(texts(&p, &s), ["A D", "B G", "C E F"]);
}

#[test]
fn knuth_xcc_example() {
    let p = check_fixture("xcc.dlx");
    let s = Solver::new(&p).first().unwrap().unwrap();
    assert_eq!(texts(&p, &s), ["p r x:A y", "q x:A"]);
}

#[test]
fn shared_color_by_hand() {
    let p = check_fixture("shared-color.dlx");
    let all: Vec<Vec<String>> = sorted(Solver::new(&p).list(None).unwrap())
        .iter()
        .map(|s| texts(&p, s))
        .collect();
    assert_eq!(
        all,
        [vec!["a x:1", "b x:1"], vec!["a x:1", "b"], vec!["a x", "b"]]
    );
}

#[test]
fn unsolvable() {
    let p = check_fixture("unsolvable.dlx");
    assert_eq!(Solver::new(&p).first().unwrap(), None);
}

/// The pentomino cells of a solution, as a grid of piece letters.
fn pentomino_grid(p: &Problem, solution: &[OptionId], rows: usize, cols: usize) -> Vec<Vec<char>> {
    let mut grid = vec![vec!['.'; cols]; rows];
    for &o in solution {
        let entries = p.option(o);
        let piece = p.item(entries[0].item).name.chars().next().unwrap();
        for e in &entries[1..] {
            let name = &p.item(e.item).name;
            let (r, c) = name[1..].split_once('c').unwrap();
            let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
            assert_eq!(grid[r][c], '.', "cell {name} covered twice");
            grid[r][c] = piece;
        }
    }
    assert!(grid.iter().flatten().all(|&ch| ch != '.'));
    grid
}

#[test]
fn pentominoes_3x20() {
    let p = instances::pentominoes(3, 20).unwrap();
    let mut solver = Solver::new(&p);
    assert_eq!(solver.count().unwrap(), 8);
    let mut classes = HashSet::new();
    for s in solver.list(None).unwrap() {
        assert_is_cover(&p, &s);
        let grid = pentomino_grid(&p, &s, 3, 20);
        // The four symmetries of the box; the canonical form is the least.
        let flip_rows: Vec<Vec<char>> = grid.iter().rev().cloned().collect();
        let flip_cols: Vec<Vec<char>> = grid
            .iter()
            .map(|r| r.iter().rev().copied().collect())
            .collect();
        let both: Vec<Vec<char>> = flip_cols.iter().rev().cloned().collect();
        classes.insert(
            [grid, flip_rows, flip_cols, both]
                .into_iter()
                .min()
                .unwrap(),
        );
    }
    assert_eq!(classes.len(), 2);
}

#[test]
fn langford_7() {
    let p = instances::langford(7).unwrap();
    let all = Solver::new(&p).list(None).unwrap();
    assert_eq!(all.len(), 52);
    let mut classes = HashSet::new();
    for s in &all {
        assert_is_cover(&p, s);
        let mut slots = [0usize; 14];
        for &o in s {
            let names: Vec<&str> = p
                .option(o)
                .iter()
                .map(|e| p.item(e.item).name.as_str())
                .collect();
            let k: usize = names[0].parse().unwrap();
            let i: usize = names[1][1..].parse().unwrap();
            let j: usize = names[2][1..].parse().unwrap();
            assert_eq!(j - i, k + 1);
            slots[i - 1] = k;
            slots[j - 1] = k;
        }
        let mut reversed = slots;
        reversed.reverse();
        classes.insert(slots.min(reversed));
    }
    assert_eq!(classes.len(), 26);
    assert_eq!(
        Solver::new(&instances::langford(5).unwrap())
            .count()
            .unwrap(),
        0
    );
}

#[test]
fn sudoku_with_a_unique_solution() {
    let puzzle =
        "53..7.... 6..195... .98....6. 8...6...3 4..8.3..1 7...2...6 .6....28. ...419..5 ....8..79";
    let p = instances::sudoku(puzzle);
    let mut solver = Solver::new(&p);
    assert_eq!(solver.count().unwrap(), 1);
    let solution = solver.first().unwrap().unwrap();
    assert_eq!(solution.len(), 81);
    let mut grid = [[0u8; 9]; 9];
    for o in solution {
        let names: Vec<&str> = p
            .option(o)
            .iter()
            .map(|e| p.item(e.item).name.as_str())
            .collect();
        let (r, c) = (names[0].as_bytes()[1] - b'1', names[0].as_bytes()[2] - b'1');
        grid[r as usize][c as usize] = names[1].as_bytes()[2] - b'0';
    }
    let rows: Vec<String> = grid
        .iter()
        .map(|r| r.iter().map(|d| d.to_string()).collect())
        .collect();
    assert_eq!(
        rows,
        [
            "534678912",
            "672195348",
            "198342567",
            "859761423",
            "426853791",
            "713924856",
            "961537284",
            "287419635",
            "345286179"
        ]
    );
    // Two clues that clash leave nothing.
    let broken = puzzle.replacen('.', "5", 1);
    assert_eq!(Solver::new(&instances::sudoku(&broken)).count().unwrap(), 0);
}
