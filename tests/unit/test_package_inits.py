"""Every ``__init__.py`` under gpudash only exports (issue #48: "keep __init__.py files to exports"): a docstring,
imports, ``__all__`` and plain aliases (``artifacts = emit_tests``). A package's logic lives in a module named for
what it does, so a newcomer finds it by its name."""
from __future__ import annotations

import ast
from pathlib import Path

import gpudash

PACKAGE = Path(gpudash.__file__).resolve().parent


def _only_exports(statement: ast.stmt) -> bool:
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return True
    if isinstance(statement, ast.Expr):
        return isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, str)
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target, value = statement.targets[0], statement.value
        return isinstance(target, ast.Name) and (isinstance(value, ast.Name) or target.id == "__all__")
    return False


def logic_in_inits(root: Path) -> list[str]:
    """``path:line`` of every statement in an ``__init__.py`` under ``root`` that is more than an export."""
    bad = []
    for path in sorted(root.rglob("__init__.py")):
        bad += [f"{path.relative_to(root.parent)}:{s.lineno}" for s in ast.parse(path.read_text()).body
                if not _only_exports(s)]
    return bad


def test_every_init_only_exports():
    assert not logic_in_inits(PACKAGE), "move this logic into a module named for what it does:\n" + \
        "\n".join(logic_in_inits(PACKAGE))


def test_the_check_sees_logic(tmp_path):
    """It can fail: a function, a constant or a loop in an __init__.py is reported; exports are not."""
    package = tmp_path / "gpudash"
    (package / "ok").mkdir(parents=True)
    (package / "ok" / "__init__.py").write_text('"""doc"""\nfrom a import b\nc = b\n__all__ = ["b", "c"]\n')
    (package / "__init__.py").write_text('"""doc"""\nLIMIT = 3\n\n\ndef f():\n    pass\n')
    assert logic_in_inits(package) == ["gpudash/__init__.py:2", "gpudash/__init__.py:5"]
