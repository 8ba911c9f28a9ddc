"""Invoices: one tenant's part of a billing report as finance sends it.

An :class:`Invoice` is built from the report's printed lines (:meth:`BillingReport.billed`: each amount rounded
once from unrounded hourly figures) and the model's issuer and tenant billing identity: product descriptions,
quantities at the issuer's display precision, subtotal, tax, total due, issue and due dates, and a number.

Final or draft (docs/billing-contract.md section 11): a statement is FINAL only when it is issued (``--final``),
its period has ended and every hour of it is final on the hub (the hub's hour H is final at H +
:func:`gpudash.promql.read.delay`), no hour is missing and the query API reported no partial answer. Anything else
is a DRAFT, numbered ``DRAFT-<key>-<time its data is final up to>``: a draft consumes no number, and no final
number starts with DRAFT (the model's ``invoice_prefix`` cannot).

Numbers: every statement has a key derived from the tenant and the period (:func:`document_key`); a final one gets
its number, ``<invoice_prefix>[-<invoice_series>]-<sequence>``, from the ledger
(:mod:`gpudash.ops.report.ledger`), sequential and without gaps per series. A statement of a key issued again with
other amounts (a correction) takes the next number and names the one it replaces; the same amounts keep theirs.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

from gpudash.base.timestamps import rfc3339
from gpudash.model import vendors
from gpudash.model.types import Issuer, Model, Tax, Tenant
from gpudash.ops.report import common
from gpudash.ops.report.billing import BillingReport

GPU, ENERGY = "gpu", "energy"  # the kinds of an invoice line
# UN/ECE Recommendation 20 unit codes (the code lists EN 16931 names for BT-130): hour, kilowatt hour.
UNIT_CODES = {GPU: "HUR", ENERGY: "KWH"}
# UNTDID 1001 document types (EN 16931 BT-3; the code list in tests/fixtures/upstream/en16931/
# EN16931-CII-validation.xslt, rule BR-CL-01): commercial invoice, corrected invoice, credit note.
INVOICE, CORRECTED, CREDIT_NOTE = "380", "384", "381"


@dataclass(frozen=True)
class InvoiceLine:
    kind: str  # GPU or ENERGY
    cluster: str
    gpu_class: str
    resource: str
    description: str  # the product, in words
    unit: str  # GPU-hours, 1g.10gb slice-hours, shared GPU-hours, kWh
    quantity: Decimal  # at the issuer's display precision
    unit_price: Decimal
    amount: Decimal  # rounded once from the unrounded hourly figures: what the line costs

    @property
    def unit_code(self) -> str:
        return UNIT_CODES[self.kind]


@dataclass(frozen=True)
class Invoice:
    number: str  # a final one's is "" until the ledger assigns it
    key: str  # the tenant and period's (:func:`document_key`): what a correction shares with the original
    draft: tuple[str, ...]  # why this is a draft; empty: final
    replaces: str  # the number this revision replaces, or ""
    issued: date
    due: date
    start: int
    end: int
    currency: str
    seller: Issuer
    buyer: Tenant
    tax: Tax
    lines: tuple[InvoiceLine, ...]
    replaces_issued: date | None = None  # the issue date of the invoice this one replaces (EN 16931 BT-26)
    credit: bool = False  # a credit note (type 381) cancelling the invoice ``replaces`` names, lines as it had them

    @property
    def final(self) -> bool:
        return not self.draft

    @property
    def type_code(self) -> str:
        """The document's type: a credit note, a corrected invoice (it replaces one) or an invoice."""
        return CREDIT_NOTE if self.credit else CORRECTED if self.replaces else INVOICE

    @property
    def subtotal(self) -> Decimal:
        """The sum of the lines' amounts."""
        return sum((x.amount for x in self.lines), Decimal(0))

    @property
    def tax_amount(self) -> Decimal:
        """The subtotal times the rate, rounded once to the minor unit (EN 16931 BR-CO-17); 0 unless the VAT
        category is S (standard rated)."""
        if not self.tax.charged:
            return common.money(0, self.currency)
        return common.money(self.subtotal * common.exact(self.tax.rate) / 100, self.currency)

    @property
    def total_due(self) -> Decimal:
        return self.subtotal + self.tax_amount


def document_key(tenant: str, start: int, end: int) -> str:
    """Deterministic from tenant and period: every issue of the statement of both shares it (never a number)."""
    digest = hashlib.sha256(f"{tenant}\0{start}\0{end}".encode()).hexdigest()[:8].upper()
    return f"GPU-{datetime.fromtimestamp(start, UTC):%Y%m}-{digest}"


NOT_ISSUED = "not issued: only --final numbers a statement as an invoice"


def draft_reasons(r: BillingReport, now: float, issue: bool = True) -> tuple[str, ...]:
    """Why ``r`` cannot be invoiced as final yet (empty when it can); ``issue`` False: a preview, never final."""
    out = [] if issue else [NOT_ISSUED]
    if r.end > now:
        out.append(f"the period ends at {rfc3339(r.end)}, after this statement was made")
    elif r.readable_end < r.end:
        out.append(f"the hub's figures are final up to {rfc3339(r.readable_end)} only")
    if r.gaps:
        out.append(f"no usage was recorded for {len(r.gaps)} hour(s) ({common.describe_hours(r.gaps)})")
    if r.partial:
        out.append("part of the metrics store did not answer")
    return tuple(out)


def describe(model: Model, gpu_class: str, resource: str, cluster: str) -> str:
    """The product of a line in words: the class's products and what one unit of ``resource`` is."""
    if resource == common.ENERGY:
        return f"GPU energy on cluster {cluster}" if cluster else "GPU energy"
    c = next((x for x in model.gpu_classes if x.name == gpu_class), None)
    products = ", ".join(c.products) if c else gpu_class
    kind, name = vendors.device(resource)
    if kind == "mig":
        shared = name.endswith(".shared")
        what = f"MIG {name.removesuffix('.shared')} slice{' (time-shared)' if shared else ''}"
    elif kind == "shared":
        what = f"shared GPU replica (1/{c.time_slicing_replicas} GPU)" if c else "shared GPU replica"
    elif kind == "partition":
        what = f"GPU partition {name}"
    else:
        what = "whole GPU"
    return f"{products}: {what} ({gpu_class})"


def _unit_price(quantity: float, cost: float) -> Decimal:
    """The hub's average rate of the line (the model's price unless it changed in the period), to at most 6
    decimals."""
    if not quantity:
        return Decimal(0)
    return common.exact(cost / quantity).quantize(Decimal("0.000001"), ROUND_HALF_UP).normalize() + 0


def invoices(r: BillingReport, model: Model, issued: date, now: float, issue: bool = True) -> list[Invoice]:
    """One invoice per tenant of the report: drafts numbered, final ones for the ledger to number."""
    return [build(r, t, model, issued, now, issue) for t in r.tenants]


def build(r: BillingReport, tenant: Tenant, model: Model, issued: date, now: float, issue: bool = True) -> Invoice:
    """``tenant``'s invoice of report ``r``."""
    seller = model.issuer
    lines = []
    for x in r.tenant_lines(tenant.name):
        b = r.billed(x)
        kind = ENERGY if x.resource == common.ENERGY else GPU
        digits = seller.kwh_digits if kind == ENERGY else seller.hours_digits
        lines.append(InvoiceLine(kind, x.cluster, x.gpu_class, x.resource,
                                 describe(model, x.gpu_class, x.resource, x.cluster), common.unit(x.resource),
                                 common.hours(x.quantity, digits), _unit_price(x.quantity, x.cost), b.cost))
    draft = draft_reasons(r, now, issue)
    key = document_key(tenant.name, r.start, r.end)
    number = f"DRAFT-{key}-{datetime.fromtimestamp(r.readable_end, UTC):%Y%m%dT%H%MZ}" if draft else ""
    return Invoice(number, key, draft, "", issued, issued + timedelta(days=seller.payment_terms_days), r.start,
                   r.end, r.currency, seller, tenant, tax_of(tenant, seller), tuple(lines))


def tax_of(tenant: Tenant, seller: Issuer) -> Tax:
    """The VAT of ``tenant``'s invoices: its own, else the issuer's default."""
    return tenant.billing.tax or seller.tax
