"""The rule files and PrometheusRule objects the recording rules are delivered in, and the single-cluster namespace."""
from __future__ import annotations

from gpudash.base import kube, layout
from gpudash.model.types import Model
from gpudash.render.rules import hub, spoke, spoke_tier
from gpudash.render.rules.format import Group, rule_file

# Platform Prometheus on OpenShift loads PrometheusRules only from namespaces with this label; user workload
# monitoring forbids the cross-namespace rules billing needs.
SINGLE_CLUSTER_NAMESPACE = "gpudash-monitoring"


def namespace() -> dict:
    """The namespace of gpudash's PrometheusRules, labelled for OpenShift cluster monitoring."""
    return kube.obj("v1", "Namespace", SINGLE_CLUSTER_NAMESPACE, labels=kube.CLUSTER_MONITORING)


def prometheus_rule(name: str, groups) -> dict:
    """A ``monitoring.coreos.com/v1`` PrometheusRule for OpenShift cluster monitoring."""
    return kube.obj("monitoring.coreos.com/v1", "PrometheusRule", name, SINGLE_CLUSTER_NAMESPACE,
                    labels={"role": "alert-rules"}, spec=rule_file(groups))


def tier_groups(model: Model) -> tuple[Group, ...]:
    """The spoke tier's group with ``billing.spoke_tier: policy``, else none."""
    return (spoke_tier.group(model),) if model.billing.tier else ()


def spoke_groups(model: Model) -> tuple[Group, ...]:
    """Every spoke group a single cluster runs: the tier's (if on), then ``gpudash-spoke``."""
    return (*tier_groups(model), spoke.group(model))


def files(spoke_group: Group, hub_groups: tuple[Group, ...], tier: tuple[Group, ...] = ()) -> dict[str, dict]:
    """The plain rule files (every render writes them); the spoke tier's group in its own file when on."""
    return {**({layout.SPOKE_TIER_RULES: rule_file(tier)} if tier else {}),
            layout.SPOKE_RULES: rule_file([spoke_group]), layout.HUB_RULES: rule_file(hub_groups)}


def objects(spoke_group: Group, hub_groups: tuple[Group, ...], tier: tuple[Group, ...] = ()) -> dict[str, dict]:
    """All of them as one PrometheusRule, with its namespace, for a single cluster (the prometheus-rule target)."""
    return {layout.RULES_NAMESPACE: namespace(),
            layout.RULES_PROMETHEUS_RULE: prometheus_rule("gpudash-rules", (*tier, spoke_group, *hub_groups))}


def artifacts(model: Model) -> dict[str, dict]:
    """The plain rule files of ``model`` alone (tests, the demo)."""
    return files(spoke.group(model), hub.groups(model), tier_groups(model))
