"""What a quantisation mechanism releases (graphpriv.Release): generalisation labels, codewords at the
column's precision, unchanged values with their type, the versioned mapping document (validated
against the shipped JSON Schema) and its round trip, and the one-trajectory release of sanitize
against graphpriv.agglomerate."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

import graphpriv as gp
from graphpriv._validation import MISSING
from graphpriv.errors import InputError, UnknownLabelError
from graphpriv.mechanisms.release import Release, column_decimals, decode_value, encode_value, generalisation_label

jsonschema = pytest.importorskip("jsonschema")


def check_schema(doc: dict) -> None:
    """The document validates against the shipped JSON Schema and graphpriv's own checker."""
    jsonschema.validate(doc, gp.mapping_schema())
    gp.validate_mapping(doc)


def test_labels_interval_or_set():
    present = [132, 200, 240, 245, 260, 300]
    assert generalisation_label([260, 245, 240], present) == "[240, 260]"          # contiguous in value order
    assert generalisation_label([243.0, 132], [132, 200, 243]) == "{132, 243}"   # 200 lies between: a set
    assert generalisation_label([0.5, 0.25], [0.25, 0.5, 1.0]) == "[0.25, 0.5]"
    assert generalisation_label(["x10", "x2", "x1"]) == "{x1, x2, x10}"           # natural order for text
    assert generalisation_label(["typical angina", "atypical angina"]) == "{atypical angina, typical angina}"
    assert generalisation_label([132, MISSING], [132, 133]) == "{132, NA}"        # the missing value has no place
    assert generalisation_label([1.0, 2.0], [1, 2]) == "[1, 2]"                   # 1.0 reads as 1


def test_decimals_of_a_column():
    assert column_decimals([132, 243]) == 0
    assert column_decimals(np.array([132.0, np.nan, 243.5])) == 1
    assert column_decimals(["0.10", "7", "NA", ""]) == 2                          # as written, tokens ignored
    assert column_decimals(["1e-3", "2"]) == 3
    assert column_decimals(["red", "blue"]) is None


def test_u1_labels_on_numbers_and_text_keep_untouched_values():
    s = ["a", "a", "b", "b", "c", "d", "e"]
    x = [240, 260, 250, 300, 132, 7, 100]
    jr = gp.JointRange.from_pairs(s, x)
    q = [frozenset({240, 250, 260}), frozenset({300}), frozenset({132, 7}), frozenset({100})]
    rel = Release.from_quantization(jr.public_labels.tolist(), q, utility="U1")
    col = pd.Series(x + [None], name="x", dtype=object)
    out = rel.transform(col)
    assert out.tolist()[:7] == ["[240, 260]", "[240, 260]", "[240, 260]", 300, "{7, 132}", "{7, 132}", 100]
    assert type(out[3]) is int and out[7] is None and out.name == "x"             # unchanged: same value and type
    assert rel.transform([7, 132]) == ["{7, 132}"] * 2                              # 100 lies between: a set
    # text column: nothing merged -> the column comes back exactly (same dtype)
    words = pd.Series(["atypical angina", "typical angina", "asymptomatic"], dtype=object)
    jr2 = gp.JointRange.from_pairs([1, 2, 3], words.tolist())
    rel2 = Release.from_quantization(jr2.public_labels.tolist(), [frozenset({w}) for w in words])
    assert rel2.is_noop
    same = rel2.transform(words)
    pd.testing.assert_series_equal(same, words)
    rel3 = Release.from_quantization(jr2.public_labels.tolist(), [frozenset({"atypical angina", "typical angina"}),
                                                                   frozenset({"asymptomatic"})])
    assert rel3.transform(words).tolist() == ["{atypical angina, typical angina}"] * 2 + ["asymptomatic"]


def test_codewords_rounded_and_dtype_kept():
    df = gp.datasets.load_hungarian()
    jr = gp.JointRange.from_dataframe(df, sensitive="age", public="chol", missing="drop")
    r = gp.agglomerate(jr, "I*", 0.05, "U2", "labels")        # joins the isolated 132 with 129
    merged = [c for c in r.quantization if len(c) > 1]
    assert merged, "the run must merge something"
    out = r.transform(df["chol"])                       # float column of whole numbers: 0 decimals
    assert out.dtype == df["chol"].dtype and out.isna().sum() == df["chol"].isna().sum()
    for c in merged:
        v = next(iter(c))
        got = out[df["chol"] == v].iloc[0]
        assert got == round(np.mean(sorted(c)))
    assert r.transform(df["chol"], decimals=1).loc[df["chol"] == next(iter(merged[0]))].iloc[0] == pytest.approx(
        round(np.mean(sorted(merged[0])), 1))
    ints = df["chol"].dropna().astype("int64")
    assert r.transform(ints).dtype == np.int64          # an int column stays int (codewords at 0 decimals)
    assert r.transform(ints, "id").dtype == np.int64
    with pytest.raises(InputError, match="codeword"):
        gp.agglomerate(jr, "I*", 0.05).transform(ints, "codeword")


def test_mapping_document_round_trip_both_utilities():
    df = gp.datasets.load_hungarian()
    jr = gp.JointRange.from_dataframe(df, sensitive="age", public="chol", missing="keep")
    jr2 = gp.JointRange.from_dataframe(df, sensitive="age", public="chol", missing="drop")
    cases = [(gp.agglomerate(jr, "I*", 0.05), mode) for mode in ("label", "id")]
    cases += [(gp.agglomerate(jr2, "I*", 0.05, "U2", "labels"), mode) for mode in ("codeword", "label", "id")]
    for r, mode in cases:
        rel = Release.from_result(r, mode, decimals=1 if mode == "codeword" else None)
        doc = json.loads(json.dumps(rel.to_dict(public_column="chol", sensitive_column="age")))
        check_schema(doc)
        assert set(doc) == {"schema_version", "public_column", "sensitive_column", "objective", "utility", "release",
                            "decimals", "values", "clusters"}
        assert doc["schema_version"] == gp.MAPPING_SCHEMA_VERSION == 2 and doc["release"] == mode
        assert json.loads(rel.to_json(public_column="chol", sensitive_column="age")) == doc    # the fast writer
        back = Release.from_json(json.dumps(doc))
        released = rel.transform(df["chol"])
        pd.testing.assert_series_equal(back.transform(df["chol"]), released)
        if mode != "codeword" or True:
            pd.testing.assert_series_equal(r.transform(df["chol"], mode, decimals=rel.decimals), released)
        members = {json.dumps(m) for c in doc["clusters"] for m in c["members"]}
        assert members == {json.dumps(v["value"]) for v in doc["values"]}
    # missing kept as a value of its own: null in the document, NaN cells released with their cluster
    rel = Release.from_result(gp.agglomerate(jr, "I*", 0.05), "id")
    assert None in [v["value"] for v in rel.to_dict()["values"]]
    assert rel.transform(df["chol"]).notna().all()


def test_mapping_document_rejects_broken_documents():
    jr, _ = gp.datasets.paper_example()
    doc = Release.from_result(gp.agglomerate(jr, "I*", 0.3)).to_dict()
    bad = json.loads(json.dumps(doc))
    bad["values"][0]["cluster"] = 99
    with pytest.raises(InputError, match="cluster 99"):
        Release.from_dict(bad)
    bad = json.loads(json.dumps(doc))
    bad["values"][0]["released"] = "?"
    with pytest.raises(InputError, match="released"):
        Release.from_dict(bad)
    bad = json.loads(json.dumps(doc))
    bad["schema_version"] = 1
    with pytest.raises(InputError, match="schema_version"):
        Release.from_dict(bad)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, gp.mapping_schema())
    with pytest.raises(UnknownLabelError):
        Release.from_dict(doc).transform(["nope"])


def test_mapping_text_with_awkward_values():
    labels = [MISSING, float("inf"), (1.0, 2.0), True, "a\nb, {c}", 3]
    rel = Release.from_quantization(labels, [frozenset(labels[:3]), frozenset(labels[3:5]), frozenset({3})], "label")
    doc = json.loads(rel.to_json())
    check_schema(doc)
    assert doc == json.loads(json.dumps(rel.to_dict()))
    assert Release.from_dict(doc).mapping == rel.mapping


def test_value_encoding_keeps_types():
    for v in (1, 1.5, True, "007", MISSING, float("inf"), float("-inf"), (1.0, 2.0)):
        assert decode_value(json.loads(json.dumps(encode_value(v)))) == v or v is MISSING
    assert encode_value(MISSING) is None and encode_value(float("inf")) == {"float": "inf"}
    assert encode_value(True) is True and encode_value(1) == 1


@st.composite
def partitions(draw):
    n = draw(st.integers(1, 12))
    labels = draw(st.lists(st.one_of(st.integers(-50, 50), st.text("abcx0123", min_size=1, max_size=3)),
                           min_size=n, max_size=n, unique_by=lambda v: (type(v), v)))
    block = draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n))
    groups: dict = {}
    for lab, b in zip(labels, block):
        groups.setdefault(b, []).append(lab)
    return labels, [frozenset(g) for g in groups.values()]


@settings(max_examples=60, deadline=None)
@given(partitions(), st.sampled_from(["label", "id"]), st.data())
def test_transform_equals_the_mapping_cell_by_cell(part, mode, data):
    """Vectorised transform == a plain dict lookup per cell; JSON round trip; schema valid."""
    labels, q = part
    if len({(type(v), v) for v in labels}) != len({v for v in labels}):     # 1 and True style collisions
        return
    rel = Release.from_quantization(labels, q, mode)
    col = data.draw(st.lists(st.sampled_from(labels), min_size=0, max_size=20))
    mapping = rel.mapping
    expect = [mapping[v] for v in col]
    assert rel.transform(col) == expect
    for c in q:
        vals = {mapping[m] for m in c}
        assert len(vals) == 1
        if mode == "label" and len(c) == 1:
            assert vals == set(c)                                             # untouched
    doc = json.loads(json.dumps(rel.to_dict()))
    check_schema(doc)
    assert json.loads(rel.to_json()) == doc
    assert Release.from_dict(doc).transform(col) == expect


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["L0", "I*"]), st.sampled_from(["U1", "U2"]),
       st.floats(0, 3, allow_nan=False))
def test_sanitize_release_from_one_trajectory_equals_agglomerate(seed, objective, utility, lam):
    """sanitize reads the λ-run off the frontier's λ-free trajectory: same quantisation, scalars, mapping, trace."""
    from graphpriv.cli.sanitize import result_at

    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 14))
    x = rng.integers(0, n, size=3 * n) * 3 + 100
    s = rng.integers(0, max(2, n // 2), size=3 * n)
    jr = gp.JointRange.from_pairs(s.tolist(), x.tolist())
    values = {v: float(v) for v in jr.public_labels.tolist()} if utility == "U2" else None
    f = gp.pareto_frontier(jr, objective, utility, values)
    got = result_at(jr, f, objective, utility, values, lam)
    ref = gp.agglomerate(jr, objective, lam, utility, values)
    assert [set(c) for c in got.quantization] == [set(c) for c in ref.quantization]
    assert (got.privacy, got.utility, got.lam) == (ref.privacy, ref.utility, ref.lam)
    assert got.mapping == pytest.approx(ref.mapping) if utility == "U2" else got.mapping == ref.mapping
    assert got.trace == ref.trace


@settings(max_examples=80, deadline=None)
@given(st.lists(st.one_of(st.integers(-60, 60), st.sampled_from([0.5, 2.25, -1.5, 7.0])), min_size=1, max_size=60,
                unique_by=float), st.data())
def test_vectorised_numeric_labels_equal_one_cluster_at_a_time(values, data):
    """The vectorised labels of numeric clusters == generalisation_label of each cluster on its own."""
    block = data.draw(st.lists(st.integers(0, 4), min_size=len(values), max_size=len(values)))
    groups: dict = {}
    for v, b in zip(values, block):
        groups.setdefault(b, []).append(v)
    q = [frozenset(g) for g in groups.values()]
    rel = Release.from_quantization(values, q, "label")
    for c in q:
        got = rel.mapping[next(iter(c))]
        assert got == (generalisation_label(c, values) if len(c) > 1 else next(iter(c)))


def test_large_set_labels_stay_short_and_distinct():
    """A set of more than SET_LABEL_MAX members shows its first SET_LABEL_HEAD members, its last and its
    size (every row of the cluster holds the label: listing thousands of members made a release of
    O(|X|^2) characters); clusters are disjoint, so their first members, and labels, differ. The
    mapping document still lists every member."""
    from graphpriv.mechanisms.release import SET_LABEL_HEAD, SET_LABEL_MAX

    assert generalisation_label(list(range(0, 40, 2)), present=list(range(40))) == \
        "{0, 2, 4, 6, 8, 10, 12, 14, \u2026, 38} (20 values)"
    assert generalisation_label(list(range(0, 2 * SET_LABEL_MAX, 2)), present=list(range(40))).count(",") == \
        SET_LABEL_MAX - 1                                  # at the limit: every member listed
    assert generalisation_label([f"x{i}" for i in range(30)] + [gp.MISSING]) == \
        "{x0, x1, x2, x3, x4, x5, x6, x7, \u2026, NA} (31 values)"
    n = 20_000                                             # two interleaved clusters of 10,000 values each
    values = list(range(n))
    q = [frozenset(range(0, n, 2)), frozenset(range(1, n, 2))]
    for labels in (values, [f"v{v}" for v in values]):
        rel = Release.from_quantization(labels, [frozenset(labels[i] for i in c) for c in q], "label")
        texts = set(rel.released)
        assert len(texts) == 2 and all(len(s) < 120 and s.endswith("(10000 values)") for s in texts)
        doc = json.loads(rel.to_json())
        assert sorted(len(c["members"]) for c in doc["clusters"]) == [n // 2, n // 2]
    assert SET_LABEL_HEAD < SET_LABEL_MAX


def test_numeric_text_labels_as_written():
    """Labels read as written ('132.0', '-1.5') are ordered and joined into intervals by their numbers,
    and shown exactly as written."""
    labels = ["240.0", "260.0", "250.0", "132.0", "-1.5", "10", "0.10", gp.MISSING]
    q = [frozenset({"240.0", "250.0", "260.0"}), frozenset({"132.0"}), frozenset({"-1.5", "10"}),
         frozenset({"0.10", gp.MISSING})]
    rel = Release.from_quantization(labels, q, "label")
    m = rel.mapping
    assert m["250.0"] == "[240.0, 260.0]" and m["132.0"] == "132.0"
    assert m["-1.5"] == "{-1.5, 10}"                      # 0.10 lies between -1.5 and 10
    assert m["0.10"] == "{0.10, NA}"
    for c in q:
        if len(c) > 1:
            assert m[next(iter(c))] == generalisation_label(c, labels)


def test_numeric_values_of_many_labels_as_of_few():
    """Label arrays of numbers are converted in one call; the result is the per-label rule's: a bool is
    not a number however many labels come with it, text and the missing value take the per-label path."""
    from graphpriv.mechanisms.release import _numeric_values

    many = list(range(100))
    assert _numeric_values(many).tolist() == [float(v) for v in many]
    assert _numeric_values(np.array(many)).tolist() == [float(v) for v in many]
    assert _numeric_values([True] + many) is None and _numeric_values([np.bool_(False)] + many) is None
    assert _numeric_values(many + [float("inf")]) is None
    assert _numeric_values([np.int64(3), 2.5] * 50).tolist() == [3.0, 2.5] * 50
    assert _numeric_values(["132.0"] + many)[0] == 132.0
    got = _numeric_values([gp.MISSING] + many)
    assert np.isnan(got[0]) and got[1:].tolist() == [float(v) for v in many]
    assert _numeric_values([]) is None


def test_csv_writer_reads_smaller_blocks_when_released_texts_are_long(tmp_path):
    """Long released texts (a set label on every row) shrink the CSV writer's block, and the written bytes do
    not depend on the block: the release of a 20,000-row table is the same in one block and in 4 KiB blocks."""
    import numpy as np

    from graphpriv.release.writer import _BLOCK, _MIN_BLOCK, _block_for, write_csv_release

    assert _block_for([b"130", b""], _BLOCK) == _BLOCK
    assert _MIN_BLOCK <= _block_for([b"x" * 56, b""], _BLOCK) < _BLOCK
    assert _block_for([b"x" * 10_000], _BLOCK) == _MIN_BLOCK
    src = tmp_path / "t.csv"
    rows = ["s,x,note"] + [f"s{i % 7},{i % 50},n{i}" for i in range(20_000)]
    src.write_text("\n".join(rows) + "\n")
    codes = np.array([i % 50 for i in range(20_000)], dtype=np.int64)
    label = "{" + ", ".join(map(str, range(0, 50, 2))) + "} (25 values)"
    texts = [label if k % 2 == 0 else "" for k in range(50)]
    replaced = np.array([k % 2 == 0 for k in range(50)])
    outs = []
    for block in (None, 1 << 12):                       # one block, then about 80 blocks
        dst = tmp_path / f"out{block}.csv"
        kw = {} if block is None else {"block_size": block}
        st = write_csv_release(src, dst, "x", iter([codes]), replaced, texts, **kw)
        assert st["read"] == st["written"] == 20_000 and st["replaced"] == 10_000
        outs.append(dst.read_bytes())
    assert outs[0] == outs[1] and outs[0].count(label.encode()) == 10_000
