"""
The privacy-utility frontier, greedy and exact
==============================================

Ding & Farokhi (003), Fig. 7(a). Running Algorithm 2 for every λ ≥ 0 gives its frontier of
(utility, privacy) pairs; :func:`graphpriv.pareto_frontier` gets all of it from one trajectory,
with the exact λ at which each point stops being the answer. :func:`graphpriv.exact_frontier` gives the
true optimum for comparison (enumeration of every partition of the seven values here; a certified
solver beyond about ten values).
"""

import graphpriv as gp
import graphpriv.viz as viz

jr, values = gp.datasets.paper_example()
greedy = gp.pareto_frontier(jr, "I*", utility="U1")
exact = gp.exact_frontier(jr, "I*", utility="U1")
print(greedy)
print(exact)

ax = viz.plot_frontier([greedy, exact], labels=["Algorithm 2 (greedy)", "exact optimum"],
                       marks={"Example 3, λ = 0.3": gp.agglomerate(jr, "I*", 0.3)},
                       title="Fig. 1 example: I* against U1")
ax.figure.set_size_inches(4.8, 3.4)
