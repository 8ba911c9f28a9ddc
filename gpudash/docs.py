"""Regenerate the generated tables of docs/ (``python -m gpudash.docs [REPOSITORY]``): the model's fields from
the schema, the recorded series from the registry, the alerts and the dashboard panels from the bundled example.
tests/unit/test_docs.py fails when a page holds another table than :func:`blocks` gives. A developer tool."""
from __future__ import annotations

import sys
from pathlib import Path


def blocks() -> dict[str, list[str]]:
    """{page under docs/: the generated blocks it holds}."""
    from gpudash.model import field_table as fields
    from gpudash.model import load_bundled_example
    from gpudash.model import series as names
    from gpudash.render.alerts import alert_table as alerts
    from gpudash.render.grafana import panel_tables as panels
    from gpudash.render.rules import series_tables as series

    example = load_bundled_example()
    return {"model.md": [fields.table()],
            "billing.md": [series.table(names.SPOKE), series.table(names.SPOKE_TIER), series.table(names.HUB)],
            "alerts.md": [alerts.table(example)],
            "dashboards.md": list(panels.tables(example).values())}


def main(argv: list[str] | None = None) -> int:
    from gpudash.base import doctable

    root = Path((argv or sys.argv[1:] or ["."])[0]) / "docs"
    for page, generated in blocks().items():
        path = root / page
        text = path.read_text(encoding="utf-8")
        for block in generated:
            text = doctable.replace(text, block)
        path.write_text(text, encoding="utf-8")
        print(f"gpudash: {path}: {len(generated)} generated table(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
