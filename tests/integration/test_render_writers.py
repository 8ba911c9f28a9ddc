"""A render's files planned by forked writers (``gpudash.render.writer.plan``'s ``spread``, the golden workers' fork
of gpudash/render/golden/orchestrate/workers.py): the same plan and the same bytes as one process, the ``local``
files planned in the parent, a failure in a writer one line and its exit code with the output untouched and no
process left behind, and ``--jobs 1`` forking no writer."""
from __future__ import annotations

import errno
import multiprocessing
import os

import pytest

from gpudash import cli
from gpudash.base.deferred import Deferred
from gpudash.base.errors import GenerationError, GpudashError
from gpudash.base.layout import MANIFEST
from gpudash.render import writer
from gpudash.render.golden import orchestrate
from gpudash.render.golden.orchestrate import workers
from gpudash.render.targets import artifacts

pytestmark = pytest.mark.skipif(not workers.available(), reason="fork: Linux only")


def _pid() -> str:
    return str(os.getpid())


def _refused() -> str:
    raise GenerationError("GrafanaDashboard t-9 needs 300000 bytes of annotations applied client-side")


def _files(n: int = 3 * writer.CHUNK) -> dict[str, object]:
    return {**{f"a/{i:04d}.yaml": {"i": i} for i in range(n)}, "b/deferred.json": Deferred(dict, ((("x", 1),),)),
            "tests/golden.yaml": "golden\n"}


def _tree(root) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_forked_writers_plan_and_write_what_one_process_does(tmp_path):
    files = _files()
    alone = writer.plan(tmp_path / "alone", files, stage=True)
    forked = writer.plan(tmp_path / "forked", files, stage=True, spread=workers.spread(3), local={"tests/golden.yaml"})
    assert forked.digests == alone.digests and list(forked.digests) == sorted(files)
    assert {rel: p.read_bytes() for rel, p in forked.changes.items()} == {  # type: ignore[union-attr]
        rel: p.read_bytes() for rel, p in alone.changes.items()}  # type: ignore[union-attr]
    writer.apply(alone)
    writer.apply(forked)
    assert _tree(tmp_path / "forked") == _tree(tmp_path / "alone")
    again = writer.plan(tmp_path / "forked", files, stage=True, spread=workers.spread(2))  # nothing changed
    assert again.changed() == [] and again.digests == alone.digests
    again.discard()
    assert not multiprocessing.active_children()


def test_the_local_files_are_planned_in_this_process_the_others_by_the_writers(tmp_path):
    files = {**{f"a/{i:04d}.txt": Deferred(_pid) for i in range(2 * writer.CHUNK)}, "tests/here.txt": Deferred(_pid)}
    writer.apply(writer.plan(tmp_path, files, stage=True, spread=workers.spread(2), local={"tests/here.txt"}))
    assert (tmp_path / "tests/here.txt").read_text() == _pid()
    assert _pid() not in {(tmp_path / f"a/{i:04d}.txt").read_text() for i in range(2 * writer.CHUNK)}


def test_a_writers_failure_is_one_line_and_leaves_the_output_as_it_was(tmp_path):
    writer.apply(writer.plan(tmp_path, {"a/0000.yaml": {"i": 0}}))
    before = _tree(tmp_path)
    files = {**_files(), "a/9999.yaml": Deferred(_refused)}
    with pytest.raises(GpudashError) as err:
        writer.plan(tmp_path, files, stage=True, spread=workers.spread(2))
    assert str(err.value) == ("GrafanaDashboard t-9 needs 300000 bytes of annotations applied client-side"
                              ) and err.value.exit_code == GenerationError.exit_code
    assert _tree(tmp_path) == before and sorted(os.listdir(tmp_path)) == sorted(["a", MANIFEST])  # no stage left
    assert not multiprocessing.active_children()


def _disk_full():
    yield "first piece\n"
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_writer_that_cannot_write_says_so_in_one_line(tmp_path):
    files = {**_files(), "a/9999.txt": Deferred(_disk_full)}  # streamed into the stage: the disk fills up
    with pytest.raises(GpudashError) as err:
        writer.plan(tmp_path, files, stage=True, spread=workers.spread(2))
    assert str(err.value) == f"{tmp_path}: cannot write output: {os.strerror(errno.ENOSPC)}" and err.value.exit_code
    assert os.listdir(tmp_path) == [] and not multiprocessing.active_children()


def test_one_job_forks_no_writer(example_model, tmp_path, monkeypatch):
    assert orchestrate.spread(1) is None
    monkeypatch.setattr(workers, "Workers", lambda *a, **k: pytest.fail("-j 1 forks nothing"))
    files = artifacts.generate(example_model, tests={})
    plan = writer.plan(tmp_path, files, stage=True, spread=orchestrate.spread(1))
    assert len(plan.changes) == len(files)
    plan.discard()


def test_the_cli_renders_the_same_bytes_with_forked_writers_and_with_one_job(tmp_path):
    assert cli.main(["render", "--example", "-o", str(tmp_path / "j2"), "-j", "2"]) == 0
    assert cli.main(["render", "--example", "-o", str(tmp_path / "j1"), "-j", "1"]) == 0
    assert _tree(tmp_path / "j2") == _tree(tmp_path / "j1")
