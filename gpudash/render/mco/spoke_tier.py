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

from gpudash.base import kube, layout
from gpudash.base.errors import GenerationError
from gpudash.model.types import Model
from gpudash.render import rules
from gpudash.render.rules import prometheus_rule, spoke_tier
from gpudash.render.rules.format import Group

POLICY_API = "policy.open-cluster-management.io/v1"
CLUSTER_GROUP = "cluster.open-cluster-management.io"
NAME = spoke_tier.GROUP
# The clusterset every managed cluster belongs to (open-cluster-management-io/api feature/feature.go
# DefaultClusterSet); the Placement narrows it to the model's clusters.
CLUSTER_SET = "global"
# The Placement selects the model's clusters by their ManagedCluster name, which MCO's `cluster` label is, with a CEL
# expression: OCM evaluates celSelector expressions with the ManagedCluster as `managedCluster`
# (open-cluster-management-io/ocm pkg/placement/helpers/cel.go; the field is in cluster/v1beta1 since
# open-cluster-management-io/api#365, types_placement.go ClusterCelSelector). A label would not do: no controller
# sets a `name` label on every ManagedCluster (OCM registration labels the cluster namespace only; the
# multicloud-operators-foundation and managedcluster-import-controller set none; only the console's import adds
# it), so clusters imported another way would silently get no tier. A hub whose Placement CRD predates
# celSelector drops the field and places the tier on every cluster of the clusterset (harmless: it only records).
CEL_CLUSTER_NAME = "managedCluster.metadata.name"
# PromQL braces must reach Prometheus as written: no hub (propagator, controllers/propagator/propagation.go) or
# managed-cluster (config-policy-controller, controllers/configurationpolicy_controller.go) template processing.
NO_TEMPLATES = {"policy.open-cluster-management.io/disable-templates": "true"}


def _configuration_policy(name: str, compliance: str, prune: str, obj: dict) -> dict:
    """A policy template: a ConfigurationPolicy enforcing ``obj`` with ``compliance`` (musthave/mustonlyhave)."""
    return {"objectDefinition": {
        "apiVersion": POLICY_API, "kind": "ConfigurationPolicy",
        "metadata": {"name": name, "annotations": NO_TEMPLATES},
        "spec": {"remediationAction": "enforce", "severity": "high", "pruneObjectBehavior": prune,
                 "object-templates": [{"complianceType": compliance, "objectDefinition": obj}]}}}


def policy(tier: tuple[Group, ...], namespace: str) -> dict:
    """The Policy: the namespace (kept when the policy goes) and the tier's PrometheusRule of the ``tier`` groups
    (exactly as rendered, deleted with the policy)."""
    rule = prometheus_rule(NAME, tier)
    if "{{" in str(rule):
        raise GenerationError(f"{NAME}: a rule holds '{{{{', which ACM's policy templates would read as a template")
    templates = [_configuration_policy(f"{NAME}-namespace", "musthave", "None", rules.namespace()),
                 _configuration_policy(f"{NAME}-rules", "mustonlyhave", "DeleteIfCreated", rule)]
    return kube.obj(POLICY_API, "Policy", NAME, namespace, annotations=NO_TEMPLATES,
                    spec={"disabled": False, "remediationAction": "enforce", "policy-templates": templates})


def cluster_selector(clusters) -> str:
    """The CEL expression true for exactly the ManagedClusters named in ``clusters``."""
    return f"{CEL_CLUSTER_NAME} in [{', '.join(json.dumps(c) for c in clusters)}]"


def placement(model: Model, namespace: str) -> dict:
    """Every managed cluster of the model (by its ManagedCluster name), from the bound clusterset."""
    selector = {"celSelector": {"celExpressions": [cluster_selector(model.clusters)]}}
    return kube.obj(f"{CLUSTER_GROUP}/v1beta1", "Placement", NAME, namespace,
                    spec={"clusterSets": [CLUSTER_SET], "predicates": [{"requiredClusterSelector": selector}]})


def artifacts(model: Model, tier: tuple[Group, ...], namespace: str) -> dict[str, dict]:
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
