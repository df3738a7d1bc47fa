"""Side-by-side timings of the Python package against the CLI and the Python packages it
replaces, interleaved (A B A B ...) with medians, as BENCHMARKS.md reports them.

    python crates/nqueens-py/bench/compare.py --cli target/release/nqueens \\
        --pentominoes /tmp/pent-6x10.dlx [--rounds 5] [--slow-rounds 3] [--only NAME ...]

Benchmarks: ``iterate`` (all 14,200 solutions of n = 12 from Python), ``count16`` (``count(16)``
against ``nqueens count 16``, both on 2 threads), ``pentominoes`` (the 6×10 count through
``nqueens.xc`` against ``nqueens xc --count`` and the ``exact-cover`` and ``xcover`` packages
on the same options), ``cp12`` (the CP write-up's enumeration of n = 12 through ``nqueens.cp``
against OR-Tools CP-SAT). Packages that are not installed are reported as missing. In-process
timings exclude the interpreter's start; the CLI's include its process start (about 1 ms).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from typing import Callable, Dict, List, Optional


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    result = run()
    elapsed = time.perf_counter() - start
    timed.last = result  # type: ignore[attr-defined]
    return elapsed


def cli(binary: str, *args: str) -> Callable[[], str]:
    def run() -> str:
        return subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout.strip()

    return run


def report(name: str, times: Dict[str, List[float]], results: Dict[str, object]) -> None:
    print(f"\n{name}")
    base = None
    for label, values in times.items():
        median = statistics.median(values)
        base = base or median
        runs = ", ".join(f"{v:.3f}" for v in values)
        print(f"  {label:28} median {median:8.3f} s  ({median / base:5.2f}× the first)  runs: {runs}  result: {results[label]}")


def interleave(name: str, runners: Dict[str, Callable[[], object]], rounds: int, slow: Dict[str, int]) -> None:
    times: Dict[str, List[float]] = {label: [] for label in runners}
    results: Dict[str, object] = {}
    for i in range(rounds):
        for label, run in runners.items():
            if i >= slow.get(label, rounds):
                continue
            times[label].append(timed(run))
            results[label] = timed.last  # type: ignore[attr-defined]
    report(name, times, results)


def pentomino_options(text: str) -> List[List[str]]:
    lines = [l.split() for l in text.splitlines() if l.strip() and not l.startswith("|")]
    return lines[1:]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--pentominoes")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--slow-rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    want = lambda name: not args.only or name in args.only  # noqa: E731

    import nqueens

    if want("iterate"):
        runners = {"nqueens.solutions(12)": lambda: sum(1 for _ in nqueens.solutions(12))}
        interleave("iterate all solutions of n = 12", runners, args.rounds * 2, {})

    if want("count16"):
        runners = {
            "nqueens count 16 --threads 2": cli(args.cli, "count", "16", "--threads", "2"),
            "nqueens.count(16, threads=2)": lambda: nqueens.count(16, threads=2),
        }
        interleave("count(16)", runners, args.rounds, {})

    if want("pentominoes") and args.pentominoes:
        from nqueens import xc

        text = open(args.pentominoes, encoding="utf-8").read()
        options = pentomino_options(text)
        cover = xc.ExactCover.from_dlx(text)
        runners: Dict[str, Callable[[], object]] = {
            "nqueens xc --count": cli(args.cli, "xc", args.pentominoes, "--count"),
            "nqueens.xc (from_dlx)": cover.count,
        }
        slow = {}
        try:
            import numpy as np
            import exact_cover as ec_pkg

            items = sorted({i for o in options for i in o}, key=lambda i: (len(i) > 1, i))
            column = {item: k for k, item in enumerate(items)}
            matrix = np.zeros((len(options), len(items)), dtype=bool)
            for r, o in enumerate(options):
                for i in o:
                    matrix[r, column[i]] = True
            runners["exact-cover package"] = lambda: ec_pkg.get_solution_count(matrix)
            slow["exact-cover package"] = args.slow_rounds
        except ImportError as e:
            print(f"exact-cover package: missing ({e})")
        try:
            import xcover

            runners["xcover package"] = lambda: sum(1 for _ in xcover.covers(options))
            slow["xcover package"] = args.slow_rounds
        except ImportError as e:
            print(f"xcover package: missing ({e})")
        interleave("pentominoes 6×10: count the 9,356 covers", runners, args.rounds, slow)

    if want("cp12"):
        from nqueens import cp as nq_cp

        modules = {"nqueens.cp": nq_cp}
        try:
            from ortools.sat.python import cp_model as ortools_cp

            modules["ortools CP-SAT"] = ortools_cp
        except ImportError as e:
            print(f"ortools: missing ({e})")

        def enumerate_with(cp_model):  # the CP write-up's program
            def run() -> int:
                n = 12
                model = cp_model.CpModel()
                q = [model.new_int_var(0, n - 1, f"x{i}") for i in range(n)]
                model.add_all_different(q)
                model.add_all_different(q[i] + i for i in range(n))
                model.add_all_different(q[i] - i for i in range(n))

                class Counter(cp_model.CpSolverSolutionCallback):
                    def __init__(self) -> None:
                        super().__init__()
                        self.count = 0

                    def on_solution_callback(self) -> None:
                        self.count += 1

                solver = cp_model.CpSolver()
                solver.parameters.enumerate_all_solutions = True
                counter = Counter()
                solver.solve(model, counter)
                return counter.count

            return run

        runners = {label: enumerate_with(m) for label, m in modules.items()}
        interleave("CP: enumerate the 14,200 solutions of n = 12 with a callback", runners, args.rounds, {"ortools CP-SAT": args.slow_rounds})


if __name__ == "__main__":
    main()
