"""Credit notes (issue 46, legal numbering): a final invoice of the ledger cancelled by a type 381 document with its
own lines, the series' next number and BG-3 naming the original; the CII XML passes the Factur-X EN 16931 XSD and
the EN 16931 schematron; whatever is refused is refused with one line and leaves the ledger as it was."""
from __future__ import annotations

import argparse
import json
from dataclasses import replace

import pytest
from lxml import etree

from gpudash.base.errors import GpudashError
from gpudash.model.types import Tax
from gpudash.ops.report import cli as report_cli
from gpudash.ops.report import invoice, ledger
from tests.unit import test_vat
from tests.unit.test_invoice import model, official_schema, team_a
from tests.unit.test_ledger import SERIES, _args, _history
from tests.unit.test_report import ISSUED, billing_report

schematron = test_vat.schematron  # the official EN 16931 CII schematron, run by saxonche
CII = {"rsm": "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
       "ram": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"}


def _model(**tax):
    """The example model with team-a's billing identity, as its invoices were issued."""
    m = model(tax=Tax("VAT", 19, **tax))
    tenant = team_a(billing_report())
    return replace(m, tenants=type(m.tenants)(tenant if t.name == tenant.name else t for t in m.tenants))


def _issue(folder, m, **extra) -> None:
    report = billing_report()
    team_a(report)
    report_cli._write_statements(report, m, _args(folder, **extra))


def _credit(folder, m, number: str, fmt: str = "xml") -> etree._Element:
    args = argparse.Namespace(report="credit-note", number=number, format=fmt, output_dir=str(folder / "credit"),
                              issue_date=None, ledger=str(folder / "ledger"))
    report_cli._credit_note(m, args)
    found = sorted((folder / "credit").glob("gpudash-credit-note-*.xml"), key=lambda p: p.stat().st_mtime_ns)
    return etree.parse(str(found[-1])).getroot()


def _issued(folder) -> list[dict]:
    return json.loads((folder / "ledger" / f"{SERIES}.json").read_text())


def _text(doc, path: str) -> str:
    return doc.xpath(f"string({path})", namespaces=CII)


def test_a_credit_note_names_the_final_invoice_and_takes_the_series_next_number(tmp_path):
    m = _model()
    _issue(tmp_path, m)  # research GPU-000001, team-a GPU-000002
    _issue(tmp_path, m, final=False, ledger=None, output_dir=str(tmp_path / "drafts"))  # a draft consumes none
    doc = _credit(tmp_path, m, "GPU-000002")
    assert _text(doc, "//rsm:ExchangedDocument/ram:ID") == "GPU-000003"
    assert _text(doc, "//rsm:ExchangedDocument/ram:TypeCode") == invoice.CREDIT_NOTE
    assert _text(doc, "//ram:InvoiceReferencedDocument/ram:IssuerAssignedID") == "GPU-000002"  # BT-25
    assert _text(doc, "//ram:InvoiceReferencedDocument/ram:FormattedIssueDateTime/*") == f"{ISSUED:%Y%m%d}"  # BT-26
    issued = _issued(tmp_path)
    original, note = issued[1], issued[2]
    assert (note["type"], note["replaces"], note["lines"], note["total_due"]) == \
        (invoice.CREDIT_NOTE, "GPU-000002", original["lines"], original["total_due"])
    assert _text(doc, "//ram:DuePayableAmount") == original["total_due"] == "53.11"
    assert len(doc.xpath("//ram:IncludedSupplyChainTradeLineItem", namespaces=CII)) == len(original["lines"])
    _issue(tmp_path, m, output_dir=str(tmp_path / "again"))  # re-invoiced after the credit note: a new invoice
    issued = _issued(tmp_path)
    assert [e["number"] for e in issued] == [f"GPU-{i:06d}" for i in range(1, 5)]  # never a gap, never shared
    assert (issued[3]["tenant"], issued[3]["type"], issued[3]["replaces"]) == ("team-a", invoice.INVOICE, "")


def test_the_credit_note_passes_the_factur_x_xsd_and_the_en16931_schematron(tmp_path, schematron):
    m = _model()
    _issue(tmp_path, m)
    doc = _credit(tmp_path, m, "GPU-000002")
    official_schema().assertValid(doc)
    assert schematron(etree.tostring(doc)) == []  # 0 errors, 0 warnings


def _refused(folder, m, number: str, match: str, fmt: str = "xml") -> None:
    before = (folder / "ledger" / f"{SERIES}.json").read_bytes()
    with pytest.raises(GpudashError, match=match):
        _credit(folder, m, number, fmt)
    assert (folder / "ledger" / f"{SERIES}.json").read_bytes() == before  # consumed no number


def test_what_cannot_be_credited_is_refused_and_consumes_no_number(tmp_path):
    m = _model()
    _issue(tmp_path, m)
    _refused(tmp_path, m, "GPU-000009", "no such number in series GPU")
    _refused(tmp_path, m, "GPU-000002", "Peppol's national rules for sellers in DE", fmt="ubl")
    _refused(tmp_path, _model(exempt="Exempt", category="E"), "GPU-000002", "VAT or billing identity of tenant team-a")
    gone = replace(m, tenants=type(m.tenants)(t for t in m.tenants if t.name != "team-a"))
    _refused(tmp_path, gone, "GPU-000002", "tenant team-a of the invoice is no tenant of the model")
    _credit(tmp_path, m, "GPU-000002")
    _refused(tmp_path, m, "GPU-000002", "GPU-000003 already credits it")
    _refused(tmp_path, m, "GPU-000003", "is a credit note, not an invoice")


def test_a_replaced_or_legacy_invoice_is_refused(tmp_path):
    (tmp_path / "ledger").mkdir()
    (tmp_path / "ledger" / f"{SERIES}.json").write_text(json.dumps(_history(2)))  # before lines were stored
    _refused(tmp_path, _model(), "GPU-000001", "GPU-000002 already replaces it")
    _refused(tmp_path, _model(), "GPU-000002", "issued before the ledger stored invoice lines")


@pytest.mark.parametrize("edit", [
    lambda e: e.update(type=invoice.CREDIT_NOTE, replaces=""),  # a credit note of nothing
    lambda e: e["lines"][0].__setitem__(8, "lots"),  # an amount that is no number
    lambda e: e["lines"][0].pop(),  # a line short of a field
    lambda e: e["lines"][0].__setitem__(0, "coffee"),  # a kind of line gpudash does not bill
    lambda e: e.update(type=invoice.CORRECTED),  # a correction of nothing
    lambda e: e.update(start="yesterday"),
])
def test_an_edited_stored_issue_is_refused(tmp_path, edit):
    _issue(tmp_path, _model())
    issued = _issued(tmp_path)
    edit(issued[0])
    (tmp_path / "ledger" / f"{SERIES}.json").write_text(json.dumps(issued))
    with pytest.raises(GpudashError, match="is not a ledger gpudash wrote"):
        _credit(tmp_path, _model(), "GPU-000002")


def test_report_credit_note_is_a_command(tmp_path):
    parser = argparse.ArgumentParser()
    report_cli.add_arguments(parser)
    args = parser.parse_args(["credit-note", "GPU-000001", "--example", "--ledger", str(tmp_path / "ledger")])
    with pytest.raises(GpudashError, match="report credit-note GPU-000001: no such number in series GPU"):
        report_cli.run(args)
    assert ledger.series(_model().issuer) == SERIES
