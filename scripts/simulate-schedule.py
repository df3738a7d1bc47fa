#!/usr/bin/env python3
"""Predicts the load-balance efficiency of `nqueens-mpi` for big jobs, from measured tasks.

Input: `--task-times` files of `nqueens-mpi count` (lines `ID RANK SECONDS NODES` after a `#`
header naming n, depth and the number of tasks). The work of a task is its node count (queens
placed): deterministic, unlike seconds on a shared machine, and proportional to the time.

Model: the target list (n, tasks) has the *shape* of the measured one: task i of the target
has the work of the measured task at the same relative position in the list (ids are in
class order, so the long and short stretches of the list keep their places), scaled to the
target's mean. Measure the shape at the same split depth you predict for (+0, +1, +2).
Schedule: every thread takes the next task in id order as soon as it is free: the limit the
coordinator approaches when prefetch hides the network (its batches shrink to one task at the
end). Efficiency = total work / (threads x makespan).

  scripts/simulate-schedule.py times-18+1.txt --tasks 508202 --threads 16 64 ... 16384
  scripts/simulate-schedule.py --check times-17+0.txt times-18+0.txt   # the model, checked

Standard library only.
"""

import argparse
import heapq
import sys


def read_work(path):
    """Node counts in id order, and the header's task count."""
    work = {}
    tasks = None
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                for field in line.replace(";", " ").split():
                    if field.startswith("tasks="):
                        tasks = int(field[6:])
                continue
            fields = line.split()
            if len(fields) == 4:
                work[int(fields[0])] = int(fields[3])
    if tasks is None or len(work) != tasks:
        sys.exit(f"{path}: {len(work)} task lines, header says {tasks}: use a complete run")
    return [work[i] for i in range(tasks)]


def stretch(shape, tasks):
    """The shape resampled to `tasks` positions (work relative to the mean)."""
    mean = sum(shape) / len(shape)
    m = len(shape)
    return [shape[min(m - 1, i * m // tasks)] / mean for i in range(tasks)]


def efficiency(work, threads):
    """Greedy in id order on `threads` threads."""
    if threads >= len(work):
        return sum(work) / (threads * max(work))
    free = [0.0] * threads
    for w in work:
        heapq.heapreplace(free, free[0] + w)
    return sum(work) / (threads * max(free))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("times", nargs="+", help="--task-times files")
    parser.add_argument("--tasks", type=int, help="tasks in the target list")
    parser.add_argument(
        "--threads",
        type=int,
        nargs="+",
        default=[16, 64, 256, 1024, 4096, 16384],
        help="P x T values",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="predict the second file's efficiency from the first's shape and compare",
    )
    args = parser.parse_args()
    if args.check:
        if len(args.times) != 2:
            sys.exit("--check takes two files: the smaller n, then the larger")
        small, big = (read_work(p) for p in args.times)
        predicted = stretch(small, len(big))
        print("threads  predicted  actual (shape of the first file, tasks of the second)")
        for t in args.threads:
            print(f"{t:7d}  {efficiency(predicted, t):9.3f}  {efficiency(big, t):6.3f}")
        return
    if args.tasks is None or len(args.times) != 1:
        sys.exit("give one --task-times file and --tasks (or --check with two files)")
    work = stretch(read_work(args.times[0]), args.tasks)
    print(f"tasks {args.tasks}")
    print("threads  tasks/thread  efficiency")
    for t in args.threads:
        print(f"{t:7d}  {args.tasks / t:12.1f}  {efficiency(work, t):10.3f}")


if __name__ == "__main__":
    main()
