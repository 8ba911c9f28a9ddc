"""Fixtures of the end-to-end tests: a real Prometheus per test, stopped by PID even when the test fails.

A test runs on the Prometheus toolset of its ``toolset`` fixture: "2" (PATH's), unless it parametrises it
over every pinned version with ``@pytest.mark.parametrize("toolset", toolsets.params())``. A missing toolset
skips the test with the reason, or fails it in CI (``e2e.toolsets.require``).
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml

from e2e import pipeline, toolsets
from e2e.harness import Prometheus, ToolMissing, tools

TIMINGS: dict[str, dict] = {}


def require_prometheus(toolset: str = toolsets.DEFAULT) -> None:
    toolsets.require(toolset)


@pytest.fixture
def toolset() -> str:
    """The Prometheus toolset a test runs on (``e2e.toolsets``); tests parametrise it to run on every version."""
    return toolsets.DEFAULT


@pytest.fixture
def prometheus_factory(tmp_path, request, toolset):
    """``make(name, **kwargs)`` -> a started :class:`Prometheus` of the test's toolset (or of ``toolset=``, for a
    test that runs every version side by side, e.g. one waiting on the wall clock); every one is stopped at
    teardown."""
    require_prometheus(toolset)
    started: list[tuple[Prometheus, str]] = []

    def make(name: str = "prom", start: bool = True, **kwargs) -> Prometheus:
        kwargs.setdefault("toolset", toolset)
        require_prometheus(kwargs["toolset"])
        prom = Prometheus(tmp_path / name, **kwargs)
        started.append((prom, kwargs["toolset"]))
        return prom.start() if start else prom

    def stop_all():
        for prom, _ in started:
            prom.stop()
        # every server ran the toolset it was made for (a server built without ``toolset=`` would run PATH's)
        wrong = [(p.prometheus, t) for p, t in started if p.prometheus != tools(t)[0]]
        assert not wrong, wrong

    request.addfinalizer(stop_all)
    make.track = lambda prom: started.append((prom, toolset))  # servers built elsewhere (e2e.pipeline) are stopped too
    return make


@pytest.fixture
def prometheus(prometheus_factory) -> Prometheus:
    return prometheus_factory()


@pytest.fixture(scope="module")
def pushed_hub(tmp_path_factory):
    """``start(name, openmetrics, groups, begin, end, eval_interval=None, rule_files=())`` -> a started
    Prometheus (the default toolset) holding ``openmetrics`` (the series clusters pushed, OpenMetrics text) and
    the recording rule ``groups`` backfilled over [begin, end] every ``eval_interval`` (default: each group's) by
    query (:meth:`~gpudash.ops.demo.prometheus.Prometheus.backfill_rules`),
    with ``rule_files`` loaded live. Every one is stopped at module teardown; a missing Prometheus skips."""
    started: list[Prometheus] = []

    def start(name: str, openmetrics: str, groups: list[dict], begin: float, end: float,
              eval_interval: int | None = None, rule_files=()) -> Prometheus:
        try:
            tools()
        except ToolMissing as err:
            pytest.skip(str(err))
        work = tmp_path_factory.mktemp(name)
        om, rules = work / "pushed.om.txt", work / "hub.rules.yaml"
        om.write_text(openmetrics)
        rules.write_text(yaml.safe_dump({"groups": groups}, sort_keys=False, width=1 << 20))
        prom = Prometheus(work / "prom", rule_files=list(rule_files))
        started.append(prom)
        prom.start()
        prom.backfill_openmetrics([om])
        # by query: the samples promtool's rules backfill writes (e2e/test_harness.py), without its block per
        # rule and 2 h window
        prom.backfill_rules([rules], begin, end, eval_interval=eval_interval, method="query")
        return prom

    yield start
    for prom in started:
        prom.stop()


@pytest.fixture(scope="session")
def month(tmp_path_factory):
    """(model, mock, rendered) of the e2e month (e2e/data): its rules, alerts and MCO files rendered once per
    session, all the month tests read (a whole render of the e2e model is mostly its golden tests)."""
    model, mock = pipeline.load()
    return model, mock, pipeline.render(model, tmp_path_factory.mktemp("month-rendered"), rules_only=True)


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
