"""Merge traces: a privacy mechanism of paper 003 as a recorded sequence of contractions.

A mechanism that quantises the public data X (Algorithms 1 and 2 of paper 003, Section V-C, the
k-anonymity baseline, exact and better-than-greedy searches) is stored as a :class:`MergeTrace`: per
iteration t the merged cluster pair(s) and a few scalars (privacy, utility, Lagrangian L(t), ΔL,
number of clusters |Q(t)| and of components |P(t)|). The quantisation Q(t) and the component
partition P(t) of G_X̂(t) are *reconstructed* by replaying the merges with a union-find, so a trace of
10,000 steps over 10,000 public values stays small.

Conventions
-----------
* A public value's *code* is its position in the joint range's public labels; a cluster's *index* is
  its smallest member code (the tie rules that reproduce paper 003's Examples 1-5). Clusters are listed in index order.
* ``steps[0]`` is the initial state t = 0 (no merge, ``delta_L`` is NaN). Algorithm 1 may merge
  several pairs in one iteration; they are replayed in the order they were made.
* A final *tentative* step whose ΔL >= 0 made the algorithm stop is recorded with ``accepted=False``;
  ``returned`` is the t whose Q(t) the algorithm returns.
* P(t) is obtained from P(0) (components of the support graph) by joining, for every merge, the
  components of the two merged clusters (paper 003, Section V-B1), which is exact.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence as _SequenceABC
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Hashable, Iterable, Sequence

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from .._validation import MISSING
from ..errors import InputError, InputTypeError, UnknownLabelError
from ..ranges import JointRange

__all__ = ["MergeStep", "MergeTrace", "quantize_range"]

_FORMAT = "graphpriv.MergeTrace"
_VERSION = 1


#: Objectives a merge trace records: paper 003's three (Algorithm 1, Algorithm 2, Section V-C), the
#: k-anonymity baseline and the component contraction of G_X (the explorer's trace of components). A
#: custom merge rule (:class:`graphpriv.Contraction`, whose traces carry ``info["mechanism"]``) names its own.
TRACE_OBJECTIVES = ("L0", "I*", "L0|I*=0", "k-anonymity", "components of G_X")

#: Merge mechanisms on a joint *distribution* whose traces carry a per-step criterion
#: (:attr:`MergeTrace.step_criteria`): the privacy watchdog and its variants, (ε, δ) log-lift
#: partitioning, the agglomerative privacy funnel and information bottleneck. Their traces name the
#: criterion that drove each step in ``info["criterion"]`` (a key of every step's criterion dict) and
#: their measures in ``info["privacy_measure"]`` / ``info["utility_measure"]``.
STOCHASTIC_OBJECTIVES = ("watchdog", "eps-delta", "privacy funnel", "information bottleneck",
                         "watchdog subset", "alpha-lift watchdog")


@dataclass(frozen=True)
class MergeStep:
    """One iteration t of a merge sequence.

    Attributes
    ----------
    t : int
        Iteration index; t = 0 is the initial state (no merge).
    merged : tuple of (frozenset, frozenset)
        The cluster pairs merged in this iteration, as frozensets of public labels, in merge order.
    privacy, utility : float
        Privacy measure (L0 or I*, bits by default) and utility U_i of Q(t).
    L : float
        Lagrangian L(Q(t), λ) = privacy - λ·utility.
    delta_L : float
        ΔL = L(t) - L(t-1) (NaN for t = 0).
    n_clusters, n_components : int
        |Q(t)| and |P(t)| (number of components of G_X̂(t)).
    accepted : bool
        False for a final tentative step that the stopping rule rejected.
    merged_index : tuple of (int, int)
        The same pairs as cluster indices (smallest member code of each cluster, before the merge).
    criterion : dict
        The mechanism's own criterion at this step, by name (e.g. the merged symbol's max |log-lift|
        against ε for the watchdog; δ spent and left and NMIL for (ε, δ) partitioning; ΔL of the
        privacy funnel). Empty for paper 003's mechanisms, whose criterion is ``delta_L``.
    """

    t: int
    merged: tuple
    privacy: float
    utility: float
    L: float
    delta_L: float
    n_clusters: int
    n_components: int
    accepted: bool = True
    merged_index: tuple = ()
    criterion: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        pairs = ", ".join("{" + ",".join(map(str, sorted(map(str, a)))) + "}+{" + ",".join(sorted(map(str, b))) + "}" for a, b in self.merged[:3])
        more = f" (+{len(self.merged) - 3} more)" if len(self.merged) > 3 else ""
        flag = "" if self.accepted else ", rejected"
        return (f"MergeStep(t={self.t}, merged=[{pairs}{more}], privacy={self.privacy:.4g}, utility={self.utility:.4g}, "
                f"L={self.L:.4g}, delta_L={self.delta_L:.4g}, |Q|={self.n_clusters}, |P|={self.n_components}{flag})")


class _UnionFind:
    __slots__ = ("parent",)

    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, a: int) -> int:
        p = self.parent
        root = a
        while p[root] != root:
            root = p[root]
        while p[a] != root:
            p[a], a = root, p[a]
        return root

    def union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        if rb < ra:
            ra, rb = rb, ra
        self.parent[rb] = ra  # root = smallest code = cluster index
        return ra


def _groups(ids: np.ndarray) -> list[np.ndarray]:
    """Codes grouped by id, groups ordered by their smallest code."""
    ids = np.asarray(ids)
    if len(ids) == 0:
        return []
    order = np.argsort(ids, kind="stable")
    sorted_ids = ids[order]
    cuts = (np.flatnonzero(np.diff(sorted_ids)) + 1).tolist()
    bounds = [0, *cuts, len(ids)]
    groups = [order[a:b] for a, b in zip(bounds[:-1], bounds[1:])]
    groups.sort(key=lambda g: int(g[0]))
    return groups


class _Steps(_SequenceABC):
    """The steps of a :class:`MergeTrace` as :class:`MergeStep` objects, built on access (see ``MergeTrace.steps``)."""

    __slots__ = ("_trace", "_cache")

    def __init__(self, trace: "MergeTrace"):
        self._trace = trace
        self._cache: dict[int, MergeStep] = {}

    def __len__(self) -> int:
        return len(self._trace)

    def __getitem__(self, i):
        if isinstance(i, slice):
            idx = range(*i.indices(len(self)))
            if idx.step == 1 and len(idx) > 1:
                return tuple(s for s in self._replay(idx.stop) if s.t >= idx.start)
            return tuple(self[k] for k in idx)
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"step indices must be integers or slices, not {type(i).__name__}")
        t = int(i)
        if t < 0:
            t += len(self)
        if not 0 <= t < len(self):
            raise IndexError(f"step {i} is outside the trace (steps 0..{len(self) - 1})")
        st = self._cache.get(t)
        if st is None:
            st = self._trace._step(t)
            if len(self._cache) >= 64:
                self._cache.pop(next(iter(self._cache)))
            self._cache[t] = st
        return st

    def _replay(self, stop: int):
        """Steps 0..stop-1 in one pass (the members of the clusters kept as the merges go)."""
        state = (_UnionFind(self._trace.n_public), {})
        for t in range(stop):
            yield self._trace._step(t, state)

    def __iter__(self):
        return self._replay(len(self))

    def __eq__(self, other):
        if isinstance(other, (_Steps, tuple, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{len(self)} merge steps of {self._trace.objective!r}>"


@dataclass(frozen=True, eq=False)
class MergeTrace:
    """A recorded merge sequence Q(0), Q(1), ... with its per-step scalars.

    Build it with the mechanisms (``gp.agglomerate(...).trace``) or :meth:`from_dict` /
    :meth:`from_json`. Per step only the merged pairs (as cluster indices) and the scalars are stored;
    :meth:`quantization` and :meth:`partition` replay the merges.

    Attributes
    ----------
    objective : str
        "L0", "I*", "L0|I*=0" or the name of another mechanism (e.g. "k-anonymity").
    utility : str
        Name of the utility ("U1", "U2", ...).
    lam : float
        Lagrange multiplier λ (NaN when the mechanism has none).
    public_labels : tuple
        Original public labels in code order.
    components0 : tuple of int
        Component id of every public value in G_X (P(0)).
    returned : int
        The t whose Q(t) the mechanism returns.
    base : float
        Logarithm base of privacy, utility and L.
    info : dict
        Free-form settings (tie rule, codeword, distance, ...), JSON-serialisable.
    step_criteria : tuple of dict
        Empty, or one dict per step: the mechanism's criterion at that step by name (numbers, strings
        or booleans), for the mechanisms of :data:`STOCHASTIC_OBJECTIVES`; ``info["criterion"]`` names
        the entry that decided the step. Views read it by name.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> tr = gp.agglomerate(jr, "I*", 0.3).trace          # paper 003, Example 3
    >>> [sorted(c) for c in tr.quantization(1)][:2]
    [['x1', 'x3'], ['x2']]
    >>> [sorted(p) for p in tr.partition(1)]
    [['x1', 'x2', 'x3', 'x4'], ['x5'], ['x6'], ['x7']]
    >>> tr == gp.MergeTrace.from_json(tr.to_json())
    True
    """

    objective: str
    utility: str
    lam: float
    public_labels: tuple
    components0: tuple
    step_merges: tuple  # per step: tuple of (cluster index a, cluster index b)
    step_privacy: tuple
    step_utility: tuple
    step_L: tuple
    step_delta_L: tuple
    step_n_clusters: tuple
    step_n_components: tuple
    step_accepted: tuple
    returned: int
    base: float = 2.0
    info: dict = field(default_factory=dict)
    step_criteria: tuple = ()

    def __post_init__(self):
        custom = isinstance(self.info, dict) and bool(self.info.get("mechanism"))    # a rule of gp.Contraction
        known = TRACE_OBJECTIVES + STOCHASTIC_OBJECTIVES
        if not isinstance(self.objective, str) or not self.objective.strip() or (
                self.objective not in known and not custom):
            raise InputError(f"MergeTrace objective {self.objective!r} is not known; use one of {list(known)} "
                             "(the trace of a custom merge rule, gp.Contraction(...).trace(name=...), names its own)")
        n = len(self.step_merges)
        if self.step_criteria:
            if len(self.step_criteria) != n or not all(isinstance(c, dict) for c in self.step_criteria):
                raise InputError(f"MergeTrace.step_criteria must be empty or hold one dict per step ({n}), "
                                 f"got {len(self.step_criteria)}")
        for name in ("step_privacy", "step_utility", "step_L", "step_delta_L", "step_n_clusters", "step_n_components", "step_accepted"):
            if len(getattr(self, name)) != n:
                raise InputError(f"MergeTrace.{name} has {len(getattr(self, name))} entries, expected one per step ({n})")
        if n == 0:
            raise InputError("a MergeTrace needs at least the initial step t=0")
        if len(self.components0) != len(self.public_labels):
            raise InputError("MergeTrace.components0 must give one component id per public label")
        if not 0 <= self.returned < n:
            raise InputError(f"MergeTrace.returned={self.returned} is not a step index (0..{n - 1})")
        if self.step_merges[0]:
            raise InputError("step 0 of a MergeTrace is the initial state and cannot hold merges")

    # ------------------------------------------------------------------ basic access
    @property
    def n_public(self) -> int:
        return len(self.public_labels)

    def __len__(self) -> int:
        return len(self.step_merges)

    @property
    def n_steps(self) -> int:
        """Number of recorded steps including t = 0."""
        return len(self.step_merges)

    @property
    def L(self) -> np.ndarray:
        """L(t) for every recorded step."""
        return np.asarray(self.step_L, dtype=float)

    @property
    def delta_L(self) -> np.ndarray:
        return np.asarray(self.step_delta_L, dtype=float)

    def _check_t(self, t: int | None) -> int:
        if t is None:
            return self.returned
        if isinstance(t, (bool, np.bool_)) or not isinstance(t, (int, np.integer)):
            raise InputTypeError(f"t must be an integer step index, got {t!r}")
        t = int(t)
        if t < 0:
            t += len(self)
        if not 0 <= t < len(self):
            raise InputError(f"t={t} is outside the trace (steps 0..{len(self) - 1})")
        return t

    # ------------------------------------------------------------------ replay
    def _merge_edges(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        pairs = [p for step in self.step_merges[1:t + 1] for p in step]
        if not pairs:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        arr = np.asarray(pairs, dtype=np.int64)
        return arr[:, 0], arr[:, 1]

    @staticmethod
    def _min_code_ids(n: int, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """Connected components of the graph on codes 0..n-1 with the given edges, labelled by smallest code."""
        if len(rows) == 0:
            return np.arange(n, dtype=np.int64)
        g = sp.coo_array((np.ones(len(rows), dtype=np.int8), (rows, cols)), shape=(n, n)).tocsr()
        _, lab = connected_components(g, directed=False)
        minc = np.full(lab.max() + 1, n, dtype=np.int64)
        np.minimum.at(minc, lab, np.arange(n, dtype=np.int64))
        return minc[lab]

    def cluster_ids(self, t: int | None = None) -> np.ndarray:
        """Cluster index (smallest member code) of every public code in Q(t) (default: returned t)."""
        t = self._check_t(t)
        return self._min_code_ids(self.n_public, *self._merge_edges(t))

    def cluster_ids_at(self, ts: Iterable[int]) -> dict[int, np.ndarray]:
        """:meth:`cluster_ids` for several steps: {t: ids}."""
        return {t: self.cluster_ids(t) for t in sorted({self._check_t(int(t)) for t in ts})}

    def component_ids(self, t: int | None = None) -> np.ndarray:
        """Component id of every public code in P(t): the smallest public code of its component."""
        t = self._check_t(t)
        n = self.n_public
        comp0 = np.asarray(self.components0, dtype=np.int64)
        # P(0): chain the codes of every original component, then add the merges
        order = np.argsort(comp0, kind="stable")
        same = comp0[order][1:] == comp0[order][:-1]
        r0, c0 = order[:-1][same], order[1:][same]
        rm, cm = self._merge_edges(t)
        return self._min_code_ids(n, np.concatenate([r0, rm]), np.concatenate([c0, cm]))

    def _label_groups(self, ids: np.ndarray) -> list[frozenset]:
        labels = self.public_labels
        return [frozenset(labels[i] for i in g.tolist()) for g in _groups(ids)]

    def quantization(self, t: int | None = None) -> list[frozenset]:
        """Q(t) as a list of frozensets of public labels, ordered by cluster index (default: returned t)."""
        return self._label_groups(self.cluster_ids(t))

    def partition(self, t: int | None = None) -> list[frozenset]:
        """P(t): components of G_X̂(t) as frozensets of original public labels (unions of clusters)."""
        return self._label_groups(self.component_ids(t))

    def partition_at(self, lam: float | None = None, *, eps: float | None = None) -> list[frozenset]:
        """The quantisation Q a run of the same mechanism at λ = ``lam`` returns, read off this trace.

        Algorithms 1 and 2 of Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies
        Using Agglomerative Clustering* (problems (3) and (5)) merge in an order that does not depend on
        λ: λ only decides the first step t whose ΔL = Δprivacy - λ·Δutility is >= 0, and the run returns
        Q(t - 1) (Q(t) of the last step when every step lowers L). This method applies that stopping
        rule, with the mechanisms' tolerance, to the recorded privacy and utility, so that
        ``trace.partition_at(lam=lam)`` equals ``gp.agglomerate(jr, objective, lam, ...).quantization``
        for every λ the trace covers -- like :func:`scipy.cluster.hierarchy.fcluster` cutting a linkage.
        The result is ready for :meth:`graphpriv.Release.from_partition`.

        Parameters
        ----------
        lam : float >= 0, optional
            The Lagrange multiplier λ; default: the λ the trace was recorded at (its returned Q). A trace
            of a mechanism without λ (the watchdog, (ε, δ) log-lift partitioning) gives its released
            partition for ``lam=None``.
        eps : float, optional
            For a trace whose merges follow a threshold on a per-step criterion (``info["threshold_criterion"]``:
            the privacy watchdog of Sadeghi, Ding & Rakotoarivelo merges X_ε^c, most risky symbol first,
            so the watchdog at a larger ε merges a prefix): the partition of the same mechanism at
            threshold ``eps`` >= the recorded one (in the trace's unit). Other traces answer only for
            the ε they were recorded at (``info["eps"]``).

        Returns
        -------
        list of frozenset
            The clusters of public labels, ordered by cluster index (smallest member code), as
            :meth:`quantization` gives them.

        Raises
        ------
        InputError
            When the trace cannot answer for ``lam``: a run at ``lam`` goes past the last recorded step
            (a trace recorded at a larger λ stops earlier; ``gp.pareto_frontier(...).trace`` holds the
            whole λ-free trajectory), or the trace's merge order depends on λ (Section V-C, problem
            (10); better-than-greedy searches; side information; baselines) and ``lam`` is not the λ it
            was recorded at.

        Examples
        --------
        >>> import graphpriv as gp
        >>> jr, _ = gp.datasets.paper_example()
        >>> tr = gp.pareto_frontier(jr, "I*", utility="U1").trace    # the whole trajectory of Algorithm 2
        >>> [sorted(c) for c in tr.partition_at(lam=0.3)]              # paper 003, Example 3
        [['x1', 'x3', 'x7'], ['x2', 'x5'], ['x4', 'x6']]
        >>> tr.partition_at(lam=0.3) == gp.agglomerate(jr, "I*", 0.3).quantization
        True
        >>> len(tr.partition_at(lam=5.0))                                # a large λ keeps every value apart
        7
        """
        if eps is not None:
            if lam is not None:
                raise InputError("give lam or eps, not both")
            return self._partition_at_eps(eps)
        recorded = float(self.lam)
        if lam is None:
            return self.quantization(self.returned)
        if isinstance(lam, (bool, np.bool_)) or not isinstance(lam, (int, float, np.integer, np.floating)):
            raise InputTypeError(f"lam (the Lagrange multiplier λ) must be a number >= 0, got {lam!r}")
        given = lam
        try:
            lam = float(lam)
        except OverflowError:                  # an int beyond the floats (10**400)
            lam = math.inf
        if not math.isfinite(lam) or lam < 0:
            shown = repr(given) if len(repr(given)) <= 40 else f"{repr(given)[:12]}... ({len(repr(given))} digits)"
            raise InputError(f"lam (the Lagrange multiplier λ) must be a finite number >= 0, got {shown}")
        algorithm = str(self.info.get("algorithm", ""))
        lam_free = (self.objective in ("L0", "I*") and algorithm.startswith("Algorithm")
                    and self.info.get("search", "greedy") == "greedy" and not self.info.get("side_information"))
        if not lam_free:
            if recorded == recorded and abs(lam - recorded) <= 1e-12 * max(1.0, abs(recorded)):
                return self.quantization(self.returned)
            at = "without a λ" if recorded != recorded else f"at λ = {recorded:g}"
            raise InputError(f"this trace ({algorithm or self.objective}) was recorded {at} and its merges depend on λ, "
                             f"so it cannot give the partition at λ = {lam:g}; run gp.agglomerate(jr, {self.objective!r}, "
                             f"{lam:g}, ...) (or use gp.pareto_frontier / gp.section_vc_tree for every λ)")
        tol = float(self.info.get("delta_L_tol", 1e-12))        # the mechanism's acceptance rule: ΔL < -tol
        priv = np.asarray(self.step_privacy, dtype=float)
        util = np.asarray(self.step_utility, dtype=float)
        nonempty = np.array([len(m) > 0 for m in self.step_merges[1:]], dtype=bool)
        accepted = ((np.diff(priv) - lam * np.diff(util)) < -tol) & nonempty
        stops = np.flatnonzero(~accepted)
        if len(stops):
            return self.quantization(int(stops[0]))
        if not all(self.step_accepted):   # the recorded run stopped on a step a run at λ = lam accepts
            raise InputError(f"a run at λ = {lam:g} merges past the last step of this trace (t = {len(self) - 1}, "
                             f"recorded at λ = {recorded:g}); use a trace recorded at a smaller λ, e.g. "
                             "gp.pareto_frontier(jr, objective, utility, values).trace (the whole trajectory)")
        return self.quantization(len(self) - 1)

    def _partition_at_eps(self, eps) -> list[frozenset]:
        if isinstance(eps, (bool, np.bool_)) or not isinstance(eps, (int, float, np.integer, np.floating)):
            raise InputTypeError(f"eps (the log-lift threshold) must be a number >= 0, got {eps!r}")
        eps = float(eps)
        if not eps >= 0:
            raise InputError(f"eps (the log-lift threshold) must be a number >= 0, got {eps!r}")
        key = self.info.get("threshold_criterion")
        recorded = self.info.get("threshold", self.info.get("eps"))
        recorded = float(recorded) if isinstance(recorded, (int, float)) else math.nan
        tol = 1e-12 * max(1.0, abs(recorded)) if recorded == recorded else 0.0
        if not key or not self.step_criteria:
            if recorded == recorded and abs(eps - recorded) <= tol:
                return self.quantization(self.returned)
            at = f"at ε = {recorded:g}" if recorded == recorded else "without a threshold ε"
            raise InputError(f"this {self.objective} trace was recorded {at} and its merges are not a prefix of a "
                             f"threshold rule, so it cannot give the partition at ε = {eps:g}; run the mechanism at ε = {eps:g}")
        if recorded == recorded and eps < recorded - tol:
            raise InputError(f"this {self.objective} trace was recorded at ε = {recorded:g}; a run at the smaller "
                             f"ε = {eps:g} merges symbols it does not hold; run the mechanism at ε = {eps:g}")
        atol = float(self.info.get("threshold_atol", 0.0))
        vals = self.criterion(key)
        t = 0
        while t + 1 < len(self) and vals[t + 1] > eps + atol:
            t += 1
        return self.quantization(t)

    def quantized_range(self, jr: JointRange, t: int | None = None) -> JointRange:
        """The joint range [[S, X̂(t)]] (see :func:`quantize_range`)."""
        if tuple(np.asarray(jr.public_labels).tolist()) != tuple(self.public_labels):
            raise InputError("jr does not have the public labels this trace was recorded on (same labels, same order needed)")
        return quantize_range(jr, self.quantization(t))

    @cached_property
    def steps(self) -> "Sequence[MergeStep]":
        """All steps as :class:`MergeStep` objects: a read-only sequence that builds step t on access.

        Indexing replays the merges up to t once (O(|X| log |X|)), iterating replays them in one pass;
        so a trace of 10^4 steps that grows one cluster over the whole range never holds a copy of the
        cluster per step.
        """
        return _Steps(self)

    def _step(self, t: int, state: tuple | None = None) -> MergeStep:
        """MergeStep t. ``state`` = (union-find over the codes, cluster root -> frozenset of labels) of Q(t-1)
        when the caller replays the steps in order; built from :meth:`cluster_ids` otherwise."""
        labels = self.public_labels
        pairs = self.step_merges[t]
        merged = []
        if pairs:
            if state is None:                  # Q(t-1) from one replay; only the touched clusters' members
                ids = self.cluster_ids(t - 1)
                uf = _UnionFind(self.n_public)
                uf.parent = ids.tolist()       # every code points at its cluster's smallest code, the root
                touched = {int(ids[int(c)]) for p in pairs for c in p}
                members = {int(g[0]): frozenset(labels[i] for i in g.tolist())
                           for g in _groups(ids) if int(g[0]) in touched and len(g) > 1}
            else:
                uf, members = state
            for a, b in pairs:
                ra, rb = uf.find(int(a)), uf.find(int(b))
                ca = members.get(ra) or frozenset([labels[ra]])
                cb = members.get(rb) or frozenset([labels[rb]])
                merged.append((ca, cb))
                r = uf.union(ra, rb)
                members.pop(ra, None)
                members.pop(rb, None)
                members[r] = ca | cb
        return MergeStep(
            t=t, merged=tuple(merged), privacy=float(self.step_privacy[t]), utility=float(self.step_utility[t]),
            L=float(self.step_L[t]), delta_L=float(self.step_delta_L[t]), n_clusters=int(self.step_n_clusters[t]),
            n_components=int(self.step_n_components[t]), accepted=bool(self.step_accepted[t]),
            merged_index=tuple((int(a), int(b)) for a, b in pairs),
            criterion=dict(self.step_criteria[t]) if self.step_criteria else {})

    def to_linkage(self) -> np.ndarray:
        """The merge hierarchy as a scipy linkage matrix (leaves = public codes, in code order).

        Every merged pair is one row ``[a, b, t, size]`` at height t, the step that merged it, so a
        step of Algorithm 1 that merges several pairs (Ding & Farokhi, *Developing Non-Stochastic
        Privacy-Preserving Policies Using Agglomerative Clustering*, Section V-A) gives several rows at
        the same height, in the order the pairs were made. A trace that stops before a single cluster
        remains is completed by joins of its last clusters (in index order) at height ``len(trace)``,
        so the matrix describes a full tree. Cutting it just above a step recovers the quantisation:
        ``fcluster(Z, t + 0.5, "distance")`` groups the public codes exactly as ``quantization(t)``.

        Returns
        -------
        numpy.ndarray of shape (n_public - 1, 4)
            A valid linkage for :mod:`scipy.cluster.hierarchy` (``dendrogram``, ``fcluster``, ...);
            rows ``i`` with ``Z[i, 2] == len(trace)`` are the completing joins.

        Examples
        --------
        >>> import graphpriv as gp
        >>> from scipy.cluster.hierarchy import fcluster
        >>> jr, _ = gp.datasets.paper_example()
        >>> tr = gp.agglomerate(jr, "I*", 0.3).trace
        >>> Z = tr.to_linkage()
        >>> Z[0].tolist()                                   # step 1 merges x1 and x3
        [0.0, 2.0, 1.0, 2.0]
        >>> ids = fcluster(Z, 1.5, "distance").tolist()   # the clusters of Q(1)
        >>> ids[0] == ids[2], len(set(ids))
        (True, 6)
        """
        n = self.n_public
        uf = _UnionFind(n)
        node = list(range(n))  # linkage node id of each union-find root
        size = [1] * n
        rows: list[list[float]] = []

        def join(a: int, b: int, height: float) -> None:
            ra, rb = uf.find(a), uf.find(b)
            if ra == rb:
                raise InputError(f"MergeTrace merges {self.public_labels[a]!r} and {self.public_labels[b]!r} at t={height:g}, "
                                 "which are already in one cluster")
            na, nb = sorted((node[ra], node[rb]))
            total = size[ra] + size[rb]
            r = uf.union(ra, rb)
            node[r], size[r] = n + len(rows), total
            rows.append([float(na), float(nb), float(height), float(total)])

        for t, pairs in enumerate(self.step_merges):
            for a, b in pairs:
                join(int(a), int(b), t)
        roots = sorted({uf.find(i) for i in range(n)})
        for r in roots[1:]:
            join(roots[0], r, len(self))
        return np.asarray(rows, dtype=float).reshape(-1, 4)

    @property
    def has_criteria(self) -> bool:
        """True when every step records the mechanism's own criterion (:attr:`step_criteria`)."""
        return bool(self.step_criteria)

    def criterion(self, name: str | None = None) -> np.ndarray:
        """The per-step values of criterion ``name`` (default ``info["criterion"]``) as floats (NaN where
        a step does not record it).

        Raises
        ------
        InputError
            The trace records no criterion, or none called ``name``.
        """
        if not self.step_criteria:
            raise InputError(f"this {self.objective} trace records no per-step criterion (its criterion is delta_L)")
        key = self.info.get("criterion") if name is None else name
        names = sorted({k for c in self.step_criteria for k in c})
        if key not in names and not (key is not None and key == self.info.get("criterion")):   # the main key: NaN where absent
            raise InputError(f"criterion {key!r} is not recorded in this trace; it records {names}")
        out = np.full(len(self), np.nan)
        for t, c in enumerate(self.step_criteria):
            v = c.get(key)
            if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
                out[t] = float(v)
        return out

    def to_frame(self) -> pd.DataFrame:
        """Per-step scalars as a DataFrame (columns t, privacy, utility, L, delta_L, n_clusters,
        n_components, n_merged, accepted, returned, then one column per recorded criterion; a criterion
        named like one of those columns is written as ``criterion.<name>``)."""
        n = len(self)
        crit = {}
        fixed = {"t", "privacy", "utility", "L", "delta_L", "n_clusters", "n_components", "n_merged", "accepted", "returned"}
        if self.step_criteria:
            for k in sorted({k for c in self.step_criteria for k in c}):
                crit[f"criterion.{k}" if k in fixed else k] = [c.get(k) for c in self.step_criteria]
        return pd.DataFrame({
            "t": np.arange(n),
            "privacy": np.asarray(self.step_privacy, dtype=float),
            "utility": np.asarray(self.step_utility, dtype=float),
            "L": np.asarray(self.step_L, dtype=float),
            "delta_L": np.asarray(self.step_delta_L, dtype=float),
            "n_clusters": np.asarray(self.step_n_clusters, dtype=np.int64),
            "n_components": np.asarray(self.step_n_components, dtype=np.int64),
            "n_merged": np.array([len(m) for m in self.step_merges], dtype=np.int64),
            "accepted": np.asarray(self.step_accepted, dtype=bool),
            "returned": np.arange(n) == self.returned,
            **crit,
        })

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> dict:
        """A JSON-ready dict (labels encoded with type tags, NaN as None)."""
        return {
            "format": _FORMAT,
            "version": _VERSION,
            "objective": self.objective,
            "utility": self.utility,
            "lam": _num_out(self.lam),
            "base": _num_out(self.base),
            "returned": int(self.returned),
            "public_labels": [_encode_label(x) for x in self.public_labels],
            "components0": [int(c) for c in self.components0],
            "info": self.info,
            "steps": [
                {
                    "t": t,
                    "merged": [[int(a), int(b)] for a, b in self.step_merges[t]],
                    "privacy": _num_out(self.step_privacy[t]),
                    "utility": _num_out(self.step_utility[t]),
                    "L": _num_out(self.step_L[t]),
                    "delta_L": _num_out(self.step_delta_L[t]),
                    "n_clusters": int(self.step_n_clusters[t]),
                    "n_components": int(self.step_n_components[t]),
                    "accepted": bool(self.step_accepted[t]),
                    **({"criterion": {k: _crit_out(v) for k, v in self.step_criteria[t].items()}}
                       if self.step_criteria else {}),
                }
                for t in range(len(self))
            ],
        }

    @classmethod
    def from_dict(cls, d: dict) -> "MergeTrace":
        """Inverse of :meth:`to_dict`."""
        if not isinstance(d, dict) or d.get("format") != _FORMAT:
            raise InputError(f"not a serialised MergeTrace (expected a dict with format={_FORMAT!r})")
        if d.get("version") != _VERSION:
            raise InputError(f"unsupported MergeTrace version {d.get('version')!r}; this graphpriv reads version {_VERSION}")
        from .trace_checks import validate_trace_dict

        validate_trace_dict(d, _decode_label)
        try:
            steps = d["steps"]
            return cls(
                objective=str(d["objective"]), utility=str(d["utility"]), lam=_num_in(d["lam"]),
                public_labels=tuple(_decode_label(x) for x in d["public_labels"]),
                components0=tuple(int(c) for c in d["components0"]),
                step_merges=tuple(tuple((int(a), int(b)) for a, b in s["merged"]) for s in steps),
                step_privacy=tuple(_num_in(s["privacy"]) for s in steps),
                step_utility=tuple(_num_in(s["utility"]) for s in steps),
                step_L=tuple(_num_in(s["L"]) for s in steps),
                step_delta_L=tuple(_num_in(s["delta_L"]) for s in steps),
                step_n_clusters=tuple(int(s["n_clusters"]) for s in steps),
                step_n_components=tuple(int(s["n_components"]) for s in steps),
                step_accepted=tuple(bool(s["accepted"]) for s in steps),
                returned=int(d["returned"]), base=_num_in(d.get("base", 2.0)), info=dict(d.get("info") or {}),
                step_criteria=(tuple({str(k): _crit_in(v) for k, v in s["criterion"].items()} for s in steps)
                               if all(isinstance(s.get("criterion"), dict) for s in steps) else ()),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"malformed serialised MergeTrace: {exc!r}") from None

    def to_json(self, **kwargs: Any) -> str:
        """JSON text of :meth:`to_dict` (keyword arguments go to :func:`json.dumps`)."""
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_json(cls, s: str) -> "MergeTrace":
        """Inverse of :meth:`to_json`."""
        try:
            d = json.loads(s)
        except (TypeError, ValueError) as exc:
            raise InputError(f"MergeTrace.from_json needs JSON text: {exc}") from None
        except RecursionError:
            raise InputError("MergeTrace.from_json: the JSON is nested too deeply to be a merge trace") from None
        return cls.from_dict(d)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MergeTrace):
            return NotImplemented
        return json.dumps(self.to_dict(), sort_keys=True) == json.dumps(other.to_dict(), sort_keys=True)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        t = self.returned
        privacy = {"L0": "L0", "L0|I*=0": "L0", "I*": "I*", "k-anonymity": "L0"}.get(
            self.objective, str(self.info.get("privacy_measure", "privacy")))
        lam = "none" if self.lam != self.lam else f"{self.lam:g}"
        n_cl = int(self.step_n_clusters[t])
        L = "" if self.step_L[t] != self.step_L[t] else f", L = {_fmt(self.step_L[0])} -> {_fmt(self.step_L[t])}"
        return (f"MergeTrace(objective={self.objective!r}, utility={self.utility!r}, λ={lam}, {self.n_public} public "
                f"value{'s' * (self.n_public != 1)}, {len(self)} step{'s' * (len(self) != 1)} (t = 0..{len(self) - 1}); "
                f"release step t = {t}: {n_cl} cluster{'s' * (n_cl != 1)}, {privacy} = {_fmt(self.step_privacy[t])}, "
                f"{self.utility} = {_fmt(self.step_utility[t])}{L})")


def _fmt(v) -> str:
    v = float(v)
    return "n/a" if v != v else f"{v + 0.0:.4g}"


# ---------------------------------------------------------------------- label / number encoding
def _num_out(v) -> float | None:
    v = float(v)
    return None if math.isnan(v) else v


def _crit_out(v):
    """A criterion value as JSON: booleans and strings as they are, numbers with NaN/inf as None/strings."""
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return f if math.isfinite(f) else (None if f != f else ("inf" if f > 0 else "-inf"))
    if v is None:
        return None
    return str(v)


def _crit_in(v):
    if v is None:
        return math.nan
    if v in ("inf", "-inf"):
        return float(v)
    return v


def _num_in(v) -> float:
    return float("nan") if v is None else float(v)


def _encode_label(x: Hashable):
    if x is MISSING:
        return {"missing": True}
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, tuple):
        return {"tuple": [_encode_label(v) for v in x]}
    if isinstance(x, (str, int, float, bool)) or x is None:
        if isinstance(x, float) and not math.isfinite(x):
            return {"float": repr(x)}
        return x
    if isinstance(x, frozenset):
        return {"frozenset": [_encode_label(v) for v in x]}
    raise InputTypeError(f"public label {x!r} of type {type(x).__name__} cannot be written to JSON; use str, int, float or tuples of them")


def _decode_label(x):
    if isinstance(x, dict):
        if x.get("missing"):
            return MISSING
        if "tuple" in x:
            return tuple(_decode_label(v) for v in x["tuple"])
        if "frozenset" in x:
            return frozenset(_decode_label(v) for v in x["frozenset"])
        if "float" in x:
            return float(x["float"])
        raise InputError(f"unknown encoded label {x!r}")
    return x


# ---------------------------------------------------------------------- quantised range
def _check_quantization(labels: Sequence[Hashable], quantization: Iterable[Iterable[Hashable]], index: dict | None = None) -> np.ndarray:
    """Validate that ``quantization`` partitions ``labels``; return the cluster number of every code
    (clusters numbered in index order = by smallest member code)."""
    if index is None:
        index = {x: i for i, x in enumerate(labels)}
    n = len(labels)
    if isinstance(quantization, (str, bytes)) or not isinstance(quantization, Iterable):
        raise InputTypeError("quantization must be an iterable of sets of public labels, e.g. [{'x1', 'x3'}, {'x2'}]")
    owner = np.full(n, -1, dtype=np.int64)
    clusters = []
    for k, cluster in enumerate(quantization):
        if isinstance(cluster, (str, bytes)) or not isinstance(cluster, Iterable):
            raise InputTypeError(f"quantization cluster {cluster!r} is not a set of public labels")
        codes = []
        for x in cluster:
            try:
                c = index[x]
            except (KeyError, TypeError):
                raise UnknownLabelError(f"quantization names public label {x!r}, which is not in the joint range") from None
            if owner[c] != -1:
                raise InputError(f"quantization is not a partition: public label {x!r} appears in more than one cluster")
            owner[c] = k
            codes.append(c)
        if not codes:
            raise InputError("quantization has an empty cluster; every cluster needs at least one public label")
        clusters.append(min(codes))
    if (owner < 0).any():
        missing = [labels[i] for i in np.flatnonzero(owner < 0)[:5].tolist()]
        raise InputError(f"quantization is not a partition of the public labels: {int((owner < 0).sum())} labels are in no cluster (e.g. {missing})")
    order = np.argsort(np.asarray(clusters), kind="stable")
    rank = np.empty(len(clusters), dtype=np.int64)
    rank[order] = np.arange(len(clusters))
    return rank[owner]


def quantize_range(jr: JointRange, quantization: Iterable[Iterable[Hashable]]) -> JointRange:
    """The joint range [[S, X̂]] of a quantisation X̂ of X (paper 003, eq. (2)).

    S|x̂ = ∪_{x ∈ X|x̂} S|x. The public labels of the result are tuples of member labels in index
    order (code order), one per cluster, clusters in index order (by smallest member code).

    Parameters
    ----------
    jr : JointRange
    quantization : iterable of iterables of public labels
        A partition of ``jr.public_labels``.

    Returns
    -------
    JointRange

    Raises
    ------
    InputError
        If ``quantization`` is not a partition of the public labels.
    UnknownLabelError
        If it names a label that is not a public label of ``jr``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> q = gp.quantize_range(jr, [{"x1", "x3"}, {"x2", "x5"}, {"x4", "x6"}, {"x7"}])
    >>> list(q.public_labels)
    [('x1', 'x3'), ('x2', 'x5'), ('x4', 'x6'), ('x7',)]
    >>> gp.n_components(q)
    2

    Notes
    -----
    One sparse product, O(|[[S, X]]| + |X|).
    """
    if not isinstance(jr, JointRange):
        raise InputTypeError(f"expected a JointRange, got {type(jr).__name__}")
    labels = jr.public_labels.tolist()
    cid = _check_quantization(labels, quantization, jr._x_index)
    k = int(cid.max()) + 1
    n = len(labels)
    ind = sp.csr_array((np.ones(n, dtype=np.int32), (np.arange(n), cid)), shape=(n, k))
    m = (jr.matrix.astype(np.int32) @ ind) > 0
    groups = _groups(cid)
    new_labels = np.empty(k, dtype=object)
    for j, g in enumerate(groups):
        new_labels[j] = tuple(labels[i] for i in g.tolist())
    return JointRange(sp.csr_array(m), jr.sensitive_labels, new_labels)
