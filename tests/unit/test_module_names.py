"""Module names say what a module does (issue #48 item 5): the names that meant four things each are gone.

``catalog.py`` (they made docs tables), ``queries.py`` beside the ``queries/`` layer, ``render.py`` in the operations
wing (it renders no model), and ``prune`` for the command, the pruner's deployment, its alert and its plan. ``prune``
names the command's folder (``ops/prune/``, as ``gpudash prune``) only.
"""
from __future__ import annotations

from pathlib import Path

import gpudash

PACKAGE = Path(gpudash.__file__).resolve().parent
RETIRED = {"catalog", "queries", "render", "prune", "pruner"}  # as module files: render/, queries/ are layer folders
ALLOWED = {"ops/prune"}


def misleading(root: Path) -> list[str]:
    found = [p for p in root.rglob("*") if "__pycache__" not in p.parts
             and (p.suffix == ".py" and p.stem in RETIRED or p.is_dir() and p.name in {"prune", "pruner"})]
    return sorted(name for name in (p.relative_to(root).as_posix() for p in found) if name not in ALLOWED)


def test_no_module_bears_a_name_that_meant_several_things():
    assert misleading(PACKAGE) == []


def test_the_check_sees_a_retired_name(tmp_path):
    for path in ("render/grafana/queries.py", "ops/report/render.py", "render/alerts/prune.py", "ops/prune/cli.py",
                 "queries/prune.py", "queries/prune_plan.py", "render/pruner_deployment.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("")
    assert misleading(tmp_path) == ["ops/report/render.py", "queries/prune.py", "render/alerts/prune.py",
                                    "render/grafana/queries.py"]
