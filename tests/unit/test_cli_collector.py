"""A render runs without Python's cyclic garbage collector (gpudash/base/collector.py ``paused``, around
``cli.cmd_render``) and gives the caller's setting back, whatever the render ends with: a test or a library calling
``cli.main`` keeps its own."""
from __future__ import annotations

import gc

import pytest

from gpudash import cli
from gpudash.base.errors import GpudashError


@pytest.fixture
def collector_on():
    gc.enable()
    yield
    gc.enable()


def _seeing(seen: list[bool], error: Exception | None = None):
    def render(args) -> int:
        seen.append(gc.isenabled())
        if error is not None:
            raise error
        return 0
    return render


def test_a_render_runs_without_the_collector_and_turns_it_back_on(monkeypatch, collector_on):
    seen: list[bool] = []
    monkeypatch.setattr(cli, "_cmd_render", _seeing(seen))
    assert cli.cmd_render(None) == 0
    assert seen == [False] and gc.isenabled()


@pytest.mark.parametrize("error", [GpudashError("bad model"), KeyboardInterrupt(), RuntimeError("bug")])
def test_a_render_that_fails_turns_it_back_on_too(monkeypatch, collector_on, error):
    seen: list[bool] = []
    monkeypatch.setattr(cli, "_cmd_render", _seeing(seen, error))
    with pytest.raises(type(error)):
        cli.cmd_render(None)
    assert seen == [False] and gc.isenabled()


def test_a_caller_that_had_it_off_keeps_it_off(monkeypatch, collector_on):
    seen: list[bool] = []
    monkeypatch.setattr(cli, "_cmd_render", _seeing(seen))
    gc.disable()
    cli.cmd_render(None)
    assert seen == [False] and not gc.isenabled()
