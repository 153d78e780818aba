"""
The exact frontier: how far is greedy from optimal?
===================================================

Ding & Farokhi's mechanisms (003) are greedy. :func:`graphpriv.exact_frontier` computes the true
optimum of problem (3), min L0(S → X̂) for each utility U1: by enumerating every partition up to about ten
public values, and above that as threshold problems (largest cluster, smallest sensitive set) for the
CP-SAT solver of OR-Tools, each point with a proof (``certified``) or a stated gap.
:func:`graphpriv.beam_search` is a better-than-greedy search that keeps several partial merge
sequences. Here all three on a random joint range of 16 public values.
"""

import numpy as np

import graphpriv as gp
import graphpriv.viz as viz

jr = gp.random_joint_range(8, 16, 0.25, seed=3)
greedy = gp.pareto_frontier(jr, "L0", utility="U1")
exact = gp.exact_frontier(jr, "L0", utility="U1", time_limit=20)
print(exact)
print("certified:", exact.certified)

beam = [gp.beam_search(jr, "L0", lam, utility="U1") for lam in (0.2, 0.5, 1.0, 2.0, 4.0)]
beam_points = sorted({(b.privacy, b.utility) for b in beam})

ax = viz.plot_search_frontiers({"greedy (Algorithm 1)": greedy, "beam search": beam_points, "exact": exact},
                               utility_label="U1 = I0(X→X̂) (bits)")
ax.set_title(f"Random joint range, |S| = {jr.n_sensitive}, |X| = {jr.n_public}: L0 against U1", fontsize=10)
ax.legend(loc="upper left", fontsize=8, frameon=False)
ax.figure.set_size_inches(5.2, 3.6)
