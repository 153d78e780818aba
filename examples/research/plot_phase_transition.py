"""
I* on random joint ranges: a phase transition
=============================================

How much does a random table reveal with certainty? :func:`graphpriv.ensemble_study` draws joint ranges in
which each (s, x) pair occurs with probability p and records I*, the number of components of G_X and its
strength. As p grows, I* falls from ``log2 |X|`` to 0 over a narrow band of densities: past it, G_X is
connected and the maximin information of Ding & Farokhi (003) is zero. ``n_jobs=`` or ``client=`` (dask)
run the draws in parallel with the serial result.
"""

import numpy as np

import graphpriv as gp
import graphpriv.viz as viz

study = gp.ensemble_study(60, 12, np.geomspace(0.005, 0.2, 12), n_samples=30, seed=0)
print(study)

ax = viz.plot_phase_transition(study)
ax.set_title(f"I* on random joint ranges, |S| = {study.n_sensitive}, |X| = {study.n_public}", fontsize=10)
ax.figure.set_size_inches(5, 3.4)
