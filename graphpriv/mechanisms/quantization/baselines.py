"""Baseline mechanism: k-anonymity by generalisation and suppression (Sweeney; paper 003, ref. [49], Section 3.1).

Paper 003, Section VII-B: "search for all x associated with less than k values of s and merge them to a
new but less specific value". By Lemma 1, the released X̂ is k-anonymous exactly when
min_x̂ |[[S|x̂]]| >= k, i.e. L0(S → X̂) <= log(|S|/k). The result has the same type as
:func:`graphpriv.agglomerate`'s, so its point can be drawn on the frontiers of Fig. 9.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ...errors import InputError, InputTypeError
from ...ranges import JointRange
from .contraction import Contraction
from .problem import _Problem
from .result import AgglomerationResult, _result_from_trace
from ..utilities import U2

__all__ = ["k_anonymity_generalization"]


def k_anonymity_generalization(jr: JointRange, k: int, values: Any = None, *, utility: Any = None,
                               base: float = 2) -> AgglomerationResult:
    """Make X̂ k-anonymous by merging every x with fewer than k sensitive values into a less specific value.

    Two modes, both greedy and deterministic:

    * ``values`` given (numbers per public label) -- *generalisation into intervals*: the public values
      are ordered by value (ties by code) and clusters are intervals of that order; while some cluster
      has |S|𝒳| < k, the deficient cluster with the fewest sensitive values (ties: lowest index) is
      merged with the neighbouring interval (left or right) that gives the narrower merged interval
      (ties: left).
    * ``values=None`` -- *suppression*: all deficient x are merged into one suppressed value "*"; while
      it still has fewer than k sensitive values it absorbs the cluster that adds the most sensitive
      values (ties: fewest members, then lowest index).

    Parameters
    ----------
    jr : JointRange
    k : int
        1 <= k <= |S|.
    values : mapping public label -> number, "labels", or None
    utility : "U1", "U2" or a Utility, optional
        Utility reported for the result (default: U2 with centroid codewords when ``values`` is given,
        else U1).
    base : float, default 2

    Returns
    -------
    AgglomerationResult
        ``objective="L0"``; ``privacy`` = L0(S → X̂); the trace has objective "k-anonymity", λ = NaN
        (L is then NaN) and one merge per step.

    Raises
    ------
    InputError
        If k is not an integer in [1, |S|].

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, values = gp.datasets.paper_example()
    >>> r = gp.k_anonymity_generalization(jr, 2, values)
    >>> [sorted(c) for c in r.quantization]
    [['x1', 'x2', 'x3', 'x4'], ['x5', 'x6', 'x7']]
    >>> gp.k_anonymity(gp.quantize_range(jr, r.quantization)), r.privacy
    (3, 1.0)

    Notes
    -----
    O(|X|) work per merge, at most |X| - 1 merges.
    """
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise InputTypeError(f"k must be an integer, got {k!r}")
    k = int(k)
    if utility is None:
        utility = "U2" if values is not None else "U1"
    prob = _Problem(jr, "L0", utility, values, base)
    if not 1 <= k <= prob.n_s:
        raise InputError(f"k must be between 1 and |S| = {prob.n_s} (merging everything gives |S|-anonymity), got {k}")
    n = prob.n
    vals_arr = None
    if values is not None:
        vals_arr = U2().bind(prob.labels, values).V
        if vals_arr.ndim != 1:
            raise InputError("k_anonymity_generalization orders public values on a line: values must be scalars")
    c = Contraction._from_problem(prob)
    ssz = c.ssz                          # |[[S|𝒳]]| of every cluster, read at cluster ids

    def merge(a, b):                     # cluster ids a, b (codes of their smallest members)
        return c.merge(prob.labels[a], prob.labels[b])

    if vals_arr is not None:
        order = sorted(range(n), key=lambda i: (vals_arr[i], i))
        seq = [[i] for i in order]  # intervals, each a list of codes; the cluster id is min(codes)
        while True:
            deficient = [(int(ssz[min(iv)]), min(iv), pos) for pos, iv in enumerate(seq) if ssz[min(iv)] < k]
            if not deficient or len(seq) == 1:
                break
            _, _, pos = min(deficient)
            cand = []
            for nb in (pos - 1, pos + 1):
                if 0 <= nb < len(seq):
                    merged = seq[pos] + seq[nb]
                    width = float(vals_arr[merged].max() - vals_arr[merged].min())
                    cand.append((round(width / 1e-9), 0 if nb < pos else 1, nb))
            _, _, nb = min(cand)
            merge(min(seq[pos]), min(seq[nb]))
            lo, hi = min(pos, nb), max(pos, nb)
            seq[lo:hi + 1] = [seq[lo] + seq[hi]]
    else:
        deficient = [i for i in range(n) if ssz[i] < k]
        if deficient:
            d = deficient[0]
            for x in deficient[1:]:
                d = merge(d, x)
            while ssz[d] < k and c.n_clusters > 1:
                sd = c.sensitive_set(d)
                best = min((-len(sd | c.sensitive_set(x)), int(c.size[x]), x) for x in c.clusters().tolist() if x != d)
                d = merge(d, best[2])
    trace = c.trace("L0", 0.0, name="k-anonymity")
    T = len(trace.step_merges)
    nan = float("nan")
    trace = replace(trace, lam=nan, step_L=(nan,) * T, step_delta_L=(nan,) * T,
                    info={"algorithm": "generalisation and suppression for k-anonymity (Sweeney; paper 003 ref. [49])", "k": k,
                          "mode": "intervals" if vals_arr is not None else "suppression"})
    res = _result_from_trace(prob, trace)
    return replace(res, objective="L0", info=dict(trace.info))
