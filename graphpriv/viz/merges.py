"""What happened at step t of a merge trace, in words: the pairs merged, the components they joined,
and whether the step is the released one or a rejected tentative step. Shared by every merge view
(matrix, hierarchy, component graph, node-link panels, animations) so they all say the same thing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from ..errors import InputError, InputTypeError
from ..ranges import JointRange
from .labels import cluster_label

__all__ = ["MergeEvent", "merge_events", "step_status", "step_title", "status_color", "as_trace_range", "measure_names",
           "measure_labels", "step_why"]


def _check_trace(trace):
    from ..mechanisms.trace import MergeTrace

    if not isinstance(trace, MergeTrace):
        inner = getattr(trace, "trace", None)       # a mechanism's result: its trace
        if isinstance(inner, MergeTrace):
            return inner
        raise InputTypeError(f"trace must be a graphpriv MergeTrace (e.g. gp.agglomerate(...).trace, "
                             f"gp.watchdog(...).trace), got {type(trace).__name__}")
    return trace


def as_trace_range(trace, data):
    """The joint range a merge view draws for ``trace``, from the data the mechanism ran on.

    Every merge view takes its data argument through this function: a :class:`~graphpriv.JointRange`
    is used as it is; a :class:`~graphpriv.JointDistribution` (the data of the privacy watchdog and the
    other mechanisms on a distribution, whose traces record their own criterion per step) gives its
    support {(s, x): p(s, x) > 0}, whose bipartite graph is the trace's P(0).

    Parameters
    ----------
    trace : MergeTrace
    data : JointRange or JointDistribution

    Returns
    -------
    JointRange
        With the trace's public labels, in its order.

    Raises
    ------
    InputTypeError
        ``data`` is neither.
    InputError
        The labels differ from the trace's (another data set), or the distribution has public symbols
        of zero probability, which its support leaves out.

    Examples
    --------
    >>> import numpy as np, graphpriv as gp
    >>> P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    >>> jd = gp.JointDistribution(P)
    >>> gp.viz.merges.as_trace_range(gp.watchdog(jd, 1.0).trace, jd)
    JointRange(|S|=4, |X|=8, pairs=32)
    """
    from ..distributions import JointDistribution

    if isinstance(data, JointDistribution):
        zero = data.p_x <= 0
        if zero.any():
            raise InputError(f"the distribution has {int(zero.sum())} public symbol(s) of zero probability "
                             f"(e.g. {data.public_labels[zero][:3].tolist()}), which its support leaves out; run the "
                             "mechanism on jd.drop_zero_mass() to draw its trace")
        data = data.support()
    elif not isinstance(data, JointRange):
        raise InputTypeError(f"the data of a merge view must be the JointRange or JointDistribution the mechanism ran "
                             f"on, got {type(data).__name__}")
    if tuple(data.public_labels.tolist()) != tuple(trace.public_labels):
        raise InputError("the data do not have the public labels this trace was recorded on; pass the joint range "
                         "(or distribution) the mechanism ran on")
    return data


def _check_pair(trace, jr):
    """(trace, joint range) of a merge view's arguments: a mechanism's result gives its trace, a
    distribution its support (:func:`as_trace_range`)."""
    trace = _check_trace(trace)
    return trace, as_trace_range(trace, jr)


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
    >>> ev = gp.viz.merges.merge_events(gp.agglomerate(jr, "I*", 0.3).trace, 1)[0]     # paper 003, Example 3
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
    if not trace.step_accepted[t]:
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
    >>> from graphpriv.viz.merges import step_title
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


# ---------------------------------------------------------------------- traces with their own criterion
def _unit(base: float) -> str:
    if abs(base - math.e) < 1e-12:
        return "nats"
    return "bits" if base == 2 else f"log base {base:g}"


def measure_labels(trace) -> dict:
    """Axis names of a trace that records its own criterion: ``criterion`` (``info["criterion"]``) and
    ``privacy_label``, ``utility_label``, ``criterion_label`` read from ``info["privacy_measure"]``,
    ``info["utility_measure"]`` (with the unit of the trace's ``base`` for logarithmic measures) and
    ``info["criterion_label"]`` (default: the criterion's key)."""
    unit = str(trace.info.get("unit") or _unit(float(trace.base)))
    key = str(trace.info.get("criterion", ""))
    priv = str(trace.info.get("privacy_measure", "privacy"))
    util = str(trace.info.get("utility_measure", trace.utility))
    logish = ("log", "I(", "H(", "leak")
    return {"criterion": key,
            "privacy_label": priv + (f" ({unit})" if any(w in priv for w in logish) else ""),
            "utility_label": util + (f" ({unit})" if any(w in util for w in logish) else ""),
            "criterion_label": str(trace.info.get("criterion_label") or key.replace("_", " "))}


def step_why(trace, t: int) -> str:
    """Why step t of a trace that records its own criterion did what it did: the step's ``decision``
    sentence when the mechanism wrote one, else the main criterion (``info["criterion"]``) by name.

    Examples
    --------
    >>> import numpy as np, graphpriv as gp
    >>> P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    >>> from graphpriv.viz.merges import step_why
    >>> step_why(gp.watchdog(gp.JointDistribution(P), 1.0).trace, 2)
    'x6: max |log-lift| 3.79 > ε = 1: merged into the protected block (block of 2, its max |log-lift| 1.69; ε_eff 1.74)'
    """
    t = trace._check_t(t)
    c = trace.step_criteria[t] if trace.step_criteria else {}
    text = c.get("decision")
    if isinstance(text, str) and text:
        return text
    key = trace.info.get("criterion")
    if key in c:
        v = c[key]
        return f"{str(key).replace('_', ' ')} = {v:.4g}" if isinstance(v, (int, float)) and not isinstance(v, bool) else f"{key} = {v}"
    return ""


def measure_text(v) -> str:
    """A recorded measure as the merge views write it: 3 significant digits, ∞, and 0 for rounding noise
    below 1e-12 (the log of a lift of 1 computed as 4e-16)."""
    v = float(v)
    if v != v:
        return "n/a"
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    return "0" if abs(v) < 1e-12 else f"{v:.3g}"


def measure_names(trace) -> dict:
    """Names of a trace's privacy, utility and criterion for axis labels and annotations, read from the
    trace (``info["privacy_measure"]``, ``info["utility_measure"]``, ``info["criterion"]``) with the unit of its
    ``base`` for logarithmic measures; paper 003's traces give L0 / I* and their utility.

    Examples
    --------
    >>> import numpy as np, graphpriv as gp
    >>> P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    >>> gp.viz.merges.measure_names(gp.watchdog(gp.JointDistribution(P), 1.0).trace)["privacy"]
    'max |log-lift| (nats)'
    """
    trace = _check_trace(trace)
    if not trace.has_criteria:
        priv = {"I*": "I*", "L0": "L0", "L0|I*=0": "L0", "k-anonymity": "L0"}.get(trace.objective, "privacy")
        return {"privacy": priv, "utility": trace.utility, "criterion": "ΔL"}
    m = measure_labels(trace)
    return {"privacy": m["privacy_label"], "utility": m["utility_label"], "criterion": m["criterion_label"]}
