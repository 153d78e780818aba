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
    assert len(fig.axes[1].get_xticklabels()) == sum(1 for s in r.trace if s.position >= 0)
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
