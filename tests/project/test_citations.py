"""Citations: CITATION.cff is valid CFF 1.2.0; the bibliography covers the five papers and the data set;
gp.cite() prints graphpriv plus the paper of each mechanism that ran; explicit names work."""

from __future__ import annotations

import copy
import io
import json
import re
import tomllib
from pathlib import Path

import pytest

import graphpriv as gp
from graphpriv import citations

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def fresh_usage():
    saved = citations.used_citations()
    citations.reset_citations()
    yield
    citations.reset_citations()
    for key in saved:
        citations.record_use(key)


def _cite(*names) -> str:
    buf = io.StringIO()
    gp.cite(*names, file=buf)
    return buf.getvalue()


def _keys(text: str) -> list[str]:
    return re.findall(r"^@\w+\{([^,]+),", text, flags=re.M)


# ------------------------------------------------------------------------------------------------ CITATION.cff
def _cff():
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def _schema():
    return json.loads((ROOT / "tests" / "data" / "citation-file-format-1.2.0.schema.json").read_text(encoding="utf-8"))


def test_citation_cff_is_valid_cff_1_2_0():
    jsonschema = pytest.importorskip("jsonschema")
    data = _cff()
    assert data["cff-version"] == "1.2.0"
    jsonschema.validate(data, _schema(), format_checker=jsonschema.FormatChecker())
    print("CITATION.cff validates against the CFF 1.2.0 schema")
    # and the schema does reject a broken file (the check is not vacuous)
    broken = copy.deepcopy(data)
    del broken["message"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, _schema())


def test_citation_cff_agrees_with_the_package():
    data = _cff()
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert str(data["version"]) == meta["version"]
    assert data["license"] == meta["license"]
    titles = {r["title"] for r in data["references"]}
    bib_titles = set(re.findall(r"^\s*title\s*=\s*\{(.+)\},?$", (ROOT / "graphpriv/data/references.bib").read_text(), re.M))
    assert titles <= bib_titles, titles - bib_titles
    assert len(data["references"]) == 5   # four papers (000/001 are one) and the data set


# ------------------------------------------------------------------------------------------------ bibliography
def test_bibliography_has_the_papers_and_the_data_set():
    keys = gp.citation_keys()
    assert keys == ["graphpriv", "ding2021linear", "sadeghi2020watchdog", "ding2020agglomerative",
                    "rassouli2020perfect", "janosi1989heart", "ding2019funnel", "zarrabian2022watchdog",
                    "ding2021alphalift", "narasimhan2005subsup", "iyer2012dsfmin"]
    text = gp.bibtex(*keys)
    for title in ("A Submodularity-based Clustering Algorithm for the Information Bottleneck and Privacy Funnel",
                  "Enhancing Utility in the Watchdog Privacy Mechanism",
                  "A Linear Reduction Method for Local Differential Privacy and Log-lift",
                  "On Properties and Optimization of Information-theoretic Privacy Watchdog",
                  "Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering",
                  "Data Disclosure under Perfect Sample Privacy", "Heart Disease"):
        assert f"title        = {{{title}}}" in text, title
    assert "10.24432/C52P4X" in text and "CC BY 4.0" in text
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert f"version      = {{{version}}}" in text
    # balanced braces in every entry (a BibTeX parser would choke otherwise)
    for entry in text.split("\n\n"):
        assert entry.count("{") == entry.count("}"), entry[:40]


@pytest.mark.parametrize("name, key", [
    ("watchdog", "sadeghi2020watchdog"), ("002", "sadeghi2020watchdog"), ("paper 003", "ding2020agglomerative"),
    ("Linear-Reduction", "ding2021linear"), ("001", "ding2021linear"), ("sample_privacy", "rassouli2020perfect"),
    ("hungarian", "janosi1989heart"), ("graphpriv", "graphpriv"), ("rassouli2020perfect", "rassouli2020perfect"),
    ("funnel", "ding2019funnel"), ("watchdog-subset", "zarrabian2022watchdog"), ("alpha-watchdog", "ding2021alphalift"),
])
def test_explicit_names(name, key):
    assert _keys(_cite(name)) == [key]


def test_unknown_name_is_one_clear_line():
    with pytest.raises(gp.UnknownLabelError) as err:
        gp.cite("dp-sgd")
    msg = str(err.value)
    assert "unknown citation 'dp-sgd'" in msg and "watchdog" in msg and "\n" not in msg


# ------------------------------------------------------------------------------------------------ usage registry
def test_cite_lists_the_package_and_the_papers_used(fresh_usage):
    assert _keys(_cite()) == ["graphpriv"]
    jd = gp.paper000_example1()
    gp.watchdog(jd, 0.8)
    gp.watchdog(jd, 0.5)                 # recorded once
    gp.linear_reduction(jd, 0.5)
    assert _keys(_cite()) == ["graphpriv", "sadeghi2020watchdog", "ding2021linear"]
    jr, _ = gp.datasets.paper_example()
    gp.agglomerate(jr, "I*", 0.3)
    gp.datasets.load_hungarian()
    assert gp.used_citations() == ["sadeghi2020watchdog", "ding2021linear", "ding2020agglomerative", "janosi1989heart"]
    gp.reset_citations()
    assert _keys(_cite()) == ["graphpriv"]


@pytest.mark.parametrize("call, key", [
    (lambda: gp.pareto_frontier(gp.datasets.paper_example()[0], "I*", utility="U1"), "ding2020agglomerative"),
    (lambda: gp.exact_frontier(gp.datasets.paper_example()[0], "I*", utility="U1"), "ding2020agglomerative"),
    (lambda: gp.critical_sweep(gp.paper000_example1()), "sadeghi2020watchdog"),
    (lambda: gp.watchdog_eps_delta(gp.paper000_example1(), 0.5, 0.5), "sadeghi2020watchdog"),
    (lambda: gp.linear_reduction_sweep(gp.paper000_example1(), [0.5]), "ding2021linear"),
    (lambda: gp.self_disclosure([[0.25, 0.25], [0.25, 0.25]]), "rassouli2020perfect"),
    (lambda: gp.privacy_funnel(gp.paper000_example1(), 0.3, "subset"), "ding2019funnel"),
    (lambda: gp.funnel_frontier(gp.paper000_example1(), [0.5]), "ding2019funnel"),
    (lambda: gp.watchdog_subsets(gp.paper000_example1(), 0.5), "zarrabian2022watchdog"),
    (lambda: gp.alpha_watchdog(gp.paper000_example1(), 0.5, 2.0), "ding2021alphalift"),
])
def test_each_family_records_its_paper(fresh_usage, call, key):
    call()
    assert key in gp.used_citations()


def test_readme_and_docs_show_the_bibliography():
    """The README says how to cite and where the bibliography is; the citing page shows all of it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "gp.cite()" in readme and "CITATION.cff" in readme and "graphpriv/data/references.bib" in readme
    citing = (ROOT / "docs" / "citing.md").read_text(encoding="utf-8")
    assert "literalinclude} ../graphpriv/data/references.bib" in citing       # every entry, from the shipped file
    assert len(gp.citation_keys()) >= 6


def test_readme_bibliography_is_the_shipped_one():
    """README's BibTeX block is graphpriv's own entry of graphpriv/data/references.bib verbatim (one bibliography)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bibtex\n(@software\{graphpriv.*?)```", readme, re.S).group(1)
    bib = (ROOT / "graphpriv" / "data" / "references.bib").read_text(encoding="utf-8")
    entry = bib[bib.index("@software"):]
    assert block.strip() == entry[:entry.index("\n}\n") + 2].strip()


# ------------------------------------------------------------------------------------------------ graphpriv cite
def test_cli_cite_package_and_named_papers(capsys):
    from graphpriv.cli import main

    assert main(["cite", "003", "hungarian"]) == 0
    out = capsys.readouterr().out
    assert _keys(out) == ["graphpriv", "ding2020agglomerative", "janosi1989heart"]
    assert "1911.04842" in out


def test_cli_cite_all_and_list(capsys):
    from graphpriv.cli import main

    assert main(["cite", "--all"]) == 0
    assert _keys(capsys.readouterr().out) == citations.citation_keys()
    assert main(["cite", "--list"]) == 0
    rows = dict(line.split("\t") for line in capsys.readouterr().out.strip().splitlines())
    assert set(rows) == set(citations.citation_keys()) and "watchdog" in rows["sadeghi2020watchdog"]


def test_cli_cite_unknown_name_is_one_line_exit_2(capsys):
    from graphpriv.cli import main

    assert main(["cite", "nope"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "unknown citation 'nope'" in err and "watchdog" in err
