"""
Merges on a real table: the merge view
======================================

The Hungarian heart-disease data (Janosi et al., UCI 1989): S = age (37 values), X = serum cholesterol
(153 values once the rows without one are dropped). Algorithm 1 of Ding & Farokhi (003) lowers
L0(S → X̂), the most any released value reveals about S, by merging values.

At this size a node-link drawing is unreadable, so :func:`graphpriv.viz.plot_merge_view` picks the
matrix and hierarchy views: at step t the merged clusters and their neighbours are drawn in full, the
rest is folded into labelled bands. The view's shape does not depend on the number of values.
"""

import graphpriv as gp
import graphpriv.viz as viz

jr = gp.datasets.hungarian_range(missing="drop")
r = gp.agglomerate(jr, "L0", 0.0)
print(f"{jr.n_public} values, {len(r.trace) - 1} merge steps; L0 from {r.trace.steps[0].privacy:.3f} "
      f"to {r.privacy:.3f} bits")

fig = viz.plot_merge_view(r.trace, jr, 1)
