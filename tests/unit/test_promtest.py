"""How the promtool runner (gpudash.ops.promtest) batches test files and reads promtool's per-file verdicts (the real
promtool runs batches in tests/integration/test_golden_suite.py)."""
from __future__ import annotations

from gpudash.ops.promtest import _batches, _verdicts

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
