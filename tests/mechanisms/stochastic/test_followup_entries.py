"""The follow-up mechanisms as registry entries: run, figures, and audits recomputed from a table's counts."""

from __future__ import annotations

import math
import types
from dataclasses import dataclass

import numpy as np
import pytest

import graphpriv as gp
from graphpriv.mechanisms.stochastic import followup_entries as fe


def _counts(seed=1, n_s=4, n_x=9):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 6, size=(n_s, n_x)) + (rng.random((n_s, n_x)) < 0.7) * rng.integers(1, 20, size=(n_s, n_x))


def _partition_codes(result):
    index = {lab: i for i, lab in enumerate(result.public_labels.tolist())}
    return [[index[v] for v in b] for b in result.partition if len(b) > 1]


def test_release_measures_by_hand():
    C = np.array([[2, 0, 1], [1, 3, 1]])
    g = fe.release_measures(C, [[0, 2]], base=2)
    P = C / C.sum()
    Q = np.stack([P[:, [0, 2]].sum(1), P[:, 1]], axis=1)
    py, ps = Q.sum(0), Q.sum(1)
    nz = Q > 0
    I = float((Q[nz] * np.log2(Q[nz] / np.outer(ps, py)[nz])).sum())
    assert g["I_S_Y"] == pytest.approx(I)
    assert g["I_X_Y"] == pytest.approx(float(-(py * np.log2(py)).sum()))
    assert math.isinf(g["max_abs_log_lift"])                 # (s1, x2) has no row


@pytest.mark.parametrize("name, options", [
    ("funnel", {"lam": 0.4, "method": "greedy", "lagrangian": "funnel", "base": "2"}),
    ("funnel", {"lam": 0.4, "method": "subset", "lagrangian": "funnel", "base": "e"}),
    ("funnel", {"lam": 3.0, "method": "subset", "lagrangian": "bottleneck", "base": "2"}),
    ("watchdog-subset", {"eps": 0.8, "base": "e"}),
    ("alpha-watchdog", {"eps": 0.3, "alpha": math.inf, "base": "e"}),
    ("alpha-watchdog", {"eps": 0.2, "alpha": 2.0, "base": "2"}),
])
def test_audit_of_the_mechanisms_own_partition_passes_and_a_tampered_one_fails(name, options):
    C = _counts()
    jd = gp.JointDistribution.from_counts(C)
    run, figures, audit = fe._FUNCTIONS[name]
    r = run(jd, options)
    f = figures(r, options)
    assert "guarantee" in f
    part = _partition_codes(r)
    got, problems = audit(r, options, C, part)
    assert problems == [], problems
    if name == "funnel":
        assert got["I_S_Y"] == pytest.approx(r.privacy) and got["I_X_Y"] == pytest.approx(r.utility)
    # tampered: publish every value as it is (the release the mechanism did not make)
    assert part, "every case here merges something"
    _, bad = audit(r, options, C, [])
    assert bad, f"{name}: an unmerged table passed the audit"


def test_register_builds_three_label_entries():
    @dataclass(frozen=True)
    class Opt:
        name: str
        type: type
        default: object
        help: str
        choices: tuple | None = None

    @dataclass(frozen=True)
    class Spec:
        name: str
        summary: str
        paper: str
        citation: str
        options: tuple
        release_kind: str
        guarantee: str
        run: object
        release: object = None
        figures: object = None
        audit: object = None

    seen = []
    required = object()
    reg = types.SimpleNamespace(MechanismOption=Opt, MechanismSpec=Spec, REQUIRED=required,
                                register_mechanism=lambda s: seen.append(s) or s, merge_release=lambda r, o: None)
    specs = fe.register(reg)
    assert [s.name for s in specs] == ["funnel", "watchdog-subset", "alpha-watchdog"] == [s.name for s in seen]
    assert all(s.release_kind == "labels" for s in specs)
    assert [o.name for o in specs[0].options] == ["lam", "method", "lagrangian", "base"]
    assert specs[1].options[0].default is required
    for s in specs:
        gp.cite(s.citation)                                  # every entry names a known citation
    # the registered audit reads an AuditContext-like object
    C = _counts()
    r = fe.subset_run(gp.JointDistribution.from_counts(C), {"eps": 0.8, "base": "e"})
    ctx = types.SimpleNamespace(result=r, options={"eps": 0.8, "base": "e"}, counts=C, partition=_partition_codes(r))
    assert specs[1].audit(ctx)[1] == []
