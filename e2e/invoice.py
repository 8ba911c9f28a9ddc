"""The invoice checks of a printed statement, on the text poppler's ``pdftotext -layout`` extracts from the PDF:
every charge line's quantity x unit price is its amount to the currency's minor unit, and the total is the sum
of the amounts printed."""
from __future__ import annotations

import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from gpudash.report import common

# quantity (6 decimals), its unit (... hours, or kWh for energy), unit price, amount: the right-hand end of a
# charge line
CHARGE = re.compile(r"(\d[\d,]*\.\d{6})\s+(\S.*?-hours|kWh)\s+([\d,]+(?:\.\d+)?)\s+([\d,]+(?:\.\d+)?)\s*$")
TOTAL = re.compile(r"^\s*Total\s+([\d,]+(?:\.\d+)?)\s*$")


def pdf_text(pdf: Path) -> str:
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils' pdftotext is not installed: the PDF's text cannot be checked")
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


def _d(text: str) -> Decimal:
    return Decimal(text.replace(",", ""))


def check(text: str, currency: str) -> tuple[list[tuple[Decimal, Decimal, Decimal]], Decimal]:
    """(charge lines as (quantity, unit price, amount), total) after asserting the invoice arithmetic."""
    lines = [tuple(_d(m[i]) for i in (1, 3, 4)) for m in map(CHARGE.search, text.splitlines()) if m]
    totals = [_d(m[1]) for m in map(TOTAL.match, text.splitlines()) if m]
    assert lines and len(totals) == 1, text
    for quantity, price, amount in lines:
        assert common.money(quantity * price, currency) == amount, (quantity, price, amount)
    assert totals[0] == sum((a for _, _, a in lines), Decimal(0)), (totals, lines)
    return lines, totals[0]
