"""Section V-C (problem (10)) over the Contraction state: identical trajectories to the plain reference
(tests/reference_agglomerative.py) under both utilities and both tie rules, on instances large enough
that the pruned search (pairs of special clusters first, non-special pairs only when they can win) and
its full-search fallback are both exercised."""

import os
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp

sys.path.insert(0, os.path.dirname(__file__))
from reference_agglomerative import ref_from_range  # noqa: E402
from test_mechanisms_agglomerative import _fast_steps, _same  # noqa: E402


@st.composite
def vc_instances(draw):
    n_x = draw(st.integers(8, 18))
    n_s = draw(st.integers(n_x // 2, 2 * n_x))
    sens, pub = [], []
    for j in range(n_x):
        for s in draw(st.lists(st.integers(0, n_s - 1), min_size=1, max_size=2, unique=True)):
            sens.append(s)
            pub.append(j)
    jr = gp.JointRange.from_pairs(sens, pub)
    vals = {x: draw(st.integers(0, 12)) / 4 for x in jr.public_labels.tolist()}
    return jr, vals


@settings(max_examples=30, deadline=None)
@given(vc_instances(), st.sampled_from([0.0, 0.3, 2.0]), st.sampled_from(["U1", "U2"]), st.sampled_from(["paper", "index"]))
def test_section_vc_matches_reference(inst, lam, util, rule):
    jr, vals = inst
    values = vals if util == "U2" else None
    _same(_fast_steps(jr, "L0|I*=0", util, values, lam, rule), ref_from_range(jr, values).problem10(lam, rule), lam)
