"""The golden cache (gpudash/render/golden/orchestrate/cache.py): keyed by the model and the code, never trusted
when unreadable, never touching a file it did not write; that a render reads back the same bytes is
tests/integration/test_golden_cache.py."""
from __future__ import annotations

import dataclasses
import json
import os

import pytest

from gpudash.base import layout
from gpudash.render import golden
from gpudash.render.golden.orchestrate import cache as golden_cache


@pytest.fixture(scope="module")
def texts(example_model) -> dict[str, str]:
    """An entry's content: the example's golden test files (the same for every model below), each a stand-in."""
    return {path: "tests: []\n" for path in golden.paths(example_model)}


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv(golden_cache.ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_what_is_stored_is_read_back(cache, example_model, texts):
    assert golden_cache.load(example_model) is None
    golden_cache.store(example_model, texts)
    assert golden_cache.load(example_model) == texts
    assert [p.name for p in cache.iterdir()] == [golden_cache.entry_name(example_model)]


def test_another_model_or_other_code_is_another_key(cache, example_model, monkeypatch, texts):
    golden_cache.store(example_model, texts)
    other = dataclasses.replace(example_model, currency="EUR")
    assert golden_cache.key(other) != golden_cache.key(example_model) and golden_cache.load(other) is None
    code = golden_cache._code_digest
    monkeypatch.setattr(golden_cache, "_code_digest", lambda: "a changed emitter")
    assert golden_cache.load(example_model) is None
    monkeypatch.setattr(golden_cache, "_code_digest", code)
    assert golden_cache.load(example_model) == texts
    from gpudash.model import vendors
    from tests.fixtures import vendor_acme

    acme = vendors.register(vendor_acme)  # a vendor registered at run time joins every render's rules
    try:
        assert golden_cache.load(example_model) is None
    finally:
        vendors.unregister(acme.name)


def test_a_broken_entry_is_passed_over(cache, example_model, texts):
    golden_cache.store(example_model, texts)
    (entry,) = cache.iterdir()
    for broken in (entry.read_bytes()[:20], b"not gzip", __import__("gzip").compress(b'{"a": 1}')):
        entry.write_bytes(broken)
        assert golden_cache.load(example_model) is None


def test_an_entry_larger_than_the_cap_is_passed_over_without_decompressing_it(cache, example_model, monkeypatch,
                                                                               texts):
    """A gzip bomb in the cache folder: read up to the cap, then emitted afresh (never decompressed whole)."""
    import gzip

    golden_cache.store(example_model, texts)
    (entry,) = cache.iterdir()
    size = len(gzip.decompress(entry.read_bytes()))
    monkeypatch.setattr(golden_cache, "MAX_BYTES", size)
    assert golden_cache.load(example_model) == texts  # at the cap: read
    monkeypatch.setattr(golden_cache, "MAX_BYTES", size - 1)
    reads = []
    real = gzip.GzipFile.read
    monkeypatch.setattr(gzip.GzipFile, "read", lambda self, n=-1: reads.append(n) or real(self, n))
    assert golden_cache.load(example_model) is None and reads == [size]  # one bounded read, then refused


def test_off_reads_and_writes_nothing(tmp_path, example_model, monkeypatch, texts):
    monkeypatch.setenv(golden_cache.ENV, golden_cache.OFF)
    monkeypatch.chdir(tmp_path)
    golden_cache.store(example_model, texts)
    assert golden_cache.load(example_model) is None and not list(tmp_path.iterdir())


def test_an_unwritable_cache_is_no_cache(tmp_path, example_model, monkeypatch, texts):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv(golden_cache.ENV, str(blocker / "cache"))  # below a file: cannot be created
    golden_cache.store(example_model, texts)
    assert golden_cache.load(example_model) is None


def test_only_the_newest_of_its_own_entries_stay(cache, example_model, texts):
    cache.mkdir()
    (cache / "notes.txt").write_text("the user's")
    models = [dataclasses.replace(example_model, currency=c) for c in ("EUR", "GBP", "JPY", "CHF", "SEK", "NOK")]
    for i, model in enumerate(models):
        golden_cache.store(model, texts)
        entry = cache / golden_cache.entry_name(model)
        os.utime(entry, (1000 + i, 1000 + i))
    kept = {p.name for p in cache.iterdir()}
    assert "notes.txt" in kept and len(kept) == golden_cache.KEEP + 1
    assert all(golden_cache.load(m) == texts for m in models[-golden_cache.KEEP:])


def test_validate_reads_the_cache_and_fills_it(cache, example_model, monkeypatch, capsys, texts):
    """``validate`` takes the golden tests from the cache as a render does; without an entry it emits them once and
    keeps them (what a render or validate of the same model reads next)."""
    from gpudash import cli
    from gpudash.render.golden.orchestrate import schedule

    emitted = []

    class Emitted:  # what an emission of ``model`` does: its text, kept in the cache
        def __init__(self, model, jobs):
            emitted.append(model)

        def result(self, progress=None):
            golden_cache.store(emitted[-1], texts)
            return texts

    monkeypatch.setattr(schedule, "Emission", Emitted)
    assert cli.main(["validate", "--example"]) == 0
    assert len(emitted) == 1 and golden_cache.load(example_model) == texts
    assert cli.main(["validate", "--example"]) == 0
    assert len(emitted) == 1, "the second validate read the cache"
    assert capsys.readouterr().out.count("is valid") == 2


def _plant(cache, model, data: dict[str, str]) -> None:
    """Write ``data`` as ``model``'s entry, as anyone who can write to the cache folder can."""
    import gzip

    cache.mkdir(exist_ok=True)
    (cache / golden_cache.entry_name(model)).write_bytes(gzip.compress(json.dumps(data).encode()))


@pytest.mark.parametrize("rel", ["tests/../../escaped.test.yaml", "../escaped", "/tmp/escaped.test.yaml",
                                 layout.HUB_RULES, "tests/golden/../golden-x.test.yaml", "tests/sub/golden-x.test.yaml",
                                 "tests/alerts-budget.test.yaml", "tests/golden-x.yaml"])
def test_an_entry_naming_a_path_golden_tests_do_not_take_is_passed_over(cache, example_model, texts, rel, capsys):
    """An entry supplies golden test files only: no path out of the output, none in another folder, no rule file."""
    _plant(cache, example_model, {**texts, rel: "groups: []\n"})
    assert golden_cache.load(example_model) is None
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "golden cache:" in err and "passed over" in err and json.dumps(rel) in err


@pytest.mark.parametrize("change", ["one missing", "one more", "one junk file"])
def test_an_entry_without_exactly_the_models_golden_files_is_passed_over(cache, example_model, texts, change, capsys):
    """The issue's case: one junk file in place of the 148 golden tests would have replaced them all."""
    wrong = {"one missing": dict(list(texts.items())[1:]), "one more": {**texts, "tests/golden-x.test.yaml": ""},
             "one junk file": {layout.GOLDEN_INDEX: "junk"}}[change]
    _plant(cache, example_model, wrong)
    assert golden_cache.load(example_model) is None
    assert "not this model's golden test files" in capsys.readouterr().err


def test_a_bomb_is_refused_within_the_cap_and_memory_stays_near_a_renders(cache, example_model, capsys):
    """The issue's bomb: a small entry that unpacks to 250 MiB (under the old 256 MiB cap) of one junk file. Read
    no further than the cap; memory stays within twice the cap (what the render itself holds is about 110 MB)."""
    import gzip
    import tracemalloc

    cache.mkdir()
    with gzip.open(cache / golden_cache.entry_name(example_model), "wb") as f:
        f.write(json.dumps(layout.GOLDEN_INDEX).join(["{", ': "']).encode())
        for _ in range(250):
            f.write(b" " * 2**20)
        f.write(b'"}')
    assert (cache / golden_cache.entry_name(example_model)).stat().st_size < 2**20
    tracemalloc.start()
    try:
        assert golden_cache.load(example_model) is None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * golden_cache.MAX_BYTES, peak
    assert "unpacks to more than" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["fifo", "large", "folder"])
def test_an_entry_that_is_no_small_regular_file_is_passed_over_at_once(cache, example_model, kind, capsys):
    """A FIFO planted at an entry's name would block a plain open; a large compressed file is not read whole."""
    cache.mkdir()
    entry = cache / golden_cache.entry_name(example_model)
    if kind == "fifo":
        os.mkfifo(entry)
    elif kind == "folder":
        entry.mkdir()
    else:
        with entry.open("wb") as f:
            f.truncate(golden_cache.MAX_COMPRESSED + 1)
    assert golden_cache.load(example_model) is None
    assert "golden cache:" in capsys.readouterr().err


def test_tests_beyond_the_cap_are_not_kept(cache, example_model, texts, monkeypatch, capsys):
    """Tests no render could read back are not written (each later render would warn about its own entry)."""
    size = len(json.dumps(texts, sort_keys=True).encode())
    monkeypatch.setattr(golden_cache, "MAX_BYTES", size - 1)
    golden_cache.store(example_model, texts)
    assert not cache.exists() and golden_cache.load(example_model) is None and capsys.readouterr().err == ""
