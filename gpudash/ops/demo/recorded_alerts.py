"""The tenant alerts of a model as the ``ALERTS`` series, recorded so that the demo can backfill them.

``promtool tsdb create-blocks-from rules`` evaluates recording rules only, and the demo's history ends before its
server starts, so no alert would ever have fired in it and the tenants' "Active alerts" panel would stay empty.
Each tenant-audience alerting rule becomes a recording rule of the series Prometheus writes for a firing alert
(prometheus/prometheus ``rules/alerting.go``: metric ``ALERTS``, the alert's labels, the rule's labels,
``alertname`` and ``alertstate``, value 1). Its ``for:`` is not modelled: a condition counts as firing from its
first evaluation, which the demo's hours of idle GPUs outlast anyway.
"""
from __future__ import annotations

ALERTS_SERIES = "ALERTS"
FILE = "gpudash.alerts-recorded.yaml"  # beside the rule files the demo renders into its work folder


def rule_file(model) -> dict:
    """``{"groups": [...]}``: one recording group per alert group with tenant alerts, at the group's interval."""
    from gpudash.base.yamlfmt import strip_comments
    from gpudash.model import alert_names as an
    from gpudash.render.alerts import hub_groups
    from gpudash.render.rules.format import rule_file as alert_file

    groups = []
    for group in strip_comments(alert_file(hub_groups(model)))["groups"]:
        rules = [{"record": ALERTS_SERIES, "expr": f"({rule['expr']}) * 0 + 1",
                  "labels": {**rule.get("labels", {}), "alertname": rule["alert"], "alertstate": "firing"}}
                 for rule in group["rules"] if (rule.get("labels") or {}).get(an.AUDIENCE) == an.TENANT]
        if rules:
            groups.append({"name": f"{group['name']}-recorded", "interval": group.get("interval", "1m"),
                           "rules": rules})
    return {"groups": groups}
