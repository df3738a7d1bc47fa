"""N-Queens as SAT with the pairwise encoding, in PySAT's shape.

The SAT write-up's program, ported to ``nqueens.sat``: variable ``n*r + c + 1`` says a queen
stands on row r, column c; each row has at least one queen, and every pair of squares that
attack each other gets a clause forbidding both. The solver finds a solution, enumerates them
all for small n by blocking each model, and explains an impossible request with a core.

    python sat_pairwise.py [N]
"""

import itertools
import sys

from nqueens.sat import Solver


def var(n, r, c):
    return n * r + c + 1


def pairwise(n):
    clauses = [[var(n, r, c) for c in range(n)] for r in range(n)]
    squares = list(itertools.product(range(n), repeat=2))
    for (r1, c1), (r2, c2) in itertools.combinations(squares, 2):
        if r1 == r2 or c1 == c2 or r1 - c1 == r2 - c2 or r1 + c1 == r2 + c2:
            clauses.append([-var(n, r1, c1), -var(n, r2, c2)])
    return clauses


def board(n, model):
    return [c for r in range(n) for c in range(n) if model[var(n, r, c) - 1] > 0]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    clauses = pairwise(n)
    print(f"{n}-queens: {n * n} variables, {len(clauses)} clauses")
    with Solver(bootstrap_with=clauses) as solver:
        assert solver.solve()
        print("a solution (column of each row):", board(n, solver.get_model()))
        # Assumptions: a queen in the corner and one next to it on the second row attack.
        if n >= 2 and not solver.solve(assumptions=[var(n, 0, 0), var(n, 1, 1)]):
            print("corner + its diagonal neighbour: impossible; core =", solver.get_core())
    if n <= 8:
        with Solver(bootstrap_with=clauses) as solver:
            total = sum(1 for _ in solver.enum_models())
        print(f"all solutions: {total}")


if __name__ == "__main__":
    main()
