"""Ordering public values for display: numbers numerically, text naturally (``x2`` before ``x10``).

Every view that lists public values (matrix columns, dendrogram leaves, cluster labels) sorts them
with :func:`label_key`, so 92 comes before 100 and ``x9`` before ``x10`` everywhere. Views drawn next
to a merge hierarchy put the values in the order of its leaves, :func:`hierarchy_order`, so a cluster
sits at the same place, left to right, in the matrix and under the tree.
"""

from __future__ import annotations

import numbers
import re

import numpy as np

from .._labels import label_key

__all__ = ["label_key", "sort_labels", "cluster_label", "format_label", "math_text", "hierarchy_linkage",
           "hierarchy_order", "number_format", "elide"]

_LABEL_RE = re.compile(r"^([A-Za-z]+)_?(\d+)$")


def sort_labels(labels) -> list:
    """``labels`` sorted by :func:`label_key`."""
    return sorted(labels, key=label_key)


def hierarchy_linkage(trace) -> np.ndarray:
    """:meth:`graphpriv.MergeTrace.to_linkage` with the two children of every link swapped, where needed, so
    that the subtree holding the smaller value (:func:`label_key` order) is drawn on the left.

    It is the same tree (the rows, heights and sizes of ``to_linkage()``; only the columns 0 and 1 of some
    rows are exchanged), so ``fcluster(Z, t + 0.5, "distance")`` still gives ``trace.quantization(t)``;
    :func:`scipy.cluster.hierarchy.dendrogram` draws its leaves in :func:`hierarchy_order`.

    Parameters
    ----------
    trace : MergeTrace

    Returns
    -------
    numpy.ndarray of shape (n_public - 1, 4)

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> Z = gp.viz.labels.hierarchy_linkage(gp.agglomerate(jr, "I*", 0.3).trace)   # paper 003, Example 3
    >>> Z[:, 2].tolist() == gp.agglomerate(jr, "I*", 0.3).trace.to_linkage()[:, 2].tolist()
    True
    """
    for obj, Z in _LINKAGE_CACHE:   # the views of one trace (every frame of an animation) share it
        if obj is trace:
            return Z.copy()
    Z = trace.to_linkage().copy()
    labels = trace.public_labels
    n = len(labels)
    rank = label_ranks(labels)
    low = np.concatenate([rank, np.zeros(max(n - 1, 0), dtype=np.int64)])
    for i, (a, b) in enumerate(Z[:, :2].astype(np.int64).tolist()):
        if low[a] > low[b]:
            Z[i, 0], Z[i, 1] = b, a
        low[n + i] = min(low[a], low[b])
    _LINKAGE_CACHE.insert(0, (trace, Z))
    del _LINKAGE_CACHE[2:]
    return Z.copy()


_LINKAGE_CACHE: list = []   # [(trace, linkage)] of the last traces drawn
_RANK_CACHE: list = []      # [(labels, ranks)]


def label_ranks(labels) -> np.ndarray:
    """Rank of every label in :func:`label_key` order (0 for the first), computed once per labels object (a
    trace's ``public_labels``: every view and every frame of an animation of 10^4 text values sorts them once).

    Examples
    --------
    >>> from graphpriv.viz.labels import label_ranks
    >>> label_ranks(("x10", "x2", "x1")).tolist()
    [2, 1, 0]
    """
    for obj, rank in _RANK_CACHE:
        if obj is labels:
            return rank
    n = len(labels)
    rank = np.empty(n, dtype=np.int64)
    rank[sorted(range(n), key=lambda i: label_key(labels[i]))] = np.arange(n)
    if isinstance(labels, tuple):   # immutable: safe to keep
        rank.setflags(write=False)
        _RANK_CACHE.insert(0, (labels, rank))
        del _RANK_CACHE[4:]
    return rank


def hierarchy_order(trace) -> np.ndarray:
    """Public codes in the left-to-right order of the leaves of the merge hierarchy (:func:`hierarchy_linkage`).

    One order for the whole trace: every cluster of every Q(t) is a contiguous run (it is a subtree), each
    starting with its smallest value, and the matrix view drawn beside the dendrogram
    (``plot_merge_matrix(..., order="hierarchy")``) uses it, so a column never moves from one step to the next.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> tr = gp.agglomerate(jr, "I*", 0.3).trace                  # x1+x3, x2+x5, x4+x6, x13+x7
    >>> [tr.public_labels[i] for i in gp.viz.labels.hierarchy_order(tr)]
    ['x1', 'x3', 'x7', 'x2', 'x5', 'x4', 'x6']
    """
    from scipy.cluster.hierarchy import leaves_list

    if trace.n_public < 2:
        return np.arange(trace.n_public, dtype=np.int64)
    return leaves_list(hierarchy_linkage(trace)).astype(np.int64)


def _is_number(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


_DECIMAL_RE = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?")


def _number_of(x):
    """The number a public value stands for: a real number itself, or a decimal numeral read from text
    (``"11.84267"``; not ``"007"``, whose leading zero is part of a code), else None."""
    if _is_number(x):
        return x
    if isinstance(x, str) and len(x) < 40 and _DECIMAL_RE.fullmatch(x):
        return float(x)
    return None


def _num_text(x) -> str:
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x.item() if hasattr(x, "item") else x)


def _decimals(x) -> int:
    """Decimals of the shortest text of a number (``11.84267`` -> 5, ``10.3`` -> 1, ``12`` -> 0)."""
    txt = repr(float(x))
    if "e" in txt or "inf" in txt or "nan" in txt:
        return 0
    frac = txt.split(".")[1] if "." in txt else ""
    return 0 if frac == "0" else len(frac)


def number_format(values, *, max_decimals: int = 3):
    """One text format for every number of an axis: the same count of decimals for all of them (what 95 % of the
    values need, at most ``max_decimals``), so ticks never mix ``10.3`` with ``11.84267``. Returns a function
    value -> text; text values pass through :func:`elide` unchanged in form (numbers among text keep their own text).

    Examples
    --------
    >>> from graphpriv.viz.labels import number_format
    >>> f = number_format([10.3, 11.84267, 12])
    >>> [f(v) for v in (10.3, 11.84267, 12)]
    ['10.300', '11.843', '12.000']
    >>> f = number_format([0.5 * k for k in range(40)] + [11.84267])      # one outlier among 41 values
    >>> [f(v) for v in (10.5, 11.84267, 12)]
    ['10.5', '11.8', '12.0']
    >>> number_format([1, 20, 300])(20)
    '20'
    >>> number_format(["Aachen", 3])("Aachen")
    'Aachen'
    """
    vals = [u for u in map(_number_of, values) if u is not None]
    # the decimals that 95 % of the values need (a few long outliers are rounded, not every label lengthened)
    need = sorted(_decimals(v) for v in vals)
    d = min(max_decimals, need[min(len(need) - 1, int(0.95 * len(need)))] if need else 0)

    def fmt(v) -> str:
        u = _number_of(v) if vals else None
        if u is not None:
            return f"{float(u):.{d}f}"
        return format_label(v, math=False)

    return fmt


def band_range(members):
    """(low, high) of a run of public values collapsed into one band: the smallest and the largest value
    when every member is a number (whatever order the band is drawn in), otherwise the first and the last
    member in :func:`label_key` order (text has no range: first–last in label order).

    Examples
    --------
    >>> from graphpriv.viz.labels import band_range
    >>> band_range([3.1, 60.0, 52.0])
    (3.1, 60.0)
    >>> band_range(["Upton", "Aachen", "Kiel"])
    ('Aachen', 'Upton')
    """
    ms = list(members)
    if not ms:
        raise ValueError("band_range needs at least one member")
    if all(_number_of(m) is not None for m in ms):   # numbers, or decimal numerals read from a file
        return min(ms, key=lambda m: float(_number_of(m))), max(ms, key=lambda m: float(_number_of(m)))
    ms = sort_labels(ms)
    return ms[0], ms[-1]


_PIECES_RE = re.compile(r"(,\s*|\s+|–)")   # word boundaries: commas, spaces and the en dash of a range
_NUMBER_RE = re.compile(r"[-+−]?\(?[0-9][0-9,.]*\)?%?")


def _is_numeral(word: str) -> bool:
    """A word that reads as a number (``35.0``, ``-1.6``, ``(7)``, ``1,234``): never cut inside."""
    return bool(_NUMBER_RE.fullmatch(word))


def elide(text: str, max_chars: int = 24) -> str:
    """``text`` in at most ``max_chars`` characters: whole words from its start and its end around one ``…``
    where the words between were left out (``'Kalobersted …'``, ``'85, …, 603 (40)'``), so no word and no number
    is cut inside; the start (the first value) and a count at the end, ``(40)``, stay when they fit; shorter text
    is returned as is.

    Words are separated by spaces, commas and the en dash of a range (``32.2–32.8`` elides to ``32.2–…``).
    Text already holding an ellipsis gets no second one next to it: the words around it are left out with it.
    Only a single word too long for ``max_chars`` is shortened inside, to its first characters and ``…``; a
    number never is (a number with its middle cut reads as a different number): it is returned whole.

    Examples
    --------
    >>> from graphpriv.viz.labels import elide
    >>> elide("Kalobersted Hamvilleburgford", 16)
    'Kalobersted …'
    >>> elide("85, 100, …, 603 (40)", 15)
    '85, …, 603 (40)'
    >>> elide("32.2–32.8", 8)
    '32.2–…'
    >>> elide("Kaloberstedhamvilleburgford", 12)
    'Kalobersted…'
    >>> elide("58.85812345", 4)
    '58.85812345'
    >>> elide("Aachen", 16)
    'Aachen'
    """
    text = str(text)
    if len(text) <= max_chars or max_chars < 2:
        return text
    pieces = _PIECES_RE.split(text)          # word, separator, word, ..., word
    words, seps = pieces[0::2], pieces[1::2]
    nw = len(words)
    best, best_score = None, -1.0

    def sep_text(sep: str) -> str:
        return sep if sep.strip() in (",", "–") else " "

    for h in range(nw + 1):
        for w in range(nw - h + 1):
            if h + w >= nw or (h == 0 and w == 0):
                continue
            head_words, tail_words = words[:h], words[nw - w:]
            if (head_words and not head_words[-1]) or (tail_words and not tail_words[0]):
                continue
            # the words left out take every ellipsis next to the cut with them: never "……"
            if (head_words and head_words[-1].endswith("…")) or (tail_words and tail_words[0].startswith("…")):
                continue
            out = ""
            if h:
                out = "".join(pieces[:2 * h - 1]) + sep_text(seps[h - 1]).rstrip()
                out += "" if out.endswith("–") else " "
            out += "…"
            if w:
                sep = seps[nw - w - 1]
                out += (", " if sep.strip() == "," else "–" if sep.strip() == "–" else " ") + "".join(pieces[2 * (nw - w):])
            out = out.strip()
            if len(out) > max_chars:
                continue
            # the start (the first value) and a count at the end weigh most, then the words kept
            score = (sum(len(x) for x in head_words + tail_words) + (4.0 if h else 0.0)
                     + (4.0 if w and re.fullmatch(r"\(\d[\d,]*\)", words[-1]) else 0.0) + (0.5 if h and w else 0.0))
            if score > best_score:
                best, best_score = out, score
    if best is not None:
        return best
    first = words[0] if words[0] else text
    if _is_numeral(first):
        return first if first == text else first + " …"
    if max_chars < 5:   # a word cut to two or three letters says nothing: only the mark that it was left out
        return "…"
    return first[:max_chars - 1].rstrip() + "…"


def elide_value(text: str, max_chars: int = 24) -> str:
    """:func:`elide` for the text of one value, except that a number is never cut (``'58.8581'`` stays whole:
    a number with its middle elided reads as a different number).

    Examples
    --------
    >>> from graphpriv.viz.labels import elide_value
    >>> elide_value("58.8581", 4), elide_value("Kalobersted Hamvilleburgford", 16)
    ('58.8581', 'Kalobersted …')
    """
    text = str(text)
    try:
        float(text.replace(",", ""))
        return text
    except ValueError:
        return elide(text, max_chars)


def wrap_label(text: str, width: int, lines: int) -> str:
    """``text`` wrapped at spaces to at most ``lines`` lines of about ``width`` characters. Text too long loses
    whole words from its middle (one ``…`` marks the gap), so its start and its end (the last value, the
    count) stay and no number is ever cut inside; a single word still too long is elided in its middle
    (:func:`elide_value`: never a number).

    Examples
    --------
    >>> from graphpriv.viz.labels import wrap_label
    >>> print(wrap_label("Kalobersted, Hamvilleburgford, …, Wickholmstad (120)", 16, 3))
    Kalobersted, …,
    Wickholmstad
    (120)
    >>> print(wrap_label("3.1, 3.5, …, 60.0 (312)", 10, 2))
    3.1, …,
    60.0 (312)
    """
    import textwrap

    def fits(words):
        out = textwrap.wrap(" ".join(words), width, break_long_words=False)
        return out if len(out) <= lines and all(len(x) <= width + 3 for x in out) else None

    words = str(text).split()
    if not words:
        return ""
    while True:
        out = fits(words)
        if out is not None:
            return "\n".join(out)
        inner = [k for k in range(1, len(words) - 2) if words[k] not in ("…", "…,")]
        if not inner:
            break
        k = inner[len(inner) // 2]
        words[k] = "…,"
        # one ellipsis for each gap
        words = [w for m, w in enumerate(words) if not (w == "…," and m > 0 and words[m - 1] in ("…", "…,"))]
    words = [elide_value(w, width) for w in words]
    out = textwrap.wrap(" ".join(words), width, break_long_words=False)
    if len(out) > lines:   # still too long: the end (last value, count) matters most
        out = out[-lines:]
        out[0] = out[0] if out[0].startswith("…") else "… " + out[0]
        if out[0].count("…") > 1:   # a shortened word after the leading ellipsis: the line says nothing, drop it
            out = out[1:]
            out = ["… " + out[0] if out and not out[0].startswith("…") else "…"] + out[1:] if out else ["…"]
    return "\n".join(out)


_UNIVERSE_CACHE: list = []   # [(universe object, sorted label keys)], the last few universes seen


_RANK_OF: list = []   # [(universe, {label: rank})]


def _universe_rank(universe) -> dict | None:
    """{label: rank in label_key order} of a tuple of labels, computed once per tuple (None for other types)."""
    if not isinstance(universe, tuple):
        return None
    for obj, pos in _RANK_OF:
        if obj is universe:
            return pos
    pos = dict(zip(universe, label_ranks(universe).tolist()))
    _RANK_OF.insert(0, (universe, pos))
    del _RANK_OF[2:]
    return pos


def _sorted_keys(universe) -> list:
    for obj, keys in _UNIVERSE_CACHE:
        if obj is universe:
            return keys
    keys = sorted(label_key(u) for u in set(universe))
    if isinstance(universe, tuple):   # immutable: safe to keep
        _UNIVERSE_CACHE.insert(0, (universe, keys))
        del _UNIVERSE_CACHE[4:]
    return keys


def cluster_label(members, universe=None, *, max_members: int = 4, math: bool = False, fmt=None,
                  max_chars: int | None = None) -> str:
    """Short, unambiguous text for a cluster of public values, members in :func:`label_key` order.

    * one member: the value itself (:func:`graphpriv.viz.labels.format_label`);
    * up to ``max_members`` members: all of them (``"85, 132"``, or :math:`x_{13}` for paper-style labels);
    * members that are consecutive in ``universe`` (every public value between the smallest and the largest
      member, in :func:`label_key` order, belongs to the cluster): ``"92–122 (13)"``, ``"x1–x7 (7)"``;
    * otherwise the first two, an ellipsis, the last and the count: ``"85, 100, …, 603 (40)"``.

    Parameters
    ----------
    members : iterable of public labels
    universe : iterable of public labels, optional
        All public values (to decide whether a numeric cluster is a contiguous range).
    max_members : int
        Largest cluster written out in full.
    math : bool
        Typeset paper-style labels with mathtext (``$x_{13}$``).
    fmt : callable, optional
        Text of one member (e.g. :func:`number_format` of the axis, so every label of an axis writes its numbers
        alike); default: the value's own text.
    max_chars : int, optional
        Each member's text is elided (:func:`elide`) to this many characters.

    Examples
    --------
    >>> from graphpriv.viz.labels import cluster_label
    >>> cluster_label([100, 92, 105], universe=[92, 100, 105, 130])
    '92, 100, 105'
    >>> cluster_label([92, 98, 100, 105, 122], universe=[92, 98, 100, 105, 122, 130], max_members=3)
    '92–122 (5)'
    >>> cluster_label([92, 100, 105, 122, 140], universe=[92, 98, 100, 105, 122, 140], max_members=3)
    '92, 100, …, 140 (5)'
    >>> cluster_label(["x3", "x1"], math=True)
    '$x_{13}$'
    """
    members = set(members)
    pos = _universe_rank(universe) if universe is not None and len(members) > 16 else None
    if pos is not None and all(m in pos for m in members):   # big clusters: sort by the universe's cached ranks
        ms = sorted(members, key=pos.__getitem__)
    else:
        ms = sort_labels(members)
    if not ms:
        return "{}"
    if fmt is not None or max_chars is not None:
        one = fmt or (lambda m: _num_text(m) if _is_number(m) else format_label(m, math=False))
        text = (lambda m: elide_value(one(m), max_chars)) if max_chars is not None else one
        if len(ms) <= max_members:
            return ", ".join(text(m) for m in ms)
        if universe is not None and _contiguous(ms, universe):
            return f"{text(ms[0])}–{text(ms[-1])} ({len(ms)})"
        return f"{text(ms[0])}, {text(ms[1])}, …, {text(ms[-1])} ({len(ms)})"
    if len(ms) == 1:
        return format_label(ms[0], math=math)
    numeric = all(_is_number(m) for m in ms)
    paper_style = not numeric and all(_LABEL_RE.match(str(m)) for m in ms) and len({_LABEL_RE.match(str(m)).group(1) for m in ms}) == 1
    if len(ms) <= max_members:
        if paper_style:
            return format_label(tuple(ms), math=math)
        return ", ".join(_num_text(m) if _is_number(m) else format_label(m, math=False) for m in ms)
    text = _num_text if numeric else (lambda m: format_label(m, math=False))
    if universe is not None and _contiguous(ms, universe):
        return f"{text(ms[0])}–{text(ms[-1])} ({len(ms)})"
    return f"{text(ms[0])}, {text(ms[1])}, …, {text(ms[-1])} ({len(ms)})"


def _contiguous(ms: list, universe) -> bool:
    """Every value of ``universe`` between the first and the last of the sorted members ``ms`` is a member
    (binary search in the universe's sorted keys, computed once per universe)."""
    import bisect

    pos = _universe_rank(universe)
    if pos is not None and len(pos) == len(universe) and all(m in pos for m in ms):   # distinct labels
        return pos[ms[-1]] - pos[ms[0]] + 1 == len(ms)
    keys = _sorted_keys(universe)
    inside = bisect.bisect_right(keys, label_key(ms[-1])) - bisect.bisect_left(keys, label_key(ms[0]))
    return inside == len(ms)


def format_label(label, *, math: bool = True, max_members: int | None = None) -> str:
    """Display string for a public label or a super-node (tuple/frozenset of labels).

    Labels of the form ``<letters><digits>`` are typeset as the paper does: ``"x1"`` -> :math:`x_1`, and a
    super-node fusing ``x1`` and ``x3`` -> :math:`x_{13}` (paper 003, Fig. 4). When an index has more than
    one digit the indices are separated by commas (:math:`x_{10,11}`) so the label stays unambiguous.
    Other labels are joined with ``"+"``.

    Parameters
    ----------
    label : hashable, tuple or frozenset
    math : bool
        Use matplotlib mathtext (``$x_{13}$``); otherwise plain text (``x13``).
    max_members : int, optional
        Abbreviate super-nodes with more members (:func:`graphpriv.viz.labels.cluster_label`: numeric order,
        ``"92–122 (13)"`` or first two, ellipsis, last and count).

    Examples
    --------
    >>> from graphpriv.viz.labels import format_label
    >>> format_label("x1")
    '$x_{1}$'
    >>> format_label(("x1", "x3"))
    '$x_{13}$'
    >>> format_label(frozenset({"x10", "x2"}), math=False)
    'x2,10'
    >>> format_label((132, 150))
    '132+150'
    >>> format_label(("x1", "x3", "x4", "x7"), math=False, max_members=3)
    'x1, x3, …, x7 (4)'
    >>> format_label((100, 92, 105, 122), max_members=3)
    '92, 100, …, 122 (4)'
    """
    if isinstance(label, (tuple, list, frozenset, set)):
        members = list(label)
        if not members:
            return "{}"
        if len(members) == 1:
            return format_label(members[0], math=math)
    else:
        members = [label]
    if max_members is not None and len(members) > max(max_members, 2):
        return cluster_label(members, max_members=max(max_members, 2), math=math)
    parsed = [_LABEL_RE.match(str(m)) for m in members]
    if all(parsed) and len({p.group(1) for p in parsed}) == 1:
        idx = sorted((p.group(2) for p in parsed), key=int)
        sep = "," if len(idx) > 1 and any(len(i) > 1 for i in idx) else ""
        prefix = parsed[0].group(1)
        body = sep.join(idx)
        return f"${prefix}_{{{body}}}$" if math else f"{prefix}{body}"
    return "+".join(_plain(m) for m in sort_labels(members))


def _plain(m) -> str:
    if isinstance(m, float) and m.is_integer():
        return str(int(m))
    return str(m)


# plain-text names -> matplotlib mathtext, longest first (one formatter for every figure's labels)
_MATH_NAMES = [
    (r"L0\|I\*=0", r"$L_0$ with $I^*=0$"),
    (r"I\*\(S;\s*X\)", r"$I^*(S;X)$"),
    (r"I\*\(S;\s*X̂\)", r"$I^*(S;\hat X)$"),
    (r"\|\[\[S\|x\]\]\|", r"$|[\![S|x]\!]|$"),
    (r"\[\[S\|x\]\]", r"$[\![S|x]\!]$"),
    (r"I\*", r"$I^*$"),
    (r"G_X", r"$G_X$"),
    (r"\|S\|", r"$|S|$"),
    (r"\|X\|", r"$|X|$"),
    (r"ε̄", r"$\bar\epsilon$"),
    (r"ε", r"$\epsilon$"),
    (r"δ", r"$\delta$"),
    (r"λ", r"$\lambda$"),
    (r"σ", r"$\sigma$"),
    (r"α", r"$\alpha$"),
    (r"∞", r"$\infty$"),
    (r"→", r"$\to$"),
    (r"(?<![A-Za-z_])([LUIH])([0-9])(?![0-9A-Za-z])", None),          # L0, U1, I0, H0 -> L_0 ...
    (r"(?<![A-Za-z_\\])([xXsSwW])([0-9]+)(?![0-9A-Za-z])", None),     # x11 -> x_{11}, X1 -> X_1
]
_MATH_RE = re.compile("|".join(f"({p})" for p, _ in _MATH_NAMES))


def math_text(text: str) -> str:
    r"""Typeset the symbols of a plain-text figure label with matplotlib mathtext, so every figure writes them
    the same way: ``I*`` -> :math:`I^*`, ``G_X`` -> :math:`G_X`, ``x11`` -> :math:`x_{11}`, ``ε``/``δ``/``ε̄``
    -> :math:`\epsilon`, :math:`\delta`, :math:`\bar\epsilon`, ``L0`` -> :math:`L_0`, ``"L0|I*=0"`` ->
    ":math:`L_0` with :math:`I^*=0`" (problem (10) of Ding & Farokhi). A symbol followed by ``=value`` is set
    as one formula. Text already holding ``$`` is returned unchanged.

    Examples
    --------
    >>> from graphpriv.viz.labels import math_text
    >>> math_text("ε=1, δ=0.005, ε̄=∞")
    '$\\epsilon=1$, $\\delta=0.005$, $\\bar\\epsilon=\\infty$'
    >>> math_text("L0|I*=0")
    '$L_0$ with $I^*=0$'
    >>> math_text("mean I* of x11")
    'mean $I^*$ of $x_{11}$'
    >>> math_text("$x$")
    '$x$'
    """
    if not isinstance(text, str) or "$" in text:
        return text

    def one(m) -> str:
        tok = m.group(0)
        for pat, rep in _MATH_NAMES:
            if re.fullmatch(pat, tok):
                if rep is not None:
                    return rep
                mm = re.fullmatch(pat, tok)
                sym, idx = mm.group(1), mm.group(2)
                return f"${sym}_{{{idx}}}$" if len(idx) > 1 else f"${sym}_{idx}$"
        return tok  # pragma: no cover

    out = _MATH_RE.sub(one, text)
    # "$\epsilon$=1" -> "$\epsilon=1$"; "$\bar\epsilon$=$\infty$" -> "$\bar\epsilon=\infty$"
    out = re.sub(r"\$([^$]+)\$\s*=\s*\$([^$]+)\$", r"$\1=\2$", out)
    out = re.sub(r"\$([^$]+)\$\s*=\s*([-+]?[0-9][0-9.]*(?:/[0-9]+)?)", r"$\1=\2$", out)
    return out
