"""Recording rules: spoke (allocation, measured per cluster) and hub (billing, CCSP), as rule files and
``PrometheusRule`` objects for a single cluster without ACM."""
from __future__ import annotations

from gpudash import kube, layout
from gpudash.model.types import Model
from gpudash.rules import hub, spoke
from gpudash.rules.format import Group, rule_file

# Platform Prometheus on OpenShift loads PrometheusRules only from namespaces with this label; user workload
# monitoring forbids the cross-namespace rules billing needs.
SINGLE_CLUSTER_NAMESPACE = "gpudash-monitoring"


def prometheus_rule(name: str, groups) -> dict:
    """A ``monitoring.coreos.com/v1`` PrometheusRule for OpenShift cluster monitoring."""
    return kube.obj("monitoring.coreos.com/v1", "PrometheusRule", name, SINGLE_CLUSTER_NAMESPACE,
                    labels={"role": "alert-rules"}, spec=rule_file(groups))


def files(spoke_group: Group, hub_groups: tuple[Group, ...]) -> dict[str, dict]:
    """The plain rule files (every render writes them)."""
    return {layout.SPOKE_RULES: rule_file([spoke_group]), layout.HUB_RULES: rule_file(hub_groups)}


def objects(spoke_group: Group, hub_groups: tuple[Group, ...]) -> dict[str, dict]:
    """Both as one PrometheusRule, with its namespace, for a single cluster (the prometheus-rule target)."""
    namespace = kube.obj("v1", "Namespace", SINGLE_CLUSTER_NAMESPACE, labels=kube.CLUSTER_MONITORING)
    return {layout.RULES_NAMESPACE: namespace,
            layout.RULES_PROMETHEUS_RULE: prometheus_rule("gpudash-rules", (spoke_group, *hub_groups))}


def artifacts(model: Model) -> dict[str, dict]:
    """The plain rule files of ``model`` alone (tests, the demo)."""
    return files(spoke.group(model), hub.groups(model))
