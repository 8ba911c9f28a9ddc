"""The spoke tier's Placement reaches exactly the model's clusters, in the form each supported ACM accepts.

From ACM 2.14 (``outputs.acm_version``) a ``celSelector``: OCM's placement controller evaluates it with the
ManagedCluster as ``managedCluster`` (open-cluster-management-io/ocm pkg/placement/helpers/cel.go); here cel-python
evaluates the rendered expression the same way. Before, a ``labelSelector`` on the ``name`` label: OCM matches it
as a Kubernetes label selector on the ManagedCluster's labels (stolostron/ocm backplane-2.8
pkg/placement/helpers/clusters.go ``ClusterSelector.Matches``, ``metav1.LabelSelectorAsSelector``), evaluated here
with ``In`` semantics. The ManagedClusters are as the import paths create them: OCM registration (the klusterlet's
ManagedCluster carries no label of its own; the hub's mutating webhook adds the clusterset label,
open-cluster-management-io/ocm pkg/registration/webhook/v1/managedcluster_mutating.go), an import with other labels,
and a cluster the hub admin labelled ``name=<its name>`` as docs/billing.md asks for the label form.
"""
from __future__ import annotations

import celpy
import pytest

from gpudash.base import kube
from gpudash.model import model_from_dict
from gpudash.model.versions import ACM_VERSIONS, has_cel_selector
from gpudash.render.targets.acm import spoke_tier as delivery
from tests.unit.test_mco_settings import example

CLUSTERSET = {"cluster.open-cluster-management.io/clusterset": "default"}
IMPORTS = {"registration": CLUSTERSET, "auto-import": {**CLUSTERSET, "vendor": "OpenShift", "cloud": "Amazon"}}


def _managed_cluster(name: str, labels: dict) -> dict:
    return {"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster",
            "metadata": {"name": name, "labels": labels}, "spec": {"hubAcceptsClient": True}}


def _cel(selector: dict, cluster: dict) -> bool:
    env = celpy.Environment()
    return all(bool(env.program(env.compile(e)).evaluate({"managedCluster": celpy.json_to_cel(cluster)}))
               for e in selector["celExpressions"])


def _labels(selector: dict, cluster: dict) -> bool:
    labels = cluster["metadata"]["labels"]
    assert set(selector) == {"matchExpressions"}
    assert {e["operator"] for e in selector["matchExpressions"]} == {"In"}  # the only operator evaluated here
    return all(e["key"] in labels and labels[e["key"]] in e["values"] for e in selector["matchExpressions"])


def _selected(placement: dict, cluster: dict) -> bool:
    (predicate,) = placement["spec"]["predicates"]
    ((form, selector),) = predicate["requiredClusterSelector"].items()
    return {"celSelector": _cel, "labelSelector": _labels}[form](selector, cluster)


@pytest.fixture(scope="module", params=ACM_VERSIONS)
def acm(request):
    model = model_from_dict(example(**{"billing.spoke_tier": "policy", "outputs.acm_version": request.param}))
    return model, delivery.placement(model, "open-cluster-management-observability")


@pytest.mark.parametrize("how", sorted(IMPORTS))
def test_every_model_cluster_is_selected_and_no_other(acm, how):
    model, placement = acm
    named = has_cel_selector(model.outputs.acm_version)
    for name in model.clusters:
        assert _selected(placement, _managed_cluster(name, IMPORTS[how])) == named, name  # the label form needs it
        assert _selected(placement, _managed_cluster(name, {**IMPORTS[how], delivery.NAME_LABEL: name})), name
    for labels in (IMPORTS[how], {**IMPORTS[how], delivery.NAME_LABEL: "local-cluster"}):
        assert not _selected(placement, _managed_cluster("local-cluster", labels))  # the hub
    other = model.clusters[0] + "-2"
    assert not _selected(placement, _managed_cluster(other, {**IMPORTS[how], delivery.NAME_LABEL: other}))


def test_the_form_follows_the_oldest_hub():
    forms = {v: set(delivery.placement(model_from_dict(example(**{"billing.spoke_tier": "policy",
                                                                  "outputs.acm_version": v})), "ns")
                    ["spec"]["predicates"][0]["requiredClusterSelector"]) for v in ACM_VERSIONS}
    assert forms == {v: {"celSelector"} if has_cel_selector(v) else {"labelSelector"} for v in ACM_VERSIONS}
    assert model_from_dict(example()).outputs.acm_version == ACM_VERSIONS[0]  # by default every supported ACM


def test_a_cluster_name_no_label_can_hold_is_refused_before_acm_2_14():
    from gpudash.base.errors import GenerationError

    with pytest.raises(GenerationError, match="outputs.acm_version"):
        delivery.label_selector(["a" * (kube.LABEL_MAX + 1)])
