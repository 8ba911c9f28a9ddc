"""A render reads its golden tests back from the golden cache (gpudash/render/golden/orchestrate/cache.py)
byte for byte: the CLI's render with an empty cache (the tests emitted by its forked workers, then kept) and with
a filled one (read back, nothing emitted) write what the in-process render of the session writes, and a render
with the entry changed writes the change (so the second render did read it)."""
from __future__ import annotations

import gzip
import json
import os

from gpudash.base import layout
from gpudash.render import golden
from gpudash.render.golden.orchestrate import cache as golden_cache
from tests.conftest import gpudash


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_render_from_the_cache_writes_the_same_bytes(rendered, example_model, tmp_path):
    env = {**os.environ, golden_cache.ENV: str(tmp_path / "cache")}
    want = _files(rendered)
    first = gpudash("render", "--example", "-o", str(tmp_path / "first"), env=env)
    assert first.returncode == 0, first.stderr
    assert _files(tmp_path / "first") == want
    (entry,) = (tmp_path / "cache").iterdir()
    assert entry.name == golden_cache.entry_name(example_model)

    texts = json.loads(gzip.decompress(entry.read_bytes()))
    assert set(texts) == set(golden.paths(example_model)) and set(texts) <= set(want)
    texts[layout.GOLDEN_INDEX] += "# read back from the cache\n"
    entry.write_bytes(gzip.compress(json.dumps(texts).encode()))
    second = gpudash("render", "--example", "-o", str(tmp_path / "second"), env=env)
    assert second.returncode == 0, second.stderr
    got = _files(tmp_path / "second")
    assert got.pop(layout.GOLDEN_INDEX).endswith(b"# read back from the cache\n")
    assert {p: b for p, b in want.items() if p not in (layout.GOLDEN_INDEX, layout.MANIFEST)} == {
        p: b for p, b in got.items() if p != layout.MANIFEST}


class _Unread:
    """An ``outputs`` that fails wherever it is used: the golden tests must not depend on it (the cache key leaves
    it out)."""

    def __getattr__(self, name):
        raise AssertionError(f"the golden tests read outputs.{name}")


def test_the_golden_tests_read_neither_outputs_nor_the_models_file(rendered, example_model):
    import dataclasses

    from gpudash.render import writer

    blind = dataclasses.replace(example_model, outputs=_Unread(), source="elsewhere/gpudash.yaml")
    texts = {path: writer.serialise(path, data) for path, data in golden.artifacts(blind).items()}
    assert texts == {path: (rendered / path).read_text(encoding="utf-8") for path in texts}
    assert golden_cache.key(dataclasses.replace(example_model, outputs=dataclasses.replace(
        example_model.outputs, targets=("files",)), source="x.yaml")) == golden_cache.key(example_model)


def test_a_hostile_entry_is_passed_over_and_the_render_writes_only_its_own_files(rendered, example_model, tmp_path):
    """An entry anyone with write access to the cache planted, naming a path out of the output and the hub's rule
    file: the render warns in one line, emits the tests afresh and writes what a clean render writes."""
    cache = tmp_path / "cache"
    cache.mkdir()
    planted = {path: "tests: []\n" for path in golden.paths(example_model)}
    planted.update({"../escaped.test.yaml": "junk\n", layout.HUB_RULES: "groups: []\n"})
    (cache / golden_cache.entry_name(example_model)).write_bytes(gzip.compress(json.dumps(planted).encode()))
    out = tmp_path / "work" / "out"
    run = gpudash("render", "--example", "-o", str(out), env={**os.environ, golden_cache.ENV: str(cache)})
    assert run.returncode == 0, run.stderr
    assert [line for line in run.stderr.splitlines() if "golden cache:" in line and "passed over" in line]
    assert [p.name for p in (tmp_path / "work").iterdir()] == ["out"] and _files(out) == _files(rendered)
