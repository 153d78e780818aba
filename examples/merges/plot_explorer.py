"""
The interactive merge explorer
==============================

:func:`graphpriv.viz.explore` turns a merge trace into one self-contained HTML page (bokeh): a step
slider, the matrix of the joint range at that step, the hierarchy, and a table of the candidate merges
with their ΔL. Its state (step, selection, folded subtrees) is kept in the page's URL, so a link
reopens the same view; tapping a link of the hierarchy folds its subtree.

``graphpriv sanitize`` writes the same page next to every release (``explorer.html``). Here, first the
static matrix view of step 2 of Algorithm 2 on Ding & Farokhi's Fig. 1 example (003), then the live
page itself, embedded below (drag the slider; the arrow keys step through the merges).
"""

import graphpriv as gp
import graphpriv.viz as viz

jr, values = gp.datasets.paper_example()
r = gp.agglomerate(jr, "I*", 0.3)

ax = viz.plot_merge_matrix(r.trace, jr, 2)
ax.figure.set_size_inches(4.8, 3.4)

# %%
# The explorer. In a notebook it displays inline; ``explorer.save("explorer.html")`` writes the page.
explorer = viz.explore(r, jr)
explorer
