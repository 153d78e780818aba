"""
The privacy watchdog
====================

Sadeghi, Ding & Rakotoarivelo (002), Theorem 1. The log-lift i(s, x) = log p(s|x)/p(s) of every pair
says how much seeing x changes the odds of s. The watchdog publishes the public symbols whose largest
|log-lift| is at most ε (the set X_ε) and merges the rest into one block, released through the optimal
X-invariant randomisation. Here ε = 0.8 nats on Example 1 of Ding, Liu & Farokhi (000/001): a and d are
published, b and c merged. Left: the log-lift matrix; right: after the watchdog.
"""

import matplotlib.pyplot as plt

import graphpriv as gp
import graphpriv.viz as viz

jd = gp.paper000_example1()
w = gp.watchdog(jd, eps=0.8)
print(w)
print("published", list(w.X_eps), "merged", list(w.X_eps_c), f"eps_eff = {w.eps_eff:.3f}, NMIL = {w.nmil:.3f}")

fig, (a, b) = plt.subplots(1, 2, figsize=(7, 2.8), layout="constrained")
viz.plot_log_lift_matrix(jd, ax=a, title="log-lift i(s, x) (nats)")
viz.plot_log_lift_matrix(jd, ax=b, randomized=w, title="after the watchdog, ε = 0.8")
