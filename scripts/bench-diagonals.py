#!/usr/bin/env python3
"""The excluded-diagonals phase transition (CSPLib problem 79) through nqueens, checked against
the paper's own results: the study behind docs/notes/excluded-diagonals.md.

    python3 scripts/bench-diagonals.py SOURCE [--sizes 8-21] [--sample 100] [--sample-at 21=50]
        [--timeout S] [--jobs J] [--paper FILE ...] [--csv OUT.csv] [--svg OUT.svg]
    python3 scripts/bench-diagonals.py --from-csv OUT.csv [--paper FILE ...] [--svg OUT.svg]

The problem. Gent, Jefferson and Nightingale ("Complexity of n-Queens Completion", JAIR 59,
2017) place n non-attacking queens on an n x n board from which whole diagonals have been
removed. Each instance file (`n = 15`, `numdiags = 29`, `diags = [[14, 0], [6, 1], ...]`) lists
diagonals in a random order; its first K entries, for every K from 0 to numdiags, form an
instance of their own. [d, 1] removes the sum diagonal row + col = d, [d, 0] the difference
diagonal row - col = d - (n - 1) (0-based squares). As K grows the share of solvable instances
falls from 1 to 0, and the search cost peaks where it crosses 1/2: a phase transition.

The data. SOURCE is a folder (searched recursively) or a single file: the tarballs
Problems/prob079/data/diag-8.tar.gz ... diag-21.tar.gz of the CSPLib repository
(https://github.com/csplib/csplib, 1,000 instances per n, ids 1..1000, named
diag-N-4-ID.param), extracted or not. They are not shipped with nqueens, their licence being
unstated. For example:

    git clone --depth 1 https://github.com/csplib/csplib
    mkdir diag && cp csplib/Problems/prob079/data/diag-*.tar.gz diag/

The paper's answers. --paper takes any of the per-run result files of Problems/prob079/results
(gzip or plain; the format is recognised per line, see columns.txt there):
run-diags-lingeling-raw.txt.gz (Lingeling on the CNF), run-diags-shiftqueens-processed.txt.gz
(their bit-parallel backtracker) and run-diags-minion-strong-processed.txt.gz (Minion). The
paper ran K = 1 .. min(numdiags) on each n = 10..21. Every answer nqueens gives is compared with
every paper answer for the same (n, K, id) that did not time out; a disagreement is printed and
makes the script exit 1.

What is run. For each n, the first S instances by id (reproducible), every K from 0 to its
numdiags, one process each:

    nqueens solve --instance - --diagonals K --stats -f permutation --time-limit T

(the instance on standard input, `auto` method). A solution is verified here, independently of
nqueens: n queens, one per row and column, no two on a diagonal, none on a removed diagonal. A
"no solution" that no paper file confirms (n = 8, 9, K = 0, or no --paper given) is confirmed
by a complete count with another engine (`nqueens count -m backtrack`, which must print 0).
Nodes are the engine's own count from --stats (summed over the methods a portfolio ran); seconds
are the wall time of the process, start-up included (a few ms).

What comes out. A CSV, one row per run (n, k, instance, solvable = yes/no/timeout, nodes,
seconds, method, paper = the paper's answer or empty), written after each n so an interrupted
run keeps what it did; a table per n (--markdown for BENCHMARKS.md); and an SVG of three panels
against K/n: the share solvable, the median nodes and the median seconds, one line per n, with
the paper's medians dashed where a --paper file was given. Medians and shares use only the K
that every sampled instance of that n reaches (K <= the smallest numdiags), as the paper did;
the cost panels and peaks start at K = 1 (K = 0 is the plain board, which `auto` hands to
backtracking, whose nodes are not comparable with those of dancing links).
--from-csv redraws the table and the plot from an earlier CSV without running anything.
"""
import argparse
import concurrent.futures
import csv
import gzip
import math
import os
import re
import statistics
import subprocess
import sys
import tarfile
import threading
import time

NAME = re.compile(r"diag-(\d+)-(\d+)-(\d+)\.param$")


# ---------------------------------------------------------------------------------------------
# Instances


class Instance:
    def __init__(self, n, ident, name, text):
        self.n, self.id, self.name, self.text = n, ident, name, text
        found_n = re.search(r"\bn\s*=\s*(\d+)", text)
        pairs = re.search(r"diags\s*=\s*\[(.*)\]", text, re.S)
        if not found_n or not pairs:
            raise SystemExit(f"{name}: not an excluded-diagonals file (n = ..., diags = [...])")
        if int(found_n.group(1)) != n:
            raise SystemExit(f"{name}: the name says n = {n}, the file n = {found_n.group(1)}")
        self.diags = [(int(d), int(t)) for d, t in
                      re.findall(r"\[\s*(\d+)\s*,\s*([01])\s*\]", pairs.group(1))]

    @property
    def numdiags(self):
        return len(self.diags)


def read_instances(source, sizes):
    """{n: [Instance sorted by id]} for the n in sizes, from a folder or a file."""
    found = {}

    def add(name, read):
        match = NAME.search(name)
        if not match or int(match.group(1)) not in sizes:
            return
        n, ident = int(match.group(1)), int(match.group(3))
        if (n, ident) not in found:
            found[(n, ident)] = Instance(n, ident, name, read())

    def add_file(path):
        if path.endswith((".tar.gz", ".tgz", ".tar")):
            match = re.search(r"diag-(\d+)\.t", os.path.basename(path))
            if match and int(match.group(1)) not in sizes:
                return
            with tarfile.open(path) as tar:
                for member in tar:
                    if member.isfile():
                        add(member.name, lambda: tar.extractfile(member).read().decode())
        else:
            add(path, lambda: open(path).read())

    if os.path.isdir(source):
        for root, _, files in sorted(os.walk(source)):
            for f in sorted(files):
                add_file(os.path.join(root, f))
    elif os.path.isfile(source):
        add_file(source)
    else:
        raise SystemExit(f"{source}: no such file or folder")
    by_n = {}
    for (n, _), instance in sorted(found.items()):
        by_n.setdefault(n, []).append(instance)
    return by_n


def check_solution(instance, k, line):
    """None if `line` (1-based columns, one per row) solves the first k diagonals, else why."""
    n = instance.n
    try:
        cols = [int(x) - 1 for x in line.split()]
    except ValueError:
        return f"not a permutation line: {line!r}"
    if len(cols) != n:
        return f"{len(cols)} queens, not {n}"
    if sorted(cols) != list(range(n)):
        return "two queens share a column (or a column is out of range)"
    sums = {r + c for r, c in enumerate(cols)}
    diffs = {r - c for r, c in enumerate(cols)}
    if len(sums) != n or len(diffs) != n:
        return "two queens share a diagonal"
    for d, kind in instance.diags[:k]:
        if kind == 1 and d in sums:
            return f"a queen on the removed sum diagonal row + col = {d}"
        if kind == 0 and d - (n - 1) in diffs:
            return f"a queen on the removed difference diagonal row - col = {d - (n - 1)}"
    return None


# ---------------------------------------------------------------------------------------------
# The paper's results


def read_paper(paths):
    """{solver: {(n, k, id): (solvable, seconds, nodes)}}, runs that timed out left out."""
    results = {}
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as f:
            for line in f:
                parsed = parse_paper_line(line.split())
                if parsed:
                    solver, key, timed_out, value = parsed
                    if not timed_out:
                        results.setdefault(solver, {})[key] = value
    return results


def parse_paper_line(f):
    """One line of a prob079 results file (columns.txt): lingeling, shiftqueens or minion."""
    if not f or f[0].startswith("#") or not all(x.isdigit() for x in f[:3]):
        return None
    if len(f) >= 12 and f[4].endswith("Solutions:"):
        # n m mininrow id file:Solutions: sols Nodes: nodes Timeout: t Time: secs
        key = (int(f[0]), int(f[1]), int(f[3]))
        return "shiftqueens", key, f[9] != "0", (int(f[5]) > 0, float(f[11]), int(f[7]))
    if len(f) >= 16 and f[3].isalpha():
        # n m id status sat timeout conflicts c/s nodes n/s props Mp/s solve total sys wall file
        key = (int(f[0]), int(f[1]), int(f[2]))
        return "lingeling", key, f[5] != "0", (f[4] == "1", float(f[13]), int(f[8]))
    if len(f) >= 21:
        # n m d id eprime param cse heur - solve total setup nodes timeout sat srtime ...
        key = (int(f[0]), int(f[1]), int(f[3]))
        seconds = float(f[10]) + float(f[15])
        return "minion", key, f[13] != "0", (f[14] == "1", seconds, int(float(f[12])))
    return None


# ---------------------------------------------------------------------------------------------
# Running nqueens


def run_one(nqueens, instance, k, timeout):
    """(solvable, nodes, seconds, methods); solvable is 'yes', 'no' or 'timeout'."""
    command = [nqueens, "solve", "--instance", "-", "--diagonals", str(k), "--stats",
               "-f", "permutation", "--time-limit", str(timeout)]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, input=instance.text, capture_output=True, text=True,
                              timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return "timeout", 0, time.perf_counter() - start, "?"
    seconds = time.perf_counter() - start
    nodes, methods = 0, []
    for line in done.stderr.splitlines():
        stats = dict(re.findall(r"(\w+)=(\S+)", line))
        if "method" in stats:
            methods.append(stats["method"])
            nodes += int(stats.get("nodes", stats.get("decisions", 0)))
    methods = "+".join(methods) or "?"
    where = f"{instance.name}, K = {k}"
    if done.returncode == 3:
        return "timeout", nodes, seconds, methods
    if done.returncode == 1:
        return "no", nodes, seconds, methods
    if done.returncode != 0:
        raise SystemExit(f"{where}: nqueens failed (exit {done.returncode}): "
                         f"{done.stderr.strip()}")
    lines = [x for x in done.stdout.splitlines() if x.strip()]
    why = check_solution(instance, k, lines[0]) if lines else "no solution printed"
    if why:
        raise SystemExit(f"{where}: WRONG solution ({why}): {done.stdout.strip()}")
    return "yes", nodes, seconds, methods


def confirm_none(nqueens, instance, k, method):
    """A second, complete search must count 0 solutions."""
    done = subprocess.run([nqueens, "count", "--instance", "-", "--diagonals", str(k),
                           "-m", method], input=instance.text, capture_output=True, text=True)
    return done.returncode == 0 and done.stdout.strip() == "0"


def study(args, by_n, paper):
    rows, problems, lock = [], [], threading.Lock()
    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for n in sorted(by_n):
            if args.ids:
                sample = [inst for inst in by_n[n] if inst.id in args.ids]
            else:
                sample = by_n[n][:args.sample_at.get(n, args.sample)]
            if not sample:
                continue
            n_start = time.perf_counter()
            jobs = [(inst, k) for inst in sample for k in range(inst.numdiags + 1)]

            def one(job):
                inst, k = job
                solvable, nodes, seconds, methods = run_one(args.nqueens, inst, k, args.timeout)
                answers = {s: r[(n, k, inst.id)][0] for s, r in paper.items()
                           if (n, k, inst.id) in r}
                verdicts = {"yes" if a else "no" for a in answers.values()}
                note = None
                if solvable != "timeout" and verdicts and verdicts != {solvable}:
                    note = (f"n = {n}, K = {k}, id {inst.id}: nqueens says {solvable}, the paper "
                            + ", ".join(f"{s} {'yes' if a else 'no'}"
                                        for s, a in sorted(answers.items())))
                elif solvable == "no" and not verdicts and args.confirm_none != "none":
                    if not confirm_none(args.nqueens, inst, k, args.confirm_none):
                        note = (f"n = {n}, K = {k}, id {inst.id}: 'no solution', but "
                                f"count -m {args.confirm_none} is not 0")
                paper_answer = "/".join(sorted(verdicts))
                return (n, k, inst.id, solvable, nodes, seconds, methods, paper_answer), note

            for row, note in pool.map(one, jobs):
                rows.append(row)
                if note:
                    with lock:
                        problems.append(note)
                        print("DISAGREEMENT: " + note, file=sys.stderr)
            mine = [r for r in rows if r[0] == n]
            print(f"n = {n:2d}: {len(sample)} instances, {len(mine)} runs, "
                  f"{sum(r[3] == 'timeout' for r in mine)} timed out, "
                  f"{time.perf_counter() - n_start:.1f} s "
                  f"(all so far {time.perf_counter() - started:.0f} s)", file=sys.stderr)
            if args.csv:
                write_csv(args.csv, rows)
    return rows, problems


def write_csv(path, rows):
    with open(path, "w", newline="") as out:
        w = csv.writer(out)
        w.writerow(["n", "k", "instance", "solvable", "nodes", "seconds", "method", "paper"])
        for r in rows:
            w.writerow(list(r[:5]) + ["%.5f" % r[5]] + list(r[6:]))


def read_csv(path):
    with open(path, newline="") as f:
        return [(int(r["n"]), int(r["k"]), int(r["instance"]), r["solvable"], int(r["nodes"]),
                 float(r["seconds"]), r["method"], r["paper"]) for r in csv.DictReader(f)]


# ---------------------------------------------------------------------------------------------
# Summaries


def complete_groups(rows):
    """{(n, k): [rows]} for the k that every sampled instance of n reaches."""
    groups, ids, top = {}, {}, {}
    for r in rows:
        groups.setdefault((r[0], r[1]), []).append(r)
        ids.setdefault(r[0], set()).add(r[2])
        top[(r[0], r[2])] = max(top.get((r[0], r[2]), 0), r[1])
    reach = {n: min(top[(n, i)] for i in ids[n]) for n in ids}
    return {key: g for key, g in groups.items() if key[1] <= reach[key[0]]}


def k_half(shares):
    """The k where the share solvable falls through 1/2, linearly interpolated."""
    shares = sorted(shares)
    for (k0, p0), (k1, p1) in zip(shares, shares[1:]):
        if p0 >= 0.5 > p1:
            return k0 + (p0 - 0.5) / (p0 - p1) * (k1 - k0)
    return None


def paper_groups(paper, solver, ids_by_n=None):
    """{(n, k): [(solvable, seconds, nodes)]} of one solver, optionally on our sample only."""
    out = {}
    for (n, k, ident), v in paper.get(solver, {}).items():
        if ids_by_n is None or ident in ids_by_n.get(n, ()):
            out.setdefault((n, k), []).append(v)
    return out


def summarise(rows, paper, problems, markdown):
    groups = complete_groups(rows)
    ids_by_n = {}
    for r in rows:
        ids_by_n.setdefault(r[0], set()).add(r[2])
    solvers = sorted(paper)
    lines = []
    head = ["n", "instances", "K (all reach)", "runs", "K₅₀ (K₅₀/n)",
            "peak median nodes (K)", "peak median s (K)", "most nodes (K, id)",
            "slowest s (K, id)", "timed out", "total s"]
    for s in solvers:
        head += [f"{s} K₅₀, all ids", f"{s} peak median nodes (K)", f"agree with {s}"]
    lines.append(head)
    peaks, their_peaks = {}, {}
    for n in sorted(ids_by_n):
        mine = [r for r in rows if r[0] == n]
        ks = sorted(k for (m, k) in groups if m == n)
        shares = [(k, sum(r[3] == "yes" for r in groups[(n, k)]) / len(groups[(n, k)]))
                  for k in ks]
        half = k_half(shares)
        # K = 0 is the plain board, which `auto` gives to another engine: its nodes are
        # not comparable, and the paper starts at K = 1.
        med_nodes = [(statistics.median(r[4] for r in groups[(n, k)]), k) for k in ks if k]
        med_secs = [(statistics.median(r[5] for r in groups[(n, k)]), k) for k in ks if k]
        most = max(mine, key=lambda r: (r[4], r[5]))
        slowest = max(mine, key=lambda r: r[5])
        peaks[n] = max(med_nodes)
        row = [str(n), str(len(ids_by_n[n])),
               f"0–{max(r[1] for r in mine)} (0–{max(ks)})",
               str(len(mine)),
               f"{half:.1f} ({half / n:.2f})" if half is not None else "—",
               "%s (%d)" % (f"{max(med_nodes)[0]:,.0f}", max(med_nodes)[1]),
               "%.4f (%d)" % max(med_secs),
               f"{most[4]:,} ({most[1]}, {most[2]})",
               f"{slowest[5]:.3f} ({slowest[1]}, {slowest[2]})",
               str(sum(r[3] == "timeout" for r in mine)),
               f"{sum(r[5] for r in mine):.1f}"]
        for s in solvers:
            theirs = paper_groups(paper, s)
            tks = sorted(k for (m, k) in theirs if m == n)
            if not tks:
                row += ["—", "—", "—"]
                continue
            th = k_half([(k, sum(v[0] for v in theirs[(n, k)]) / len(theirs[(n, k)]))
                         for k in tks])
            peak = max((statistics.median(v[2] for v in theirs[(n, k)]), k) for k in tks)
            their_peaks.setdefault(s, {})[n] = peak
            compared = [r for r in mine if (n, r[1], r[2]) in paper[s] and r[3] != "timeout"]
            agree = sum((r[3] == "yes") == paper[s][(n, r[1], r[2])][0] for r in compared)
            row += [f"{th:.1f} ({th / n:.2f})" if th is not None else "—",
                    f"{peak[0]:,.0f} ({peak[1]})", f"{agree}/{len(compared)}"]
        lines.append(row)
    if markdown:
        out = ["| " + " | ".join(lines[0]) + " |", "|" + "---|" * len(lines[0])]
        out += ["| " + " | ".join(r) + " |" for r in lines[1:]]
    else:
        widths = [max(len(r[i]) for r in lines) for i in range(len(lines[0]))]
        out = ["  ".join(c.rjust(w) for c, w in zip(r, widths)) for r in lines]
    print("\n".join(out))
    common = set(peaks)
    for s in solvers:
        common &= set(their_peaks.get(s, {})) or common
    common = sorted(common)
    if len(common) >= 2:
        lo, hi = common[max(0, (len(common) - 1) // 2)], common[-1]
        print(f"\ngrowth of the peak median nodes per step of n, n = {lo}..{hi}: nqueens "
              + growth(peaks, lo, hi) + "".join(f"; {s} " + growth(their_peaks.get(s, {}), lo, hi)
                                                for s in solvers))
    for s in solvers:
        compared = [r for r in rows if (r[0], r[1], r[2]) in paper[s] and r[3] != "timeout"]
        disagree = sum((r[3] == "yes") != paper[s][(r[0], r[1], r[2])][0] for r in compared)
        print(f"\nagainst {s}: {len(compared)} runs compared, {disagree} disagreements")
        print(f"rank agreement (Spearman) of our nodes with {s}'s nodes, over the runs of "
              f"each n both have: " + ", ".join(
                  f"{n}: {rho:.2f}" for n, rho in rank_agreement(rows, paper[s])))
        for n, k, ident, theirs, ours, rank in hardest_of_theirs(rows, paper[s]):
            print(f"  n = {n}: their hardest run in our sample, K = {k}, id {ident}: "
                  f"{theirs:.2f} s for {s}; for nqueens {ours[4]:,} nodes, {ours[5]:.3f} s, "
                  f"harder than {rank:.1%} of our runs at that n")
    print(f"\n{len(problems)} disagreements or unconfirmed answers in all")


def growth(peaks, lo, hi):
    """The mean factor per step of n of the peak median, from n = lo to n = hi."""
    if lo not in peaks or hi not in peaks or lo == hi:
        return "—"
    return f"×{(peaks[hi][0] / peaks[lo][0]) ** (1 / (hi - lo)):.2f}"


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for m in range(i, j + 1):
            out[order[m]] = (i + j) / 2
        i = j + 1
    return out


def rank_agreement(rows, theirs):
    out = []
    for n in sorted({r[0] for r in rows}):
        pairs = [(r[4], theirs[(n, r[1], r[2])][2]) for r in rows
                 if r[0] == n and (n, r[1], r[2]) in theirs]
        if len(pairs) < 3:
            continue
        a, b = ranks([p[0] for p in pairs]), ranks([p[1] for p in pairs])
        ma, mb = statistics.fmean(a), statistics.fmean(b)
        cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
        var = math.sqrt(sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b))
        out.append((n, cov / var if var else float("nan")))
    return out


def hardest_of_theirs(rows, theirs):
    out = []
    for n in sorted({r[0] for r in rows}):
        mine = {(r[1], r[2]): r for r in rows if r[0] == n}
        shared = [(v[1], v[2], k, i) for (m, k, i), v in theirs.items()
                  if m == n and (k, i) in mine]
        if not shared:
            continue
        seconds, _, k, ident = max(shared)
        ours = mine[(k, ident)]
        below = sum(r[4] < ours[4] for r in mine.values()) / len(mine)
        out.append((n, k, ident, seconds, ours, below))
    return out


# ---------------------------------------------------------------------------------------------
# The plot (SVG written by hand: the script needs nothing beyond the standard library)


def colour(n, lo, hi):
    t = 0 if hi == lo else (n - lo) / (hi - lo)
    return f"hsl({240 - 240 * t:.0f}, 75%, {42 + 6 * math.sin(math.pi * t):.0f}%)"


def svg_plot(path, rows, paper, disagreements):
    groups = complete_groups(rows)
    ns = sorted({n for n, _ in groups})
    solver = next((s for s in ("lingeling", "shiftqueens", "minion") if s in paper), None)
    theirs = paper_groups(paper, solver) if solver else {}
    series = {"share": {}, "nodes": {}, "seconds": {}}
    for n in ns:
        ks = sorted(k for (m, k) in groups if m == n)
        series["share"][n] = [(k / n, sum(r[3] == "yes" for r in groups[(n, k)])
                               / len(groups[(n, k)])) for k in ks]
        series["nodes"][n] = [(k / n, statistics.median(r[4] for r in groups[(n, k)]))
                              for k in ks if k]
        series["seconds"][n] = [(k / n, statistics.median(r[5] for r in groups[(n, k)]))
                                for k in ks if k]
    dashed = {"nodes": {}, "seconds": {}}
    for n in ns:
        tks = sorted(k for (m, k) in theirs if m == n)
        if tks:
            dashed["nodes"][n] = [(k / n, statistics.median(v[2] for v in theirs[(n, k)]))
                                  for k in tks]
            dashed["seconds"][n] = [(k / n, statistics.median(v[1] for v in theirs[(n, k)]))
                                    for k in tks]
    sizes = sorted({len({r[2] for r in rows if r[0] == n}) for n in ns})
    sample = f"{sizes[0]}" if len(sizes) == 1 else f"{sizes[0]}–{sizes[-1]}"
    xmax = max(x for pts in series["share"].values() for x, _ in pts)
    xmax = math.ceil(xmax * 4) / 4
    width, left, right, ph, gap, top = 860, 80, 150, 250, 70, 60
    pw = width - left - right
    top += 16
    height = top + 3 * ph + 3 * gap + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, sans-serif" '
           f'font-size="12">', '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="12" y="26" font-size="17" font-weight="bold">Excluded diagonals '
           f'(CSPLib 79): the phase transition, n = {ns[0]}..{ns[-1]}</text>',
           f'<text x="12" y="46" fill="#444">nqueens solve (auto) on the first {sample} '
           f'instances of each n (by id), every K up to the smallest numdiags of the sample; '
           f'solid: nqueens</text>',
           f'<text x="12" y="62" fill="#444">' +
           (f'dashed: the paper\'s {solver} results (all 1,000 instances per n, their '
            f'machine); ' + (f'{disagreements} answers differ' if disagreements else
                             'the same answer on every run both made') if solver else '') +
           '</text>']
    panels = [("share", "(a) share of instances with a solution", False),
              ("nodes", "(b) median search nodes (log)", True),
              ("seconds", "(c) median seconds per run (log; ours: whole process, busy "
                          "2-core machine)", True)]
    for p, (key, title, log) in enumerate(panels):
        y0 = top + gap + p * (ph + gap)
        values = [v for pts in series[key].values() for _, v in pts]
        values += [v for pts in dashed.get(key, {}).values() for _, v in pts]
        if log:
            positive = [v for v in values if v > 0]
            lo = 10 ** math.floor(math.log10(min(positive)))
            hi = 10 ** math.ceil(math.log10(max(positive)))

            def fy(v, lo=lo, hi=hi):
                v = max(v, lo)
                return y0 + ph - (math.log10(v) - math.log10(lo)) / \
                    (math.log10(hi) - math.log10(lo)) * ph
            ticks = [(10 ** e, fy(10 ** e)) for e in range(round(math.log10(lo)),
                                                           round(math.log10(hi)) + 1)]
            labels = [(f"1e{round(math.log10(v))}" if v < 0.01 or v >= 1e4 else f"{v:g}", y)
                      for v, y in ticks]
        else:
            def fy(v):
                return y0 + ph - v * ph
            labels = [(f"{v:.2f}".rstrip("0").rstrip("."), fy(v)) for v in
                      (0, 0.25, 0.5, 0.75, 1)]

        def fx(x):
            return left + x / xmax * pw
        out.append(f'<text x="{left + pw / 2}" y="{y0 - 10}" text-anchor="middle" '
                   f'font-size="14" font-weight="bold">{title}</text>')
        out.append(f'<rect x="{left}" y="{y0}" width="{pw}" height="{ph}" fill="none" '
                   f'stroke="#444"/>')
        for label, y in labels:
            out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}" '
                       f'stroke="#ddd"/><text x="{left - 6}" y="{y + 4:.1f}" '
                       f'text-anchor="end">{label}</text>')
        steps = int(round(xmax / 0.25))
        for i in range(steps + 1):
            x = fx(i * 0.25)
            out.append(f'<line x1="{x:.1f}" y1="{y0}" x2="{x:.1f}" y2="{y0 + ph}" '
                       f'stroke="#eee"/><text x="{x:.1f}" y="{y0 + ph + 16}" '
                       f'text-anchor="middle">{i * 0.25:g}</text>')
        out.append(f'<text x="{left + pw / 2}" y="{y0 + ph + 34}" text-anchor="middle">'
                   f'K / n (removed diagonals per row)</text>')
        for style, data in (("", series[key]), (' stroke-dasharray="5,4"',
                                                dashed.get(key, {}))):
            for n, pts in sorted(data.items()):
                d = " ".join(f"{fx(x):.1f},{fy(v):.1f}" for x, v in pts)
                out.append(f'<polyline points="{d}" fill="none" stroke="{colour(n, ns[0], ns[-1])}"'
                           f' stroke-width="1.6"{style}/>')
    ly = top + gap
    out.append(f'<text x="{left + pw + 20}" y="{ly}" font-weight="bold">n</text>')
    for i, n in enumerate(ns):
        y = ly + 18 + i * 18
        out.append(f'<line x1="{left + pw + 20}" y1="{y - 4}" x2="{left + pw + 50}" '
                   f'y2="{y - 4}" stroke="{colour(n, ns[0], ns[-1])}" stroke-width="2.5"/>'
                   f'<text x="{left + pw + 56}" y="{y}">{n}</text>')
    y = ly + 18 + len(ns) * 18 + 16
    out.append(f'<line x1="{left + pw + 20}" y1="{y - 4}" x2="{left + pw + 50}" y2="{y - 4}" '
               f'stroke="#444" stroke-width="1.6"/><text x="{left + pw + 56}" y="{y}">'
               f'nqueens</text>')
    if solver:
        out.append(f'<line x1="{left + pw + 20}" y1="{y + 14}" x2="{left + pw + 50}" '
                   f'y2="{y + 14}" stroke="#444" stroke-width="1.6" stroke-dasharray="5,4"/>'
                   f'<text x="{left + pw + 56}" y="{y + 18}">{solver}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


# ---------------------------------------------------------------------------------------------


def parse_sizes(text):
    sizes = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        sizes.update(range(int(lo), int(hi or lo) + 1))
    return sizes


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", nargs="?",
                        help="folder (or file) holding diag-N.tar.gz or diag-N-4-ID.param files")
    parser.add_argument("--nqueens", default="target/release/nqueens",
                        help="the nqueens binary (default: %(default)s)")
    parser.add_argument("--sizes", default="8-21", type=parse_sizes,
                        help="board sizes, e.g. 8-21 or 10,15,20 (default: 8-21)")
    parser.add_argument("--sample", type=int, default=100,
                        help="instances per n, the first ones by id (default: %(default)s)")
    parser.add_argument("--sample-at", action="append", default=[], metavar="N=S",
                        help="a different sample size for one n, e.g. 21=50 (repeatable)")
    parser.add_argument("--ids", type=lambda t: {int(x) for x in t.split(",")},
                        help="run these instance ids instead of a sample, e.g. 75,259")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds per run, passed as --time-limit (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="runs at once (default: %(default)s; more distorts the seconds)")
    parser.add_argument("--paper", action="append", default=[], metavar="FILE",
                        help="a results file of Problems/prob079/results (repeatable)")
    parser.add_argument("--confirm-none", default="backtrack", metavar="METHOD",
                        help="the method whose count must be 0 for a 'no solution' the paper "
                             "does not cover; 'none' skips it (default: %(default)s)")
    parser.add_argument("--csv", help="write every run here (rewritten after each n)")
    parser.add_argument("--svg", help="write the three-panel plot here")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--from-csv", metavar="CSV",
                        help="run nothing: summarise and plot the runs of an earlier --csv")
    args = parser.parse_args()
    try:
        args.sample_at = {int(a): int(b) for a, b in (s.split("=") for s in args.sample_at)}
    except ValueError:
        parser.error("--sample-at takes N=S, e.g. 21=50")
    if (args.source is None) == (args.from_csv is None):
        parser.error("give either SOURCE or --from-csv")
    paper = read_paper(args.paper)
    for solver, results in sorted(paper.items()):
        print(f"{solver}: {len(results)} paper runs read", file=sys.stderr)
    if args.from_csv:
        rows, problems = read_csv(args.from_csv), []
        for r in rows:
            for s, res in paper.items():
                key = (r[0], r[1], r[2])
                if key in res and r[3] != "timeout" and (r[3] == "yes") != res[key][0]:
                    problems.append(f"n = {key[0]}, K = {key[1]}, id {key[2]}: {s} disagrees")
    else:
        if not os.access(args.nqueens, os.X_OK):
            parser.error(f"{args.nqueens}: not an executable (cargo build --release -p "
                         f"nqueens-cli, or --nqueens PATH)")
        by_n = read_instances(args.source, args.sizes)
        if not by_n:
            parser.error(f"{args.source}: no diag-N-4-ID.param files for n in the --sizes")
        rows, problems = study(args, by_n, paper)
    if not rows:
        parser.error("no runs")
    summarise(rows, paper, problems, args.markdown)
    if args.svg:
        svg_plot(args.svg, rows, paper, len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
