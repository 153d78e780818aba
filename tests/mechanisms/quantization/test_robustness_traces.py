"""MergeTrace.from_json refuses anything that does not replay to what it claims: one-line InputError each."""

from __future__ import annotations

import copy
import json

import pytest

import graphpriv as gp
from graphpriv.errors import InputError


@pytest.fixture(scope="module")
def doc():
    jr, _ = gp.datasets.paper_example()
    return gp.agglomerate(jr, "I*", 0.3).trace.to_dict()      # paper 003, Example 3: 4 merges


def _set(path, value):
    def edit(d):
        *head, last = path
        target = d
        for k in head:
            target = target[k]
        target[last] = value
    return edit


def _deep(d):
    nested = "x"
    for _ in range(100):
        nested = {"tuple": [nested]}
    d["public_labels"][0] = nested


CASES = {
    "negative index": (_set(["steps", 1, "merged"], [[-1, 2]]), "cluster index -1 is outside 0..6"),
    "index out of range": (_set(["steps", 1, "merged"], [[0, 7]]), "cluster index 7 is outside 0..6"),
    "index 0.5": (_set(["steps", 1, "merged"], [[0, 0.5]]), "cluster index 0.5 is not an integer"),
    "index true": (_set(["steps", 1, "merged"], [[0, True]]), "cluster index True is not an integer"),
    "pair of three": (_set(["steps", 1, "merged"], [[0, 1, 2]]), "must be a pair [a, b]"),
    "self-merge": (_set(["steps", 1, "merged"], [[2, 2]]), "step 1 merges cluster 2 with itself"),
    "merge an absorbed cluster": (_set(["steps", 2, "merged"], [[2, 1]]), "step 2 merges cluster 2, which was already absorbed into cluster 0"),
    "merge twice": (_set(["steps", 2, "merged"], [[0, 2]]), "step 2 merges clusters 0 and 2, which are already one cluster"),
    "unhashable label": (_set(["public_labels", 0], ["a", "b"]), "public label 0 (['a', 'b']) is not hashable"),
    "unknown label encoding": (_set(["public_labels", 0], {"tuple": 5}), "public label 0 ({'tuple': 5}) is not an encoded label"),
    "duplicate labels": (_set(["public_labels", 1], "x1"), "public labels 0 and 1 are equal ('x1')"),
    "steps out of order": (_set(["steps", 1, "t"], 2), "step 1 is numbered 2; steps must be listed in order"),
    "merge at step 0": (_set(["steps", 0, "merged"], [[0, 1]]), "step 0 is the initial state and cannot hold merges"),
    "NaN privacy": (_set(["steps", 1, "privacy"], float("nan")), "step 1: privacy must be a finite number, got nan"),
    "null privacy": (_set(["steps", 1, "privacy"], None), "step 1: privacy must be a number, got None"),
    "lam = -1": (_set(["lam"], -1), "'lam' must be a finite number >= 0"),
    "base = 1": (_set(["base"], 1), "'base' must be a finite logarithm base > 0 other than 1"),
    "base = 0": (_set(["base"], 0), "'base' must be a finite logarithm base > 0 other than 1"),
    "L not privacy - lam U": (_set(["steps", 1, "L"], 5.0), "step 1: L = 5.0 but privacy - lam * utility"),
    "wrong cluster count": (_set(["steps", 1, "n_clusters"], 7), "step 1 claims 7 clusters but its merges leave 6"),
    "wrong component count": (_set(["steps", 1, "n_components"], 5), "step 1 claims 5 components of G_X^ but replaying gives 4"),
    "rejected step in the middle": (_set(["steps", 1, "accepted"], False), "step 1 is marked rejected but is not the last step"),
    "returned out of range": (_set(["returned"], 99), "'returned' must be a step index 0..4"),
    "returned 1.0": (_set(["returned"], 1.0), "'returned' must be a step index"),
    "components0 short": (_set(["components0"], [0, 0]), "'components0' must list one non-negative integer"),
    "steps not a list": (_set(["steps"], {"0": {}}), "'steps' must be a non-empty list"),
    "step lacks a field": (lambda d: d["steps"][1].pop("privacy"), "step 1 lacks ['privacy']"),
    "objective not text": (_set(["objective"], 3), "'objective' must be a string"),
    "deep nesting": (_deep, "nested more than 32 levels deep"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_trace_is_one_line_input_error(doc, name):
    edit, needle = CASES[name]
    d = copy.deepcopy(doc)
    edit(d)
    text = json.dumps(d)
    with pytest.raises(InputError) as exc:
        gp.MergeTrace.from_json(text)
    msg = str(exc.value)
    assert "\n" not in msg and needle in msg, msg
    assert msg.startswith("invalid serialised MergeTrace: ")


def test_json_nested_past_the_parser_limit_is_one_line():
    with pytest.raises(InputError, match="nested too deeply"):
        gp.MergeTrace.from_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(InputError, match="needs JSON text"):
        gp.MergeTrace.from_json("{not json")


def test_every_mechanism_trace_round_trips(doc):
    """Validation accepts what graphpriv writes: all three objectives, both utilities, k-anonymity, searches."""
    from graphpriv.mechanisms.baselines import k_anonymity_generalization

    jr = gp.JointRange.from_dataframe(gp.datasets.load_hungarian(), sensitive="age", public="chol", missing="drop")
    values = {x: float(x) for x in jr.public_labels.tolist()}
    traces = [gp.agglomerate(jr, obj, lam, ut, values if ut == "U2" else None).trace
              for obj in ("L0", "I*", "L0|I*=0") for ut in ("U1", "U2") for lam in (0.0, 0.05, 2.0)]
    small, _ = gp.datasets.paper_example()
    traces += [gp.beam_search(small, "L0", 0.5).trace, gp.local_search(small, "I*", 0.2).trace]
    kanon = k_anonymity_generalization(jr, 3, values)
    traces.append(getattr(kanon, "trace", kanon))
    for tr in traces:
        assert gp.MergeTrace.from_json(tr.to_json()) == tr
    assert gp.MergeTrace.from_dict(doc).to_dict() == doc
    print(f"{len(traces)} mechanism traces validated and round-tripped")
