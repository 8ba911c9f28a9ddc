"""Final invoices as UBL 2.1 Invoice documents in the Peppol BIS Billing 3.0 profile (``--format ubl``).

Built from the same :class:`~gpudash.ops.report.invoice.Invoice` as the CII e-invoice (:mod:`einvoice`), with
the same VAT mapping (:func:`einvoice.vat_category`), and written with lxml element by element: no maintained
Python library writes Peppol BIS 3 UBL (drafthorse models CII only; the UBL packages on PyPI are 0.x one-offs),
and the suite checks every document against the OASIS UBL 2.1 XSD and the official CEN and Peppol schematrons
(tests/integration/test_ubl.py). Element order is the XSD's (OASIS UBL 2.1 ``xsd/maindoc/UBL-Invoice-2.1.xsd``);
the identifiers are Peppol BIS 3's (OpenPEPPOL/peppol-bis-invoice-3 ``rules/examples/base-example.xml``):
- BT-24 CustomizationID and BT-23 ProfileID below;
- electronic addresses (BT-34, BT-49) are Peppol participant identifiers ``SCHEME:ID`` from the model
  (``issuer.peppol_id``, ``tenants[].billing.peppol_id``), required by PEPPOL-EN16931-R020 and -R010;
- a revision is type 380 naming the invoice it replaces in BT-25 (Peppol allows 384 between German parties
  only, PEPPOL-EN16931-P0112, and German sellers are refused below);
- a credit note (:attr:`Invoice.credit`) is a UBL CreditNote of type 381 (element order: OASIS UBL 2.1
  ``xsd/maindoc/UBL-CreditNote-2.1.xsd``, lines as ``CreditNoteLine`` with ``CreditedQuantity``), without the
  header due date that schema does not have, naming the invoice it cancels in BT-25 and BT-26;
- sellers in countries whose Peppol national rules need fields the model does not hold are refused
  (:data:`NATIONAL_RULES`).
gpudash writes the document; sending it through a Peppol access point is the provider's (docs/reports.md).
"""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gpudash.base.errors import GpudashError
from gpudash.ops.report import einvoice
from gpudash.ops.report.invoice import INVOICE, Invoice

CUSTOMIZATION = "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0"
PROFILE = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0"
# Seller countries whose national rules in PEPPOL-EN16931-UBL.sch fail on what the model can express (the test
# tests/integration/test_ubl.py shows each fails there), and what they need.
NATIONAL_RULES = {
    "DE": "DE-R-002..009: a seller contact with phone and email, city and post code of both parties",
    "DK": "DK-R-002: the seller's CVR number as legal entity",
    "GR": "GR-R-001..010: Greek invoice numbering and MARK number",
    "IS": "IS-R-002..005: the seller's legal id, street and post code",
    "IT": "IT-R-003, IT-R-004: the seller's city and post code",
    "NL": "NL-R-002, NL-R-004: the seller's street, city and post code",
    "NO": "NO-R-001, NO-R-002: the Norwegian VAT number form and 'Foretaksregisteret'",
    "SE": "SE-R-001, SE-R-006: the Swedish VAT number form and rates",
}
CREDIT_NOTE_NS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"  # a credit note's root namespace
NS = {None: "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
      "cac": "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
      "cbc": "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"}


def _add(parent, tag: str, text: object = None, **attrs: str):
    """A child ``prefix:Name`` of ``parent`` with ``text`` (when not None) and attributes."""
    from lxml import etree  # type: ignore[import-untyped]  # lxml ships no types

    prefix, name = tag.split(":")
    child = etree.SubElement(parent, f"{{{NS[prefix]}}}{name}", attrs)
    if text is not None:
        child.text = str(text)
    return child


def check(invoice: Invoice) -> None:
    """What :func:`einvoice.check` requires, and both parties' Peppol addresses: before anything is written."""
    einvoice.check(invoice)
    country = invoice.seller.country
    if country in NATIONAL_RULES:
        raise GpudashError(f"--format ubl: Peppol's national rules for sellers in {country} need what the model does "
                           f"not hold ({NATIONAL_RULES[country]}); use --format xml")
    missing = [what for what, value in (("issuer.peppol_id", invoice.seller.peppol_id),
                                        (f"billing.peppol_id of tenant {invoice.buyer.name}",
                                         invoice.buyer.billing.peppol_id)) if not value]
    if missing:
        raise GpudashError(f"a Peppol BIS 3 invoice needs {', '.join(missing)} in the model (SCHEME:ID, the "
                           "participant's Peppol electronic address)")


def ubl_xml(invoice: Invoice) -> bytes:
    """``invoice`` as a UBL 2.1 Peppol BIS Billing 3.0 Invoice, or CreditNote for a credit note (final only)."""
    from lxml import etree

    check(invoice)
    if invoice.credit:
        root = etree.Element(f"{{{CREDIT_NOTE_NS}}}CreditNote", nsmap={**NS, None: CREDIT_NOTE_NS})
    else:
        root = etree.Element(f"{{{NS[None]}}}Invoice", nsmap=NS)
    _header(root, invoice)
    _party(_add(_add(root, "cac:AccountingSupplierParty"), "cac:Party"), invoice.seller.name,
           invoice.seller.address, invoice.seller.country, invoice.seller.tax_id, invoice.seller.peppol_id)
    buyer = invoice.buyer.billing
    _party(_add(_add(root, "cac:AccountingCustomerParty"), "cac:Party"), buyer.legal_name or invoice.buyer.name,
           buyer.address, buyer.country, buyer.tax_id, buyer.peppol_id)
    _payment(root, invoice)
    _totals(root, invoice)
    _lines(root, invoice)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def _header(root, invoice: Invoice) -> None:
    """Profile, number, dates, type, note, currency, buyer reference (PEPPOL-EN16931-R003), period, order and the
    invoice a revision replaces."""
    buyer = invoice.buyer.billing
    kind = (("cbc:CreditNoteTypeCode", invoice.type_code),) if invoice.credit else \
        (("cbc:DueDate", invoice.due.isoformat()), ("cbc:InvoiceTypeCode", INVOICE))
    for tag, text in (("cbc:CustomizationID", CUSTOMIZATION), ("cbc:ProfileID", PROFILE), ("cbc:ID", invoice.number),
                      ("cbc:IssueDate", invoice.issued.isoformat()), *kind,
                      ("cbc:Note", f"GPU usage of namespace {invoice.buyer.namespace}"),
                      ("cbc:DocumentCurrencyCode", invoice.currency),
                      ("cbc:BuyerReference", buyer.customer_id or invoice.buyer.name)):
        _add(root, tag, text)
    period = _add(root, "cac:InvoicePeriod")
    last = datetime.fromtimestamp(invoice.end, UTC) - timedelta(seconds=1)
    _add(period, "cbc:StartDate", datetime.fromtimestamp(invoice.start, UTC).date().isoformat())
    _add(period, "cbc:EndDate", last.date().isoformat())
    if buyer.purchase_order:
        _add(_add(root, "cac:OrderReference"), "cbc:ID", buyer.purchase_order)
    if invoice.replaces:  # BG-3: BT-25, and BT-26 when known
        reference = _add(_add(root, "cac:BillingReference"), "cac:InvoiceDocumentReference")
        _add(reference, "cbc:ID", invoice.replaces)
        if invoice.replaces_issued:
            _add(reference, "cbc:IssueDate", invoice.replaces_issued.isoformat())


def _party(party, name: str, address: tuple[str, ...], country: str, tax_id: str, peppol_id: str) -> None:
    """Electronic address, postal address (street, additional street, one more line), VAT ID and legal name."""
    scheme, _, endpoint = peppol_id.partition(":")
    _add(party, "cbc:EndpointID", endpoint, schemeID=scheme)
    postal = _add(party, "cac:PostalAddress")
    lines = list(address)
    for tag, line in zip(("cbc:StreetName", "cbc:AdditionalStreetName"), lines[:2]):
        _add(postal, tag, line)
    if len(lines) > 2:
        _add(_add(postal, "cac:AddressLine"), "cbc:Line", ", ".join(lines[2:]))
    _add(_add(postal, "cac:Country"), "cbc:IdentificationCode", country)
    if tax_id:
        scheme_el = _add(party, "cac:PartyTaxScheme")
        _add(scheme_el, "cbc:CompanyID", tax_id)
        _add(_add(scheme_el, "cac:TaxScheme"), "cbc:ID", "VAT")
    _add(_add(party, "cac:PartyLegalEntity"), "cbc:RegistrationName", name)


def _payment(root, invoice: Invoice) -> None:
    """SEPA credit transfer (58) to the issuer's IBAN when it is paid one (:func:`einvoice.payee_iban`), else 1
    (not defined); the terms in words."""
    seller, iban = invoice.seller, einvoice.payee_iban(invoice)
    means = _add(root, "cac:PaymentMeans")
    _add(means, "cbc:PaymentMeansCode", "58" if iban else "1")
    _add(means, "cbc:PaymentID", invoice.number)
    if iban:
        account = _add(means, "cac:PayeeFinancialAccount")
        _add(account, "cbc:ID", iban)
        if seller.bic:
            _add(_add(account, "cac:FinancialInstitutionBranch"), "cbc:ID", seller.bic)
    _add(_add(root, "cac:PaymentTerms"), "cbc:Note", einvoice.terms_text(invoice))


def _category(parent, tag: str, invoice: Invoice, reason: bool) -> None:
    """The invoice's VAT category (:func:`einvoice.vat_category`), with the exemption reason where asked."""
    code, rate = einvoice.vat_category(invoice)
    category = _add(parent, tag)
    _add(category, "cbc:ID", code)
    if rate is not None:  # none under O (EN 16931 BR-O-05, BR-O-06)
        _add(category, "cbc:Percent", rate)
    if reason and invoice.tax.vatex:
        _add(category, "cbc:TaxExemptionReasonCode", invoice.tax.vatex)
    if reason and invoice.tax.reason:
        _add(category, "cbc:TaxExemptionReason", invoice.tax.reason)
    _add(_add(category, "cac:TaxScheme"), "cbc:ID", "VAT")


def _totals(root, invoice: Invoice) -> None:
    """The VAT breakdown (one category) and the document totals."""
    cur = invoice.currency
    tax = _add(root, "cac:TaxTotal")
    _add(tax, "cbc:TaxAmount", invoice.tax_amount, currencyID=cur)
    subtotal = _add(tax, "cac:TaxSubtotal")
    _add(subtotal, "cbc:TaxableAmount", invoice.subtotal, currencyID=cur)
    _add(subtotal, "cbc:TaxAmount", invoice.tax_amount, currencyID=cur)
    _category(subtotal, "cac:TaxCategory", invoice, reason=True)
    total = _add(root, "cac:LegalMonetaryTotal")
    for tag, amount in (("cbc:LineExtensionAmount", invoice.subtotal), ("cbc:TaxExclusiveAmount", invoice.subtotal),
                        ("cbc:TaxInclusiveAmount", invoice.total_due), ("cbc:PayableAmount", invoice.total_due)):
        _add(total, tag, amount, currencyID=cur)


def _lines(root, invoice: Invoice) -> None:
    """One InvoiceLine (CreditNoteLine) per invoice line: quantity in its UN/ECE Rec. 20 unit, amount, product, VAT,
    price."""
    cur = invoice.currency
    tag, quantity = ("cac:CreditNoteLine", "cbc:CreditedQuantity") if invoice.credit else \
        ("cac:InvoiceLine", "cbc:InvoicedQuantity")
    for index, x in enumerate(invoice.lines, 1):
        line = _add(root, tag)
        _add(line, "cbc:ID", index)
        _add(line, quantity, x.quantity, unitCode=x.unit_code)
        _add(line, "cbc:LineExtensionAmount", x.amount, currencyID=cur)
        item = _add(line, "cac:Item")
        _add(item, "cbc:Name", x.description)
        _category(item, "cac:ClassifiedTaxCategory", invoice, reason=False)
        _add(_add(line, "cac:Price"), "cbc:PriceAmount", x.unit_price, currencyID=cur)
