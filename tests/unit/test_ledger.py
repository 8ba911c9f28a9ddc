"""The ledger as a transaction (issue 47 item 5): one number per issue under concurrent runs, the document complete
before the ledger records it, a torn or edited ledger refused (never renumbered), nothing written through a
symlink, a size cap on reading it."""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
from dataclasses import replace

import pytest

from gpudash.base.errors import GpudashError
from gpudash.model.types import Tax
from gpudash.ops.report import cli as report_cli
from gpudash.ops.report import invoice, ledger
from tests.unit.test_invoice import build, model
from tests.unit.test_report import END, ISSUED, START, billing_report

BASE = invoice.base_number("team-a", START, END)


def _args(folder, fmt: str = "html", **extra) -> argparse.Namespace:
    return argparse.Namespace(format=fmt, output_dir=str(folder / f"out-{os.getpid()}"), issue_date=ISSUED,
                              final=True, ledger=str(folder / "ledger"), **extra)


def _history(n: int) -> list[dict]:
    out: list[dict] = []
    for i in range(n):
        number = BASE if i == 0 else f"{BASE}-R{i}"
        out.append({"number": number, "digest": hashlib.sha256(str(i).encode()).hexdigest(),
                    "replaces": out[-1]["number"] if out else "", "issued": "2026-02-02", "total_due": "1.00"})
    return out


def test_an_e_invoice_that_cannot_be_made_is_refused_before_the_ledger_records_it(tmp_path):
    """A tenant without usage: EN 16931 needs a line (BG-25); before, lxml's traceback after the ledger wrote."""
    report = billing_report()
    report.lines = [x for x in report.lines if x.tenant != "team-a"]
    report.tenants = [replace(x, billing=replace(x.billing, country="DE")) for x in report.tenants]
    with pytest.raises(GpudashError, match="tenant team-a has no billed usage in the period"):
        report_cli._write_statements(report, model(tax=Tax("VAT", 19)), _args(tmp_path, "xml"))
    assert not any((tmp_path / "ledger").glob("*.json")) and not (tmp_path / f"out-{os.getpid()}").exists()


@pytest.mark.parametrize("content,why", [
    (json.dumps([{**_history(1)[0], "number": 5}]), "not an object of the string fields"),  # wrong types
    (json.dumps([{**_history(1)[0], "total_due": None}]), "not an object of the string fields"),
    (json.dumps(_history(3))[:-40], "not JSON"),  # torn
    (json.dumps([_history(3)[0], _history(3)[2]]), "entry 1 is not issue"),  # an issue removed: edited
    (json.dumps([{**_history(1)[0], "digest": "x"}]), "entry 0 is not issue"),
    (json.dumps({"number": BASE}), "not a list"),
    ("[" * 100_000, "not JSON"),
])
def test_a_torn_or_edited_ledger_is_refused_and_left_as_it_is(tmp_path, content, why):
    path = tmp_path / "ledger" / f"{BASE}.json"
    path.parent.mkdir()
    path.write_text(content)
    with pytest.raises(GpudashError, match=re.escape(why)) as err, ledger.Ledger(path.parent) as book:
        book.number(build())
    assert "\n" not in str(err.value) and "restore it from your billing records" in str(err.value)
    assert path.read_text() == content  # never rewritten, never renumbered


def test_a_ledger_over_its_size_cap_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(ledger, "MAX_BYTES", 1000)
    path = tmp_path / f"{BASE}.json"
    path.write_text(json.dumps(_history(10)))
    with pytest.raises(GpudashError, match="at most 1000 bytes"), ledger.Ledger(tmp_path) as book:
        book.number(build())


def test_nothing_is_written_through_a_symlink(tmp_path, monkeypatch):
    target = tmp_path / "elsewhere"
    target.write_text("precious\n")
    folder = tmp_path / "ledger"
    folder.mkdir()
    # the temporary file's name, planted: created with O_EXCL | O_NOFOLLOW it is refused, not followed
    monkeypatch.setattr(ledger.os, "urandom", lambda n: b"\0" * n)
    (folder / f".{BASE}.json.{os.getpid()}.{'00' * 4}.tmp").symlink_to(target)
    with ledger.Ledger(folder) as book:
        inv, pending = book.number(build())
        with pytest.raises(GpudashError, match=f"cannot record statement {BASE}"):
            book.record(pending)
    assert target.read_text() == "precious\n" and not (folder / f"{BASE}.json").exists()
    # the ledger file itself, or the folder, a symlink: refused
    (folder / f"{BASE}.json").symlink_to(target)
    with pytest.raises(GpudashError, match="a symlink"), ledger.Ledger(folder) as book:
        book.number(build())
    (tmp_path / "linked").symlink_to(folder)
    with pytest.raises(GpudashError, match="a symlink"), ledger.Ledger(tmp_path / "linked"):
        pass
    assert target.read_text() == "precious\n"
