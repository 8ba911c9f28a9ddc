"""VAT categories as EN 16931 writes them: every category's CII invoice passes the official EN 16931 schematron
(run by saxonche) with no failed assertion and no report, the printed statement states the reason, and a model
that the law does not allow is refused in validation with one line."""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from gpudash.base.errors import InputError
from gpudash.model import model_from_dict, vat
from gpudash.model.types import Tax
from gpudash.ops.report import einvoice, presentation
from tests.unit.test_invoice import build
from tests.unit.test_report import billing_report

SCHEMATRON = Path(__file__).resolve().parents[1] / "fixtures" / "upstream" / "en16931" / \
    "EN16931-CII-validation.xslt"
SVRL = {"svrl": "http://purl.oclc.org/dsdl/svrl"}
BUYER_VAT_ID = "FR40303265045"
# One tax per category, as a model may write it; the buyer has a VAT ID (AE and K need it; O leaves it out).
TAXES = {
    vat.STANDARD: Tax("VAT", 19),
    vat.ZERO: Tax("VAT", 0),
    vat.EXEMPT: Tax(exempt="Exempt under article 135(1)(d) of Directive 2006/112/EC",
                    exemption_code="VATEX-EU-135-1", category=vat.EXEMPT),
    vat.REVERSE_CHARGE: Tax(category=vat.REVERSE_CHARGE),
    vat.INTRA_COMMUNITY: Tax(category=vat.INTRA_COMMUNITY),
    vat.EXPORT: Tax(category=vat.EXPORT),
    vat.OUT_OF_SCOPE: Tax(category=vat.OUT_OF_SCOPE),
}


@pytest.fixture(scope="module")
def schematron():
    from saxonche import PySaxonProcessor

    proc = PySaxonProcessor(license=False)
    executable = proc.new_xslt30_processor().compile_stylesheet(stylesheet_file=str(SCHEMATRON))

    def run(xml: bytes) -> list[str]:
        """The failed assertions and successful reports (errors and warnings alike) of the SVRL result."""
        svrl = executable.transform_to_string(xdm_node=proc.parse_xml(xml_text=xml.decode()))
        found = etree.fromstring(svrl.encode()).xpath("//svrl:failed-assert | //svrl:successful-report",
                                                      namespaces=SVRL)
        return [f"{x.get('id')} [{x.get('flag')}]: {' '.join(x.itertext()).strip()[:200]}" for x in found]
    return run


def test_the_schematron_finds_errors(schematron):
    """The check can fail: a reverse-charge invoice that charges tax breaks BR-AE-09 (and the rate BR-AE-05)."""
    xml = einvoice.cii_xml(build(tax=TAXES[vat.REVERSE_CHARGE], tax_id=BUYER_VAT_ID))
    broken = xml.replace(b"<ram:CalculatedAmount>0.00</ram:CalculatedAmount>",
                         b"<ram:CalculatedAmount>1.00</ram:CalculatedAmount>")
    assert broken != xml
    assert any(x.startswith("BR-AE-09") for x in schematron(broken))


@pytest.mark.parametrize("category", list(vat.CATEGORIES))
def test_every_vat_category_passes_the_en16931_schematron(schematron, category):
    inv = build(tax=TAXES[category], tax_id=BUYER_VAT_ID)
    xml = einvoice.cii_xml(inv)
    assert schematron(xml) == []
    doc = etree.fromstring(xml)
    assert set(doc.xpath("//ram:CategoryCode/text()", namespaces=doc.nsmap)) == {category}
    if category != vat.STANDARD:
        assert inv.tax_amount == 0 and inv.total_due == inv.subtotal


@pytest.mark.parametrize("category,printed", [
    (vat.STANDARD, "VAT 19 %"), (vat.ZERO, "VAT 0 % (zero rated)"),
    (vat.EXEMPT, "not charged: Exempt under article 135(1)(d) of Directive 2006/112/EC (VATEX-EU-135-1)"),
    (vat.REVERSE_CHARGE, "not charged: Reverse charge (VATEX-EU-AE)"),
    (vat.INTRA_COMMUNITY, "not charged: Intra-community supply (VATEX-EU-IC)"),
    (vat.EXPORT, "not charged: Export outside the EU (VATEX-EU-G)"),
    (vat.OUT_OF_SCOPE, "not charged: Not subject to VAT (VATEX-EU-O)"),
])
def test_the_statement_states_the_category_and_its_reason(category, printed):
    html = presentation.statement_html(billing_report(), build(tax=TAXES[category], tax_id=BUYER_VAT_ID))
    assert printed in html


@pytest.mark.parametrize("category", [vat.REVERSE_CHARGE, vat.INTRA_COMMUNITY])
@pytest.mark.parametrize("where", ["issuer", "tenant"])
def test_reverse_charge_and_intra_community_need_the_buyers_vat_id(example_data, category, where):
    tenant = example_data["tenants"][0]
    holder = example_data["issuer"] if where == "issuer" else tenant.setdefault("billing", {})
    holder["tax"] = {"category": category}
    with pytest.raises(InputError) as info:
        model_from_dict(example_data)
    errors = getattr(info.value, "errors", [info.value])  # one per tenant the category applies to
    assert len(errors) == (len(example_data["tenants"]) if where == "issuer" else 1)
    err = errors[0]
    assert err.path == "tenants[0].billing.tax_id" and "needs the buyer's VAT ID" in err.reason, str(err)
    assert "\n" not in str(err)
    tenant["billing"] = {**tenant.get("billing", {}), "tax_id": BUYER_VAT_ID}
    if where == "issuer":  # the issuer's default applies to every tenant: each needs one
        for t in example_data["tenants"]:
            t.setdefault("billing", {})["tax_id"] = BUYER_VAT_ID
    assert model_from_dict(example_data).tenants  # accepted once the buyer's VAT ID is there


@pytest.mark.parametrize("tax,path,reason", [
    ({"rate": 0, "category": "S"}, "issuer.tax.rate", "BR-S-05"),
    ({"rate": 7, "category": "Z"}, "issuer.tax.rate", "BR-Z-05"),
    ({"category": "E"}, "issuer.tax.exempt", "BR-E-10"),
    ({"category": "G", "exemption_code": "VATEX-EU-AE"}, "issuer.tax.exemption_code", "is VATEX code VATEX-EU-G"),
    ({"category": "E", "exemption_code": "VATEX-EU-O"}, "issuer.tax.exemption_code", "means another category"),
    ({"category": "AE", "rate": 19}, "issuer.tax", ""),
    ({"category": "XX"}, "issuer.tax", ""),
    ({"exempt": "x", "exemption_code": "VATEX-EU-999"}, "issuer.tax", ""),
])
def test_a_tax_the_law_does_not_allow_is_refused(example_data, tax, path, reason):
    example_data["issuer"]["tax"] = tax
    with pytest.raises(InputError) as info:
        model_from_dict(example_data)
    (err,) = getattr(info.value, "errors", [info.value])
    assert err.path.startswith(path) and reason in err.reason and "\n" not in str(err), str(err)


def test_a_legacy_exemption_is_category_e_with_its_reason(example_data):
    example_data["issuer"]["tax"] = {"exempt": "Small business, no VAT charged"}
    tax = model_from_dict(example_data).issuer.tax
    assert (tax.code, tax.reason, tax.vatex, tax.charged) == (vat.EXEMPT, "Small business, no VAT charged", "", False)
