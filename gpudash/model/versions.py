"""The ACM and OpenShift GitOps releases whose APIs gpudash renders for (the supported-versions matrix,
docs/outputs.md).

An ACM release ships MCE 2.(minor - 5), whose OCM build (stolostron/ocm branch ``backplane-2.<minor - 5>``) holds the
Placement and ManagedClusterSetBinding CRDs; tests/fixtures/upstream/acm/<version>/ holds each release's schemas, and
tests/fixtures/upstream/gitops/<version>/ the Argo CD CRDs each OpenShift GitOps release installs.
"""
from __future__ import annotations

ACM_VERSIONS = ("2.12", "2.13", "2.14", "2.15")
# Placement's requiredClusterSelector.celSelector (open-cluster-management-io/api cluster/v1beta1/types_placement.go
# ClusterCelSelector, first in OCM v1.0.0) is in stolostron/ocm's Placement CRD
# (manifests/cluster-manager/hub/0000_02_clusters.open-cluster-management.io_placements.crd.yaml) from branch
# backplane-2.9 (ACM 2.14), not on backplane-2.8 (ACM 2.13) or before.
ACM_CEL_SELECTOR = "2.14"
# OpenShift GitOps 1.18, 1.19, 1.20, 1.21 build on Argo CD 3.1, 3.1, 3.3, 3.4 (redhat-developer/gitops-operator go.mod
# on branches v1.18 to v1.21); each installs the Application and ApplicationSet CRDs of its bundle/manifests/.
GITOPS_VERSIONS = ("1.18", "1.19", "1.20", "1.21")


def has_cel_selector(acm_version: str) -> bool:
    """Whether every hub of ACM ``acm_version`` or later accepts a Placement's ``celSelector``."""
    return ACM_VERSIONS.index(acm_version) >= ACM_VERSIONS.index(ACM_CEL_SELECTOR)
