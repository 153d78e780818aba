"""
The privacy polytope of perfect sample privacy
==============================================

Rassouli, Rosas & Gündüz (004), Example 2 and Fig. 2. A disclosure Y of n samples X^n has *perfect sample
privacy* when Y is independent of every single sample X_k, yet it may reveal much about a latent W. The
admissible conditionals ``p(x^n | y)`` form a polytope (its coordinates: the null space of the sample
hypergraph's incidence matrix P); the optimal disclosure (Algorithms 1-2) is a mixture of its vertices.
Here Example 2: two samples, X_1 binary and X_2 ternary, seen by W through a binary symmetric and a binary
erasure channel; the polytope is a quadrilateral.
"""

import numpy as np

import graphpriv as gp
import graphpriv.viz as viz

p = np.array([[1, 3, 2], [2, 3, 1]]) / 12                      # P(X1 = i, X2 = j)
w_given_x = np.array([[1, 1 / 3, 0, 1, 2 / 3, 0],               # P(W = w | x1, x2), x flattened
                      [0, 2 / 3, 1, 0, 1 / 3, 1]])
result = gp.synergistic_disclosure(w_given_x, p)
print(result)

ax = viz.plot_privacy_polytope(result, title=f"Example 2: $I_s(W, X^2)$ = {result.value:.3f} bits")
ax.figure.set_size_inches(4.2, 3.8)
