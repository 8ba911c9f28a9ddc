"""``gpudash.promql.lint.nodes``: every node promql-parser's own ``walk`` visits, in its order, and the ``@``
modifier check of the e2e harness built on it."""
from __future__ import annotations

import promql_parser as pp
import pytest

from gpudash.ops.demo.prometheus import has_at_modifier
from gpudash.promql.lint import nodes, vector_selectors

# every node type of promql-parser's __init__.pyi, nested in each other
EXPRS = [
    '-sum by (a) (rate(x{b="c"}[5m] offset 1m)) > bool on (a) group_left (d) topk(3, y)',
    'count_values("v", label_replace(z, "l", "$1", "m", "(.*)")) or (max_over_time((x + 1)[1h:1m] offset 1ms))',
    'quantile(0.5, last_over_time(x[59m59s999ms:1h] offset 2h)) unless vector(time()) * 2',
    '"text"',
    "scalar(x) ^ -(1)",
]
AT = ["x @ 5", "rate(x[5m] @ end())", "sum(x) or max_over_time((y)[1h:5m] @ start())"]


def _walked(expr: str) -> list:
    seen: list = []
    pp.walk(pp.parse(expr), pre_visit=lambda node: seen.append(node) or True)
    return seen


@pytest.mark.parametrize("expr", EXPRS + AT)
def test_nodes_are_what_walk_visits_in_its_order(expr):
    ours, theirs = nodes(pp.parse(expr)), _walked(expr)
    assert [(type(n).__name__, str(n)) for n in ours] == [(type(n).__name__, str(n)) for n in theirs]
    assert [str(s) for s in vector_selectors(pp.parse(expr))] == [
        str(n) for n in theirs if isinstance(n, pp.VectorSelector)]


def test_at_modifier_found_wherever_it_is():
    assert all(has_at_modifier(e) for e in AT)
    assert not any(has_at_modifier(e) for e in [*EXPRS, 'x{a="@"}'])


def test_a_long_or_chain_is_walked_whole():
    """The merged model constants of e2e/test_reports.py are chains of about 100 ``or``; every term is seen."""
    chain = " or ".join(f'label_replace(vector({i}), "row", "{i}", "", "")' for i in range(120))
    assert len([n for n in nodes(pp.parse(chain)) if isinstance(n, pp.Call) and n.func.name == "vector"]) == 120
    assert has_at_modifier(f"{chain} or x @ 100")
