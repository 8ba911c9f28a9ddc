"""Every rendered recording rule's output labels are the ones the series registry (gpudash.model.series) declares.

The output labels are read from the parsed expression (promql-parser): aggregations keep their ``by`` labels
(or drop their ``without`` ones), vector matching keeps the left side plus ``group_left`` labels, ``or`` gives
either side's labels, ``label_replace``/``label_join`` add their target, and a registered series read by a rule
has its registered labels. A raw exporter series has unknown labels, so a rule must aggregate it away.
"""
from __future__ import annotations

from dataclasses import replace

import promql_parser as p
import pytest
import yaml

from gpudash.base import layout
from gpudash.model import series as names
from gpudash.render import rules
from gpudash.render.rules import hub
from gpudash.render.rules.format import Rule

UNKNOWN = "?"  # a label set that cannot be told from the expression (a raw series not aggregated)


def _sets(node, hub: bool) -> set[frozenset] | None:
    """The possible label sets of ``node``'s result (None for a scalar or string)."""
    if isinstance(node, (p.NumberLiteral, p.StringLiteral)):
        return None
    if isinstance(node, (p.ParenExpr, p.SubqueryExpr, p.UnaryExpr)):
        return _sets(node.expr, hub)
    if isinstance(node, p.MatrixSelector):
        return _sets(node.vector_selector, hub)
    if isinstance(node, p.VectorSelector):
        series = names.SERIES.get(node.name)
        if series is None:
            return {frozenset([UNKNOWN])}
        extra = {"clusterID"} if hub and series.where == names.SPOKE else set()
        rows = {frozenset(series.labels) | extra}
        return rows | {frozenset({names.SENTINEL_LABEL, "cluster", *extra})} if series.sentinel else rows
    if isinstance(node, p.AggregateExpr):
        inner = _sets(node.expr, hub)
        if node.modifier is None:
            return {frozenset()}
        kept = frozenset(node.modifier.labels)
        if str(node.modifier.type).endswith("Without"):
            return {s - kept for s in inner}
        return {kept}
    if isinstance(node, p.Call):
        return _call(node, hub)
    if isinstance(node, p.BinaryExpr):
        return _binary(node, hub)
    raise AssertionError(f"unexpected node {type(node).__name__}")


def _call(node, hub: bool):
    name = node.func.name
    if name in ("vector",):
        return {frozenset()}
    if name in ("time", "scalar", "days_in_month"):
        return None if name != "days_in_month" else _sets(node.args[0], hub)
    inner = _sets(node.args[0], hub)
    if name in ("label_replace", "label_join"):
        return {s | {node.args[1].val} for s in inner}
    return inner  # *_over_time, floor, ceil, timestamp, date functions: the argument's labels


def _binary(node, hub: bool):
    lhs, rhs = _sets(node.lhs, hub), _sets(node.rhs, hub)
    if lhs is None or rhs is None:
        return lhs if rhs is None else rhs
    op = str(node.op).lower()
    if op == "or":
        return lhs | rhs
    modifier = node.modifier
    card = str(modifier.card) if modifier is not None else ""
    include = frozenset(modifier.group_labels or ()) if modifier is not None and modifier.group_labels else frozenset()
    if card.endswith("OneToMany"):
        return {s | include for s in rhs}
    return {s | include for s in lhs}


def _recording_rules(groups):
    return [r.data() for g in groups for r in g.rules if isinstance(r, Rule)]


def _check(rules, hub: bool) -> set[str]:
    """Assert each rule's output labels against the registry; the names of the series checked."""
    where = (names.HUB,) if hub else (names.SPOKE, names.SPOKE_TIER)
    for rule in rules:
        series = names.SERIES[rule["record"]]  # every recorded series is registered
        assert series.where in where, rule["record"]
        allowed = {frozenset(series.labels)} | ({frozenset({names.SENTINEL_LABEL})} if series.sentinel else set())
        if not hub:  # cluster is a spoke external label (or added by the collector): optional on the spoke
            allowed = {a | {"cluster"} for a in allowed}
        elif series.sentinel:  # a hub settle (names.SETTLED) aggregates the pushed rows by their labels and the
            # sentinel label at once: a data row has no sentinel label, the sentinel row only cluster
            allowed |= {frozenset(series.labels) | {names.SENTINEL_LABEL}}
        outputs = _sets(p.parse(rule["expr"]), hub)
        # with billing.backfill_hours an hourly spoke rule carries the lag label on every row (rules.spoke._lagged)
        lagged = not hub and all(names.LAG_LABEL in labels for labels in outputs)
        for labels in outputs:
            labels = labels | set(rule.get("labels", {})) | (set() if hub else {"cluster"})
            labels -= {names.LAG_LABEL} if lagged else set()
            assert labels in allowed, f"{rule['record']}: output labels {sorted(labels)}, registry {series.labels}"
    return {rule["record"] for rule in rules}


@pytest.mark.parametrize("path, hub", [(layout.SPOKE_RULES, False), (layout.HUB_RULES, True)])
def test_every_rendered_recording_rule_has_its_registered_labels(rendered, path, hub):
    rules = [r for g in yaml.safe_load((rendered / path).read_text())["groups"] for r in g["rules"] if "record" in r]
    assert _check(rules, hub)


def test_every_registered_series_is_recorded_with_its_labels(example_model):
    """With the idle power veto and the spoke tier on (off in the example), the generators record every
    registered series, and the hourly rules that read the tier's series keep their registered labels."""
    idle = replace(example_model.alerts.idle, power_veto_watts=50.0)
    model = replace(example_model, alerts=replace(example_model.alerts, idle=idle),
                    billing=replace(example_model.billing, spoke_tier="policy"))
    seen = (_check(_recording_rules(rules.spoke_groups(model)), False)
            | _check(_recording_rules(hub.groups(model)), True))
    assert seen == set(names.SERIES)


def test_the_label_reader_sees_a_wrong_label():
    """The check above can fail: a rule that forgets a label or keeps an extra one is caught."""
    wrong = f"sum by (cluster, namespace) ({names.POD_COST_RATE})"
    assert _sets(p.parse(wrong), True) == {frozenset({"cluster", "namespace"})}
    assert frozenset(names.labels(names.HOUR_COST)) not in _sets(p.parse(wrong), True)
    joined = f"{names.POD_ALLOCATED} * on (cluster, pod) group_left (tenant) {names.TENANT_INFO}"
    assert _sets(p.parse(joined), True) == {frozenset({*names.labels(names.POD_ALLOCATED), "clusterID", "tenant"})}
    assert _sets(p.parse("sum without (row) (label_replace(up, \"x\", \"1\", \"\", \"\"))"), True) == {
        frozenset({UNKNOWN, "x"})}


def test_registry_is_consistent():
    for s in names.SERIES.values():
        level, metric, ops = s.name.split(":")
        assert metric.startswith("gpudash_") and ops and s.meaning, s.name
        assert "cluster" in s.labels and set(s.detail) <= set(s.labels), s.name
        assert len(set(s.labels)) == len(s.labels), s.name
