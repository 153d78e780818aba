"""gp.stochastic_measures: the stochastic measures of a table's empirical distribution, from its counts,
checked against a plain dense numpy recomputation and the papers' numbers."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp


def dense_reference(C: np.ndarray, eps: float, base: float) -> dict:
    """Every measure from the dense count matrix, by the definitions (Sadeghi, Ding & Rakotoarivelo, Sec. I,
    eqs. (4), (5), (9); Ding, Liu & Farokhi eq. (1)), with plain numpy."""
    C = C[C.sum(axis=1) > 0][:, C.sum(axis=0) > 0]
    P = C / C.sum()
    ps, px = P.sum(axis=1), P.sum(axis=0)
    lnb = math.log(base)
    with np.errstate(divide="ignore"):
        I = np.log(P / np.outer(ps, px)) / lnb
        cond = P / ps[:, None]
        ldp = float(np.max(np.log(cond.max(axis=0)) - np.log(cond.min(axis=0)))) / lnb
    eps_x = np.abs(I).max(axis=0)
    above = eps_x > eps + 1e-12
    m = P > 0
    mi = float((P[m] * np.log(P[m] / np.outer(ps, px)[m])).sum()) / lnb
    ml = float(np.log(cond.max(axis=0).sum())) / lnb
    hx = -(px * np.log(px)).sum()
    pb = px[above].sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        nmil = (pb * np.log(pb) - (px[above] * np.log(px[above])).sum()) / hx if pb > 0 else 0.0
    nmil = nmil if hx > 0 or pb == 0 else math.nan
    return {"max_log_lift": I.max(), "min_log_lift": I.min(), "max_abs_log_lift": eps_x.max(), "n_above_eps": int(above.sum()),
            "mass_above_eps": pb, "mutual_information": mi, "maximal_leakage": ml, "ldp": ldp, "nmil": nmil}


def _close(a, b) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


@settings(max_examples=40)
@given(st.integers(1, 4), st.integers(1, 6), st.integers(0, 10**6), st.sampled_from([math.e, 2.0]),
       st.floats(0.0, 3.0), st.booleans())
def test_equals_a_dense_recomputation(n_s, n_x, seed, base, eps, zeros):
    rng = np.random.default_rng(seed)
    C = rng.integers(1, 20, size=(n_s, n_x)).astype(float)
    if zeros:
        C[rng.random(C.shape) < 0.3] = 0
    if C.sum() == 0:
        C[0, 0] = 1
    m = gp.stochastic_measures(sp.csr_array(C), eps, base=base)
    ref = dense_reference(C, eps, base)
    for k, v in ref.items():
        assert _close(getattr(m, k), float(v)), (k, getattr(m, k), v)
    assert (m.ldp_reason is None) == math.isfinite(m.ldp)


def test_paper000_example1_in_bits():
    """Ding, Liu & Farokhi, Example 1: L^LDP(S -> X) = log2 5, L^LL(S -> X) = log2 2.4."""
    m = gp.stochastic_measures(gp.paper000_example1(), eps=1.0, base=2)
    assert m.ldp == pytest.approx(math.log2(5))
    assert m.max_abs_log_lift == pytest.approx(math.log2(2.4))
    assert m.mutual_information == pytest.approx(gp.mutual_information(gp.paper000_example1()))


def test_agrees_with_the_package_measures_and_the_watchdog():
    jd = gp.JointDistribution.random(6, 40, seed=4)
    m = gp.stochastic_measures(jd, 0.3)
    assert m.ldp == pytest.approx(gp.ldp(jd, base=math.e))
    assert m.maximal_leakage == pytest.approx(gp.maximal_leakage(jd, base=math.e))
    w = gp.watchdog(jd, 0.3)
    assert m.nmil == pytest.approx(w.nmil)
    assert m.watchdog_eps_c == pytest.approx(w.eps_c)
    assert m.n_above_eps == int(w.randomized.sum())


def test_from_a_table_read_streamed(tmp_path):
    """A JointRange read from a file: counts over rows, never materialised; equals the frame's pmf."""
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"s": rng.choice(list("abc"), 500), "x": rng.integers(0, 30, 500)})
    df.loc[df.s == "a", "x"] = df.loc[df.s == "a", "x"] % 10          # some x never seen with a
    path = tmp_path / "t.csv"
    df.to_csv(path, index=False)
    jr = gp.read_joint_range(path, sensitive="s", public="x")
    m = gp.stochastic_measures(jr, 1.0)
    C = pd.crosstab(df.s, df.x).to_numpy().astype(float)
    ref = dense_reference(C, 1.0, math.e)
    for k, v in ref.items():
        assert _close(getattr(m, k), float(v)), k
    assert m.ldp == math.inf and "never occurs with the sensitive value" in m.ldp_reason
    d = m.to_dict(json_safe=True)
    assert d["ldp"] == "Infinity" and d["unit"] == "nats"


def test_bad_input_is_a_clear_error():
    with pytest.raises(gp.InputError, match="eps"):
        gp.stochastic_measures(gp.paper000_example1(), -1)
    with pytest.raises(gp.InputError, match="sum to 0"):
        gp.stochastic_measures(np.zeros((2, 2)))
    with pytest.raises(gp.InputTypeError):
        gp.stochastic_measures("table.csv")
