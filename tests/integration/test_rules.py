"""Generated rules accepted by the real promtool (``check rules`` with the duplicate-rules lint); shape, parsing and
escaping without promtool: tests/unit/test_rules.py."""
from __future__ import annotations

import subprocess

from gpudash import layout
from tests.conftest import require


def test_promtool_accepts_every_rule_file(rendered):
    require("promtool")
    files = sorted(str(p) for p in rendered.glob(f"{layout.RULES}/*.rules.yaml"))
    result = subprocess.run(["promtool", "check", "rules", "--lint=duplicate-rules", "--lint-fatal", *files],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
