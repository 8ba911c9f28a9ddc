"""Every subcommand given a bad path, a busy port or a malformed server answer: one line on stderr, exit 2, no
traceback (#14 point 8). The malformed answers come from a tiny HTTP server on 127.0.0.1 that speaks HTTP 200
with JSON shaped wrongly in each way the Prometheus API's result formats can be broken."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from contextlib import contextmanager

import pytest

from tests.conftest import ROOT, gpudash
from tests.standins import StandIn

DATA = ROOT / "e2e" / "data"
MODEL = ["-c", str(DATA / "model.yaml")]
MOCK = ["-f", str(DATA / "live.mock.yaml"), *MODEL]
PERIOD = ["--start", "2026-01-31T20:00:00Z", "--end", "2026-01-31T22:00:00Z"]


def one_line_exit_2(r: subprocess.CompletedProcess, *needles: str) -> str:
    err = r.stderr.strip()
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr and len(err.splitlines()) == 1, r.stderr
    for needle in needles:
        assert needle in err, (needle, err)
    return err


@pytest.mark.parametrize("args,needles", [
    (["render", "--example", "-o", "/proc/nope"], ["/proc/nope"]),
    (["validate", "-c", "missing.yaml"], ["missing.yaml"]),
    (["test", "-c", "missing.yaml"], ["missing.yaml"]),
    (["init", "-o", "/proc/nope"], ["/proc/nope", "cannot write"]),
    (["mock", "serve", "-f", "missing.yaml", *MODEL], ["missing.yaml", "cannot read the mock file"]),
    (["mock", "history", *MOCK, "-o", "/proc/nope"], ["-o /proc/nope", "cannot write"]),
    (["mock", "bill", "-f", "missing.yaml", *MODEL], ["missing.yaml"]),
    (["report", "billing", "--prometheus-url", "http://127.0.0.1:1", "-c", "missing.yaml", *PERIOD],
     ["missing.yaml"]),
    (["report", "billing", "--prometheus-url", "http://127.0.0.1:1", *MODEL, *PERIOD, "--ca-file", "nope.pem"],
     ["--ca-file nope.pem"]),
    (["report", "billing", "--prometheus-url", "http://127.0.0.1:1", *MODEL, *PERIOD], ["cannot connect"]),
])
def test_bad_paths(args, needles, tmp_path):
    one_line_exit_2(gpudash(*args, cwd=tmp_path), *needles)


def test_mock_serve_on_a_busy_port():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        one_line_exit_2(gpudash("mock", "serve", *MOCK, "--port", str(port)), f"--port {port}", "in use")


def test_mock_bill_into_a_closed_pipe():
    """`mock bill | head -0`: the reader is gone before the first write.

    The bill is ~2 KiB, less than a pipe buffer, so a reader that leaves after one line may still
    see a clean exit; closing the read end first makes every write meet EPIPE.
    """
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run([sys.executable, "-m", "gpudash", "mock", "bill", *MOCK], cwd=ROOT,
                              stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write_end)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "broken pipe" in proc.stderr, proc.stderr



def test_output_into_a_file_arrives_whole_though_the_cli_skips_pythons_teardown(tmp_path):
    """``python -m gpudash`` ends with ``os._exit`` after flushing (gpudash/__main__.py): a file, block-buffered, still
    gets every byte of an output larger than the buffer (the schema, ~58 KB), and stderr its last line."""
    out = tmp_path / "schema.json"
    with out.open("w") as f:
        proc = subprocess.run([sys.executable, "-m", "gpudash", "schema"], cwd=ROOT, stdout=f, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert proc.returncode == 0 and json.loads(out.read_text())["$defs"], proc.stderr
    with (tmp_path / "err").open("w") as err:
        bad = subprocess.run([sys.executable, "-m", "gpudash", "render", "-c", str(tmp_path / "none.yaml"), "-o",
                              str(tmp_path / "o")], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err, timeout=120)
    assert bad.returncode == 2 and (tmp_path / "err").read_text().startswith("gpudash: ")

# --- malformed answers with HTTP 200 --------------------------------------------------------------------------
def _ok(data) -> bytes:
    return json.dumps({"status": "success", "data": data}).encode()


SERIES = _ok([{"__name__": "cluster_namespace:gpudash_tenant:info", "namespace": "team-a"}])
MALFORMED = {  # what is wrong -> (report, answer to /api/v1/query and /api/v1/query_range, expected text)
    "result not a list": ("billing", _ok({"resultType": "matrix", "result": {"a": 1}}),
                          "/api/v1/query_range", "data.result is a dict, not a list"),
    "matrix sample without values": ("billing", _ok({"resultType": "matrix", "result": [{"metric": {}}]}),
                                     "/api/v1/query_range", "result[0] has no 'values'"),
    "matrix value not numeric": ("billing", _ok({"resultType": "matrix",
                                                 "result": [{"metric": {}, "values": [[7200, "many"]]}]}),
                                 "/api/v1/query_range", "not a number in a string: 'many'"),
    "vector sample without value": ("idle", _ok({"resultType": "vector", "result": [{"metric": {}}]}),
                                    "/api/v1/query", "result[0] has no 'value'"),
    "vector value not numeric": ("idle", _ok({"resultType": "vector", "result": [{"metric": {}, "value": [1, 2]}]}),
                                 "/api/v1/query", "not a number in a string: 2"),
    "no data at all": ("idle", json.dumps({"status": "success"}).encode(), "127.0.0.1", "no data"),
    "data not an object": ("idle", _ok([1, 2]), "/api/v1/query", "data is a list, not an object"),
}


@contextmanager
def serving(body: bytes):
    """A server answering ``body`` to every query (and a valid series list to /api/v1/series)."""
    with StandIn(lambda request: (200, SERIES if request.path == "/api/v1/series" else body)) as server:
        yield server.url


@pytest.mark.parametrize("case", MALFORMED)
def test_malformed_prometheus_answers(case):
    report, body, endpoint, what = MALFORMED[case]
    with serving(body) as url:
        extra = PERIOD if report == "billing" else ["--time", "2026-01-31T22:00:00Z"]
        r = gpudash("report", report, "--prometheus-url", url, *MODEL, *extra)
    one_line_exit_2(r, endpoint, what)


# --- report options checked before any query (#14 point 10) ---------------------------------------------------
URL = ["--prometheus-url", "http://127.0.0.1:1"]


@pytest.mark.parametrize("args,needles", [
    (["billing", *URL, *MODEL, *PERIOD, "--cluster", "prod-eats"],
     ["--cluster prod-eats is not one of the model's clusters (prod-east, prod-west)", "did you mean 'prod-east'"]),
    (["billing", *URL, *MODEL, *PERIOD, "--tenant", "team-alpha"],
     ["team-alpha is the namespace of tenant alpha, pass --tenant alpha"]),
    (["billing", "--prometheus-url", "http://127.0.0.1:1/api/v1/", *MODEL, *PERIOD],
     ["ends in /api/v1: pass the base URL (http://127.0.0.1:1)"]),
    (["idle", *URL, *MODEL, "--window", "9m"], ["--window 9m is shorter than alerts.idle.window (30m)"]),
])
def test_report_options(args, needles):
    one_line_exit_2(gpudash("report", *args), *needles)


def test_report_nodes_does_not_offer_tenant_and_every_option_has_help():
    import argparse

    from gpudash.cli import _parser

    r = gpudash("report", "nodes", "--help")
    assert r.returncode == 0 and "--tenant" not in r.stdout
    missing = []

    def walk(parser, name):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, p in action.choices.items():
                    walk(p, f"{name} {sub}")
            elif action.option_strings and not action.help:
                missing.append(f"{name} {action.option_strings[0]}")

    walk(_parser(), "gpudash")
    assert not missing, missing
