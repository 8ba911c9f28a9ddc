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

KEY = invoice.document_key("team-a", START, END)
SERIES = "GPU"  # the example issuer's numbering series: its ledger file


def _args(folder, fmt: str = "html", **extra) -> argparse.Namespace:
    given = {"output_dir": str(folder / f"out-{os.getpid()}"), "final": True, "ledger": str(folder / "ledger"),
             **extra}
    return argparse.Namespace(format=fmt, issue_date=ISSUED, **given)


def _history(n: int) -> list[dict]:
    """``n`` issues of team-a's statement of the period, each correcting the one before."""
    out: list[dict] = []
    for i in range(n):
        out.append({"number": f"GPU-{i + 1:06d}", "key": KEY, "digest": hashlib.sha256(str(i).encode()).hexdigest(),
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
    (json.dumps([{**_history(1)[0], "issued": "yesterday"}]), "entry 0 is not issue"),
    (json.dumps({"number": "GPU-000001"}), "not a list"),
    (json.dumps([{**_history(2)[1], "replaces": ""}]), "entry 0 is not issue GPU-000001"),  # renumbered
    ("[" * 100_000, "not JSON"),
])
def test_a_torn_or_edited_ledger_is_refused_and_left_as_it_is(tmp_path, content, why):
    path = tmp_path / "ledger" / f"{SERIES}.json"
    path.parent.mkdir()
    path.write_text(content)
    with pytest.raises(GpudashError, match=re.escape(why)) as err, ledger.Ledger(path.parent) as book:
        book.number(build())
    assert "\n" not in str(err.value) and "restore it from your billing records" in str(err.value)
    assert path.read_text() == content  # never rewritten, never renumbered


def test_a_ledger_over_its_size_cap_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(ledger, "MAX_BYTES", 1000)
    path = tmp_path / f"{SERIES}.json"
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
    (folder / f".{SERIES}.json.{os.getpid()}.{'00' * 4}.tmp").symlink_to(target)
    with ledger.Ledger(folder) as book:
        inv, pending = book.number(build())
        with pytest.raises(GpudashError, match="cannot record statement GPU-000001"):
            book.record(pending)
    assert target.read_text() == "precious\n" and not (folder / f"{SERIES}.json").exists()
    # the ledger file itself, or the folder, a symlink: refused
    (folder / f"{SERIES}.json").symlink_to(target)
    with pytest.raises(GpudashError, match="a symlink"), ledger.Ledger(folder) as book:
        book.number(build())
    (tmp_path / "linked").symlink_to(folder)
    with pytest.raises(GpudashError, match="a symlink"), ledger.Ledger(tmp_path / "linked"):
        pass
    assert target.read_text() == "precious\n"


def _numbers(folder) -> dict[str, str]:
    """Tenant: the number its statement in ``folder`` carries."""
    return {re.match(r"gpudash-statement-(.+?)-\d{8}T", f.name)[1]:
            re.search(r"(?:Invoice|Draft) no\. <strong>([^<]+)<", f.read_text())[1] for f in folder.glob("*.html")}


def test_final_numbers_are_sequential_per_series_and_never_shared(tmp_path):
    """Issue 46 item 3: before, both statements of a period carried hashes and a draft looked like a number."""
    m = model(tax=Tax("VAT", 19))
    args = _args(tmp_path)
    report_cli._write_statements(billing_report(), m, args)
    assert _numbers(tmp_path / f"out-{os.getpid()}") == {"research": "GPU-000001", "team-a": "GPU-000002"}
    m = replace(m, issuer=replace(m.issuer, invoice_prefix="ACME", invoice_series="2026"))
    report_cli._write_statements(billing_report(), m, _args(tmp_path, output_dir=str(tmp_path / "series")))
    assert sorted(_numbers(tmp_path / "series").values()) == ["ACME-2026-000001", "ACME-2026-000002"]
    assert sorted(p.name for p in (tmp_path / "ledger").glob("*.json")) == ["ACME-2026.json", "GPU.json"]


def test_a_statement_without_final_is_a_draft_and_consumes_no_number(tmp_path):
    before = (tmp_path / "ledger" / "GPU.json")
    report_cli._write_statements(billing_report(), model(tax=Tax("VAT", 19)), _args(tmp_path))
    saved = before.read_text()
    preview = _args(tmp_path, final=False, ledger=None, output_dir=str(tmp_path / "preview"))
    report_cli._write_statements(billing_report(), model(tax=Tax("VAT", 19)), preview)
    assert all(n.startswith("DRAFT-GPU-") for n in _numbers(tmp_path / "preview").values())
    assert before.read_text() == saved
    with pytest.raises(GpudashError, match="give --final too"):
        report_cli._write_statements(billing_report(), model(), _args(tmp_path, final=False))
    with pytest.raises(GpudashError, match="is a draft"):
        report_cli._write_statements(billing_report(), model(), _args(tmp_path, "xml", final=False, ledger=None))


def test_final_statements_without_ledger_are_numbered_from_the_users_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    report_cli._write_statements(billing_report(), model(), _args(tmp_path, ledger=None))
    assert ledger.default_folder() == tmp_path / "data" / "gpudash" / "ledger"
    issued = json.loads((ledger.default_folder() / "GPU.json").read_text())
    assert [e["number"] for e in issued] == ["GPU-000001", "GPU-000002"]
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert ledger.default_folder() == tmp_path / "home" / ".local" / "share" / "gpudash" / "ledger"
