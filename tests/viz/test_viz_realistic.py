"""The matplotlib merge views on realistic public tables (:mod:`realistic_tables`, seeded): a measurement
of 600 floats of mixed precision and 2,700 place names. Collapsed bands state their true range, labels
never cut inside a number, small panels stay legible (Ding & Farokhi, *Developing Non-Stochastic
Privacy-Preserving Policies Using Agglomerative Clustering*, Algorithms 1 and 2)."""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
import realistic_tables as rt  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv.viz.labels import band_range, elide_value  # noqa: E402

pytestmark = pytest.mark.usefixtures("close_figures")


@pytest.fixture(scope="module")
def measurement(tmp_path_factory):
    t = rt.measurement_table(tmp_path_factory.mktemp("measurement"))
    return t, gp.read_joint_range(t.path, t.s, t.x), pd.read_csv(t.path)[t.x]


def _texts(fig) -> list[str]:
    fig.canvas.draw()
    return [x.get_text() for ax in fig.axes for x in [*ax.get_xticklabels(), *ax.texts]]


def test_band_range_is_min_and_max_for_numbers_and_label_order_for_text():
    assert band_range([52.0, 3.1, 60.0, 10.25]) == (3.1, 60.0)
    assert band_range(["Wick", "Aachen", "Mar"]) == ("Aachen", "Wick")
    with pytest.raises(ValueError):
        band_range([])


def test_elide_value_never_cuts_a_number():
    assert elide_value("58.8581", 3) == "58.8581"
    assert elide_value("1,234.5", 3) == "1,234.5"
    assert "…" in elide_value("Kalobersted Hamvilleburgford", 10)


def test_collapsed_band_of_the_measurement_states_its_range(measurement):
    """No merge (Algorithm 1 at λ = 1): the one collapsed band of plot_trace and plot_merge_view is labelled with
    the smallest and the largest of the 600 measurements, not the first and last column drawn."""
    t, jr, values = measurement
    trace = gp.agglomerate(jr, "L0", 1.0).trace
    for fig in (gp.viz.plot_trace(trace, jr), gp.viz.plot_merge_view(trace, jr, 0)):
        found = [s for s in _texts(fig) if re.fullmatch(rf"\[{t.n_public}: .+\]", s)]
        assert len(found) == 1, found
        lo, hi = (float(v) for v in re.fullmatch(r"\[\d+: (.+)–(.+)\]", found[0]).groups())
        assert (lo, hi) == (values.min(), values.max())
