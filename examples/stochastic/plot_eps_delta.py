"""
(ε, δ)-log-lift: Algorithm 1 of the watchdog paper
==================================================

Sadeghi, Ding & Rakotoarivelo (002), Algorithm 1. The plain watchdog merges every symbol whose
``|log-lift|`` exceeds ε, which can cost a lot of utility. Allowing a total mass δ of pairs above ε (and
never above ε̄), Algorithm 1 peels candidates off the merged block in order of the mass they spend,
while the budget lasts. The trace shows the normalised mutual information loss (NMIL) and the budget
Δ as each candidate is peeled: here 15 sensitive × 20 public values, ε = 1, δ = 0.01, ε̄ = 4 nats.
"""

import graphpriv as gp
import graphpriv.viz as viz

jd = gp.JointDistribution.random(15, 20, seed=0)
r = gp.watchdog_eps_delta(jd, 1.0, 0.01, 4.0)
print(r)

fig = viz.plot_eps_delta_trace(r)
fig.set_size_inches(5, 4.2)
