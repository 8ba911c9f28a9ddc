"""The spoke recording tier delivered the ACM way (``billing.spoke_tier: policy``): a governance ``Policy`` whose
``ConfigurationPolicy`` templates put the tier's ``PrometheusRule`` (and its namespace, labelled for OpenShift
cluster monitoring) on every managed cluster the ``Placement`` selects, bound by a ``PlacementBinding``.

Formats from upstream: Policy and PlacementBinding (open-cluster-management-io/governance-policy-propagator
deploy/crds/), ConfigurationPolicy (open-cluster-management-io/config-policy-controller deploy/crds/),
Placement and ManagedClusterSetBinding (open-cluster-management-io/api cluster/v1beta1, cluster/v1beta2); the
layout follows open-cluster-management-io/policy-collection (README "Using Placement with Policies"): all in one
namespace, into which a ManagedClusterSetBinding brings the clusters a Placement may select.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from gpudash.base import kube, layout
from gpudash.base.errors import GenerationError
from gpudash.model.types import Model
from gpudash.model.versions import ACM_CEL_SELECTOR, has_cel_selector
from gpudash.render.rules import spoke_tier
from gpudash.render.rules.format import Group
from gpudash.render.targets import prometheus_rule as single

POLICY_API = "policy.open-cluster-management.io/v1"
CLUSTER_GROUP = "cluster.open-cluster-management.io"
NAME = spoke_tier.GROUP
# The clusterset every managed cluster belongs to (open-cluster-management-io/api feature/feature.go
# DefaultClusterSet); the Placement narrows it to the model's clusters.
CLUSTER_SET = "global"
# The Placement selects the model's clusters by their ManagedCluster name, which MCO's `cluster` label is. From ACM
# 2.14 (outputs.acm_version) with a CEL expression: OCM evaluates celSelector expressions with the ManagedCluster as
# `managedCluster` (open-cluster-management-io/ocm pkg/placement/helpers/cel.go). Older hubs' Placement CRD has no
# celSelector (gpudash/model/versions.py): strict validation (kubectl, ArgoCD) refuses it, and without validation the
# field is pruned and the Policy goes to every cluster of the set, the hub included. For them the Placement selects
# the `name` label, which no controller sets on every ManagedCluster (OCM registration labels the cluster namespace
# only; the multicloud-operators-foundation, pkg/controllers/clusterinfo/autodetect_controller.go, sets cloud, vendor,
# clusterID and openshiftVersion*; only the console's import adds it, stolostron/console
# frontend/src/lib/import-cluster.ts), so the hub admin labels each model cluster `name=<its name>`; a cluster
# without it gets no tier and GPUBillingInputMissing names it. Label values are at most 63 characters.
NAME_LABEL = "name"
CEL_CLUSTER_NAME = "managedCluster.metadata.name"
# PromQL braces must reach Prometheus as written: no hub (propagator, controllers/propagator/propagation.go) or
# managed-cluster (config-policy-controller, controllers/configurationpolicy_controller.go) template processing.
NO_TEMPLATES = {"policy.open-cluster-management.io/disable-templates": "true"}


def _configuration_policy(name: str, compliance: str, prune: str, obj: dict[str, Any]) -> dict[str, Any]:
    """A policy template: a ConfigurationPolicy enforcing ``obj`` with ``compliance`` (musthave/mustonlyhave)."""
    return {"objectDefinition": {
        "apiVersion": POLICY_API, "kind": "ConfigurationPolicy",
        "metadata": {"name": name, "annotations": NO_TEMPLATES},
        "spec": {"remediationAction": "enforce", "severity": "high", "pruneObjectBehavior": prune,
                 "object-templates": [{"complianceType": compliance, "objectDefinition": obj}]}}}


def policy(tier: tuple[Group, ...], namespace: str) -> dict[str, Any]:
    """The Policy: the namespace (kept when the policy goes) and the tier's PrometheusRule of the ``tier`` groups
    (exactly as rendered, deleted with the policy)."""
    rule = single.prometheus_rule(NAME, tier)
    if "{{" in str(rule):
        raise GenerationError(f"{NAME}: a rule holds '{{{{', which ACM's policy templates would read as a template")
    templates = [_configuration_policy(f"{NAME}-namespace", "musthave", "None", single.namespace()),
                 _configuration_policy(f"{NAME}-rules", "mustonlyhave", "DeleteIfCreated", rule)]
    return kube.obj(POLICY_API, "Policy", NAME, namespace, annotations=NO_TEMPLATES,
                    spec={"disabled": False, "remediationAction": "enforce", "policy-templates": templates})


def cluster_selector(clusters: Iterable[str]) -> str:
    """The CEL expression true for exactly the ManagedClusters named in ``clusters``."""
    return f"{CEL_CLUSTER_NAME} in [{', '.join(json.dumps(c) for c in clusters)}]"


def label_selector(clusters: Sequence[str]) -> dict[str, Any]:
    """The label selector true for exactly the ManagedClusters whose ``name`` label names one of ``clusters``."""
    too_long = [c for c in clusters if len(c) > kube.LABEL_MAX]
    if too_long:
        raise GenerationError(f"cluster {too_long[0]!r} is longer than a label value ({kube.LABEL_MAX}), so a "
                              f"Placement cannot select it before ACM {ACM_CEL_SELECTOR}: with every hub on "
                              f"{ACM_CEL_SELECTOR} or later, set outputs.acm_version: '{ACM_CEL_SELECTOR}'")
    return {"matchExpressions": [{"key": NAME_LABEL, "operator": "In", "values": list(clusters)}]}


def placement(model: Model, namespace: str) -> dict[str, Any]:
    """Every managed cluster of the model (by its ManagedCluster name, or its ``name`` label on a hub older than
    ACM 2.14), from the bound clusterset."""
    selector = ({"celSelector": {"celExpressions": [cluster_selector(model.clusters)]}}
                if has_cel_selector(model.outputs.acm_version) else {"labelSelector": label_selector(model.clusters)})
    return kube.obj(f"{CLUSTER_GROUP}/v1beta1", "Placement", NAME, namespace,
                    spec={"clusterSets": [CLUSTER_SET], "predicates": [{"requiredClusterSelector": selector}]})


def artifacts(model: Model, tier: tuple[Group, ...], namespace: str) -> dict[str, dict[str, Any]]:
    """The ACM objects of the spoke tier's ``tier`` groups (none without the tier)."""
    if not tier:
        return {}
    binding = kube.obj(POLICY_API, "PlacementBinding", NAME, namespace,
                       placementRef={"apiGroup": CLUSTER_GROUP, "kind": "Placement", "name": NAME},
                       subjects=[{"apiGroup": POLICY_API.split("/")[0], "kind": "Policy", "name": NAME}])
    cluster_set = kube.obj(f"{CLUSTER_GROUP}/v1beta2", "ManagedClusterSetBinding", CLUSTER_SET, namespace,
                           spec={"clusterSet": CLUSTER_SET})
    return {layout.MCO_TIER_POLICY: policy(tier, namespace), layout.MCO_TIER_PLACEMENT: placement(model, namespace),
            layout.MCO_TIER_PLACEMENT_BINDING: binding, layout.MCO_TIER_CLUSTER_SET_BINDING: cluster_set}
