"""The writer: manifest ownership, stale-file removal, atomic failure, --check, determinism.

Every test gives the writer plain data and runs in milliseconds; the one end-to-end render (``python -m
gpudash`` under another hash seed) is tests/integration/test_writer.py."""
from __future__ import annotations

import weakref
from pathlib import Path

import pytest

from gpudash import cli, layout, writer
from gpudash.deferred import Deferred
from gpudash.errors import GenerationError, InputError


def tree(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_bad_model_leaves_output_untouched(tmp_path, capsys):
    out = tmp_path / "out"
    writer.apply(writer.plan(out, {"rules/a.yaml": {"x": 1}}))
    (out / "my-notes.txt").write_text("not gpudash's")
    before = tree(out)
    bad = tmp_path / "gpudash.yaml"
    bad.write_text("currency: USD\ngpu_classes: []\ntenants: []\nclusters: []\n")
    assert cli.main(["render", "-c", str(bad), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.startswith(f"gpudash: {bad}: 3 errors:\n")
    assert err.count("\n") == 4  # every error of the file, one line each
    assert tree(out) == before


def test_refuses_to_overwrite_a_file_it_does_not_own(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "gpudash-hub.rules.yaml").write_text("mine\n")
    with pytest.raises(InputError, match="not written by gpudash"):
        writer.plan(tmp_path, {"rules/gpudash-hub.rules.yaml": {"groups": []}, "other.yaml": {}})
    assert (tmp_path / "rules" / "gpudash-hub.rules.yaml").read_text() == "mine\n"
    assert not (tmp_path / layout.MANIFEST).exists()


def test_check_finds_a_hand_edit_and_writes_nothing(tmp_path):
    files = {"rules/hub.yaml": {"expr": "vector(3.2)"}, "b.json": {"z": 3}}
    writer.apply(writer.plan(tmp_path, files))
    assert writer.plan(tmp_path, files).changed() == []
    target = tmp_path / "rules" / "hub.yaml"
    target.write_text(target.read_text().replace("vector(3.2)", "vector(9.9)"))
    before = tree(tmp_path)
    p = writer.plan(tmp_path, files)
    assert p.changed() == ["rules/hub.yaml"] and p.edited() == ["rules/hub.yaml"] and p.counts() == (1, 1, 0)
    text = writer.diff(p)
    assert "-expr: vector(9.9)" in text and "+expr: vector(3.2)" in text and "a/rules/hub.yaml" in text
    assert tree(tmp_path) == before  # planning and diffing never write


def test_stale_owned_files_are_removed_and_others_kept(tmp_path):
    files = {"a/one.yaml": {"x": 1}, "a/two.yaml": {"y": 2}, "b/three.json": {"z": 3}}
    writer.apply(writer.plan(tmp_path, files))
    (tmp_path / "a" / "user.txt").write_text("keep me")
    writer.apply(writer.plan(tmp_path, {"a/one.yaml": {"x": 1}}))
    assert (tmp_path / "a" / "one.yaml").exists()
    assert not (tmp_path / "a" / "two.yaml").exists()
    assert not (tmp_path / "b").exists()  # emptied folder of gpudash's removed
    assert (tmp_path / "a" / "user.txt").read_text() == "keep me"


def test_stale_file_edited_by_hand_is_kept(tmp_path):
    writer.apply(writer.plan(tmp_path, {"one.yaml": {"x": 1}, "two.yaml": {"y": 2}}))
    (tmp_path / "two.yaml").write_text("edited\n")
    kept = writer.apply(writer.plan(tmp_path, {"one.yaml": {"x": 1}}))
    assert kept == ["two.yaml"] and (tmp_path / "two.yaml").read_text() == "edited\n"


def test_check_reports_stale_files(tmp_path):
    writer.apply(writer.plan(tmp_path, {"old.yaml": {"x": 1}}))
    p = writer.plan(tmp_path, {"new.yaml": {"x": 1}})
    assert p.stale() == ["old.yaml"] and p.changed() == ["new.yaml"]


def test_corrupt_manifest_is_a_clear_error(tmp_path):
    (tmp_path / layout.MANIFEST).write_text("{not json")
    with pytest.raises(InputError, match="not a gpudash manifest"):
        writer.plan(tmp_path, {"a.yaml": {}})


def test_output_path_that_is_a_file(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(InputError, match="not a directory"):
        writer.plan(f, {"a.yaml": {}})


# --- hand edits, symbolic links (plain data: no render) ---------------------------------------------------------

def test_hand_edit_is_refused_then_forced(tmp_path):
    writer.apply(writer.plan(tmp_path, {"a/one.yaml": {"x": 1}, "two.yaml": {"y": 2}}))
    (tmp_path / "a" / "one.yaml").write_text("edited by hand\n")
    before = tree(tmp_path)
    p = writer.plan(tmp_path, {"a/one.yaml": {"x": 2}, "two.yaml": {"y": 3}})
    assert p.edited() == ["a/one.yaml"]
    with pytest.raises(InputError, match=r"a/one.yaml: edited by hand since gpudash wrote it; move the edit into "
                                         r"the model and re-render, or render with --force"):
        writer.apply(p)
    assert tree(tmp_path) == before  # nothing written, the edit is intact
    writer.apply(p, force=True)
    assert "x: 2" in (tmp_path / "a" / "one.yaml").read_text()


def test_hand_edit_equal_to_the_new_text_is_no_conflict(tmp_path):
    writer.apply(writer.plan(tmp_path, {"one.yaml": {"x": 1}}))
    (tmp_path / "one.yaml").write_text(writer.serialise("one.yaml", {"x": 2}))
    p = writer.plan(tmp_path, {"one.yaml": {"x": 2}})
    assert p.edited() == [] and p.counts() == (0, 1, 0)


def test_counts_say_what_changed(tmp_path):
    writer.apply(writer.plan(tmp_path, {"a.yaml": {"x": 1}, "b.yaml": {"x": 1}, "c.yaml": {}}))
    assert writer.plan(tmp_path, {"a.yaml": {"x": 1}, "b.yaml": {"x": 2}}).counts() == (1, 1, 1)


def test_never_writes_through_a_symlinked_folder(tmp_path):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    writer.apply(writer.plan(out, {"top.yaml": {}, "mco/a.yaml": {"x": 1}}))
    (out / "mco" / "a.yaml").unlink()
    (out / "mco").rmdir()
    (out / "mco").symlink_to(elsewhere)
    with pytest.raises(InputError, match=rf"^{out / 'mco'}: is a symbolic link \(to {elsewhere}\)"):
        writer.plan(out, {"top.yaml": {}, "mco/a.yaml": {"x": 1}})
    assert list(elsewhere.iterdir()) == []


def test_symlinked_file_is_refused(tmp_path):
    writer.apply(writer.plan(tmp_path, {"a.yaml": {}}))
    (tmp_path / "target").write_text("someone else's\n")
    (tmp_path / "a.yaml").unlink()
    (tmp_path / "a.yaml").symlink_to(tmp_path / "target")
    with pytest.raises(InputError, match="a.yaml: is a symbolic link"):
        writer.plan(tmp_path, {"a.yaml": {"x": 1}})
    assert (tmp_path / "target").read_text() == "someone else's\n"


def test_stale_removal_never_follows_a_symlink(tmp_path):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    writer.apply(writer.plan(out, {"keep.yaml": {}, "mco/a.yaml": {"x": 1}}))
    (out / "mco").rename(elsewhere)
    (out / "mco").symlink_to(elsewhere)  # same content, reached through a link
    kept = writer.apply(writer.plan(out, {"keep.yaml": {}}))
    assert kept == ["mco/a.yaml"] and (elsewhere / "a.yaml").exists()


def test_unwritable_output_is_one_clear_error(tmp_path):
    from gpudash.errors import GpudashError

    with pytest.raises(GpudashError, match=r"^/proc/nope: cannot write output: No such file or directory$"):
        writer.apply(writer.plan("/proc/nope", {"a.yaml": {}}))


def test_a_re_render_writes_only_the_files_that_change(tmp_path):
    """GitOps re-renders mostly change little: a file already holding its text is not rewritten (same inode and
    modification time), the changed one is, and the manifest records both."""
    writer.apply(writer.plan(tmp_path, {"a.yaml": {"x": 1}, "b.yaml": {"y": 1}}))
    before = {p: (tmp_path / p).stat() for p in ("a.yaml", "b.yaml")}
    plan = writer.plan(tmp_path, {"a.yaml": {"x": 1}, "b.yaml": {"y": 2}})
    assert plan.changed() == ["b.yaml"]
    writer.apply(plan)
    after = {p: (tmp_path / p).stat() for p in ("a.yaml", "b.yaml")}
    assert (after["a.yaml"].st_ino, after["a.yaml"].st_mtime_ns) == (before["a.yaml"].st_ino,
                                                                     before["a.yaml"].st_mtime_ns)
    assert after["b.yaml"].st_ino != before["b.yaml"].st_ino and "y: 2" in (tmp_path / "b.yaml").read_text()
    assert writer.plan(tmp_path, {"a.yaml": {"x": 1}, "b.yaml": {"y": 2}}).counts() == (0, 2, 0)


def test_a_staged_render_holds_one_file_at_a_time(tmp_path):
    """``stage=True`` (what ``render`` does) builds each deferred file when the writer reaches it, in path order,
    and stages its text at once: nothing of it is kept in memory, and the outputs change only at ``apply``."""
    class Data(dict):  # a dict that can be watched with a weak reference
        pass

    built, alive = [], []

    def build(name):
        built.append(name)
        data = Data(name=name)
        alive.append(weakref.ref(data))
        return data

    files = {f"d/{n}.yaml": Deferred(build, (f"d/{n}.yaml",)) for n in ("b", "a", "c")}
    p = writer.plan(tmp_path / "out", files, stage=True)
    assert built == ["d/a.yaml", "d/b.yaml", "d/c.yaml"] and not any(ref() for ref in alive)
    assert all(isinstance(p.changes[rel], Path) and p.changes[rel].is_relative_to(p.stage) for rel in p.changed())
    assert sorted(f.name for f in (tmp_path / "out").iterdir()) == [p.stage.name]  # only the stage, so far
    writer.apply(p)
    assert tree(tmp_path / "out")["d/b.yaml"].endswith(b"name: d/b.yaml\n") and not p.stage.exists()
    assert sorted(f.name for f in (tmp_path / "out").iterdir()) == [layout.MANIFEST, "d"]


def test_a_failing_deferred_file_leaves_the_output_untouched(tmp_path):
    """A generation error in the middle of staging removes the stage (and an output folder it had to create)."""
    def fail():
        raise GenerationError("boom")

    out = tmp_path / "out"
    with pytest.raises(GenerationError, match="boom"):
        writer.plan(out, {"a.yaml": {"x": 1}, "b.yaml": Deferred(fail)}, stage=True)
    assert not out.exists()
    writer.apply(writer.plan(out, {"a.yaml": {"x": 1}}))
    before = tree(out)
    with pytest.raises(GenerationError, match="boom"):
        writer.plan(out, {"a.yaml": {"x": 2}, "b.yaml": Deferred(fail)}, stage=True)
    assert tree(out) == before and sorted(f.name for f in out.iterdir()) == [layout.MANIFEST, "a.yaml"]


def test_an_edited_file_refused_at_apply_discards_the_stage(tmp_path):
    writer.apply(writer.plan(tmp_path, {"a.yaml": {"x": 1}}))
    (tmp_path / "a.yaml").write_text("x: 9\n")
    p = writer.plan(tmp_path, {"a.yaml": {"x": 2}}, stage=True)
    with pytest.raises(InputError, match="edited by hand"):
        writer.apply(p)
    assert (tmp_path / "a.yaml").read_text() == "x: 9\n" and not p.stage.exists()


def test_a_file_of_pieces_is_streamed_and_compared_by_digest(tmp_path):
    """A file whose data is an iterator of text pieces (the mixin's dashboards.libsonnet) is written piece by piece;
    unchanged it is left as it is, edited by hand it is refused, and --check (no stage) diffs its text."""
    def pieces():
        return Deferred(lambda: iter(["one\n", "two\n"]))

    writer.apply(writer.plan(tmp_path, {"big.txt": pieces()}, stage=True))
    assert (tmp_path / "big.txt").read_text() == "one\ntwo\n"
    before = (tmp_path / "big.txt").stat()
    p = writer.plan(tmp_path, {"big.txt": pieces()}, stage=True)
    assert p.changed() == [] and p.counts() == (0, 1, 0)
    writer.apply(p)
    assert (tmp_path / "big.txt").stat().st_mtime_ns == before.st_mtime_ns
    (tmp_path / "big.txt").write_text("one\nmine\n")
    p = writer.plan(tmp_path, {"big.txt": pieces()}, stage=True)
    assert p.edited() == ["big.txt"]
    p.discard()
    assert "+two" in writer.diff(writer.plan(tmp_path, {"big.txt": pieces()}))
