"""Parsing and linting of every generated expression with promql-parser.

promql-parser accepts a few functions newer than Prometheus 2.42; ``promtool check rules`` in the test suite
stays the server-compatibility gate. This module catches syntax and type errors at render time.
"""
from __future__ import annotations

from functools import lru_cache

import promql_parser

from gpudash.base.errors import GenerationError


def parse(expr: str, where: str) -> promql_parser.Expr:
    """The promql-parser AST of ``expr``; a GenerationError naming ``where`` when it does not parse."""
    try:
        return promql_parser.parse(expr)
    except ValueError as err:
        raise GenerationError(f"{where}: generated PromQL does not parse ({err}): {expr}") from None


_OR = " or "
_LONG_CHAIN = 20  # parts from which a chain is checked part by part (shorter ones parse quickly whole)


@lru_cache(maxsize=1024)  # a render checks about 250 distinct texts (1,000 tenants, with the mixin's probe)
def check(expr: str, where: str) -> None:
    """:func:`parse`'s check without its AST, once per distinct (``expr``, ``where``): whether a text parses depends
    on the text alone (the hub's decoded tables repeat on every model cluster); a failure raises every time
    (lru_cache keeps no exception). A long chain ``c1 or c2 or ...`` without ``#`` is checked part by part when
    every part parses alone to a function call returning an instant vector: promql-parser's time grows with the
    square of a chain's length (100 calls of the hub's tenant table 5.5 ms, 0.7 ms one by one), and such a chain
    parses: each part's quotes and parentheses close within it, so each `` or `` between them is the operator, which
    joins any two instant vectors (a part that is anything else, or fails alone, has the whole parsed; a comment
    would run past its part to the line's end, hence no ``#``)."""
    parts = expr.split(_OR)
    if len(parts) >= _LONG_CHAIN and "#" not in expr and all(_vector_call(part) for part in parts):
        return
    parse(expr, where)


def _vector_call(text: str) -> bool:
    try:
        ast = promql_parser.parse(text)
    except ValueError:
        return False
    return isinstance(ast, promql_parser.Call) and ast.func.return_type == promql_parser.ValueType.Vector


# The child expressions of each node type, in promql-parser's walk order (its __init__.pyi names the attributes).
_CHILDREN = {promql_parser.BinaryExpr: ("lhs", "rhs"), promql_parser.AggregateExpr: ("param", "expr"),
             promql_parser.UnaryExpr: ("expr",), promql_parser.ParenExpr: ("expr",),
             promql_parser.SubqueryExpr: ("expr",), promql_parser.MatrixSelector: ("vector_selector",)}


def nodes(ast: promql_parser.Expr) -> list[promql_parser.Expr]:
    """Every node of ``ast``, depth first, parents before children: what ``promql_parser.walk`` visits, without
    its cost, which grows much faster than the tree (a chain of 100 ``or`` took it 28 s, this 10 ms)."""
    out: list[promql_parser.Expr] = []
    stack = [ast]
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, promql_parser.Call):
            children = list(node.args)
        else:
            children = [getattr(node, name) for name in _CHILDREN.get(type(node), ())]
        stack.extend(c for c in reversed(children) if isinstance(c, promql_parser.Expr))
    return out


def vector_selectors(ast: promql_parser.Expr) -> list[promql_parser.VectorSelector]:
    """Every vector selector in ``ast`` (the inner selector of a range selector counts once)."""
    return [node for node in nodes(ast) if isinstance(node, promql_parser.VectorSelector)]
