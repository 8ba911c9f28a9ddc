"""``gpudash demo`` from the command line: a real Prometheus, the backfilled history and rules, the reports."""
from __future__ import annotations

import re
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

import pytest

from gpudash.demo.prometheus import Binaries, ToolMissing

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.e2e


def test_demo_prints_the_last_days_reports_and_writes_statements(tmp_path):
    try:
        Binaries.on_path()
    except ToolMissing as err:
        pytest.skip(str(err))
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "gpudash", "demo", "--no-wait", "--work-dir", str(tmp_path)],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert time.monotonic() - t0 < 60, "gpudash demo must finish in under a minute"
    out = r.stdout
    assert "from one cluster's own Prometheus (no ACM hub)" in out and "warning" not in r.stderr, r.stderr
    sections = out.split("\n\n")
    rows = [line.split() for line in sections[1].splitlines()[1:]]  # the billed lines, cost last
    totals = next(s for s in sections if s.startswith("Totals (")).splitlines()[2:]
    (total,) = [Decimal(line.split()[-1]) for line in totals if line.split()[:3] == ["TOTAL", "all", "units"]]
    assert len(rows) >= 4 and total == sum(Decimal(row[-1]) for row in rows)
    assert re.search(r"^\d{4}-\d\d-\d\dT\d\d:00:00Z\s+\d+\s+\d+$", out, re.M)  # a CCSP summary row
    statements = [Path(line.split(": ", 1)[1]) for line in out.splitlines() if line.startswith("statement: ")]
    assert statements and all(p.is_file() for p in statements)
    assert re.search(r"Explore the series: http://127\.0\.0\.1:\d+/graph", out)
