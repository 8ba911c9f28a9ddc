"""The pictures in the docs (docs/img/), made by the tests from real output so they never drift.

Each picture is recorded with the SHA-256 of the text it shows (a statement's HTML, a dashboard's JSON) in
``docs/img/pictures.json``. A test renders the picture again on every run (proving the way it is made still
works) and fails when the text changed since the committed picture was made;
``GPUDASH_UPDATE_PICTURES=1 pytest -k picture e2e tests/integration`` then writes the new pictures and digests.
Pixels are not compared: browsers and fonts differ between machines, the text they show does not.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
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
