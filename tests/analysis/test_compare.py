"""gp.compare_mechanisms: every mechanism on one table, measured on common axes, cross-checked by hand."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv.errors import InputError, InputTypeError  # noqa: E402


def _xlogx(a):
    a = np.asarray(a, float)
    return np.where(a > 0, a * np.log(np.where(a > 0, a, 1.0)), 0.0)


@pytest.fixture(scope="module")
def small():
    jd = gp.JointDistribution.random(3, 7, seed=4)
    return jd, gp.compare_mechanisms(jd, funnel_lams=[0.0, 0.3, 0.6, 1.0])


def test_every_mechanism_has_one_row_and_sweeps(small):
    jd, cmp = small
    assert cmp.table["mechanism"].tolist() == list(gp.COMPARED_MECHANISMS)
    assert set(cmp.frontiers["mechanism"]) == set(gp.COMPARED_MECHANISMS)
    assert np.isfinite(cmp.frontiers["param"]).all()


def test_rows_match_the_mechanisms_own_numbers(small):
    jd, cmp = small
    t = cmp.table.set_index("mechanism")
    w = gp.watchdog(jd, 1.0, base=2)                 # the same ε = 1 nat, reported in bits
    w_e = gp.watchdog(jd, 1.0)
    assert t.loc["watchdog", "I_X_Xhat"] == pytest.approx(w_e.mutual_information / math.log(2), abs=1e-12)
    assert t.loc["watchdog", "max_abs_log_lift"] == pytest.approx(w_e.eps_eff / math.log(2), abs=1e-12)
    del w
    f = gp.privacy_funnel(jd, 0.5, "greedy")
    assert t.loc["privacy funnel, greedy", "I_S_Xhat"] == pytest.approx(f.privacy, abs=1e-12)
    assert t.loc["privacy funnel, greedy", "I_X_Xhat"] == pytest.approx(f.utility, abs=1e-12)
    lr = gp.linear_reduction(jd, 0.5)
    assert t.loc["linear reduction", "I_X_Xhat"] == pytest.approx(lr.mutual_information_xy, abs=1e-12)
    assert math.isnan(t.loc["linear reduction", "U1"])
    # the closed-form Markov release equals the mechanism's target P_{Y|S} (Lemma 1)
    Q = jd.p_s[:, None] * lr.target
    assert t.loc["linear reduction", "I_S_Xhat"] == pytest.approx(gp.mutual_information(Q), abs=1e-12)
    assert t.loc["linear reduction", "max_abs_log_lift"] == pytest.approx(gp.max_abs_log_lift(Q), abs=1e-9)
    s = gp.watchdog_subsets(jd, 1.0)
    assert t.loc["watchdog, subset merging", "I_X_Xhat"] == pytest.approx(s.mutual_information / math.log(2), abs=1e-12)


def test_measures_by_hand_on_one_partition():
    # a partition measured directly: I(S;X^), H(X^), max |log-lift|, I*, L0, U1
    P = np.array([[0.1, 0.2, 0.0, 0.1], [0.2, 0.0, 0.3, 0.1]])
    jd = gp.JointDistribution(P)
    from graphpriv.analysis.compare import _Measurer

    m = _Measurer(jd, 2.0).of_assignment(np.array([0, 0, 1, 2]))
    Q = np.stack([P[:, :2].sum(1), P[:, 2], P[:, 3]], axis=1)
    ps, py = Q.sum(1), Q.sum(0)
    I = float(_xlogx(Q).sum() - _xlogx(py).sum() - _xlogx(ps).sum()) / math.log(2)
    assert m["I_S_Xhat"] == pytest.approx(I)
    assert m["I_X_Xhat"] == pytest.approx(float(-_xlogx(py).sum()) / math.log(2))
    assert math.isinf(m["max_abs_log_lift"])                      # (s1, block {x3}) has probability 0
    jr_hat = gp.JointRange.from_pmf(Q)
    assert m["I_star"] == pytest.approx(gp.maximin_information(jr_hat))
    assert m["L0"] == pytest.approx(gp.L0(jr_hat))
    assert m["U1"] == pytest.approx(math.log2(4) - math.log2(2))


def test_data_processing_and_reference(small):
    jd, cmp = small
    ref = cmp.reference
    assert ref["I_S_Xhat"] == pytest.approx(gp.mutual_information(jd))
    fr = pd.concat([cmp.table, cmp.frontiers])
    assert (fr["I_S_Xhat"] <= ref["I_S_Xhat"] + 1e-12).all()
    assert (fr["I_X_Xhat"] <= ref["I_X_Xhat"] + 1e-12).all()
    assert (fr["I_star"] <= ref["I_star"] + 1e-12).all()


def test_report_section_and_csv(small, tmp_path):
    _, cmp = small
    md = cmp.to_markdown()
    rows = [ln for ln in md.splitlines() if ln.startswith("| ")]
    assert len(rows) == 2 + len(cmp.table)           # header, X itself, one per mechanism
    assert all(ln.replace("\\|", "").count("|") == 10 for ln in rows)   # an escaped '|' in a name keeps the columns
    cmp.to_csv(tmp_path / "c.csv")
    back = pd.read_csv(tmp_path / "c.csv")
    assert back["mechanism"].tolist() == cmp.table["mechanism"].tolist()


def test_inputs_dataframe_and_range():
    df = pd.DataFrame({"s": list("aabbcc") * 3, "x": [1, 2, 2, 3, 3, 1, 1, 1, 2, 3, 3, 3, 2, 2, 1, 1, 3, 2]})
    a = gp.compare_mechanisms(df, "s", "x", frontiers=False)
    jr = gp.JointRange.from_dataframe(df, sensitive="s", public="x")
    b = gp.compare_mechanisms(jr, frontiers=False)
    pd.testing.assert_frame_equal(a.table, b.table)
    assert len(a.frontiers) == 0


def test_bad_input():
    with pytest.raises(InputTypeError):
        gp.compare_mechanisms("not a table")
    with pytest.raises(InputError, match="sensitive"):
        gp.compare_mechanisms(pd.DataFrame({"s": [1], "x": [2]}))
    with pytest.raises(InputError, match="alpha_linear"):
        gp.compare_mechanisms(gp.JointDistribution.random(2, 3, seed=0), alpha_linear=0.0, frontiers=False)
    with pytest.raises(InputError, match="counts"):
        gp.compare_mechanisms(gp.JointRange.from_pmf([[0.5, 0.0], [0.0, 0.5]]), frontiers=False)


def test_figure_has_three_panels_and_every_mechanism_in_the_legend(small):
    import graphpriv.viz as viz

    _, cmp = small
    fig = viz.plot_mechanism_comparison(cmp)
    assert len(fig.axes) == 3
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert len(labels) == len(gp.COMPARED_MECHANISMS) + 1
    ax = viz.plot_watchdog_variants(cmp)
    assert len(ax.get_lines()) >= 4
    import matplotlib.pyplot as plt

    plt.close("all")
