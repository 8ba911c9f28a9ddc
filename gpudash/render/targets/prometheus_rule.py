"""``prometheus-rule``: PrometheusRule objects for a cluster's own Prometheus (rules/kubernetes,
alerts/kubernetes), and the PrometheusRule and namespace the acm target's spoke tier Policy puts on each cluster.
Pure; no I/O."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gpudash.base import kube, layout
from gpudash.model.types import Model
from gpudash.render.content import Content
from gpudash.render.rules.format import Group, rule_file

# Platform Prometheus on OpenShift loads PrometheusRules only from namespaces with this label; user workload
# monitoring forbids the cross-namespace rules billing needs.
SINGLE_CLUSTER_NAMESPACE = "gpudash-monitoring"
RULES_NAME, ALERTS_NAME = "gpudash-rules", "gpudash-alerts"


def namespace() -> dict[str, Any]:
    """The namespace of gpudash's PrometheusRules, labelled for OpenShift cluster monitoring."""
    return kube.obj("v1", "Namespace", SINGLE_CLUSTER_NAMESPACE, labels=kube.CLUSTER_MONITORING)


def prometheus_rule(name: str, groups: Iterable[Group]) -> dict[str, Any]:
    """A ``monitoring.coreos.com/v1`` PrometheusRule for OpenShift cluster monitoring."""
    return kube.obj("monitoring.coreos.com/v1", "PrometheusRule", name, SINGLE_CLUSTER_NAMESPACE,
                    labels={"role": "alert-rules"}, spec=rule_file(groups))


def deliver(model: Model, c: Content) -> dict[str, object]:
    """The rule groups (the tier's, the spoke's, the hub's) as one PrometheusRule with its namespace, and the alert
    groups as another."""
    return {layout.RULES_NAMESPACE: namespace(),
            layout.RULES_PROMETHEUS_RULE: prometheus_rule(RULES_NAME, (*c.tier, c.spoke, *c.hub)),
            layout.ALERTS_PROMETHEUS_RULE: prometheus_rule(ALERTS_NAME, c.alerts)}
