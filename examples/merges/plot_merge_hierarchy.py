"""
The merge hierarchy as a dendrogram
===================================

A merge trace is a hierarchy: row t of scipy's linkage matrix is the pair merged at step t.
:meth:`graphpriv.MergeTrace.to_linkage` exports it, so scipy's ``dendrogram`` and ``fcluster`` read
graphpriv's traces, and :func:`graphpriv.viz.plot_merge_hierarchy` draws it (truncated where the tree is
deep, so a chain of a thousand merges still draws). Here Section V-C of Ding & Farokhi (003), which
merges until G_X is connected (I* = 0), on the 153 cholesterol values of the Hungarian data.
"""

import graphpriv as gp
import graphpriv.viz as viz

jr = gp.datasets.hungarian_range(missing="drop")
r = gp.agglomerate(jr, "L0|I*=0", 2.3)
print(r.trace.to_linkage()[:5])

ax = viz.plot_merge_hierarchy(r.trace)
ax.figure.set_size_inches(7, 3.2)
