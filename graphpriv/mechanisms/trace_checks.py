"""Validation of a serialised merge trace before it is trusted (:meth:`graphpriv.MergeTrace.from_dict`).

A trace read from a file must replay to what it claims. Checked, each failure one line
(:class:`~graphpriv.errors.InputError`) naming the step and the field:

- structure: a JSON object of the right format and version, nested at most :data:`MAX_DEPTH` deep;
- labels: every public label decodes to a hashable value, no two labels equal;
- steps: ``t`` counts 0, 1, 2, ...; step 0 merges nothing; every later step is accepted except
  possibly the last; ``returned`` is an accepted step;
- merges: each pair is two integer cluster indices in 0..|X|-1 (no 0.5, no negative, no bool),
  naming two *different, current* clusters -- a self-merge or a merge of a cluster already absorbed
  into another is refused;
- scalars: privacy and utility finite; λ missing (no multiplier, then L and ΔL may be missing too)
  or finite and >= 0, and then L = privacy - λ·utility and ΔL = L(t) - L(t-1) (missing at t = 0);
  the logarithm base finite, > 0 and not 1;
- counts: |Q(t)| and |P(t)| equal what replaying the merges gives (under side information, marked
  ``info["side_information"]``, |P(t)| counts components of another graph and only |P(t)| >= 1 is
  checked).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import InputError

__all__ = ["MAX_DEPTH", "validate_trace_dict"]

#: Deepest nesting of lists/objects accepted in a serialised trace (labels are tuples of tuples at most).
MAX_DEPTH = 32
_STEP_KEYS = ("merged", "privacy", "utility", "L", "delta_L", "n_clusters", "n_components", "accepted")


def _fail(msg: str) -> None:
    raise InputError(f"invalid serialised MergeTrace: {msg}")


def _depth_ok(obj: Any, limit: int = MAX_DEPTH) -> bool:
    stack = [(obj, 0)]
    while stack:
        o, d = stack.pop()
        if d > limit:
            return False
        if isinstance(o, dict):
            stack.extend((v, d + 1) for v in o.values())
        elif isinstance(o, list):
            stack.extend((v, d + 1) for v in o)
    return True


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _number(v: Any, what: str, *, allow_none: bool = False) -> float:
    if v is None and allow_none:
        return float("nan")
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        _fail(f"{what} must be a number, got {v!r}")
    return float(v)


def _finite(v: Any, what: str) -> float:
    x = _number(v, what)
    if not math.isfinite(x):
        _fail(f"{what} must be a finite number, got {v!r}")
    return x


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def validate_trace_dict(d: Any, decode_label) -> None:
    """Raise :class:`~graphpriv.errors.InputError` unless ``d`` is a well-formed serialised trace that
    replays to its recorded counts and scalars. ``decode_label`` decodes one JSON label.

    Examples
    --------
    >>> import graphpriv as gp
    >>> from graphpriv.mechanisms.trace_checks import validate_trace_dict
    >>> jr, _ = gp.datasets.paper_example()
    >>> d = gp.agglomerate(jr, "I*", 0.3).trace.to_dict()
    >>> d["steps"][2]["merged"] = [[0, 0]]
    >>> gp.MergeTrace.from_dict(d)
    Traceback (most recent call last):
    ...
    graphpriv.errors.InputError: invalid serialised MergeTrace: step 2 merges cluster 0 with itself
    """
    if not isinstance(d, dict):
        _fail(f"expected a JSON object, got {type(d).__name__}")
    if not _depth_ok(d):
        _fail(f"nested more than {MAX_DEPTH} levels deep")
    for key in ("objective", "utility"):
        if not isinstance(d.get(key), str):
            _fail(f"{key!r} must be a string, got {d.get(key)!r}")
    labels_raw = d.get("public_labels")
    if not isinstance(labels_raw, list) or not labels_raw:
        _fail("'public_labels' must be a non-empty list")
    labels = []
    for k, raw in enumerate(labels_raw):
        try:
            lab = decode_label(raw)
        except (InputError, TypeError, ValueError, AttributeError):
            _fail(f"public label {k} ({str(raw)[:60]}) is not an encoded label")
        try:
            hash(lab)
        except TypeError:
            _fail(f"public label {k} ({raw!r}) is not hashable; labels are strings, numbers or tuples of them")
        labels.append(lab)
    seen: dict = {}
    for k, lab in enumerate(labels):
        if lab in seen:
            _fail(f"public labels {seen[lab]} and {k} are equal ({lab!r}); every public value must be listed once")
        seen[lab] = k
    n = len(labels)
    comp0 = d.get("components0")
    if not isinstance(comp0, list) or len(comp0) != n or not all(_is_int(c) and c >= 0 for c in comp0):
        _fail(f"'components0' must list one non-negative integer component id per public label ({n})")
    lam = _number(d.get("lam"), "'lam'", allow_none=True)
    if not math.isnan(lam) and not (math.isfinite(lam) and lam >= 0):
        _fail(f"'lam' must be a finite number >= 0 (or null for no multiplier), got {d.get('lam')!r}")
    base = _number(d.get("base", 2.0), "'base'")
    if not (math.isfinite(base) and base > 0 and base != 1):
        _fail(f"'base' must be a finite logarithm base > 0 other than 1, got {d.get('base')!r}")
    steps = d.get("steps")
    if not isinstance(steps, list) or not steps:
        _fail("'steps' must be a non-empty list (step 0 is the initial state)")
    returned = d.get("returned")
    if not _is_int(returned) or not 0 <= returned < len(steps):
        _fail(f"'returned' must be a step index 0..{len(steps) - 1}, got {returned!r}")

    parent = list(range(n))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    clusters = n
    # P(t): a second union-find over the components of G_X, joined by every merge
    first: dict[int, int] = {}
    cparent = [first.setdefault(int(c), k) for k, c in enumerate(comp0)]
    n_comp = len(first)

    def cfind(a: int) -> int:
        while cparent[a] != a:
            cparent[a] = cparent[cparent[a]]
            a = cparent[a]
        return a

    # under side information n_components counts components of another graph (G_{X^,A}): not replayed
    info = d.get("info")
    replay_components = not (isinstance(info, dict) and info.get("side_information"))
    prev_L = None
    for t, s in enumerate(steps):
        if not isinstance(s, dict):
            _fail(f"step {t} must be a JSON object")
        missing = [k for k in _STEP_KEYS if k not in s]
        if missing:
            _fail(f"step {t} lacks {missing}")
        if "t" in s and (not _is_int(s["t"]) or s["t"] != t):
            _fail(f"step {t} is numbered {s['t']!r}; steps must be listed in order t = 0, 1, 2, ...")
        merged = s["merged"]
        if not isinstance(merged, list):
            _fail(f"step {t}: 'merged' must be a list of [a, b] cluster-index pairs")
        if t == 0 and merged:
            _fail("step 0 is the initial state and cannot hold merges")
        for pair in merged:
            if not isinstance(pair, list) or len(pair) != 2:
                _fail(f"step {t}: merge {pair!r} must be a pair [a, b] of cluster indices")
            a, b = pair
            for v in (a, b):
                if not _is_int(v):
                    _fail(f"step {t}: cluster index {v!r} is not an integer")
                if not 0 <= v < n:
                    _fail(f"step {t}: cluster index {v} is outside 0..{n - 1}")
            if a == b:
                _fail(f"step {t} merges cluster {a} with itself")
            ra, rb = find(a), find(b)
            if ra == rb:
                _fail(f"step {t} merges clusters {a} and {b}, which are already one cluster")
            if ra != a or rb != b:
                gone = a if ra != a else b
                _fail(f"step {t} merges cluster {gone}, which was already absorbed into cluster {find(gone)}")
            lo, hi = (ra, rb) if ra < rb else (rb, ra)
            parent[hi] = lo
            clusters -= 1
            ca, cb = cfind(a), cfind(b)
            if ca != cb:
                cparent[max(ca, cb)] = min(ca, cb)
                n_comp -= 1
        accepted = s["accepted"]
        if not isinstance(accepted, bool):
            _fail(f"step {t}: 'accepted' must be true or false")
        if not accepted and t != len(steps) - 1:
            _fail(f"step {t} is marked rejected but is not the last step (only a final tentative step can be)")
        privacy = _finite(s["privacy"], f"step {t}: privacy")
        utility = _finite(s["utility"], f"step {t}: utility")
        if math.isnan(lam):          # no multiplier (e.g. k-anonymity): no Lagrangian either
            L = _number(s["L"], f"step {t}: L", allow_none=True)
            if not (math.isnan(L) or math.isfinite(L)):
                _fail(f"step {t}: L must be finite or null, got {s['L']!r}")
        else:
            L = _finite(s["L"], f"step {t}: L")
        dL = _number(s["delta_L"], f"step {t}: delta_L", allow_none=True)
        if t == 0 and not math.isnan(dL):
            _fail(f"step 0: delta_L must be null (no previous step), got {s['delta_L']!r}")
        if not math.isnan(lam) and not _close(L, privacy - lam * utility):
            _fail(f"step {t}: L = {L!r} but privacy - lam * utility = {privacy - lam * utility!r}")
        if t > 0 and not (math.isnan(L) and math.isnan(dL)) and not _close(dL, L - prev_L):
            _fail(f"step {t}: delta_L = {dL!r} but L(t) - L(t-1) = {L - prev_L!r}")
        prev_L = L
        for key in ("n_clusters", "n_components"):
            if not _is_int(s[key]):
                _fail(f"step {t}: {key} must be an integer, got {s[key]!r}")
        if s["n_clusters"] != clusters:
            _fail(f"step {t} claims {s['n_clusters']} clusters but its merges leave {clusters}")
        if replay_components and s["n_components"] != n_comp:
            _fail(f"step {t} claims {s['n_components']} components of G_X^ but replaying gives {n_comp}")
        if s["n_components"] < 1:
            _fail(f"step {t} claims {s['n_components']} components; there is at least one")
    if not steps[returned]["accepted"]:
        _fail(f"'returned' = {returned} names a rejected step")
