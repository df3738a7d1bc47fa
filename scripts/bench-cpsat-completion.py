#!/usr/bin/env python3
"""Completions of partial boards through OR-Tools CP-SAT, the comparison in BENCHMARKS.md.

The model is the CP write-up's: one variable per row (its queen's column), all different over
the columns, over column + row and over column - row, plus the fixed queens; one worker.

    python3 scripts/bench-cpsat-completion.py FILE [--timeout S]

FILE is a board in the --fix-file format (`nqueens gen-completion` writes them). Prints one
line: the file, "found", "none" or "timeout", and the seconds spent in the solver (model
building excluded). Needs `pip install ortools` (not a dependency of the project).
"""
import argparse
import time

from ortools.sat.python import cp_model


def read_board(path):
    n, fixed = None, []
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if not line:
                continue
            if n is None:
                n = int(line)
            else:
                row, col = line.split(":")
                fixed.append((int(row) - 1, int(col) - 1))
    return n, fixed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    n, fixed = read_board(args.file)
    model = cp_model.CpModel()
    q = [model.NewIntVar(0, n - 1, f"q{i}") for i in range(n)]
    model.AddAllDifferent(q)
    model.AddAllDifferent([q[i] + i for i in range(n)])
    model.AddAllDifferent([q[i] - i for i in range(n)])
    for row, col in fixed:
        model.Add(q[row] == col)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = args.timeout
    start = time.perf_counter()
    status = solver.Solve(model)
    seconds = time.perf_counter() - start
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        placed = [solver.Value(v) for v in q]
        assert len(set(placed)) == n
        assert all(placed[r] == c for r, c in fixed)
        end = "found"
    elif status == cp_model.INFEASIBLE:
        end = "none"
    else:
        end = "timeout"
    print(f"{args.file} {end} {seconds:.3f}")


if __name__ == "__main__":
    main()
