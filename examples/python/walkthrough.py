# %% [markdown]
# # nqueens from Python: a walkthrough
#
# Open this file in Jupyter (with jupytext) or VS Code, which run it cell by cell, or run it as
# a script. Rows and columns are **0-based** everywhere in the package.

# %%
import nqueens

s = nqueens.solve(8)
print(s)  # a Unicode board
s  # in a notebook, the board as a picture (Solution._repr_svg_)

# %% [markdown]
# A `Solution` is a sequence of columns: `s[row]` is the column of that row's queen.

# %%
print(list(s), s[0], len(s), s.to_matrix()[0])
nqueens.verify(s)  # raises ValueError naming two attacking queens if it were wrong

# %% [markdown]
# Solutions come lazily: the search runs only a little ahead of the loop, and stops when the
# loop does. The first solution of a 64×64 board is immediate.

# %%
first = next(nqueens.solutions(64, method="dlx", seed=1))
print(first.columns[:10], "...")

# %% [markdown]
# Counting returns an exact Python int; `progress` reports (done, total) tasks.

# %%
print([nqueens.count(n) for n in range(1, 13)])
print(nqueens.count(14, progress=lambda done, total: None), nqueens.count(14, unique=True))

# %% [markdown]
# Fixed queens (the completion problem) and the methods.

# %%
c = nqueens.solve(30, fixed=[(0, 0), (1, 2)], method="cp")
print(c[:2], {name: info["jobs"] for name, info in nqueens.METHODS.items()})

# %% [markdown]
# Many boards at once, as one SVG picture.

# %%
grid = nqueens.svg_grid(nqueens.solutions(8, limit=12), columns=6, cell=12)
try:
    from IPython.display import SVG, display

    display(SVG(grid))
except ImportError:
    print(f"an SVG of {len(grid)} characters")

# %% [markdown]
# The engines themselves: exact cover, SAT and CP.

# %%
from nqueens import cp as cp_model
from nqueens.sat import Solver
from nqueens.xc import ExactCover

print(ExactCover({"A": [1, 2], "B": [3], "C": [1], "D": [2, 3]}).count())
with Solver(bootstrap_with=[[1, 2], [-1, 2], [1, -2]]) as sat:
    print(sat.solve(), sat.get_model(), sat.solve(assumptions=[-2]), sat.get_core())
model = cp_model.CpModel()
x = [model.new_int_var(0, 5, f"x{i}") for i in range(6)]
model.add_all_different(x)
model.add_all_different(x[i] + i for i in range(6))
model.add_all_different(x[i] - i for i in range(6))
solver = cp_model.CpSolver()
print(solver.status_name(solver.solve(model)), [solver.value(v) for v in x])
