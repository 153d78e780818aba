"""Fuzzing the command line in-process: random CSV bytes and argument lists fed to graphpriv.cli.main.

Every run either succeeds (exit 0) or fails with exit 2 and exactly one line on stderr
(``graphpriv: error: ...; see '... --help'``) -- never a traceback, another exit code or a hang. A
successful ``analyze`` reads exactly the data records Python's strict :mod:`csv` module reads from
the same text (blank lines aside). About 40-60 s on two cores; the number of examples is printed.
"""

from __future__ import annotations

import contextlib
import csv
import importlib.util
import io
import json
import os
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from graphpriv.cli import main

#: Examples per run; sized for ~40-60 s of the CI budget on two cores.
N_EXAMPLES = int(os.environ.get("GRAPHPRIV_FUZZ_EXAMPLES", "350"))
STATS = {"examples": 0, "ok": 0, "error": 0, "checked_records": 0, "lenient": 0}
#: With the strict reader (graphpriv.ingest) every accepted file must also be accepted by the csv module;
#: the older pyarrow reader accepts some files the csv module refuses (counted as "lenient", not checked).
STRICT_READER = importlib.util.find_spec("graphpriv.ingest") is not None

_TOKENS = [b"a", b"b", b"1", b"2", b"007", b"7", b"1.0", b"-3", b"x y", b"", b"NA", b"?", b"nan", b"inf",
           b",", b",", b",", b"\n", b"\n", b"\r\n", b'"', b'""', b'"q,1"', b'"a\nb"', b"\xff", b"\xc3\xa9", b"\t",
           b";", b" ", b"<script>", b"\x00", b"#"]

_FIELDS = [b"a", b"b", b"1", b"2", b"007", b"7", b"", b"NA", b'"q,1"', b'"a\nb"', b"\xc3\xa9", b"x y", b"1e0",
           b'"c"', b"-0", b"2.50"]

csv_bytes = st.one_of(
    # mostly well-formed tables with awkward fields (quoted commas and newlines, leading zeros, NA) ...
    st.lists(st.lists(st.sampled_from(_FIELDS), min_size=3, max_size=3), min_size=1, max_size=8).map(
        lambda rows: b"s,x,z\n" + b"\n".join(b",".join(r) for r in rows) + b"\n"),
    st.lists(st.lists(st.sampled_from(_FIELDS), min_size=3, max_size=3), min_size=1, max_size=8).map(
        lambda rows: b"s,x,z\r\n" + b"\r\n".join(b",".join(r) for r in rows)),
    # ... tables with one broken row ...
    st.tuples(st.lists(st.lists(st.sampled_from(_FIELDS), min_size=3, max_size=3), min_size=1, max_size=5),
              st.lists(st.sampled_from(_TOKENS), min_size=1, max_size=6)).map(
        lambda p: b"s,x,z\n" + b"\n".join(b",".join(r) for r in p[0]) + b"\n" + b"".join(p[1])),
    # ... and raw byte soup
    st.lists(st.sampled_from(_TOKENS), max_size=40).map(lambda t: b"s,x\n" + b"".join(t)),
    st.binary(max_size=60),
)

good_options = st.tuples(
    st.sampled_from([["--missing", "keep"]] * 3 + [["--missing", "drop"], []]),
    st.sampled_from([["--json"]] * 3 + [[]]),
    st.lists(st.sampled_from([["-v"], ["--encoding", "latin-1"], ["--na-values", "7"], ["--max-cut-edges", "0"],
                              ["--no-figures"], ["--out"]]), max_size=2),
).map(lambda p: [p[0], p[1], *p[2]])
bad_options = st.sampled_from([
    [], [], [], [], [], [], [], [], [], [], [], [], ["--missing", "error"], ["-q"], ["--sep", ";"], ["--sep", ",,"], ["--sep", "\t"],
    ["--encoding", "rot13"], ["--encoding", "utf-16"], ["--max-cut-edges", "-1"], ["--bogus"], ["-x"],
    ["--overwrite"], ["--json", "--json"],
])
options = st.tuples(good_options, bad_options).map(lambda p: [*p[0], p[1]])

commands = st.sampled_from(["analyze"] * 6 + ["sanitize", "nonsense"])
columns = st.sampled_from([("s", "x")] * 6 + [("x", "s"), ("s", "nope"), ("s", "s"), ("z", "x")])
sanitize_opts = st.sampled_from([["--objective", "I*", "--utility", "U1", "--lam", "1"],
                                 ["--objective", "L0", "--utility", "U1", "--lam", "0.1"],
                                 ["--objective", "L0|I*=0", "--utility", "U2", "--lam", "0"],
                                 ["--objective", "L0", "--utility", "U1", "--lam", "-1"],
                                 ["--objective", "L0", "--utility", "U1", "--min-utility", "1"],
                                 ["--objective", "Q"]])


def _strict_records(data: bytes, sep: str, encoding: str) -> int | None:
    """Data records (header excluded, blank lines skipped) as Python's strict csv module reads them;
    None when it refuses the text."""
    try:
        text = data.decode(encoding)
        rows = [r for r in csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True) if r]
    except (UnicodeDecodeError, csv.Error, LookupError):
        return None
    return max(len(rows) - 1, 0)


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main([str(a) for a in argv])
        except SystemExit as exc:      # --help / --version only
            rc = exc.code
    return rc, out.getvalue(), err.getvalue()


@settings(max_examples=N_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=csv_bytes, command=commands, cols=columns, opts=options, san=sanitize_opts)
def test_cli_fuzz_one_line_errors_and_exact_records(data, command, cols, opts, san):
    opts = [o for o in opts if o]
    flat = [a for o in opts for a in o]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "in.csv")
        with open(path, "wb") as fh:
            fh.write(data)
        out = os.path.join(tmp, "out")
        argv = [command, path, "-s", cols[0], "-x", cols[1], *flat]
        if command == "sanitize":
            argv += [*san, "--no-animation", "--out", out]
        if "--out" in flat and flat[-1] == "--out":
            argv.append(out)
        rc, stdout, stderr = _run(argv)
        STATS["examples"] += 1
        assert rc in (0, 2), (argv, rc, stderr)
        if rc == 2:
            STATS["error"] += 1
            lines = stderr.strip().splitlines()
            assert len(lines) == 1, (argv, stderr)
            assert lines[0].startswith("graphpriv: error: ") and "--help'" in lines[0], (argv, stderr)
            assert "Traceback" not in stderr
            # a failed run leaves nothing beside the input
            assert sorted(os.listdir(tmp)) == ["in.csv"], (argv, os.listdir(tmp))
            return
        STATS["ok"] += 1
        assert "Traceback" not in stderr
        if command == "analyze" and "--json" in flat and "-q" not in flat:
            sep = "\t" if ["--sep", "\t"] in opts else ";" if ["--sep", ";"] in opts else ","
            enc = "latin-1" if ["--encoding", "latin-1"] in opts else "utf-8"
            want = _strict_records(data, sep, enc)
            report = json.loads(stdout)
            if want is None:
                # graphpriv accepted a file the strict csv module refuses
                assert not STRICT_READER, (data, argv, report["rows"])
                STATS["lenient"] += 1
                return
            assert report["rows"]["read"] == want, (data, argv, report["rows"])
            STATS["checked_records"] += 1


@pytest.fixture(scope="module", autouse=True)
def _report_examples():
    yield
    print(f"\nCLI fuzz: {STATS['examples']} examples ({STATS['ok']} succeeded, {STATS['error']} one-line errors; "
          f"{STATS['checked_records']} record counts equal to Python's strict csv module's; "
          f"{STATS['lenient']} files accepted that it refuses; strict reader present: {STRICT_READER})")
