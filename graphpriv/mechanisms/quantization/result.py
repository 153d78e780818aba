"""Results of the quantisation mechanisms: the returned quantisation, its trace and its release mapping.

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*:
a λ-run of Algorithm 1 or 2 returns Q(t-1) when step t has ΔL >= 0 (Q(t) when it ends on one cluster
or one component with ΔL < 0); Section V-C returns its last Q.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Iterable

import numpy as np
import pandas as pd

from ...errors import InputTypeError
from ..trace import MergeTrace, _groups
from ..utilities import _BoundU2
from .problem import _DL_TOL, _Problem, _Traj

__all__ = ["AgglomerationResult"]


@dataclass(frozen=True, eq=False)
class AgglomerationResult:
    """Result of a quantisation mechanism (paper 003).

    Attributes
    ----------
    quantization : list of frozenset
        The returned Q: clusters of public labels, ordered by cluster index (smallest member code).
    privacy : float
        L0(S → X̂) (objectives "L0", "L0|I*=0") or I*(S; X̂) (objective "I*"), in bits by default.
    utility : float
        U_i(X; X̂) of the returned Q.
    mapping : dict
        Public label -> released value: the cluster's codeword for U2 (centroid by default), the cluster
        number (0, 1, ... in index order) for U1.
    trace : MergeTrace
        Every step (see :class:`~graphpriv.MergeTrace`).
    objective, utility_name : str
    lam : float
    info : dict
        Algorithm name, tie rule, settings.
    """

    quantization: list
    privacy: float
    utility: float
    mapping: dict = field(repr=False)
    trace: MergeTrace = field(repr=False)
    objective: str = "L0"
    utility_name: str = "U1"
    lam: float = float("nan")
    info: dict = field(default_factory=dict, repr=False)

    @property
    def n_clusters(self) -> int:
        return len(self.quantization)

    @property
    def L(self) -> float:
        """Lagrangian privacy - λ·utility of the returned quantisation."""
        return self.privacy - self.lam * self.utility

    def transform(self, values: Iterable[Hashable], release: str | None = None, *, decimals: int | None = None):
        """Sanitise a column of public labels: replace every label by its released value.

        ``release``: ``"label"`` (default for U1: ``"[240, 260]"`` / ``"{132, 243}"``), ``"codeword"``
        (default for U2: the centroid rounded to ``decimals``, by default the precision of ``values``)
        or ``"id"`` (the cluster number of :attr:`mapping`); values alone in their cluster stay as they
        were. See :class:`graphpriv.Release`. A Series gives a Series (same index and name), an array an
        array, other iterables a list.

        Raises
        ------
        UnknownLabelError
            If a label is not a public label of the joint range the mechanism ran on.
        """
        from ...release import Release
        from ...release.labels import column_decimals

        if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
            raise InputTypeError("transform needs an iterable of public labels (list, array or pandas Series)")
        if not isinstance(values, (pd.Series, np.ndarray, list, tuple)):
            values = list(values)
        if decimals is None and self.utility_name == "U2":
            decimals = column_decimals(values)
        return Release.from_result(self, release, decimals=decimals).transform(values)

    def __repr__(self) -> str:
        q = ", ".join("{" + ",".join(map(str, sorted(c, key=str))) + "}" for c in self.quantization[:4])
        more = f", ... ({len(self.quantization)} clusters)" if len(self.quantization) > 4 else ""
        return (f"AgglomerationResult(objective={self.objective!r}, utility={self.utility_name!r}, lam={self.lam:g}, "
                f"privacy={self.privacy:.4f}, utility_value={self.utility:.4f}, quantization=[{q}{more}])")


def _returned_index(prob: _Problem, traj: _Traj, lam: float) -> tuple[int, list[bool]]:
    """Accepted flags and returned t of a λ-run on a (possibly longer) trajectory."""
    if prob.objective == "L0|I*=0":
        return len(traj) - 1, [True] * len(traj)
    acc = [True]
    for t in range(1, len(traj)):
        dl = (traj.priv[t] - traj.priv[t - 1]) - lam * (traj.util[t] - traj.util[t - 1])
        ok = dl < -_DL_TOL and len(traj.merges[t]) > 0
        acc.append(ok)
        if not ok:
            return t - 1, acc
    return len(traj) - 1, acc


def _build_trace(prob: _Problem, traj: _Traj, lam: float, upto: int | None = None) -> MergeTrace:
    returned, acc = _returned_index(prob, traj, lam)
    last = len(acc) - 1 if upto is None else upto
    priv = traj.priv[:last + 1]
    util = traj.util[:last + 1]
    L = [p - lam * u for p, u in zip(priv, util)]
    dL = [float("nan")] + [L[t] - L[t - 1] for t in range(1, len(L))]
    return MergeTrace(
        objective=prob.objective, utility=prob.utility_name, lam=float(lam), public_labels=tuple(prob.labels),
        components0=tuple(prob.comp0.tolist()), step_merges=tuple(traj.merges[:last + 1]), step_privacy=tuple(priv),
        step_utility=tuple(util), step_L=tuple(L), step_delta_L=tuple(dL), step_n_clusters=tuple(traj.ncl[:last + 1]),
        step_n_components=tuple(traj.ncomp[:last + 1]), step_accepted=tuple(acc[:last + 1]), returned=returned,
        base=prob.base, info=prob.info(),
    )


def _result_from_trace(prob: _Problem, trace: MergeTrace, t: int | None = None) -> AgglomerationResult:
    t = trace.returned if t is None else t
    ids = trace.cluster_ids(t)
    groups = _groups(ids)
    return _result_from_groups(prob, groups, trace, float(trace.step_privacy[t]), float(trace.step_utility[t]), trace.lam)


def _result_from_groups(prob, groups, trace, privacy, utility, lam) -> AgglomerationResult:
    labels = prob.labels
    quantization = [frozenset(labels[i] for i in g.tolist()) for g in groups]
    mapping = {}
    for k, g in enumerate(groups):
        cw = prob.ub.codeword(g) if isinstance(prob.ub, _BoundU2) else None
        val = k if cw is None else cw
        for i in g.tolist():
            mapping[labels[i]] = val
    return AgglomerationResult(quantization=quantization, privacy=privacy, utility=utility, mapping=mapping, trace=trace,
                               objective=prob.objective if trace is None else trace.objective,
                               utility_name=prob.utility_name, lam=float(lam), info=prob.info())
