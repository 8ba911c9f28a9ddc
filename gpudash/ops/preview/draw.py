"""The model's dashboards (provider, CCSP, each tenant's) evaluated and written as ``<uid>.html`` and ``<uid>.png``.

The PNG is the page as headless Chromium shows it (the page draws itself with uPlot): the browser the statements'
PDFs are printed with (:func:`gpudash.ops.report.pdf.headless`), with a profile folder of its own that is removed.
"""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from gpudash.base.errors import GpudashError
from gpudash.ops.preview import evaluate, page

WIDTH = 1400  # px: a 24-column grid of about 58 px
BROWSERS_AT_ONCE = 3


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


def screenshot(html_file: Path, png: Path, height: int, timeout: float = 120) -> None:
    """``html_file`` as a ``WIDTH`` x ``height`` PNG, by headless Chromium."""
    from gpudash.ops.report.pdf import headless

    with tempfile.TemporaryDirectory(prefix="gpudash-preview-") as tmp:
        cmd = [*headless(Path(tmp) / "profile"), "--hide-scrollbars", f"--window-size={WIDTH},{height}",
               f"--screenshot={png}", html_file.resolve().as_uri()]
        try:
            subprocess.run(cmd, capture_output=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise GpudashError(f"{cmd[0]} drew no picture of {html_file} within {timeout:g}s") from None
    if not png.is_file() or not png.read_bytes().startswith(b"\x89PNG"):
        raise GpudashError(f"{cmd[0]} drew no picture of {html_file}")


def draw(client, model, out: Path, now: float, png: bool = True,
         tenant_mode: str | None = None) -> list[tuple[Path, list[str]]]:
    """Write every dashboard's page (and picture) into ``out``; [(page, its problems)] in dashboard order. The
    pictures are taken a few browsers at a time: each mostly waits for its own start-up."""
    from concurrent.futures import ThreadPoolExecutor

    client.query("vector(1)", now)  # an unreachable server stops here, in one line, before any file is written
    out.mkdir(parents=True, exist_ok=True)
    written, heights = [], []
    for board, viewer in boards(model, tenant_mode):
        data = evaluate.dashboard_data(client, board, viewer, now)
        html_file = out / f"{data['uid']}.html"
        html_file.write_text(page.page(data), encoding="utf-8")
        written.append((html_file, evaluate.problems(data)))
        heights.append(page.height(data))
    if png:
        with ThreadPoolExecutor(max_workers=BROWSERS_AT_ONCE) as pool:
            list(pool.map(lambda job: screenshot(job[0][0], job[0][0].with_suffix(".png"), job[1]),
                          zip(written, heights)))
    return written
