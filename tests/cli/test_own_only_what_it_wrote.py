"""graphpriv replaces an output folder only when its own marker says every file in it is graphpriv's,
and never deletes an input; a codeword never equals, as a number, another released value."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from graphpriv.cli import main
from graphpriv.outputs import OUTPUT_MARKER, staged_output, write_text
from graphpriv.errors import InputError

TABLE = "s,x\ns3,5.5\ns2,4\ns1,4\ns2,2.5\ns4,2\ns1,2\ns1,7\ns4,7\n"
ARGS = ["-s", "s", "-x", "x", "--objective", "L0", "--utility", "U1", "--lam", "0.5", "--no-animation", "--no-explorer"]


@pytest.fixture
def release_folder(tmp_path):
    (tmp_path / "t.csv").write_text(TABLE)
    out = tmp_path / "rel"
    assert main(["sanitize", str(tmp_path / "t.csv"), *ARGS, "--out", str(out), "-q"]) == 0
    return tmp_path, out


def test_input_inside_out_is_never_deleted(release_folder, capsys):
    tmp, rel = release_folder
    mine = rel / "mydata.csv"
    mine.write_text(TABLE)
    for extra in ([], ["--overwrite"]):
        assert main(["sanitize", str(mine), *ARGS, "--out", str(rel), *extra]) == 2
        assert mine.read_text() == TABLE
        assert "holds the input" in capsys.readouterr().err


def test_graphpriv_output_with_a_user_file_is_not_replaced(release_folder, capsys):
    tmp, rel = release_folder
    (rel / "notes.txt").write_text("mine")
    assert main(["sanitize", str(tmp / "t.csv"), *ARGS, "--out", str(rel)]) == 2
    assert (rel / "notes.txt").read_text() == "mine"
    assert "notes.txt" in capsys.readouterr().err
    (rel / "notes.txt").unlink()
    assert main(["sanitize", str(tmp / "t.csv"), *ARGS, "--out", str(rel), "-q"]) == 0   # its own output: replaced


def test_summary_json_with_schema_version_is_no_marker(tmp_path, capsys):
    (tmp_path / "t.csv").write_text(TABLE)
    other = tmp_path / "other"
    other.mkdir()
    (other / "summary.json").write_text(json.dumps({"schema_version": 1}))
    (other / "keep.txt").write_text("x")
    assert main(["sanitize", str(tmp_path / "t.csv"), *ARGS, "--out", str(other)]) == 2
    assert sorted(p.name for p in other.iterdir()) == ["keep.txt", "summary.json"]
    assert "not written by graphpriv" in capsys.readouterr().err


def test_forged_marker_does_not_cover_unlisted_files(tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    (out / OUTPUT_MARKER).write_text(json.dumps({"written_by": "graphpriv", "files": ["a.txt"]}))
    (out / "a.txt").write_text("a")
    (out / "sub").mkdir()
    (out / "sub" / "b.txt").write_text("b")
    with pytest.raises(InputError, match="sub"):
        with staged_output(out) as stage:
            write_text(stage / "x.txt", "x")
    assert (out / "sub" / "b.txt").read_text() == "b"


def test_codeword_never_equals_an_unchanged_value_as_a_number(tmp_path):
    """The centroid 4 of {2.5, 5.5} beside an unchanged 4: released as 4.01, |X̂| = 4 for any reader."""
    (tmp_path / "t.csv").write_text(TABLE)
    out = tmp_path / "r"
    assert main(["sanitize", str(tmp_path / "t.csv"), "-s", "s", "-x", "x", "--objective", "L0|I*=0",
                 "--utility", "U2", "--lam", "0.5", "--no-animation", "--no-explorer", "--out", str(out), "-q"]) == 0
    numeric = pd.read_csv(out / "sanitized.csv")["x"]
    summary = json.loads((out / "summary.json").read_text())
    assert numeric.nunique() == summary["after"]["n_public"] == 4
    assert 4.0 in set(numeric) and 4.01 in set(numeric)
    assert summary["after"]["utility"] == pytest.approx(-1.51)      # the written codeword's distortion


def test_audit_refuses_numerically_equal_codewords(tmp_path):
    import graphpriv as gp

    rel = gp.Release.from_quantization(["2", "2.5", "4", "5.5", "7"], [["2"], ["2.5", "5.5"], ["4"], ["7"]],
                                       "codeword", utility="U2", codewords=[2.0, 4.0, 4.0, 7.0], decimals=1)
    assert rel.released[1] == 4.01 and rel.released[2] == "4"
