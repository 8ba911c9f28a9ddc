"""Recording rules by dependency level, for backfill: a rule reading another rule's output needs that output
loaded first (``promtool tsdb create-blocks-from rules`` evaluates each rule against the server as it is).
"""
from __future__ import annotations

import json


def rule_key(group: dict, rule: dict) -> tuple[str, str]:
    """A rule's identity in :func:`rule_levels`: its group's name and the rule as JSON."""
    return group["name"], json.dumps(rule, sort_keys=True)


def selected_names(expr: str) -> set[str]:
    """Metric names an expression reads (vector selectors by name or ``__name__="..."``)."""
    import promql_parser as pp

    from gpudash.promql.lint import vector_selectors

    found: set[str] = set()
    for node in vector_selectors(pp.parse(expr)):
        if node.name:
            found.add(node.name)
        found.update(m.value for m in node.matchers.matchers if m.name == "__name__" and m.op == pp.MatchOp.Equal)
    return found


def rule_levels(groups: list[dict]) -> list[dict[str, set]]:
    """Recording rules by dependency level: level 1 reads no recorded name of these groups, level k reads
    something of level k-1. Returns, per level, {record: {(group name, rule as JSON)}} (one record may have several
    rules, e.g. one per constant row)."""
    rules = [(g, r) for g in groups for r in g["rules"] if "record" in r]
    records = {r["record"] for _, r in rules}
    deps: dict[str, set[str]] = {}
    for _, r in rules:
        deps.setdefault(r["record"], set()).update(selected_names(r["expr"]) & records)
    level: dict[str, int] = {}

    def depth(name: str, stack=()) -> int:
        if name in level:
            return level[name]
        if name in stack:
            raise ValueError(f"recording rules form a cycle: {' -> '.join((*stack, name))}")
        d = 1 + max((depth(x, (*stack, name)) for x in deps[name] if x != name), default=0)
        level[name] = d
        return d

    for name in deps:
        depth(name)
    out: list[dict[str, set]] = [dict() for _ in range(max(level.values(), default=0))]
    for g, r in rules:
        out[level[r["record"]] - 1].setdefault(r["record"], set()).add(rule_key(g, r))
    return out
