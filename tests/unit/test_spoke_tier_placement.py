"""The spoke tier's Placement reaches exactly the model's clusters, however each was imported.

OCM's placement controller evaluates a ``celSelector`` expression with the ManagedCluster as ``managedCluster``
(open-cluster-management-io/ocm pkg/placement/helpers/cel.go); here cel-python evaluates the rendered expression
the same way against ManagedClusters as the import paths create them: OCM registration (the klusterlet's
ManagedCluster carries no label of its own; the hub's mutating webhook adds the clusterset label,
open-cluster-management-io/ocm pkg/registration/webhook/v1/managedcluster_mutating.go), the console's import (which
also adds ``name``), and an import with other labels. The old ``name`` label selector missed all but the console's.
"""
from __future__ import annotations

import celpy
import pytest

from gpudash.model import model_from_dict
from gpudash.render.mco import spoke_tier as delivery
from tests.unit.test_mco_settings import example

CLUSTERSET = {"cluster.open-cluster-management.io/clusterset": "default"}


def _managed_cluster(name: str, labels: dict) -> dict:
    return {"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster",
            "metadata": {"name": name, "labels": labels}, "spec": {"hubAcceptsClient": True}}


def _selected(placement: dict, cluster: dict) -> bool:
    (predicate,) = placement["spec"]["predicates"]
    selector = predicate["requiredClusterSelector"]
    assert set(selector) == {"celSelector"}  # no label a controller may not set
    env = celpy.Environment()
    return all(bool(env.program(env.compile(e)).evaluate({"managedCluster": celpy.json_to_cel(cluster)}))
               for e in selector["celSelector"]["celExpressions"])


@pytest.mark.parametrize("labels", [CLUSTERSET, {**CLUSTERSET, "name": "x-console"},
                                    {**CLUSTERSET, "vendor": "OpenShift", "cloud": "Amazon"}],
                         ids=["registration", "console", "auto-import"])
def test_every_model_cluster_is_selected_whatever_its_labels(labels):
    model = model_from_dict(example(**{"billing.spoke_tier": "policy"}))
    placement = delivery.placement(model, "open-cluster-management-observability")
    for name in model.clusters:
        assert _selected(placement, _managed_cluster(name, labels)), (name, labels)
    assert not _selected(placement, _managed_cluster("local-cluster", labels))
    assert not _selected(placement, _managed_cluster(model.clusters[0] + "-2", {**labels, "name": model.clusters[0]}))
