"""A render's second process (gpudash.background): the golden tests are emitted in a forked child. Its result,
its failures and its end; that the CLI's render (forked) writes what the in-process one writes is
tests/integration/test_writer.py::test_render_end_to_end."""
from __future__ import annotations

import multiprocessing
import time

import pytest

from gpudash import background, cli, golden_cache
from gpudash.base.errors import GenerationError, GpudashError, InputError
from gpudash.render import golden

pytestmark = pytest.mark.skipif(not background.available(), reason="fork: Linux only")


def _boom(kind: str):
    if kind == "generation":
        raise GenerationError("the tenant's dashboard is not confined")
    if kind == "input":
        raise InputError("gpudash.yaml", "tenants[0].name", "is empty", 3)
    raise ValueError("a bug")


def test_the_result_comes_back():
    job = background.Forked(sorted, [3, 1, 2])
    assert job.result() == [1, 2, 3] and job.result() == [1, 2, 3]
    job.close()


@pytest.mark.parametrize(("kind", "line", "code"), [
    ("generation", "the tenant's dashboard is not confined", 2),
    ("input", "gpudash.yaml:3: tenants[0].name: is empty", 2),  # an error whose constructor pickle cannot replay
    ("bug", "golden test emitter failed:\nTraceback", 1)])
def test_a_failure_is_raised_in_the_parent_with_its_line_and_exit_code(kind, line, code):
    job = background.Forked(_boom, kind)
    with pytest.raises(GpudashError) as err:
        job.result()
    job.close()
    assert str(err.value).startswith(line) and err.value.exit_code == code
    assert kind != "bug" or "ValueError: a bug" in str(err.value)


def test_close_ends_a_child_still_working():
    job = background.Forked(time.sleep, 60)
    t0 = time.monotonic()
    job.close()
    assert time.monotonic() - t0 < 5 and not multiprocessing.active_children()


def test_a_golden_failure_fails_the_render_and_writes_nothing(tmp_path, monkeypatch, capsys):
    """The child inherits the patched emitter; its error reaches the writer as the golden files are written, the
    stage is removed, and no process is left behind."""
    monkeypatch.setattr(golden, "artifacts", lambda model, progress=None: _boom("generation"))
    monkeypatch.setenv(golden_cache.ENV, golden_cache.OFF)  # emitted, not read back from an earlier render
    out = tmp_path / "out"
    assert cli.main(["render", "--example", "-o", str(out)]) == 2
    assert capsys.readouterr().err == "gpudash: the tenant's dashboard is not confined\n"
    assert not out.exists() and not multiprocessing.active_children()
