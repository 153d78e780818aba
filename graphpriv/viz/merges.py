"""What happened at step t of a merge trace, in words: the pairs merged, the components they joined,
and whether the step is the released one or a rejected tentative step. Shared by every merge view
(matrix, hierarchy, component graph, node-link panels, animations) so they all say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .labels import cluster_label

__all__ = ["MergeEvent", "merge_events", "step_status", "step_title"]


@dataclass(frozen=True)
class MergeEvent:
    """One merged pair of step t (paper 003, Algorithms 1 and 2: one pair of clusters fused).

    Attributes
    ----------
    number : int
        1-based position of the pair in the step (Algorithm 1 may merge several pairs in one sweep).
    a, b : frozenset
        The two clusters merged (a holds the smaller public code).
    joined : bool
        True when a and b lay in different components of G_X̂(t-1), so the merge joined two components.
    component_a, component_b : frozenset
        The components of G_X̂(t-1) holding a and b (equal when ``joined`` is False).
    """

    number: int
    a: frozenset
    b: frozenset
    joined: bool
    component_a: frozenset
    component_b: frozenset


def merge_events(trace, t: int) -> list[MergeEvent]:
    """The pairs merged at step t, in merge order, with the components of G_X̂(t-1) they joined.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> ev = gp.viz.merge_events(gp.agglomerate(jr, "I*", 0.3).trace, 1)[0]     # paper 003, Example 3
    >>> sorted(ev.a | ev.b), ev.joined                  # x1 and x3 lay in different components of G_X
    (['x1', 'x3'], True)
    """
    t = trace._check_t(t)
    step = trace.steps[t]
    if t == 0 or not step.merged:
        return []
    labels = trace.public_labels
    code = {x: i for i, x in enumerate(labels)}
    prev = trace.component_ids(t - 1)
    groups: dict[int, list] = {}
    out = []
    for k, (a, b) in enumerate(step.merged):
        if min(code[x] for x in b) < min(code[x] for x in a):
            a, b = b, a
        ca, cb = int(prev[code[next(iter(a))]]), int(prev[code[next(iter(b))]])
        for c in (ca, cb):
            if c not in groups:
                groups[c] = frozenset(labels[i] for i in np.flatnonzero(prev == c).tolist())
        out.append(MergeEvent(k + 1, a, b, ca != cb, groups[ca], groups[cb]))
    return out


def step_status(trace, t: int) -> str:
    """"released" for the step whose quantisation the mechanism returns, "rejected" for a tentative step
    the stopping rule refused, "" otherwise."""
    t = trace._check_t(t)
    if not trace.steps[t].accepted:
        return "rejected"
    return "released" if t == trace.returned else ""


def step_title(trace, t: int, *, max_chars: int = 60, math: bool = True) -> str:
    """One line saying what step t did: ``"t = 3: 85 + 132, joins 2 components — released"``.

    Several pairs read ``"t = 1: 77 pairs merged (numbered), 1 joins components"``.
    """
    t = trace._check_t(t)
    universe = trace.public_labels
    head = f"$t={t}$" if math else f"t = {t}"
    ev = merge_events(trace, t)
    if t == 0:
        body = "no merge (original values)"
    elif not ev:
        body = "no merge"
    elif len(ev) == 1:
        e = ev[0]
        body = f"{cluster_label(e.a, universe, max_members=3, math=math)} + {cluster_label(e.b, universe, max_members=3, math=math)}"
        if len(body) > max_chars - 25:
            body = f"{len(e.a)} + {len(e.b)} values"
        if e.joined:
            body += ", joins 2 components"
    else:
        j = sum(e.joined for e in ev)
        body = f"{len(ev)} pairs merged (numbered)" + (f", {j} join{'s' if j == 1 else ''} components" if j else "")
    status = step_status(trace, t)
    if status == "released":
        body += " — released"
    elif status == "rejected":
        body += r" — rejected ($\Delta\mathcal{L}\geq 0$)" if math else " — rejected (ΔL >= 0)"
    return f"{head}: {body}"
