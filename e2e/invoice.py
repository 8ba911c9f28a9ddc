"""The invoice checks of a printed statement, on the text poppler's ``pdftotext -layout`` extracts from the PDF
(docs/billing-contract.md section 11): the subtotal is the sum of the amounts printed, the total due is the
subtotal plus the tax printed, the tax is the subtotal times the rate printed (rounded once), and each charge
line's quantity x unit price is its amount within the rounding of the quantity shown."""
from __future__ import annotations

import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from gpudash.ops.report import common

# quantity, its unit (... hours, or kWh for energy), unit price, amount: the right-hand end of a charge line
NUMBER = r"([\d,]+(?:\.\d+)?)"
CHARGE = re.compile(rf"(?<!\S){NUMBER}\s{{2,}}(\S.*?-hours|kWh)\s{{2,}}{NUMBER}\s{{2,}}{NUMBER}\s*$")
SUBTOTAL = re.compile(rf"^\s*Subtotal\s+{NUMBER}\s*$")
# the tax line as statement.html.j2 prints each VAT category: "<label> <rate> %" (S), "<label> 0 % (zero rated)" (Z),
# "<label> not charged: <reason> (<VATEX>)" (E, AE, K, G, O)
TAX = re.compile(rf"^\s*(?:(\S.*?) ([\d.]+) %(?: \(zero rated\))?|\S.*? not charged: .*?)\s+{NUMBER}\s*$")
TOTAL = re.compile(rf"^\s*Total due\s+{NUMBER}\s*$")


def pdf_text(pdf: Path) -> str:
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils' pdftotext is not installed: the PDF's text cannot be checked")
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


def _d(text: str) -> Decimal:
    return Decimal(text.replace(",", ""))


def _one(pattern: re.Pattern, text: str) -> re.Match:
    found = [m for m in map(pattern.match, text.splitlines()) if m]
    assert len(found) == 1, (pattern.pattern, text)
    return found[0]


def check(text: str, currency: str) -> tuple[list[tuple[Decimal, Decimal, Decimal]], Decimal]:
    """(charge lines as (quantity, unit price, amount), total due) after asserting the invoice arithmetic."""
    lines = [tuple(_d(m[i]) for i in (1, 3, 4)) for m in map(CHARGE.search, text.splitlines()) if m]
    assert lines, text
    minor = Decimal(1).scaleb(-common.money_digits(currency))
    for quantity, price, amount in lines:
        shown = Decimal(1).scaleb(quantity.as_tuple().exponent)  # one unit of the quantity's last digit shown
        assert abs(quantity * price - amount) <= price * shown / 2 + minor / 2, (quantity, price, amount)
    subtotal, tax, total = _d(_one(SUBTOTAL, text)[1]), _one(TAX, text), _d(_one(TOTAL, text)[1])
    assert subtotal == sum((a for _, _, a in lines), Decimal(0)), (subtotal, lines)
    rate = Decimal(tax[2]) if tax[2] else Decimal(0)
    assert _d(tax[3]) == common.money(subtotal * rate / 100, currency), (tax[0], subtotal)
    assert total == subtotal + _d(tax[3]), (total, subtotal, tax[0])
    return lines, total
