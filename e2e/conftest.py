"""Fixtures of the end-to-end tests: a real Prometheus per test, stopped by PID even when the test fails.

Every test here skips cleanly (with the reason) when ``prometheus``/``promtool`` are not installed
(``scripts/install-system-deps.sh`` installs them).
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from e2e.harness import Prometheus, ToolMissing, tools

TIMINGS: dict[str, dict] = {}


def require_prometheus() -> None:
    try:
        tools()
    except ToolMissing as why:
        pytest.skip(str(why))


@pytest.fixture
def prometheus_factory(tmp_path, request):
    """``make(name, **kwargs)`` -> a started :class:`Prometheus`; every one is stopped at teardown."""
    require_prometheus()
    started: list[Prometheus] = []

    def make(name: str = "prom", start: bool = True, **kwargs) -> Prometheus:
        prom = Prometheus(tmp_path / name, **kwargs)
        started.append(prom)
        return prom.start() if start else prom

    def stop_all():
        for prom in started:
            prom.stop()

    request.addfinalizer(stop_all)
    make.track = started.append  # for servers built elsewhere (e2e.pipeline), so they are stopped too
    return make


@pytest.fixture
def prometheus(prometheus_factory) -> Prometheus:
    return prometheus_factory()


@pytest.fixture(scope="session")
def e2e_cache(tmp_path_factory) -> Path:
    """A folder shared by all pytest-xdist workers of this run (history blocks are built once)."""
    root = tmp_path_factory.getbasetemp()
    shared = root.parent if root.name.startswith("popen-gw") else root
    path = shared / "gpudash-e2e-cache"
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture
def stopwatch(request):
    """Records named durations of a test; printed in the terminal summary (and used in benchmarks)."""
    marks: dict[str, float] = {}
    t0 = time.monotonic()

    def lap(name: str) -> None:
        marks[name] = round(time.monotonic() - t0 - sum(marks.values()), 2)

    yield lap
    TIMINGS[request.node.nodeid] = {**marks, "total": round(time.monotonic() - t0, 2)}


def pytest_terminal_summary(terminalreporter):
    if TIMINGS:
        terminalreporter.section("gpudash e2e timings (s)")
        for test, marks in TIMINGS.items():
            terminalreporter.write_line(f"{test}: {marks}")
