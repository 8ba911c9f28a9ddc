"""The ledger under concurrent ``report billing --final`` runs: forked processes, so not a unit test (the unit
suite refuses process creation: tests/unit/conftest.py)."""
from __future__ import annotations

import json
import multiprocessing
import re
from dataclasses import replace

from gpudash.model.types import Tax
from gpudash.ops.report import cli as report_cli
from tests.unit.test_invoice import model
from tests.unit.test_ledger import KEY, SERIES, _args, _history
from tests.unit.test_report import billing_report

RUNS = 8  # concurrent --final runs, each with other figures for team-a
HISTORY = 3000  # issues already recorded: a long history widens a read-modify-write race


def _issue_with_other_figures(folder, k: int, start) -> None:
    report = billing_report()
    report.lines[0] = replace(report.lines[0], cost=38.4 + k)  # team-a's first line: another total per run
    start.wait()
    report_cli._write_statements(report, model(tax=Tax("VAT", 19)), _args(folder))


def test_concurrent_final_runs_never_assign_one_number(tmp_path):
    (tmp_path / "ledger").mkdir()
    (tmp_path / "ledger" / f"{SERIES}.json").write_text(json.dumps(_history(HISTORY), indent=2))
    ctx = multiprocessing.get_context("fork")
    start = ctx.Barrier(RUNS)
    runs = [ctx.Process(target=_issue_with_other_figures, args=(tmp_path, k, start)) for k in range(RUNS)]
    for p in runs:
        p.start()
    for p in runs:
        p.join(120)
    assert [p.exitcode for p in runs] == [0] * RUNS
    numbers = [re.search(r"Invoice no\. <strong>([^<]+)<", f.read_text()).group(1)
               for f in tmp_path.glob("out-*/*team-a*.html")]
    assert len(numbers) == RUNS and len(set(numbers)) == RUNS, numbers  # one number per issue
    issued = json.loads((tmp_path / "ledger" / f"{SERIES}.json").read_text())
    mine = [e["number"] for e in issued[HISTORY:] if e["key"] == KEY]
    assert len(issued) == HISTORY + RUNS + 1 and sorted(numbers) == sorted(mine)  # + research's, the same each run
    assert [e["number"] for e in issued] == [f"GPU-{i:06d}" for i in range(1, len(issued) + 1)]  # without gaps
