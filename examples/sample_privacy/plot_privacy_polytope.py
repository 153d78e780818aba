"""
The privacy polytope of perfect sample privacy
==============================================

Rassouli, Rosas & Gündüz (004), Fig. 2. A disclosure Y of n samples X^n has *perfect sample privacy* when
Y is independent of every single sample X_k, yet may reveal a lot about a latent W. The admissible
conditionals p_{X^n|y} form a polytope; the optimal disclosure (Algorithms 1-2) picks its vertices.
Two binary samples with P(X = (0,0), (0,1), (1,0), (1,1)) = (0.2, 0.2, 0.5, 0.1): for W = X_1 ⊕ X_2 the
synergistic disclosure I_s is the mutual information of the best such Y.
"""

import numpy as np

import graphpriv as gp
import graphpriv.viz as viz

alpha, beta, r = 0.4, 0.7, 0.2
p = np.array([alpha - r, r, beta - alpha + r, 1 - beta - r]).reshape(2, 2)
w = np.array([[1, 0, 0, 1], [0, 1, 1, 0]], dtype=float)      # W = X1 xor X2
result = gp.synergistic_disclosure(w, p)
print(result)

ax = viz.plot_privacy_polytope(result, title=f"$W = X_1 \\oplus X_2$: $I_s$ = {result.value:.3f} bits")
ax.figure.set_size_inches(4, 3.6)
