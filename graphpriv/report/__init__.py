"""Rendering the analysis report (``report.md``, ``report.html`` and the printed summary) from its data.

The report is a dict (:func:`graphpriv.io.analysis_report`); every output is rendered from that dict,
never by re-parsing text that holds user input:

- ``report.html`` comes from a Jinja2 template (``templates/report.html.j2``) with autoescaping on, so
  a file name, column name or value shows as text whatever characters it holds. Figures are embedded
  as base64 ``data:`` URIs only when they are PNG files graphpriv wrote into the output folder
  (a ``figures/<name>.png`` path inside it, a regular file, not a link); nothing else is ever opened.
- ``report.md`` escapes every user string (Markdown punctuation, ``<``/``>``/``&`` as entities,
  control characters such as a newline shown as ``\\n``), so no user text turns into a link, an
  image or raw HTML.
- Long values are cut to :data:`MAX_LABEL_CHARS` characters (saying how long they were).
"""

from __future__ import annotations

import base64
import os
import re
from pathlib import Path
from typing import Any, Sequence

from .glossary import PAPER, glossary_lines, term
from .principal import principal_markdown_lines, principal_rows, principal_summary, principal_text_lines

__all__ = ["MAX_LABEL_CHARS", "display_text", "markdown_escape", "report_lines", "report_markdown", "report_html"]

#: User strings (file names, column names, values) are shown with at most this many characters.
MAX_LABEL_CHARS = 80
#: At most this many values of a list (the min-cut side, a small component) are shown.
MAX_LIST_ITEMS = 20

_FIGURE_FILE = re.compile(r"figures/[A-Za-z0-9_][A-Za-z0-9_.-]{0,100}\.png")
_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_MD_SPECIAL = re.compile(r"([\\`*_\[\]!|~])")


def display_text(value: Any, limit: int = MAX_LABEL_CHARS) -> str:
    """One user value as a single printable line: control characters as escapes (a newline shows as
    ``\\n``), cut to ``limit`` characters with the full length said, ``None`` as ``missing``.

    Examples
    --------
    >>> from graphpriv.report import display_text
    >>> display_text("a\\nb"), display_text(None), display_text("x" * 100, 10)
    ('a\\\\nb', 'missing', 'xxxxxxxxxx… (100 characters)')
    """
    if value is None:
        return "missing"
    text = value if isinstance(value, str) else str(value)
    n = len(text)
    if n > limit:
        text = text[:limit]
    text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
    if n > limit:
        text += f"… ({n} characters)"
    return text


def _same(text: str) -> str:
    return text


def _list_text(values: Sequence[Any] | None, limit: int = MAX_LIST_ITEMS, esc=_same) -> str:
    if values is None:
        return "n/a"
    shown = [esc(display_text(v)) for v in list(values)[:limit]]
    more = len(values) - len(shown)
    return "[" + ", ".join(shown) + (f", … {more} more" if more > 0 else "") + "]"


def markdown_escape(text: str) -> str:
    """``text`` made inert inside a Markdown line: the characters that start inline markup
    (``\\ ` * _ [ ] ! | ~``) backslash-escaped, ``& < >`` as HTML entities (so no raw HTML).

    Examples
    --------
    >>> from graphpriv.report import markdown_escape
    >>> print(markdown_escape("![x](../s.txt) <script>"))
    \\!\\[x\\](../s.txt) &lt;script&gt;
    """
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", text)


def _fmt(v: Any, digits: int = 4) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def _parts(report: dict):
    return tuple(report.get(k) or {} for k in ("input", "rows", "range", "measures", "components", "min_cut"))


def _cut_lines(cut: dict, esc=_same) -> list[str]:
    if not cut.get("computed"):
        return [str(cut.get("note") or "not computed") + "."]
    lines = [f"Min cut value {cut['value']}, computed as the {cut.get('method')}; "
             f"decomposable: {'yes' if cut.get('decomposable') else 'no'}."]
    side = cut.get("side")
    if side:
        lines.append(f"Smaller side X' ({len(side)} public value{'s' if len(side) != 1 else ''}): {_list_text(side, esc=esc)}"
                     + (f"; {cut['n_cut_edges']} edge(s) of G_X cross the cut." if cut.get("n_cut_edges") is not None else "."))
    return lines


_EXPLORER = "explorer.html"


def _view(report: dict, esc=_same) -> dict:
    """Everything the renderers show, as display strings; ``esc`` is applied to each user string
    (Markdown escaping; the HTML template escapes by itself)."""
    inp, rows, rng, m, comp, cut = _parts(report)
    inp_view = {k: esc(display_text(inp.get(k))) for k in ("path", "format", "sensitive", "public", "missing")} if inp else {}
    range_rows = [("|[[S]]|", rng.get("n_sensitive")), ("|[[X]]|", rng.get("n_public")),
                  ("|[[S,X]]| (pairs)", rng.get("n_pairs"))]
    if rng.get("n_singleton_pairs") is not None:
        range_rows.append(("pairs seen once", rng["n_singleton_pairs"]))
    measure_rows = [("H0(S)", _fmt(m.get("H0_S")), _meaning("H0")),
                    ("H0(S|X)", _fmt(m.get("H0_S_given_X")), _meaning("H0|X")),
                    ("I0(S→X)", _fmt(m.get("I0")), _meaning("I0")), ("L0(S→X)", _fmt(m.get("L0")), _meaning("L0")),
                    ("B0(S|X)", _fmt(m.get("B0")), _meaning("B0")),
                    ("k-anonymity k", _fmt(m.get("k_anonymity")), _meaning("k")), ("I*(S;X)", _fmt(m.get("I_star")), _meaning("I*"))]
    small = [{"public": _list_text(c.get("public"), esc=esc), "sensitive": _list_text(c.get("sensitive"), esc=esc)}
             for c in comp.get("small") or []]
    figures = []
    for f in report.get("figures") or []:
        file = str(f.get("file", ""))
        figures.append({"file": file, "alt": Path(file).stem.replace("_", " "), "caption": str(f.get("caption", ""))})
    omitted = [{"figure": esc(display_text(o.get("figure"))), "reason": esc(display_text(o.get("reason"), 300))} for o in report.get("figures_omitted") or []]
    psp = report.get("principal_partitions") or {}
    return {"inp": inp_view, "rows": rows, "range_rows": range_rows, "measure_rows": measure_rows,
            "comp": comp, "small": small, "cut_lines": _cut_lines(cut, esc), "figures": figures, "omitted": omitted,
            "paper": PAPER, "stochastic": _stochastic_view(report), "psp": psp,
            "psp_summary": principal_summary(psp) if psp.get("computed") else "", "psp_rows": principal_rows(psp),
            "version": display_text(report.get("graphpriv_version")), "schema": report.get("schema_version"),
            # only the file graphpriv itself writes beside the report is ever linked
            "explorer": _EXPLORER if report.get("explorer") == _EXPLORER else None}


def _num(v: Any, digits: int = 4) -> str:
    if v == "Infinity":
        return "inf"
    if v == "-Infinity":
        return "-inf"
    return _fmt(v, digits)


def _stochastic_view(report: dict) -> dict | None:
    """The stochastic measures as ``{unit, eps, rows: [(name, value, meaning)]}`` (None when not computed)."""
    from .glossary import stochastic_term

    st = report.get("stochastic") or {}
    if not st.get("computed"):
        return None

    def meaning(key: str, extra: str = "") -> str:
        t = stochastic_term(key)
        return f"{t.meaning}{extra} [{t.paper}, {t.where}]"

    n, n_pub = st.get("n_above_eps"), st.get("n_public")
    share, mass = st.get("share_above_eps"), st.get("mass_above_eps")
    above = (f"{n} of {n_pub} ({100 * share:.1f}%, mass {mass:.4f})" if None not in (n, n_pub, share, mass) else "n/a")
    reason = st.get("ldp_reason")
    rows = [("max log-lift max i(s,x)", _num(st.get("max_log_lift")), meaning("max_log_lift")),
            ("min log-lift min i(s,x)", _num(st.get("min_log_lift")), meaning("min_log_lift")),
            (f"symbols with max |i| > eps = {_num(st.get('eps'), 3)}", above, meaning("above_eps")),
            ("I(S;X)", _num(st.get("mutual_information")), meaning("mutual_information")),
            ("maximal leakage", _num(st.get("maximal_leakage")), meaning("maximal_leakage")),
            ("LDP eps of X as is", _num(st.get("ldp")), meaning("ldp", f" -- infinite: {reason}" if reason else "")),
            (f"NMIL of the watchdog at eps = {_num(st.get('eps'), 3)}", _num(st.get("nmil")), meaning("nmil"))]
    return {"unit": st.get("unit", ""), "eps": _num(st.get("eps"), 3), "rows": rows}


def _meaning(key: str) -> str:
    t = term(key)
    return f"{t.meaning} [{t.where}]"


def report_lines(report: dict) -> list[str]:
    """The report as plain text lines (what ``graphpriv analyze`` prints); user text shown by
    :func:`display_text` (one line each, long values cut)."""
    inp, rows, rng, m, comp, cut = _parts(report)
    v = _view(report)
    lines = []
    if inp:
        i = v["inp"]
        lines.append(f"data: {i['path']} ({i['format']}), S = {i['sensitive']}, X = {i['public']}, missing = {i['missing']}")
    if rows:
        lines.append(f"rows: {rows['read']} read, {rows['used']} used, {rows['dropped']} dropped; "
                     f"missing values: {rows['missing_sensitive']} sensitive, {rows['missing_public']} public")
    lines += [
        f"|[[S]]| = {rng['n_sensitive']}, |[[X]]| = {rng['n_public']}, |[[S,X]]| = {rng['n_pairs']} pairs"
        + (f" ({rng['n_singleton_pairs']} seen once)" if rng.get("n_singleton_pairs") is not None else ""),
        f"H0(S)    = {_fmt(m['H0_S'])} bits    H0(S|X) = {_fmt(m['H0_S_given_X'])} bits",
        f"I0(S->X) = {_fmt(m['I0'])} bits",
        f"L0(S->X) = {_fmt(m['L0'])} bits",
        f"B0(S|X)  = {_fmt(m['B0'])} bits",
        f"k-anonymity: k = {m['k_anonymity']}",
        f"I*(S;X)  = {_fmt(m['I_star'])} bits ({comp['count']} component(s) of G_X)",
        f"components: largest sizes {comp['largest_sizes']}"
        + (f"; {comp['n_small']} with <= {comp['small_size']} public values" if comp.get("n_small") else ""),
    ]
    st = v["stochastic"]
    if st is not None:
        lines.append(f"stochastic measures of the empirical distribution ({st['unit']}):")
        width = max(len(name) for name, _, _ in st["rows"]) + 2
        lines += [f"  {name:<{width}}{value}" for name, value, _ in st["rows"]]
        reason = (report.get("stochastic") or {}).get("ldp_reason")
        if reason:
            lines.append(f"  (LDP is infinite: {display_text(reason, 200)})")
    for c in v["small"][:5]:
        lines.append(f"  small component: X = {c['public']}, S = {c['sensitive']}")
    if cut.get("computed"):
        lines.append(f"min cut of G_X: {cut['value']} (decomposable: {'yes' if cut['decomposable'] else 'no'})")
        if cut.get("side"):
            lines.append(f"  smaller side X': {_list_text(cut['side'], 10)}")
    else:
        lines.append(f"min cut of G_X: {cut.get('note', 'not computed')}")
    lines += principal_text_lines(report.get("principal_partitions"))
    for o in v["omitted"]:
        lines.append(f"figure left out: {o['figure']} ({o['reason']})")
    from .glossary import stochastic_glossary_lines

    return lines + glossary_lines(["H0", "H0|X", "I0", "L0", "B0", "k", "I*"]) + (
        stochastic_glossary_lines() if st is not None else [])


def report_markdown(report: dict, figures: Sequence[dict] | None = None) -> str:
    """``report.md``: the report as Markdown, figures as relative image links; every user string escaped.

    ``figures`` (default ``report["figures"]``) is a list of ``{"file": "figures/x.png", "caption": ...}``;
    ``report["figures_omitted"]`` (``[{"figure", "reason"}]``) is listed under the figures.
    """
    if figures is not None:
        report = {**report, "figures": list(figures)}
    v = _view(report, markdown_escape)
    rows, comp = v["rows"], v["comp"]
    out = ["# graphpriv analysis report", ""]
    if v["inp"]:
        i = v["inp"]
        out += [f"- data: {i['path']} ({i['format']})",
                f"- sensitive S: {i['sensitive']}, public X: {i['public']}, missing values: {i['missing']}",
                f"- graphpriv {markdown_escape(v['version'])}, report schema {v['schema']}", ""]
    if rows:
        out += ["## Rows", "", "| read | used | dropped | missing S | missing X |", "|---:|---:|---:|---:|---:|",
                f"| {rows['read']} | {rows['used']} | {rows['dropped']} | {rows['missing_sensitive']} | {rows['missing_public']} |", ""]
    out += ["## Joint range", "", "| quantity | value |", "|---|---:|"]
    out += [f"| {name.replace('|', chr(92) + '|')} | {value} |" for name, value in v["range_rows"]]
    out += ["", "## Measures (bits)", "", f"Defined in {v['paper']} (sections in brackets).", "",
            "| measure | value | what it means |", "|---|---:|---|"]
    out += [f"| {name.replace('|', chr(92) + '|')} | {value} | {markdown_escape(meaning)} |"
            for name, value, meaning in v["measure_rows"]]
    st = v["stochastic"]
    if st is not None:
        out += ["", f"## Stochastic measures ({st['unit']})", "",
                "Of the table's empirical distribution p(s, x) = rows(s, x) / rows; papers and equations in brackets.", "",
                "| measure | value | what it means |", "|---|---:|---|"]
        out += [f"| {markdown_escape(name)} | {value} | {markdown_escape(meaning)} |" for name, value, meaning in st["rows"]]
    out += ["", "## Components of G_X", "", f"{comp['count']} component(s); largest sizes (public values): {comp['largest_sizes']}.", ""]
    if v["small"]:
        out += [f"Components with at most {comp['small_size']} public values ({comp['n_small']} in all; first {len(v['small'])}):", ""]
        out += [f"- X = {c['public']}, S = {c['sensitive']}" for c in v["small"]]
        out.append("")
    out += ["## Min cut of G_X", ""]
    for line in v["cut_lines"]:
        out += [line, ""]
    out += principal_markdown_lines(report.get("principal_partitions"))
    if v["explorer"]:
        out += ["## Interactive", "", f"[Explore the components of G_X ({v['explorer']})]({v['explorer']})", ""]
    if v["figures"] or v["omitted"]:
        out += ["## Figures", ""]
        for k, f in enumerate(v["figures"], 1):
            if _FIGURE_FILE.fullmatch(f["file"]):
                out += [f"![{f['alt']}]({f['file']})", ""]
            out += [f"Figure {k}. {f['caption']}", ""]
        if v["omitted"]:
            out += ["Figures left out:", ""]
            out += [f"- {o['figure']}: {o['reason']}" for o in v["omitted"]]
            out.append("")
    return "\n".join(out)


def _embed(base_dir: str | os.PathLike | None, file: str) -> str | None:
    """The base64 of ``base_dir/file`` when it is a PNG graphpriv wrote there (``figures/<name>.png``,
    inside ``base_dir``, a regular file, not a link), else None."""
    if base_dir is None or not _FIGURE_FILE.fullmatch(file):
        return None
    base = Path(base_dir).resolve()
    path = base / file
    try:
        if path.is_symlink() or path.parent.is_symlink() or not path.is_file():
            return None
        if base not in path.resolve().parents:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(_PNG_MAGIC):
        return None
    return base64.b64encode(data).decode("ascii")


def _environment():
    import jinja2

    return jinja2.Environment(loader=jinja2.PackageLoader("graphpriv.report", "templates"),
                              autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


def report_html(report: dict | str, base_dir: str | os.PathLike | None = None) -> str:
    """A self-contained HTML page of the report, rendered from its data with a Jinja2 template
    (autoescaped); the PNG figures of ``report["figures"]`` are embedded from ``base_dir``.

    Parameters
    ----------
    report : dict
        The report (:func:`graphpriv.io.analysis_report`, with ``figures`` and ``figures_omitted``
        as ``graphpriv analyze`` adds them). A string (the Markdown text, as older versions took)
        is shown verbatim, escaped, with no figures.
    base_dir : path, optional
        The output folder holding ``figures/``; figures are embedded only from there.

    Examples
    --------
    >>> import graphpriv as gp
    >>> from graphpriv.io import analysis_report
    >>> from graphpriv.report import report_html
    >>> jr, _ = gp.datasets.paper_example()
    >>> page = report_html({**analysis_report(jr), "input": {"path": "<b>.csv"}})
    >>> "&lt;b&gt;.csv" in page and "<b>" not in page
    True
    """
    env = _environment()
    if isinstance(report, str):
        tpl = env.from_string("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                              "<title>graphpriv analysis report</title></head><body><pre>{{ text }}</pre></body></html>\n")
        return tpl.render(text=report)
    v = _view(report)
    for f in v["figures"]:
        f["data"] = _embed(base_dir, f["file"])
    return env.get_template("report.html.j2").render(**v)
