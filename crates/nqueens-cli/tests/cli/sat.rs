//! `nqueens cnf`, `nqueens sat` and `--method sat`: DIMACS out and in, SAT-competition output
//! and exit codes, DRAT proofs replayed by the forward RUP checker of the `sat` tests, and
//! one-line errors for malformed files.

#[path = "../../../sat/tests/integration/rup.rs"]
mod rup;

use crate::util::{interrupted, pigeonhole, run, run_with, write_temp};
use nqueens_solver::{Problem, Solution, instances::oeis, verify};

/// The clauses and variable count of a DIMACS text (test-side parsing, comments skipped).
fn parse(text: &str) -> (u32, Vec<Vec<i32>>) {
    let mut vars = 0;
    let mut clauses = Vec::new();
    let mut clause = Vec::new();
    for line in text.lines() {
        if line.starts_with('c') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("p cnf ") {
            vars = rest.split_whitespace().next().unwrap().parse().unwrap();
            continue;
        }
        for token in line.split_whitespace() {
            match token.parse::<i32>().unwrap() {
                0 => clauses.push(std::mem::take(&mut clause)),
                lit => clause.push(lit),
            }
        }
    }
    (vars, clauses)
}

/// The model of `s SATISFIABLE` output: the true DIMACS literals.
fn model(stdout: &str) -> Vec<i32> {
    let mut lines = stdout.lines();
    assert_eq!(lines.next(), Some("s SATISFIABLE"));
    let lits: Vec<i32> = lines
        .flat_map(|l| l.strip_prefix("v ").expect("a v line").split_whitespace())
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(lits.last(), Some(&0), "the v lines end with 0");
    lits[..lits.len() - 1].to_vec()
}

fn satisfies(model: &[i32], clauses: &[Vec<i32>]) -> bool {
    clauses.iter().all(|c| c.iter().any(|l| model.contains(l)))
}

#[test]
fn cnf_then_sat_gives_a_board() {
    let dir = tempfile::tempdir().unwrap();
    for encoding in ["pairwise", "compact"] {
        let (code, cnf, _) = run(&["cnf", "12", "--encoding", encoding]);
        assert_eq!(code, 0);
        let (_, clauses) = parse(&cnf);
        let file = write_temp(&dir, "q12.cnf", &cnf);
        let (code, stdout, _) = run(&["sat", &file]);
        assert_eq!(code, 10);
        let model = model(&stdout);
        assert!(satisfies(&model, &clauses));
        // Variable i·12 + j + 1 is the queen on row i, column j.
        let columns: Vec<u32> = (0..12)
            .map(|i| {
                let row: Vec<i32> = (0..12)
                    .filter(|&j| model.contains(&(i * 12 + j + 1)))
                    .collect();
                assert_eq!(row.len(), 1, "one queen in row {i}");
                row[0] as u32
            })
            .collect();
        let problem = Problem::new(12).unwrap();
        assert_eq!(verify(&problem, &Solution::from_columns(columns)), Ok(()));
    }
}

#[test]
fn cnf_writes_fixed_queens_as_units_and_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q5.cnf");
    let (code, stdout, _) = run(&["cnf", "5", "--fix", "2:3", "-o", path.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (0, ""));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\np cnf 25 "));
    // Row 2, column 3 (1-based) is variable 1·5 + 2 + 1 = 8.
    assert!(text.ends_with("\n8 0\n"), "{text}");
}

/// `nqueens cnf N [--fix SQUARE] EXTRA...` written to `f.cnf` in `dir`: its variables and
/// clauses, the file, and a path for a proof beside it.
fn board_formula(
    dir: &tempfile::TempDir,
    n: &str,
    fix: Option<&str>,
    extra: &[&str],
) -> (u32, Vec<Vec<i32>>, String, String) {
    let mut args = vec!["cnf", n];
    if let Some(square) = fix {
        args.extend(["--fix", square]);
    }
    args.extend(extra);
    let (_, cnf, _) = run(&args);
    let (vars, clauses) = parse(&cnf);
    let file = write_temp(dir, "f.cnf", &cnf);
    let proof = dir.path().join("f.drat").display().to_string();
    (vars, clauses, file, proof)
}

#[test]
fn unsat_boards_come_with_proofs_the_checker_accepts() {
    let dir = tempfile::tempdir().unwrap();
    for (n, fix) in [
        ("3", None),
        ("2", None),
        ("6", Some("1:1")),
        ("8", Some("1:1")),
    ] {
        let (vars, clauses, file, proof) = board_formula(&dir, n, fix, &[]);
        let (code, stdout, _) = run(&["sat", &file, "--proof", &proof]);
        if n == "8" {
            // 8-queens with a queen in the corner has solutions.
            assert_eq!(code, 10);
            assert!(satisfies(&model(&stdout), &clauses));
            continue;
        }
        assert_eq!(
            (code, stdout.as_str()),
            (20, "s UNSATISFIABLE\n"),
            "n = {n}"
        );
        let drat = std::fs::read_to_string(&proof).unwrap();
        assert_eq!(rup::check(vars, &clauses, &drat), Ok(()), "n = {n} {fix:?}");
    }
}

/// Uniform random 3-SAT with a xorshift64* stream (own copy: the CLI tests stand alone).
fn random_3sat(vars: i32, clauses: usize, seed: u64) -> String {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut below = |n: u64| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) % n
    };
    let mut text = format!("p cnf {vars} {clauses}\n");
    for _ in 0..clauses {
        let mut picked: Vec<i32> = Vec::new();
        while picked.len() < 3 {
            let v = below(vars as u64) as i32 + 1;
            if !picked.contains(&v) {
                picked.push(v);
            }
        }
        for v in picked {
            let lit = if below(2) == 1 { -v } else { v };
            text.push_str(&format!("{lit} "));
        }
        text.push_str("0\n");
    }
    text
}

/// The counter `name` of `--stats` on stderr (` name=value`).
fn stat(stderr: &str, name: &str) -> u64 {
    let at = stderr.find(&format!(" {name}=")).expect(name) + name.len() + 2;
    stderr[at..]
        .split(' ')
        .next()
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// `--simplify` on N-Queens formulas (the compact encoding has equivalences and variables
/// that elimination removes): the same answers as without, the stats say what it did, every
/// model satisfies the formula and every refutation's proof passes the RUP checker.
#[test]
fn simplify_keeps_answers_models_and_proofs_right() {
    let dir = tempfile::tempdir().unwrap();
    for (n, fix) in [
        ("3", None),
        ("6", Some("1:1")),
        ("8", Some("1:1")),
        ("10", None),
    ] {
        let (vars, clauses, file, proof) = board_formula(&dir, n, fix, &["--encoding", "compact"]);
        let (plain, _, _) = run(&["sat", &file, "--no-simplify"]);
        let (code, stdout, stderr) =
            run(&["sat", &file, "--simplify", "--stats", "--proof", &proof]);
        assert_eq!(code, plain, "n = {n} {fix:?}");
        let counter = |name: &str| stat(&stderr, name);
        assert!(counter("simplifications") >= 1, "{stderr}");
        assert!(
            counter("eliminated_vars") + counter("substituted_vars") + counter("failed_literals")
                > 0,
            "n = {n}: nothing simplified: {stderr}"
        );
        if code == 10 {
            assert!(satisfies(&model(&stdout), &clauses), "n = {n} {fix:?}");
        } else {
            assert_eq!(code, 20);
            let drat = std::fs::read_to_string(&proof).unwrap();
            assert_eq!(rup::check(vars, &clauses, &drat), Ok(()), "n = {n} {fix:?}");
        }
    }
}

/// By default the passes wait for 5,000 conflicts: a formula answered sooner is searched as
/// given (no pass's work in the stats, the same search as `--no-simplify`), while
/// `--simplify` runs them before the search (that they run once the delay is passed is the
/// SAT crate's test of `Options::simplify_delay`); `--simplify` and `--no-simplify` exclude
/// each other.
#[test]
fn simplification_waits_for_five_thousand_conflicts_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_temp(&dir, "php-7-6.cnf", &pigeonhole(7, 6));
    let (code, _, default) = run(&["sat", &file, "--stats"]);
    assert_eq!(code, 20, "{default}");
    assert!(stat(&default, "conflicts") < 5_000, "{default}");
    assert_eq!(stat(&default, "simplify_ticks"), 0, "{default}");
    assert_eq!(stat(&default, "simplifications"), 0, "{default}");
    let (code, _, plain) = run(&["sat", &file, "--stats", "--no-simplify"]);
    assert_eq!(code, 20, "{plain}");
    assert_eq!(stat(&default, "conflicts"), stat(&plain, "conflicts"));
    let (code, _, at_once) = run(&["sat", &file, "--stats", "--simplify"]);
    assert_eq!(code, 20, "{at_once}");
    assert!(stat(&at_once, "simplify_ticks") > 0, "{at_once}");
    let (code, _, stderr) = run(&["sat", &file, "--simplify", "--no-simplify"]);
    assert_eq!(code, 2, "{stderr}");
}

/// `--simplify` matches gates: a miter of two copies of one AND circuit (`x = a ∧ b`,
/// `y = x ∧ c`, twice, and the outputs required to differ) is refuted with the copies'
/// gates found congruent, and the refutation's proof passes the RUP checker.
#[test]
fn simplify_finds_congruent_gates_in_a_miter() {
    let dir = tempfile::tempdir().unwrap();
    // a, b, c = 1, 2, 3; the first copy x, y = 4, 5; the second 6, 7.
    let and = |out: i32, left: i32, right: i32| {
        format!("-{out} {left} 0\n-{out} {right} 0\n{out} -{left} -{right} 0\n")
    };
    let text = format!(
        "p cnf 7 14\n{}{}{}{}5 7 0\n-5 -7 0\n",
        and(4, 1, 2),
        and(5, 4, 3),
        and(6, 1, 2),
        and(7, 6, 3)
    );
    let (vars, clauses) = parse(&text);
    let file = write_temp(&dir, "miter.cnf", &text);
    let proof = dir.path().join("miter.drat").display().to_string();
    let (code, _, stderr) = run(&["sat", &file, "--simplify", "--stats", "--proof", &proof]);
    assert_eq!(code, 20, "{stderr}");
    assert!(stat(&stderr, "congruent_gates") >= 1, "{stderr}");
    let drat = std::fs::read_to_string(&proof).unwrap();
    assert_eq!(rup::check(vars, &clauses, &drat), Ok(()));
}

/// On a refutation of some ten thousand conflicts, `--simplify` also eliminates again during
/// the search and vivifies learnt clauses, and still refutes.
#[test]
fn simplify_runs_elimination_rounds_and_vivification_on_a_long_search() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_temp(&dir, "php.cnf", &pigeonhole(8, 7));
    let (code, _, stderr) = run(&["sat", &file, "--simplify", "--stats"]);
    assert_eq!(code, 20, "{stderr}");
    assert!(stat(&stderr, "elimination_rounds") >= 1, "{stderr}");
    assert!(stat(&stderr, "vivify_checks") >= 1, "{stderr}");
}

#[test]
fn random_3sat_through_the_cli_with_models_and_proofs_checked() {
    let dir = tempfile::tempdir().unwrap();
    let (mut sat, mut unsat) = (0, 0);
    for seed in 100..124 {
        let text = random_3sat(50, 218, seed);
        let (vars, clauses) = parse(&text);
        let file = write_temp(&dir, "r.cnf", &text);
        let proof = dir.path().join("r.drat").display().to_string();
        match run(&["sat", &file, "--proof", &proof]) {
            (10, stdout, _) => {
                assert!(satisfies(&model(&stdout), &clauses), "seed {seed}");
                sat += 1;
            }
            (20, _, _) => {
                let drat = std::fs::read_to_string(&proof).unwrap();
                assert_eq!(rup::check(vars, &clauses, &drat), Ok(()), "seed {seed}");
                unsat += 1;
            }
            other => panic!("seed {seed}: {other:?}"),
        }
    }
    assert!(sat > 0 && unsat > 0, "{sat} sat, {unsat} unsat");
}

#[test]
fn method_sat_counts_and_lists_with_both_encodings() {
    for encoding in ["pairwise", "compact"] {
        for n in 1..=8u32 {
            let n_text = n.to_string();
            let (code, stdout, _) = run(&["count", &n_text, "-m", "sat", "--encoding", encoding]);
            assert_eq!(code, 0);
            assert_eq!(
                stdout.trim(),
                oeis::total(n).unwrap().to_string(),
                "n = {n}"
            );
        }
        let (code, stdout, _) = run(&[
            "list",
            "6",
            "-m",
            "sat",
            "--encoding",
            encoding,
            "--format",
            "coords",
        ]);
        assert_eq!((code, stdout.lines().count()), (0, 4));
        let (code, _, _) = run(&["solve", "3", "-m", "sat", "--encoding", encoding]);
        assert_eq!(code, 1);
    }
}

#[test]
fn malformed_dimacs_is_one_line_with_its_line_number_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for (text, expected) in [
        ("p cnf x 1\n1 0\n", "line 1, column 1: bad header"),
        (
            "c hi\np cnf 2 1\n1 3 0\n",
            "line 3, column 3: literal 3 is out of range",
        ),
        ("p cnf 2 1\n1 2\n", "missing its terminating 0"),
        (
            "p cnf 2 1\n1 two 0\n",
            "line 2, column 3: 'two' is not a literal",
        ),
        (
            "1 2 0\n",
            "line 1, column 1: '1' before the 'p cnf VARIABLES CLAUSES' header",
        ),
        ("", "no 'p cnf VARIABLES CLAUSES' header"),
    ] {
        let file = write_temp(&dir, "bad.cnf", text);
        let (code, stdout, stderr) = run(&["sat", &file]);
        assert_eq!((code, stdout.as_str()), (2, ""), "{text:?}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("error: "), "{stderr}");
        assert!(stderr.contains(expected), "{text:?}: {stderr}");
    }
    let (code, _, stderr) = run(&["sat", "/nonexistent/file.cnf"]);
    assert_eq!((code, stderr.lines().count()), (2, 1));
    let (code, _, stderr) = run(&["cnf", "8", "--encoding", "ladder"]);
    assert_eq!((code, stderr.lines().count()), (2, 1));
}

#[test]
fn ctrl_c_says_interrupted_once_and_never_gave_up() {
    // Eleven pigeons, ten holes: unsatisfiable, and seconds of search for any CDCL solver.
    let text = pigeonhole(11, 10);
    let dir = tempfile::tempdir().unwrap();
    let path = write_temp(&dir, "php.cnf", &text);
    let (code, stdout, stderr) =
        interrupted(&["sat", &path], std::time::Duration::from_millis(300));
    assert_eq!(code, 130, "{stderr}");
    assert_eq!(stdout, "s UNKNOWN\n");
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    assert!(stderr.starts_with("interrupted after "), "{stderr:?}");
}

#[test]
fn a_model_gives_every_declared_variable() {
    // As SAT competitions require: variables no clause names are listed too (false).
    let (code, stdout, stderr) = run_with(&["sat", "-"], "p cnf 3 1\n1 0\n");
    assert_eq!(code, 10, "{stderr}");
    assert_eq!(stdout, "s SATISFIABLE\nv 1 -2 -3 0\n");
    // Long models wrap, every line starting `v`, and name each variable once.
    let (code, stdout, _) = run_with(&["sat", "-"], "p cnf 40 2\n-40 0\n7 0\n");
    assert_eq!(code, 10);
    let mut values: Vec<i64> = Vec::new();
    for line in stdout.lines().skip(1) {
        assert!(line.starts_with("v ") && line.len() <= 80, "{line}");
        values.extend(line[2..].split(' ').map(|v| v.parse::<i64>().unwrap()));
    }
    assert_eq!(values.pop(), Some(0));
    assert_eq!(
        values.iter().map(|v| v.abs()).collect::<Vec<_>>(),
        (1..=40).collect::<Vec<_>>()
    );
    assert!(values.contains(&7) && values.contains(&-40) && values.contains(&-1));
}

/// `--factor` on a pigeonhole formula (its at-most-one cliques factor): the stats count the
/// fresh variables, the model of the satisfiable one names only the formula's variables, and
/// the refutation's proof, the fresh variables defined by RAT lemmas, passes the DRAT checker.
#[test]
fn factor_makes_fresh_variables_with_models_and_proofs_checked() {
    let dir = tempfile::tempdir().unwrap();
    for (pigeons, holes) in [(6, 5), (5, 5)] {
        let text = pigeonhole(pigeons, holes);
        let (vars, clauses) = parse(&text);
        let file = write_temp(&dir, "php.cnf", &text);
        let proof = dir.path().join("php.drat").display().to_string();
        let (code, stdout, stderr) = run(&[
            "sat",
            &file,
            "--simplify",
            "--factor",
            "--stats",
            "--proof",
            &proof,
        ]);
        assert!(stat(&stderr, "factored_vars") > 0, "{stderr}");
        if pigeons > holes {
            assert_eq!(code, 20, "{stderr}");
            let drat = std::fs::read_to_string(&proof).unwrap();
            assert_eq!(rup::check_drat(vars, &clauses, &drat), Ok(()));
        } else {
            assert_eq!(code, 10, "{stderr}");
            let model = model(&stdout);
            assert_eq!(model.len(), vars as usize);
            assert!(satisfies(&model, &clauses));
        }
    }
}
