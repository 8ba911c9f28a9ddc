"""#33's size rule, read from the source: no function in the package over MAX_FUNCTION_LINES lines, and no module
over MAX_MODULE_LINES lines unless its docstring has a line starting with SIZE_REASON that says why."""
from __future__ import annotations

import ast
from pathlib import Path

import gpudash

PACKAGE = Path(gpudash.__file__).resolve().parent
MAX_FUNCTION_LINES = 80
MAX_MODULE_LINES = 500
SIZE_REASON = "Size:"


def oversized(source: str) -> list[str]:
    """What in ``source`` (one module's text) breaks the size rule, one line each."""
    tree = ast.parse(source)
    found = []
    lines = len(source.splitlines())
    doc = ast.get_docstring(tree) or ""
    if lines > MAX_MODULE_LINES and not any(line.startswith(SIZE_REASON) for line in doc.splitlines()):
        found.append(f"{lines} lines, and no {SIZE_REASON!r} line in the module docstring says why")
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append(f"{node.name}() at line {node.lineno}: {length} lines")
    return found


def test_no_long_function_and_no_long_module_without_a_reason():
    found = [f"{path.relative_to(PACKAGE.parent)}: {what}" for path in sorted(PACKAGE.rglob("*.py"))
             for what in oversized(path.read_text())]
    assert not found, "\n".join(found)


def test_the_rule_sees_a_long_function_and_a_long_module():
    """The check above can fail: a long function, and a long module whose docstring gives no reason."""
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    assert oversized(f"def f():\n{body}\n") == [f"f() at line 1: {MAX_FUNCTION_LINES + 1} lines"]
    filler = "\n" * MAX_MODULE_LINES
    assert oversized(f'"""A module."""\n{filler}') and not oversized(f'"""A module.\n\n{SIZE_REASON} why."""\n{filler}')
