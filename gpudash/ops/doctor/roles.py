"""Which checks each role runs: a spoke, the ACM hub, or a single cluster running both rule sets."""
from __future__ import annotations

import time

from gpudash.model.types import Model
from gpudash.ops.doctor.check import OK, Check
from gpudash.ops.doctor.cluster_pushes import (
    billed_hours,
    clusters,
    push_intervals,
    pushed_inputs,
    pushes,
    tenant_clusters,
)
from gpudash.ops.doctor.exporter_scrape import exporters
from gpudash.ops.doctor.prometheus_storage import storage
from gpudash.ops.doctor.raw_inputs import billing_inputs, pricing, product_labels, raw_series
from gpudash.ops.doctor.rule_evaluation import rule_groups, spoke_rules, tier
from gpudash.ops.prometheus_client import Prometheus
from gpudash.render import alerts
from gpudash.render.rules import hub, spoke

ROLES = ("spoke", "hub", "single")  # single: one Prometheus running the spoke and the hub rules (no ACM)


def run(prom: Prometheus, model: Model, role: str, now: float | None = None) -> list[Check]:
    """Every check of ``role`` against ``prom`` at ``now`` (default: the current time)."""
    now = time.time() if now is None else now
    checks: list[Check] = []
    if role in ("spoke", "single"):
        for check in (raw_series, product_labels, pricing, exporters, billing_inputs, tier, spoke_rules, storage):
            checks += check(prom, model, now)
    if role in ("hub", "single"):
        local = (spoke.group(model),) if role == "single" else ()  # on ACM the collector runs the spoke rules
        checks += rule_groups(prom, model, now, (*local, *hub.groups(model), *alerts.hub_groups(model)))
        expected = clusters(prom, model, role, now)
        push_checks = pushes(prom, model, expected, now)
        pushing = tuple(c for c, check in zip(expected, push_checks) if check.status == OK)
        checks += push_checks + billed_hours(prom, model, pushing, now)
        if role == "hub":  # on a single cluster nothing pushes: the spoke rules are a rule group
            checks += push_intervals(prom, model, pushing, now) + pushed_inputs(prom, model, now)
        checks += tenant_clusters(prom, model, now)
    return checks
