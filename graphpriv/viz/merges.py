"""What happened at step t of a merge trace, in words: the pairs merged, the components they joined,
and whether the step is the released one or a rejected tentative step. Shared by every merge view
(matrix, hierarchy, component graph, node-link panels, animations) so they all say the same thing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import InputError, InputTypeError
from .graphs import _check_jr
from .labels import cluster_label

__all__ = ["MergeEvent", "merge_events", "step_status", "step_title", "status_color"]


def _check_trace(trace):
    from ..mechanisms.trace import MergeTrace

    if not isinstance(trace, MergeTrace):
        raise InputTypeError(f"trace must be a graphpriv MergeTrace (e.g. gp.agglomerate(...).trace), got {type(trace).__name__}")
    return trace


def _check_pair(trace, jr):
    _check_trace(trace)
    _check_jr(jr)
    if tuple(jr.public_labels.tolist()) != tuple(trace.public_labels):
        raise InputError("jr does not have the public labels this trace was recorded on; pass the joint range the mechanism ran on")


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


def status_color(trace, t: int) -> str:
    """Title colour of step t shared by every merge view: ``ROLE["frontier"]`` (blue) for the released step,
    ``ROLE["cut"]`` (vermilion) for a rejected tentative step, black otherwise."""
    from .style import ROLE

    return {"released": ROLE["frontier"], "rejected": ROLE["cut"]}.get(step_status(trace, t), "black")


def step_title(trace, t: int, *, max_chars: int = 60, math: bool = True, lines: int = 1) -> str:
    """What step t did, in one line (``lines=1``) or two (``lines=2``: the pairs, then the joins and status).

    ``"t = 3: 85 + 132, joins 2 components — released"``; several pairs read
    ``"t = 1: 77 pairs merged (numbered), pair 1 joins 2 components"`` (the numbers of the pairs that joined
    components are named when there are at most three of them).

    Examples
    --------
    >>> from graphpriv.viz import step_title
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> tr = gp.agglomerate(jr, "I*", 0.3).trace                   # paper 003, Example 3
    >>> step_title(tr, 4, math=False)
    't = 4: x13 + x7, joins 2 components — released'
    """
    t = trace._check_t(t)
    universe = trace.public_labels
    head = f"$t={t}$" if math else f"t = {t}"
    ev = merge_events(trace, t)
    extra = []
    if t == 0:
        body = "$G_X$, no merge yet" if math else "G_X, no merge yet"
    elif not ev:
        body = "no merge"
    elif len(ev) == 1:
        e = ev[0]
        body = f"{cluster_label(e.a, universe, max_members=3, math=math)} + {cluster_label(e.b, universe, max_members=3, math=math)}"
        if len(re.sub(r"[${}_\\]", "", body)) > max_chars - 25:   # long text values: each side elided
            room = max(8, (max_chars - 28) // 2)
            body = (f"{cluster_label(e.a, universe, max_members=2, max_chars=max(6, room))} + "
                    f"{cluster_label(e.b, universe, max_members=2, max_chars=max(6, room))}")
            if len(body) > max_chars - 20:
                body = f"{len(e.a)} + {len(e.b)} values"
        if e.joined:
            extra.append("joins 2 components")
    else:
        j = [e.number for e in ev if e.joined]
        body = f"{len(ev)} pairs merged (numbered)"
        if len(j) == 1:
            extra.append(f"pair {j[0]} joins 2 components")
        elif 1 < len(j) <= 3:
            extra.append(f"pairs {', '.join(map(str, j))} join components")
        elif j:
            extra.append(f"{len(j)} pairs join components")
    status = step_status(trace, t)
    if status == "released":
        extra.append("released")
    elif status == "rejected":
        extra.append(r"rejected ($\Delta\mathcal{L}\geq 0$)" if math else "rejected (ΔL >= 0)")
    if lines >= 2:
        return f"{head}: {body}" + ("\n" + ", ".join(extra) if extra else "")
    tail = [x for x in extra if x not in ("released",) and not x.startswith("rejected")]
    status_txt = [x for x in extra if x not in tail]
    return f"{head}: {body}" + "".join(", " + x for x in tail) + "".join(" — " + x for x in status_txt)
