"""nqueens.sat: the PySAT shape, assumptions, cores, enumeration, DIMACS, proofs."""

import pytest

from nqueens import sat


def queens_cnf(n):
    var = lambda r, c: r * n + c + 1  # noqa: E731
    clauses = [[var(r, c) for c in range(n)] for r in range(n)]
    squares = [(r, c) for r in range(n) for c in range(n)]
    for i, (r1, c1) in enumerate(squares):
        for r2, c2 in squares[i + 1 :]:
            if r1 == r2 or c1 == c2 or r1 - c1 == r2 - c2 or r1 + c1 == r2 + c2:
                clauses.append([-var(r1, c1), -var(r2, c2)])
    return clauses


def test_models_and_enumeration():
    with sat.Solver(bootstrap_with=queens_cnf(6)) as solver:
        assert solver.solve()
        model = solver.get_model()
        assert len(model) == 36 and sum(1 for lit in model if lit > 0) == 6
        assert len(list(solver.enum_models())) == 4
        assert solver.nof_vars() == 36


def test_assumptions_and_cores():
    solver = sat.Solver()
    solver.append_formula(queens_cnf(4))
    # Queen on row 1, column 1 (variable 1): 4-queens has no solution with a corner queen.
    assert solver.solve(assumptions=[1]) is False
    core = solver.get_core()
    assert core == [1]
    assert solver.solve(assumptions=[2]) is True
    assert 2 in solver.get_model()
    # Two assumptions of which one alone is impossible: the core names it, not the other.
    solver.add_clause([-5, -6])
    assert solver.solve(assumptions=[2, 5, 6]) is False
    core = solver.get_core()
    assert set(core) <= {2, 5, 6} and len(core) >= 1
    assert solver.solve() is True


def test_unsat_formula_and_proof(tmp_path):
    path = tmp_path / "proof.drat"
    solver = sat.Solver(proof=str(path))
    solver.append_formula(queens_cnf(3))
    assert solver.solve() is False
    assert solver.get_core() == []
    solver.delete()
    assert path.exists() and path.stat().st_size > 0


def test_dimacs_and_errors():
    solver = sat.Solver.from_dimacs("p cnf 2 2\n1 2 0\n-1 0\n")
    assert solver.solve() and solver.get_model() == [-1, 2]
    with pytest.raises(ValueError, match="line"):
        sat.Solver.from_dimacs("p cnf 2 1\n1 x 0\n")
    with pytest.raises(ValueError, match="0 is not a literal"):
        sat.Solver().add_clause([1, 0])
    with pytest.raises(TypeError):
        sat.Solver().add_clause(["1"])


def test_budget():
    solver = sat.Solver(bootstrap_with=queens_cnf(8))
    solver.conf_budget(1_000_000)
    assert solver.solve_limited() is True


def test_budget_out_is_none_not_unsat():
    # Pigeonhole 7 into 6: unsatisfiable, but not within 10 conflicts (its proof takes about
    # a thousand; 8 into 7, some 4,600 conflicts and 2-5 s of CPU, showed nothing more).
    holes, pigeons = 6, 7
    var = lambda p, h: p * holes + h + 1  # noqa: E731
    clauses = [[var(p, h) for h in range(holes)] for p in range(pigeons)]
    for h in range(holes):
        for p in range(pigeons):
            for q in range(p + 1, pigeons):
                clauses.append([-var(p, h), -var(q, h)])
    solver = sat.Solver(bootstrap_with=clauses)
    solver.conf_budget(10)
    assert solver.solve_limited() is None
    assert solver.get_status() is None and solver.get_core() is None
    assert solver.solve() is False


def test_a_formula_too_big_for_memory_raises_rather_than_answers_unsat():
    # Variable 2^31 - 1 asks for 2^31 variables: far more memory than any machine gives.
    solver = sat.Solver()
    solver.add_clause([2**31 - 1])
    with pytest.raises(MemoryError, match="does not fit in memory"):
        solver.solve()
    assert solver.get_status() is None
    with pytest.raises(MemoryError):
        solver.solve_limited()


def test_under_a_memory_cap_too(tmp_path):
    # 2^26 variables (about 10 GB) under a 1 GiB address-space cap, in a child process.
    import subprocess
    import sys

    script = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
        "from nqueens import sat\n"
        "s = sat.Solver()\n"
        "s.add_clause([2**26])\n"
        "try:\n"
        "    print(s.solve())\n"
        "except MemoryError as e:\n"
        "    print('MemoryError', e)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("MemoryError the formula does not fit in memory"), done.stdout


def test_incremental_queries_against_brute_force():
    # A sequence of related queries: clauses added between solves, different assumptions each
    # time, each answer held to every assignment of the 8 variables.
    import itertools
    import random

    rng = random.Random(7)
    n = 8
    solver = sat.Solver()
    clauses = []

    def models(assumed):
        for bits in itertools.product((False, True), repeat=n):
            value = lambda lit: bits[abs(lit) - 1] == (lit > 0)  # noqa: E731
            if all(value(a) for a in assumed) and all(any(value(l) for l in c) for c in clauses):
                yield bits

    for step in range(60):
        if step % 3 == 0:
            clause = [rng.choice((1, -1)) * rng.randint(1, n) for _ in range(3)]
            clauses.append(clause)
            solver.add_clause(clause)
        assumed = [rng.choice((1, -1)) * v for v in rng.sample(range(1, n + 1), rng.randint(0, 3))]
        expected = next(models(assumed), None) is not None
        assert solver.solve(assumptions=assumed) is expected, (step, clauses, assumed)
        if expected:
            model = set(solver.get_model())
            assert all(a in model for a in assumed)
            assert all(any(l in model for l in c) for c in clauses)
        else:
            core = solver.get_core()
            assert set(core) <= set(assumed)
            assert next(models(core), None) is None, (core, clauses)


def test_documented_incremental_example():
    s = sat.Solver(bootstrap_with=[[1, 2, 3], [-1, -2], [-2, -3], [-1, -3]])
    forced = [lit for lit in (1, -1, 2, -2, 3, -3) if not s.solve(assumptions=[-lit])]
    assert forced == []
    s.add_clause([-3])
    assert s.solve(assumptions=[-1, -2]) is False
    assert set(s.get_core()) <= {-1, -2} and s.get_core()
