"""
Linear reduction of LDP and log-lift
====================================

Ding, Liu & Farokhi (000/001). Mixing the released Y with the identity, Y = X with probability 1 − α,
reduces the local differential privacy and log-lift leakage roughly linearly in α. The Markov kernel
(Lemma 1) and the optimal non-Markov kernel (LP (10), Propositions 1-2) reach the same privacy at very
different utility cost: here the utility loss H(X) − I(X; Y) against LDP(S → Y) on Example 1, α in (0, 1].
"""

import numpy as np

import graphpriv as gp
import graphpriv.viz as viz

jd = gp.paper000_example1()
sweep = gp.linear_reduction_sweep(jd, np.linspace(0.02, 1.0, 25))
print(sweep.head())

ax = viz.plot_reduction_tradeoff(sweep, "ldp", "mi_loss", xlabel="privacy: LDP(S → Y) (bits)",
                                 ylabel="utility loss: H(X) − I(X;Y) (bits)", title="Example 1, α in (0, 1]")
ax.figure.set_size_inches(4.8, 3.4)
