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
