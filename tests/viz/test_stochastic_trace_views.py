"""Every merge view reads the traces of the privacy watchdog and of (eps, delta) log-lift partitioning
(Sadeghi, Ding & Rakotoarivelo, *On Properties and Optimization of Information-theoretic Privacy Watchdog*,
Theorem 1 and Algorithm 1) with the distribution they ran on -- or the joint range of its support -- as data:
``partition_at``, ``plot_merge_view``, ``plot_trace``, ``animate_trace`` and ``explore``, on the Hungarian table
(S = age, X = serum cholesterol, 154 values) and on a random distribution of 2,000 public symbols. The views name
the measures the trace names and show each step's criterion; none knows which mechanism made the trace.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv.errors import InputError, InputTypeError  # noqa: E402

pytestmark = pytest.mark.usefixtures("close_figures")


@pytest.fixture(scope="module")
def hungarian():
    jd = gp.JointDistribution.from_range(gp.datasets.hungarian_range())
    return jd, gp.watchdog(jd, 1.0), gp.watchdog_eps_delta(jd, 1.0, 0.1)


@pytest.fixture(scope="module")
def large():
    jd = gp.JointDistribution.random(12, 2000, "dirichlet", seed=1)
    return jd, gp.watchdog(jd, 1.0), gp.watchdog_eps_delta(jd, 1.0, 0.05)


def _texts(fig) -> str:
    return " ".join(t.get_text() for ax in fig.axes for t in ax.texts) + " " + " ".join(
        ax.get_xlabel() + " " + ax.get_ylabel() for ax in fig.axes)


def test_data_argument_is_normalised(hungarian):
    jd, w, r = hungarian
    support = gp.viz.as_trace_range(w.trace, jd)
    assert isinstance(support, gp.JointRange) and support.n_public == 154 and support.matrix.nnz == 281
    assert gp.viz.as_trace_range(w.trace, jd.support()) is not None
    with pytest.raises(InputTypeError, match="JointRange or JointDistribution"):
        gp.viz.plot_merge_view(w.trace, jd.P)
    other = gp.JointDistribution.random(3, 154, seed=0)          # labels x1..x154, not cholesterol values
    with pytest.raises(InputError, match="public labels"):
        gp.viz.plot_merge_view(w.trace, other)
    zero = gp.JointDistribution([[0.5, 0.0, 0.25], [0.25, 0.0, 0.0]])
    with pytest.raises(InputError, match="drop_zero_mass"):
        gp.viz.plot_merge_view(gp.watchdog(zero, 0.1).trace, zero)
    # a mechanism's result stands for its trace
    fig = gp.viz.plot_merge_view(w, jd, 3)
    assert fig.get_suptitle().startswith("$t=3$")


@pytest.mark.parametrize("which", ["watchdog", "eps-delta"])
def test_merge_view_and_plot_trace_on_hungarian(hungarian, which):
    jd, w, r = hungarian
    tr = w.trace if which == "watchdog" else r.trace
    assert tr.partition_at() == tr.quantization()
    for data in (jd, jd.support()):
        fig = gp.viz.plot_merge_view(tr, data, 40)
        text = _texts(fig)
        names = gp.viz.measure_names(tr)
        assert names["privacy"] in text and names["utility"] in text
        why = tr.step_criteria[40]["decision"]
        assert why.split(":")[0] in text                      # the step's reason, beside the matrix
    fig = gp.viz.plot_trace(tr, jd)
    gids = {ln.get_gid() for ax in fig.axes for ln in ax.get_lines()}
    assert {"graphpriv-measure-privacy", "graphpriv-measure-utility", "graphpriv-measure-criterion"} <= gids
    assert names["criterion"] in _texts(fig)
    crit_ax = next(ax for ax in fig.axes for ln in ax.get_lines() if ln.get_gid() == "graphpriv-measure-criterion")
    y = next(ln for ln in crit_ax.get_lines() if ln.get_gid() == "graphpriv-measure-criterion").get_ydata()
    assert np.isfinite(np.asarray(y, dtype=float)[1:]).all()     # ∞ drawn on a line, not dropped


def test_animation_of_a_watchdog_trace(hungarian, tmp_path):
    from PIL import Image

    jd, w, _ = hungarian
    out = gp.viz.animate_trace(w.trace, jd, tmp_path / "watchdog.gif", steps=[0, 1, 2, 40, 154])
    assert Image.open(out).n_frames == 5


@pytest.mark.parametrize("which", ["watchdog", "eps-delta"])
def test_explorer_shows_the_criterion(hungarian, which):
    pytest.importorskip("bokeh")
    jd, w, r = hungarian
    tr = w.trace if which == "watchdog" else r.trace
    ex = gp.viz.explore(w if which == "watchdog" else r, jd)
    d = ex.data
    assert d["meta"]["criterion"] == tr.info["criterion"]
    assert d["meta"]["privacy_label"].startswith(tr.info["privacy_measure"])
    assert len(d["series"]["criterion"]) == len(tr)
    for t in (1, 2, len(tr) - 1):
        assert d["steps"][t]["why"] == tr.step_criteria[t]["decision"]
        assert d["steps"][t]["candidates"]["rows"] == []            # no ΔL ranking for these traces
    assert ("ε = 1" in d["steps"][2]["why"]) and (which == "watchdog" or "δ spent" in d["steps"][2]["why"])
    assert d["steps"][-1]["status"] == "released" and d["steps"][-1]["title"].endswith("released")
    html = ex.to_html()
    assert "Why this step" in html


def test_every_view_on_2000_symbols(large, tmp_path):
    pytest.importorskip("bokeh")
    jd, w, r = large
    for tr in (w.trace, r.trace):
        t = min(10, len(tr) - 1)
        assert len(gp.viz.plot_merge_view(tr, jd, t).axes) >= 4
        assert len(gp.viz.plot_trace(tr, jd).axes) >= 4
        ex = gp.viz.explore(tr, jd)
        assert ex.data["meta"]["n_public"] == 2000 and len(ex.data["steps"]) == len(tr)
        out = gp.viz.animate_trace(tr, jd, tmp_path / f"{tr.objective}.gif", steps=[0, t])
        assert out.stat().st_size > 0
    assert len(w.trace.partition_at(eps=2.0)) > len(w.trace.quantization())


def test_step_why_falls_back_to_the_main_criterion():
    step_why = gp.viz.step_why
    jd = gp.JointDistribution([[0.3, 0.1, 0.1], [0.1, 0.1, 0.3]])
    steps = [gp.DistributionStep(), gp.DistributionStep(((0, 2),), 0.2, 0.9, {"gain": 0.8})]
    tr = gp.distribution_trace(jd, steps, objective="privacy funnel", privacy_measure="I(S;Y)",
                               utility_measure="I(X;Y)", criterion="gain", base=2)
    assert step_why(tr, 1) == "gain = 0.8" and step_why(tr, 0) == ""
    assert gp.viz.measure_names(tr) == {"privacy": "I(S;Y) (bits)", "utility": "I(X;Y) (bits)", "criterion": "gain"}
