"""Docs state no count of tests or scenarios: no test would keep such a number true (#48 item 6), and the
numbers had drifted (519 unit tests and 30 scenarios, when there were 725 and 52)."""
from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT

PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
COUNT = re.compile(r"\b\d[\d,]* (?:unit |golden |integration |promtool )?(?:tests|scenarios)\b")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_page_counts_tests_or_scenarios(page):
    found = [f"{page.name}:{n}: {m[0]}" for n, line in enumerate(page.read_text().splitlines(), 1)
             for m in COUNT.finditer(line)]
    assert not found, found
