"""The rules run: every gpudash rule group loaded, healthy and evaluating, each spoke rule evaluating in time, the
spoke tier's group where the model has one."""
from __future__ import annotations

import time

from gpudash.model.types import Model
from gpudash.ops.doctor.check import FAIL, OK, WARN, Check
from gpudash.ops.prometheus_client import Prometheus, PrometheusError
from gpudash.render.rules import inputs, spoke, spoke_tier

SLOW_RULE = 5.0  # seconds: a spoke rule slower than this delays the metrics-collector's push


def spoke_rules(prom: Prometheus, model: Model, now: float) -> list[Check]:
    """Each spoke rule evaluates here (what the metrics-collector runs at every push), and how long it takes."""
    times, failed = [], []
    for rule in spoke.rules(model):
        start = time.monotonic()
        try:
            prom.query(rule.expr, now, figures=False)  # evaluating is the check; NaN may be a valid result
        except PrometheusError as err:
            failed.append(f"{rule.record}: {err}")
        times.append((time.monotonic() - start, rule.record))
    slowest, record = max(times)
    if failed:
        return [Check("spoke rules evaluate", FAIL, failed[0], "see the error; check the Prometheus version")]
    status = WARN if slowest > SLOW_RULE else OK
    return [Check("spoke rules evaluate", status, f"{len(times)} rules, slowest {slowest:.2f}s ({record})",
                  "give Prometheus more CPU or a shorter billing.resolution" if status == WARN else "")]


def tier(prom: Prometheus, model: Model, now: float) -> list[Check]:
    """With ``billing.spoke_tier: policy``, the tier's rule group is loaded here and evaluating: a cluster the
    Placement missed bills nothing from the tier (its hourly figures are empty)."""
    if not model.billing.tier:
        return []
    name = "spoke tier"
    group = _groups(prom).get(spoke_tier.GROUP)
    if group is None:
        return [Check(name, FAIL, f"rule group {spoke_tier.GROUP} not loaded on this cluster: its hourly GPU-hours "
                      "and energy are empty", inputs.FIX[inputs.SPOKE_TIER])]
    age = _group_age(group, now)
    if age is None or age > 3 * float(group.get("interval") or 60):
        shown = "never evaluated" if age is None else f"last evaluated {age:.0f}s ago"
        return [Check(name, FAIL, f"rule group {spoke_tier.GROUP} loaded but not evaluating ({shown})",
                      "check the platform Prometheus' rule evaluation (its log names the failing rule)")]
    return [Check(name, OK, f"rule group {spoke_tier.GROUP} loaded and evaluating")]


def _group_age(group: dict, now: float) -> float | None:
    """Seconds since the group's last evaluation; None when it never ran (the client reads Go's zero time as
    None)."""
    last = group["lastEvaluation"]
    return None if last is None else now - last.timestamp()


def _groups(prom: Prometheus) -> dict[str, dict]:
    return {g["name"]: g for g in prom.rules()}


def rule_groups(prom: Prometheus, model: Model, now: float, groups) -> list[Check]:
    """Every gpudash rule group is loaded, healthy and evaluated within two of its intervals."""
    loaded = _groups(prom)
    missing = [g.name for g in groups if g.name not in loaded]
    if missing:
        return [Check("rule groups", FAIL, f"not loaded: {', '.join(missing)}",
                      "apply the rendered rules (mco/ on the ACM hub, rules/kubernetes and alerts/kubernetes on a "
                      "single cluster)")]
    bad = [f"{r.get('name') or r.get('alert')}: {r.get('lastError')}" for g in groups
           for r in loaded[g.name]["rules"] if r.get("health") == "err"]
    if bad:
        return [Check("rule groups", FAIL, f"{len(bad)} rule(s) failing, first {bad[0]}", "see the rule's error")]
    ages = {g.name: _group_age(loaded[g.name], now) for g in groups}
    idle = [n for n, age in ages.items() if age is None or age > 3 * loaded[n]["interval"]]
    if idle:
        age = ages[idle[0]]
        shown = "never evaluated" if age is None else f"last evaluated {age:.0f}s ago"
        return [Check("rule groups", FAIL, f"{len(idle)} group(s) not evaluating, first {idle[0]} ({shown})",
                      "check the rule evaluator (Thanos Ruler on the hub) is running and can query")]
    return [Check("rule groups", OK, f"{len(groups)} groups loaded, healthy and evaluating")]
