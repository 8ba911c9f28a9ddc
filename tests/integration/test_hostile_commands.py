"""Every command that reads an HTTP API, run as users run it (``python -m gpudash``), against a hostile server
(tests/hostile.py) in every mode (issue 26): it exits non-zero with one line on stderr (warnings aside, each one
line) or prints correct output; never a traceback, a hang past its deadline, a NaN/infinite/negative/absurd
figure, a raw control character or a secret."""
from __future__ import annotations

import csv
import io
import json
import os
import re
import time

import pytest

from gpudash import cli
from gpudash.base.environ import TOKEN_ENV
from gpudash.ops.prometheus_client import Prometheus, PrometheusError
from gpudash.ops.report import formats, presentation
from tests.conftest import gpudash
from tests.hostile import MODES, PARTIAL, PARTIAL_WARNING, Hostile

TIMEOUT = 2  # --timeout of every command: each request's total deadline
SLACK = 12  # interpreter start and imports on a busy 2-core machine, on top of the one request that times out
TOKEN, PASSWORD, URL_PASSWORD = "tok-SECRET-4711", "pw-SECRET-4712", "urlpw-SECRET-4713"
PERIOD = ["--start", "2026-01-01T00:00:00Z", "--end", "2026-01-01T03:00:00Z"]
CONNECTION = ["--example", "--timeout", f"{TIMEOUT}s", "--max-response-bytes", "1000000"]
COMMANDS = {
    "report billing": ["report", "billing", *CONNECTION, *PERIOD],
    "report nodes": ["report", "nodes", *CONNECTION, *PERIOD],
    "report idle": ["report", "idle", *CONNECTION, "--time", "2026-01-01T03:00:00Z"],
    "doctor": ["doctor", "--role", "single", *CONNECTION],
    "grafana-bootstrap": ["grafana-bootstrap", *CONNECTION],
}
# Modes in which printing correct output is right: valid figures under hostile labels (printed escaped); broken
# rule groups for a command that does not read /api/v1/rules (the series answers are empty: an empty report).
CORRECT_OUTPUT_ALLOWED = {"control-labels"}
RULES_MODES = {"rules-missing", "rules-bad-date"}
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
BAD_FIGURE = re.compile(r"\b(nan|inf|infinity)\b|(?<![\w:.-])-\d|\d{16,}", re.IGNORECASE)


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GPUDASH_", "GRAFANA_"))}
    return {**env, TOKEN_ENV: TOKEN, "GRAFANA_USER": "admin", "GRAFANA_PASSWORD": PASSWORD}


def check(r, elapsed: float, mode: str, allowed: set = CORRECT_OUTPUT_ALLOWED) -> None:
    out, err = r.stdout, r.stderr
    assert "Traceback" not in err, err
    assert elapsed < TIMEOUT + SLACK, f"took {elapsed:.1f}s"
    for text in (out, err):
        assert TOKEN not in text and PASSWORD not in text and URL_PASSWORD not in text, text
        assert not RAW_CONTROL.search(text.replace("\n", "")), repr(text)
    assert not any(line.startswith("FORGED") for line in (out + err).splitlines()), out
    lines = err.splitlines()
    assert all(line.startswith("gpudash: ") for line in lines), err  # each message one line
    if mode not in allowed:
        assert r.returncode != 0, (out, err)
        if r.returncode == 1:  # doctor: the failed checks are its output, one line each
            assert out.startswith(("ok", "warn", "fail")) and not lines, (out, err)
        else:
            assert len([x for x in lines if not x.startswith("gpudash: warning: ")]) == 1, err
    if r.returncode == 0 or mode in allowed:
        assert not BAD_FIGURE.search(re.sub(r"\d{4}-\d\d-\d\dT[\d:]+Z", "", out)), out


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_against_every_hostile_mode(command, mode, tmp_path):
    with Hostile(mode) as server:
        flag = "--grafana-url" if command == "grafana-bootstrap" else "--prometheus-url"
        t0 = time.monotonic()
        r = gpudash(*COMMANDS[command], flag, server.url, cwd=tmp_path, env=_env())
        allowed = CORRECT_OUTPUT_ALLOWED | (RULES_MODES if command.startswith("report") else set())
        check(r, time.monotonic() - t0, mode, allowed)


def test_url_password_is_never_echoed(tmp_path):
    """A server echoing what it was sent: the URL's password stays out of every message."""
    env = {k: v for k, v in _env().items() if k != TOKEN_ENV}
    with Hostile("echo-secret") as server:
        url = server.url.replace("http://", f"http://user:{URL_PASSWORD}@")
        r = gpudash(*COMMANDS["report billing"], "--prometheus-url", url, cwd=tmp_path, env=env)
    check(r, 0, "echo-secret")
    assert "rejected a query" in r.stderr


# --- defect 6, in process: the deadline is total (seconds by nature, so not in the unit suite) --------------------
@pytest.mark.parametrize("mode", ["drip", "drip-headers", "silent"])
def test_a_dripping_or_silent_server_is_cut_at_the_deadline(mode):
    with Hostile(mode) as server:
        t0 = time.monotonic()
        with pytest.raises(PrometheusError, match=r"did not answer within 1s"):
            Prometheus(server.url, timeout=1).query("up", 1)
        assert time.monotonic() - t0 < 2


def test_doctor_has_a_timeout(capsys):
    with Hostile("drip") as server:
        t0 = time.monotonic()
        code = cli.main(["doctor", "--example", "--timeout", "1s", "--prometheus-url", server.url])
        assert time.monotonic() - t0 < 3
    assert code == 2 and "did not answer within 1s" in capsys.readouterr().err


# --- issue 47 item 2: a partial answer is never final, in any format -------------------------------------------------
REPORT_FORMATS = [(f"report {r}", f) for r in formats.STDOUT_REPORTS for f in formats.offered(r)]


def _report(command: str, fmt: str, url: str, folder, *extra: str) -> int:
    """``command`` in ``--format fmt`` against ``url``, in process; statements go to ``folder``."""
    statement = ["--output-dir", str(folder)] if formats.BY_NAME[fmt].statement else []
    return cli.main([*COMMANDS[command], "--prometheus-url", url, "--format", fmt, *statement, *extra])


@pytest.mark.parametrize("command,fmt", REPORT_FORMATS)
def test_a_partial_answer_is_refused_in_every_format(command, fmt, tmp_path, capsys):
    with Hostile(PARTIAL) as server:
        code = _report(command, fmt, server.url, tmp_path)
    out, err = capsys.readouterr()
    errors = [x for x in err.splitlines() if not x.startswith("gpudash: warning: ")]
    assert code == 2 and out == "" and not list(tmp_path.iterdir()), (out, err)
    assert len(errors) == 1 and "answered partially" in errors[0] and "--allow-partial" in errors[0], err
    assert PARTIAL_WARNING in err  # the warning names the store that did not answer


@pytest.mark.parametrize("command,fmt", [(c, f) for c, f in REPORT_FORMATS if f != "pdf"])
def test_allow_partial_marks_every_format_and_is_never_final(command, fmt, tmp_path, capsys):
    with Hostile(PARTIAL) as server:
        code = _report(command, fmt, server.url, tmp_path, "--allow-partial")
    out, err = capsys.readouterr()
    if formats.BY_NAME[fmt].check:  # an e-invoice is never a draft: refused, nothing written
        assert code == 2 and "is a draft" in err and "part of the metrics store did not answer" in err, err
        assert not list(tmp_path.iterdir())
        return
    assert code == 0, err
    if fmt == "json":
        assert json.loads(out)["partial"] is True
    elif fmt in ("csv", "focus"):
        rows = list(csv.DictReader(io.StringIO(out)))
        assert rows and all(row["partial" if fmt == "csv" else "x_Partial"] == "true" for row in rows), out
    elif fmt == "table":
        assert out.startswith(presentation.PARTIAL_MARK), out
    else:  # html: every statement a draft saying why
        files = list(tmp_path.iterdir())
        assert files and all(f.name.endswith("-DRAFT.html") for f in files)
        assert all("part of the metrics store did not answer" in f.read_text() for f in files)
