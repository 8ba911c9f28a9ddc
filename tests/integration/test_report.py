"""Reports through the command line (``python -m gpudash report``) and the PDF statement printed by headless
Chromium; everything else without a server or a process: tests/unit/test_report.py. Against a real Prometheus:
e2e/test_reports.py."""
from __future__ import annotations

import re
import subprocess
from decimal import Decimal

import pytest

from tests.conftest import gpudash
from tests.unit.test_report import billing_report, statements


def test_report_is_a_registered_command():
    r = gpudash("--help")
    assert r.returncode == 0 and "report" in r.stdout
    r = gpudash("report", "idle", "--help")
    assert r.returncode == 0 and "--window" in r.stdout and "--namespace REGEX" in r.stdout


def test_off_the_hour_period_fails_before_any_query():
    r = gpudash("report", "billing", "--example", "--prometheus-url", "http://127.0.0.1:9",
                "--start", "2026-01-01T00:15:00Z",
                "--end", "2026-01-02T00:00:00Z")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("gpudash: --start 2026-01-01T00:15:00Z is not on a whole UTC hour")


def test_unknown_tenant_is_one_line():
    r = gpudash("report", "billing", "--example", "--prometheus-url", "http://127.0.0.1:9",
                "--start", "2026-01-01T00:00:00Z",
                "--end", "2026-01-02T00:00:00Z", "--tenant", "nobody")
    assert r.returncode == 2 and "--tenant 'nobody' is not a tenant of the model" in r.stderr
    assert len(r.stderr.splitlines()) == 1


def test_statement_pdf_is_an_invoice(tmp_path):
    """Printed by headless Chromium (--format pdf's path), read back with pdftotext: the arithmetic holds."""
    from e2e import invoice
    from gpudash.ops.report import pdf

    try:
        pdf.browser()
    except Exception:
        pytest.skip("no Chromium: the statement was not printed")
    (_, html), = [s for s in statements(billing_report(), tmp_path) if "team-a" in s[0].name]
    path = tmp_path / "statement.pdf"
    path.write_bytes(pdf.to_pdf(html))
    text = invoice.pdf_text(path)
    lines, total = invoice.check(text, "USD")
    assert [a for _, _, a in lines] == [Decimal("38.40"), Decimal("6.23")] and total == Decimal("44.63")
    assert "Invoice no." in text and "Example GPU Cloud Ltd." in text and "file://" not in text  # no header/footer
    # one page when the lines fit (issue 46 item 4: page 2 held only the budget, the notes and the footer)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Pages:\s+1$", info, re.M), info
    assert "Budget" in text and "have no price yet" in text and "rounded once" in text  # all of it on that page
