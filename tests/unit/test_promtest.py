"""How the promtool runner (gpudash.ops.promtest) batches test files and reads promtool's per-file verdicts (the real
promtool runs batches in tests/integration/test_golden_suite.py)."""
from __future__ import annotations

import subprocess
from pathlib import Path

from gpudash.ops.promtest import (
    FILE_COST,
    GC_PERCENT,
    SERIES_PER_RULE_BYTE,
    _batches,
    _verdicts,
    cost,
    promtool_env,
    run_batch,
    run_file,
)

# promtool test rules a.test.yaml b.test.yaml c.test.yaml, b failing, stdout and stderr in one stream
PROMTOOL_2 = """Unit Testing:  a.test.yaml
  SUCCESS

Unit Testing:  b.test.yaml
  FAILED:
    expr: "x", time: 1m,
        exp: {__name__="x"} 2E+00
        got: {__name__="x"} 1E+00


Unit Testing:  c.test.yaml
  SUCCESS

"""
PROMTOOL_3 = "\n".join(line for line in PROMTOOL_2.splitlines() if not line.startswith("Unit Testing:"))


def test_one_verdict_per_file_in_order_on_both_versions():
    assert _verdicts(PROMTOOL_2) == _verdicts(PROMTOOL_3) == [True, False, True]
    assert _verdicts("Error: unknown flag\n") == []


def test_batches_are_balanced_by_size_and_cover_every_file(tmp_path):
    files = []
    for name, size in (("a", 900), ("b", 500), ("c", 400), ("d", 100)):
        path = tmp_path / f"{name}.test.yaml"
        path.write_text("x" * size)
        files.append(path)
    batches = _batches(files, 2)
    assert sorted(p.name for b in batches for p in b) == [p.name for p in files]
    assert sorted(sum(p.stat().st_size for p in b) for b in batches) == [900, 1000]
    assert _batches(files[:1], 4) == [[files[0]]] and _batches([], 2) == []


def test_promtool_runs_with_a_higher_gc_target_unless_the_user_tunes_go_s_gc():
    assert promtool_env({"PATH": "/bin"}) == {"PATH": "/bin", "GOGC": GC_PERCENT}
    assert promtool_env({"GOGC": "50"}) == {"GOGC": "50"}
    assert promtool_env({"GOMEMLIMIT": "1GiB"}) == {"GOMEMLIMIT": "1GiB"}


def test_every_promtool_process_gets_that_environment(tmp_path, monkeypatch):
    seen = []

    def run(cmd, **kwargs):
        seen.append(kwargs.get("env"))
        return subprocess.CompletedProcess(cmd, 0, "  SUCCESS\n", "")

    monkeypatch.delenv("GOGC", raising=False)
    monkeypatch.delenv("GOMEMLIMIT", raising=False)
    monkeypatch.setattr(subprocess, "run", run)
    path = tmp_path / "a.test.yaml"
    path.write_text("tests: []\n")
    run_batch([path])
    run_file(path)
    assert [env and env.get("GOGC") for env in seen] == [GC_PERCENT, GC_PERCENT]


def _test_file(folder, name: str, interval: int, last: int, series: int, rules: int) -> Path:
    (folder / "rules").mkdir(exist_ok=True)
    (folder / "rules" / f"{name}.yaml").write_text("x" * rules)
    inputs = "".join(f"      - series: s{{i=\"{i}\"}}\n        values: 1x{last}\n" for i in range(series))
    text = (f"rule_files:\n  - ../rules/{name}.yaml\nevaluation_interval: {interval}m\ntests:\n  - name: g\n"
            f"    interval: 1m\n    input_series:\n{inputs}    promql_expr_test:\n"
            f"      - expr: s\n        eval_time: 0m\n      - expr: s\n        eval_time: {last}m\n")
    (folder / "tests").mkdir(exist_ok=True)
    path = folder / "tests" / f"{name}.test.yaml"
    path.write_text(text)
    return path


def test_a_file_s_cost_is_its_steps_times_its_rules_and_series_not_its_size(tmp_path):
    """The example's month-long hub file (785 hourly steps of 80 kB of rules, 437 series) cost promtool 18.3 CPU s,
    its shared tier file (202 steps of 35 kB, 2,034 series, three times the text) 9.9 s."""
    month = _test_file(tmp_path, "month", 60, 784 * 60, 437, 80_000)
    tier = _test_file(tmp_path, "tier", 1, 201, 2034, 35_000)
    assert tier.stat().st_size > month.stat().st_size and cost(month) > 1.5 * cost(tier)
    assert cost(month) == 785 * (80_000 + SERIES_PER_RULE_BYTE * 437) + FILE_COST
    plain = tmp_path / "tests" / "plain.test.yaml"
    plain.write_text("x" * 700)
    assert cost(plain) == 700  # not as gpudash writes a test file: its size
