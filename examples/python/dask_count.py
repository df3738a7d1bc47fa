"""Counting N-Queens on a dask.distributed cluster: map ``count_shard`` over the workers and
``merge`` the results.

``nqueens.count_shard(n, i, k)`` counts part i (0-based) of the count split k ways, exactly as
the CLI's ``nqueens count N --shard I/K`` does, and returns the CLI's result as a dict;
``nqueens.merge`` checks that the parts make up one count and adds them up. A Python user who
already runs a dask cluster spreads a count over it this way; here a ``LocalCluster`` stands in
for it (pass a scheduler address to use a real one). Its workers are threads: ``count_shard``
releases the GIL, so threads count in parallel like processes, and start in a fraction of the
time.

    python dask_count.py [N] [SHARDS] [SCHEDULER]      (needs: pip install "dask[distributed]")
"""

import sys
import time

import nqueens


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 18
    shards = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    address = sys.argv[3] if len(sys.argv) > 3 else None
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        sys.exit('this example needs dask: pip install "dask[distributed]"')

    cluster = None
    if address is None:
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
        address = cluster
    start = time.perf_counter()
    with Client(address) as client:
        futures = client.map(nqueens.count_shard, [n] * shards, range(shards), [shards] * shards, threads=1)
        results = client.gather(futures)
    total = nqueens.merge(results)
    elapsed = time.perf_counter() - start
    if cluster is not None:
        cluster.close()
    print(f"{n}-queens: {total} solutions ({shards} shards, {elapsed:.1f} s)")
    expected = nqueens.count(n) if n <= 14 else None
    if expected is not None:
        assert total == expected, (total, expected)


if __name__ == "__main__":
    main()
