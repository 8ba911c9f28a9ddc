"""The model's dashboards (provider, CCSP, each tenant's) evaluated and written as ``<uid>.html`` and ``<uid>.png``.

The PNG is the page as headless Chromium shows it (the page draws itself with uPlot): the browser the statements'
PDFs are printed with (:func:`gpudash.ops.report.pdf.headless`), with a profile folder of its own that is removed.
"""
from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from gpudash.base.errors import GpudashError
from gpudash.ops.preview import evaluate, page

WIDTH = 1400  # px: a 24-column grid of about 58 px
BROWSERS_AT_ONCE = 3
SHORT_TMP = "/tmp"


def boards(model, tenant_mode: str | None = None) -> list[tuple[dict, evaluate.Viewer]]:
    """Every dashboard a render writes for ``model``, each with who looks at it: a tenant through its datasource's
    proxy (``tenant_mode``, default the model's ``grafana.tenant_datasource.mode``)."""
    from gpudash.render import grafana

    provider, tenants = grafana.rendered(model)
    clusters = tuple(model.clusters)
    out = [(board, evaluate.Viewer()) for board in provider.values()]
    for tenant in model.tenants:
        viewer = evaluate.Viewer(tenant.namespace, tenant.clusters or clusters,
                                 tenant_mode or model.grafana.tenant_datasource.mode)
        out.extend((board, viewer) for board in tenants.get(tenant.name, {}).values())
    return out


def have_browser() -> bool:
    """Whether a Chromium is on PATH to draw the pictures with."""
    import shutil

    from gpudash.ops.report.pdf import BROWSERS

    return any(map(shutil.which, BROWSERS))


def screenshot(html_file: Path, png: Path, height: int, timeout: float = 120) -> None:
    """``html_file`` as a ``WIDTH`` x ``height`` PNG, by headless Chromium. Its profile and temp files go to a
    folder of their own under ``/tmp``: under a long ``$TMPDIR`` (a test's) Chromium's zygote fails to start
    (``zygote_linux.cc: write: Broken pipe``, measured here) and draws nothing."""
    from gpudash.ops.report.pdf import headless

    short = SHORT_TMP if Path(SHORT_TMP).is_dir() else None
    with tempfile.TemporaryDirectory(prefix="gpudash-preview-", dir=short) as tmp:
        cmd = [*headless(Path(tmp) / "profile"), "--hide-scrollbars", f"--window-size={WIDTH},{height}",
               f"--screenshot={png.resolve()}", html_file.resolve().as_uri()]
        try:
            subprocess.run(cmd, capture_output=True, timeout=timeout, check=False, env={**os.environ, "TMPDIR": tmp})
        except subprocess.TimeoutExpired:
            raise GpudashError(f"{cmd[0]} drew no picture of {html_file} within {timeout:g}s") from None
    if not png.is_file() or not png.read_bytes().startswith(b"\x89PNG"):
        raise GpudashError(f"{cmd[0]} drew no picture of {html_file}")


def pages(client, model, out: Path, now: float, tenant_mode: str | None = None) -> list[tuple[Path, list[str], int]]:
    """Write every dashboard's page into ``out``: [(page, its problems, its height in px)] in dashboard order."""
    client.query("vector(1)", now)  # an unreachable server stops here, in one line, before any file is written
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for board, viewer in boards(model, tenant_mode):
        data = evaluate.dashboard_data(client, board, viewer, now)
        html_file = out / f"{data['uid']}.html"
        html_file.write_text(page.page(data), encoding="utf-8")
        written.append((html_file, evaluate.problems(data), page.height(data)))
    return written


def pictures(written: list[tuple[Path, list[str], int]]) -> None:
    """A ``<uid>.png`` beside each page, a few browsers at a time: each mostly waits for its own start-up."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=BROWSERS_AT_ONCE) as pool:
        list(pool.map(lambda w: screenshot(w[0], w[0].with_suffix(".png"), w[2]), written))


def draw(client, model, out: Path, now: float, png: bool = True,
         tenant_mode: str | None = None) -> list[tuple[Path, list[str]]]:
    """Every dashboard's page and picture in ``out``; [(page, its problems)] in dashboard order."""
    written = pages(client, model, out, now, tenant_mode)
    if png:
        pictures(written)
    return [(path, problems) for path, problems, _ in written]
