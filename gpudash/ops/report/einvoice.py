"""Final invoices as EN 16931 e-invoices: UN/CEFACT Cross Industry Invoice (CII) XML in the Factur-X / ZUGFeRD
EN 16931 profile, alone (``--format xml``) or embedded in the statement's PDF (``--format facturx``).

The XML is built with drafthorse (pretix/python-drafthorse), which models the CII schema field by field and
validates what it writes against the Factur-X 1.0.07 EN 16931 XSD it ships (``drafthorse/schema/``, the
FNFE-MPE's published schema); :mod:`gpudash.ops.report.pdfa` embeds it in the PDF as ``factur-x.xml`` and makes
that PDF/A-3B. Business terms (BT-n) are those of EN 16931-1; codes:
- document type (UNTDID 1001, :attr:`Invoice.type_code`): 380 commercial invoice, 384 corrected invoice (a
  correction, with its own sequential number and BT-25, the preceding invoice reference of BG-3, naming the invoice
  it replaces), 381 credit note (the original's lines and amounts, positive as EN 16931 writes a credit note, with
  BT-25 and BT-26 naming the invoice it cancels);
- the actual delivery date (BT-72): the period's last day;
- VAT category (UNTDID 5305) with its exemption reason (BT-120) and VATEX code (BT-121): :mod:`gpudash.model.vat`;
- payment means (UNTDID 4461): 58 SEPA credit transfer when the issuer has an IBAN, else 1 (not defined), which a
  credit note always is (it pays nothing to the seller);
- units (UN/ECE Recommendation 20): HUR hour, KWH kilowatt hour (:data:`gpudash.ops.report.invoice.UNIT_CODES`).
"""
from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from gpudash.base.errors import GpudashError
from gpudash.model import vat
from gpudash.ops.report import common
from gpudash.ops.report.invoice import Invoice

PROFILE = "FACTUR-X_EN16931"  # drafthorse's name of the schema it validates against
GUIDELINE = "urn:cen.eu:en16931:2017"  # BT-24: the EN 16931 core specification


def _party(party, name: str, address: tuple[str, ...], country: str, tax_id: str, email: str) -> None:
    """A party's name, address, VAT identifier (none under category O: BR-O-02) and electronic address."""
    from drafthorse.models.party import TaxRegistration

    party.name = name
    lines = list(address)
    for field, line in zip(("line_one", "line_two", "line_three"), lines[:3]):
        setattr(party.address, field, line)
    party.address.country_id = country
    if tax_id:
        party.tax_registrations.add(TaxRegistration(id=("VA", tax_id)))
    if email:
        party.electronic_address.uri_ID = ("EM", email)


def vat_category(invoice: Invoice) -> tuple[str, Decimal | None]:
    """The invoice's VAT category (UNTDID 5305, BT-118) and the rate written (BT-119, BT-152): the model's under S,
    0 under the other categories, none under O. The one mapping CII and UBL (:mod:`ubl`) share."""
    code = invoice.tax.code
    if code == vat.OUT_OF_SCOPE:
        return code, None
    return code, Decimal(repr(invoice.tax.rate)) if invoice.tax.charged else Decimal("0.00")


def cii_xml(invoice: Invoice) -> bytes:
    """``invoice`` as CII XML, validated against the EN 16931 profile's XSD (a final invoice only)."""
    from drafthorse.models.document import Document

    check(invoice)
    assert invoice.number, "a final invoice is numbered from the ledger before its e-invoice is made"
    doc = Document()
    _header(doc, invoice)
    _agreement(doc.trade.agreement, invoice)
    doc.trade.delivery.event.occurrence = _last_day(invoice)
    _lines(doc.trade.items, invoice)
    _settlement(doc.trade.settlement, invoice)
    if invoice.tax.code == vat.INTRA_COMMUNITY:  # BR-IC-12: the deliver-to country
        doc.trade.delivery.ship_to.address.country_id = invoice.buyer.billing.country
    from lxml import etree  # type: ignore[import-untyped]  # lxml ships no types; drafthorse validates with it

    try:
        return doc.serialize(schema=PROFILE)
    except etree.LxmlError as err:  # what check() cannot foresee: one line, never a traceback
        raise GpudashError(f"the e-invoice of statement {invoice.number} does not validate against the EN 16931 "
                           f"schema ({str(err)[:200]}): check the model's issuer and billing fields") from None


def _last_day(invoice: Invoice) -> date:
    """The period's last day (UTC), the invoicing period's end (BT-74) and the actual delivery date (BT-72): the
    usage is delivered through the period. BT-72 keeps ApplicableHeaderTradeDelivery, which the CII schema
    requires, from being empty: PEPPOL-EN16931-R008 ("Document MUST not contain empty elements", rule context
    ``//*[not(*) and not(normalize-space())]`` in OpenPEPPOL/peppol-bis-invoice-3 rules/sch/PEPPOL-EN16931-UBL.sch,
    the same rule for CII) flags an empty element."""
    return (datetime.fromtimestamp(invoice.end, UTC) - timedelta(seconds=1)).date()


def check(invoice: Invoice) -> None:
    """Refuse a draft statement, one without lines, and an invoice without the parties' fields EN 16931
    requires: before any statement of a run is written or recorded."""
    if not invoice.final:
        raise GpudashError(f"statement {invoice.number} is a draft ({'; '.join(invoice.draft)}): only a final "
                           "statement is an invoice")
    if not invoice.lines:
        raise GpudashError(f"tenant {invoice.buyer.name} has no billed usage in the period: an EN 16931 invoice "
                           "needs at least one line (BG-25); issue the others with --tenant")
    seller, buyer = invoice.seller, invoice.buyer.billing
    missing = [what for what, value in (("issuer.name", seller.name), ("issuer.country", seller.country),
                                        ("issuer.tax_id (EN 16931 BR-CO-26)", seller.tax_id),
                                        ("billing.country of tenant " + invoice.buyer.name, buyer.country))
               if not value]
    if missing:
        raise GpudashError(f"an EN 16931 e-invoice needs {', '.join(missing)} in the model")


def _header(doc, invoice: Invoice) -> None:
    """The document's profile (BT-24), number, type (BT-3), issue date and note."""
    from drafthorse.models.note import IncludedNote

    doc.context.guideline_parameter.id = GUIDELINE
    doc.header.id = invoice.number
    doc.header.type_code = invoice.type_code
    doc.header.issue_date_time = invoice.issued
    note = IncludedNote()
    note.content = f"GPU usage of namespace {invoice.buyer.namespace}"
    doc.header.notes.add(note)


def _agreement(agreement, invoice: Invoice) -> None:
    """Seller and buyer, with the buyer's customer id and purchase order when the model has them."""
    seller, buyer = invoice.seller, invoice.buyer.billing
    vat_ids = invoice.tax.code != vat.OUT_OF_SCOPE  # BR-O-02: no VAT identifier of either party under O
    _party(agreement.seller, seller.name, seller.address, seller.country, seller.tax_id if vat_ids else "",
           seller.email)
    _party(agreement.buyer, buyer.legal_name or invoice.buyer.name, buyer.address, buyer.country,
           buyer.tax_id if vat_ids else "", buyer.email)
    if not vat_ids:  # BR-CO-26: the seller is still identified, by its tax number as seller identifier (BT-29)
        agreement.seller.id = seller.tax_id
    if buyer.customer_id:
        agreement.buyer.id = buyer.customer_id
    if buyer.purchase_order:
        agreement.buyer_order.issuer_assigned_id = buyer.purchase_order


def _lines(items, invoice: Invoice) -> None:
    """One line item per invoice line, each under the invoice's VAT category and rate."""
    from drafthorse.models.tradelines import LineItem

    for index, x in enumerate(invoice.lines, 1):
        item = LineItem()
        item.document.line_id = str(index)
        item.product.name = x.description
        item.agreement.net.amount = x.unit_price
        item.delivery.billed_quantity = (x.quantity, x.unit_code)
        item.settlement.trade_tax.type_code = "VAT"
        item.settlement.trade_tax.category_code = vat_category(invoice)[0]
        if (rate := vat_category(invoice)[1]) is not None:
            item.settlement.trade_tax.rate_applicable_percent = rate
        item.settlement.monetary_summation.total_amount = x.amount
        items.add(item)


def _settlement(settlement, invoice: Invoice) -> None:
    """Currency, period, payment means and terms, the invoice a correction replaces, the VAT breakdown and the
    totals."""
    from drafthorse.models.accounting import ApplicableTradeTax
    from drafthorse.models.payment import PaymentMeans, PaymentTerms

    seller, cur = invoice.seller, invoice.currency
    settlement.currency_code = cur
    settlement.payment_reference = invoice.number
    settlement.period.start = datetime.fromtimestamp(invoice.start, UTC).date()
    settlement.period.end = _last_day(invoice)
    means = PaymentMeans()
    iban = payee_iban(invoice)
    means.type_code = "58" if iban else "1"
    if iban:
        means.payee_account.iban = iban
        if seller.bic:
            means.payee_institution.bic = seller.bic
    settlement.payment_means.add(means)
    terms = PaymentTerms()
    terms.description = terms_text(invoice)
    terms.due = invoice.due
    settlement.terms.add(terms)
    if invoice.replaces:  # BG-3: the preceding invoice's number (BT-25) and issue date (BT-26)
        settlement.invoice_referenced_document.issuer_assigned_id = invoice.replaces
        if invoice.replaces_issued:
            settlement.invoice_referenced_document.issue_date_time = invoice.replaces_issued

    tax = ApplicableTradeTax()
    tax.calculated_amount = invoice.tax_amount
    tax.basis_amount = invoice.subtotal
    tax.type_code = "VAT"
    tax.category_code = vat_category(invoice)[0]
    if (rate := vat_category(invoice)[1]) is not None:
        tax.rate_applicable_percent = rate
    if invoice.tax.reason:
        tax.exemption_reason = invoice.tax.reason
    if invoice.tax.vatex:
        tax.exemption_reason_code = invoice.tax.vatex
    settlement.trade_tax.add(tax)

    total = settlement.monetary_summation
    total.line_total = invoice.subtotal
    total.charge_total = total.allowance_total = common.money(0, cur)
    total.tax_basis_total = invoice.subtotal
    total.tax_total = (invoice.tax_amount, cur)
    total.grand_total = invoice.total_due
    total.due_amount = invoice.total_due


def payee_iban(invoice: Invoice) -> str:
    """The account the buyer pays into: the issuer's IBAN, none for a credit note (its money goes the other way)."""
    return "" if invoice.credit else invoice.seller.iban


def terms_text(invoice: Invoice) -> str:
    """The payment terms in words (BT-20)."""
    if invoice.credit:
        return f"Credits invoice {invoice.replaces} in full"
    return f"Due within {invoice.seller.payment_terms_days} days of the issue date"


def facturx_pdf(pdf: bytes, invoice: Invoice) -> bytes:
    """The statement's PDF as PDF/A-3B with the invoice's CII XML embedded: its Factur-X invoice."""
    from gpudash.ops.report import pdfa

    about = pdfa.Description(
        title=invoice.number, author=invoice.seller.name, subject=f"Invoice {invoice.number} of {invoice.seller.name}",
        keywords="Factur-X, EN 16931, invoice", creator="gpudash report billing (Chromium print)",
        producer="gpudash (pikepdf, qpdf)", when=datetime.now(UTC).replace(microsecond=0))
    return pdfa.facturx(pdf, cii_xml(invoice), about)
