"""The unit suite: pure Python, no process started, milliseconds per test (docs/testing.md, "Test suites").

Every unit test runs with process creation refused (``subprocess`` and ``multiprocessing``), so a test that
starts promtool, amtool, chromium or ``python -m gpudash``, or forks, fails here and belongs in tests/integration/.
``rendered`` is the bundled example rendered once per session without its golden promtool tests (the golden
emitter is most of a render; the golden files are run and checked by tests/integration/).
"""
from __future__ import annotations

import multiprocessing.process
import subprocess
from pathlib import Path

import pytest

from tests.conftest import generate_without_golden


@pytest.fixture(autouse=True)
def no_processes(monkeypatch):
    def refuse(self, args, *rest, **kwargs):
        raise AssertionError(f"a unit test started a process ({args!r}): move the test to tests/integration/")

    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", lambda self: refuse(self, self.name))


@pytest.fixture(scope="session")
def example_files(example_model) -> dict[str, object]:
    """{output path: data} of the bundled example, golden tests left out, generated once (read-only for tests)."""
    return generate_without_golden(example_model)


@pytest.fixture(scope="session")
def rendered(tmp_path_factory, example_files) -> Path:
    """The bundled example rendered once for the session, golden tests left out (read-only for tests)."""
    from gpudash.render import writer

    out = tmp_path_factory.mktemp("rendered-unit")
    writer.apply(writer.plan(out, example_files))
    return out
