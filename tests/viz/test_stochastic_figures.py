"""Figures of papers 002 and 000/001 (issue 5): quick builds, manifest entries, plot functions."""

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv.reproduce import build_all, registry  # noqa: E402
from graphpriv.viz import stochastic as vs  # noqa: E402

EXPECTED = {
    "paper002_fig1_tightness": "Fig. 1",
    "paper002_fig2_nmil_cdf": "Fig. 2",
    "paper002_alg1_trace": "Algorithm 1 (trace)",
    "paper002_sec4_critical_values": "Sec. IV",
    "paper000_fig1_privacy_vs_alpha": "Fig. 1",
    "paper000_fig2_tradeoff_ldp": "Fig. 2",
    "paper000_fig3_tradeoff_distortion": "Fig. 3",
    "paper000_fig4_losses_vs_alpha": "Fig. 4",
    "paper000_ex1_transport_plans": "Example 1 (transport graphs)",
}


def test_registered_with_errata():
    specs = {s.name: s for s in registry()}
    for name, number in EXPECTED.items():
        assert name in specs and specs[name].figure == number
    assert "red curve" in specs["paper002_fig1_tightness"].erratum
    assert "do not reproduce" in specs["paper000_fig2_tradeoff_ldp"].erratum
    for name in EXPECTED:      # a '|' would break the manifest's markdown table
        assert "|" not in specs[name].shows and "|" not in specs[name].erratum, name


def test_quick_build_writes_files_and_manifest(tmp_path):
    built = build_all(tmp_path, only=["paper002", "paper000"], quick=True, formats=("png",))
    assert {s.name for s in built} == set(EXPECTED)
    for name in EXPECTED:
        assert (tmp_path / f"{name}.png").stat().st_size > 5000
    manifest = (tmp_path / "README.md").read_text()
    assert "paper002_fig2_nmil_cdf.png" in manifest and "ref. [9]" in manifest


def test_plot_functions_return_axes():
    mc = gp.watchdog_monte_carlo(40, seed=0, batch_size=20)
    ax = vs.plot_watchdog_tightness(mc)
    assert len(ax.get_lines()) >= 2
    ax = vs.plot_nmil_cdf(mc)
    assert len(ax.get_lines()) == 5 and ax.get_xlabel().startswith("NMIL")
    jd = gp.JointDistribution.random(4, 6, seed=1)
    w = gp.watchdog(jd, 0.3)
    ax = vs.plot_log_lift_matrix(jd, randomized=w.randomized)
    assert len(ax.patches) == int(w.randomized.sum())
    ax = vs.plot_critical_sweep(gp.critical_sweep(jd))
    assert ax.get_xlabel().startswith("threshold")
    r = gp.watchdog_eps_delta(gp.JointDistribution.random(15, 20, seed=0), 1.0, 0.01, 4.0)
    fig = vs.plot_eps_delta_trace(r)
    assert len(fig.axes) == 2
    assert len(fig.axes[1].get_xticklabels()) == sum(1 for s in r.peel_steps if s.position >= 0)
    df = gp.linear_reduction_sweep(gp.paper000_example1(), np.linspace(0.1, 1, 5))
    assert len(vs.plot_reduction_privacy(df).get_lines()) == 4
    assert len(vs.plot_reduction_losses(df).get_lines()) == 4
    assert len(vs.plot_reduction_tradeoff(df, "ldp", "tv").get_lines()) == 2
    m = gp.linear_reduction(gp.paper000_example1(), 0.5, "optimal")
    ax = vs.plot_transport_plan(m, 1)
    # s = 1: kept mass on a, b, c, d (4 horizontal edges) + 3 shipped flows (c->a, c->b, d->b)
    assert len(ax.get_lines()) == 7
    with pytest.raises(gp.InputError):
        vs.plot_transport_plan(gp.linear_reduction(gp.paper000_example1(), 0.5), 1)
    plt.close("all")


def test_ecdf_values():
    ax = vs.plot_ecdf([3.0, 1.0, 2.0, math.nan])
    x, y = ax.get_lines()[0].get_data()
    np.testing.assert_allclose(x, [1, 1, 2, 3])
    np.testing.assert_allclose(y, [0, 1 / 3, 2 / 3, 1])
    plt.close("all")


def test_critical_sweep_twin_zeros_aligned_and_identity_in_legend():
    """Paper 002, Sec. IV view: the abs-log-lift axis and the NMIL axis put their zeros at the same height, and
    the identity line has a legend key."""
    from graphpriv.mechanisms.stochastic import critical_sweep
    from graphpriv.reproduce.paper002 import _demo_P

    ax = vs.plot_critical_sweep(critical_sweep(_demo_P()))
    ax.figure.draw_without_rendering()
    ax2 = next(a for a in ax.figure.axes if a is not ax)
    y0 = ax.transData.transform([(0, 0)])[0, 1]
    y1 = ax2.transData.transform([(0, 0)])[0, 1]
    assert abs(y0 - y1) < 0.01
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(t.startswith("identity") for t in texts) and "NMIL" in texts
    plt.close("all")


def test_transport_plan_key_matches_the_drawing():
    """Papers 000/001, Example 1: the key is drawn with the plan's own colours (the old caption named colours the
    drawing did not use); one figure-level key serves both panels."""
    from matplotlib.colors import same_color

    from graphpriv.mechanisms.stochastic import linear_reduction, paper000_example1

    mech = linear_reduction(paper000_example1(), 0.5, scheme="optimal")
    ax = vs.plot_transport_plan(mech, 1)
    keys = {t.get_text(): h for t, h in zip(ax.get_legend().get_texts(), ax.get_legend().legend_handles)}
    sender = next(h for k, h in keys.items() if k.startswith("sender"))
    shipped = next(h for k, h in keys.items() if k.startswith("shipped"))
    kept = keys["kept mass"]
    senders = [c for c in ax.collections if same_color(c.get_facecolor()[0], sender.get_color())]
    assert len(senders) == 2                          # s = 1: c and d send, drawn in the key's colour
    slanted = [ln for ln in ax.get_lines() if ln.get_ydata()[0] != ln.get_ydata()[1]]
    flat = [ln for ln in ax.get_lines() if ln.get_ydata()[0] == ln.get_ydata()[1]]
    assert slanted and all(same_color(ln.get_color(), shipped.get_color()) for ln in slanted)
    assert flat and all(same_color(ln.get_color(), kept.get_color()) for ln in flat)
    assert not [t for t in ax.texts if any(w in t.get_text() for w in ("red", "pink"))]
    spec = next(s for s in registry() if s.name == "paper000_ex1_transport_plans")
    fig = spec.build(quick=True)
    assert len(fig.legends) == 1 and all(a.get_legend() is None for a in fig.axes)
    assert "red" not in spec.shows and "vermilion" in spec.shows
    plt.close("all")
