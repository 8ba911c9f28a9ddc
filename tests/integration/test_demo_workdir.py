"""``gpudash demo --work-dir``, tried as an attacker and an unlucky operator would (issue #47 item 5): a link, a
folder holding files gpudash did not write (a previous demo's Prometheus data among them), one another user can
write, one that cannot be created, odd characters. Each is one line and a non-zero exit before anything is
written; no case may reach the server, so the commands run with a PATH without Prometheus (a regression fails
fast on the untouched files instead of running a demo)."""
from __future__ import annotations

import os
import stat

import pytest

from gpudash.base.errors import GpudashError
from gpudash.model.load import DEFAULT_MODEL
from gpudash.ops.demo import workdir
from gpudash.ops.demo.cli import STATEMENTS
from tests.conftest import gpudash


def demo(work, tmp_path):
    """``gpudash demo --example --no-wait --work-dir work`` with no Prometheus on PATH."""
    empty = tmp_path / "no-tools"
    empty.mkdir(exist_ok=True)
    return gpudash("demo", "--example", "--no-wait", "--work-dir", str(work), cwd=tmp_path,
                   env={**os.environ, "PATH": str(empty)})


def refused(r, *words: str) -> None:
    assert r.returncode != 0, r.stdout
    lines = [line for line in r.stderr.splitlines() if not line.startswith("gpudash demo: ")]
    assert len(lines) == 1 and "Traceback" not in r.stderr and "--work-dir" in lines[0], r.stderr
    assert all(w in lines[0] for w in words), lines[0]


def test_a_foreign_file_where_the_demo_writes_its_model_is_left_alone(tmp_path):
    work = tmp_path / "work"
    (work / STATEMENTS).mkdir(parents=True)
    mine = work / STATEMENTS / DEFAULT_MODEL
    mine.write_text("mine\n")
    r = demo(work, tmp_path)
    assert mine.read_text() == "mine\n"
    refused(r, "not empty")


def test_a_previous_demos_prometheus_data_is_not_reused(tmp_path):
    work = tmp_path / "work"
    block = work / "prometheus" / "data" / "01HXYZ"
    block.mkdir(parents=True)
    (block / "meta.json").write_text("{}")
    r = demo(work, tmp_path)
    assert sorted(p.name for p in work.iterdir()) == ["prometheus"] and (block / "meta.json").read_text() == "{}"
    refused(r, "not empty", "prometheus")


def test_a_work_folder_that_is_a_link_is_not_followed(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = tmp_path / "work"
    link.symlink_to(elsewhere)
    r = demo(link, tmp_path)
    assert list(elsewhere.iterdir()) == []
    refused(r, "symbolic link")


def test_a_link_planted_in_the_work_folder_is_not_followed(tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text("keep\n")
    work = tmp_path / "work"
    (work / STATEMENTS).mkdir(parents=True)
    (work / STATEMENTS / DEFAULT_MODEL).symlink_to(outside)
    r = demo(work, tmp_path)
    assert outside.read_text() == "keep\n"
    refused(r, "not empty")


def test_a_folder_another_user_can_write_is_refused(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    work.chmod(0o777)
    r = demo(work, tmp_path)
    assert list(work.iterdir()) == []
    refused(r, "another user")


def test_a_folder_that_cannot_be_created_is_one_line(tmp_path):
    (tmp_path / "a-file").write_text("x")
    refused(demo(tmp_path / "a-file" / "work", tmp_path), "cannot create")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any folder")
def test_an_unwritable_folder_is_one_line(tmp_path):
    work = tmp_path / "work"
    work.mkdir(mode=0o500)
    refused(demo(work, tmp_path), "not writable")


def test_odd_characters_stay_on_one_line_and_a_new_folder_is_only_its_owners(tmp_path):
    odd = tmp_path / "work\nsecond line \x1b[31m ' \" $(x) *"
    new = workdir.prepare(odd)
    assert new == odd and stat.S_IMODE(odd.stat().st_mode) & 0o077 == 0 and list(odd.iterdir()) == []
    (odd / "foreign").write_text("x")
    with pytest.raises(GpudashError) as err:
        workdir.prepare(odd)
    assert "\n" not in str(err.value) and "\x1b" not in str(err.value) and "not empty (foreign)" in str(err.value)
