"""
Decomposability: min cuts and network strength
==============================================

Ding & Farokhi (003), Section IV. I*(S; X) > 0 exactly when G_X is decomposable, i.e. its global min cut
is 0. When it is connected, the min cut says how many edges an attacker would have to remove to split it,
and the *network strength* (Cunningham's attack problem) the cheapest cost per new component. On the
largest component of the Hungarian data's G_X, the min cut is drawn with its two sides.
"""

import numpy as np

import graphpriv as gp
import graphpriv.viz as viz

jr = gp.datasets.hungarian_range()
comp = np.asarray(gp.components(jr).public)
big = np.bincount(comp).argmax()
largest = jr.restrict(public=[x for x, k in zip(jr.public_labels.tolist(), comp) if k == big])

cut = gp.min_cut(largest)
print(f"G_X: {gp.n_components(jr)} components, I* = {gp.maximin_information(jr):.3f} bits")
print(f"largest component: {largest.n_public} values, min cut {cut.value}")
strength = gp.network_strength(largest)
print(f"network strength {strength.value:g} (parts: {[len(p) for p in strength.partition]})")

ax = viz.plot_min_cut(largest, cut, title=f"Largest component of G_X ({largest.n_public} values): a min cut")
ax.figure.set_size_inches(5.5, 4.2)
