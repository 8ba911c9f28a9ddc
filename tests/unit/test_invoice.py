"""Invoices (docs/billing-contract.md section 11): draft or final, numbers and revisions, tax, identities,
product descriptions, and the EN 16931 e-invoice validated against the official Factur-X XSD."""
from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from lxml import etree

from gpudash.base.errors import GpudashError
from gpudash.model.types import BillingIdentity, Tax
from gpudash.ops.report import einvoice, invoice, ledger, presentation
from gpudash.ops.report.period import readable_until
from tests.unit.test_report import END, ISSUED, NOW, START, billing_report, energy_report, example_model, t

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "docs" / "img"


def official_schema() -> etree.XMLSchema:
    """The Factur-X 1.0.07 EN 16931 XSD (FNFE-MPE's published schema, as drafthorse ships it): validated here
    independently of drafthorse's own check when it writes."""
    import drafthorse

    return etree.XMLSchema(etree.parse(str(Path(drafthorse.__file__).parent / "schema" /
                                           "Factur-X_1.0.07_EN16931.xsd")))


def model(**issuer):
    return example_model(country="DE", iban="DE02120300000000202051", bic="BYLADEM1001", **issuer)


def team_a(report, **billing):
    tenant = next(x for x in report.tenants if x.name == "team-a")
    tenant = replace(tenant, billing=BillingIdentity(legal_name="Team A GmbH", address=("2 Lab Road", "80331 Munich"),
                                                     country="DE", customer_id="C-1", purchase_order="PO-9", **billing))
    report.tenants = [tenant if x.name == "team-a" else x for x in report.tenants]
    return tenant


def build(report=None, now=NOW, m=None, numbered=True, **billing):
    """team-a's invoice; a final one numbered as a first ledger would (``numbered``)."""
    report = report or billing_report()
    inv = invoice.build(report, team_a(report, **billing), m or model(tax=Tax("VAT", 19)), ISSUED, now)
    return replace(inv, number="GPU-000001") if inv.final and numbered else inv


def test_a_final_invoice_adds_tax_to_the_sum_of_its_lines():
    assert build(numbered=False).number == ""  # the ledger numbers it
    inv = build()
    assert inv.final and inv.key == invoice.document_key("team-a", START, END) and inv.due == date(2026, 3, 4)
    assert inv.subtotal == Decimal("44.63") == sum(x.amount for x in inv.lines)
    assert inv.tax_amount == Decimal("8.48")  # 44.63 x 19 % = 8.4797, rounded once
    assert inv.total_due == Decimal("53.11")
    html = presentation.statement_html(billing_report(), inv)
    for text in ("Invoice no. <strong>", "Due date <strong>2026-03-04", "Team A GmbH", "80331 Munich",
                 "<div>Country DE</div>", '<div class="muted">Country DE</div>',  # both parties' countries
                 "Customer ID <strong>C-1", "Purchase order <strong>PO-9", "VAT 19 %", "53.11", "IBAN DE0212"):
        assert text in html, text
    assert "DRAFT" not in html


def test_the_iban_is_printed_once():
    """Before, an IBAN in the payment lines (where the schema's description suggests it) was printed again."""
    m = model(tax=Tax("VAT", 19), payment=("Example Bank", "IBAN: DE02 1203 0000 0000 2020 51", "Quote the number"))
    html = presentation.statement_html(billing_report(), build(m=m))
    assert html.count("DE02") == 1 and "IBAN DE02120300000000202051, BIC BYLADEM1001" in html
    assert "<div>Example Bank</div>" in html and "<div>Quote the number</div>" in html


def test_an_exempt_tenant_pays_no_tax_and_reads_why():
    inv = build(tax=Tax(exempt="Reverse charge: the recipient owes the VAT"))
    assert inv.tax_amount == 0 and inv.total_due == inv.subtotal
    html = presentation.statement_html(billing_report(), inv)
    assert "not charged: Reverse charge: the recipient owes the VAT" in html
    xml = einvoice.cii_xml(inv).decode()
    assert "<ram:CategoryCode>E</ram:CategoryCode>" in xml and "Reverse charge" in xml


@pytest.mark.parametrize("now,reason", [
    (t("2026-02-01T03:00:00Z"), "the period ends at 2026-02-01T04:00:00Z"),
    (t("2026-02-01T04:30:00Z"), "final up to"),  # the period is over, its last hour not yet final (H + 2h)
])
def test_a_statement_not_final_yet_is_a_draft_with_a_number_of_its_own(now, reason):
    report = billing_report()
    report.readable_end = readable_until(report.end, now)
    inv = build(report, now=now)
    assert inv.draft and reason in "; ".join(inv.draft)
    assert inv.number.startswith(f"DRAFT-{invoice.document_key('team-a', START, END)}-")
    assert presentation.statement_filename(inv).endswith("-DRAFT.html")
    html = presentation.statement_html(report, inv)
    assert 'class="draft-mark"' in html and "DRAFT statement (not an invoice)" in html and "Due date" not in html
    with pytest.raises(GpudashError, match="is a draft"):
        einvoice.cii_xml(inv)


def test_missing_hours_make_a_draft_even_after_the_period():
    report = billing_report()
    report.gaps = [START]
    assert "no usage was recorded for 1 hour(s)" in build(report).draft[0]


def test_quantities_at_the_issuers_precision_amounts_from_the_unrounded_figures():
    report = energy_report()
    inv = build(report, m=model(hours_digits=1, kwh_digits=4))
    shown = {(x.resource, x.cluster): (x.quantity, x.amount) for x in inv.lines}
    assert shown[("nvidia.com/gpu", "east")] == (Decimal("0.3"), Decimal("1.00"))
    assert shown[("energy", "east")] == (Decimal("1.0000"), Decimal("0.20"))


def test_products_are_described_in_words():
    m = model()
    d = lambda cls, res: invoice.describe(m, cls, res, "east")  # noqa: E731
    assert d("a100-80gb", "nvidia.com/gpu").endswith(": whole GPU (a100-80gb)")
    assert "NVIDIA A100-SXM4-80GB" in d("a100-80gb", "nvidia.com/gpu")
    assert ": MIG 1g.10gb slice (a100-80gb)" in d("a100-80gb", "nvidia.com/mig-1g.10gb")
    assert ": MIG 1g.10gb slice (time-shared)" in d("a100-80gb", "nvidia.com/mig-1g.10gb.shared")
    assert "shared GPU replica (1/" in d("a100-80gb", "nvidia.com/gpu.shared")
    assert ": GPU partition cpx-1" in d("mi300x", "amd.com/cpx-1") and d("x", "energy") == "GPU energy on cluster east"


def test_the_ledger_keeps_a_number_for_the_same_amounts_and_numbers_a_correction_next(tmp_path):
    def issue(inv):
        with ledger.Ledger(tmp_path / "ledger") as book:
            inv, pending = book.number(inv)
            if pending:
                book.record(pending)
            return inv

    first = issue(build(numbered=False))
    assert first.number == "GPU-000001" and not first.replaces
    assert issue(build()).number == first.number
    corrected = issue(build(m=model(tax=Tax("VAT", 7))))
    assert corrected.number == "GPU-000002" and corrected.replaces == first.number
    again = issue(build(m=model(tax=Tax("VAT", 7))))
    assert (again.number, again.replaces) == (corrected.number, first.number)
    xml = einvoice.cii_xml(corrected).decode()
    assert "<ram:TypeCode>384</ram:TypeCode>" in xml and f"<ram:IssuerAssignedID>{first.number}<" in xml
    doc = etree.fromstring(xml.encode())  # BG-3: the original's number (BT-25) and issue date (BT-26)
    ns = {"ram": doc.nsmap["ram"], "qdt": doc.nsmap["qdt"]}
    assert doc.xpath("//ram:InvoiceReferencedDocument/ram:FormattedIssueDateTime/qdt:DateTimeString/text()",
                     namespaces=ns) == ["20260202"]
    assert official_schema().validate(doc), official_schema().error_log
    assert f"Revision: replaces <strong>{first.number}</strong> of 2026-02-02" in \
        presentation.statement_html(billing_report(), corrected)
    (tmp_path / "ledger" / "GPU.json").write_text("{oops")
    with pytest.raises(GpudashError, match="is not a ledger gpudash wrote"):
        issue(build())


def test_the_e_invoice_validates_against_the_official_schema():
    schema = official_schema()
    for inv in (build(), build(tax=Tax(exempt="Reverse charge")), build(energy_report())):
        doc = etree.fromstring(einvoice.cii_xml(inv))
        assert schema.validate(doc), schema.error_log
        ns = {"ram": doc.nsmap["ram"]}
        amounts = [Decimal(x) for x in doc.xpath("//ram:SpecifiedTradeSettlementLineMonetarySummation/"
                                                 "ram:LineTotalAmount/text()", namespaces=ns)]
        assert sum(amounts) == inv.subtotal == Decimal(doc.xpath("//ram:LineTotalAmount/text()", namespaces=ns)[-1])
        assert Decimal(doc.xpath("//ram:DuePayableAmount/text()", namespaces=ns)[0]) == inv.total_due


def test_the_e_invoice_has_no_empty_element():
    """PEPPOL-EN16931-R008 (OpenPEPPOL/peppol-bis-invoice-3 rules/sch/PEPPOL-EN16931-UBL.sch: "Document MUST not
    contain empty elements", context ``//*[not(*) and not(normalize-space())]``); before, the empty
    ApplicableHeaderTradeDelivery of every file. The delivery date is the period's last day."""
    doc = etree.fromstring(einvoice.cii_xml(build()))
    assert doc.xpath("//*[not(*) and not(normalize-space())]") == []
    ns = {"ram": doc.nsmap["ram"], "udt": doc.nsmap["udt"]}
    assert doc.xpath("//ram:ApplicableHeaderTradeDelivery/ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime/"
                     "udt:DateTimeString/text()", namespaces=ns) == ["20260201"]


def test_an_e_invoice_needs_the_countries(capsys):
    with pytest.raises(GpudashError, match="issuer.country"):
        einvoice.cii_xml(build(m=example_model(tax=Tax("VAT", 19))))


def test_the_docs_sample_is_a_valid_factur_x_invoice():
    """docs/img/statement.xml validates, and statement.pdf carries exactly it as its Factur-X attachment."""
    from pypdf import PdfReader

    xml = (SAMPLE / "statement.xml").read_bytes()
    assert official_schema().validate(etree.fromstring(xml))
    attached = PdfReader(SAMPLE / "statement.pdf").attachments
    assert attached.get("factur-x.xml") == [xml]


def test_each_statement_format_writes_a_file_name_of_its_own(tmp_path, monkeypatch):
    """--format pdf and --format facturx into one folder keep both: every format has a name of its own."""
    from argparse import Namespace

    from gpudash.ops.report import cli, formats, pdf

    monkeypatch.setattr(pdf, "to_pdf", lambda html: b"%PDF-1.7 statement")  # no Chromium in the unit suite
    monkeypatch.setattr(einvoice, "facturx_pdf", lambda data, inv: data + b" with the XML")
    report = billing_report()
    report.tenants = [team_a(report, peppol_id="0088:4000001123452")]  # the identity an e-invoice needs
    m = example_model(country="AT", tax=Tax("VAT", 20), peppol_id="0088:4000001000005")  # ubl: not DE (ubl.py)
    written = {}
    statements = [f.name for f in formats.FORMATS if f.statement]
    for fmt in statements:
        args = Namespace(format=fmt, output_dir=str(tmp_path), issue_date=ISSUED, final=True,
                         ledger=str(tmp_path / "ledger"))
        written[fmt] = cli._write_statements(report, m, args)
    paths = [p for ps in written.values() for p in ps]
    assert len(set(paths)) == len(paths) == len(statements) * len(written["pdf"]), written
    assert all(p.read_bytes() for p in paths)
    assert {p.suffix for p in written["facturx"]} == {".pdf"}  # still a PDF to every viewer


def test_a_statement_with_a_character_no_font_draws_is_not_printed(monkeypatch):
    """Chromium prints a character without a font as a box or not at all: refused in one line, before printing."""
    from gpudash.ops.report import pdf

    monkeypatch.setattr(pdf, "_font_ranges", lambda: [(0x20, 0x7E), (0xA0, 0x17F)])
    monkeypatch.setattr(pdf, "browser", lambda: pytest.fail("printed"))
    assert pdf.undrawn("<p>Zoë Åström &amp; <b>中</b>\u05eb</p>") == ["\u05eb", "中"]
    with pytest.raises(GpudashError, match=r"^the statement holds characters no installed font draws "
                                           r"\(U\+05EB, U\+4E2D\)[^\n]*$"):
        pdf.to_pdf("<p>Zoë 中\u05eb</p>")
