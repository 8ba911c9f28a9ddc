"""Live ``/metrics`` of a mock cluster, like kube-state-metrics, the DCGM exporter and the AMD exporter.

Paths (``?cluster=<name>`` picks a cluster of the model; default the first one of the mock):

* ``/ksm/metrics``  -- kube-state-metrics: requests, phases, owners, node labels, allocatable/capacity;
* ``/dcgm/metrics`` -- DCGM exporter of every node pool whose ``exporter`` is ``dcgm`` (pod attribution labels
  ``namespace``/``pod``/``container`` as the exporter sets them; MIG series with ``GPU_I_PROFILE``/``GPU_I_ID``);
* ``/amd/metrics``  -- AMD device-metrics-exporter of the ``amd`` pools;
* ``/metrics``      -- all three (for people; Prometheus should scrape the three paths as three jobs);
* ``/-/healthy``, and ``POST /-/reload`` to re-read the mock file at once.

Scenario minute 0 is the moment the server started; a minute lasts ``seconds_per_minute`` wall-clock seconds.
The mock file is re-read when its modification time changes (checked at most twice a second), keeping minute
0, so a workload can be edited while Prometheus scrapes. A pod that is deleted disappears from the exposition
(Prometheus then writes staleness markers). While a ``ksm_restart`` / ``exporter_gap`` / ``missed_scrapes``
fault covers the current minute the affected path answers 503: on a live server every failed scrape marks the
target's series stale.
"""
from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import cast
from urllib.parse import parse_qs, urlparse

from gpudash.model.types import Model
from gpudash.ops.mock import config
from gpudash.ops.mock.openmetrics import number, series_text
from gpudash.ops.mock.timeline import Timeline, jobs, paths, scrape_outcomes


def exposition(series: dict) -> str:
    """Prometheus text format (no timestamps), families sorted, ``# TYPE`` per family."""
    families: dict[str, list[str]] = {}
    for labels, value in series.items():
        name = dict(labels)["__name__"]
        families.setdefault(name, []).append(f"{series_text(labels)} {number(value)}\n")
    out = []
    for name in sorted(families):
        out.append(f"# TYPE {name} gauge\n")
        out.extend(sorted(families[name]))
    return "".join(out)


class MockCluster:
    """The mock's state over wall-clock time, reloaded when its file changes."""

    def __init__(self, path, model: Model, t0: float | None = None):
        self.path, self.model = Path(path), model
        self.t0 = time.time() if t0 is None else t0
        self.lock = threading.Lock()
        self.reloads = 0
        self._checked = 0.0
        self._load()

    def _load(self) -> None:
        self.mtime = self.path.stat().st_mtime
        self.mock = config.load(self.path, self.model)
        self.timelines = {c: Timeline(self.mock, self.model, c) for c in self.mock.scenario.clusters}
        self.outcomes = {(c, job): scrape_outcomes(self.mock.scenario, job)
                         for c in self.mock.scenario.clusters for job in jobs()}

    def maybe_reload(self, force: bool = False) -> bool:
        now = time.monotonic()
        if not force and now - self._checked < 0.5:
            return False
        self._checked = now
        try:
            changed = force or self.path.stat().st_mtime != self.mtime
        except OSError:
            return False
        if changed:
            with self.lock:
                self._load()
                self.reloads += 1
        return changed

    def minute(self, now: float | None = None) -> float:
        return ((time.time() if now is None else now) - self.t0) / self.mock.seconds_per_minute

    def render(self, job: str | None, cluster: str | None = None, now: float | None = None) -> tuple[int, str]:
        """(HTTP status, body) of a scrape of ``job`` (None: all) at ``now``."""
        self.maybe_reload()
        with self.lock:
            cluster = cluster or self.mock.scenario.clusters[0]
            if cluster not in self.timelines:
                return 404, f"unknown cluster {cluster!r}; clusters: {', '.join(self.timelines)}\n"
            minute = self.minute(now)
            m = int(minute)
            wanted = jobs() if job is None else (job,)
            for j in wanted:
                outcomes = self.outcomes[(cluster, j)]
                if 0 <= m < len(outcomes) and outcomes[m] != "ok":
                    return 503, f"{j} target is down at scenario minute {m} (fault)\n"
            now = min(max(minute, 0), self.mock.scenario.duration)
            exposed, counters = self.timelines[cluster].exposed(now), self.timelines[cluster].counters(int(now))
            series = {}
            for j in wanted:
                series.update(exposed[j])
                series.update(counters[j])
            return 200, exposition(series)


class _Handler(BaseHTTPRequestHandler):
    cluster: MockCluster

    def log_message(self, *args):  # quiet
        pass

    def _send(self, status: int, body: str, ctype: str = "text/plain; version=0.0.4") -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urlparse(self.path)
        named = parse_qs(url.query).get("cluster")
        cluster = named[0] if named else None
        if url.path == "/-/healthy":
            return self._send(200, "ok\n")
        if url.path == "/metrics":
            return self._send(*self.cluster.render(None, cluster))
        parts = url.path.strip("/").split("/")
        if len(parts) == 2 and parts[0] in jobs() and parts[1] == "metrics":
            return self._send(*self.cluster.render(parts[0], cluster))
        self._send(404, f"paths: {paths()} /metrics /-/healthy\n")

    def do_POST(self):
        if urlparse(self.path).path == "/-/reload":
            self.cluster.maybe_reload(force=True)
            return self._send(200, "reloaded\n")
        self._send(404, "POST /-/reload\n")


class MockServer:
    """``MockServer(path, model, port=0).start()`` serves on 127.0.0.1 in a thread; ``.stop()``."""

    def __init__(self, path, model: Model, host: str = "127.0.0.1", port: int = 0, t0: float | None = None):
        self.cluster = MockCluster(path, model, t0)
        handler = type("Handler", (_Handler,), {"cluster": self.cluster})
        self.httpd = ThreadingHTTPServer((host, port), handler)
        self.httpd.daemon_threads = True
        self.thread: threading.Thread | None = None

    @property
    def address(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"{cast(str, host)}:{port}"  # an AF_INET server: its host is text

    def start(self) -> MockServer:
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="gpudash-mock", daemon=True)
        self.thread.start()
        return self

    def serve_forever(self) -> None:
        self.httpd.serve_forever()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        if self.thread:
            self.thread.join(timeout=5)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
