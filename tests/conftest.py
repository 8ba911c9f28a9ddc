"""Shared fixtures: the bundled example model and a rendered copy of it."""
from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_RENDERED = ROOT / "examples" / "rendered"  # the bundled example, rendered and committed (drift-tested)
FIXTURES = Path(__file__).resolve().parent / "fixtures"  # upstream files the tests check against
sys.path.insert(0, str(ROOT))  # e2e.toolsets (which Prometheus versions the tests run on) under any runner
# The CLI renders of a test run share one golden cache (gpudash/render/golden/orchestrate/cache.py), not the user's.
os.environ.setdefault("GPUDASH_CACHE", os.path.join(tempfile.gettempdir(), f"gpudash-test-cache-{os.getuid()}"))


def gpudash(*args: str, cwd=None, env=None) -> subprocess.CompletedProcess:
    """Run the CLI as users do (``python -m gpudash``) and capture its output."""
    return subprocess.run([sys.executable, "-m", "gpudash", *args], cwd=cwd or ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="session")
def example_model():
    from gpudash.model import load_bundled_example

    return load_bundled_example()


@pytest.fixture()
def example_data() -> dict:
    """The bundled example model as plain data (a fresh copy per test)."""
    from gpudash.model.load import bundled_example_path

    return yaml.safe_load(bundled_example_path().read_text())


@pytest.fixture(scope="session")
def rendered(tmp_path_factory, example_model) -> Path:
    """The bundled example rendered once for the session (read-only for tests)."""
    from gpudash.render import writer
    from gpudash.render.targets import artifacts

    out = tmp_path_factory.mktemp("rendered")
    writer.apply(writer.plan(out, artifacts.generate(example_model)))
    return out


def generate_without_golden(model) -> dict[str, object]:
    """``artifacts.generate(model)`` without the golden test emitter (most of a render's time), for tests that
    read no golden test file; tests/integration/test_writer.py checks every other file is the full render's."""
    from unittest import mock

    from gpudash.base.deferred import resolved
    from gpudash.render import golden
    from gpudash.render.targets import artifacts

    with mock.patch.object(golden, "artifacts", lambda model: {}):
        return resolved(artifacts.generate(model))


def render_with_scenarios(model, out: Path, scenarios) -> Path:
    """``model`` rendered into ``out``/render with the golden tests of the bundled ``scenarios`` (names) only: the
    files a test runs, without emitting every scenario. Returns the render folder."""
    from gpudash.render import writer
    from gpudash.render.golden import emit

    folder = scenario_folder(out / "render")
    folder.mkdir(parents=True)
    for name in scenarios:
        (folder / f"{name}.yaml").write_text((emit.SCENARIO_DIR / f"{name}.yaml").read_text())
    writer.apply(writer.plan(out / "render", {**generate_without_golden(model), **emit.emit_tests(model, folder)}))
    return out / "render"


def scenario_folder(render: Path) -> Path:
    """The catalogue folder :func:`render_with_scenarios` rendered ``render`` from (beside it)."""
    return render.parent / "scenarios"


def golden_kind(test: str, default: str) -> tuple[str, str]:
    """(scenario, kind) of a golden test as the mutation tables name it: ``<scenario>-settled`` or
    ``<scenario>-hub``, else a scenario's checks of kind ``default``."""
    name, _, kind = test.rpartition("-")
    return (name, kind) if kind in ("settled", "hub") else (test, default)


def golden_share(model, scenario: str, kind: str, first: bool = False) -> tuple[str, str]:
    """(a test file path, its text): bundled ``scenario``'s checks of ``kind`` alone where scenarios share a file
    (gpudash.render.golden.shared): its part of the text a render joins, as a file of its own (``first``: as the
    catalogue's first scenario's, unlabelled)."""
    from gpudash.base import layout
    from gpudash.base.yamlfmt import serialise
    from gpudash.render.golden import emit, shared

    scenarios = emit.catalogue(model)[0]
    s = next(s for s in scenarios if s.name == scenario)
    path = emit.file_of(scenario, kind, model)
    place = dataclasses.replace(emit.places(scenarios, model)[scenario], first=first)
    data = emit.scenario_tests(s, model, place)[path]
    return layout.golden_test(f"{scenario}-share"), serialise(path, shared.merged([data]) if isinstance(
        data, shared.Share) else data)


def load_yaml(source):
    """YAML of a file (a Path) or a string, with libyaml's loader when PyYAML has it (rendered files are large)."""
    text = source.read_text() if isinstance(source, Path) else source
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def require(tool: str):
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed (scripts/install-system-deps.sh installs it)")
