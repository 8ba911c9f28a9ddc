"""Credit notes (``report credit-note NUMBER``): a final invoice of the ledger cancelled by a document of type 381
(UNTDID 1001) that carries the invoice's own lines and amounts, rebuilt from what the ledger stored when it was
issued, and names it (EN 16931 BG-3: BT-25 its number, BT-26 its issue date). No metrics are read.

Numbering: the credit note takes the next number of the invoice's own series. Council Directive 2006/112/EC
(VAT) treats a document amending an invoice as an invoice (article 219) and asks for "a sequential number, based
on one or more series, which uniquely identifies the invoice" (article 226(2)): one series for invoices and credit
notes is the plain reading, and gap-free numbering stays one sequence per series.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

from gpudash.base.errors import GpudashError
from gpudash.model.types import Model
from gpudash.ops.report import ledger
from gpudash.ops.report.invoice import Invoice, tax_of


def rebuild(model: Model, number: str, issued: date) -> Callable[[dict], Invoice]:
    """The function :meth:`ledger.Ledger.credit` calls: a stored issue as an invoice issued on ``issued``, to the
    model's tenant it names (refused with one line when the model has no such tenant any more)."""
    seller = model.issuer

    def invoice(issue: dict) -> Invoice:
        tenant = next((t for t in model.tenants if t.name == issue["tenant"]), None)
        if tenant is None:
            raise GpudashError(f"report credit-note {number}: tenant {issue['tenant']} of the invoice is no tenant "
                               f"of the model {model.source}: a credit note carries the original's buyer")
        due = issued + timedelta(days=seller.payment_terms_days)
        return Invoice("", issue["key"], (), "", issued, due, int(issue["start"]), int(issue["end"]), issue["currency"],
                       seller, tenant, tax_of(tenant, seller), ledger.stored_lines(issue))
    return invoice


def issue(model: Model, number: str, folder: str | Path, issued: date, write: Callable[[Invoice], Path]) -> Path:
    """Issue the credit note of invoice ``number`` from the ledger in ``folder``: numbered under its lock, made and
    written by ``write`` (which returns where it went), recorded once written."""
    with ledger.Ledger(folder) as book:
        credit, pending = book.credit(number, model.issuer, rebuild(model, number, issued))
        where = write(credit)
        book.record(pending)
    return where
