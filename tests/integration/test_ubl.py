"""``report billing --format ubl``: UBL 2.1 Peppol BIS Billing 3.0 invoices, checked with the upstream files
(tests/fixtures/upstream/ubl/SOURCE.md): the OASIS UBL 2.1 XSD (lxml), the CEN EN 16931 UBL schematron and the
Peppol BIS 3 schematron (saxonche, tests/schematron.py), 0 failed asserts of any flag."""
from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from functools import cache

import pytest
from lxml import etree

from gpudash.base.errors import GpudashError
from gpudash.model.types import BillingIdentity, Tax
from gpudash.ops.report import invoice, ubl
from tests.conftest import FIXTURES
from tests.schematron import failed_asserts
from tests.unit.test_report import ISSUED, NOW, billing_report, example_model

UPSTREAM = FIXTURES / "upstream" / "ubl"
CEN = UPSTREAM / "schematron" / "EN16931-UBL-validation.xslt"
PEPPOL = UPSTREAM / "schematron" / "PEPPOL-EN16931-UBL.sch"
SELLER_ID, BUYER_ID = "0088:4000001000005", "0088:4000001123452"  # GS1 GLNs with valid check digits


@cache
def ubl_schema(document: str = "Invoice") -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(UPSTREAM / "xsd" / "maindoc" / f"UBL-{document}-2.1.xsd")))


def build(country: str = "FR", tax: Tax | None = None, replaces: str = "", **billing) -> invoice.Invoice:
    """team-a's final invoice, seller and buyer in ``country``."""
    report = billing_report()
    fields = dict(legal_name="Team A SAS", address=("2 Lab Road", "75001 Paris"), country=country,
                  customer_id="C-1", purchase_order="PO-9", tax_id=f"{country}987654321", peppol_id=BUYER_ID)
    tenant = next(x for x in report.tenants if x.name == "team-a")
    tenant = replace(tenant, billing=BillingIdentity(**{**fields, **billing}))
    report.tenants = [tenant if x.name == "team-a" else x for x in report.tenants]
    model = example_model(country=country, tax_id=f"{country}123456789", peppol_id=SELLER_ID,
                          iban="FR7630006000011234567890189", bic="AGRIFRPP", tax=tax or Tax("VAT", 20))
    inv = replace(invoice.build(report, tenant, model, ISSUED, NOW), number="GPU-000002")  # as the ledger numbers it
    return replace(inv, replaces=replaces) if replaces else inv


def problems(xml: bytes) -> list[str]:
    """Every XSD error and every failed assert (fatal, warning or information) of both schematrons."""
    root = etree.fromstring(xml)
    schema = ubl_schema(etree.QName(root).localname)
    out = [] if schema.validate(root) else [str(e) for e in schema.error_log]
    return out + [f"{flag} {rule}: {text}" for sch in (CEN, PEPPOL) for flag, rule, text in failed_asserts(sch, xml)]


@pytest.mark.parametrize("case", [
    {}, {"tax": Tax("VAT", 0)}, {"tax": Tax(exempt="Exempt under article 261 C of the CGI")},
    {"replaces": "GPU-202601-00000000"}, {"purchase_order": "", "customer_id": ""},
    {"country": "BE"}, {"country": "IE"}, {"address": ("Line 1", "Line 2", "Line 3", "Line 4")},
], ids=["standard", "zero", "exempt", "revision", "no-references", "BE", "IE", "long-address"])
def test_a_final_invoice_passes_the_ubl_xsd_and_both_schematrons(case):
    xml = ubl.ubl_xml(build(**case))
    assert problems(xml) == []


def test_the_ubl_invoice_carries_the_statement_figures():
    inv = build()
    doc = etree.fromstring(ubl.ubl_xml(inv))
    ns = {k or "ubl": v for k, v in ubl.NS.items()}
    value = lambda path: doc.xpath(path, namespaces=ns)  # noqa: E731
    assert value("string(cbc:ID)") == inv.number and value("string(cbc:InvoiceTypeCode)") == "380"
    assert Decimal(value("string(cac:LegalMonetaryTotal/cbc:PayableAmount)")) == inv.total_due
    lines = [Decimal(x) for x in value("cac:InvoiceLine/cbc:LineExtensionAmount/text()")]
    assert lines == [x.amount for x in inv.lines] and sum(lines) == inv.subtotal
    assert value("cac:InvoiceLine/cbc:InvoicedQuantity/@unitCode") == [x.unit_code for x in inv.lines]


def test_peppols_own_example_passes_every_check():
    """The compiled Peppol rules (tests/schematron.py) find nothing in Peppol's own valid example."""
    assert problems((UPSTREAM / "examples" / "base-example.xml").read_bytes()) == []


def test_the_schematrons_catch_what_gpudash_must_not_write():
    """The checks can fail: a document without its seller's electronic address, with totals that do not add up
    or with an unknown VAT category is refused by the official rules."""
    xml = ubl.ubl_xml(build())
    broken = {
        "PEPPOL-EN16931-R020": xml.replace(b'<cbc:EndpointID schemeID="0088">4000001000005</cbc:EndpointID>', b""),
        "BR-CO-15": xml.replace(b"<cbc:TaxInclusiveAmount", b"<cbc:TaxInclusiveAmount>1</cbc:TaxInclusiveAmount>"
                                b"<cbc:X", 1).replace(b"</cbc:TaxInclusiveAmount>\n    <cbc:PayableAmount",
                                                       b"</cbc:X>\n    <cbc:PayableAmount", 1),
    }
    for rule, doc in broken.items():
        assert any(rule in p for p in problems(doc)), rule


def test_a_revision_names_the_invoice_it_replaces():
    ns = {k or "ubl": v for k, v in ubl.NS.items()}
    doc = etree.fromstring(ubl.ubl_xml(build(replaces="GPU-1")))
    assert doc.xpath("string(cbc:InvoiceTypeCode)", namespaces=ns) == "380"
    assert doc.xpath("string(cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID)", namespaces=ns) == "GPU-1"


@pytest.mark.parametrize("tax", [Tax("VAT", 20), Tax(exempt="Exempt under article 261 C of the CGI")],
                         ids=["standard", "exempt"])
def test_a_credit_note_is_a_ubl_credit_note_naming_the_invoice_it_cancels(tax):
    """``report credit-note --format ubl``: the OASIS CreditNote XSD and both schematrons, 0 findings."""
    credit = replace(build(tax=tax), number="GPU-000003", replaces="GPU-000002", replaces_issued=date(2026, 2, 2),
                     credit=True)
    xml = ubl.ubl_xml(credit)
    assert problems(xml) == []
    assert any("BR-04" in p for p in problems(xml.replace(b"<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>",
                                                          b"")))  # the checks read a CreditNote
    ns = {"cn": ubl.CREDIT_NOTE_NS, **{k: v for k, v in ubl.NS.items() if k}}
    doc = etree.fromstring(xml)
    assert doc.tag == f"{{{ubl.CREDIT_NOTE_NS}}}CreditNote"
    assert doc.xpath("string(cbc:CreditNoteTypeCode)", namespaces=ns) == invoice.CREDIT_NOTE
    reference = doc.xpath("cac:BillingReference/cac:InvoiceDocumentReference", namespaces=ns)[0]
    assert [reference.findtext(f"{{{ubl.NS['cbc']}}}{x}") for x in ("ID", "IssueDate")] == ["GPU-000002", "2026-02-02"]
    assert len(doc.xpath("cac:CreditNoteLine/cbc:CreditedQuantity", namespaces=ns)) == len(credit.lines)
    assert not doc.xpath("cac:PaymentMeans/cac:PayeeFinancialAccount", namespaces=ns)  # the seller is paid nothing


@pytest.mark.parametrize("country", sorted(ubl.NATIONAL_RULES))
def test_sellers_whose_national_rules_need_more_are_refused_because_peppol_would_refuse_them(country, monkeypatch):
    inv = build(country)
    with pytest.raises(GpudashError, match=f"national rules for sellers in {country}"):
        ubl.ubl_xml(inv)
    monkeypatch.setattr(ubl, "NATIONAL_RULES", {})
    assert any(f" {country}-" in p for p in problems(ubl.ubl_xml(inv)))


def test_without_peppol_addresses_there_is_no_ubl_invoice():
    with pytest.raises(GpudashError, match=r"billing.peppol_id of tenant team-a"):
        ubl.ubl_xml(build(peppol_id=""))
