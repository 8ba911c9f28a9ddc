"""Statements as PDF: the HTML printed by headless Chromium, without the browser's header and footer lines.

Chromium's headless switches ``--print-to-pdf`` and ``--no-pdf-header-footer`` are defined in chromium's
components/headless/command_handler/headless_command_switches.cc (the latter sets the DevTools print option
``noHeaderFooter``); page size and margins come from the statement's own ``@page`` rule.
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from gpudash.base.errors import GpudashError

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def browser() -> str:
    found = next((p for p in map(shutil.which, BROWSERS) if p), None)
    if not found:
        raise GpudashError(f"--format pdf prints through headless Chromium: install one of {', '.join(BROWSERS)}, "
                           "or use --format html and print it without headers and footers")
    return found


def headless(profile: Path) -> list[str]:
    """The browser started headless with its own profile folder, nothing fetched: the command every print and
    picture of a statement starts with (the tests' too)."""
    return [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--no-first-run", f"--user-data-dir={profile}"]


def to_pdf(html: str, timeout: float = 120) -> bytes:
    """The PDF of ``html`` (self-contained: it loads nothing)."""
    with tempfile.TemporaryDirectory(prefix="gpudash-pdf-") as tmp:
        page, pdf = Path(tmp) / "statement.html", Path(tmp) / "statement.pdf"
        page.write_text(html, encoding="utf-8")
        cmd = [*headless(Path(tmp) / "profile"), "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri()]
        exe = cmd[0]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise GpudashError(f"{exe} did not print the statement within {timeout:g}s") from None
        if not pdf.is_file() or not pdf.read_bytes().startswith(b"%PDF"):
            tail = " ".join(done.stderr.split())[-200:]
            raise GpudashError(f"{exe} printed no PDF (exit {done.returncode}): {tail}")
        return pdf.read_bytes()
