"""Parsing and linting of every generated expression with promql-parser.

promql-parser accepts a few functions newer than Prometheus 2.42; ``promtool check rules`` in the test suite
stays the server-compatibility gate. This module catches syntax and type errors at render time.
"""
from __future__ import annotations

import promql_parser

from gpudash.base.errors import GenerationError


def parse(expr: str, where: str) -> promql_parser.Expr:
    """The promql-parser AST of ``expr``; a GenerationError naming ``where`` when it does not parse."""
    try:
        return promql_parser.parse(expr)
    except ValueError as err:
        raise GenerationError(f"{where}: generated PromQL does not parse ({err}): {expr}") from None


def vector_selectors(ast: promql_parser.Expr) -> list[promql_parser.VectorSelector]:
    """Every vector selector in ``ast`` (the inner selector of a range selector counts once)."""
    found: list[promql_parser.VectorSelector] = []

    def visit(node: promql_parser.Expr) -> bool:
        if isinstance(node, promql_parser.VectorSelector):
            found.append(node)
        return True

    promql_parser.walk(ast, pre_visit=visit)
    return found
