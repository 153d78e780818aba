"""
The sample hypergraph H_n
=========================

Rassouli, Rosas & Gündüz (004), Table I. Perfect sample privacy constrains the joint distribution of n
samples only through their single-sample marginals: the outcomes x^n are the nodes of a hypergraph
H_n whose hyperedges are the sets {x^n : x_k = a}, one per sample k and value a. Its incidence matrix P
defines the privacy polytope. Here n = 3 binary samples: 8 outcomes, 6 hyperedges.
"""

import numpy as np

import graphpriv as gp
import graphpriv.viz as viz

p_w, p_x_given_w = np.array([2 / 3, 1 / 3]), np.array([[0.9, 0.1], [0.1, 0.9]])
pw, px = gp.iid_samples_model(p_w, p_x_given_w, 3)
hg = gp.SampleHypergraph.from_pmf(px)
print(hg)
print("I_s(W, X^3) =", round(gp.synergistic_disclosure(pw, px).value, 4), "bits")

ax = viz.plot_hyperedges(hg, title="$H_3$: 3 binary samples")
ax.figure.set_size_inches(5, 3.2)
