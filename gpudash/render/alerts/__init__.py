"""Alerts: tenant budgets and burn, idle GPUs, billing-data integrity, GPU health, the pruner's ineffective stops;
Alertmanager routing; GPU quotas per tenant.

Every alert reads gpudash's recorded series (and a few raw ones, see :mod:`gpudash.model.alert_names`) and is built
with :mod:`gpudash.promql.build`. The same groups run in the ACM hub's Thanos Ruler (``mco/`` ConfigMap), as a
plain rule file and as a ``PrometheusRule`` for a single cluster. ``render`` also writes promtool tests for every
alert (``tests/alerts-<family>.test.yaml``), the Alertmanager configuration and the tenants' ResourceQuotas (paths:
:mod:`gpudash.base.layout`).
"""
from gpudash.render.alerts.alert_files import (
    allowlist_matches,
    allowlist_names,
    artifacts,
    files,
    hub_groups,
    tests,
)

__all__ = ["allowlist_matches", "allowlist_names", "artifacts", "files", "hub_groups", "tests"]
