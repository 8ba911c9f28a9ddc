"""The report formats, one registry: each format's name, the reports that offer it, its writer and its ``--help``.

A stdout format has a writer per report it serves (``report billing|nodes|idle``); a statement format writes one file
per tenant into ``--output-dir`` with a suffix of its own (so a pdf and a facturx run into one folder keep both), and
``report credit-note`` offers the statement formats that can carry a credit note. An e-invoice format has a check
that refuses an invoice it cannot carry before anything is written (and drafts are refused: a draft is no invoice).
The parser's ``--format`` choices and the dispatch in :mod:`gpudash.ops.report.cli` are both read from here. The
writers' modules load jinja2, Chromium's driver and the XML libraries: they are imported when a format is written.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

BILLING, NODES, IDLE, CREDIT_NOTE = "billing", "nodes", "idle", "credit-note"
STDOUT_REPORTS = (BILLING, NODES, IDLE)


def presentation():
    """The tables, CSV, JSON and HTML statements' module (it loads jinja2, the report extra)."""
    from gpudash.ops.report import presentation

    return presentation


def _json(report, args, model) -> str:
    return presentation().dumps(report.to_json())


def _focus(report, args, model) -> str:
    from gpudash.ops.report import focus

    return focus.focus_csv(report, model)


def _html(report, inv) -> bytes:
    return presentation().statement_html(report, inv).encode()


def _pdf(report, inv) -> bytes:
    from gpudash.ops.report import pdf

    return pdf.to_pdf(presentation().statement_html(report, inv))


def _facturx(report, inv) -> bytes:
    from gpudash.ops.report import einvoice

    return einvoice.facturx_pdf(_pdf(report, inv), inv)


def _cii(report, inv) -> bytes:
    from gpudash.ops.report import einvoice

    return einvoice.cii_xml(inv)


def _cii_check(inv) -> None:
    from gpudash.ops.report import einvoice

    einvoice.check(inv)


def _ubl(report, inv) -> bytes:
    from gpudash.ops.report import ubl

    return ubl.ubl_xml(inv)


def _ubl_check(inv) -> None:
    from gpudash.ops.report import ubl

    ubl.check(inv)


@dataclass(frozen=True)
class Format:
    name: str
    help: str
    # report -> writer(report, args, model) of the text printed on stdout
    stdout: Mapping[str, Callable[[Any, Any, Any], str]] = field(default_factory=dict)
    statement: Callable[[Any, Any], bytes] | None = None  # writer(billing report or None, invoice) of one file
    suffix: str = ""  # a statement's file suffix
    check: Callable[[Any], None] | None = None  # an e-invoice's: raises when the invoice cannot be carried
    credit_note: bool = False  # report credit-note writes its credit note in it

    @property
    def reports(self) -> tuple[str, ...]:
        return (*self.stdout, *((BILLING,) if self.statement else ()), *((CREDIT_NOTE,) if self.credit_note else ()))


FORMATS = (
    Format("table", "an aligned table on stdout",
           {BILLING: lambda r, a, m: presentation().billing_table(r),
            NODES: lambda r, a, m: presentation().nodes_table(r),
            IDLE: lambda r, a, m: presentation().idle_table(r)}),
    Format("csv", "CSV on stdout",
           {BILLING: lambda r, a, m: presentation().billing_csv(r),
            NODES: lambda r, a, m: presentation().nodes_csv(r, a.summary),
            IDLE: lambda r, a, m: presentation().idle_csv(r)}),
    Format("json", "a JSON document on stdout, warnings included", {BILLING: _json, NODES: _json, IDLE: _json}),
    Format("focus", "a FOCUS 1.2 cost and usage CSV on stdout", {BILLING: _focus}),
    Format("html", "one HTML statement per tenant", statement=_html, suffix=".html"),
    Format("pdf", "the HTML statement printed through headless Chromium, without browser headers and footers",
           statement=_pdf, suffix=".pdf"),
    Format("xml", "each final statement as an EN 16931 e-invoice (CII XML)", statement=_cii, suffix=".xml",
           check=_cii_check, credit_note=True),
    Format("facturx", "the pdf with that XML embedded (Factur-X)", statement=_facturx, suffix=".facturx.pdf",
           check=_cii_check),
    Format("ubl", "each final statement as a UBL 2.1 Peppol BIS Billing 3.0 invoice", statement=_ubl,
           suffix=".ubl.xml", check=_ubl_check, credit_note=True),
)
BY_NAME = {f.name: f for f in FORMATS}


def offered(report: str) -> tuple[str, ...]:
    """The ``--format`` choices of ``report``, in the registry's order."""
    return tuple(f.name for f in FORMATS if report in f.reports)


def help_text(report: str) -> str:
    """The ``--format`` help of ``report``: each choice with what it writes."""
    return "; ".join(f"{BY_NAME[name].name}: {BY_NAME[name].help}" for name in offered(report))
