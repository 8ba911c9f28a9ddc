"""The writer end to end: ``python -m gpudash render`` under another hash seed writes what the in-process render
wrote, byte for byte; the unit suite's render (golden tests left out) is that render's other files. Every other
writer test gives the writer plain data: tests/unit/test_writer.py."""
from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time

import pytest

from gpudash.base import layout
from gpudash.base.progress import LINE
from tests.conftest import ROOT, generate_without_golden, gpudash
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
    from gpudash.render import writer

    files = generate_without_golden(example_model)
    full = tree(rendered)
    golden = {p for p in full if p == layout.GOLDEN_INDEX or p.startswith(f"{layout.TESTS}/golden-")}
    assert golden and set(files) == set(full) - golden - {layout.MANIFEST}
    assert all(writer.serialise(p, d).encode() == full[p] for p, d in files.items())


# --- fail safe (issue 26): a subfolder on another filesystem, two renders at once ---------------------------------

def _changed_model(tmp_path):
    """The bundled example with one price changed: a render of it rewrites many files."""
    from gpudash.model.load import bundled_example_path

    model = tmp_path / "changed.yaml"
    model.write_text(bundled_example_path().read_text().replace("price_per_hour: 3.20", "price_per_hour: 3.30", 1))
    return model


@pytest.mark.parametrize("mount", ["mount -t tmpfs none {dir}",  # another filesystem
                                   "mount --bind {dir} {dir} && mount -o remount,bind,ro {dir}"])  # read-only
def test_a_subfolder_on_another_mount_fails_whole_and_the_previous_model_re_renders(tmp_path, mount):
    """Defect 2: with one subfolder a mount point (another filesystem, or a read-only bind mount of the same
    one), a render of a changed model exits 2 with one line and leaves the output exactly as it was; the previous
    model then still renders clean (no false "edited by hand"). The mount lives in a private mount namespace
    (``unshare``), so it is gone when the render's shell ends."""
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-rm", "true"]).returncode != 0:
        pytest.skip("unshare (util-linux) cannot make a private mount namespace here")
    out = tmp_path / "out"
    assert gpudash("render", "--example", "-o", str(out)).returncode == 0
    before = tree(out)
    folder = shlex.quote(str(out / layout.TESTS))  # the last folder written: the others change before it
    script = (f"{mount.format(dir=folder)} && cd {shlex.quote(str(ROOT))} && "
              f"{shlex.quote(sys.executable)} -m gpudash render -c {_changed_model(tmp_path)} -o {out}")
    run = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=300)
    assert run.returncode == 2, run.stderr
    errors = [line for line in run.stderr.splitlines() if not LINE.fullmatch(line)]  # a long render's progress
    assert len(errors) == 1 and "Traceback" not in run.stderr, run.stderr
    assert tree(out) == before and not [p for p in out.iterdir() if p.name.startswith(".gpudash-stage-")]
    again = gpudash("render", "--example", "-o", str(out))
    assert again.returncode == 0 and "wrote 0," in again.stdout, again.stderr


def test_a_second_concurrent_render_exits_2_at_once(tmp_path):
    """Defect 3: while one render writes a folder, a second one into it exits 2 at once with one line naming the
    folder and the first render's start, and writes nothing; the first finishes and its output checks clean."""
    out = tmp_path / "out"
    first = subprocess.Popen([sys.executable, "-m", "gpudash", "render", "--example", "-o", str(out)], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (out / layout.LOCK).exists():
        assert first.poll() is None and time.monotonic() < deadline, "the first render took no lock"
        time.sleep(0.05)
    os.kill(first.pid, signal.SIGSTOP)  # hold the first render mid-write: a cached render ends in about a second,
    try:  # sooner than a loaded machine starts the second Python
        started = time.monotonic()
        second = gpudash("render", "--example", "-o", str(out))
        assert time.monotonic() - started < 10 and first.poll() is None  # the first still runs: refused at once
    finally:
        os.kill(first.pid, signal.SIGCONT)
    assert second.returncode == 2 and second.stderr.count("\n") == 1, second.stderr
    assert second.stderr.startswith(f"gpudash: another render is writing {out} since "), second.stderr
    assert first.wait(timeout=300) == 0, first.stderr.read()
    assert not (out / layout.LOCK).exists()
    assert gpudash("render", "--example", "--check", "-o", str(out)).returncode == 0
