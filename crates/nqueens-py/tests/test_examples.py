"""Every program in examples/python runs (at a small size where the default is large)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "python"

RUNS = {
    "exact_cover_secondary.py": (["64", "2", "{tmp}/tile.svg"], "wrote"),
    "exact_cover_gadgets.py": (["10"], "n = 10:   724 solutions"),
    "cp_sat_queens.py": (["8", "1"], "solutions found: 92"),
    "sat_pairwise.py": (["8"], "all solutions: 92"),
    "backtracking_matrices.py": (["6"], "4 solutions of 6-queens"),
    "walkthrough.py": ([], "OPTIMAL"),
    "dask_count.py": (["12", "4"], "12-queens: 14200 solutions"),
}


def test_every_example_is_listed():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(RUNS)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_example_runs(name, tmp_path):
    if name == "dask_count.py":
        try:
            import dask.distributed  # noqa: F401
        except ImportError:
            pytest.fail('dask_count.py needs dask: pip install "dask[distributed]" (scripts/test-python.sh does)')
    args, expected = RUNS[name]
    args = [a.format(tmp=tmp_path) for a in args]
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert result.returncode == 0, result.stderr
    assert expected in result.stdout, result.stdout
    if name == "exact_cover_secondary.py":
        svg = (tmp_path / "tile.svg").read_text()
        assert svg.startswith("<svg") and svg.count('href="#queen"') == 2 * 64
