"""The Prometheus API client: every failure is one readable line (exit 2), against tiny local HTTP servers."""
from __future__ import annotations

import json
import socket
import time
from urllib.parse import parse_qs

import pytest

from gpudash.base.environ import TOKEN_ENV
from gpudash.ops.prometheus_client import Prometheus, PrometheusError
from tests.standins import StandIn


class _Prometheus(StandIn):
    """Records (method, path, parameters, Authorization) of each request and answers ``reply(parameters)``:
    (status, content type, body)."""

    def __init__(self):
        self.seen: list[tuple] = []
        self.reply = lambda params: (200, "application/json", b"{}")
        super().__init__(self._answer)

    def _answer(self, request):
        form = parse_qs(request.body.decode()) if request.method == "POST" else request.query
        params = {k: v[0] for k, v in form.items()}
        self.seen.append((request.method, request.path, params, request.headers.get("Authorization")))
        code, ctype, body = self.reply(params)
        return code, body, ctype


@pytest.fixture
def server():
    with _Prometheus() as srv:
        yield srv


def _json(data, code=200):
    return lambda params: (code, "application/json", json.dumps(data).encode())


VECTOR = {"status": "success", "data": {"resultType": "vector",
                                        "result": [{"metric": {"cluster": "east"}, "value": [1, "2.5"]}]}}


def test_query_sends_token_time_timeout_and_tenant_namespace(server):
    server.reply = _json(VECTOR)
    prom = Prometheus(server.url + "/", token="abc", timeout=30, extra_params={"namespace": "team-a"})
    assert prom.query("up", 1700000000) == [({"cluster": "east"}, 2.5)]
    method, path, params, auth = server.seen[0]
    assert (method, path, auth) == ("GET", "/api/v1/query", "Bearer abc")
    assert params == {"query": "up", "time": "1700000000", "timeout": "30s", "namespace": "team-a"}


def test_long_queries_are_posted(server):
    server.reply = _json(VECTOR)
    Prometheus(server.url).query("sum(" + "x or " * 2000 + "x)", 1)
    assert server.seen[0][0] == "POST" and server.seen[0][2]["query"].startswith("sum(x or")


def test_thanos_partial_response_warnings_are_kept(server):
    server.reply = _json({**VECTOR, "warnings": ["store 10.0.0.1:10901 unavailable"]})
    prom = Prometheus(server.url)
    prom.query("up", 1)
    assert prom.warnings == ["the query API warned (partial data?): store 10.0.0.1:10901 unavailable"]


@pytest.mark.parametrize("reply,needles", [
    (lambda p: (401, "text/plain", b"Unauthorized"), ("answered 401 Unauthorized", TOKEN_ENV)),
    (lambda p: (403, "text/plain", b"Forbidden"), ("answered 403 Forbidden", "--tenant")),
    (_json({"status": "error", "errorType": "bad_data", "error": "parse error at char 3"}, 400),
     ("rejected a query (HTTP 400, bad_data: parse error at char 3); query: up",)),
    (_json({"status": "error", "errorType": "timeout", "error": "query timed out in expression evaluation"}, 503),
     ("did not answer within 60s (--timeout)",)),
    (lambda p: (200, "text/html", b"<html><body>Log in with OpenShift</body></html>"),
     ("not the Prometheus API", "login page")),
    (lambda p: (502, "text/plain", b"Bad Gateway"), ("HTTP 502", "Bad Gateway")),
])
def test_failures_are_one_line(server, reply, needles):
    server.reply = reply
    with pytest.raises(PrometheusError) as err:
        Prometheus(server.url).query("up", 1)
    text = str(err.value)
    assert "\n" not in text
    for n in needles:
        assert n in text, text


def test_client_side_timeout(server):
    def slow(params):
        time.sleep(2)
        return 200, "application/json", json.dumps(VECTOR).encode()

    server.reply = slow
    t0 = time.monotonic()
    with pytest.raises(PrometheusError, match=r"did not answer within 0.5s \(--timeout\)"):
        Prometheus(server.url, timeout=0.5).query("up", 1)
    assert time.monotonic() - t0 < 2


def test_connection_refused():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed when the block ends: nothing listens there
    with pytest.raises(PrometheusError, match=f"cannot connect to Prometheus at http://127.0.0.1:{port}: "
                                              "Connection refused"):
        Prometheus(f"http://127.0.0.1:{port}").query("up", 1)


def test_url_must_be_http():
    with pytest.raises(PrometheusError, match="must start with http"):
        Prometheus("127.0.0.1:9090")


def test_credentials_in_the_url_are_never_printed():
    from gpudash.base.errors import redact as redact_url

    assert redact_url("http://user:pw@host:9090/x") == "http://***@host:9090/x"
    assert redact_url("https://host/a@b") == "https://host/a@b"  # an @ in the path is no userinfo
    prom = Prometheus("http://user:s3cret@127.0.0.1:9", timeout=2)
    with pytest.raises(PrometheusError) as err:
        prom.query("up", 0)
    assert "s3cret" not in str(err.value) and "user:" not in str(err.value) and "***@127.0.0.1:9" in str(err.value)
    with pytest.raises(PrometheusError) as err:
        Prometheus("ftp://user:s3cret@host")
    assert "s3cret" not in str(err.value)
