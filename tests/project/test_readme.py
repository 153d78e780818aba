"""The README is true as written: every shell command and Python block in it runs on a fresh clone.

Shell blocks are split into commands (``&&`` chains and lines); ``graphpriv ...`` commands run in-process
through :func:`graphpriv.cli.main` in a temporary folder that holds what a fresh clone has (the package data);
Python blocks run with ``exec`` in a fresh namespace. The installation steps (``python -m venv``, ``.``/``source``
activation, ``pip install``) and the README's test command ``pytest`` are what CI itself runs (``.ci/run``),
so they are checked against ``.ci/run`` instead of being run from inside the test suite.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

#: Commands that CI runs itself (installation, and the test suite this test is part of).
CI_PREFIXES = ("pip install", "python -m venv", "python3 -m venv", "source ", ". ")


def _blocks(text: str) -> list[tuple[str, str]]:
    return [(m.group(1).strip().lower(), m.group(2)) for m in re.finditer(r"^```(\w*)[^\n]*\n(.*?)^```", text, re.S | re.M)]


def _shell_commands(block: str) -> list[str]:
    """Commands of a shell block: comments removed, ``&&`` chains split (quotes respected)."""
    commands = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if not words:
            continue
        current: list[str] = []
        for w in words + ["&&"]:
            if w == "&&":
                if current:
                    commands.append(shlex.join(current))
                current = []
            else:
                current.append(w)
    return commands


def _readme():
    text = README.read_text(encoding="utf-8")
    blocks = _blocks(text)
    shell = [c for lang, b in blocks if lang in ("bash", "sh", "shell", "console") for c in _shell_commands(b)]
    python = [b for lang, b in blocks if lang in ("python", "py")]
    return text, shell, python


def _ci_last_command() -> str:
    lines = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    return lines[-1]


@pytest.fixture()
def fresh_clone_dir(tmp_path, monkeypatch):
    """A working folder with what a fresh clone offers to relative paths in the README."""
    shutil.copytree(ROOT / "graphpriv" / "data", tmp_path / "graphpriv" / "data")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    return tmp_path


def test_readme_has_code_to_check():
    _, shell, python = _readme()
    assert any(c.startswith("graphpriv ") for c in shell)
    assert python


def test_readme_quick_start_matches_ci():
    """Quick start: a virtual environment, then the test command CI runs last (``.ci/run``), word for word."""
    _, shell, _ = _readme()
    assert shell[0].startswith("python -m venv"), "the first README command should create the virtual environment"
    assert any(c.startswith(". .venv/bin/activate") or c.startswith("source .venv/bin/activate") for c in shell)
    test_commands = [c for c in shell if c.split()[0] == "pytest"]
    assert test_commands == [_ci_last_command()], (test_commands, _ci_last_command())
    text = README.read_text(encoding="utf-8")
    assert re.search(r"test suite takes about \d+(\.\d+)? min", text), "say how long the tests take"


def test_every_readme_shell_command_runs(fresh_clone_dir, capsys):
    from graphpriv.cli import main

    _, shell, _ = _readme()
    ran = []
    for command in shell:
        if command.startswith(CI_PREFIXES) or command == _ci_last_command():
            continue  # installation and the test suite: run by CI (.ci/run), see test_readme_quick_start_matches_ci
        words = shlex.split(command)
        assert words[0] == "graphpriv", f"README command {command!r}: this test does not know how to run it"
        code = main(words[1:])
        out = capsys.readouterr()
        assert code in (0, None), f"README command failed ({code}): {command}\n{out.err}"
        ran.append(words[1])
    print(f"ran {len(ran)} README commands: {ran}")
    assert {"demo", "analyze", "sanitize", "figures"} <= set(ran)
    # what they promise to write
    assert (fresh_clone_dir / "report" / "report.md").is_file()
    assert (fresh_clone_dir / "release" / "mapping.json").is_file()
    assert (fresh_clone_dir / "release" / "summary.json").is_file()
    assert (fresh_clone_dir / "release" / "explorer.html").is_file()
    assert (fresh_clone_dir / "figures" / "paper003_fig7_pareto_frontier.png").is_file()


def test_every_readme_python_block_runs(fresh_clone_dir):
    import matplotlib.pyplot as plt

    _, _, python = _readme()
    namespace: dict = {"__name__": "__readme__"}
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        for block in python:
            exec(compile(block, str(README), "exec"), namespace)
    plt.close("all")
    print(f"ran {len(python)} README Python block(s), {sum(len(b.splitlines()) for b in python)} lines")
    # the values the README's comments state
    gp = namespace["gp"]
    jr = namespace["jr"]
    assert round(gp.maximin_information(jr), 4) == 2.3219
    assert gp.n_components(jr) == 5
    r = namespace["r"]
    assert r.privacy == 0
    assert sorted(sorted(c) for c in r.quantization) == [["x1", "x3", "x7"], ["x2", "x5"], ["x4", "x6"]]
    assert namespace["exact"].certified
    assert len(namespace["fig"].axes) == len(r.trace) - 1        # one panel per merge
    # the watchdog example is not degenerate: some symbols published, some merged, a real utility loss
    w = namespace["w"]
    assert list(w.X_eps) == ["a", "d"] and list(w.X_eps_c) == ["b", "c"]
    assert round(w.eps_eff, 3) == 0.718 and w.eps_eff <= w.eps
    assert 0 < round(w.nmil, 3) == 0.244 < 1
    # gp.cite() at the end printed the package and the paper of every method the block used
    for key in ("graphpriv", "ding2020agglomerative", "sadeghi2020watchdog"):
        assert "{" + key + "," in printed.getvalue(), key


def test_readme_is_short_and_links_the_documentation():
    """A newcomer's README: at most ~150 lines, the figures measured elsewhere (docs/benchmarks.md), and a link to
    each part of the documentation, every local link pointing at a file that exists."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150, len(text.splitlines())
    assert "GiB" not in text and "load average" not in text, "measured figures belong in docs/benchmarks.md"
    links = re.findall(r"\]\(((?!http|#)[^)]+)\)", text)
    for target in ["docs/guide/index.md", "examples/", "docs/benchmarks.md", "docs/paper_map.md", "CHANGELOG.md"]:
        assert target in links, target
    missing = [t for t in links if not (ROOT / t).exists()]
    assert not missing, missing
    print(f"README: {len(text.splitlines())} lines, {len(links)} local links")


def test_example_csv_is_derived_from_the_bundled_uci_file():
    """graphpriv/data/heart_hungarian.csv == the recipe in graphpriv/data/CITATION.md applied to the UCI file."""
    import pandas as pd

    import graphpriv as gp

    src = gp.datasets.load_hungarian()
    expected = pd.DataFrame({
        "age": src["age"],
        "sex": src["sex"].map({1: "male", 0: "female"}),
        "chest_pain": src["cp"].map({1: "typical angina", 2: "atypical angina", 3: "non-anginal pain", 4: "asymptomatic"}),
        "trestbps": src["trestbps"].astype("Int64"),
        "chol": src["chol"].astype("Int64"),
        "thalach": src["thalach"].astype("Int64"),
        "num": src["num"],
    })
    path = ROOT / "graphpriv" / "data" / "heart_hungarian.csv"
    assert path.read_text(encoding="utf-8") == expected.to_csv(index=False, lineterminator="\n")
    assert "heart_hungarian.csv" in (ROOT / "graphpriv" / "data" / "CITATION.md").read_text(encoding="utf-8")


def test_shell_command_splitting():
    assert _shell_commands("a && b 'c d' # note\n\n# only a comment\ngraphpriv x --o 'I*'") == [
        "a", "b 'c d'", "graphpriv x --o 'I*'"]


# ---------------------------------------------------------------------------------------------------------------
# a newcomer's README: every numbered paper named, the concepts explained, the demo's numbers accounted for
# ---------------------------------------------------------------------------------------------------------------
PAPER_TITLES = {
    "000": "A Linear Reduction Method for Local Differential Privacy and Log-lift",
    "001": "A Linear Reduction Method for Local Differential Privacy and Log-lift",
    "002": "On Properties and Optimization of Information-theoretic Privacy Watchdog",
    "003": "Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering",
    "004": "Data Disclosure under Perfect Sample Privacy",
}


def _section(text: str, heading: str) -> str:
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def test_readme_names_every_paper_it_numbers():
    text = README.read_text(encoding="utf-8")
    table = _section(text, "The papers")
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| (00\d) \|.*$", table, re.M)}
    assert sorted(rows) == sorted(PAPER_TITLES), "the paper table needs one row per paper, 000-004"
    import graphpriv as gp

    for number, row in rows.items():
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 5 and all(cells), row                       # #, authors, title, year, what
        assert re.fullmatch(r"(19|20)\d\d", cells[3]), row
        if number != "001":
            assert PAPER_TITLES[number] in cells[2], row
            assert gp.bibtex(number).split("title", 1)[1].split("{", 1)[1].split("}", 1)[0] in cells[2]
    # the table comes at the first mention of a paper number, and every number used is in it
    first = re.search(r"\b(?:papers? )?00[0-4]\b", text)
    assert first and first.start() < text.index("\n## The papers\n") < text.index("\n## Quick start")
    numbers = set(re.findall(r"(?<![\w./])(00[0-4])(?![\w.])", text))
    assert numbers <= set(rows), numbers - set(rows)
    assert "paper 003's" not in text.replace("[paper 003](#the-papers)", "")


def test_readme_concepts_section_explains_each_term_next_to_the_figure():
    text = README.read_text(encoding="utf-8")
    concepts = _section(text, "Concepts")
    # the figure opens the README (what graphpriv is); the concepts it shows are explained in their own section
    figure = text.find("](figures/concepts_overview.png)")
    assert 0 < figure < text.index("\n## Concepts\n") and (ROOT / "figures" / "concepts_overview.png").is_file()
    for term in ("Joint range [[S, X]]", "G_X", "H0", "I0", "L0", "B0", "k", "I\\*", "U1", "U2", "λ", "L"):
        bullet = re.search(rf"^\* \*\*{re.escape(term)}\*\* — (.+?)(?=^\* |\Z)", concepts, re.M | re.S)
        assert bullet, term
        assert bullet.group(1).count(". ") <= 1, f"one sentence per concept: {term}"


def test_readme_demo_paragraph_matches_what_demo_prints(capsys):
    """The README says which rows demo uses and why analyze --missing drop differs; demo prints the same numbers."""
    from graphpriv.cli import main

    assert main(["demo"]) in (0, None)
    out = capsys.readouterr().out
    assert "293 used" in out and "22 rows kept" in out and "|[[X]]| = 154 = 153 measured values + NA" in out
    assert "|[[S]]| = 38" in out and "37 ages, 153 values" in out and "drops the 23 rows" in out
    assert "measures (Ding & Farokhi 2020" in out and "I*(S;X)   log2 of the number of components" in out
    text = " ".join(README.read_text(encoding="utf-8").split())
    for claim in ("293 of the table's 294", "the 22 rows without a cholesterol value", "38 ages and 154 public values",
                  "drops the 23 rows without cholesterol instead and reports 37 ages and 153 values"):
        assert claim in text, claim
