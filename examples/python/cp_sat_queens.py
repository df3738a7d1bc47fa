"""N-Queens by constraint programming with a solution callback, in OR-Tools CP-SAT's shape.

The CP write-up's program, with only the import changed (``from ortools.sat.python import
cp_model`` becomes ``from nqueens import cp as cp_model``): one variable per row holding its
queen's column, three all-different constraints, and a callback that sees every solution.

    python cp_sat_queens.py [N] [SHOW]
"""

import sys

from nqueens import cp as cp_model


class SolutionPrinter(cp_model.CpSolverSolutionCallback):
    """Counts the solutions and prints the first few as boards."""

    def __init__(self, queens, show):
        super().__init__()
        self._queens = queens
        self._show = show
        self.count = 0

    def on_solution_callback(self):
        self.count += 1
        if self.count <= self._show:
            n = len(self._queens)
            for q in self._queens:
                column = self.value(q)
                print(" ".join("Q" if c == column else "_" for c in range(n)))
            print()


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    show = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    model = cp_model.CpModel()
    queens = [model.new_int_var(0, n - 1, f"x_{i}") for i in range(n)]
    model.add_all_different(queens)
    model.add_all_different(queens[i] + i for i in range(n))
    model.add_all_different(queens[i] - i for i in range(n))

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    printer = SolutionPrinter(queens, show)
    status = solver.solve(model, printer)
    print(f"status: {solver.status_name(status)}")
    print(f"solutions found: {printer.count}")
    print(f"wall time: {solver.wall_time:.3f} s")


if __name__ == "__main__":
    main()
