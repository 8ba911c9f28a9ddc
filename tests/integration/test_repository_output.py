"""examples/rendered/ holds the bundled example as rendered: it must match a fresh render."""
from __future__ import annotations

from gpudash.base import layout
from tests.conftest import EXAMPLE_RENDERED, gpudash


def test_committed_output_matches_a_fresh_render():
    result = gpudash("render", "--example", "--check", "-o", str(EXAMPLE_RENDERED))
    assert result.returncode == 0, (
        "the committed rendered example drifted from the generators; run "
        "`python -m gpudash render --example -o examples/rendered`\n"
        + result.stdout[-4000:] + result.stderr)
    for folder in (layout.MCO, layout.RULES, layout.ALERTS, layout.DASHBOARDS):
        assert (EXAMPLE_RENDERED / folder).is_dir()
