"""
The confusability graph and I*
==============================

Ding & Farokhi (003), Fig. 2. The joint range [[S, X]] of the paper's running example (Fig. 1) has
seven public values; two are *confusable* when they share a sensitive value. The confusability graph
G_X has five connected components, so the maximin information is I*(S; X) = log2 5 bits: that much
of S is revealed by X with certainty (Definition 1, Lemma 2).

graphpriv never builds G_X densely to get I*: the components of the bipartite support graph give the
same partition in time linear in the number of (s, x) pairs.
"""

import graphpriv as gp
import graphpriv.viz as viz

jr, values = gp.datasets.paper_example()
print(jr)
print("I*(S;X) =", round(gp.maximin_information(jr), 4), "bits")
print("finest decomposition:", gp.finest_decomposition(jr))

ax = viz.plot_confusability(jr)
ax.figure.set_size_inches(4.5, 3.6)
