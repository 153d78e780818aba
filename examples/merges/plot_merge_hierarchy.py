"""
The merge hierarchy as a dendrogram
===================================

A merge trace is a hierarchy: row t of scipy's linkage matrix is the pair merged at step t.
:meth:`graphpriv.MergeTrace.to_linkage` exports it, so scipy's ``dendrogram`` and ``fcluster`` read
graphpriv's traces, and :func:`graphpriv.viz.plot_merge_hierarchy` draws it (truncated where the tree is
deep, so a chain of a thousand merges still draws). Here Algorithm 1 of Ding & Farokhi (003) with U2 =
−(largest distortion) at λ = 0, on the 153 cholesterol values of the Hungarian data, cut at step 3.
"""

from scipy.cluster.hierarchy import fcluster

import graphpriv as gp
import graphpriv.viz as viz

jr = gp.datasets.hungarian_range(missing="drop")
values = {x: float(x) for x in jr.public_labels.tolist()}
r = gp.agglomerate(jr, "L0", 0.0, utility="U2", values=values)
Z = r.trace.to_linkage()
print(Z[:3])
print("clusters after the last merge:", len(set(fcluster(Z, t=len(r.trace) - 1, criterion="distance"))))

ax = viz.plot_merge_hierarchy(r.trace, 3)
ax.figure.set_size_inches(7.5, 3.4)
