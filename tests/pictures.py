"""The pictures in the docs (docs/img/), made by the tests from real output so they never drift.

Each picture is recorded with the SHA-256 of the text it shows (a statement's HTML, a dashboard's JSON) in
``docs/img/pictures.json``. A test renders the picture again on every run (proving the way it is made still
works) and fails when the text changed since the committed picture was made;
``GPUDASH_UPDATE_PICTURES=1 pytest -k picture e2e tests/integration`` then writes the new pictures and digests.
Pixels are not compared: browsers and fonts differ between machines, the text they show does not.
"""
from __future__ import annotations

import hashlib
import html
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PICTURES = ROOT / "docs" / "img"
DIGESTS = PICTURES / "pictures.json"
UPDATE_ENV = "GPUDASH_UPDATE_PICTURES"


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.skip("chromium is not installed: no picture")
    return found


def screenshot(page: Path, png: Path, width: int, height: int) -> None:
    """``page`` as a ``width`` x ``height`` PNG, by headless Chromium."""
    from gpudash.ops.report.pdf import headless

    chromium()
    subprocess.run([*headless(png.parent / "chromium-profile"), "--hide-scrollbars", f"--window-size={width},{height}",
                    f"--screenshot={png}", page.as_uri()], capture_output=True, timeout=120, check=False)
    assert png.is_file() and png.read_bytes().startswith(b"\x89PNG"), f"chromium made no picture of {page}"


def pdf_page(pdf: Path, png: Path, dpi: int = 70) -> None:
    """The first page of ``pdf`` as a PNG (poppler's pdftoppm)."""
    if not shutil.which("pdftoppm"):
        pytest.skip("poppler-utils is not installed: no picture of the PDF")
    subprocess.run(["pdftoppm", "-png", "-r", str(dpi), "-f", "1", "-l", "1", "-singlefile", str(pdf),
                    str(png.with_suffix(""))], check=True, capture_output=True, timeout=60)
    assert png.is_file() and png.read_bytes().startswith(b"\x89PNG")


def in_sync(name: str, source: str, made: Path, extra: dict[str, Path] | None = None) -> None:
    """Assert docs/img/``name`` shows ``source``; with $GPUDASH_UPDATE_PICTURES, copy ``made`` (and ``extra``:
    docs name -> file, e.g. the PDF the picture is a page of) there and record the digest instead."""
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    recorded = json.loads(DIGESTS.read_text(encoding="utf-8")) if DIGESTS.is_file() else {}
    if os.environ.get(UPDATE_ENV):
        PICTURES.mkdir(parents=True, exist_ok=True)
        for target, path in {name: made, **(extra or {})}.items():
            shutil.copyfile(path, PICTURES / target)
        recorded[name] = digest
        DIGESTS.write_text(json.dumps(recorded, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        return
    assert (PICTURES / name).is_file() and recorded.get(name) == digest, (
        f"docs/img/{name} no longer shows what gpudash makes: {UPDATE_ENV}=1 pytest -k picture e2e tests/integration")


def dashboard_preview(board: dict, title_of: Callable[[dict], str] = lambda p: p.get("title", "")) -> str:
    """A self-contained HTML page drawing ``board``'s panels where Grafana puts them (``gridPos``: 24 columns,
    30 px rows), each with its title, kind and first query: the layout a user sees, without data (no Grafana
    can run here)."""
    cell, row = 50, 30
    boxes = []
    for panel in board.get("panels", []):
        pos = panel.get("gridPos", {})
        x, y, w, h = (pos.get(k, 0) for k in ("x", "y", "w", "h"))
        kind = panel.get("type", "")
        expr = next((t.get("expr", "") for t in panel.get("targets", []) if t.get("expr")), "")
        style = f"left:{x * cell}px;top:{y * row}px;width:{w * cell - 6}px;height:{h * row - 6}px"
        if kind == "row":
            boxes.append(f'<div class="row" style="{style}">{html.escape(title_of(panel))}</div>')
            continue
        boxes.append(f'<div class="panel" style="{style}"><b>{html.escape(title_of(panel))}</b>'
                     f'<i>{html.escape(kind)}</i><code>{html.escape(expr)}</code></div>')
    height = max((p.get("gridPos", {}).get("y", 0) + p.get("gridPos", {}).get("h", 0)
                  for p in board.get("panels", [])), default=0) * row
    return f"""<!doctype html><meta charset="utf-8"><title>{html.escape(board.get("title", ""))}</title>
<style>
body{{margin:0;background:#111217;color:#ccccdc;font:13px sans-serif}}
h1{{font-size:16px;margin:10px 12px}}
.grid{{position:relative;margin:0 6px;height:{height}px}}
.row{{position:absolute;font-weight:bold;border-bottom:1px solid #333;padding-top:6px}}
.panel{{position:absolute;background:#181b1f;border:1px solid #2a2d33;border-radius:3px;padding:6px;overflow:hidden;
box-sizing:border-box}}
.panel b{{display:block}} .panel i{{color:#8e8e8e;font-size:11px}}
.panel code{{display:block;color:#6e9fff;font-size:10px;margin-top:4px;word-break:break-all}}
</style><h1>{html.escape(board.get("title", ""))} (layout preview)</h1><div class="grid">{"".join(boxes)}</div>
"""
