"""The dashboard pictures of the docs (docs/img/*-dashboard.png): layout previews of the bundled example's
rendered dashboards, made by headless Chromium; tests/pictures.py says how they are kept in sync."""
from __future__ import annotations

import json

import pytest

from tests import pictures
from tests.pictures import ROOT

RENDERED = ROOT / "examples" / "rendered"


@pytest.mark.parametrize(("board", "picture"), [("gpudash-provider.json", "provider-dashboard.png"),
                                                ("gpudash-tenant-team-a.json", "tenant-dashboard.png")])
def test_dashboard_picture_in_the_docs(board, picture, tmp_path):
    from gpudash.base import layout

    text = (RENDERED / layout.DASHBOARDS / board).read_text(encoding="utf-8")
    page = tmp_path / "preview.html"
    page.write_text(pictures.dashboard_preview(json.loads(text)), encoding="utf-8")
    png = tmp_path / picture
    pictures.screenshot(page, png, 1250, 1100)
    pictures.in_sync(picture, text, png)
