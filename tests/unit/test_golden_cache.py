"""The golden cache (gpudash/golden_cache.py): keyed by the model and the code, never trusted when unreadable,
never touching a file it did not write; that a render reads back the same bytes is
tests/integration/test_golden_cache.py."""
from __future__ import annotations

import dataclasses
import os

import pytest

from gpudash import golden_cache

TEXTS = {"tests/golden/scenarios.yaml": "scenarios: {}\n", "tests/golden-a.test.yaml": "tests: []\n"}


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv(golden_cache.ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_what_is_stored_is_read_back(cache, example_model):
    assert golden_cache.load(example_model) is None
    golden_cache.store(example_model, TEXTS)
    assert golden_cache.load(example_model) == TEXTS
    assert [p.name for p in cache.iterdir()] == [golden_cache.entry_name(example_model)]


def test_another_model_or_other_code_is_another_key(cache, example_model, monkeypatch):
    golden_cache.store(example_model, TEXTS)
    other = dataclasses.replace(example_model, currency="EUR")
    assert golden_cache.key(other) != golden_cache.key(example_model) and golden_cache.load(other) is None
    code = golden_cache._code_digest
    monkeypatch.setattr(golden_cache, "_code_digest", lambda: "a changed emitter")
    assert golden_cache.load(example_model) is None
    monkeypatch.setattr(golden_cache, "_code_digest", code)
    assert golden_cache.load(example_model) == TEXTS
    from gpudash.model import vendors
    from tests.fixtures import vendor_acme

    acme = vendors.register(vendor_acme)  # a vendor registered at run time joins every render's rules
    try:
        assert golden_cache.load(example_model) is None
    finally:
        vendors.unregister(acme.name)


def test_a_broken_entry_is_passed_over(cache, example_model):
    golden_cache.store(example_model, TEXTS)
    (entry,) = cache.iterdir()
    for broken in (entry.read_bytes()[:20], b"not gzip", __import__("gzip").compress(b'{"a": 1}')):
        entry.write_bytes(broken)
        assert golden_cache.load(example_model) is None


def test_an_entry_larger_than_the_cap_is_passed_over_without_decompressing_it(cache, example_model, monkeypatch):
    """A gzip bomb in the cache folder: read up to the cap, then emitted afresh (never decompressed whole)."""
    import gzip

    golden_cache.store(example_model, TEXTS)
    (entry,) = cache.iterdir()
    size = len(gzip.decompress(entry.read_bytes()))
    monkeypatch.setattr(golden_cache, "MAX_BYTES", size)
    assert golden_cache.load(example_model) == TEXTS  # at the cap: read
    monkeypatch.setattr(golden_cache, "MAX_BYTES", size - 1)
    reads = []
    real = gzip.GzipFile.read
    monkeypatch.setattr(gzip.GzipFile, "read", lambda self, n=-1: reads.append(n) or real(self, n))
    assert golden_cache.load(example_model) is None and reads == [size]  # one bounded read, then refused


def test_off_reads_and_writes_nothing(tmp_path, example_model, monkeypatch):
    monkeypatch.setenv(golden_cache.ENV, golden_cache.OFF)
    monkeypatch.chdir(tmp_path)
    golden_cache.store(example_model, TEXTS)
    assert golden_cache.load(example_model) is None and not list(tmp_path.iterdir())


def test_an_unwritable_cache_is_no_cache(tmp_path, example_model, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv(golden_cache.ENV, str(blocker / "cache"))  # below a file: cannot be created
    golden_cache.store(example_model, TEXTS)
    assert golden_cache.load(example_model) is None


def test_only_the_newest_of_its_own_entries_stay(cache, example_model):
    cache.mkdir()
    (cache / "notes.txt").write_text("the user's")
    models = [dataclasses.replace(example_model, currency=c) for c in ("EUR", "GBP", "JPY", "CHF", "SEK", "NOK")]
    for i, model in enumerate(models):
        golden_cache.store(model, TEXTS)
        entry = cache / golden_cache.entry_name(model)
        os.utime(entry, (1000 + i, 1000 + i))
    kept = {p.name for p in cache.iterdir()}
    assert "notes.txt" in kept and len(kept) == golden_cache.KEEP + 1
    assert all(golden_cache.load(m) == TEXTS for m in models[-golden_cache.KEEP:])


def test_validate_reads_the_cache_and_fills_it(cache, example_model, monkeypatch, capsys):
    """``validate`` takes the golden tests from the cache as a render does; without an entry it emits them once and
    keeps them (what a render or validate of the same model reads next)."""
    from gpudash import cli
    from gpudash.render import golden

    texts = {path: "tests: []\n" for path in golden.paths(example_model)}
    emitted = []
    monkeypatch.setattr(cli, "_golden_texts", lambda model, progress=None: emitted.append(model) or golden_cache.store(
        model, texts) or texts)
    assert cli.main(["validate", "--example"]) == 0
    assert len(emitted) == 1 and golden_cache.load(example_model) == texts
    assert cli.main(["validate", "--example"]) == 0
    assert len(emitted) == 1, "the second validate read the cache"
    assert capsys.readouterr().out.count("is valid") == 2
