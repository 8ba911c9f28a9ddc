"""A hostile HTTP server on 127.0.0.1: every way a broken or malicious Prometheus/Thanos (``/api/v1/...``) or
Grafana (any other ``/api/...`` path) answered the issue-26 probes. :class:`Hostile` serves one ``mode`` of
:data:`MODES` to every request.

Bounded by construction: a drip sends at most :data:`DRIP_BYTES` bytes, a silent answer waits at most
:data:`SILENT_SECONDS`, the server runs in a daemon thread and stops with its context manager.

The answers follow the shapes of prometheus/prometheus docs/querying/api.md ("Format overview": the envelope
``status``/``data``/``errorType``/``error``/``warnings``; "Expression query result formats"; "Rules") and of
Grafana's HTTP API (docs/sources/developers/http_api/org.md, folder.md, serviceaccount.md), bent one way each.
"""
from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

DRIP_BYTES = 60  # a drip: one byte every DRIP_EVERY seconds, 30 s at most
DRIP_EVERY = 0.5
SILENT_SECONDS = 30
HUGE_BODY = 3 * 2**20  # sent against --max-response-bytes 1000000 (the default cap is tested without a server)

# Label values a hostile exporter or relabelling can put on a series: escape sequences and a forged table row.
EVIL_LABELS = {"__name__": "cluster_namespace_pod:gpudash_gpu_idle:cost_per_hour", "cluster": "east\x1b[2J",
               "namespace": "team-a\nFORGED  ROW  9999", "pod": "p\r\x9b31m", "workload": "w\x7f",
               "workload_type": "Deployment", "resource": "nvidia.com/gpu", "node": "n\x1b]0;title\x07"}
LABELS = {"__name__": "cluster_namespace_class_resource:gpudash_cost:last_hour", "cluster": "east",
          "namespace": "team-a", "gpu_class": "a100", "resource": "nvidia.com/gpu", "pod": "p-0", "node": "gpu-1",
          "workload": "w", "workload_type": "Deployment"}

# mode -> the sample value every series carries ("figure" modes); other modes are handled in Handler
VALUES = {"nan": "NaN", "inf": "+Inf", "overflow": "1e309", "huge": "1e300", "negative": "-3.2",
          "alternating": None, "control-labels": "1"}
MODES = (*VALUES, "warnings-number", "wrong-shape", "deep", "huge-body", "huge-stream", "drip", "drip-headers",
         "silent", "5xx-success", "html", "rules-missing", "rules-bad-date", "echo-secret")

# A Thanos partial response: valid figures, status success, and the error of the store that did not answer in
# ``warnings`` (thanos-io/thanos pkg/api/api.go ``Respond``: one ``warn.Error()`` each; the wording is
# pkg/store/proxy_merge.go's ``receive series from %s``). Served by mode PARTIAL, which only the reports read.
PARTIAL = "partial"
PARTIAL_WARNING = "receive series from store 10.128.2.15:10901: rpc error: code = Unavailable desc = connection refused"


def _vector(value: str, labels: dict) -> dict:
    return {"resultType": "vector", "result": [{"metric": labels, "value": [1767225600, value]}]}


def _matrix(params: dict, mode: str, labels: dict) -> dict:
    start, end, step = (float(params.get(k, d)) for k, d in (("start", 0), ("end", 0), ("step", 3600)))
    values, t, k = [], start, 0
    while t <= end and k < 2000:
        value = ("3.2" if k % 2 == 0 else "NaN") if mode == "alternating" else VALUES[mode]
        values.append([t, value])
        t, k = t + max(step, 1), k + 1
    return {"resultType": "matrix", "result": [{"metric": labels, "values": values}]}


def prometheus_answer(mode: str, path: str, params: dict, auth: str) -> tuple[int, bytes]:
    """(status, body) of a Prometheus API answer in ``mode``."""
    ok = lambda data, **extra: (200, json.dumps({"status": "success", "data": data, **extra}).encode())  # noqa: E731
    labels = EVIL_LABELS if mode == "control-labels" else LABELS
    if path.endswith("/rules"):
        if mode == "rules-missing":
            return ok({})
        if mode == "rules-bad-date":
            return ok({"groups": [{"name": "gpudash-spoke", "file": "x", "interval": 60, "rules": [],
                                   "lastEvaluation": "yesterday at noon"}]})
        return ok({"groups": []})
    if path.endswith("/series"):
        return ok([labels])
    if mode in VALUES:
        return ok(_matrix(params, mode, labels) if path.endswith("query_range")
                  else _vector(VALUES[mode] or "NaN", labels))
    if mode == "warnings-number":
        return ok(_vector("1", LABELS), warnings=5)
    if mode == PARTIAL:
        return ok(_matrix(params, "control-labels", LABELS) if path.endswith("query_range")  # every value 1
                  else _vector("1", LABELS),
                  warnings=[PARTIAL_WARNING])
    if mode == "wrong-shape":
        return ok({"resultType": "vector", "result": {"metric": 5}})
    if mode == "5xx-success":
        return 502, json.dumps({"status": "success", "data": _vector("1", LABELS)}).encode()
    if mode == "rules-missing" or mode == "rules-bad-date":
        return ok({"resultType": "vector", "result": []} if not path.endswith("query_range")
                  else {"resultType": "matrix", "result": []})
    if mode == "echo-secret":
        return 400, json.dumps({"status": "error", "errorType": "bad_data",
                                "error": f"rejected {auth} from {_basic(auth)}"}).encode()
    raise AssertionError(mode)


def grafana_answer(mode: str, auth: str) -> tuple[int, bytes]:
    """(status, body) of a Grafana API answer in ``mode``."""
    numbers = {"nan": "NaN", "inf": "Infinity", "overflow": "1e309", "huge": "1e300", "negative": "-1",
               "alternating": '"1e309"'}
    if mode in numbers:
        n = numbers[mode]
        return 200, (f'{{"id": {n}, "orgId": {n}, "title": {n}, "version": {n}, '
                     f'"serviceAccounts": [{{"id": {n}, "name": "x", "role": {n}}}]}}').encode()
    if mode == "control-labels":
        return 500, json.dumps({"message": "boom\x1b[2J\nFORGED line"}).encode()
    if mode == "warnings-number":
        return 200, json.dumps({"id": 5, "title": 5, "serviceAccounts": 5}).encode()
    if mode == "wrong-shape":
        return 200, b"[]"
    if mode == "5xx-success":
        return 502, json.dumps({"id": 1, "title": "ok", "orgId": 1}).encode()
    if mode in ("rules-missing", "rules-bad-date"):
        return 200, json.dumps({"id": True, "title": None}).encode()
    if mode == "echo-secret":
        return 500, json.dumps({"message": f"bad credentials {auth} = {_basic(auth)}"}).encode()
    raise AssertionError(mode)


def _basic(auth: str) -> str:
    """The user:password of a Basic Authorization header (what a hostile server can read and echo)."""
    if not auth.startswith("Basic "):
        return auth
    return base64.b64decode(auth[6:]).decode("utf-8", "replace")


class Hostile:
    """The server (context manager); ``url`` is its base URL, ``requests`` counts the requests served."""

    def __init__(self, mode: str):
        assert mode in (*MODES, PARTIAL), mode
        self.mode, self.requests, self.stop_event = mode, 0, threading.Event()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.stop_event.set()  # ends drips and silences at once
        self.server.shutdown()
        self.server.server_close()


def _handler(owner: Hostile) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _serve(self):
            owner.requests += 1
            url = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            form = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            params = {k: v[0] for k, v in parse_qs(url.query if self.command == "GET" else form).items()}
            auth = self.headers.get("Authorization", "")
            try:
                self._answer(url.path, params, auth)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up: what a deadline does
                pass

        def _answer(self, path: str, params: dict, auth: str):
            mode = owner.mode
            if mode == "silent":
                owner.stop_event.wait(SILENT_SECONDS)
                return
            if mode == "drip-headers":
                for c in b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Slow: " + b"a" * DRIP_BYTES:
                    if owner.stop_event.wait(DRIP_EVERY):
                        return
                    self.wfile.write(bytes([c]))
                    self.wfile.flush()
                return
            if mode == "drip":
                self._head(200, "application/json", DRIP_BYTES)
                for _ in range(DRIP_BYTES):
                    if owner.stop_event.wait(DRIP_EVERY):
                        return
                    self.wfile.write(b" ")
                    self.wfile.flush()
                return
            if mode == "deep":
                return self._send(200, "application/json", b"[" * 200_000 + b"]" * 200_000)
            if mode in ("huge-body", "huge-stream"):  # declared (refused unread), or delimited by the close only
                self._head(200, "application/json", HUGE_BODY + 2 if mode == "huge-body" else None)
                self.wfile.write(b'"')
                for _ in range(HUGE_BODY // 65536):
                    self.wfile.write(b"x" * 65536)
                self.wfile.write(b'"')
                return
            if mode == "html":
                return self._send(200, "text/html", b"<html><body><form>Log in with OpenShift</form></body></html>")
            if path.startswith("/api/v1/"):
                status, body = prometheus_answer(mode, path, params, auth)
            else:
                status, body = grafana_answer(mode, auth)
            self._send(status, "application/json", body)

        def _head(self, status: int, kind: str, length: int | None):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            if length is not None:
                self.send_header("Content-Length", str(length))
            self.end_headers()

        def _send(self, status: int, kind: str, body: bytes):
            self._head(status, kind, len(body))
            self.wfile.write(body)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve  # noqa: N815

        def log_message(self, *args):
            pass

    return Handler

