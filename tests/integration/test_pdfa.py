"""The Factur-X PDF is PDF/A-3B (issue 46 item 1): the shipped sample and an invoice printed by Chromium now, for
each VAT category, pass the PDF/A-3B rules of tests/pdfa_rules.py (veraPDF rule IDs), qpdf --check, and the
factur-x package's reading of the embedded XML against the Factur-X XSD; the embedded XML passes the EN 16931
schematron. The same checks fail on what gpudash wrote before (drafthorse's attach_xml) and on Chromium's own
PDF, so they can fail."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pikepdf
import pytest

from gpudash.model import vat
from gpudash.ops.report import einvoice, pdf, pdfa, presentation
from tests import pdfa_rules, pictures
from tests.unit.test_invoice import SAMPLE, build
from tests.unit.test_report import billing_report
from tests.unit.test_vat import BUYER_VAT_ID, TAXES, schematron  # noqa: F401  (schematron: a fixture)


def qpdf_check(data: bytes, tmp_path: Path) -> None:
    path = tmp_path / "check.pdf"
    path.write_bytes(data)
    done = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "No syntax or stream encoding errors" in done.stdout, done.stdout + done.stderr


def embedded_xml(data: bytes) -> bytes:
    """The Factur-X XML as the factur-x package (akretion/factur-x) reads it, checked against its XSD."""
    from facturx import get_facturx_xml_from_pdf

    name, xml = get_facturx_xml_from_pdf(data, check_xsd=True)
    assert name == pdfa.FILENAME
    return xml


@pytest.fixture(scope="module")
def printed():
    """Chromium's PDF of each VAT category's statement, with its invoice."""
    pictures.chromium()
    out = {}
    for category, tax in TAXES.items():
        inv = build(tax=tax, tax_id=BUYER_VAT_ID)
        out[category] = (pdf.to_pdf(presentation.statement_html(billing_report(), inv)), inv)
    return out


def test_the_docs_sample_is_pdfa_3b(tmp_path):
    data = (SAMPLE / "statement.pdf").read_bytes()
    assert pdfa_rules.problems(data) == []
    qpdf_check(data, tmp_path)
    assert embedded_xml(data) == (SAMPLE / "statement.xml").read_bytes()


@pytest.mark.parametrize("category", list(vat.CATEGORIES))
def test_a_printed_invoice_is_pdfa_3b_for_each_vat_category(printed, schematron, category, tmp_path):  # noqa: F811
    raw, inv = printed[category]
    data = einvoice.facturx_pdf(raw, inv)
    assert pdfa_rules.problems(data) == []
    qpdf_check(data, tmp_path)
    xml = embedded_xml(data)
    assert xml == einvoice.cii_xml(inv) and schematron(xml) == []
    with pikepdf.open(tmp_path / "check.pdf") as doc:  # Chromium's structure tags are kept (drafthorse dropped them)
        assert "/StructTreeRoot" in doc.Root and doc.Root.MarkInfo.Marked


def test_the_checks_fail_on_chromiums_pdf_and_on_what_gpudash_wrote_before(printed):
    from drafthorse.pdf import attach_xml

    raw, inv = printed[vat.STANDARD]
    assert {p.split(":")[0] for p in pdfa_rules.problems(raw)} >= {"6.1.3-1", "6.2.4.3-2", "6.6.2.1-1"}
    before = attach_xml(raw, einvoice.cii_xml(inv))  # gpudash's --format facturx until issue 46
    found = {p.split(":")[0] for p in pdfa_rules.problems(before)}
    assert found >= {"6.1.3-1", "6.2.4.3-2", "6.7.3"}, found
