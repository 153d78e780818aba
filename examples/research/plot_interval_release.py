"""
Optimal interval releases
=========================

Releasing cholesterol as intervals ``[a, b]`` is what a reader of a table expects. Among all partitions
of the ordered values into intervals, :func:`graphpriv.interval_frontier` finds the best ones exactly,
for every λ, by dynamic programming (``graphpriv sanitize --search interval`` releases one). Here problem
(3) of Ding & Farokhi (003), L0 with U2 = −(largest distortion in mg/dl), on the 153 cholesterol values of
the Hungarian data, against the greedy Algorithm 1, with the region that proven bounds rule out.
"""

import graphpriv as gp
import graphpriv.viz as viz

jr = gp.datasets.hungarian_range(missing="drop")
values = {x: float(x) for x in jr.public_labels.tolist()}
greedy = gp.pareto_frontier(jr, "L0", utility="U2", values=values)
interval = gp.interval_frontier(jr, "L0", utility="U2", values=values)
bounds = gp.frontier_bounds(jr, "L0", "U2", values)
print(interval)

ax = viz.plot_search_frontiers({"greedy (Algorithm 1)": greedy, "interval-exact": interval}, bounds,
                               utility_label="U2 = −max distortion (mg/dl)")
ax.set_title(f"Hungarian data, |X| = {jr.n_public}: L0 against U2", fontsize=10)
ax.legend(loc="lower right", fontsize=8, frameon=True, framealpha=0.9)
ax.figure.set_size_inches(5.2, 3.6)
