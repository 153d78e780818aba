"""
The privacy watchdog
====================

Sadeghi, Ding & Rakotoarivelo (002), Theorem 1. The log-lift ``i(s, x) = log p(s|x)/p(s)`` of every pair
says how much seeing x changes the odds of s. The watchdog publishes the public symbols whose largest
``|log-lift|`` is at most ε (the set X_ε) and merges the rest into one block, released through the optimal
X-invariant randomisation. Here ε = 0.8 nats on Example 1 of Ding, Liu & Farokhi (000/001): a and d are
published, b and c merged. Left: the log-lift matrix with the merged block outlined; right: the watchdog at
every critical threshold, where X_ε changes (Section IV).
"""

import matplotlib.pyplot as plt

import graphpriv as gp
import graphpriv.viz as viz

jd = gp.paper000_example1()
w = gp.watchdog(jd, eps=0.8)
print(w)
print("published", list(w.X_eps), "merged", list(w.X_eps_c), f"eps_eff = {w.eps_eff:.3f}, NMIL = {w.nmil:.3f}")

with viz.style_context():                     # graphpriv's figure style (font sizes of the papers' figures)
    fig, (a, b) = plt.subplots(1, 2, figsize=(7, 2.8), layout="constrained")
    viz.plot_log_lift_matrix(jd, ax=a, randomized=w.randomized, title="log-lift i(s, x); merged at ε = 0.8")
    viz.plot_critical_sweep(gp.critical_sweep(jd), ax=b)
    b.set_title("")                               # the legend above the panel says what it shows
