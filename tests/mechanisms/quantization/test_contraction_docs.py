"""docs/custom_merge_rule.md: its Python blocks run as written, and the rule it shows behaves as stated."""

import re
from pathlib import Path

import pytest

import graphpriv as gp

DOC = Path(__file__).resolve().parents[3] / "docs" / "custom_merge_rule.md"


def _blocks():
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_custom_merge_rule_page_runs(capsys):
    blocks = _blocks()
    assert len(blocks) == 2
    ns: dict = {}
    exec(compile(blocks[0], str(DOC), "exec"), ns)          # noqa: S102 - the page's own example
    c, trace, frontier = ns["c"], ns["trace"], ns["frontier"]
    assert c.n_components == 1 and c.privacy("I*") == 0.0
    assert len(ns["closest_codewords"].__doc__) > 0
    # twenty-odd lines of rule, as the page says
    rule = blocks[0].split("def closest_codewords")[1].split("\n\n\n")[0]
    assert len(rule.strip().splitlines()) <= 20
    assert trace.objective == "closest codewords" and trace.step_n_components[-1] == 1
    jr, values = gp.datasets.paper_example()
    assert gp.evaluate_quantization(jr, c.quantization, "I*", "U2", values) == (0.0, pytest.approx(trace.step_utility[-1]))
    assert all(p.privacy <= trace.step_privacy[0] for p in frontier.points)
    exec(compile(blocks[1], str(DOC), "exec"), ns)          # noqa: S102
    import matplotlib.pyplot as plt

    assert ns["fig"].axes and ns["ax"].figure is not None
    plt.close("all")
    print("custom_merge_rule.md: both blocks ran")
