"""A render's golden tests emitted by forked workers (gpudash/render/golden/orchestrate/workers.py, schedule.py):
every result comes back, merged in the catalogue's order into the bytes one process emits; a failure in a worker is
one line and an exit code, a worker that dies is one too, and no process is left behind. That the CLI's render
writes what the in-process one writes is tests/integration/test_golden_cache.py and test_writer.py."""
from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import time

import pytest

from gpudash import cli
from gpudash.base.errors import GenerationError, GpudashError, InputError
from gpudash.render.golden import emit, shared
from gpudash.render.golden.orchestrate import cache, schedule
from gpudash.render.golden.orchestrate.workers import Workers, available

pytestmark = pytest.mark.skipif(not available(), reason="fork: Linux only")


def _boom(kind: str):
    if kind == "generation":
        raise GenerationError("the tenant's dashboard is not confined")
    if kind == "input":
        raise InputError("gpudash.yaml", "tenants[0].name", "is empty", 3)
    if kind == "killed":
        os.kill(os.getpid(), signal.SIGKILL)
    raise ValueError("a bug")


def _all(workers: Workers, count: int) -> dict:
    try:
        return dict(workers.next() for _ in range(count))
    finally:
        workers.close()


def test_every_result_comes_back_from_every_worker():
    tasks = list(range(7))
    assert _all(Workers(lambda i: (i * i, os.getpid()), tasks, 3), len(tasks)).keys() == set(tasks)
    pids = {pid for _, pid in _all(Workers(lambda i: (time.sleep(0.2), os.getpid()), tasks, 3), 7).values()}
    assert len(pids) == 3 and os.getpid() not in pids and not multiprocessing.active_children()


@pytest.mark.parametrize(("kind", "line", "code"), [
    ("generation", "the tenant's dashboard is not confined", 2),
    ("input", "gpudash.yaml:3: tenants[0].name: is empty", 2),  # an error whose constructor pickle cannot replay
    ("bug", "golden test worker failed:\nTraceback", 1),
    ("killed", f"a golden test worker ended with code -{signal.SIGKILL}", 2)])  # out of memory, say
def test_a_failure_is_raised_in_the_parent_with_its_line_and_exit_code(kind, line, code):
    with pytest.raises(GpudashError) as err:
        _all(Workers(lambda i: _boom(kind) if i == 2 else i, range(4), 2), 4)
    assert str(err.value).startswith(line) and err.value.exit_code == code
    assert kind != "bug" or "ValueError: a bug" in str(err.value)
    assert not multiprocessing.active_children()


def test_a_worker_runs_without_the_cyclic_collector_and_the_parent_keeps_it():
    """The collector's passes were a seventh of a golden emission's CPU and found nothing to collect."""
    assert _all(Workers(lambda i: gc.isenabled(), [0, 1], 2), 2) == {0: False, 1: False} and gc.isenabled()


def test_close_ends_a_worker_still_working():
    workers = Workers(time.sleep, [60], 2)
    t0 = time.monotonic()
    workers.close()
    assert time.monotonic() - t0 < 5 and not multiprocessing.active_children()


@pytest.fixture()
def few(example_model, monkeypatch):
    """The catalogue cut to its five shortest scenarios (seconds to emit), and no golden cache."""
    scenarios, skipped = emit.catalogue(example_model)
    shortest = sorted(scenarios, key=lambda s: s.duration)[:5]
    monkeypatch.setattr(emit, "catalogue", lambda model, directory=None: (shortest, skipped))
    monkeypatch.setenv(cache.ENV, cache.OFF)


def test_workers_emit_the_bytes_one_process_emits_in_the_catalogues_order(few, example_model, monkeypatch):
    forked = schedule.Emission(example_model, 3).result()
    monkeypatch.setattr(schedule, "Workers", lambda *a: pytest.fail("-j 1 forks nothing"))
    alone = schedule.Emission(example_model, 1).result()
    assert list(forked.items()) == list(alone.items()) and len(alone) > 4 and shared.SETTLED in alone  # merged
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("jobs", ["1", "3"])
def test_a_golden_failure_fails_the_render_and_writes_nothing(few, tmp_path, monkeypatch, capsys, jobs):
    """The workers inherit the patched emitter; its error reaches the writer as the golden files are written, the
    stage is removed, and no process is left behind."""
    monkeypatch.setattr(emit, "scenario_tests", lambda *args: _boom("generation"))
    out = tmp_path / "out"
    assert cli.main(["render", "--example", "-o", str(out), "-j", jobs]) == 2
    assert capsys.readouterr().err == "gpudash: the tenant's dashboard is not confined\n"
    assert not out.exists() and not multiprocessing.active_children()


def test_a_failed_emission_fails_again_and_never_emits_in_the_render_process(few, example_model, monkeypatch):
    """The writer may ask for another golden file after one failed: the same failure, not a serial re-emission."""
    monkeypatch.setattr(emit, "scenario_tests", lambda *args: _boom("generation"))  # what the workers inherit
    emission = schedule.Emission(example_model, 2)
    monkeypatch.setattr(emit, "scenario_tests", lambda *args: pytest.fail("emitted in the render process"))
    for _ in range(2):
        with pytest.raises(GpudashError):
            emission.result()
    assert not multiprocessing.active_children()


def test_the_workers_emit_on_while_the_render_does_other_work(few, example_model, monkeypatch, tmp_path):
    """Each scenario's text is more than a pipe holds: read as it is sent (a thread), every scenario is emitted
    while the render process is busy elsewhere, not one per worker until it reaches its golden files."""
    def big(model, scenarios, places, i):
        (tmp_path / str(i)).touch()  # emitted
        return {f"{i}.yaml": "x" * 2**20}
    monkeypatch.setattr(schedule, "_scenario_texts", big)  # what the workers inherit
    emission = schedule.Emission(example_model, 2)
    deadline = time.monotonic() + 20
    while len(list(tmp_path.iterdir())) < len(emission.scenarios) and time.monotonic() < deadline:
        time.sleep(0.05)  # the render process builds and writes the other files
    emitted = len(list(tmp_path.iterdir()))
    texts = emission.result()
    assert emitted == len(emission.scenarios) == 5 and len(texts) == 6  # and the index
    assert not multiprocessing.active_children()
