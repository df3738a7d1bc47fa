#!/usr/bin/env python3
"""Blocked n-Queens instance sets through nqueens, CaDiCaL and OR-Tools CP-SAT: the benchmark
behind BENCHMARKS.md ("Blocked boards").

    python3 scripts/bench-blocked.py DIR [--nqueens PATH] [--methods auto,dlx,...]
                                         [--timeout S] [--every K] [--cadical] [--cpsat]

DIR holds instance files: the ASP competitions' set of CSPLib problem 80
(Problems/prob080/data/asp-competition-instances.tar.gz in the CSPLib repository, 400 Essence
parameter files, n = 28, 48, 50 and 56; not shipped here, its licence being unstated), or any
files `nqueens --instance` reads. `--every K` takes every K-th file (a sample).

Every answer is checked: a solution by `nqueens verify --fix-file` against the instance, a "no
solution" by a second, complete search (`nqueens count -m dlx`: dancing links in the declared
order on the bit engine, which must count 0). A method that gives a wrong answer makes the
script exit 1. CaDiCaL (Debian `cadical`) gets the pairwise CNF (`nqueens cnf --instance`),
CP-SAT (`pip install ortools`) the three-all-different model with one worker. Prints one line
per method: decided, median and worst seconds, and the total (an undecided run counted at the
time-out), and writes a TSV of every run with --tsv.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def instances(folder, every):
    files = sorted(
        os.path.join(folder, f)
        for f in os.listdir(folder)
        if not f.startswith(".") and os.path.isfile(os.path.join(folder, f))
    )
    return files[::every]


def timed(command, timeout, **kwargs):
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - start
    return done, time.perf_counter() - start


def run_nqueens(nqueens, path, method, timeout):
    """(answer, seconds): answer is 'found', 'none' or 'timeout'; a found solution is verified."""
    command = [nqueens, "solve", "--instance", path, "-m", method, "-f", "permutation",
               "--time-limit", str(timeout)]
    done, seconds = timed(command, timeout + 5)
    if done is None or done.returncode == 3:
        return "timeout", timeout
    if done.returncode == 1:
        return "none", seconds
    if done.returncode != 0:
        raise SystemExit(f"{path}: {method} failed: {done.stderr.strip()}")
    check = subprocess.run([nqueens, "verify", "-", "--fix-file", path], input=done.stdout,
                           capture_output=True, text=True)
    if check.returncode != 0:
        return "WRONG: " + check.stderr.strip(), seconds
    return "found", seconds


def run_cadical(nqueens, path, timeout):
    with tempfile.NamedTemporaryFile(suffix=".cnf") as cnf:
        subprocess.run([nqueens, "cnf", "--instance", path, "-o", cnf.name], check=True)
        done, seconds = timed(["cadical", "-q", cnf.name], timeout)
    if done is None:
        return "timeout", timeout
    return {10: "found", 20: "none"}.get(done.returncode, "failed"), seconds


def read_blocks(path):
    text = open(path).read()
    n = int(re.search(r"\bn\s*(?:=|be)\s*(\d+)", text).group(1))
    pairs = re.search(r"blocks\s*(?:=|be)\s*\[(.*)\]", text, re.S).group(1)
    blocks = [(int(r) - 1, int(c) - 1) for r, c in re.findall(r"\[\s*(\d+)\s*,\s*(\d+)\s*\]", pairs)]
    return n, blocks


def run_cpsat(path, timeout):
    from ortools.sat.python import cp_model

    n, blocks = read_blocks(path)
    model = cp_model.CpModel()
    q = [model.NewIntVar(0, n - 1, f"q{i}") for i in range(n)]
    model.AddAllDifferent(q)
    model.AddAllDifferent([q[i] + i for i in range(n)])
    model.AddAllDifferent([q[i] - i for i in range(n)])
    for r, c in blocks:
        model.Add(q[r] != c)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = timeout
    start = time.perf_counter()
    status = solver.Solve(model)
    seconds = time.perf_counter() - start
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "found", seconds
    if status == cp_model.INFEASIBLE:
        return "none", seconds
    return "timeout", timeout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--nqueens", default="target/release/nqueens")
    parser.add_argument("--methods", default="auto")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--cadical", action="store_true")
    parser.add_argument("--cpsat", action="store_true")
    parser.add_argument("--tsv")
    args = parser.parse_args()
    files = instances(args.folder, args.every)
    solvers = [m for m in args.methods.split(",") if m]
    if args.cadical:
        solvers.append("cadical")
    if args.cpsat:
        solvers.append("cp-sat")
    rows, wrong = [], 0
    # Interleaved: each instance through every solver before the next instance.
    for path in files:
        answers = {}
        for solver in solvers:
            if solver == "cadical":
                answer, seconds = run_cadical(args.nqueens, path, args.timeout)
            elif solver == "cp-sat":
                answer, seconds = run_cpsat(path, args.timeout)
            else:
                answer, seconds = run_nqueens(args.nqueens, path, solver, args.timeout)
            answers[solver] = answer
            rows.append((os.path.basename(path), solver, answer, seconds))
        decided = {a for a in answers.values() if a in ("found", "none")}
        if any(a.startswith("WRONG") for a in answers.values()) or len(decided) > 1:
            print(f"{path}: answers disagree: {answers}", file=sys.stderr)
            wrong += 1
        elif decided == {"none"}:
            done = subprocess.run([args.nqueens, "count", "--instance", path, "-m", "dlx"],
                                  capture_output=True, text=True)
            if done.stdout.strip() != "0":
                print(f"{path}: 'none', but dlx counts {done.stdout.strip()}", file=sys.stderr)
                wrong += 1
    if args.tsv:
        with open(args.tsv, "w") as out:
            out.write("file\tsolver\tanswer\tseconds\n")
            for row in rows:
                out.write("%s\t%s\t%s\t%.4f\n" % row)
    print(f"{len(files)} instances, time-out {args.timeout:g} s")
    for solver in solvers:
        mine = [r for r in rows if r[1] == solver]
        decided = [r for r in mine if r[2] in ("found", "none")]
        times = [r[3] for r in mine]
        found = sum(r[2] == "found" for r in mine)
        print(f"{solver:10s} decided {len(decided)}/{len(mine)} ({found} with a solution)  "
              f"median {statistics.median(times):.3f} s  worst {max(times):.3f} s  "
              f"total {sum(times):.1f} s")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
