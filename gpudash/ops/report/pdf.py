"""Statements as PDF: the HTML printed by headless Chromium, without the browser's header and footer lines.

Chromium's headless switches ``--print-to-pdf`` and ``--no-pdf-header-footer`` are defined in chromium's
components/headless/command_handler/headless_command_switches.cc (the latter sets the DevTools print option
``noHeaderFooter``); page size and margins come from the statement's own ``@page`` rule.

A character no installed font has a glyph for is printed as an empty box or left out, and a name or address on
the invoice would read differently from its XML: such a statement is refused before printing. On Linux Chromium
draws a character with a fontconfig font whose charset has it (chromium/chromium ui/gfx/font_fallback_linux.cc
GetFallbackFontForChar: FcFontSort, then FcCharSetHasChar); ``fc-list --format '%{charset}'`` lists those charsets.
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


def _font_ranges() -> list[tuple[int, int]]:
    """The code point ranges some installed font draws (fontconfig's charsets, hexadecimal ``lo-hi`` or ``c``)."""
    fc = shutil.which("fc-list")
    if not fc:
        raise GpudashError("--format pdf checks that the installed fonts draw every character of the statement with "
                           "fontconfig's fc-list: install fontconfig, or use --format html")
    out = subprocess.run([fc, "--format", "%{charset}\n"], capture_output=True, text=True, timeout=60).stdout
    return [(int(lo, 16), int(hi or lo, 16)) for lo, _, hi in (r.partition("-") for r in out.split())]


def undrawn(html: str) -> list[str]:
    """The characters of ``html``'s text no installed font draws (ASCII is taken as drawn)."""
    import lxml.html  # type: ignore[import-untyped]  # lxml ships no types

    wanted = {c for c in lxml.html.document_fromstring(html).text_content() if ord(c) > 0x7E and not c.isspace()}
    ranges = _font_ranges() if wanted else []
    return sorted(c for c in wanted if not any(lo <= ord(c) <= hi for lo, hi in ranges))


def to_pdf(html: str, timeout: float = 120) -> bytes:
    """The PDF of ``html`` (self-contained: it loads nothing); refused when a character of it has no font."""
    missing = undrawn(html)
    if missing:
        shown = ", ".join(f"U+{ord(c):04X}" for c in missing[:5]) + (", ..." if len(missing) > 5 else "")
        raise GpudashError(f"the statement holds characters no installed font draws ({shown}): the PDF would show "
                           "them as boxes or not at all; install a font that has them, or use --format html")
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
