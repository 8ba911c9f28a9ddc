"""The repository's own top-level mco/ rules/ alerts/ dashboards/ ... are the rendered bundled example."""
from __future__ import annotations

from gpudash import layout
from tests.conftest import ROOT, gpudash


def test_committed_output_matches_a_fresh_render():
    result = gpudash("render", "--example", "--check", "-o", str(ROOT))
    assert result.returncode == 0, (
        "the committed rendered example drifted from the generators; run `python -m gpudash render -o .`\n"
        + result.stdout[-4000:] + result.stderr)
    for folder in (layout.MCO, layout.RULES, layout.ALERTS, layout.DASHBOARDS):
        assert (ROOT / folder).is_dir()
