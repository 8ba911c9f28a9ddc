"""Billing-data integrity (provider alerts): is every cluster pushing, is allocation measured, is every GPU-hour
priced, are the billing rules evaluating in time?

What the hub has to work with: gpudash's spoke series (``cluster:gpudash_billed_hour:start_timestamp`` is pushed
by every cluster at every push, GPUs or not, so it is the per-cluster heartbeat), and from ACM's default
allowlist ``up``, ``kube_node_status_capacity`` and ``kube_pod_container_resource_requests`` (pods waiting for
a node have ``node=""``; no phase is needed, so gpudash adds no kube-state-metrics series to the allowlist).

One module per question, each with its alerts and their promtool tests: :mod:`.pushing` (clusters pushing, hours
covered), :mod:`.sources` (kube-state-metrics, GPU exporters, the spoke's inputs, product labels),
:mod:`.unbilled` (unpriced GPU-hours, unallocated energy, GPU requests without a node) and :mod:`.rule_health`.
"""
from gpudash.render.alerts.integrity.integrity_group import alerts, group, tests

__all__ = ["alerts", "group", "tests"]
