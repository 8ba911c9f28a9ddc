"""The writer: manifest ownership, stale-file removal, atomic failure, --check, determinism.

Every test gives the writer plain data and runs in milliseconds; the one end-to-end render (``python -m
gpudash`` under another hash seed) is tests/integration/test_writer.py."""
from __future__ import annotations

import weakref
from pathlib import Path

import pytest

from gpudash import cli
from gpudash.base import layout
from gpudash.base.deferred import Deferred
from gpudash.base.errors import GenerationError, InputError
from gpudash.render import writer


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


def test_unwritable_output_is_one_clear_error(tmp_path):
    from gpudash.base.errors import GpudashError

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


# --- a hostile or broken manifest (issue 26, defect 1) ------------------------------------------------------------

def _manifest(out, files: dict[str, str]):
    import json

    out.mkdir(parents=True, exist_ok=True)
    (out / layout.MANIFEST).write_text(json.dumps({"generator": "gpudash", "files": files}))


@pytest.mark.parametrize("rel", ["../victim.txt", "{victim}", "a/../../victim.txt", "./a.yaml", "a//a.yaml",
                                 "a/", "", ".", layout.MANIFEST])
def test_a_manifest_path_outside_the_output_is_refused_and_nothing_is_touched(tmp_path, rel):
    """A manifest that names a file outside the output (``../x``, an absolute path) or a path not in its one
    normal form is refused before anything is read or removed: the file it names keeps its content."""
    import hashlib

    out, victim = tmp_path / "out", tmp_path / "victim.txt"
    victim.write_text("someone else's\n")
    rel = rel.format(victim=victim)
    _manifest(out, {rel: hashlib.sha256(victim.read_bytes()).hexdigest()})
    before, around = tree(out), tree(tmp_path)
    with pytest.raises(InputError, match=rf"^{out / layout.MANIFEST}: .*not a path gpudash writes"):
        writer.plan(out, {"b.yaml": {"x": 1}}, stage=True)
    assert tree(out) == before and tree(tmp_path) == around and victim.read_text() == "someone else's\n"


@pytest.mark.parametrize("kind", ["large", "fifo"])
def test_a_manifest_larger_than_the_cap_or_no_regular_file_is_refused_in_one_line(tmp_path, kind, monkeypatch):
    """Another process could have written the manifest: one too large is refused before it is read whole or
    parsed, a FIFO at its name at once (a plain open would wait for a writer for ever)."""
    out = tmp_path / "out"
    _manifest(out, {"a.yaml": "0" * 64})
    if kind == "fifo":
        (out / layout.MANIFEST).unlink()
        __import__("os").mkfifo(out / layout.MANIFEST)
    else:
        monkeypatch.setattr(writer, "MAX_OWN_FILE", (out / layout.MANIFEST).stat().st_size - 1)
    reason = "is not a regular file" if kind == "fifo" else "is larger than"
    for run in (lambda: writer.plan(out, {"b.yaml": {"x": 1}}, stage=True), lambda: writer.edited_by_hand(out)):
        with pytest.raises(InputError, match=rf"^{out / layout.MANIFEST}: {reason}[^\n]*$"):
            run()


def test_a_manifest_path_through_a_symbolic_link_is_refused(tmp_path):
    """A manifest path reached through a link (a folder replaced by a link to elsewhere) is refused before
    anything is removed: the linked-to file stays."""
    import hashlib

    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "a.yaml").write_text("x: 1\n")
    out.mkdir()
    (out / "mco").symlink_to(elsewhere)
    _manifest(out, {"mco/a.yaml": hashlib.sha256(b"x: 1\n").hexdigest()})
    with pytest.raises(InputError, match=rf"^{out / 'mco'}: is a symbolic link"):
        writer.plan(out, {"b.yaml": {}}, stage=True)
    assert (elsewhere / "a.yaml").read_text() == "x: 1\n" and sorted(p.name for p in out.iterdir()) == [
        layout.MANIFEST, "mco"]


@pytest.mark.parametrize("files", [[], {"a.yaml": 5}, {"a.yaml": "not-a-digest"}, {"a.yaml": "AB" * 32}])
def test_a_manifest_of_the_wrong_shape_is_refused(tmp_path, files):
    import json

    (tmp_path / layout.MANIFEST).write_text(json.dumps({"generator": "gpudash", "files": files}))
    with pytest.raises(InputError, match="not a gpudash manifest"):
        writer.plan(tmp_path, {"b.yaml": {}})


def test_a_hostile_manifest_through_the_cli_is_one_line_and_exit_2(tmp_path, capsys):
    import hashlib

    out, victim = tmp_path / "out", tmp_path / "victim.txt"
    victim.write_text("someone else's\n")
    _manifest(out, {"../victim.txt": hashlib.sha256(victim.read_bytes()).hexdigest()})
    model = tmp_path / "m.yaml"
    model.write_text("{}")
    from unittest import mock

    with mock.patch.object(cli, "_generate", lambda *a, **k: {"a.yaml": {"x": 1}}), \
            mock.patch.object(cli, "load_model_from_args", lambda args: None):
        assert cli.main(["render", "-c", str(model), "-o", str(out), "-j", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "not a path gpudash writes" in err
    assert victim.read_text() == "someone else's\n" and sorted(p.name for p in out.iterdir()) == [layout.MANIFEST]


# --- all-or-nothing apply (issue 26, defect 2) --------------------------------------------------------------------

OLD = {"a.yaml": {"x": 1}, "b/c.yaml": {"y": 1}, "d/e.yaml": {"z": 1}, "f.yaml": {"w": 1}}
NEW = {"a.yaml": {"x": 2}, "b/c.yaml": {"y": 1}, "g/h/i.yaml": {"v": 1}, "j.yaml": {"u": 1}}


def snapshot(root):
    """Every file's bytes and every folder of ``root`` (what "restored exactly" compares)."""
    return tree(root), sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_dir())


def failing_at(monkeypatch, step: int) -> dict:
    """Make the ``step``-th (from 0) ``os.replace`` or ``os.mkdir`` from now fail as a cross-device move does
    (``step`` -1: none); the returned dict counts the calls."""
    import errno
    import os

    calls = {"n": 0}

    def wrap(real):
        def call(*args, **kwargs):
            calls["n"] += 1
            if calls["n"] - 1 == step:
                raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(os, "replace", wrap(os.replace))
    monkeypatch.setattr(os, "mkdir", wrap(os.mkdir))
    return calls


def test_a_failure_at_any_step_of_apply_restores_the_previous_output_exactly(tmp_path, monkeypatch):
    """Apply fails at its 1st, 2nd, ... file-system step in turn (every move of a new, replaced or removed file,
    every folder made, the manifest): each time the previous output is back byte for byte, with its folders and
    its manifest and no stage left, and the error is one line."""
    from gpudash.base.errors import GpudashError

    def attempt(step: int):
        out = tmp_path / f"out{step}"
        writer.apply(writer.plan(out, OLD))
        (out / "mine.txt").write_text("not gpudash's\n")
        before = snapshot(out)
        p = writer.plan(out, NEW, stage=True)
        with monkeypatch.context() as m:
            calls = failing_at(m, step)
            try:
                writer.apply(p)
            except GpudashError as err:
                return out, before, str(err), calls["n"]
        return out, before, None, calls["n"]

    out, _, error, steps = attempt(-1)
    assert error is None and steps >= 9  # 2 folders, 3 old files out, 3 new in, the manifest, the stage's folders
    after = snapshot(out)
    assert not (out / "d").exists() and not (out / "f.yaml").exists() and "g/h/i.yaml" in after[0]
    failed = 0
    for step in range(steps):
        out, before, error, _ = attempt(step)
        if error is None:  # a folder that already existed: a failed mkdir of it is no failure
            assert snapshot(out)[0] == after[0], f"step {step}"
            continue
        failed += 1
        assert "\n" not in error and "Invalid cross-device link" in error, error
        assert error.endswith("previous output restored"), error
        assert snapshot(out) == before, f"failure at step {step}"
    assert failed >= 9


def test_the_next_render_restores_an_apply_that_died_half_done(tmp_path, monkeypatch):
    """A render killed in the middle of its moves (no rollback ran) leaves its journal in the stage: the next
    render's lock rolls it back, whatever step it died at, and says so."""
    from gpudash.base.errors import GpudashError

    for step in range(9):
        out = tmp_path / f"out{step}"
        writer.apply(writer.plan(out, OLD))
        before = snapshot(out)
        p = writer.plan(out, NEW, stage=True)
        with monkeypatch.context() as m:
            failing_at(m, step)
            m.setattr(writer, "_rollback", lambda *args: False)  # died: nothing undone
            try:
                writer.apply(p)
                continue  # a failed mkdir of a folder that exists is no failure
            except GpudashError as err:
                assert "could not be restored: the next render restores it" in str(err)
        with writer.lock(out) as held:
            assert held.recovered and held.recovered.endswith("restored the output it was writing"), step
            assert {k: v for k, v in tree(out).items() if k != layout.LOCK} == before[0], f"died at step {step}"
        assert snapshot(out) == before


@pytest.mark.parametrize("journal", [
    {"manifest": "", "folders": [], "create": {"../victim.txt": "{digest}"}, "replace": [], "remove": []},
    {"manifest": "", "folders": [], "create": {}, "replace": ["../victim.txt"], "remove": []},
    {"manifest": "", "folders": ["/tmp"], "create": {}, "replace": [], "remove": []},
    ["not", "a", "journal"], {"manifest": 1},
])
def test_a_journal_naming_a_path_outside_the_output_or_no_journal_is_refused(tmp_path, journal):
    """A stage's journal is read like the manifest: a rollback moves and removes what it names, so one naming a
    path out of the output (or no journal at all) is refused in one line and nothing is touched."""
    import hashlib
    import json

    from gpudash.base.errors import GpudashError

    out, victim = tmp_path / "out", tmp_path / "victim.txt"
    victim.write_text("someone else's\n")
    writer.apply(writer.plan(out, OLD))
    stage = out / f"{layout.STAGE_PREFIX}x"
    (stage / "old").mkdir(parents=True)
    (stage / "victim.txt").write_text("planted\n")  # what stage/old/../victim.txt names
    digest = hashlib.sha256(victim.read_bytes()).hexdigest()
    (stage / "journal.json").write_text(json.dumps(journal).replace("{digest}", digest))
    around = tree(tmp_path)
    with pytest.raises(GpudashError, match=r"an unreadable journal of an interrupted render"):
        with writer.lock(out):
            pass
    assert victim.read_text() == "someone else's\n" and tree(tmp_path) == around


def test_a_fifo_in_place_of_an_owned_file_is_edited_by_hand_and_never_waited_on(tmp_path):
    """Another process put a FIFO where gpudash wrote a file: a plain open would wait for a writer for ever. It is
    an edit by hand (refused without --force), and ``render --check`` shows it replaced."""
    import os
    import signal

    from gpudash.base.errors import GpudashError

    out = tmp_path / "out"
    writer.apply(writer.plan(out, OLD))
    rel = sorted(OLD)[0]
    (out / rel).unlink()
    os.mkfifo(out / rel)
    signal.signal(signal.SIGALRM, lambda *_: pytest.fail("waited on the FIFO"))
    signal.alarm(10)
    try:
        assert writer.edited_by_hand(out) == [rel]
        p = writer.plan(out, NEW)
        assert f"+++ b/{rel}" in writer.diff(p)
        with pytest.raises(GpudashError, match="edited by hand"):
            writer.apply(writer.plan(out, NEW, stage=True))
    finally:
        signal.alarm(0)


def test_a_held_lock_refuses_a_second_render_at_once(tmp_path):
    """(The two-process race is tests/integration/test_writer.py.) The lock says who holds it since when; it is
    gone, with a folder it made for nothing, when the render ends."""
    from gpudash.base.errors import GpudashError

    out = tmp_path / "out"
    with writer.lock(out) as held:
        assert held.recovered is None and (out / layout.LOCK).exists()
        with pytest.raises(GpudashError, match=rf"^another render is writing {out} since \S+Z \(pid \d+ on "):
            with writer.lock(out):
                pass
    assert not out.exists()


def test_a_first_render_moves_each_new_top_level_folder_whole(tmp_path, monkeypatch):
    """Into an output without the folder, its staged folder is moved in one step (not one per file), and the
    output holds every file as written file by file."""
    files = {**{f"g/h/{i:02d}.yaml": {"i": i} for i in range(40)}, "a.yaml": {"x": 1}}
    p = writer.plan(tmp_path / "out", files, stage=True)
    with monkeypatch.context() as m:
        calls = failing_at(m, -1)
        writer.apply(p)
    assert calls["n"] == 3  # g whole, a.yaml, the manifest
    writer.apply(writer.plan(tmp_path / "alone", files))
    assert snapshot(tmp_path / "out") == snapshot(tmp_path / "alone")


def test_a_file_is_new_to_the_output_exactly_when_no_entry_holds_its_path(tmp_path):
    """The journal's created files (what a rollback deletes) are those the output lacks: all under a top-level
    folder it lacks, each under one it has by its own path, a top-level file by its own."""
    (tmp_path / "kept" / "sub").mkdir(parents=True)
    (tmp_path / "kept" / "sub" / "old.yaml").write_text("x")
    (tmp_path / "top.yaml").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "nowhere")  # a dangling link is an entry: replaced, never created
    rels = ["kept/sub/old.yaml", "kept/sub/new.yaml", "kept/new.yaml", "fresh/a/b.yaml", "fresh/c.yaml",
            "top.yaml", "new-top.yaml", "link"]
    assert writer._absent(tmp_path, rels) == ["kept/sub/new.yaml", "kept/new.yaml", "fresh/a/b.yaml",
                                              "fresh/c.yaml", "new-top.yaml"]
