"""The writer end to end: ``python -m gpudash render`` under another hash seed writes what the in-process render
wrote, byte for byte; the unit suite's render (golden tests left out) is that render's other files. Every other
writer test gives the writer plain data: tests/unit/test_writer.py."""
from __future__ import annotations

import json
import os

from gpudash import layout
from tests.conftest import generate_without_golden, gpudash
from tests.unit.test_writer import tree


def test_render_end_to_end(tmp_path, rendered):
    """The CLI writes what the in-process render (session fixture) wrote, byte for byte under another hash
    seed, with a manifest of every file; ``--check`` is clean, then finds a hand edit and writes nothing."""
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONHASHSEED": "4242" if os.environ.get("PYTHONHASHSEED") != "4242" else "1"}
    assert gpudash("render", "--example", "-o", str(out), env=env).returncode == 0
    assert tree(out) == tree(rendered)
    manifest = json.loads((out / layout.MANIFEST).read_text())
    assert set(manifest["files"]) == set(tree(out)) - {layout.MANIFEST}
    target = out / layout.HUB_RULES
    target.write_text(target.read_text().replace("vector(3.2)", "vector(9.9)"))
    before = tree(out)
    drift = gpudash("render", "--example", "--check", "-o", str(out))
    assert drift.returncode == 1
    assert "-        expr: vector(9.9)" in drift.stdout and "+        expr: vector(3.2)" in drift.stdout
    assert layout.HUB_RULES in drift.stderr
    assert tree(out) == before  # --check never writes


def test_the_unit_suites_render_is_the_full_render_without_golden_tests(rendered, example_model):
    """tests/unit/ reads ``generate_without_golden``: every file it writes is the full render's, and it leaves out
    only the golden promtool tests and their index."""
    from gpudash import writer

    files = generate_without_golden(example_model)
    full = tree(rendered)
    golden = {p for p in full if p == layout.GOLDEN_INDEX or p.startswith(f"{layout.TESTS}/golden-")}
    assert golden and set(files) == set(full) - golden - {layout.MANIFEST}
    assert all(writer.serialise(p, d).encode() == full[p] for p, d in files.items())
