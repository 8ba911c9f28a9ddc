"""Issue 26, the reading side: each defect of a hostile or broken Prometheus/Thanos or Grafana, reproduced in
process against tests/hostile.py (a server thread on 127.0.0.1, no process started). The same modes run through
every command as a subprocess in tests/integration/test_hostile_commands.py."""
from __future__ import annotations

import re

import pytest

from gpudash import cli
from gpudash.ops.prometheus_client import Prometheus, PrometheusError
from gpudash.ops.report import billing, idle, nodes, presentation
from gpudash.ops.report.period import parse_period, parse_time
from tests.hostile import EVIL_LABELS, Hostile

PERIOD = ("2026-01-01T00:00:00Z", "2026-01-01T03:00:00Z")
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def _one_line(err: Exception) -> str:
    text = str(err)
    assert "\n" not in text and "\r" not in text and not RAW_CONTROL.search(text), repr(text)
    return text


# --- defect 4: values a Prometheus can return are never billed silently wrong, nor crash ----------------------
@pytest.mark.parametrize("mode", ["nan", "alternating", "negative", "inf", "overflow", "huge"])
@pytest.mark.parametrize("report", ["billing", "nodes"])
def test_hourly_reports_refuse_values_that_are_no_figure(mode, report, example_model):
    start, end = parse_period(*PERIOD)
    with Hostile(mode) as server, pytest.raises(PrometheusError) as err:
        module = billing if report == "billing" else nodes
        module.fetch(Prometheus(server.url, timeout=5), example_model, start, end)
    text = _one_line(err.value)
    assert "series cluster_namespace_class_resource:gpudash_cost:last_hour{" in text and 'cluster="east"' in text


@pytest.mark.parametrize("mode", ["nan", "negative", "overflow"])
def test_idle_report_never_prints_a_cost_of_nan(mode, example_model):
    with Hostile(mode) as server, pytest.raises(PrometheusError) as err:
        idle.fetch(Prometheus(server.url, timeout=5), example_model, at=parse_time(PERIOD[1], "--time"))
    assert "series " in _one_line(err.value)


# --- defect 5: answers of the wrong shape are one line ----------------------------------------------------------
@pytest.mark.parametrize("mode,needle", [
    ("warnings-number", "warnings is not a list of strings"),
    ("deep", "nested deeper than"),
    ("5xx-success", "HTTP 502"),
    ("wrong-shape", "malformed"),
    ("html", "login page"),
])
def test_wrong_shapes_are_one_line(mode, needle):
    with Hostile(mode) as server, pytest.raises(PrometheusError) as err:
        Prometheus(server.url, timeout=5).query("up", 1767225600)
    assert needle in _one_line(err.value)


@pytest.mark.parametrize("mode,needle", [("rules-missing", "has no 'groups'"),
                                         ("rules-bad-date", "lastEvaluation is not an RFC 3339 time")])
def test_doctor_on_broken_rule_groups_is_one_line(mode, needle, capsys):
    with Hostile(mode) as server:
        code = cli.main(["doctor", "--example", "--role", "hub", "--prometheus-url", server.url])
    err = capsys.readouterr().err
    assert code == 2 and needle in err and err.count("\n") == 1, err


@pytest.mark.parametrize("mode", ["wrong-shape", "warnings-number", "nan", "rules-missing", "5xx-success", "deep",
                                  "control-labels"])
def test_grafana_bootstrap_on_hostile_answers_is_one_line(mode, monkeypatch, capsys):
    monkeypatch.delenv("GRAFANA_TOKEN", raising=False)
    monkeypatch.setenv("GRAFANA_USER", "admin")
    monkeypatch.setenv("GRAFANA_PASSWORD", "pw-secret-1")
    with Hostile(mode) as server:
        code = cli.main(["grafana-bootstrap", "--example", "--grafana-url", server.url])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and not RAW_CONTROL.search(err.rstrip("\n")), err


# --- defect 6: the body is capped (the total deadline: tests/integration/test_hostile_commands.py) --------------
@pytest.mark.parametrize("mode", ["huge-body", "huge-stream"])
def test_a_huge_answer_is_refused_not_read(mode):
    with Hostile(mode) as server, pytest.raises(PrometheusError, match="larger than 1000000 bytes") as err:
        Prometheus(server.url, timeout=5, max_response_bytes=1_000_000).query("up", 1)
    _one_line(err.value)


# --- defect 7 (at run time): secrets ----------------------------------------------------------------------------
def test_an_unparsable_url_never_prints_its_password():
    with pytest.raises(PrometheusError) as err:
        Prometheus("http://u:pa55word@[bad", timeout=2).query("up", 0)
    assert "pa55word" not in str(err.value)


def test_userinfo_and_a_token_together_are_refused():
    with pytest.raises(PrometheusError, match="user:password and a bearer token") as err:
        Prometheus("http://u:pa55word@127.0.0.1:9", token="tok-1")
    assert "pa55word" not in str(err.value) and "tok-1" not in str(err.value)


def test_a_server_echoing_the_token_does_not_make_us_print_it():
    with Hostile("echo-secret") as server, pytest.raises(PrometheusError) as err:
        Prometheus(server.url, token="tok-echoed-42", timeout=5).query("up", 1)
    assert "tok-echoed-42" not in _one_line(err.value)


@pytest.mark.parametrize("args,needle", [
    (["--prometheus-url", "http://prometheus.example.com:9090", "--token", "t0k"], "plain http://"),
    (["--prometheus-url", "https://127.0.0.1:9", "--insecure-skip-verify"], "--insecure-skip-verify"),
])
def test_token_over_http_and_skipped_verification_are_warned(args, needle, capsys):
    cli.main(["doctor", "--example", "--timeout", "1s", *args])
    err = capsys.readouterr().err
    assert "gpudash: warning: " in err and needle in err.split("\n")[0] and "t0k" not in err


def test_token_from_a_file(tmp_path, capsys):
    (tmp_path / "token").write_text("tok-from-file\n")
    with Hostile("echo-secret") as server:
        code = cli.main(["doctor", "--example", "--timeout", "2s", "--token-file", str(tmp_path / "token"),
                         "--prometheus-url", server.url])
    err = capsys.readouterr().err
    assert code == 2 and "Bearer ***" in err and "tok-from-file" not in err  # sent, echoed, redacted


# --- defect 8: terminal injection ----------------------------------------------------------------------------
def test_label_values_cannot_forge_a_table_row(example_model):
    with Hostile("control-labels") as server:
        report = idle.fetch(Prometheus(server.url, timeout=5), example_model, at=parse_time(PERIOD[1], "--time"))
    table = presentation.idle_table(report)
    assert report.workloads and not RAW_CONTROL.search(table.replace("\n", ""))
    assert not any(line.startswith("FORGED") for line in table.splitlines())
    assert "team-a\\x0aFORGED" in table and "east\\x1b[2J" in table


def test_csv_is_rfc_4180(example_model):
    import csv
    import io

    with Hostile("control-labels") as server:
        report = idle.fetch(Prometheus(server.url, timeout=5), example_model, at=parse_time(PERIOD[1], "--time"))
    text = presentation.idle_csv(report)
    assert text.endswith("\r\n") and text.count("\r\n") == 2  # the header and one row, each ended by CRLF
    row = list(csv.reader(io.StringIO(text, newline="")))[1]
    assert row[1] == EVIL_LABELS["namespace"]  # the field round-trips exactly, quoted


def test_json_output_escapes_what_json_itself_leaves_raw():
    import json

    data = {"namespace": "a\x9b31m\x7f\u2028b\x1b"}
    text = presentation.dumps(data)
    assert not RAW_CONTROL.search(text.replace("\n", "")) and "\u2028" not in text
    assert json.loads(text) == data


def test_grafana_credentials_over_http_are_warned_and_userinfo_refused(monkeypatch, capsys):
    monkeypatch.delenv("GRAFANA_TOKEN", raising=False)
    monkeypatch.setenv("GRAFANA_USER", "admin")
    monkeypatch.setenv("GRAFANA_PASSWORD", "pw-secret-2")
    cli.main(["grafana-bootstrap", "--example", "--timeout", "1s", "--grafana-url", "http://grafana.invalid:3000"])
    err = capsys.readouterr().err
    assert "warning: the Grafana token or password is sent over plain http://" in err.splitlines()[0]
    assert cli.main(["grafana-bootstrap", "--example", "--grafana-url", "https://admin:pw-url-3@grafana.invalid"]) == 2
    err = capsys.readouterr().err
    assert "carries a user:password" in err and "pw-url-3" not in err and err.count("\n") == 1
